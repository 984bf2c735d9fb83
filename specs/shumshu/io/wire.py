"""Shumshu's wire formats: the one definition of its state, action and observation JSON, from
which the codec decodes strictly and the published JSON Schemas are generated (`kernel.wire`,
`kernel.views.schema`).

Every field is required; unknown fields are refused; hexes are four ASCII digits; every integer
is bounded by the rules' own maxima, named in its description: at most eight half-days (the
longest `game_length`, AMB-SHU-2), three landing capabilities (SHU-LAND.3), three landers
(SHU-LAND.2), a d6 (SHU-CRT.1). Unit ids and hexes are checked against the data file by the
codec; what depends on other fields or on the readings is the position check's
(`position.py`).
"""

from __future__ import annotations

from typing import Annotated, Literal

from kernel.codec import OutcomeRecord, VariantRecord
from kernel.wire import HexId, Id, Meta, Record

MAX_UNITS = 64
"""A bound on the counters of any transcription (the shipped data has 22)."""
MAX_TURN = 8
MAX_PLAYER_TURN = 2 * (MAX_TURN + 1)

Side = Literal["RU", "JP"]
Turn = Annotated[
    int, Meta(ge=1, le=MAX_TURN, description="A half-day; at most 8 (game_length, AMB-SHU-2).")
]
Recover = Annotated[
    int,
    Meta(
        ge=0,
        le=MAX_PLAYER_TURN,
        description="The player-turn a disrupted unit recovers at (SHU-DISRUPT.3, "
        "SHU-DISRUPT.4), or the turn a decoy returns (SHU-COMBAT.6); 0 otherwise.",
    ),
]
Ships = Annotated[int, Meta(ge=0, le=3, description="SHU-LAND.3: three landing capabilities.")]
Face = Annotated[int, Meta(ge=0, le=6, description="SHU-CRT.1: a d6 (0 before the roll).")]
DieFace = Annotated[int, Meta(ge=1, le=6, description="SHU-CRT.1: one six-sided die.")]
_UNIQUE = {"uniqueItems": True}
UnitIds = Annotated[tuple[Id, ...], Meta(max_length=MAX_UNITS, extra_json_schema=_UNIQUE)]
Party = Annotated[
    tuple[Id, ...],
    Meta(max_length=3, extra_json_schema=_UNIQUE, description="SHU-LAND.2: up to 3 units."),
]
LocName = Literal["map", "pool", "gone", "unformed", "in_regiment", "removed", "sea", "sunk"]
StageName = Literal[
    "setup",
    "form",
    "sail",
    "air",
    "air_roll",
    "replace",
    "reinforce",
    "decoy",
    "move",
    "declare",
    "pick",
    "defenders",
    "hold",
    "commit",
    "roll",
    "retreat",
    "advance",
    "over",
]
ResultName = Literal["", "DE", "DR", "DW", "D", "AD", "AE", "lost"]


# --- the state ----------------------------------------------------------------------------------


class PieceRecord(Record, frozen=True):
    """A counter: where it is, on which hex, disrupted (SHU-DISRUPT.1) and until when, and
    whether a Japanese counter has been revealed (SHU-COMBAT.5)."""

    id: Id
    loc: LocName
    hex: HexId | None
    disrupted: bool
    recover: Recover
    revealed: bool


class CombatRecord(Record, frozen=True):
    """A declared attack: the target hex and its attackers (SHU-COMBAT.1)."""

    hex: HexId
    attackers: UnitIds


class SailRecord(Record, frozen=True):
    """This player-turn's sea movement: a landing hex (null for deliveries) and the units at
    sea (SHU-LAND.1, SHU-LAND.2, SHU-REINF.3)."""

    hex: HexId | None
    party: Party
    sailed: bool
    lost_ship: bool
    landed: bool


class FightRecord(Record, frozen=True):
    """The combat or landing roll being resolved."""

    hex: HexId
    attackers: UnitIds
    landing: bool
    defenders: Annotated[tuple[Id, ...], Meta(max_length=4, extra_json_schema=_UNIQUE)]
    hold: bool
    press: bool
    air: bool
    banzai: bool
    face: Face
    result: ResultName
    retreating: UnitIds
    first_to: HexId | None
    winners: UnitIds


class StateRecord(Record, frozen=True):
    """A whole Shumshu position, as the referee knows it (every hidden piece's identity)."""

    format: Literal["wargame-kernel/state"]
    version: Literal[1]
    game: Literal["shumshu"]
    variant: VariantRecord
    turn: Turn
    side: Side
    stage: StageName
    units: Annotated[tuple[PieceRecord, ...], Meta(max_length=MAX_UNITS)]
    ships: Ships
    air: bool
    air_used: bool
    air_turn: Annotated[int, Meta(ge=0, le=MAX_TURN)]
    at_arrived: bool
    beachhead: HexId | None
    replaced: Annotated[int, Meta(ge=0, le=MAX_TURN)]
    moved: UnitIds
    acted: UnitIds
    sail: SailRecord | None
    pending: Annotated[tuple[CombatRecord, ...], Meta(max_length=MAX_UNITS)]
    fight: FightRecord | None
    taken: Annotated[tuple[Literal["1", "2"], ...], Meta(max_length=2, extra_json_schema=_UNIQUE)]
    result: OutcomeRecord | None


# --- actions ------------------------------------------------------------------------------------


class PlaceAction(Record, frozen=True, tag_field="type", tag="place"):
    """Set-up: the next Japanese piece on a hex of Shumshu (SHU-SETUP.1)."""

    unit: Id
    hex: HexId


class FormAction(Record, frozen=True, tag_field="type", tag="form"):
    """A Russian regiment forms from its three battalions (SHU-RGT.1)."""

    regiment: Id


class LandAtAction(Record, frozen=True, tag_field="type", tag="land_at"):
    """The coastal hex of this turn's landing (SHU-LAND.1)."""

    hex: HexId


class EmbarkAction(Record, frozen=True, tag_field="type", tag="embark"):
    """A Russian unit put to sea (SHU-LAND.2, SHU-REINF.3)."""

    unit: Id


class StrikeAction(Record, frozen=True, tag_field="type", tag="strike"):
    """The Ki-43 strikes at shipping, or not (SHU-AIR.2)."""

    yes: bool


class AirRollAction(Record, frozen=True, tag_field="type", tag="air_roll"):
    """Chance: the Ki-43's die and the unit sunk with its ship, if any (SHU-AIR.2)."""

    face: DieFace
    sunk: Id | None


class ReplaceAction(Record, frozen=True, tag_field="type", tag="replace"):
    """An eliminated Russian infantry battalion comes back (SHU-REPL.1)."""

    unit: Id


class ReinforceAction(Record, frozen=True, tag_field="type", tag="reinforce"):
    """One Japanese unit from Paramushir to hex 33 (SHU-REINF.2)."""

    unit: Id
    hex: HexId


class ReturnDecoyAction(Record, frozen=True, tag_field="type", tag="return_decoy"):
    """A decoy discovered last turn comes back (SHU-COMBAT.6)."""

    unit: Id
    hex: HexId


class MoveAction(Record, frozen=True, tag_field="type", tag="move"):
    """A unit moves to a hex (SHU-MOVE.1, SHU-MOVE.2)."""

    unit: Id
    to: HexId


class JoinAction(Record, frozen=True, tag_field="type", tag="join"):
    """A unit attacks into a hex (SHU-COMBAT.1)."""

    unit: Id
    hex: HexId


class ResolveAction(Record, frozen=True, tag_field="type", tag="resolve"):
    """The declared attack into this hex is resolved next."""

    hex: HexId


class DefendAction(Record, frozen=True, tag_field="type", tag="defend"):
    """The units that defend the hex (SHU-STACK.3)."""

    units: Annotated[tuple[Id, ...], Meta(min_length=1, max_length=4, extra_json_schema=_UNIQUE)]


class HoldAction(Record, frozen=True, tag_field="type", tag="hold"):
    """No Retreat!, or not (SHU-LAND.8, SHU-LAND.9)."""

    yes: bool


class CommitAction(Record, frozen=True, tag_field="type", tag="commit"):
    """The attacker presses (SHU-PRESS.1), calls the Ki-43 (SHU-AIR.1), declares Banzai!
    (SHU-BANZAI.1)."""

    press: bool
    air: bool
    banzai: bool


class RollAction(Record, frozen=True, tag_field="type", tag="roll"):
    """Chance: the die of a combat or a landing (SHU-CRT.1)."""

    face: DieFace


class RetreatAction(Record, frozen=True, tag_field="type", tag="retreat"):
    """A routed or withdrawn unit's hex (SHU-CRT.4, SHU-CRT.5)."""

    unit: Id
    to: HexId


class AdvanceAction(Record, frozen=True, tag_field="type", tag="advance"):
    """A victor advances (SHU-COMBAT.13)."""

    unit: Id
    to: HexId


class DoneAction(Record, frozen=True, tag_field="type", tag="done"):
    """The current step is over."""


ActionRecord = (
    PlaceAction
    | FormAction
    | LandAtAction
    | EmbarkAction
    | StrikeAction
    | AirRollAction
    | ReplaceAction
    | ReinforceAction
    | ReturnDecoyAction
    | MoveAction
    | JoinAction
    | ResolveAction
    | DefendAction
    | HoldAction
    | CommitAction
    | RollAction
    | RetreatAction
    | AdvanceAction
    | DoneAction
)


# --- one side's observation ---------------------------------------------------------------------


class ObservedPiece(Record, frozen=True):
    """A counter the side can identify."""

    id: Id
    loc: LocName
    hex: HexId | None
    disrupted: bool
    recover: Recover
    revealed: bool


class ObservedSail(Record, frozen=True):
    hex: HexId | None
    party: Party
    sailed: bool
    lost_ship: bool
    landed: bool


class ObservedCombat(Record, frozen=True):
    """A declared attack; a face-down attacker is "hidden"."""

    hex: HexId
    attackers: Annotated[tuple[Id, ...], Meta(max_length=MAX_UNITS)]


class ObservedFight(Record, frozen=True):
    hex: HexId
    attackers: Annotated[tuple[Id, ...], Meta(max_length=MAX_UNITS)]
    landing: bool
    defenders: Annotated[tuple[Id, ...], Meta(max_length=4)]
    hold: bool
    press: bool
    air: bool
    banzai: bool
    face: Face
    result: ResultName
    retreating: Annotated[tuple[Id, ...], Meta(max_length=MAX_UNITS)]
    first_to: HexId | None
    winners: Annotated[tuple[Id, ...], Meta(max_length=MAX_UNITS)]


class ObservationRecord(Record, frozen=True):
    """What one side may know (SHU-COMBAT.5, SHU-COMBAT.6): every counter it can identify,
    and the face-down Japanese pieces only as a count per hex and on Paramushir."""

    game: Literal["shumshu"]
    side: Side
    to_move: Literal["RU", "JP", "chance"] | None
    variant: VariantRecord
    turn: Turn
    player: Side
    stage: StageName
    ships: Ships
    air: bool
    air_used: bool
    air_turn: Annotated[int, Meta(ge=0, le=MAX_TURN)]
    at_arrived: bool
    beachhead: HexId | None
    replaced: Annotated[int, Meta(ge=0, le=MAX_TURN)]
    units: Annotated[tuple[ObservedPiece, ...], Meta(max_length=MAX_UNITS)]
    face_down: dict[HexId, Annotated[int, Meta(ge=1, le=MAX_UNITS)]]
    paramushir: Annotated[int, Meta(ge=0, le=MAX_UNITS)]
    moved: UnitIds
    moved_face_down: Annotated[int, Meta(ge=0, le=MAX_UNITS)]
    acted: UnitIds
    sail: ObservedSail | None
    pending: Annotated[tuple[ObservedCombat, ...], Meta(max_length=MAX_UNITS)]
    fight: ObservedFight | None
    taken: Annotated[tuple[Literal["1", "2"], ...], Meta(max_length=2)]
    result: OutcomeRecord | None
