"""What SNC's situations share (`formal.situations`): the distance's type, the steps of a
battle, and each option's other readings of a state's variant."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kernel.variants import Variant
from specs.snc1937.data.variants import CATALOGUE
from specs.snc1937.rules.state import Combat, Phase, SNCState, Step

Situation = Callable[[SNCState], int]
Grade = Callable[[Any, SNCState, Combat], int]
"""How far a battle under way is from the option's situation (0: the situation itself)."""

BEFORE_DIE = frozenset({Step.SUPPORT_A, Step.AIR_ASK, Step.AIR_ROLL, Step.SUPPORT_D, Step.ROLL})
"""The steps of a declared battle before its die: the attackers and defenders are fixed."""
UNDER_WAY = BEFORE_DIE | {Step.JOIN}
"""The steps of a battle being declared or resolved, before its die."""
OPS = frozenset({Phase.OPS1, Phase.OPS2})
FAR = 12
"""A battle's grade at most; a position with no battle under way is farther."""
FACES = range(1, 7)

_others: dict[tuple[Variant, str], tuple[Variant, ...]] = {}


def other_readings(v: Variant, option: str) -> tuple[Variant, ...]:
    """`v` with `option` read each other way (kept: a search asks it of every position)."""
    key = (v, v.reading(option))
    found = _others.get(key)
    if found is None:
        chosen = dict(v.choices)
        found = tuple(
            CATALOGUE.variant(v.preset, {**chosen, option: r.name})
            for r in CATALOGUE.option(option).readings
            if r.name != chosen[option] and not r.unplayed
        )
        _others[key] = found
    return found


def outside(s: SNCState) -> int:
    """A position with no battle under way: nearer in a Fight phase, where one may be
    declared."""
    fight = s.phase in OPS and s.step == Step.MAIN and s.ops_kind() == "fight"
    return FAR + (3 if fight else 4)


def before_die(s: SNCState) -> Combat | None:
    """The battle under way, declared and before its die (None: there is none)."""
    c = s.combat
    return c if c is not None and c.attackers and s.step in BEFORE_DIE else None
