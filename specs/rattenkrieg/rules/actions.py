"""Rattenkrieg's actions and their stable JSON form.

Granularity follows the rules: a Player Turn designates one unit (RKS-7.1.1) whose operations
are one action each (RKS-7.1.2); paying for a move is its own choice of card (RKS-7.3.1); each
card put on the table in combat is one action (RKS-8.4.1 to RKS-8.6.2); every draw from the deck
and every random pick is a chance action naming its card. The Recruiting Phase discard is one
action naming its cards (RKS-10.1.1): one decision of the rules, one line of a log; its choices
are listed lazily (`legal.DiscardChoices`), never all built.

The JSON form is `wire.ActionRecord`, a union tagged on "type", decoded strictly.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
import msgspec

from kernel.errors import InvalidInput
from kernel.wire import to_builtins
from specs.rattenkrieg.io import wire
from specs.rattenkrieg.rules.cards import in_order


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
    then fills his hand up from the deck, which he may (RKS-10.1.2); `draw`, only under
    `refill_amount=partial`, draws that many cards, fewer than the refill would."""

    cards: frozenset[str]
    refill: bool = True
    draw: int | None = None


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


def _opt(value: str | None) -> str | msgspec.UnsetType:
    return msgspec.UNSET if value is None else value


def _opt_card(value: str | None) -> wire.Card | msgspec.UnsetType:
    return msgspec.UNSET if value is None else wire.card(value)


def _none(value: str | msgspec.UnsetType) -> str | None:
    return None if isinstance(value, msgspec.UnsetType) else value


def action_record(action: Action) -> wire.ActionRecord:
    """The wire record of an action."""
    match action:
        case Place(unit, area):
            return wire.PlaceAction(unit=unit, area=area)
        case Draw(card):
            return wire.DrawAction(card=wire.card(card))
        case Pick(card):
            return wire.PickAction(card=wire.card(card))
        case Designate(unit):
            return wire.DesignateAction(unit=unit)
        case Recruit(unit):
            return wire.RecruitAction(unit=unit)
        case Pass():
            return wire.PassAction()
        case Move(to, escort):
            return wire.MoveAction(to=to, escort=_opt(escort))
        case Pay(card):
            return wire.PayAction(card=wire.card(card))
        case Attack():
            return wire.AttackAction()
        case Event(card, target):
            return wire.EventAction(card=wire.card(card), target=_opt(target))
        case End():
            return wire.EndAction()
        case Defend(unit):
            return wire.DefendAction(unit=unit)
        case Play(card, support):
            return wire.PlayAction(card=wire.card(card), support=support)
        case Accept():
            return wire.AcceptAction()
        case Stand():
            return wire.StandAction()
        case Retreat(unit, to):
            return wire.RetreatAction(unit=unit, to=to)
        case LoseStep(unit, card):
            return wire.LoseStepAction(unit=unit, card=_opt_card(card))
        case Sacrifice(unit):
            return wire.SacrificeAction(unit=unit)
        case Isolate(unit):
            return wire.IsolateAction(unit=unit)
        case Discard(cards, refill, draw):
            count = msgspec.UNSET if draw is None else draw
            return wire.DiscardAction(cards=wire.card_list(cards), refill=refill, draw=count)
    raise TypeError(f"not a Rattenkrieg action: {action!r}")


def action_to_json(action: Action) -> dict[str, Any]:
    data: dict[str, Any] = to_builtins(action_record(action))
    return data


def _discard(rec: wire.DiscardAction) -> Discard:
    cards = rec.cards
    if len(set(cards)) != len(cards):
        i = next(i for i, c in enumerate(cards) if c in cards[:i])
        raise InvalidInput(
            f"action.cards[{i}]: card {cards[i]} is listed twice (RKS-10.1.1)",
            field=f"action.cards[{i}]",
            clauses=("RKS-10.1.1",),
        )
    if not in_order(cards):
        raise InvalidInput(
            "action.cards: cards are listed by suit (S, C, D, H), then rank (A to K)",
            field="action.cards",
        )
    return Discard(frozenset(cards), rec.refill, None if rec.draw is msgspec.UNSET else rec.draw)


_OF_RECORD: dict[type[Any], Callable[[Any], Action]] = {
    wire.PlaceAction: lambda r: Place(r.unit, r.area),
    wire.DrawAction: lambda r: Draw(r.card),
    wire.PickAction: lambda r: Pick(r.card),
    wire.DesignateAction: lambda r: Designate(r.unit),
    wire.RecruitAction: lambda r: Recruit(r.unit),
    wire.PassAction: lambda r: Pass(),
    wire.MoveAction: lambda r: Move(r.to, _none(r.escort)),
    wire.PayAction: lambda r: Pay(r.card),
    wire.AttackAction: lambda r: Attack(),
    wire.EventAction: lambda r: Event(r.card, _none(r.target)),
    wire.EndAction: lambda r: End(),
    wire.DefendAction: lambda r: Defend(r.unit),
    wire.PlayAction: lambda r: Play(r.card, r.support),
    wire.AcceptAction: lambda r: Accept(),
    wire.StandAction: lambda r: Stand(),
    wire.RetreatAction: lambda r: Retreat(r.unit, r.to),
    wire.LoseStepAction: lambda r: LoseStep(r.unit, _none(r.card)),
    wire.SacrificeAction: lambda r: Sacrifice(r.unit),
    wire.IsolateAction: lambda r: Isolate(r.unit),
    wire.DiscardAction: _discard,
}


def action_of(rec: wire.ActionRecord) -> Action:
    """The action a decoded record stands for."""
    return _OF_RECORD[type(rec)](rec)


def action_from_json(data: Any) -> Action:
    """Decode an action strictly through `wire.ActionRecord`; raises InvalidInput naming the
    bad field (`action.<path>`). Unit and Area ids are checked against the data when the action
    is applied."""
    rec: wire.ActionRecord = wire.decode(data, wire.ActionRecord, what="action")  # type: ignore[arg-type]
    return action_of(rec)


def action_type(action: Action) -> str:
    return str(action_to_json(action)["type"])
