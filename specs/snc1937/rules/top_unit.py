"""The top unit of a stack (SNC-6.3.1, SNC-6.4.1; AMB-SNC-40): the only unit of an enemy stack a
player sees until combat reveals the rest, chosen by the stack's owner.

The owner puts a unit on top with `Top` between his moves, attacks and placements; each unit at
most once a phase (`SNCState.topped`), since the order of a stack is otherwise insignificant
(SNC-6.4.1) and without the limit play could go on for ever.
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from specs.snc1937.rules.actions import Top
from specs.snc1937.rules.state import Phase, SNCState, Step
from specs.snc1937.rules.tables import Tables, stacks


def top_first(t: Tables, s: SNCState, units: Iterable[str]) -> tuple[str, ...]:
    """A stack top unit first (SNC-6.3.1): the one its owner last put on top (AMB-SNC-40: the
    owner chooses), else the first in the data's order; the rest beneath in the data's
    order (their order is insignificant, SNC-6.4.1)."""
    ordered = sorted(units, key=t.order.__getitem__)  # SNC-6.4.1: any order will do, data's
    top = next((u for u in s.on_top if u in ordered), None)
    if top is None:
        return tuple(ordered)
    return (top, *(u for u in ordered if u != top))


def tops(t: Tables, s: SNCState) -> list[Top]:
    """The units the phasing player may put on top of his stacks, between his moves,
    attacks and placements (SNC-6.3.1; AMB-SNC-40: the owner chooses the top unit). Each
    unit goes on top at most once a phase (`topped`): the order of a stack is otherwise
    insignificant (SNC-6.4.1), and without the limit play could go on for ever."""
    if s.moving or s.step != Step.MAIN or s.phase not in (Phase.OPS1, Phase.OPS2, Phase.REINF):
        return []
    out: list[Top] = []
    for _, units in sorted(stacks(s.where).items()):
        if len(units) > 1 and t.spec[units[0]].side == s.side:
            below = top_first(t, s, units)[1:]
            out.extend(Top(u) for u in below if u not in s.topped)
    return out


def put_on_top(s: SNCState, unit: str) -> SNCState:
    """`unit` goes on top of its stack, once this phase (AMB-SNC-40)."""
    on_top = (unit, *(u for u in s.on_top if u != unit))
    return attrs.evolve(s, on_top=on_top, topped=s.topped | {unit})
