"""Playing a game out: seeded agents, chance sampled exactly, and play that cannot end detected.

A playout stops when the game ends, when the side to move has no legal action although the game
is not over (a gap in the rules), or at a step limit. Because states are hashable and keep no
move counters, a position met twice proves that the rules let play go on without end (the
actions between the two visits can be repeated for ever); the first such lasso is recorded as a
witness and reported with the game's clauses if the step limit is reached.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
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


Policy = Callable[[Mapping[str, Any], Sequence[A], random.Random], A]
"""A decision made from one side's observation (`Game.observe`) and its legal actions only."""


def random_policy(observation: Mapping[str, Any], legal: Sequence[A], rng: random.Random) -> A:
    """Uniform over the legal actions: the same choice `random_agent` makes, from less."""
    return rng.choice(legal)


class Observation(Mapping[str, Any]):
    """One side's observation of a state, computed on first use, so that a policy that never
    looks (a random one) costs nothing; the policy still gets nothing but the observation."""

    def __init__(self, compute: Callable[[], dict[str, Any]]) -> None:
        self._compute: Callable[[], dict[str, Any]] | None = compute
        self._data: dict[str, Any] = {}

    def _get(self) -> dict[str, Any]:
        if self._compute is not None:
            self._data, self._compute = self._compute(), None
        return self._data

    def __getitem__(self, key: str) -> Any:
        return self._get()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())


def observing(policy: Policy[A], side: str) -> Agent[S, A]:
    """An agent for `side` that sees only `side`'s observation, never the state: for games with
    hidden information, where the legal actions are a function of the observation."""

    def agent(game: Game[S, A], state: S, legal: Sequence[A], rng: random.Random) -> A:
        return policy(Observation(lambda: game.observe(state, side)), legal, rng)

    return agent


def default_agents(game: Game[S, A]) -> Mapping[str, Agent[S, A]] | None:
    """The agents `play` uses when none are given: the game's own `playout_agents()` if it
    declares them (a game with hidden information plays with observing agents), else None
    (uniform random agents on the full state)."""
    make = getattr(game, "playout_agents", None)
    return make() if callable(make) else None


@attrs.frozen
class Lasso:
    """Play returned to a position seen before: steps `start`..`end` can repeat for ever."""

    start: int
    end: int


class CycleWatch(Generic[S]):
    """Remembers every position of a line of play and the first one met twice (a Lasso).

    With `recall` (the position after a given number of steps, worked out again: `play`
    replays its log), only each position's hash is kept, with the last `RECENT` positions: a
    position met under a hash seen before is compared with the one kept or recalled. A long
    playout no longer keeps every state it passed alive, which the cyclic collector walked
    over and over; a short cycle (a step that changes nothing, a move and its undoing) is
    still confirmed without replaying."""

    RECENT = 16

    def __init__(self, start: S, recall: Callable[[int], S] | None = None) -> None:
        self._recall = recall
        self._seen: dict[S, int] = {start: 0}  # every position, without `recall`
        self._hashes: dict[int, list[int]] = {hash(start): [0]}  # the steps under each hash
        self._recent: dict[int, S] = {0: start}  # the last RECENT positions, by step
        self._steps = 0
        self.lasso: Lasso | None = None

    def see(self, state: S) -> None:
        """Record the position reached by one more step."""
        self._steps += 1
        if self.lasso is not None:
            return
        if self._recall is None:
            if state in self._seen:
                self.lasso = Lasso(self._seen[state], self._steps)
            else:
                self._seen[state] = self._steps
            return
        recent, recall = self._recent, self._recall
        steps = self._hashes.setdefault(hash(state), [])
        for step in steps:  # the same hash: the same position only if equal
            if (recent[step] if step in recent else recall(step)) == state:
                self.lasso = Lasso(step, self._steps)
                return
        steps.append(self._steps)
        recent[self._steps] = state
        recent.pop(self._steps - self.RECENT, None)


@attrs.frozen
class Playout(Generic[S, A]):
    actions: tuple[A, ...]
    final: S
    outcome: Outcome | None
    stop: str  # "ended" | "no_action" | "step_limit" | "position" (a replayed witness)
    clauses: tuple[str, ...] = ()
    lasso: Lasso | None = None

    def report(self) -> str:
        """One line saying how the playout stopped, with the clauses involved."""
        if self.stop == "ended" and self.outcome is not None:
            who = self.outcome.winner or "nobody"
            return f"result: {who} wins ({self.outcome.clause}): {self.outcome.reason}"
        if self.stop == "position":
            return f"reached the logged position after {len(self.actions)} actions"
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
    """Play from `state` until the game ends, no action exists, or `max_steps` actions. Without
    `agents`, the game's default agents play (see `default_agents`)."""
    if agents is None:
        agents = default_agents(game)
    actions: list[A] = []
    start = state
    watch = CycleWatch(state, lambda step: replay(game, start, actions[:step]))
    while True:
        side = game.to_move(state)
        if side is None:
            return Playout(tuple(actions), state, game.outcome(state), "ended", lasso=watch.lasso)
        if len(actions) >= max_steps:
            return Playout(
                tuple(actions), state, None, "step_limit", game.nontermination_clauses, watch.lasso
            )
        action = choose(game, state, side, rng, agents)
        if action is None:
            return Playout(
                tuple(actions), state, None, "no_action", game.no_action_clauses(state), watch.lasso
            )
        nxt = game.apply(state, action)
        if on_step is not None:
            on_step(state, action, nxt)
        actions.append(action)
        state = nxt
        watch.see(state)


def choose(
    game: Game[S, A],
    state: S,
    side: str,
    rng: random.Random,
    agents: Mapping[str, Agent[S, A]] | None,
) -> A | None:
    """The step `play` takes at `state`, where `side` (a side or CHANCE) is to move: the chance
    outcome drawn, or the side's agent's choice among the legal actions (None when there is
    none). `play` and the replay of a seeded log (`tools.playlog`) both step through here, so
    a replay draws from the random stream exactly as the game it checks did."""
    if side == CHANCE:
        return sample(game.chance_outcomes(state), rng)
    legal = game.legal_actions(state)
    if not legal:
        return None
    agent = (agents or {}).get(side, random_agent)
    return agent(game, state, legal, rng)


def replay(game: Game[S, A], state: S, actions: list[A]) -> S:
    """Apply a logged action sequence (chance actions included); raises on the first illegal
    one, so a log that no longer fits the rules is caught."""
    for action in actions:
        state = game.apply(state, action)
    return state


def decision_positions(
    game: Game[S, A],
    state: S,
    rng: random.Random,
    steps: int,
    keep: Callable[[int, S], bool] | None = None,
) -> list[S]:
    """The positions where a side is to move met along a random playout from `state` of at
    most `steps` steps (chance drawn with its probabilities, actions chosen uniformly), those
    `keep(step, position)` selects (all by default): the positions tests sample."""
    out: list[S] = []
    for i in range(steps):
        side = game.to_move(state)
        if side is None:
            break
        if side == CHANCE:
            state = game.apply(state, sample(game.chance_outcomes(state), rng))
            continue
        if keep is None or keep(i, state):
            out.append(state)
        state = game.apply(state, rng.choice(list(game.legal_actions(state))))
    return out
