"""Nomonhan's immutable state.

A turn is a repeated cycle of four phases (NOM-5.1, NOM-5.2) that only an initiative change
ends (NOM-6.2). The state keeps no cycle counter: nothing in the rules depends on it, and its
absence lets a repeated position be recognised as a cycle of play (see kernel.playout).
Points are not stored: they follow from the units' lost steps (NOM-4.5, NOM-4.6).
"""

from __future__ import annotations

import enum
from typing import Any

import attrs

from kernel.game import Outcome
from kernel.hexes import Hex
from kernel.variants import Variant


class Phase(enum.IntEnum):
    """The four phases of a cycle, in order (NOM-5.1)."""

    IP_MOVEMENT = 1
    IP_COMBAT = 2
    NIP_MOVEMENT = 3
    NIP_COMBAT = 4

    @property
    def is_movement(self) -> bool:
        return self in (Phase.IP_MOVEMENT, Phase.NIP_MOVEMENT)

    @property
    def initiative_acts(self) -> bool:
        return self in (Phase.IP_MOVEMENT, Phase.IP_COMBAT)


class Stage(enum.Enum):
    """Where inside a phase the game stands: who decides next, and what."""

    MOVE = "move"  # moving units one at a time, then end_phase (NOM-8.1)
    DECLARE = "declare"  # the attacker declares every combat of the phase (NOM-9.8)
    PICK = "pick"  # the attacker picks the next combat to resolve (AMB-NOM-11)
    ROLL = "roll"  # chance: both sides' dice (NOM-9.9)
    DAMAGE = "damage"  # one damage point at a time (NOM-9.24)
    ADVANCE = "advance"  # advance after combat, one hex per point (NOM-9.30)
    END_ROLL = "end_roll"  # chance: the end-of-turn die (NOM-5.4)
    OVER = "over"


@attrs.frozen
class UnitState:
    id: str
    hex: Hex | None  # None: not yet arrived, eliminated, or lost (withdrawn)
    steps: int  # 0 once eliminated


@attrs.frozen
class Combat:
    """One declared combat: attackers, defenders, and whether the Artillery supports it."""

    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    support: bool = False


@attrs.frozen
class Resolution:
    """The combat being resolved."""

    combat: Combat
    loser: str | None = None  # side taking the damage, once rolled
    damage_left: int = 0
    damage_done: int = 0
    advance_left: int = 0
    start_hexes: tuple[tuple[str, Hex], ...] = ()  # every participant's hex when it began
    retreated: frozenset[str] = frozenset()


@attrs.frozen(cache_hash=True, slots=False)  # a dict class: `replace` copies it fast
class NomonhanState:
    variant: Variant
    turn: int
    initiative: str
    phase: Phase
    stage: Stage
    units: tuple[UnitState, ...]  # in data order
    moved: frozenset[str] = frozenset()  # units that moved this Movement Phase
    demolished: bool = False  # pontoon bridge blown (NOM-OPT.5)
    artillery_used: bool = False  # flipped after support (NOM-9.19)
    nip_moved_this_turn: bool = False  # the NIP had a Movement Phase this turn (AMB-NOM-18)
    withdrawn: frozenset[str] = frozenset()  # reinforcements lost (AMB-NOM-18 reading "lost")
    pending: tuple[Combat, ...] = ()  # declared, not yet resolved (NOM-9.8)
    current: Resolution | None = None
    turn_ending: bool = False  # an initiative change happened in this combat (NOM-6.2)
    end_rolled: bool = False  # the end-of-turn roll was made at the change (AMB-NOM-5)
    result: Outcome | None = None

    def unit(self, unit_id: str) -> UnitState:
        for u in self.units:
            if u.id == unit_id:
                return u
        raise KeyError(unit_id)

    @property
    def phasing(self) -> str:
        """The side whose phase it is (the mover, or the attacker) (NOM-9.1)."""
        return self.initiative if self.phase.initiative_acts else other(self.initiative)


def other(side: str) -> str:
    return "SU" if side == "JP" else "JP"


_FIELDS = frozenset(f.name for f in attrs.fields(NomonhanState))


def _copy_parts() -> dict[str, None]:
    """The attributes besides the fields that `__init__` sets on a new state (attrs' hash
    cache), with the value it sets them to: a copy resets them so, and must not keep the old
    state's cached hash."""
    fresh = NomonhanState(Variant("nomonhan", None, ()), 1, "JP", Phase.IP_MOVEMENT, Stage.MOVE, ())
    extra = {k: v for k, v in vars(fresh).items() if k not in _FIELDS}
    assert set(vars(fresh)) == _FIELDS | set(extra) and all(v is None for v in extra.values())
    return dict.fromkeys(extra)


_RESET = _copy_parts()
_HASH_ONLY = len(_RESET) == 1  # attrs' hash cache is the only other attribute
_HASH_KEY = next(iter(_RESET), "")
_new = object.__new__


def replace(state: NomonhanState, **changes: Any) -> NomonhanState:
    """`attrs.evolve(state, **changes)`, several times faster: the new state's attributes are
    the old one's (all set by `__init__`, which has no validator or converter), `changes` and
    an empty hash cache. The state stays frozen: nothing is changed after it is built."""
    unknown = changes.keys() - _FIELDS
    if unknown:
        raise TypeError(f"NomonhanState has no field {sorted(unknown)[0]!r}")
    new = _new(NomonhanState)
    d = new.__dict__
    d.update(state.__dict__)
    d.update(changes)
    d.update(_RESET)
    return new


def moved_state(
    state: NomonhanState, units: tuple[UnitState, ...], moved: frozenset[str]
) -> NomonhanState:
    """`replace(state, units=units, moved=moved)` (a unit's move), without the keywords."""
    new = _new(NomonhanState)
    d = new.__dict__
    d.update(state.__dict__)
    d["units"] = units
    d["moved"] = moved
    if _HASH_ONLY:
        d[_HASH_KEY] = None
    else:
        d.update(_RESET)
    return new
