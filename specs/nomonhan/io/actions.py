"""Nomonhan's actions as JSON: written as plain data of `wire.Action`'s form, read strictly
through the wire records."""

from __future__ import annotations

import functools
import typing
from collections.abc import Callable
from typing import Any

from msgspec import UnsetType

from kernel.hexes import Hex, hex_name, parse_hex
from kernel.wire import convert
from specs.nomonhan.io import wire
from specs.nomonhan.rules.actions import (
    Action,
    Advance,
    Declare,
    Demolish,
    EndAdvance,
    EndPhase,
    EndRoll,
    Enter,
    Loss,
    Move,
    Resolve,
    Roll,
)
from specs.nomonhan.rules.state import Combat


def combat_to_json(c: Combat) -> dict[str, Any]:
    return {"attackers": list(c.attackers), "defenders": list(c.defenders), "support": c.support}


def action_to_json(action: Action) -> dict[str, Any]:
    """The action document, of `wire.Action`'s form (plain data; the tests hold every action
    of real play to the record and to the published schema)."""
    match action:
        case Move(unit, to):
            return {"type": "move", "unit": unit, "to": hex_name(to)}
        case Enter(unit, at, to):
            return {"type": "enter", "unit": unit, "at": hex_name(at), "to": hex_name(to)}
        case Demolish():
            return {"type": "demolish"}
        case EndPhase():
            return {"type": "end_phase"}
        case Declare(combats):
            return {"type": "declare", "combats": [combat_to_json(c) for c in combats]}
        case Resolve(index):
            return {"type": "resolve", "combat": index}
        case Roll(a, d):
            return {"type": "roll", "attacker_hits": a, "defender_hits": d}
        case Loss(unit, None):
            return {"type": "loss", "unit": unit, "step": True}
        case Loss(unit, to):
            assert to is not None
            return {"type": "loss", "unit": unit, "retreat_to": hex_name(to)}
        case Advance(unit, to):
            return {"type": "advance", "unit": unit, "to": hex_name(to)}
        case EndAdvance():
            return {"type": "end_advance"}
        case EndRoll(face):
            return {"type": "end_roll", "face": face}
    raise TypeError(f"not a Nomonhan action: {action!r}")


_ACTIONS = typing.get_args(wire.Action)[0]
"""The union of action records without the schema's annotation, which `kernel.wire.convert`
decodes through the record its tag names (msgspec keeps a record's decoder, not a union's)."""


def action_from_json(data: Any) -> Action:
    """Decode an action strictly through `wire.Action`; InvalidInput names the bad field
    (`action.<path>`). Unit ids and hexes are judged by the rules, which know the data."""
    return action_from_record(convert(data, _ACTIONS, what="action"))


@functools.cache
def _hex(text: str) -> Hex:
    """A hex number, four ASCII digits already (`wire.HexId`: at most 10,000 of them)."""
    return parse_hex(text)


def _combats(rec: wire.Declare) -> Declare:
    return Declare(tuple(Combat(c.attackers, c.defenders, c.support) for c in rec.combats))


def _loss(rec: wire.Loss) -> Loss:
    return Loss(rec.unit, None if isinstance(rec.retreat_to, UnsetType) else _hex(rec.retreat_to))


_FROM_RECORD: dict[type[Any], Callable[[Any], Action]] = {
    wire.Move: lambda r: Move(r.unit, _hex(r.to)),
    wire.Enter: lambda r: Enter(r.unit, _hex(r.at), _hex(r.to)),
    wire.Demolish: lambda r: Demolish(),
    wire.EndPhase: lambda r: EndPhase(),
    wire.Declare: _combats,
    wire.Resolve: lambda r: Resolve(r.combat),
    wire.Roll: lambda r: Roll(r.attacker_hits, r.defender_hits),
    wire.Loss: _loss,
    wire.Advance: lambda r: Advance(r.unit, _hex(r.to)),
    wire.EndAdvance: lambda r: EndAdvance(),
    wire.EndRoll: lambda r: EndRoll(r.face),
}
"""The action each record describes, by the record's type (one per tag of `wire.Action`)."""


def action_from_record(rec: wire.ActionRecord) -> Action:
    return _FROM_RECORD[type(rec)](rec)
