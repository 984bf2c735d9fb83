"""Rattenkrieg's actions as JSON: the wire record of each action (`wire_actions.ActionRecord`, a
union tagged on "type"), written and decoded strictly."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from kernel.errors import InvalidInput
from kernel.wire import to_builtins
from specs.rattenkrieg.io import wire, wire_actions
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


def action_record(action: Action) -> wire_actions.ActionRecord:
    """The wire record of an action."""
    match action:
        case Place(unit, area):
            return wire_actions.PlaceAction(unit=unit, area=area)
        case Draw(card):
            return wire_actions.DrawAction(card=wire.card(card))
        case Pick(card):
            return wire_actions.PickAction(card=wire.card(card))
        case Designate(unit):
            return wire_actions.DesignateAction(unit=unit)
        case Recruit(unit):
            return wire_actions.RecruitAction(unit=unit)
        case Pass():
            return wire_actions.PassAction()
        case Move(to, escort):
            return wire_actions.MoveAction(to=to, escort=_opt(escort))
        case Pay(card):
            return wire_actions.PayAction(card=wire.card(card))
        case Attack():
            return wire_actions.AttackAction()
        case Event(card, target):
            return wire_actions.EventAction(card=wire.card(card), target=_opt(target))
        case End():
            return wire_actions.EndAction()
        case Defend(unit):
            return wire_actions.DefendAction(unit=unit)
        case Play(card, support):
            return wire_actions.PlayAction(card=wire.card(card), support=support)
        case Accept():
            return wire_actions.AcceptAction()
        case Stand():
            return wire_actions.StandAction()
        case Retreat(unit, to):
            return wire_actions.RetreatAction(unit=unit, to=to)
        case LoseStep(unit, card):
            return wire_actions.LoseStepAction(unit=unit, card=_opt_card(card))
        case Sacrifice(unit):
            return wire_actions.SacrificeAction(unit=unit)
        case Isolate(unit):
            return wire_actions.IsolateAction(unit=unit)
        case Discard(cards, refill, draw):
            count = msgspec.UNSET if draw is None else draw
            return wire_actions.DiscardAction(
                cards=wire.card_list(cards), refill=refill, draw=count
            )
    raise TypeError(f"not a Rattenkrieg action: {action!r}")


def action_to_json(action: Action) -> dict[str, Any]:
    data: dict[str, Any] = to_builtins(action_record(action))
    return data


def _discard(rec: wire_actions.DiscardAction) -> Discard:
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
    wire_actions.PlaceAction: lambda r: Place(r.unit, r.area),
    wire_actions.DrawAction: lambda r: Draw(r.card),
    wire_actions.PickAction: lambda r: Pick(r.card),
    wire_actions.DesignateAction: lambda r: Designate(r.unit),
    wire_actions.RecruitAction: lambda r: Recruit(r.unit),
    wire_actions.PassAction: lambda r: Pass(),
    wire_actions.MoveAction: lambda r: Move(r.to, _none(r.escort)),
    wire_actions.PayAction: lambda r: Pay(r.card),
    wire_actions.AttackAction: lambda r: Attack(),
    wire_actions.EventAction: lambda r: Event(r.card, _none(r.target)),
    wire_actions.EndAction: lambda r: End(),
    wire_actions.DefendAction: lambda r: Defend(r.unit),
    wire_actions.PlayAction: lambda r: Play(r.card, r.support),
    wire_actions.AcceptAction: lambda r: Accept(),
    wire_actions.StandAction: lambda r: Stand(),
    wire_actions.RetreatAction: lambda r: Retreat(r.unit, r.to),
    wire_actions.LoseStepAction: lambda r: LoseStep(r.unit, _none(r.card)),
    wire_actions.SacrificeAction: lambda r: Sacrifice(r.unit),
    wire_actions.IsolateAction: lambda r: Isolate(r.unit),
    wire_actions.DiscardAction: _discard,
}


def action_of(rec: wire_actions.ActionRecord) -> Action:
    """The action a decoded record stands for."""
    return _OF_RECORD[type(rec)](rec)


def action_from_json(data: Any) -> Action:
    """Decode an action strictly through `wire_actions.ActionRecord`; raises InvalidInput naming the
    bad field (`action.<path>`). Unit and Area ids are checked against the data when the action
    is applied."""
    rec: wire_actions.ActionRecord = wire.decode(data, wire_actions.ActionRecord, what="action")  # type: ignore[arg-type]
    return action_of(rec)


def action_type(action: Action) -> str:
    return str(action_to_json(action)["type"])
