"""Rattenkrieg's action wire format: one tagged record per action (`type`), each with its
clause, and their union `ActionRecord` the codec decodes strictly. They are apart from the state
records of `specs.rattenkrieg.io.wire` (whose field types and bounds they share) so that each
module keeps one job.
"""

from __future__ import annotations

import msgspec

from kernel.wire import Id, Record
from specs.rattenkrieg.io.wire import (
    Card,
    Hand,
    RefillDraw,
)


class PlaceAction(Record, frozen=True, tag_field="type", tag="place"):
    """The Soviet player puts a Rifle on a Normal Area at set-up (RKS-3.1.1)."""

    unit: Id
    area: Id


class DrawAction(Record, frozen=True, tag_field="type", tag="draw"):
    """Chance: this card comes off the deck (RKS-3.4.3)."""

    card: Card


class PickAction(Record, frozen=True, tag_field="type", tag="pick"):
    """Chance: this card is picked at random from known ones (RKS-9.6.1, AMB-RKS-7)."""

    card: Card


class DesignateAction(Record, frozen=True, tag_field="type", tag="designate"):
    """The unit that acts in this Player Turn (RKS-7.1.1)."""

    unit: Id


class RecruitAction(Record, frozen=True, tag_field="type", tag="recruit"):
    """A unit in the own Rear is flipped and draws a step (RKS-7.5.1)."""

    unit: Id


class PassAction(Record, frozen=True, tag_field="type", tag="pass"):
    """No unit is designated (RKS-5.1.2, AMB-RKS-1)."""


class MoveAction(Record, frozen=True, tag_field="type", tag="move"):
    """The acting unit moves to an adjacent Area; `escort`, when given, is a T-34 moving along
    (RKS-8.12.4)."""

    to: Id
    escort: Id | msgspec.UnsetType = msgspec.UNSET


class PayAction(Record, frozen=True, tag_field="type", tag="pay"):
    """The card discarded to enter an empty enemy-controlled Area (RKS-7.3.1)."""

    card: Card


class AttackAction(Record, frozen=True, tag_field="type", tag="attack"):
    """Combat in the acting unit's Area (AMB-RKS-21, RKS-8.11.2)."""


class EventAction(Record, frozen=True, tag_field="type", tag="event"):
    """A face card played as an event (RKS-9.1.1, RKS-9.1.2); `target`, when the event needs
    one, is the unit bombarded (RKS-9.2.1) or flipped by General Chuikov (RKS-9.8.2)."""

    card: Card
    target: Id | msgspec.UnsetType = msgspec.UNSET


class EndAction(Record, frozen=True, tag_field="type", tag="end"):
    """The acting unit does nothing more and is flipped (RKS-7.4.1)."""


class DefendAction(Record, frozen=True, tag_field="type", tag="defend"):
    """The defender's choice of the unit that fights (RKS-8.2.3)."""

    unit: Id


class PlayAction(Record, frozen=True, tag_field="type", tag="play"):
    """A card put face down in combat (RKS-8.4.1, RKS-8.5.2, RKS-8.6.1); `support` adds the
    T-34's strength (RKS-8.12.3)."""

    card: Card
    support: bool


class AcceptAction(Record, frozen=True, tag_field="type", tag="accept"):
    """The defender takes the damage without contest (RKS-8.5.1)."""


class StandAction(Record, frozen=True, tag_field="type", tag="stand"):
    """No raise (RKS-8.6.1)."""


class RetreatAction(Record, frozen=True, tag_field="type", tag="retreat"):
    """A unit retreats into an adjacent friendly Area and is flipped (RKS-8.9.1, RKS-8.10.1,
    RKS-8.11.2)."""

    unit: Id
    to: Id


class LoseStepAction(Record, frozen=True, tag_field="type", tag="lose_step"):
    """A unit loses a step card (RKS-8.9.1): `card` when the owner chooses it, left out when
    it is picked at random (AMB-RKS-7 iii)."""

    unit: Id
    card: Card | msgspec.UnsetType = msgspec.UNSET


class SacrificeAction(Record, frozen=True, tag_field="type", tag="sacrifice"):
    """The T-34 is eliminated instead of the retreat or the step loss (RKS-8.12.5)."""

    unit: Id


class IsolateAction(Record, frozen=True, tag_field="type", tag="isolate"):
    """A remaining defender stays in the Area, isolated (RKS-8.10.1)."""

    unit: Id


class DiscardAction(Record, frozen=True, tag_field="type", tag="discard"):
    """The Recruiting Phase discard (RKS-10.1.1), and whether the hand is then filled up from
    the deck (RKS-10.1.2); `draw`, a partial refill (`refill_amount=partial`)."""

    cards: Hand
    refill: bool
    draw: RefillDraw | msgspec.UnsetType = msgspec.UNSET


ActionRecord = (
    PlaceAction
    | DrawAction
    | PickAction
    | DesignateAction
    | RecruitAction
    | PassAction
    | MoveAction
    | PayAction
    | AttackAction
    | EventAction
    | EndAction
    | DefendAction
    | PlayAction
    | AcceptAction
    | StandAction
    | RetreatAction
    | LoseStepAction
    | SacrificeAction
    | IsolateAction
    | DiscardAction
)
