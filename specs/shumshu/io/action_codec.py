"""Shumshu actions as versioned JSON, through the wire record `wire.ActionRecord`: one record
kind per kind of action, hexes written and parsed by name. Decoding is the strict wire decode
alone (`kernel.wire.convert`); unit ids are checked when the action is applied.

Apart from `codec` (states, and the codec role that serves both) because an action's record
needs neither the data's ids nor the position check.
"""

from __future__ import annotations

from typing import Any

from kernel.hexes import hex_name, parse_hex
from kernel.wire import convert, to_builtins
from specs.shumshu.io import wire
from specs.shumshu.rules.actions import (
    Action,
    Advance,
    AirRoll,
    Commit,
    Defend,
    Done,
    Embark,
    Form,
    Hold,
    Join,
    LandAt,
    Move,
    Place,
    Reinforce,
    Replace,
    Resolve,
    Retreat,
    ReturnDecoy,
    Roll,
    Strike,
)


def action_record(action: Action) -> wire.ActionRecord:
    match action:
        case Place(unit, h):
            return wire.PlaceAction(unit=unit, hex=hex_name(h))
        case Form(r):
            return wire.FormAction(regiment=r)
        case LandAt(h):
            return wire.LandAtAction(hex=hex_name(h))
        case Embark(unit):
            return wire.EmbarkAction(unit=unit)
        case Strike(yes):
            return wire.StrikeAction(yes=yes)
        case AirRoll(face, sunk):
            return wire.AirRollAction(face=face, sunk=sunk)
        case Replace(unit):
            return wire.ReplaceAction(unit=unit)
        case Reinforce(unit, h):
            return wire.ReinforceAction(unit=unit, hex=hex_name(h))
        case ReturnDecoy(unit, h):
            return wire.ReturnDecoyAction(unit=unit, hex=hex_name(h))
        case Move(unit, to):
            return wire.MoveAction(unit=unit, to=hex_name(to))
        case Join(unit, h):
            return wire.JoinAction(unit=unit, hex=hex_name(h))
        case Resolve(h):
            return wire.ResolveAction(hex=hex_name(h))
        case Defend(units):
            return wire.DefendAction(units=units)
        case Hold(yes):
            return wire.HoldAction(yes=yes)
        case Commit(press, air, banzai):
            return wire.CommitAction(press=press, air=air, banzai=banzai)
        case Roll(face):
            return wire.RollAction(face=face)
        case Retreat(unit, to):
            return wire.RetreatAction(unit=unit, to=hex_name(to))
        case Advance(unit, to):
            return wire.AdvanceAction(unit=unit, to=hex_name(to))
        case Done():
            return wire.DoneAction()
    raise TypeError(f"not a Shumshu action: {action!r}")


def action_to_json(action: Action) -> dict[str, Any]:
    data: dict[str, Any] = to_builtins(action_record(action))
    return data


def action_of(rec: wire.ActionRecord) -> Action:
    """The action a decoded record stands for (hexes parsed; ids checked when applied)."""
    match rec:
        case wire.PlaceAction(unit=unit, hex=h):
            return Place(unit, parse_hex(h))
        case wire.FormAction(regiment=r):
            return Form(r)
        case wire.LandAtAction(hex=h):
            return LandAt(parse_hex(h))
        case wire.EmbarkAction(unit=unit):
            return Embark(unit)
        case wire.StrikeAction(yes=yes):
            return Strike(yes)
        case wire.AirRollAction(face=face, sunk=sunk):
            return AirRoll(face, sunk)
        case wire.ReplaceAction(unit=unit):
            return Replace(unit)
        case wire.ReinforceAction(unit=unit, hex=h):
            return Reinforce(unit, parse_hex(h))
        case wire.ReturnDecoyAction(unit=unit, hex=h):
            return ReturnDecoy(unit, parse_hex(h))
        case wire.MoveAction(unit=unit, to=to):
            return Move(unit, parse_hex(to))
        case wire.JoinAction(unit=unit, hex=h):
            return Join(unit, parse_hex(h))
        case wire.ResolveAction(hex=h):
            return Resolve(parse_hex(h))
        case wire.DefendAction(units=units):
            return Defend(tuple(units))
        case wire.HoldAction(yes=yes):
            return Hold(yes)
        case wire.CommitAction(press=press, air=air, banzai=banzai):
            return Commit(press, air, banzai)
        case wire.RollAction(face=face):
            return Roll(face)
        case wire.RetreatAction(unit=unit, to=to):
            return Retreat(unit, parse_hex(to))
        case wire.AdvanceAction(unit=unit, to=to):
            return Advance(unit, parse_hex(to))
        case wire.DoneAction():
            return Done()
    raise TypeError(f"not a Shumshu action record: {rec!r}")


def action_from_json(data: Any) -> Action:
    """Decode an action strictly through `wire.ActionRecord`; raises InvalidInput naming the
    bad field (`action.<path>`). Unit ids are checked against the data when it is applied."""
    rec: wire.ActionRecord = convert(data, wire.ActionRecord, what="action")  # type: ignore[arg-type]
    return action_of(rec)
