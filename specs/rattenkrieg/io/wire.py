"""Rattenkrieg's wire formats: the one definition of its state JSON (with the field types and
bounds its action and observation records share: `wire_actions`, `wire_observation`), from
which the codec decodes strictly and the published JSON Schemas are generated
(`kernel.wire`, `kernel.views.schema`).

Every field is required (an action's optional argument, such as a move's T-34 escort, is left
out when there is none, never null); unknown fields are refused; a card is one of the 52
(RKS-2.4.1); every integer is bounded by the rules' own fixed maximum, named in its
description: six turns (RKS-4.1.2), two payments (RKS-7.3.1, AMB-RKS-15), one pass before the
other player's (RKS-5.1.2), 51 raises (one card each, RKS-8.6.1), four cards in a hand
(RKS-3.4.1, RKS-10.2.1) and four steps on a unit (RKS-3.3.1); a value out of such a bound names
its clause (`decode`). Unit and Area ids are ASCII ids here and checked against the data file
by the codec; everything that depends on other fields or on the variant's readings is the
position check's (`validate.py`).

Arrays are lists, so `msgspec.to_builtins` gives JSON data equal to the parsed text (only the
[unit, turn] pairs of `eliminated` are tuples, turned into lists by `json_data`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Annotated, Any, Literal, TypeVar, cast

from kernel.codec import OutcomeRecord, VariantRecord
from kernel.errors import InvalidInput
from kernel.wire import Id, Meta, Record, convert, to_builtins
from specs.rattenkrieg.rules.cards import MAX_HAND, sort_cards

T = TypeVar("T")

MAX_STEPS = 4
"""RKS-3.3.1: a Panzer Division's 4 steps, the most of any unit."""
MAX_UNITS = 64
"""A bound on the counters of any transcription (the shipped data has 21)."""

# fmt: off
Card = Literal[
    "AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS",
    "AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC",
    "AD", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "10D", "JD", "QD", "KD",
    "AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH",
]
"""One of the 52 cards (RKS-2.4.1): rank A, 2-10, J, Q or K, then suit S, C, D or H. A closed
set rather than a pattern: the schema lists the cards, and a set lookup is faster."""
# fmt: on
Side = Literal["GE", "SU"]
Turn = Annotated[int, Meta(ge=1, le=6, description="RKS-4.1.2: the game lasts six turns.")]
Passes = Annotated[
    int,
    Meta(ge=0, le=1, description="RKS-5.1.2: two passes in succession end the Player Turns."),
]
Payments = Annotated[
    int,
    Meta(
        ge=1,
        le=2,
        description="RKS-7.3.1: one card, or one each for a T-34 moving along (AMB-RKS-15).",
    ),
]
Raises = Annotated[
    int,
    Meta(ge=0, le=51, description="RKS-8.6.1: each raise puts down another of the 52 cards."),
]
DeckCount = Annotated[int, Meta(ge=0, le=52, description="RKS-2.4.1: 52 cards.")]
StepCount = Annotated[
    int, Meta(ge=0, le=MAX_STEPS, description="RKS-3.3.1: at most 4 steps (Panzer).")
]
HandCount = Annotated[
    int, Meta(ge=0, le=MAX_HAND, description="RKS-3.4.1, RKS-10.2.1: at most 4 cards.")
]
RefillDraw = Annotated[
    int, Meta(ge=1, le=MAX_HAND, description="RKS-10.1.2: a partial refill's cards drawn.")
]
_UNIQUE = {"uniqueItems": True}
Pile = Annotated[
    list[Card],
    Meta(max_length=52, extra_json_schema=_UNIQUE, description="Distinct cards (RKS-2.4.1)."),
]
Hand = Annotated[
    list[Card],
    Meta(
        max_length=MAX_HAND,
        extra_json_schema=_UNIQUE,
        description="A hand: at most 4 distinct cards (RKS-3.4.1, RKS-10.1.2, RKS-10.2.1).",
    ),
]
Steps = Annotated[
    list[Card],
    Meta(
        max_length=MAX_STEPS,
        extra_json_schema=_UNIQUE,
        description="A unit's step cards (RKS-3.3.4): at most 4 (RKS-3.3.1).",
    ),
]
Effect = Literal["assault_gun", "engineer", "molotov", "chuikov"]
CombatEffect = Literal["engineer", "molotov", "chuikov"]
Effects = Annotated[
    list[Effect],
    Meta(max_length=4, description="Events in force: two cards of each (RKS-9.1.1, RKS-9.1.2)."),
]
Cause = Literal["combat", "bombardment", "air_support"]
PhaseName = Literal["setup", "reinforcement", "player_turns", "recruiting", "over"]
StageName = Literal[
    "place",
    "draw",
    "pick",
    "player_turn",
    "active",
    "pay",
    "combat",
    "damage",
    "isolation",
    "continue",
    "discard",
    "over",
]
StepName = Literal["choose", "attack", "defence", "raise"]
UnitIds = Annotated[list[Id], Meta(max_length=MAX_UNITS, extra_json_schema=_UNIQUE)]


# --- the state ----------------------------------------------------------------------------------


class UnitRecord(Record, frozen=True):
    """A counter: where it is (null: not yet arrived, to be placed, or eliminated), its step
    cards (RKS-3.3.4), flipped (RKS-7.4.1) and isolated (RKS-8.10.1)."""

    id: Id
    area: Id | None
    steps: Steps
    flipped: bool
    isolated: bool


class HandsRecord(Record, frozen=True):
    """Both hands (RKS-3.4.1)."""

    GE: Hand
    SU: Hand


class PlacedRecord(Record, frozen=True):
    """A card put down in combat: whose, which, from the hand or which unit's steps, and
    whether it lies face up (General Chuikov, RKS-9.8.1)."""

    side: Side
    card: Card
    origin: Id
    open: bool


class CombatRecord(Record, frozen=True):
    """One combat of the acting unit (RKS-8.1.1 to RKS-8.7.5), or the remaining units of a
    bombarded unit's side (`cause`, AMB-RKS-16)."""

    area: Id
    attacker: Id
    step: StepName
    defender: Id | None
    attack: PlacedRecord | None
    defence: PlacedRecord | None
    spent: Annotated[list[PlacedRecord], Meta(max_length=51)]
    support: Id | None
    raiser: Side | None
    raises: Raises
    effects: Annotated[list[CombatEffect], Meta(max_length=4)]
    refight: bool
    loser: Side | None
    isolation: Literal["retreat"] | None
    staying: UnitIds
    cause: Cause


class PendingRecord(Record, frozen=True):
    """A move into an empty enemy-controlled Area waiting for its card(s) (RKS-7.3.1)."""

    to: Id
    escort: Id | None
    payments: Payments


class DamageRecord(Record, frozen=True):
    """A unit that must take damage, and why (RKS-8.9.1, RKS-9.2.2, RKS-9.3.1)."""

    unit: Id
    cause: Cause


class StepsDraw(Record, frozen=True, tag_field="kind", tag="steps"):
    """The next card drawn becomes a step of `who` (RKS-3.3.1, RKS-6.1.2, RKS-7.5.1)."""

    who: Id


class HandDraw(Record, frozen=True, tag_field="kind", tag="hand"):
    """The next card drawn goes to `who`'s hand (RKS-3.4.1, RKS-10.1.2)."""

    who: Side


class BombardmentDraw(Record, frozen=True, tag_field="kind", tag="bombardment"):
    """The next card drawn decides a Bombardment of unit `who` (RKS-9.2.2)."""

    who: Id


class AirSupportDraw(Record, frozen=True, tag_field="kind", tag="air_support"):
    """The next card drawn decides an Air Force Support against unit `who` (RKS-9.3.1)."""

    who: Id


DrawRecord = StepsDraw | HandDraw | BombardmentDraw | AirSupportDraw


class SniperPick(Record, frozen=True, tag_field="kind", tag="sniper"):
    """A card of the German hand picked at random (RKS-9.6.1)."""

    who: Literal["GE"]


class StepPick(Record, frozen=True, tag_field="kind", tag="step"):
    """The step card unit `who` loses, picked at random (AMB-RKS-7 iii)."""

    who: Id


PickRecord = SniperPick | StepPick


class StateRecord(Record, frozen=True):
    """A whole Rattenkrieg position, as the referee knows it (every card's place)."""

    format: Literal["wargame-kernel/state"]
    version: Literal[1]
    game: Literal["rattenkrieg"]
    variant: VariantRecord
    turn: Turn
    phase: PhaseName
    stage: StageName
    player: Side
    control: Annotated[dict[Id, Side | None], Meta(max_length=MAX_UNITS)]
    discards: Pile
    removed: Pile
    face_up: Pile
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
    units: Annotated[list[UnitRecord], Meta(max_length=MAX_UNITS)]
    deck: Pile
    hands: HandsRecord
    exposed: Pile
    combat: CombatRecord | None


def card(card: str) -> Card:
    """A card of a valid state as its wire type."""
    return cast(Card, card)


def card_list(cards: Iterable[str]) -> list[Card]:
    """Cards of a valid state as a wire list, in the stable reading order (by suit, rank)."""
    return cast("list[Card]", sort_cards(cards))


def json_data(record: Any) -> Any:
    """A record as JSON data equal to its parsed text: `to_builtins`, with the [unit, turn]
    pairs of `eliminated` as lists."""
    data = to_builtins(record)
    if isinstance(data, dict) and "eliminated" in data:
        data["eliminated"] = [list(pair) for pair in data["eliminated"]]
    return data


# --- decoding -----------------------------------------------------------------------------------

# Clauses behind the wire bounds, so a value out of them names its clause as well as its path
# (a card that is not one of the 52 names RKS-2.4.1).
_BOUND_CLAUSES: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...] = (
    (re.compile(r"(^|\.)turn$|^eliminated\[\d+\]\[1\]$"), ("RKS-4.1.2",)),
    (re.compile(r"(^|\.)passes$"), ("RKS-5.1.2",)),
    (re.compile(r"(^|\.)payments$"), ("RKS-7.3.1",)),
    (re.compile(r"(^|\.)raises$"), ("RKS-8.6.1",)),
    (
        re.compile(
            r"(^|\.)card$|(^|\.)(deck|discards|removed|face_up|exposed|steps|cards|GE|SU|hand)\[\d+\]$"
        ),
        ("RKS-2.4.1",),
    ),
    (re.compile(r"(^|\.)hands\.(GE|SU)$|(^|\.)hand$|(^|\.)cards$"), ("RKS-3.4.1", "RKS-10.2.1")),
    (re.compile(r"(^|\.)steps$"), ("RKS-3.3.1",)),
)


def decode(data: Any, type_: type[T], what: str = "") -> T:
    """`kernel.wire.convert`, with the clause of a rules bound added to the error: a value out
    of a bound this module states names the clause the bound comes from."""
    try:
        return convert(data, type_, what=what)
    except InvalidInput as exc:
        field = exc.field or ""
        bound = any(word in exc.message for word in ("<=", ">=", "Invalid enum value"))
        for pattern, clauses in _BOUND_CLAUSES:
            if bound and pattern.search(field):
                raise InvalidInput(exc.message, field=exc.field, clauses=clauses) from None
        raise
