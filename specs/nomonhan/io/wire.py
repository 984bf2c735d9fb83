"""Nomonhan's documents on the wire: the state, the actions and the observation, each declared
once as `kernel.wire.Record` classes. The codec decodes with them (`codec`, `actions`) and the
published JSON Schemas are generated from them (`kernel.views.schema`), so the two cannot drift.

The forms are the ones Nomonhan has always written (same field names and shapes), now read
strictly: every field is required, unknown fields are refused, booleans are not numbers, ids
are ASCII, hexes are four ASCII digits and every integer has the bounds the rules give it.
What the wire cannot know (which unit ids and hexes exist in the data, and whether the position
can be reached) is the codec's and `position`'s job.

The observation is the state document itself. Nomonhan has no hidden information (both sides
see the whole map, every counter and the turn track), so what a side may know is the public
position, and that is exactly the state: one format, one schema, and a client can hand the
observation of its view back to any command that takes a state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Final, Literal

import msgspec
from msgspec import UNSET, UnsetType

from kernel.wire import HexId, Id, Meta, Record, Text
from specs.nomonhan.data.variants import CATALOGUE

UNITS: Final = 9
"""Nine unit counters (eleven counters less the Turn and demolition markers, NOM-2.5): no
list of units is longer."""
MAX_STEPS: Final = 2
"""A counter has its front and, at most, a reduced reverse side (NOM-2.5, NOM-9.24)."""
MAX_DICE: Final = 15
"""The most dice one side can roll in a combat: every unit of a side at full strength, plus
one for the Artillery or a bridge (NOM-9.9, NOM-9.17, NOM-9.22); hit differences, damage and
advance points are never more. A test holds this bound to the counters."""
MAX_POINTS: Final = 2 * MAX_STEPS * UNITS
"""Two points per tank step at most (NOM-4.5, NOM-4.6), two steps per unit, nine units."""
MAX_TURN: Final = 10_000
"""The turn track has eight boxes and JA ends the game after Turn 8 (NOM-5.5), but EN has no
last turn (AMB-NOM-4): the position check holds each variant to its own limit, the wire only to
a number no game reaches."""

Side = Literal["JP", "SU"]
"""Japanese (khaki counters) or Soviet (brown counters) (NOM-2.1)."""
PhaseName = Literal["ip_movement", "ip_combat", "nip_movement", "nip_combat"]
"""The four phases of a cycle, in order (NOM-5.1)."""
StageName = Literal["move", "declare", "pick", "roll", "damage", "advance", "end_roll", "over"]
"""Where inside a phase play stands (see `state.Stage`)."""
EndClause = Literal["NOM-4.1", "NOM-4.2", "NOM-5.4", "NOM-5.5"]
"""The clauses that end a game: two sudden deaths, the end-of-turn roll, the last turn."""

Steps = Annotated[int, Meta(ge=0, le=MAX_STEPS)]
Turn = Annotated[int, Meta(ge=1, le=MAX_TURN)]
Dice = Annotated[int, Meta(ge=0, le=MAX_DICE)]
Score = Annotated[int, Meta(ge=0, le=MAX_POINTS)]
Face = Annotated[int, Meta(ge=1, le=6, description="A six-sided die's face (NOM-2.3).")]
CombatIndex = Annotated[int, Meta(ge=0, le=UNITS - 1)]
UnitIds = Annotated[tuple[Id, ...], Meta(max_length=UNITS)]
CombatSide = Annotated[tuple[Id, ...], Meta(min_length=1, max_length=UNITS)]
"""The units of one side of a combat: at least one (NOM-9.7), in the counter list's order."""


# --- the variant -----------------------------------------------------------------------------

if TYPE_CHECKING:
    Options = Any
else:
    Options = msgspec.defstruct(
        "Options",
        [
            (
                o.name,
                Annotated[
                    Literal[tuple(r.name for r in o.readings)],
                    Meta(description=o.question),
                ],
            )
            for o in CATALOGUE.options
        ],
        bases=(Record,),
        module=__name__,
        frozen=True,
    )
    Options.__doc__ = "The reading of every option of the catalogue (variants.py)."

PresetName = Literal["ja", "en"]
"""The presets of the catalogue (a test holds the two lists together)."""


class Variant(Record, frozen=True):
    """The rules in force: the preset (null when some option departs from every preset) and
    the reading of every option, all of them, so that nothing defaults silently."""

    preset: PresetName | None
    options: Options


# --- the state ---------------------------------------------------------------------------------


class Unit(Record, frozen=True):
    """One unit counter: its hex (null before it arrives, once eliminated, or when lost), and
    its steps (0 once eliminated)."""

    id: Id
    hex: HexId | None
    steps: Steps


class Combat(Record, frozen=True):
    """One declared combat: attackers, defenders, and whether the Artillery supports it."""

    attackers: CombatSide
    defenders: CombatSide
    support: bool


class Resolution(Record, frozen=True):
    """The combat being resolved: its loser once the dice are rolled, the damage points left
    and done, the advance points left, every participant's hex when it began, and the units
    that retreated in it."""

    combat: Combat
    loser: Side | None
    damage_left: Dice
    damage_done: Dice
    advance_left: Dice
    start_hexes: Annotated[dict[Id, HexId], Meta(max_length=UNITS)]
    retreated: UnitIds


class Points(Record, frozen=True):
    """Victory points per side (NOM-4.5, NOM-4.6)."""

    JP: Score
    SU: Score


class Outcome(Record, frozen=True):
    """How the game ended: the winner (null for a draw), the points, the deciding clause."""

    winner: Side | None
    points: Points
    clause: EndClause
    reason: Text


class State(Record, frozen=True):
    """A Nomonhan position. `points` is derived (it follows from the units' steps); it is
    written for readers and, on input, must equal the points the units give."""

    format: Literal["wargame-kernel/state"]
    version: Literal[1]
    game: Literal["nomonhan"]
    variant: Variant
    turn: Turn
    initiative: Side
    phase: PhaseName
    stage: StageName
    units: Annotated[tuple[Unit, ...], Meta(max_length=UNITS)]
    moved: UnitIds
    demolished: bool
    artillery_used: bool
    nip_moved_this_turn: bool
    withdrawn: UnitIds
    pending: Annotated[tuple[Combat, ...], Meta(max_length=UNITS)]
    current: Resolution | None
    turn_ending: bool
    end_rolled: bool
    result: Outcome | None
    points: Points


# --- actions -------------------------------------------------------------------------------


class ActionRecord(Record, frozen=True, tag_field="type"):
    """Base of the actions: each is an object whose `type` names it."""


class Move(ActionRecord, frozen=True, tag="move"):
    """Move a unit to a destination (NOM-8.1)."""

    unit: Id
    to: HexId


class Enter(ActionRecord, frozen=True, tag="enter"):
    """A reinforcement enters at a flag hex and moves on to `to` (NOM-8.8)."""

    unit: Id
    at: HexId
    to: HexId


class Demolish(ActionRecord, frozen=True, tag="demolish"):
    """Blow the pontoon bridge (NOM-OPT)."""


class EndPhase(ActionRecord, frozen=True, tag="end_phase"):
    """End the Movement Phase."""


class Declare(ActionRecord, frozen=True, tag="declare"):
    """Every combat of the Combat Phase (NOM-9.8); none is a declaration too."""

    combats: Annotated[tuple[Combat, ...], Meta(max_length=UNITS)]


class Resolve(ActionRecord, frozen=True, tag="resolve"):
    """Resolve the pending combat at this index next (AMB-NOM-11)."""

    combat: CombatIndex


class Roll(ActionRecord, frozen=True, tag="roll"):
    """Chance: the hits each side rolled (NOM-9.9, NOM-9.11)."""

    attacker_hits: Dice
    defender_hits: Dice


class Loss(ActionRecord, frozen=True, tag="loss"):
    """One damage point: a step loss (`"step": true`) or a retreat (`"retreat_to"`), exactly
    one of the two (NOM-9.24)."""

    unit: Id
    step: Literal[True] | UnsetType = UNSET
    retreat_to: HexId | UnsetType = UNSET

    def __post_init__(self) -> None:
        if (self.step is UNSET) == (self.retreat_to is UNSET):
            raise ValueError("a loss has exactly one of `step` (true) and `retreat_to`")


class Advance(ActionRecord, frozen=True, tag="advance"):
    """Advance one hex after combat (NOM-9.30)."""

    unit: Id
    to: HexId


class EndAdvance(ActionRecord, frozen=True, tag="end_advance"):
    """Stop advancing (the remaining points are not used)."""


class EndRoll(ActionRecord, frozen=True, tag="end_roll"):
    """Chance: the die rolled at the end of a turn (NOM-5.4)."""

    face: Face


_LOSS_FORM: Final = {
    "allOf": [
        {
            "if": {"properties": {"type": {"const": "loss"}}, "required": ["type"]},
            "then": {"oneOf": [{"required": ["step"]}, {"required": ["retreat_to"]}]},
        }
    ]
}
"""What `Loss.__post_init__` checks, said in the schema (a struct cannot carry it itself)."""

Action = Annotated[
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
    | EndRoll,
    Meta(extra_json_schema=_LOSS_FORM),
]
"""An action document: a union tagged by `type`."""

Observation = State
"""What a side may know: the whole position (Nomonhan has no hidden information)."""
