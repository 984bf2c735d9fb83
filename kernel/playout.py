"""Playing a game out: seeded agents, chance sampled exactly, and play that cannot end detected.

A playout stops when the game ends, when the side to move has no legal action although the game
is not over (a gap in the rules), or at a step limit. Because states are hashable and keep no
move counters, a position met twice proves that the rules let play go on without end (the
actions between the two visits can be repeated for ever); the first such lasso is recorded as a
witness and reported with the game's clauses if the step limit is reached.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, TypeVar

import attrs

from kernel.chance import sample
from kernel.game import CHANCE, Game, Outcome

S = TypeVar("S")
A = TypeVar("A")

Agent = Callable[[Game[S, A], S, Sequence[A], random.Random], A]
"""An agent picks one of the legal actions it is given (computed once per step by `play`)."""

DEFAULT_MAX_STEPS = 20_000


def random_agent(game: Game[S, A], state: S, legal: Sequence[A], rng: random.Random) -> A:
    """Uniform over the legal actions (the default agent of `wargame play`)."""
    return rng.choice(legal)


@attrs.frozen
class Lasso:
    """Play returned to a position seen before: steps `start`..`end` can repeat for ever."""

    start: int
    end: int


class CycleWatch(Generic[S]):
    """Remembers every position of a line of play and the first one met twice (a Lasso)."""

    def __init__(self, start: S) -> None:
        self._seen: dict[S, int] = {start: 0}
        self._steps = 0
        self.lasso: Lasso | None = None

    def see(self, state: S) -> None:
        """Record the position reached by one more step."""
        self._steps += 1
        if self.lasso is None:
            if state in self._seen:
                self.lasso = Lasso(self._seen[state], self._steps)
            else:
                self._seen[state] = self._steps


@attrs.frozen
class Playout(Generic[S, A]):
    actions: tuple[A, ...]
    final: S
    outcome: Outcome | None
    stop: str  # "ended" | "no_action" | "step_limit"
    clauses: tuple[str, ...] = ()
    lasso: Lasso | None = None

    def report(self) -> str:
        """One line saying how the playout stopped, with the clauses involved."""
        if self.stop == "ended" and self.outcome is not None:
            who = self.outcome.winner or "nobody"
            return f"result: {who} wins ({self.outcome.clause}): {self.outcome.reason}"
        cited = ", ".join(self.clauses)
        if self.stop == "no_action":
            return (
                f"gap: the side to move has no legal action although the game is not over ({cited})"
            )
        cycle = (
            f"; position after step {self.lasso.end} repeats step {self.lasso.start}, so "
            "play can go on without end"
            if self.lasso
            else ""
        )
        return f"play did not end within {len(self.actions)} steps ({cited}){cycle}"


def play(
    game: Game[S, A],
    state: S,
    rng: random.Random,
    agents: Mapping[str, Agent[S, A]] | None = None,
    *,
    max_steps: int = DEFAULT_MAX_STEPS,
    on_step: Callable[[S, A, S], Any] | None = None,
) -> Playout[S, A]:
    """Play from `state` until the game ends, no action exists, or `max_steps` actions."""
    actions: list[A] = []
    watch = CycleWatch(state)
    while True:
        side = game.to_move(state)
        if side is None:
            return Playout(tuple(actions), state, game.outcome(state), "ended", lasso=watch.lasso)
        if len(actions) >= max_steps:
            return Playout(
                tuple(actions), state, None, "step_limit", game.nontermination_clauses, watch.lasso
            )
        if side == CHANCE:
            action = sample(game.chance_outcomes(state), rng)
        else:
            legal = game.legal_actions(state)
            if not legal:
                return Playout(
                    tuple(actions),
                    state,
                    None,
                    "no_action",
                    game.no_action_clauses(state),
                    watch.lasso,
                )
            agent = (agents or {}).get(side, random_agent)
            action = agent(game, state, legal, rng)
        nxt = game.apply(state, action)
        if on_step is not None:
            on_step(state, action, nxt)
        actions.append(action)
        state = nxt
        watch.see(state)


def replay(game: Game[S, A], state: S, actions: list[A]) -> S:
    """Apply a logged action sequence (chance actions included); raises on the first illegal
    one, so a log that no longer fits the rules is caught."""
    for action in actions:
        state = game.apply(state, action)
    return state
