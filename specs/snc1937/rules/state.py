"""The Shanghai-Nanking Campaign's immutable state.

A GT is the Chinese player turn then the Japanese one (SNC-5.0.1, SNC-5.1.1); each player turn
opens with his phase-order declaration (SNC-5.3.1), then his First Operations, Reinforcement
and Second Operations Phases; the Japanese turn ends with the Victory Check (SNC-4.3.1).
`Phase` says where the turn stands, `Step` what is being decided inside the phase.

Nothing derivable is stored: who stands in a hex follows from `where`, the fire support
markers a side holds follow from the GT (SNC-3.1.2, SNC-8.5.1), the seven city hexes from the
map. What play made history of is stored: Japanese hex control (SNC-3.2.2), units that moved or
attacked, hexes attacked, markers set aside, Chinese air support (SNC-11.3.2).
"""

from __future__ import annotations

import enum
import operator
from typing import Any

import attrs

from kernel.game import Outcome
from kernel.hexes import Hex
from kernel.variants import Variant
from specs.snc1937.rules.position_views import where_hash

CH, JP = "CH", "JP"
SIDES = (CH, JP)
LAST_GT = 12  # SNC-5.0.1, SNC-5.2.2
MF_MOBILE = 8  # SNC-9.0.1, SNC-9.0.2: a mobile unit's MF
FULL_MP = 2 * MF_MOBILE  # a move's MP at its start, in half-MP as `SNCState.mp` counts them


def other(side: str) -> str:
    return JP if side == CH else CH


class Order(enum.Enum):
    """The phase-order declaration (SNC-5.3.1): what the two Operations Phases are for."""

    MOVE_FIGHT = "move_fight"
    FIGHT_MOVE = "fight_move"
    MOVE_MOVE = "move_move"
    FIGHT_FIGHT = "fight_fight"

    def ops(self, second: bool) -> str:
        """'move' or 'fight' for the first (second=False) or second Operations Phase."""
        return _OPS[self, second]


# `Order.ops` read once per declaration: play asks it several times a step
_OPS = {
    (o, second): o.value.split("_")[1 if second else 0] for o in Order for second in (False, True)
}


class Phase(enum.Enum):
    """Where the player turn stands (SNC-5.1.1)."""

    DECLARE = "declare"  # the phase-order declaration (SNC-5.3.1)
    OPS1 = "ops1"  # First Operations Phase
    REINF = "reinf"  # Reinforcement Phase
    OPS2 = "ops2"  # Second Operations Phase
    VICTORY = "victory"  # Victory Check Phase (II.D, SNC-4.3.1)
    OVER = "over"


class Step(enum.Enum):
    """What is being decided now."""

    MAIN = "main"  # move / attack / place / declare / end the phase
    # attackers join the declared attack (SNC-10.0.5), or units of one hex the overrun group
    # being declared (SNC-9.6.2: `Combat.overrun` set, no move under way yet)
    JOIN = "join"
    # a group of one hex's units is being formed to move together, unit by unit (`Join`),
    # before its first hex (SNC-9.0.10, SNC-9.6.2; AMB-SNC-44): `moving` holds it, with the
    # full MF in `mp`, and nothing has moved yet
    GROUP = "group"
    SUPPORT_A = "support_a"  # the attacker adds fire support (SNC-11.1.1)
    AIR_ASK = "air_ask"  # the Chinese may intercept a Japanese air marker (SNC-11.3.1)
    AIR_ROLL = "air_roll"  # chance: the interception die (SNC-11.3.2)
    SUPPORT_D = "support_d"  # the defender adds naval gunfire (SNC-11.1.4)
    ROLL = "roll"  # chance: the combat die (SNC-10.5.0.1)
    LOSS_D = "loss_d"  # the defender takes his step losses (SNC-10.5.2.x)
    RETREAT = "retreat"  # landing: surviving Chinese retreat one hex (SNC-8.4.0.9)
    LOSS_A = "loss_a"  # the attacker takes his step losses
    ADVANCE = "advance"  # advance after combat (SNC-10.5.3.x)
    STACK = "stack"  # over-stacked hexes are culled by their owner (SNC-6.0.4)
    ELITE_ROLL = "elite_roll"  # chance: an eliminated elite unit's return GT (SNC-8.1.2)
    REPLACE = "replace"  # Japanese replacements (SNC-8.3.4)
    AIR_DEFENCE = "air_defence"  # Chinese air support against interdiction (SNC-11.3.3)
    INTERDICT_ROLL = "interdict_roll"  # chance: the Japanese interdiction die (SNC-11.2.1)
    INTERDICT = "interdict"  # the Chinese remove interdicted reinforcements (SNC-11.2.2)
    REINF_MOVE = "reinf_move"  # method-(a) Chinese reinforcements move (SNC-8.2.2)
    ADVANCE_ON = "advance_on"  # the 10th Army's second hex of advance (SNC-8.4.1.2)


@attrs.frozen(order=True)
class Combat:
    """The attack being resolved: its target hex, attackers, fire support and die.

    A landing combat (SNC-8.4.0.4) has `landing` set and its attackers are still at sea, so
    their step losses fall on units not yet on the map. An overrun (`overrun`, SNC-9.6.3) is
    stored from `Overrun(target)` on: in `Step.JOIN` its `attackers` are the group being
    declared, units of the hex they start their move in (SNC-9.6.2), and no move is under way
    until `Strike` launches it; from then on they are the moving group."""

    target: Hex
    attackers: tuple[str, ...] = ()
    landing: bool = False
    support_a: tuple[str, ...] = ()  # marker kinds the attacker added (SNC-11.1.3)
    support_d: tuple[str, ...] = ()  # naval gunfire in defence (SNC-11.1.4)
    aborted: int = 0  # Japanese air markers aborted by Chinese air support (SNC-11.3.2)
    face: int = 0
    loss_a: int = 0  # steps still to take
    loss_d: int = 0
    defenders: tuple[str, ...] = ()  # who defended (revealed, SNC-6.3.1)
    won: bool = False  # the CRT took fewer attacker than defender steps (advance_victors)
    overrun: bool = False  # a Japanese overrun during movement (SNC-9.6.3)
    second: Hex | None = None  # a 10th Army advance waiting for a Chinese retreat (SNC-8.4.1.3)
    second_unit: str | None = None  # the 10th Army unit that advances there (SNC-8.4.1.2)


@attrs.frozen(slots=False)
class SNCState:
    variant: Variant
    turn: int  # GT 1..12
    side: str  # whose player turn
    phase: Phase
    step: Step
    order: Order | None  # this player turn's declaration (SNC-5.3.1)
    where: tuple[tuple[str, Hex], ...]  # units on the map, one hex each (SNC-2.1.2), by id
    trt: tuple[tuple[str, int], ...]  # units in the TRT by GT box, sorted (SNC-3.1.2, SNC-8.1.2)
    dead: frozenset[str]  # the dead pile (and interdicted units, SNC-11.2.3)
    reduced: frozenset[str]
    jp_control: frozenset[Hex]  # hexes the Japanese control (SNC-3.2.1, SNC-3.2.2)
    done: frozenset[str] = frozenset()  # moved (Move) or attacked (Fight) this phase
    attacked: frozenset[Hex] = frozenset()  # defended this phase (SNC-10.0.8)
    used: tuple[str, ...] = ()  # markers set aside, "CH:artillery" etc., sorted (SNC-11.1.5)
    jp_support_ops1: bool = False  # Japanese markers used in First Ops (SNC-8.5.2)
    ch_air: bool = True  # Chinese air support still exists (SNC-11.3.2)
    ch_air_used: bool = False  # used in this phase (chinese_air=once_per_phase)
    replacements: int = 0  # Japanese replacement steps left this GT (SNC-8.3.1)
    arrived: frozenset[str] = frozenset()  # reinforcements placed this phase
    movable: frozenset[str] = frozenset()  # method-(a) arrivals that may still move (SNC-8.2.2)
    moving: tuple[str, ...] = ()  # the group whose move is under way (SNC-9.0.10)
    # what the moving group may do next: "" move on or stop; after an overrun "again"
    # (SNC-9.6.7) or "repeat" (SNC-9.6.8); "owed": a group moving together under
    # stack_movement=units_only, which moves together only to overrun and may not stop before
    # it has (SNC-9.6.2; AMB-SNC-44)
    overrun_next: str = ""
    overrun_target: Hex | None = None  # the hex a "repeat" overrun may try again (SNC-9.6.8)
    overrun_hexes: frozenset[Hex] = frozenset()  # hexes overrun this phase (repeated_overruns)
    mp: int = 0  # its movement points left, in half-MP (SNC-9.0.1: 8 MP is 16)
    combat: Combat | None = None
    roll: int = 0  # the interdiction die, once rolled (SNC-11.2.1)
    elite: tuple[str, ...] = ()  # eliminated elite units waiting for their return die
    stack_hexes: tuple[Hex, ...] = ()  # hexes of the pending stacking check (SNC-6.0.2)
    culled: tuple[tuple[str, Hex], ...] = ()  # eliminated so far in this check, and from where
    on_top: tuple[str, ...] = ()  # units their owner put on top, latest first (AMB-SNC-40)
    # units the phasing player put on top in this phase: each at most once a phase, so play
    # cannot loop on Top (AMB-SNC-40); cleared by `sequence.settle` when the phase or player
    # changes
    topped: frozenset[str] = frozenset()
    after_stack: str = ""  # where play goes once the stacking check is over
    # the hexes covered by the stacking check the step leading here started, in hex order as
    # `stacking.hexes_to_check` gives them (SNC-6.0.2, SNC-6.0.3; AMB-SNC-8); () after a step
    # that starts none (set by `sequence.end_ops`, `sequence.after_combat` and
    # `sequence.end_reinforcements`; cleared by `SNC.apply` before each step)
    checked: tuple[Hex, ...] = ()
    result: Outcome | None = None

    def __hash__(self) -> int:
        """By value, as attrs hashes, but the position by `position_views.where_hash` (worked
        out from the position it was made from); kept once asked, never pickled."""
        d = self.__dict__
        kept: int | None = d.get(_KEPT)
        if kept is None:
            trt = self.trt
            last = _last_trt[0]  # read once: another thread may hash meanwhile
            if last[0] is not trt:  # the TRT changes a few times a turn: its hash is kept
                last = _last_trt[0] = (trt, hash(trt))
            kept = d[_KEPT] = _KeptHash(hash((where_hash(self.where), last[1], _others(d))))
        return kept

    @property
    def second(self) -> bool:
        return self.phase == Phase.OPS2

    def ops_kind(self) -> str:
        """'move' or 'fight' for the current Operations Phase (SNC-5.3.1, SNC-5.3.2)."""
        assert self.order is not None
        return self.order.ops(self.phase == Phase.OPS2)


_FIELDS = frozenset(a.name for a in attrs.fields(SNCState))
_others = operator.itemgetter(*sorted(_FIELDS - {"where", "trt"}))  # hashed as they are
_last_trt: list[tuple[tuple[tuple[str, int], ...], int]] = [((), hash(()))]
_KEPT = "_kept_hash"  # where a state keeps its hash once asked
_HASH = _KEPT  # what `evolve` drops


class _KeptHash(int):
    """A kept hash, which a pickle or a copy leaves behind (hashes of strings differ from one
    process to the next)."""

    def __reduce__(self) -> tuple[Any, tuple[()]]:
        return _nothing, ()


def _nothing() -> None:
    return None


_new = object.__new__
_set = object.__setattr__


def evolve(s: SNCState, **changes: Any) -> SNCState:
    """`attrs.evolve` for a state, the same state made faster (every step makes a few): the
    fields copied at once (a state keeps them in its `__dict__`; there are no validators or
    converters to run), the changed ones set, the kept hash dropped."""
    if not _FIELDS.issuperset(changes):
        raise TypeError(f"SNCState has no field {sorted(set(changes) - _FIELDS)}")
    values = s.__dict__.copy()
    values.update(changes)
    values[_HASH] = None
    new = _new(SNCState)
    _set(new, "__dict__", values)
    return new
