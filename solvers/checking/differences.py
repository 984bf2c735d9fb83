"""What the ambiguity explorer compares and what it finds: two positions under two readings
set side by side (`compare`, `after_action`), the difference between them, the witness that
reaches it and the finding of a reading pair."""

from __future__ import annotations

import json
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import attrs

from kernel.codec import dump_json
from kernel.game import CHANCE
from kernel.roles import AssembledGame
from kernel.variants import Variant
from solvers.checking.readings import named

Json = Any

OBSERVATION = "observation"
"""The kind of a `Difference` where the position is the same but a side is shown different
things (`seen_differently`; found by `solvers.checking.observed`)."""

PLACES = ("hex", "area", "where")
"""The fields a unit's JSON names its place on the map by (a hex map's hex, an area map's
Area); a unit with none of them set is off the map."""


@attrs.frozen
class Difference:
    """What the two readings disagree on at the witness position."""

    # "to_move" | "actions" | "chance" | "outcome" | "result_of_action" | "observation"
    kind: str
    only_a: tuple[str, ...]
    only_b: tuple[str, ...]
    detail: str = ""


@attrs.frozen
class Witness:
    log: tuple[Json, ...]  # actions (JSON) from `start`, legal under both readings
    state: Json  # the witness position under reading A (state JSON)
    difference: Difference
    units: int  # units on the map at the witness, a size measure
    found_by: str  # "guided play" | "exhaustive search"
    shrunk_from: int | None = (
        None  # the length of the log found, when shrunk (solvers.checking.shrink)
    )
    # where the log starts, under reading A (state JSON): the preset's set-up with units taken
    # off the map (solvers.checking.shrink); None: the preset's set-up itself
    start: Json | None = None
    # the actions of play from the set-up to the position `start` was made from (0: the
    # set-up itself), and the units taken off it there, in order (solvers.checking.shrink)
    start_after: int = 0
    removed: tuple[str, ...] = ()


def start_state(game: AssembledGame[Any, Any], variant: Variant, start: Json | None) -> Any:
    """Where a witness log starts under `variant`: the set-up, or the witness's own `start`
    read under `variant` (through the game's codec, so its position check applies)."""
    if start is None:
        return game.initial_state(variant)
    return rebind(game, game.state_from_json(start), variant)


def replayed(game: AssembledGame[Any, Any], state: Any, actions: Sequence[Any]) -> Any:
    """The state `actions` lead to from `state`."""
    for action in actions:
        state = game.apply(state, action)
    return state


@attrs.frozen
class Finding:
    option: str
    clauses: tuple[str, ...]
    ambiguity: str | None
    reading_a: str
    reading_b: str
    preset: str
    verdict: str  # "differ" | "equivalent" | "unknown"
    witness: Witness | None
    detail: str
    seconds: float
    # The limits the searches hit, in the order they ran ("positions", "depth", "rlimit",
    # "games", "budget"), comma-separated; empty when none was (a search settled the pair).
    limit: str = ""
    z3_depth: int = -1  # the depth Z3's bounded model checking searched to (-1: not run)
    # equivalent only because the situation the option governs never arises under this preset
    # (guided play never had the rules ask for its reading): explore it under another preset
    moot: bool = False
    # a differing pair's paired difference in win rate between the readings (the report's
    # JSON field, `tools.explore_winrates`); None: not asked for
    win_rate: dict[str, Any] | None = None


def rebind(game: AssembledGame[Any, Any], state: Any, variant: Variant) -> Any:
    """The same position read under another variant (named as a preset if it is one).

    The variant is replaced on the state itself (every game's state is an attrs class with a
    `variant` field), and the result goes through the game's own codec: written by
    `state_to_json`, so every field derived from the variant (Nomonhan's points, say) is
    derived anew rather than copied, and read back by `state_from_json`, so the position
    check of the new reading applies. A state of another kind is rebound through its JSON."""
    variant = named(game.catalogue, variant)
    cls = type(state)
    if attrs.has(cls) and "variant" in attrs.fields_dict(cls):
        data = game.state_to_json(attrs.evolve(state, variant=variant))
    else:
        data = game.state_to_json(state)
        data["variant"] = variant.to_json()
    return game.state_from_json(data)


def field_diff(game: AssembledGame[Any, Any], a: Any, b: Any, limit: int = 3) -> str:
    """The top-level state fields two positions disagree on, briefly."""
    ja, jb = game.state_to_json(a), game.state_to_json(b)
    keys = [k for k in sorted(set(ja) | set(jb)) if k != "variant" and ja.get(k) != jb.get(k)]
    parts = [f"{k}: {dump_json(ja.get(k))[:60]} / {dump_json(jb.get(k))[:60]}" for k in keys]
    return "; ".join(parts[:limit])


def position_key(game: AssembledGame[Any, Any], state: Any) -> str:
    """A position as canonical JSON without its variant: equal under two readings exactly
    when the readings have led to the same place."""
    data = game.state_to_json(state)
    data.pop("variant", None)
    return dump_json(data)


def same_position(game: AssembledGame[Any, Any], a: Any, b: Any) -> bool:
    """`position_key(game, a) == position_key(game, b)`, compared as data rather than as
    canonical text: what replaying a log under two readings asks at every step, where
    writing out both keys was most of a witness shrink's time. The same test for what the
    codecs write (JSON data with one type per field), and not a comparison of the states'
    fields: a state's JSON may derive values from its variant (Nomonhan's points)."""
    ja, jb = game.state_to_json(a), game.state_to_json(b)
    ja.pop("variant", None)
    jb.pop("variant", None)
    return bool(ja == jb)


def _actions(game: AssembledGame[Any, Any], state: Any) -> dict[str, Any]:
    return {dump_json(game.action_to_json(a)): a for a in game.legal_actions(state)}


def _chance(game: AssembledGame[Any, Any], state: Any) -> dict[str, Fraction]:
    return {dump_json(game.action_to_json(a)): p for a, p in game.chance_outcomes(state)}


def compare(game: AssembledGame[Any, Any], a: Any, b: Any) -> Difference | None:
    """How the same position differs under the two readings, before any action."""
    ma, mb = game.to_move(a), game.to_move(b)
    if ma != mb:
        return Difference("to_move", (str(ma),), (str(mb),), "a different side is to move")
    oa, ob = game.outcome(a), game.outcome(b)
    if (oa is None) != (ob is None) or (oa and ob and oa.to_json() != ob.to_json()):
        return Difference(
            "outcome",
            (dump_json(oa.to_json()) if oa else "game goes on",),
            (dump_json(ob.to_json()) if ob else "game goes on",),
            "the result of the game differs",
        )
    if ma is None:
        return None
    if ma == CHANCE:
        ca, cb = _chance(game, a), _chance(game, b)
        if ca != cb:
            keys = sorted(set(ca) | set(cb))
            return Difference(
                "chance",
                tuple(f"{k} p={ca[k]}" for k in keys if ca.get(k) != cb.get(k) and k in ca),
                tuple(f"{k} p={cb[k]}" for k in keys if ca.get(k) != cb.get(k) and k in cb),
                "the chance outcomes or their probabilities differ",
            )
        return None
    la, lb = set(_actions(game, a)), set(_actions(game, b))
    if la != lb:
        return Difference(
            "actions", tuple(sorted(la - lb)), tuple(sorted(lb - la)), "the legal actions differ"
        )
    return None


def on_map(unit: Json) -> bool:
    """A unit of a state JSON's `units` has a place on the map."""
    return isinstance(unit, dict) and any(unit.get(k) is not None for k in PLACES)


def units_on_map(data: Json) -> int:
    units = data.get("units") if isinstance(data, dict) else None
    if isinstance(units, list):
        return sum(1 for u in units if on_map(u))
    return 0


def after_action(game: AssembledGame[Any, Any], action: Any, na: Any, nb: Any) -> Difference | None:
    """The difference when one action, allowed by both readings, leads to different places."""
    if same_position(game, na, nb):
        return None
    text = dump_json(game.action_to_json(action))
    return Difference(
        "result_of_action",
        (text,),
        (text,),
        "the same action leads to different positions: " + field_diff(game, na, nb),
    )


def _view(game: AssembledGame[Any, Any], state: Any, side: str) -> dict[str, Any]:
    """What `side` is shown of `state`, without the variant (which names the reading)."""
    seen = dict(game.observe(state, side))
    seen.pop("variant", None)
    data: dict[str, Any] = json.loads(dump_json(seen))  # as sent: a tuple and a list alike
    return data


def seen_differently(
    game: AssembledGame[Any, Any], a: Any, b: Any, sides: tuple[str, ...] | None = None
) -> Difference | None:
    """How the same position is shown differently under the two readings: the first side
    (of `sides`, all by default) whose observations differ, and the fields that differ
    (reading A's value / reading B's), or None."""
    for side in game.sides if sides is None else sides:
        oa, ob = _view(game, a, side), _view(game, b, side)
        if oa != ob:
            parts = [
                f"{where} {dump_json(x)[:120]} under reading A, {dump_json(y)[:120]} under B"
                for where, x, y in _parted(oa, ob, "")
            ]
            return Difference(
                OBSERVATION,
                (side,),
                (side,),
                f"the positions are the same, but {side} is shown " + "; ".join(parts[:3]),
            )
    return None


def _parted(x: Json, y: Json, path: str) -> list[tuple[str, Json, Json]]:
    """The innermost places where two observations part (a dotted path into their fields:
    a whole list when its items differ), with each one's value there."""
    if isinstance(x, dict) and isinstance(y, dict):
        out = []
        for k in sorted(set(x) | set(y)):
            if x.get(k) != y.get(k):
                out.extend(_parted(x.get(k), y.get(k), f"{path}.{k}" if path else str(k)))
        return out
    if (
        isinstance(x, list)
        and isinstance(y, list)
        and len(x) == len(y)
        and all(isinstance(v, dict) for v in x + y)
    ):
        return [
            p
            for i, (u, v) in enumerate(zip(x, y, strict=True))
            for p in _parted(u, v, f"{path}[{i}]")
        ]
    return [(path, x, y)]
