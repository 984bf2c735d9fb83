"""Playing and replaying games with a readable narration and a JSON game log.

A game log is the reproducible record of one game: the variant, the seed and every action,
chance included, plus the final state and result. Replaying it checks every action against the
rules and the final state against the recorded one, so a log doubles as a bug report and as a
regression test. `wargame play` is a thin shell over this module; other tools reuse it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Generic, TypeVar

import attrs

from kernel.codec import (
    LOG_FORMAT,
    as_str,
    dump_json,
    envelope,
    get_field,
    open_envelope,
    require_dict,
)
from kernel.errors import IllegalAction, InvalidInput, WargameError
from kernel.game import CHANCE, Game
from kernel.playout import DEFAULT_MAX_STEPS, CycleWatch, Lasso, Playout, play
from kernel.variants import Variant

S = TypeVar("S")
A = TypeVar("A")

Emit = Callable[[str], object]
STOPS = ("ended", "no_action", "step_limit", "position")
"""How a logged game stops; "position": at a position chosen for itself (a witness)."""


class ReplayMismatch(WargameError):
    """A log whose actions replay legally but end somewhere else than the log says."""

    kind = "replay_mismatch"


@attrs.frozen
class GameLog:
    """One game as recorded: enough to replay it exactly."""

    game: str
    variant: Variant
    seed: int | None
    actions: tuple[Any, ...]  # action JSON, in order
    final_state: dict[str, Any]
    result: dict[str, Any] | None
    stop: str

    def to_json(self) -> dict[str, Any]:
        return envelope(
            LOG_FORMAT,
            self.game,
            {
                "variant": self.variant.to_json(),
                "seed": self.seed,
                "actions": list(self.actions),
                "final_state": self.final_state,
                "result": self.result,
                "stop": self.stop,
            },
        )


def make_log(
    game: Game[S, A], variant: Variant, seed: int | None, playout: Playout[S, A]
) -> GameLog:
    return GameLog(
        game=game.name,
        variant=variant,
        seed=seed,
        actions=tuple(game.action_to_json(a) for a in playout.actions),
        final_state=game.state_to_json(playout.final),
        result=None if playout.outcome is None else playout.outcome.to_json(),
        stop=playout.stop,
    )


def write_log(path: Path, log: GameLog, *, argument: str = "--log") -> None:
    """Write the log as canonical JSON; an unwritable path is bad input naming `argument`."""
    try:
        path.write_text(dump_json(log.to_json()) + "\n", encoding="utf-8")
    except OSError as exc:
        raise InvalidInput(f"cannot write {path}: {exc.strerror or exc}", field=argument) from None


def read_log(game: Game[Any, Any], data: Any) -> GameLog:
    """Check a parsed log's shape (not yet its actions: `replay_log` does that)."""
    obj = open_envelope(require_dict(data, "log"), LOG_FORMAT, game.name)
    variant = game.catalogue.variant_from_json(get_field(obj, "variant", object))
    seed = obj.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise InvalidInput("field 'seed' must be an integer or null", field="seed")
    actions = get_field(obj, "actions", list)
    final_state = get_field(obj, "final_state", dict)
    result = obj.get("result")
    if result is not None and not isinstance(result, dict):
        raise InvalidInput("field 'result' must be an object or null", field="result")
    stop = as_str(obj.get("stop"), "stop")
    if stop not in STOPS:
        raise InvalidInput(f"field 'stop' must be one of {', '.join(STOPS)}", field="stop")
    return GameLog(game.name, variant, seed, tuple(actions), final_state, result, stop)


def variant_text(game: Game[Any, Any], variant: Variant) -> str:
    """A preset's name, or the nearest preset and the options read differently."""
    if variant.preset is not None:
        return variant.preset
    chosen = dict(variant.choices)

    def diffs(preset: Variant) -> list[str]:
        return [f"{o}={r}" for o, r in sorted(chosen.items()) if preset.reading(o) != r]

    presets = game.presets()
    name = min(sorted(presets), key=lambda p: len(diffs(presets[p])))
    return f"{name} with " + ", ".join(diffs(presets[name]))


def header(game: Game[Any, Any], variant: Variant, seed: int | None) -> str:
    return f"{game.title} ({game.name}) · variant {variant_text(game, variant)} · seed {seed}"


class Narrator(Generic[S, A]):
    """Turns steps into log lines: the headline lines that changed, the action, its events."""

    def __init__(self, game: Game[S, A], emit: Emit) -> None:
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


def play_narrated(
    game: Game[S, A],
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


def replay_log(game: Game[S, A], log: GameLog, emit: Emit | None) -> Playout[S, A]:
    """Replay a log from its variant's initial state, narrated like the original game.

    Raises InvalidInput for an action that does not parse, IllegalAction for one the rules
    refuse (both naming the step as `actions[i]`), and ReplayMismatch when the replay ends in
    another state, result or stop than the log records."""
    narrator = Narrator(game, emit) if emit is not None else None
    state = game.initial_state(log.variant)
    actions: list[A] = []
    watch = CycleWatch(state)
    for i, raw in enumerate(log.actions):
        try:
            action = game.action_from_json(raw)
            nxt = game.apply(state, action)
        except WargameError as exc:
            raise _at_step(exc, i) from None
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
    game: Game[S, A], actions: tuple[A, ...], final: S, lasso: Lasso | None, logged: str
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


def position_log(game: Game[S, A], variant: Variant, log: Sequence[Any], state: Any) -> GameLog:
    """The log of a chosen position (a witness) reached by `log` from the set-up under
    `variant`: it stops as "position", as "no_action" where the side to move has none, or as
    "ended" with its result when play is over there."""
    final = game.state_from_json(state)
    if game.to_move(final) is None:
        outcome = game.outcome(final)
        result = None if outcome is None else outcome.to_json()
        return GameLog(game.name, variant, None, tuple(log), state, result, "ended")
    stuck = game.to_move(final) != CHANCE and not game.legal_actions(final)
    stop = "no_action" if stuck else "position"
    return GameLog(game.name, variant, None, tuple(log), state, None, stop)


def _check_ending(game: Game[S, A], log: GameLog, result: Playout[S, A]) -> None:
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
