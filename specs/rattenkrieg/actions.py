"""Rattenkrieg's actions and their stable JSON form.

Granularity follows the rules: a Player Turn designates one unit (RKS-7.1.1) whose operations
are one action each (RKS-7.1.2); paying for a move is its own choice of card (RKS-7.3.1); each
card put on the table in combat is one action (RKS-8.4.1 to RKS-8.6.2); every draw from the deck
and every random pick is a chance action naming its card.
"""

from __future__ import annotations

from typing import Any

import attrs

from kernel.codec import get_field, get_list, require_dict
from kernel.errors import InvalidInput
from specs.rattenkrieg.cards import parse_card, sort_cards


@attrs.frozen
class Place:
    """The Soviet player puts a Rifle on a Normal Area at set-up (RKS-3.1.1)."""

    unit: str
    area: str


@attrs.frozen
class Draw:
    """Chance: this card comes off the deck (RKS-3.4.3)."""

    card: str


@attrs.frozen
class Pick:
    """Chance: this card is picked at random from known ones (RKS-9.6.1, AMB-RKS-7)."""

    card: str


@attrs.frozen
class Designate:
    """The unit that acts in this Player Turn (RKS-7.1.1)."""

    unit: str


@attrs.frozen
class Recruit:
    """Flip a unit in the own Rear and give it a step from the deck (RKS-7.5.1)."""

    unit: str


@attrs.frozen
class Pass:
    """Designate no unit (RKS-5.1.2, AMB-RKS-1)."""


@attrs.frozen
class Move:
    """The acting unit moves to an adjacent Area, with a T-34 moving along (RKS-8.12.4)."""

    to: str
    escort: str | None = None


@attrs.frozen
class Pay:
    """The card discarded to enter an empty enemy-controlled Area (RKS-7.3.1)."""

    card: str


@attrs.frozen
class Attack:
    """Combat against an enemy unit in the acting unit's Area (AMB-RKS-21, RKS-8.11.2)."""


@attrs.frozen
class Event:
    """A face card played as an event (RKS-9.1.1, RKS-9.1.2), with its target unit if any:
    the unit bombarded (RKS-9.2.1) or flipped face up by General Chuikov (RKS-9.8.2)."""

    card: str
    target: str | None = None


@attrs.frozen
class End:
    """The acting unit does nothing more: it is flipped (RKS-7.4.1)."""


@attrs.frozen
class Defend:
    """The defender's choice of the unit that fights (RKS-8.2.3)."""

    unit: str


@attrs.frozen
class Play:
    """A card put face down in combat: a declaration or a raise (RKS-8.4.1, RKS-8.5.2,
    RKS-8.6.1); `support` adds the T-34's strength (RKS-8.12.3)."""

    card: str
    support: bool = False


@attrs.frozen
class Accept:
    """The defender takes the damage without contest (RKS-8.5.1)."""


@attrs.frozen
class Stand:
    """No raise (RKS-8.6.1)."""


@attrs.frozen
class Retreat:
    """A unit retreats into an adjacent friendly Area and is flipped (RKS-8.9.1, RKS-8.10.1,
    RKS-8.11.2)."""

    unit: str
    to: str


@attrs.frozen
class LoseStep:
    """A unit loses a step card (RKS-8.9.1); None when the card is picked at random."""

    unit: str
    card: str | None = None


@attrs.frozen
class Sacrifice:
    """The T-34 is eliminated instead of the retreat or the step loss (RKS-8.12.5)."""

    unit: str


@attrs.frozen
class Isolate:
    """A remaining defender stays in the Area, isolated (RKS-8.10.1)."""

    unit: str


@attrs.frozen
class Discard:
    """The Recruiting Phase discard, any number of cards (RKS-10.1.1), and whether the player
    then fills his hand up from the deck, which he may (RKS-10.1.2)."""

    cards: frozenset[str]
    refill: bool = True


Action = (
    Place
    | Draw
    | Pick
    | Designate
    | Recruit
    | Pass
    | Move
    | Pay
    | Attack
    | Event
    | End
    | Defend
    | Play
    | Accept
    | Stand
    | Retreat
    | LoseStep
    | Sacrifice
    | Isolate
    | Discard
)

CHANCE_TYPES = (Draw, Pick)


def action_to_json(action: Action) -> dict[str, Any]:
    match action:
        case Place(unit, area):
            return {"type": "place", "unit": unit, "area": area}
        case Draw(card):
            return {"type": "draw", "card": card}
        case Pick(card):
            return {"type": "pick", "card": card}
        case Designate(unit):
            return {"type": "designate", "unit": unit}
        case Recruit(unit):
            return {"type": "recruit", "unit": unit}
        case Pass():
            return {"type": "pass"}
        case Move(to, escort):
            return {"type": "move", "to": to} | ({} if escort is None else {"escort": escort})
        case Pay(card):
            return {"type": "pay", "card": card}
        case Attack():
            return {"type": "attack"}
        case Event(card, target):
            return {"type": "event", "card": card} | ({} if target is None else {"target": target})
        case End():
            return {"type": "end"}
        case Defend(unit):
            return {"type": "defend", "unit": unit}
        case Play(card, support):
            return {"type": "play", "card": card, "support": support}
        case Accept():
            return {"type": "accept"}
        case Stand():
            return {"type": "stand"}
        case Retreat(unit, to):
            return {"type": "retreat", "unit": unit, "to": to}
        case LoseStep(unit, card):
            return {"type": "lose_step", "unit": unit} | ({} if card is None else {"card": card})
        case Sacrifice(unit):
            return {"type": "sacrifice", "unit": unit}
        case Isolate(unit):
            return {"type": "isolate", "unit": unit}
        case Discard(cards, refill):
            return {"type": "discard", "cards": sort_cards(cards), "refill": refill}
    raise TypeError(f"not a Rattenkrieg action: {action!r}")


def action_from_json(data: Any) -> Action:
    """Decode an action; raises InvalidInput naming the bad field (never a KeyError). Unit and
    Area ids are checked against the data when the action is applied."""
    obj = require_dict(data, "action")
    kind = get_field(obj, "type", str, "action")

    def text(key: str) -> str:
        return get_field(obj, key, str, "action")

    def optional(key: str) -> str | None:
        return None if obj.get(key) is None else text(key)

    def card(key: str = "card") -> str:
        return parse_card(obj.get(key), f"action.{key}")

    match kind:
        case "place":
            return Place(text("unit"), text("area"))
        case "draw":
            return Draw(card())
        case "pick":
            return Pick(card())
        case "designate":
            return Designate(text("unit"))
        case "recruit":
            return Recruit(text("unit"))
        case "pass":
            return Pass()
        case "move":
            return Move(text("to"), optional("escort"))
        case "pay":
            return Pay(card())
        case "attack":
            return Attack()
        case "event":
            return Event(card(), optional("target"))
        case "end":
            return End()
        case "defend":
            return Defend(text("unit"))
        case "play":
            support = obj.get("support", False)
            if not isinstance(support, bool):
                raise InvalidInput(
                    "field 'action.support' must be true or false", field="action.support"
                )
            return Play(card(), support)
        case "accept":
            return Accept()
        case "stand":
            return Stand()
        case "retreat":
            return Retreat(text("unit"), text("to"))
        case "lose_step":
            return LoseStep(text("unit"), None if obj.get("card") is None else card())
        case "sacrifice":
            return Sacrifice(text("unit"))
        case "isolate":
            return Isolate(text("unit"))
        case "discard":
            cards = get_list(obj, "cards", parse_card, "action")
            if len(set(cards)) != len(cards):
                raise InvalidInput("a card is listed twice", field="action.cards")
            refill = obj.get("refill", True)
            if not isinstance(refill, bool):
                raise InvalidInput(
                    "field 'action.refill' must be true or false", field="action.refill"
                )
            return Discard(frozenset(cards), refill)
    raise InvalidInput(f"unknown action type {kind!r}", field="action.type")


def action_type(action: Action) -> str:
    return str(action_to_json(action)["type"])
