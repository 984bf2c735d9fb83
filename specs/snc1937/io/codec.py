"""SNC states and actions as versioned JSON, through the wire records of `wire.py` (the states
are `state_codec.py`'s; here the actions, and the codec role joining both).

Decoding is strict (`kernel.wire.convert`: shape, types, bounds, unknown or missing fields),
then the ids and hexes are checked against the data, then the position check runs
(`position.check_position`). Encoding writes the same records, so what is written always
decodes again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kernel.game import WireTypes
from kernel.hexes import Hex, hex_name
from kernel.wire import convert, to_builtins
from specs.snc1937.io import wire
from specs.snc1937.io.state_codec import Ids, state_from_json, state_to_json
from specs.snc1937.rules.actions import (
    Action,
    Advance,
    AdvanceOn,
    Attack,
    Declare,
    Delay,
    Done,
    Eliminate,
    Intercept,
    Join,
    Land,
    Loss,
    Move,
    Overrun,
    Place,
    Remove,
    Replace,
    Retreat,
    Roll,
    Strike,
    Support,
    Top,
)
from specs.snc1937.rules.state import Order, SNCState

if TYPE_CHECKING:
    from specs.snc1937.rules.play import SNCRules


def action_record(a: Action) -> Any:
    match a:
        case Declare(order):
            return wire.DeclareAction(order=order.value)
        case Move(units, to):
            return wire.MoveAction(units=units, to=hex_name(to))
        case Overrun(target):
            return wire.OverrunAction(target=hex_name(target))
        case Attack(target):
            return wire.AttackAction(target=hex_name(target))
        case Join(unit):
            return wire.JoinAction(unit=unit)
        case Strike():
            return wire.StrikeAction()
        case Support(kind):
            return wire.SupportAction(kind=kind)  # type: ignore[arg-type]
        case Intercept(yes):
            return wire.InterceptAction(yes=yes)
        case Roll(face):
            return wire.RollAction(face=face)
        case Loss(unit):
            return wire.LossAction(unit=unit)
        case Retreat(unit, to):
            return wire.RetreatAction(unit=unit, to=hex_name(to))
        case Advance(unit):
            return wire.AdvanceAction(unit=unit)
        case AdvanceOn(unit, to):
            return wire.AdvanceOnAction(unit=unit, to=hex_name(to))
        case Place(unit, h, rail):
            return wire.PlaceAction(unit=unit, hex=hex_name(h), rail=rail)
        case Land(units, h):
            return wire.LandAction(units=units, hex=hex_name(h))
        case Delay(unit):
            return wire.DelayAction(unit=unit)
        case Replace(unit):
            return wire.ReplaceAction(unit=unit)
        case Remove(unit):
            return wire.RemoveAction(unit=unit)
        case Eliminate(unit):
            return wire.EliminateAction(unit=unit)
        case Top(unit):
            return wire.TopAction(unit=unit)
        case Done():
            return wire.DoneAction()
    raise TypeError(f"not an SNC action: {a!r}")


def action_to_json(a: Action) -> dict[str, Any]:
    data: dict[str, Any] = to_builtins(action_record(a))
    return data


def action_text(a: Action) -> str:
    """One readable line: the action's JSON fields."""
    data = action_to_json(a)
    kind = data.pop("type")
    rest = " ".join(
        f"{k}={','.join(v) if isinstance(v, list) else v}" for k, v in sorted(data.items())
    )
    return f"{kind} {rest}".strip()


def action_from_json(game: SNCRules, data: Any) -> Action:
    """Decode strictly through `wire.ActionRecord`; unknown ids and hexes name the field."""
    rec: Any = convert(data, wire.ActionRecord)  # type: ignore[arg-type]
    ids = Ids(game.tables)

    def hx(text: str, name: str) -> Hex:
        return ids.hex(text, f"action.{name}")

    def un(text: str) -> str:
        return ids.unit(text, "action.unit")

    match rec:
        case wire.DeclareAction():
            return Declare(Order(rec.order))
        case wire.MoveAction():
            return Move(ids.units(rec.units, "action.units"), hx(rec.to, "to"))
        case wire.OverrunAction():
            return Overrun(hx(rec.target, "target"))
        case wire.AttackAction():
            return Attack(hx(rec.target, "target"))
        case wire.JoinAction():
            return Join(un(rec.unit))
        case wire.StrikeAction():
            return Strike()
        case wire.SupportAction():
            return Support(rec.kind)
        case wire.InterceptAction():
            return Intercept(rec.yes)
        case wire.RollAction():
            return Roll(rec.face)
        case wire.LossAction():
            return Loss(un(rec.unit))
        case wire.RetreatAction():
            return Retreat(un(rec.unit), hx(rec.to, "to"))
        case wire.AdvanceAction():
            return Advance(un(rec.unit))
        case wire.AdvanceOnAction():
            return AdvanceOn(un(rec.unit), hx(rec.to, "to"))
        case wire.PlaceAction():
            return Place(un(rec.unit), hx(rec.hex, "hex"), rec.rail)
        case wire.LandAction():
            return Land(ids.units(rec.units, "action.units"), hx(rec.hex, "hex"))
        case wire.DelayAction():
            return Delay(un(rec.unit))
        case wire.ReplaceAction():
            return Replace(un(rec.unit))
        case wire.RemoveAction():
            return Remove(un(rec.unit))
        case wire.EliminateAction():
            return Eliminate(un(rec.unit))
        case wire.TopAction():
            return Top(un(rec.unit))
    return Done()


class SNCCodec:
    """The codec role (`kernel.roles.Codec`), built from the rules: states through the data's
    ids and the position check, actions through their wire record."""

    wire: WireTypes = WireTypes(
        state=wire.StateRecord,
        action=wire.ActionRecord,
        observation=wire.ObservationRecord,
    )
    """The wire records the codec decodes with and the published schemas come from."""

    def __init__(self, rules: SNCRules) -> None:
        self.rules = rules

    def state_to_json(self, s: SNCState) -> dict[str, Any]:
        return state_to_json(self.rules, s)

    def state_from_json(self, data: Any) -> SNCState:
        return state_from_json(self.rules, data)

    def action_to_json(self, action: Action) -> dict[str, Any]:
        return action_to_json(action)

    def action_from_json(self, data: Any) -> Action:
        return action_from_json(self.rules, data)
