"""Nomonhan states as versioned JSON: written from the state, read strictly and checked.

Reading is three steps. The document is decoded through its wire type (`wire.State`), which
refuses any shape error naming the JSON path (a missing or unknown field, a boolean for a
number, a non-ASCII id, an integer out of the rules' bounds). The record is then turned into
the state, refusing what the wire cannot know as InvalidInput: unit ids and hexes that do not
exist, a unit listed twice or out of order, a variant whose preset does not match its readings.
Last, the position check (`position.check_position`) refuses a position no play can reach, and
the derived `points` must be the points the units give.

Writing builds plain data of the record's form; the tests hold every state of real play to
the record and to the published schema.
"""

from __future__ import annotations

import functools
from typing import Any

import msgspec

from kernel.codec import STATE_FORMAT, VERSION
from kernel.errors import ImpossiblePosition, InvalidInput
from kernel.game import Outcome, WireTypes
from kernel.hexes import Hex, hex_name
from kernel.variants import Variant
from kernel.wire import convert
from specs.nomonhan.data.variants import CATALOGUE
from specs.nomonhan.formal import position
from specs.nomonhan.io import actions, wire
from specs.nomonhan.io.actions import action_to_json, combat_to_json
from specs.nomonhan.rules.actions import Action
from specs.nomonhan.rules.board import Board
from specs.nomonhan.rules.rules_object import NomonhanRules
from specs.nomonhan.rules.sequence import points
from specs.nomonhan.rules.state import Combat, NomonhanState, Phase, Resolution, Stage, UnitState


def action_type(action: Action) -> str:
    return str(action_to_json(action)["type"])


# --- writing ---------------------------------------------------------------------------------


def state_to_json(game: NomonhanRules, s: NomonhanState) -> dict[str, Any]:
    """The state document, of `wire.State`'s form (built as plain data, which is faster than
    building the record; the tests decode every state of real play through the record and
    validate it against the published schema, so the two cannot drift)."""
    cur = s.current
    return {
        "format": STATE_FORMAT,
        "version": VERSION,
        "game": game.name,
        "variant": _variant_json(s.variant),
        "turn": s.turn,
        "initiative": s.initiative,
        "phase": s.phase.name.lower(),
        "stage": s.stage.value,
        "units": [
            {"id": u.id, "hex": None if u.hex is None else hex_name(u.hex), "steps": u.steps}
            for u in s.units
        ],
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
        "points": points(game.board, s),  # derived: on input it must equal the units' points
    }


def _variant_json(v: Variant) -> dict[str, Any]:
    return {"preset": v.preset, "options": dict(v.choices)}


# --- reading ---------------------------------------------------------------------------------


def state_from_json(game: NomonhanRules, data: Any) -> NomonhanState:
    """Decode strictly, build the state, check the position and the derived points."""
    doc = convert(data, wire.State)
    state = state_from_record(game, doc)
    position.check_position(game.board, state)
    score = points(game.board, state)
    if (score["JP"], score["SU"]) != (doc.points.JP, doc.points.SU):
        raise ImpossiblePosition(
            f"points: the units give {score}, not {_fields(doc.points)} (NOM-4.5, "
            f"NOM-4.6, scoring={state.variant.reading('scoring')})",
            field="points",
            clauses=("NOM-4.5", "NOM-4.6"),
        )
    return state


def state_from_record(game: NomonhanRules, doc: wire.State) -> NomonhanState:
    """The state a decoded record describes; refuses unknown ids and hexes, and lists that are
    not the canonical ones (units in the counter list's order, sets sorted, no repeats)."""
    board = game.board
    known = board.side_of
    specs = board.data.units
    if len(doc.units) != len(specs) or any(
        r.id != s.id for r, s in zip(doc.units, specs, strict=False)
    ):
        i = next(
            (i for i, (r, s) in enumerate(zip(doc.units, specs, strict=False)) if r.id != s.id),
            min(len(doc.units), len(specs)),
        )
        raise InvalidInput(
            f"units: every unit once, in the counter list's order "
            f"({', '.join(s.id for s in specs)}); entry {i} is wrong or missing",
            field=f"units[{i}].id" if i < len(doc.units) else "units",
        )

    def unit_id(uid: str, where: str) -> str:
        if uid not in known:
            raise InvalidInput(f"{where}: unknown unit {uid!r}", field=where)
        return uid

    def id_set(ids: tuple[str, ...], where: str) -> frozenset[str]:
        """A set of units, which is written sorted: each once, in that order."""
        for k, uid in enumerate(ids):
            unit_id(uid, f"{where}[{k}]")
        if list(ids) != sorted(set(ids)):
            raise InvalidInput(f"{where}: each unit once, in sorted order", field=where)
        return frozenset(ids)

    hexes = _hexes(board)

    def hex_at(text: str, where: str) -> Hex:
        h = hexes.get(text)
        if h is None:
            raise InvalidInput(
                f"{where}: hex {text} is not on the map (NOM-2.4)",
                field=where,
                clauses=("NOM-2.4",),
            )
        return h

    def combat(rec: wire.Combat, where: str) -> Combat:
        for role, ids in (("attackers", rec.attackers), ("defenders", rec.defenders)):
            for k, uid in enumerate(ids):
                unit_id(uid, f"{where}.{role}[{k}]")
        return Combat(rec.attackers, rec.defenders, rec.support)

    units = tuple(
        UnitState(r.id, None if r.hex is None else hex_at(r.hex, f"units[{i}].hex"), r.steps)
        for i, r in enumerate(doc.units)
    )
    cur = doc.current
    current = None
    if cur is not None:
        for uid in cur.start_hexes:
            unit_id(uid, f"current.start_hexes.{uid}")
        current = Resolution(
            combat=combat(cur.combat, "current.combat"),
            loser=cur.loser,
            damage_left=cur.damage_left,
            damage_done=cur.damage_done,
            advance_left=cur.advance_left,
            start_hexes=tuple(
                sorted(
                    (u, hex_at(h, f"current.start_hexes.{u}")) for u, h in cur.start_hexes.items()
                )
            ),
            retreated=id_set(cur.retreated, "current.retreated"),
        )
    result = None
    if doc.result is not None:
        r = doc.result
        result = Outcome(r.winner, _fields(r.points), r.clause, r.reason)
    return NomonhanState(
        variant=variant_from_record(doc.variant),
        turn=doc.turn,
        initiative=doc.initiative,
        phase=Phase[doc.phase.upper()],
        stage=Stage(doc.stage),
        units=units,
        moved=id_set(doc.moved, "moved"),
        demolished=doc.demolished,
        artillery_used=doc.artillery_used,
        nip_moved_this_turn=doc.nip_moved_this_turn,
        withdrawn=id_set(doc.withdrawn, "withdrawn"),
        pending=tuple(combat(c, f"pending[{i}]") for i, c in enumerate(doc.pending)),
        current=current,
        turn_ending=doc.turn_ending,
        end_rolled=doc.end_rolled,
        result=result,
    )


@functools.cache
def _hexes(board: Board) -> dict[str, Hex]:
    """The map's hexes by their printed numbers (`hex_name`), to read and check at once."""
    return {hex_name(h): h for h in board.map.hexes}


def _fields(record: Any) -> dict[str, Any]:
    return msgspec.structs.asdict(record)


def variant_from_record(rec: wire.Variant) -> Variant:
    """The variant a record names. Every option is read (the wire requires them all, each a
    reading of its option); the preset is named if and only if these are its readings
    (`Catalogue.exact`), so that one variant has one form."""
    return CATALOGUE.exact(rec.preset, _fields(rec.options))


class NomonhanCodec:
    """The codec role (`kernel.roles.Codec`) of the rules it is built from."""

    wire: WireTypes = WireTypes(state=wire.State, action=wire.Action, observation=wire.Observation)

    def __init__(self, rules: NomonhanRules) -> None:
        self.rules = rules

    def state_to_json(self, state: NomonhanState) -> dict[str, Any]:
        return state_to_json(self.rules, state)

    def state_from_json(self, data: Any) -> NomonhanState:
        return state_from_json(self.rules, data)

    def action_to_json(self, action: Action) -> dict[str, Any]:
        return actions.action_to_json(action)

    def action_from_json(self, data: Any) -> Action:
        return actions.action_from_json(data)
