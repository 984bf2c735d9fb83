"""The SNC's wire formats: the one definition of its state, action and observation JSON, from
which the codec decodes strictly and the JSON Schemas are generated (`kernel.wire`).

Every field is required and unknown fields are refused; hexes are four ASCII digits; integers
are bounded by the rules: twelve GTs (SNC-5.0.1), a TRT box up to GT 12 plus one for a unit
delayed past the end (SNC-8.0.2), a d6 (SNC-10.5.0.1), two replacement steps (SNC-8.3.1).
Unit ids and hexes are checked against the data by the codec; what depends on several fields
is the position check's (`position.py`).
"""

from __future__ import annotations

from typing import Annotated, Literal

from kernel.codec import OutcomeRecord, VariantRecord
from kernel.wire import HexId, Id, Meta, Record

MAX_UNITS = 256
Side = Literal["CH", "JP"]
Turn = Annotated[int, Meta(ge=1, le=12, description="SNC-5.0.1: GT 1 to 12.")]
Box = Annotated[int, Meta(ge=1, le=13, description="A TRT box; 13: delayed past GT 12.")]
Face = Annotated[int, Meta(ge=0, le=6, description="SNC-10.5.0.1: a d6 (0 before the roll).")]
DieFace = Annotated[int, Meta(ge=1, le=6, description="One six-sided die.")]
Steps = Annotated[int, Meta(ge=0, le=64, description="Step losses still to take.")]
_UNIQUE = {"uniqueItems": True}
UnitIds = Annotated[tuple[Id, ...], Meta(max_length=MAX_UNITS, extra_json_schema=_UNIQUE)]
Hexes = Annotated[tuple[HexId, ...], Meta(max_length=2048, extra_json_schema=_UNIQUE)]
OrderName = Literal["move_fight", "fight_move", "move_move", "fight_fight"]
PhaseName = Literal["declare", "ops1", "reinf", "ops2", "victory", "over"]
StepName = Literal[
    "main", "join", "support_a", "air_ask", "air_roll", "support_d", "roll", "loss_d",
    "retreat", "loss_a", "advance", "stack", "elite_roll", "replace", "air_defence",
    "interdict_roll", "interdict", "reinf_move", "advance_on", "group",
]  # fmt: skip
Kind = Literal["air", "artillery", "naval_gunfire", "amphibious"]
Marker = Annotated[str, Meta(pattern="^(CH|JP):(air|artillery|naval_gunfire|amphibious)$")]


class PlacedRecord(Record, frozen=True):
    """A unit on the map."""

    unit: Id
    hex: HexId


class BoxRecord(Record, frozen=True):
    """A unit in a TRT box (SNC-3.1.2, SNC-8.1.2)."""

    unit: Id
    gt: Box


OverrunNext = Annotated[
    Literal["", "again", "repeat", "owed"],
    Meta(
        description=(
            "What the moving group may do next: move on; after an overrun, overrun again "
            "(SNC-9.6.7) or repeat (SNC-9.6.8); owed: it moves together only to overrun "
            "(SNC-9.6.2, stack_movement=units_only)."
        )
    ),
]


class CombatRecord(Record, frozen=True):
    """The attack being resolved (SNC-10.x) or an amphibious landing (SNC-8.4.0.4)."""

    target: HexId
    attackers: UnitIds
    landing: bool
    support_a: Annotated[tuple[Kind, ...], Meta(max_length=4, extra_json_schema=_UNIQUE)]
    support_d: Annotated[tuple[Kind, ...], Meta(max_length=1)]
    aborted: Annotated[int, Meta(ge=0, le=1)]
    face: Face
    loss_a: Steps
    loss_d: Steps
    defenders: UnitIds
    won: bool
    overrun: bool
    second: HexId | None
    second_unit: Id | None


class StateRecord(Record, frozen=True):
    """A whole SNC position, as the referee knows it: every field is required, so a document
    read back is the document sent."""

    format: Literal["wargame-kernel/state"]
    version: Literal[1]
    game: Literal["snc1937"]
    variant: VariantRecord
    turn: Turn
    side: Side
    phase: PhaseName
    step: StepName
    order: OrderName | None
    where: Annotated[tuple[PlacedRecord, ...], Meta(max_length=MAX_UNITS)]
    trt: Annotated[tuple[BoxRecord, ...], Meta(max_length=MAX_UNITS)]
    dead: UnitIds
    reduced: UnitIds
    jp_control: Hexes
    done: UnitIds
    attacked: Hexes
    used: Annotated[tuple[Marker, ...], Meta(max_length=64)]
    jp_support_ops1: bool
    ch_air: bool
    ch_air_used: bool
    replacements: Annotated[int, Meta(ge=0, le=2)]
    arrived: UnitIds
    movable: UnitIds
    moving: UnitIds
    mp: Annotated[int, Meta(ge=0, le=16, description="Half-MP left (SNC-9.0.1: 8 MP).")]
    combat: CombatRecord | None
    roll: Annotated[int, Meta(ge=0, le=64)]
    elite: UnitIds
    stack_hexes: Hexes
    after_stack: Literal["", "main", "phase"]
    result: OutcomeRecord | None
    overrun_next: OverrunNext
    overrun_target: HexId | None
    overrun_hexes: Hexes
    culled: Annotated[
        tuple[PlacedRecord, ...],
        Meta(max_length=MAX_UNITS, description="Units culled so far in this check (SNC-6.0.4)."),
    ]
    on_top: Annotated[
        tuple[Id, ...],
        Meta(
            max_length=MAX_UNITS,
            extra_json_schema=_UNIQUE,
            description="Units put on top of their stacks, latest first (AMB-SNC-40).",
        ),
    ]
    topped: Annotated[
        tuple[Id, ...],
        Meta(
            max_length=MAX_UNITS,
            extra_json_schema=_UNIQUE,
            description="Units put on top in this phase, each at most once (AMB-SNC-40).",
        ),
    ]
    checked: Annotated[
        tuple[HexId, ...],
        Meta(
            max_length=2048,
            extra_json_schema=_UNIQUE,
            description=(
                "The hexes covered by the stacking check the last step started, in hex order; "
                "empty when it started none (SNC-6.0.2, SNC-6.0.3; AMB-SNC-8)."
            ),
        ),
    ]


# --- actions ------------------------------------------------------------------------------------


class DeclareAction(Record, frozen=True, tag_field="type", tag="declare"):
    """The phase-order declaration (SNC-5.3.1)."""

    order: OrderName


class MoveAction(Record, frozen=True, tag_field="type", tag="move"):
    """Units of one hex move to a hex (SNC-9.0.x)."""

    units: Annotated[tuple[Id, ...], Meta(min_length=1, max_length=16, extra_json_schema=_UNIQUE)]
    to: HexId


class OverrunAction(Record, frozen=True, tag_field="type", tag="overrun"):
    """A Japanese overrun of an adjacent hex (SNC-9.6.1): by the group under way, or opened for
    a group of one hex declared next by joins (SNC-9.6.2)."""

    target: HexId


class AttackAction(Record, frozen=True, tag_field="type", tag="attack"):
    """Open an attack on an enemy hex (SNC-10.0.1)."""

    target: HexId


class JoinAction(Record, frozen=True, tag_field="type", tag="join"):
    """A unit joins the attack (SNC-10.0.5), the overrun group being declared (SNC-9.6.2), or
    the group being formed to move together (SNC-9.0.10; AMB-SNC-44)."""

    unit: Id


class StrikeAction(Record, frozen=True, tag_field="type", tag="strike"):
    """The attackers are declared (SNC-10.1.2)."""


class SupportAction(Record, frozen=True, tag_field="type", tag="support"):
    """A fire support marker (SNC-11.1.1)."""

    kind: Kind


class InterceptAction(Record, frozen=True, tag_field="type", tag="intercept"):
    """Chinese air support, or not (SNC-11.3.1, SNC-11.3.3)."""

    yes: bool


class RollAction(Record, frozen=True, tag_field="type", tag="roll"):
    """Chance: a die."""

    face: DieFace


class LossAction(Record, frozen=True, tag_field="type", tag="loss"):
    """A step loss (SNC-10.5.2.x)."""

    unit: Id


class RetreatAction(Record, frozen=True, tag_field="type", tag="retreat"):
    """A Chinese unit leaves a landing hex (SNC-8.4.0.9)."""

    unit: Id
    to: HexId


class AdvanceAction(Record, frozen=True, tag_field="type", tag="advance"):
    """Advance after combat (SNC-10.5.3.1)."""

    unit: Id


class AdvanceOnAction(Record, frozen=True, tag_field="type", tag="advance_on"):
    """A 10th Army unit's second hex of advance after its landing combat (SNC-8.4.1.2)."""

    unit: Id
    to: HexId


class PlaceAction(Record, frozen=True, tag_field="type", tag="place"):
    """A reinforcement placed (SNC-8.2.2, SNC-8.2.4, SNC-8.1.4)."""

    unit: Id
    hex: HexId
    rail: bool


class LandAction(Record, frozen=True, tag_field="type", tag="land"):
    """A Japanese group lands (SNC-8.4.0.1)."""

    units: Annotated[tuple[Id, ...], Meta(min_length=1, max_length=32, extra_json_schema=_UNIQUE)]
    hex: HexId


class DelayAction(Record, frozen=True, tag_field="type", tag="delay"):
    """A reinforcement waits a GT (SNC-8.0.2)."""

    unit: Id


class ReplaceAction(Record, frozen=True, tag_field="type", tag="replace"):
    """A replacement step (SNC-8.3.4)."""

    unit: Id


class RemoveAction(Record, frozen=True, tag_field="type", tag="remove"):
    """An interdicted reinforcement (SNC-11.2.2)."""

    unit: Id


class EliminateAction(Record, frozen=True, tag_field="type", tag="eliminate"):
    """An over-stacked unit culled (SNC-6.0.4)."""

    unit: Id


class TopAction(Record, frozen=True, tag_field="type", tag="top"):
    """A unit put on top of its stack by its owner (SNC-6.3.1; AMB-SNC-40)."""

    unit: Id


class DoneAction(Record, frozen=True, tag_field="type", tag="done"):
    """End the phase or activity (SNC-5.0.3)."""


ActionRecord = (
    DeclareAction | MoveAction | OverrunAction | AttackAction | JoinAction | StrikeAction
    | SupportAction | InterceptAction | RollAction | LossAction | RetreatAction | AdvanceAction
    | AdvanceOnAction | PlaceAction | LandAction | DelayAction | ReplaceAction | RemoveAction
    | EliminateAction | TopAction | DoneAction
)  # fmt: skip


# --- observation --------------------------------------------------------------------------------


class SeenStackRecord(Record, frozen=True):
    """A hex as one side sees it: all its own units, or an enemy stack's top unit and its
    size (SNC-6.3.1), the whole enemy stack once an attack on it is being resolved."""

    hex: HexId
    side: Side
    units: UnitIds
    count: Annotated[int, Meta(ge=1, le=MAX_UNITS)]


class ObservationRecord(Record, frozen=True):
    """What one side may know of a position."""

    game: Literal["snc1937"]
    side: Side
    to_move: Literal["CH", "JP", "chance"] | None
    variant: VariantRecord
    turn: Turn
    player: Side
    phase: PhaseName
    step: StepName
    order: OrderName | None
    stacks: Annotated[tuple[SeenStackRecord, ...], Meta(max_length=2048)]
    trt: Annotated[tuple[BoxRecord, ...], Meta(max_length=MAX_UNITS)]
    dead: UnitIds
    reduced: UnitIds
    jp_control: Hexes
    done: UnitIds
    attacked: Hexes
    used: Annotated[tuple[Marker, ...], Meta(max_length=64)]
    jp_support_ops1: bool
    ch_air: bool
    ch_air_used: bool
    replacements: Annotated[int, Meta(ge=0, le=2)]
    arrived: UnitIds
    movable: UnitIds
    moving: UnitIds
    mp: Annotated[int, Meta(ge=0, le=16)]
    combat: CombatRecord | None
    roll: Annotated[int, Meta(ge=0, le=64)]
    elite: UnitIds
    stack_hexes: Hexes
    after_stack: Literal["", "main", "phase"]
    result: OutcomeRecord | None
    overrun_next: OverrunNext
    overrun_target: HexId | None
    overrun_hexes: Hexes
    culled: Annotated[
        tuple[PlacedRecord, ...],
        Meta(max_length=MAX_UNITS, description="Units culled so far in this check (SNC-6.0.4)."),
    ]
    checked: Hexes
    topped: UnitIds
