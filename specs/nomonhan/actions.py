"""Nomonhan's actions, and their stable JSON form.

Granularity follows the rules: a unit moves to a destination in one action (its path does not
matter once the destination is reachable); all combats of a phase are one declaration (NOM-9.8);
each damage point and each advance point is one choice (NOM-9.24, NOM-9.30).
"""

from __future__ import annotations

from typing import Any

import attrs

from kernel.codec import as_int, as_str, get_field, get_list, require_dict
from kernel.errors import InvalidInput
from kernel.hexes import Hex, hex_name, parse_hex
from specs.nomonhan.state import Combat


@attrs.frozen
class Move:
    unit: str
    to: Hex


@attrs.frozen
class Enter:
    """A reinforcement enters at a flag hex and (by reading) moves on to `to` (NOM-8.8)."""

    unit: str
    at: Hex
    to: Hex


@attrs.frozen
class Demolish:
    """Blow the pontoon bridge (NOM-OPT)."""


@attrs.frozen
class EndPhase:
    """End the Movement Phase."""


@attrs.frozen
class Declare:
    combats: tuple[Combat, ...]


@attrs.frozen
class Resolve:
    """Resolve the pending combat at this index next (AMB-NOM-11)."""

    index: int


@attrs.frozen
class Roll:
    """Chance: the number of hits each side rolled (NOM-9.9, NOM-9.11)."""

    attacker_hits: int
    defender_hits: int


@attrs.frozen
class Loss:
    """One damage point: `unit` retreats to `retreat_to`, or loses a step when None."""

    unit: str
    retreat_to: Hex | None = None


@attrs.frozen
class Advance:
    unit: str
    to: Hex


@attrs.frozen
class EndAdvance:
    """Stop advancing (the remaining points are not used)."""


@attrs.frozen
class EndRoll:
    """Chance: the die rolled at the end of a turn (NOM-5.4)."""

    face: int


Action = (
    Move
    | Enter
    | Demolish
    | EndPhase
    | Declare
    | Resolve
    | Roll
    | Loss
    | Advance
    | EndAdvance
    | EndRoll
)


def combat_to_json(c: Combat) -> dict[str, Any]:
    return {"attackers": list(c.attackers), "defenders": list(c.defenders), "support": c.support}


def combat_from_json(data: Any, where: str) -> Combat:
    obj = require_dict(data, where)
    support = obj.get("support", False)
    if not isinstance(support, bool):
        raise InvalidInput(
            f"field '{where}.support' must be true or false", field=f"{where}.support"
        )
    return Combat(
        attackers=tuple(get_list(obj, "attackers", as_str, where)),
        defenders=tuple(get_list(obj, "defenders", as_str, where)),
        support=support,
    )


def action_to_json(action: Action) -> dict[str, Any]:
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


def action_from_json(data: Any) -> Action:
    """Decode an action; raises InvalidInput naming the bad field (never a KeyError)."""
    obj = require_dict(data, "action")
    kind = get_field(obj, "type", str, "action")

    def hx(key: str) -> Hex:
        return parse_hex(get_field(obj, key, str, "action"), field=f"action.{key}")

    def unit() -> str:
        return get_field(obj, "unit", str, "action")

    match kind:
        case "move":
            return Move(unit(), hx("to"))
        case "enter":
            return Enter(unit(), hx("at"), hx("to"))
        case "demolish":
            return Demolish()
        case "end_phase":
            return EndPhase()
        case "declare":
            return Declare(tuple(get_list(obj, "combats", combat_from_json, "action")))
        case "resolve":
            return Resolve(as_int(obj.get("combat"), "action.combat"))
        case "roll":
            return Roll(
                as_int(obj.get("attacker_hits"), "action.attacker_hits"),
                as_int(obj.get("defender_hits"), "action.defender_hits"),
            )
        case "loss":
            if "retreat_to" in obj:
                return Loss(unit(), hx("retreat_to"))
            return Loss(unit(), None)
        case "advance":
            return Advance(unit(), hx("to"))
        case "end_advance":
            return EndAdvance()
        case "end_roll":
            return EndRoll(as_int(obj.get("face"), "action.face"))
    raise InvalidInput(f"unknown action type {kind!r}", field="action.type")
