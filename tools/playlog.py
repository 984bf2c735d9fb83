"""Playing and replaying games with a readable narration and a JSON game log.

A game log is the reproducible record of one game: the variant, the agent that chose the
actions (and its seed), every action, chance included, plus the final state and result.
Replaying it checks every action against the rules and the final state against the recorded
one, so a log doubles as a bug report and as a regression test. For a log from a seeded agent
of this kernel (`wargame play --seed N`), the replay also re-derives, step by step and from the
same random stream, the action the agent would have chosen and each chance outcome it would
have drawn, so the log proves it is the game that was played, not merely a legal one. A log
from outside (a person, a client, a witness the explorer built) is checked for legality only,
and the replay says so. `wargame play` is a thin shell over this module; other tools reuse it.

A log may start from a position of its own instead of the variant's set-up: its optional
`start` (a state JSON of the log's variant), which a shrunk witness needs when units were
taken off its set-up (`solvers.checking.shrink`). A log without `start` is read and replayed as
ever. The log document itself (its agent, reading and writing it) is `tools.game_logs`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Final, Generic, TypeVar

from kernel.codec import dump_json
from kernel.errors import IllegalAction, WargameError
from kernel.game import CHANCE
from kernel.playout import (
    DEFAULT_MAX_STEPS,
    CycleWatch,
    Lasso,
    Playout,
    choose,
    default_agents,
    play,
)
from kernel.roles import AssembledGame
from kernel.variants import Variant
from tools.game_logs import GameLog, LogAgent, as_agent, start_position

S = TypeVar("S")
A = TypeVar("A")

Emit = Callable[[str], object]

LEGALITY_ONLY: Final = "checked for legality only: the log is from an external agent"
"""What a replay of an external log says, since it cannot prove who played."""


class ReplayMismatch(WargameError):
    """A log whose actions replay legally but are not the game it claims to be: an action its
    seeded agent would not have chosen (or a chance outcome it would not have drawn), or an
    ending other than the log's."""

    kind = "replay_mismatch"


def variant_text(game: AssembledGame[Any, Any], variant: Variant) -> str:
    """A preset's name, or the nearest preset and the options read differently."""
    if variant.preset is not None:
        return variant.preset
    chosen = dict(variant.choices)

    def diffs(preset: Variant) -> list[str]:
        return [f"{o}={r}" for o, r in sorted(chosen.items()) if preset.reading(o) != r]

    presets = game.presets()
    name = min(sorted(presets), key=lambda p: len(diffs(presets[p])))
    return f"{name} with " + ", ".join(diffs(presets[name]))


def header(game: AssembledGame[Any, Any], variant: Variant, agent: LogAgent | int | None) -> str:
    """The first line of a narrated game: the game, the variant and who plays (a seed)."""
    who = as_agent(agent)
    played = f"seed {who.seed}" if who.is_seeded else f"agent {who.name}"
    return f"{game.title} ({game.name}) · variant {variant_text(game, variant)} · {played}"


class Narrator(Generic[S, A]):
    """Turns steps into log lines: the headline lines that changed, the action, its events."""

    def __init__(self, game: AssembledGame[S, A], emit: Emit) -> None:
        self.game = game
        self.emit = emit
        self._headline: list[str] = []

    def step(self, before: S, action: A, after: S) -> None:
        lines = self.game.headline(before).splitlines()
        first = next(
            (
                i
                for i, line in enumerate(lines)
                if i >= len(self._headline) or line != self._headline[i]
            ),
            len(lines),
        )
        for line in lines[first:]:
            self.emit(line)
        self._headline = lines
        self.emit(self.game.describe(before, action))
        for event in self.game.events(before, action, after):
            self.emit(f"  > {event}")


def narrate(
    game: AssembledGame[S, A], variant: Variant, actions: Sequence[Any], start: Any = None
) -> list[str]:
    """The readable play log of `actions` (action JSON) from `variant`'s set-up (or from
    `start`, a state JSON of it): the lines `wargame play` prints for them (headlines as they
    change, each action, its events). An action the rules refuse ends the lines with the
    refusal."""
    lines: list[str] = []
    narrator = Narrator(game, lines.append)
    state = start_position(game, variant, start)
    for i, raw in enumerate(actions):
        try:
            action = game.action_from_json(raw)
            after = game.apply(state, action)
        except WargameError as exc:
            lines.append(_at_step(exc, i).message)
            break
        narrator.step(state, action, after)
        state = after
    return lines


def play_narrated(
    game: AssembledGame[S, A],
    variant: Variant,
    seed: int,
    emit: Emit | None,
    *,
    max_steps: int = DEFAULT_MAX_STEPS,
) -> Playout[S, A]:
    """A seeded random-agent game from the variant's initial state, narrated to `emit`
    (None: silent), ending with the playout's report line."""
    on_step = Narrator(game, emit).step if emit is not None else None
    result = play(
        game, game.initial_state(variant), random.Random(seed), max_steps=max_steps, on_step=on_step
    )
    if emit is not None:
        emit(result.report())
    return result


def replay_log(game: AssembledGame[S, A], log: GameLog, emit: Emit | None) -> Playout[S, A]:
    """Replay a log from its variant's initial state (or its `start`), narrated like the
    original game.

    Raises InvalidInput for a `start` the game's codec refuses (naming `start`), for an
    action that does not parse and IllegalAction for one the rules refuse (both naming the
    step as `actions[i]`). For a seeded agent's log, each step is also
    re-derived with `kernel.playout.choose` from the same `random.Random(seed)` stream as
    `kernel.playout.play`: an action the agent would not have chosen, or a chance outcome it
    would not have drawn, is a ReplayMismatch naming `actions[i]`. Last, a replay that ends in
    another state, result or stop than the log records is a ReplayMismatch too. (An external
    log is checked for legality only: say `LEGALITY_ONLY` where it is shown.)"""
    narrator = Narrator(game, emit) if emit is not None else None
    state = start_position(game, log.variant, log.start)
    if emit is not None and log.start is not None:
        emit("play starts from the log's own position (its start), not the set-up")
    seeded = log.agent.is_seeded and log.agent.seed is not None
    rng = random.Random(log.agent.seed) if seeded else None
    agents = default_agents(game) if seeded else None
    actions: list[A] = []
    watch = CycleWatch(state)
    for i, raw in enumerate(log.actions):
        try:
            action = game.action_from_json(raw)
        except WargameError as exc:
            raise _at_step(exc, i) from None
        side = game.to_move(state)
        chosen = None
        if rng is not None and side is not None:
            chosen = choose(game, state, side, rng, agents)
        try:
            nxt = game.apply(state, action)
        except WargameError as exc:
            raise _at_step(exc, i) from None
        if rng is not None and chosen != action:
            raise _not_chosen(game, log.agent, state, side, i, chosen, action)
        if narrator is not None:
            narrator.step(state, action, nxt)
        actions.append(action)
        state = nxt
        watch.see(state)
    result = _playout(game, tuple(actions), state, watch.lasso, log.stop)
    _check_ending(game, log, result)
    if emit is not None:
        emit(result.report())
    return result


def _not_chosen(
    game: AssembledGame[S, A],
    agent: LogAgent,
    state: S,
    side: str | None,
    i: int,
    chosen: A | None,
    got: A,
) -> ReplayMismatch:
    """The log's i-th action is legal, but not what its seeded agent plays there."""
    where = f"actions[{i}]"
    logged = game.describe(state, got)
    if chosen is None:
        text = f"play with seed {agent.seed} stops before this step, but the log has {logged}"
    elif side == CHANCE:
        drawn = game.describe(state, chosen)
        text = f"with seed {agent.seed} the chance outcome is {drawn}, but the log has {logged}"
    else:
        picked = game.describe(state, chosen)
        text = (
            f"the {agent.name} agent with seed {agent.seed} plays {picked} here, "
            f"but the log has {logged}"
        )
    return ReplayMismatch(f"{where}: {text}", field=where)


def _at_step(exc: WargameError, i: int) -> WargameError:
    """The same error, said of the log's i-th action."""
    where = f"actions[{i}]"
    field = exc.field
    if field is not None and field.startswith("action"):
        field = where + field[len("action") :]
    elif isinstance(exc, IllegalAction) or field is None:
        field = where
    return type(exc)(f"{where}: {exc.message}", clauses=exc.clauses, field=field)


def _playout(
    game: AssembledGame[S, A], actions: tuple[A, ...], final: S, lasso: Lasso | None, logged: str
) -> Playout[S, A]:
    """How play stands after a replay, as `play` would have reported it there (a step limit
    or the choice of a witness can stop play in any unfinished position, so the log's word is
    taken for those)."""
    side = game.to_move(final)
    if side is None:
        return Playout(actions, final, game.outcome(final), "ended", lasso=lasso)
    if logged == "position":
        return Playout(actions, final, None, "position", lasso=lasso)
    if logged != "step_limit" and side != CHANCE and not game.legal_actions(final):
        return Playout(actions, final, None, "no_action", game.no_action_clauses(final), lasso)
    return Playout(actions, final, None, "step_limit", game.nontermination_clauses, lasso)


def position_log(
    game: AssembledGame[S, A], variant: Variant, log: Sequence[Any], state: Any, start: Any = None
) -> GameLog:
    """The log of a chosen position (a witness) reached by `log` from the set-up under
    `variant` (or from `start`, a state JSON of it, recorded in the log): it stops as
    "position", as "no_action" where the side to move has none, or as "ended" with its result
    when play is over there. Its agent is `external`: a search chose
    the actions, so a replay checks them for legality only."""
    external = LogAgent.external()
    final = game.state_from_json(state)
    if game.to_move(final) is None:
        outcome = game.outcome(final)
        result = None if outcome is None else outcome.to_json()
        return GameLog(game.name, variant, external, tuple(log), state, result, "ended", start)
    stuck = game.to_move(final) != CHANCE and not game.legal_actions(final)
    stop = "no_action" if stuck else "position"
    return GameLog(game.name, variant, external, tuple(log), state, None, stop, start)


def _check_ending(game: AssembledGame[S, A], log: GameLog, result: Playout[S, A]) -> None:
    got = game.state_to_json(result.final)
    if dump_json(got) != dump_json(log.final_state):
        differing = sorted(
            k
            for k in set(got) | set(log.final_state)
            if dump_json(got.get(k)) != dump_json(log.final_state.get(k))
        )
        raise ReplayMismatch(
            "the replayed final state differs from the logged final_state in: "
            + ", ".join(differing),
            field="final_state",
        )
    outcome = None if result.outcome is None else result.outcome.to_json()
    if dump_json(outcome) != dump_json(log.result):
        raise ReplayMismatch(
            f"the replay's result {dump_json(outcome)} differs from the logged result",
            field="result",
        )
    if result.stop != log.stop:
        raise ReplayMismatch(
            f"the replay stops as {result.stop!r}, the log says {log.stop!r}", field="stop"
        )
