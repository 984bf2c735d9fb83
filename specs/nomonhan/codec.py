"""Nomonhan states as versioned JSON, and their validation on the way in.

A state read from JSON is checked against what the rules allow in any position: known unit
ids, hexes on the map, no two units in a hex (NOM-8.6), no at-start unit on no hex, steps
within the counter, the initiative of the turn (NOM-6.5), a stage consistent with its data.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kernel.codec import (
    STATE_FORMAT,
    as_int,
    as_str,
    envelope,
    get_field,
    get_list,
    open_envelope,
    require_dict,
)
from kernel.errors import ImpossiblePosition, InvalidInput
from kernel.game import Outcome
from kernel.hexes import Hex, hex_name, parse_hex
from kernel.variants import Variant
from specs.nomonhan.actions import (
    Action,
    action_to_json,
    combat_from_json,
    combat_to_json,
)
from specs.nomonhan.sequence import points
from specs.nomonhan.state import NomonhanState, Phase, Resolution, Stage, UnitState
from specs.nomonhan.strength import full_steps

if TYPE_CHECKING:
    from specs.nomonhan.rules import Nomonhan


def action_type(action: Action) -> str:
    return str(action_to_json(action)["type"])


def _hex_or_none(h: Hex | None) -> str | None:
    return hex_name(h) if h is not None else None


def state_to_json(game: Nomonhan, s: NomonhanState) -> dict[str, Any]:
    cur = s.current
    body: dict[str, Any] = {
        "variant": s.variant.to_json(),
        "turn": s.turn,
        "initiative": s.initiative,
        "phase": s.phase.name.lower(),
        "stage": s.stage.value,
        "units": [{"id": u.id, "hex": _hex_or_none(u.hex), "steps": u.steps} for u in s.units],
        "moved": sorted(s.moved),
        "demolished": s.demolished,
        "artillery_used": s.artillery_used,
        "nip_moved_this_turn": s.nip_moved_this_turn,
        "withdrawn": sorted(s.withdrawn),
        "pending": [combat_to_json(c) for c in s.pending],
        "current": None
        if cur is None
        else {
            "combat": combat_to_json(cur.combat),
            "loser": cur.loser,
            "damage_left": cur.damage_left,
            "damage_done": cur.damage_done,
            "advance_left": cur.advance_left,
            "start_hexes": {u: hex_name(h) for u, h in cur.start_hexes},
            "retreated": sorted(cur.retreated),
        },
        "turn_ending": s.turn_ending,
        "end_rolled": s.end_rolled,
        "result": None if s.result is None else s.result.to_json(),
        "points": points(game.board, s),  # derived, for readers; ignored on input
    }
    return envelope(STATE_FORMAT, game.name, body)


def _bool(obj: dict[str, Any], key: str) -> bool:
    return get_field(obj, key, bool, "state")


def state_from_json(game: Nomonhan, data: Any) -> NomonhanState:
    obj = open_envelope(data, STATE_FORMAT, game.name)
    variant = game.catalogue.variant_from_json(get_field(obj, "variant", object, "state"))
    data_units = {s.id: s for s in game.data.units}
    known = set(data_units)

    def unit_id(value: Any, where: str) -> str:
        uid = as_str(value, where)
        if uid not in known:
            raise InvalidInput(f"unknown unit {uid!r}", field=where)
        return uid

    units_in: dict[str, UnitState] = {}
    for i, raw in enumerate(get_field(obj, "units", list, "state")):
        where = f"units[{i}]"
        rec = require_dict(raw, where)
        uid = unit_id(rec.get("id"), f"{where}.id")
        if uid in units_in:
            raise InvalidInput(f"unit {uid!r} is listed twice", field=f"{where}.id")
        h_raw = rec.get("hex")
        h = (
            None
            if h_raw is None
            else parse_hex(as_str(h_raw, f"{where}.hex"), field=f"{where}.hex")
        )
        if h is not None and not game.board.on_map(h):
            raise InvalidInput(
                f"hex {h} is not on the map (NOM-2.4)", field=f"{where}.hex", clauses=("NOM-2.4",)
            )
        steps = as_int(rec.get("steps"), f"{where}.steps")
        units_in[uid] = UnitState(uid, h, steps)
    missing = known - set(units_in)
    if missing:
        raise InvalidInput(f"state lacks units {sorted(missing)}", field="units")
    units = tuple(units_in[s.id] for s in game.data.units)
    withdrawn = frozenset(get_list(obj, "withdrawn", unit_id, "state"))
    _check_units(game, variant, units, withdrawn)

    turn = get_field(obj, "turn", int, "state")
    initiative = get_field(obj, "initiative", str, "state")
    if turn < 1 or initiative not in game.sides:
        raise InvalidInput("turn must be >= 1 and initiative JP or SU", field="initiative")
    if initiative != ("JP" if turn % 2 == 1 else "SU"):
        raise ImpossiblePosition(
            f"in Turn {turn} the initiative cannot be {initiative} (NOM-6.5)",
            clauses=("NOM-6.5",),
            field="initiative",
        )
    try:
        phase = Phase[get_field(obj, "phase", str, "state").upper()]
        stage = Stage(get_field(obj, "stage", str, "state"))
    except (KeyError, ValueError):
        raise InvalidInput("unknown phase or stage", field="stage") from None
    current = _resolution(obj.get("current"), unit_id)
    pending = tuple(get_list(obj, "pending", combat_from_json, "state"))
    for c in pending + ((current.combat,) if current else ()):
        for u in c.attackers + c.defenders:
            unit_id(u, "pending")
    needs_current = stage in (Stage.ROLL, Stage.DAMAGE, Stage.ADVANCE)
    if needs_current != (current is not None) and stage != Stage.END_ROLL:
        raise ImpossiblePosition(
            f"stage {stage.value} {'needs' if needs_current else 'has no'} combat being resolved",
            field="current",
            clauses=("NOM-9.8",),
        )
    if (stage == Stage.MOVE) != phase.is_movement and stage in (Stage.MOVE, Stage.DECLARE):
        raise ImpossiblePosition(
            f"stage {stage.value} cannot happen in the {phase.name} phase (NOM-5.1)",
            field="stage",
            clauses=("NOM-5.1",),
        )
    result_raw = obj.get("result")
    result = None
    if result_raw is not None:
        r = require_dict(result_raw, "result")
        pts = require_dict(r.get("points", {}), "result.points")
        winner = r.get("winner")
        if winner not in (None, *game.sides) or not all(
            k in game.sides and isinstance(p, int) for k, p in pts.items()
        ):
            raise InvalidInput(
                "result.winner must be a side or null, and result.points map sides to integers",
                field="result",
            )
        result = Outcome(winner, pts, str(r.get("clause", "")), str(r.get("reason", "")))
    if (stage == Stage.OVER) != (result is not None):
        raise ImpossiblePosition("a finished game has a result and only it", field="result")
    return NomonhanState(
        variant=variant,
        turn=turn,
        initiative=initiative,
        phase=phase,
        stage=stage,
        units=units,
        moved=frozenset(get_list(obj, "moved", unit_id, "state")),
        demolished=_bool(obj, "demolished"),
        artillery_used=_bool(obj, "artillery_used"),
        nip_moved_this_turn=_bool(obj, "nip_moved_this_turn"),
        withdrawn=withdrawn,
        pending=pending,
        current=current,
        turn_ending=_bool(obj, "turn_ending"),
        end_rolled=_bool(obj, "end_rolled"),
        result=result,
    )


def _check_units(
    game: Nomonhan, variant: Variant, units: tuple[UnitState, ...], withdrawn: frozenset[str]
) -> None:
    seen: dict[Hex, str] = {}
    for i, u in enumerate(units):
        spec = game.data.unit(u.id)
        full = full_steps(variant, spec)
        if not 0 <= u.steps <= full:
            raise ImpossiblePosition(
                f"{u.id} has {u.steps} steps; at full strength it has {full} (NOM-9.24)",
                field=f"units[{i}].steps",
                clauses=("NOM-9.24",),
            )
        if u.hex is not None:
            if u.steps == 0:
                raise ImpossiblePosition(
                    f"eliminated unit {u.id} is on the map",
                    field=f"units[{i}].hex",
                    clauses=("NOM-9.24",),
                )
            if u.hex in seen:
                raise ImpossiblePosition(
                    f"{u.id} and {seen[u.hex]} are both in {u.hex}: no stacking (NOM-8.6)",
                    field=f"units[{i}].hex",
                    clauses=("NOM-8.6",),
                )
            seen[u.hex] = u.id
        elif u.steps > 0 and spec.gt is None:
            raise ImpossiblePosition(
                f"{u.id} is on no hex but is neither eliminated nor a "
                "reinforcement (NOM-3.1, NOM-3.2)",
                field=f"units[{i}].hex",
                clauses=("NOM-3.1", "NOM-3.2"),
            )
        if u.id in withdrawn and (u.hex is not None or spec.gt is None):
            raise ImpossiblePosition(
                f"only an unarrived reinforcement can be lost: {u.id}",
                field="withdrawn",
                clauses=("NOM-8.8",),
            )


def _resolution(raw: Any, unit_id: Any) -> Resolution | None:
    if raw is None:
        return None
    obj = require_dict(raw, "current")
    starts = require_dict(obj.get("start_hexes", {}), "current.start_hexes")
    loser = obj.get("loser")
    if loser not in (None, "JP", "SU"):
        raise InvalidInput("current.loser must be JP, SU or null", field="current.loser")
    return Resolution(
        combat=combat_from_json(obj.get("combat"), "current.combat"),
        loser=loser,
        damage_left=as_int(obj.get("damage_left"), "current.damage_left"),
        damage_done=as_int(obj.get("damage_done"), "current.damage_done"),
        advance_left=as_int(obj.get("advance_left"), "current.advance_left"),
        start_hexes=tuple(
            (
                unit_id(u, "current.start_hexes"),
                parse_hex(as_str(h, "current.start_hexes"), field="current.start_hexes"),
            )
            for u, h in sorted(starts.items())
        ),
        retreated=frozenset(get_list(obj, "retreated", unit_id, "current")),
    )
