"""Rattenkrieg's actions as JSON: the wire record of each action (`wire.ActionRecord`, a union
tagged on "type"), written and decoded strictly."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from kernel.errors import InvalidInput
from kernel.wire import to_builtins
from specs.rattenkrieg.io import wire
from specs.rattenkrieg.rules.actions import (
    Accept,
    Action,
    Attack,
    Defend,
    Designate,
    Discard,
    Draw,
    End,
    Event,
    Isolate,
    LoseStep,
    Move,
    Pass,
    Pay,
    Pick,
    Place,
    Play,
    Recruit,
    Retreat,
    Sacrifice,
    Stand,
)
from specs.rattenkrieg.rules.cards import in_order


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
