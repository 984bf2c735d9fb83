"""Rattenkrieg's observation wire format: what one side may know of a position (its own hand and
step cards, every other card face down, the public records), built on the state records and
bounds of `specs.rattenkrieg.io.wire`.
"""

from __future__ import annotations

from typing import Annotated, Literal

from kernel.codec import OutcomeRecord, VariantRecord
from kernel.wire import Id, Meta, Record
from specs.rattenkrieg.io.wire import (
    MAX_UNITS,
    Card,
    Cause,
    CombatEffect,
    DamageRecord,
    DeckCount,
    DrawRecord,
    Effects,
    Hand,
    HandCount,
    Passes,
    PendingRecord,
    PhaseName,
    PickRecord,
    Pile,
    Raises,
    Side,
    StageName,
    StepCount,
    StepName,
    Steps,
    Turn,
    UnitIds,
)


class ObservedUnit(Record, frozen=True):
    """A counter as one side sees it: how many steps, and the step cards it may see (its own,
    and those both players saw returned, AMB-RKS-7)."""

    id: Id
    area: Id | None
    steps: StepCount
    flipped: bool
    isolated: bool
    cards: Steps


class ObservedPlaced(Record, frozen=True):
    """A card in combat as one side sees it: face down unless it is the side's own or lies
    face up (RKS-8.4.1, RKS-9.8.1)."""

    side: Side
    card: Card | Literal["face-down"]
    origin: Id
    open: bool


class ObservedCombat(Record, frozen=True):
    """The combat as one side sees it. Its `cause` is public (AMB-RKS-16: a combat, or the
    bombardment or air support whose target left its Area, which both players saw played)."""

    area: Id
    attacker: Id
    defender: Id | None
    step: StepName
    attack: ObservedPlaced | None
    defence: ObservedPlaced | None
    spent: Annotated[list[ObservedPlaced], Meta(max_length=51)]
    support: Id | None
    raiser: Side | None
    raises: Raises
    effects: Annotated[list[CombatEffect], Meta(max_length=4)]
    refight: bool
    loser: Side | None
    isolation: Literal["retreat"] | None
    staying: UnitIds
    cause: Cause


class HandCounts(Record, frozen=True):
    """How many cards each hand holds (public)."""

    GE: HandCount
    SU: HandCount


class ObservationRecord(Record, frozen=True):
    """What one side may know (RKS-3.3.3, RKS-3.4.1, RKS-8.4.1): the public fields of the
    position, its own hand and step cards, the face-up discarded and removed cards with the
    piles' sizes (the `discard_faces` option), every face-down card as face down, and the step
    cards both players have seen (`exposed`, AMB-RKS-7: judged face up and returned)."""

    variant: VariantRecord
    turn: Turn
    phase: PhaseName
    stage: StageName
    player: Side
    control: Annotated[dict[Id, Side | None], Meta(max_length=MAX_UNITS)]
    discards: Pile
    discard_count: DeckCount
    removed: Pile
    removed_count: DeckCount
    eliminated: Annotated[list[tuple[Id, Turn]], Meta(max_length=MAX_UNITS)]
    passes: Passes
    acting: Id | None
    acted: bool
    recruited: bool
    effects: Effects
    pending: PendingRecord | None
    damage: DamageRecord | None
    draws: Annotated[list[DrawRecord], Meta(max_length=52)]
    pick: PickRecord | None
    result: OutcomeRecord | None
    game: Literal["rattenkrieg"]
    side: Side
    to_move: Literal["GE", "SU", "chance"] | None
    units: Annotated[list[ObservedUnit], Meta(max_length=MAX_UNITS)]
    hand: Hand
    hand_counts: HandCounts
    deck_count: DeckCount
    combat: ObservedCombat | None
    exposed: Pile
