"""SNC's observation shows the movement points left to the group whose move is under way (issue
31, item 5). That reveals nothing of the units under a stack's top: every move starts with MF 8
(SNC-9.0.1; static units never move, SNC-9.0.2, SNC-9.1.1) and a hex costs by nationality,
terrain, hexside and route alone (SNC-9.0.4, SNC-9.3.2, SNC-9.4.1 to SNC-9.4.5, SNC-9.5.0.x,
SNC-9.5.1.x), never by unit type or strength. So the MP left follow from the hexes the group was
seen to enter, whichever units it holds: these tests move units of every mobile type of a side
along the same hexes and compare what the enemy is shown."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from kernel.hexes import Hex, parse_hex
from specs.snc1937.rules.actions import Declare, Move
from specs.snc1937.rules.state import CH, JP, Order, Phase, SNCState, Step
from tests.hidden.twins import SNC

JP_TYPES = ("JP-SNLF1", "JP-3D-1", "JP-101D-2")
"""A naval infantry unit and two infantry units, one of them reduced below."""
CH_TYPES = ("CH-87D", "CH-98D", "CH-11D")
"""One- and two-step Chinese infantry, one of them reduced below."""


def _alone(s: SNCState, unit: str, at: str, reduced: bool) -> SNCState:
    """`s` with `unit` alone in hex `at` (whatever stood there taken off), reduced or not."""
    h = parse_hex(at)
    where = {u: x for u, x in s.where if x != h and u != unit}
    where[unit] = h
    trt = tuple(p for p in s.trt if p[0] != unit)
    red = s.reduced | {unit} if reduced else s.reduced - {unit}
    return attrs.evolve(s, where=tuple(sorted(where.items())), trt=trt, reduced=red)


def _mover(side: str) -> SNCState:
    s: SNCState = SNC.initial_state(SNC.presets()["standard"])
    if side == CH:
        declared: SNCState = SNC.apply(s, Declare(Order.MOVE_FIGHT))
        return declared
    return attrs.evolve(
        s, turn=2, side=JP, phase=Phase.OPS1, order=Order.MOVE_FIGHT, step=Step.MAIN
    )


def _seen_mp(s: SNCState, unit: str, path: tuple[Hex, ...], enemy: str) -> list[Any]:
    """The MP the enemy is shown after each hex of `unit`'s move along `path`."""
    out = []
    for to in path:
        s = SNC.apply(s, Move((unit,), to))
        seen = SNC.observe(s, enemy)
        out.append(seen["mp"] if seen["moving"] or s.moving else 0)
    return out


def _paths(s: SNCState, unit: str, depth: int) -> list[tuple[Hex, ...]]:
    """Every path of `depth` hexes the unit may take from where it stands."""
    paths: list[tuple[Hex, ...]] = [()]
    for _ in range(depth):
        longer = []
        for p in paths:
            t = s
            for to in p:
                t = SNC.apply(t, Move((unit,), to))
            if p and not t.moving:
                continue
            for a in SNC.legal_actions(t):
                if isinstance(a, Move) and a.units == (unit,):
                    longer.append((*p, a.to))
        paths = longer
    return paths


@pytest.mark.parametrize(
    ("side", "units", "at"),
    [
        (JP, JP_TYPES, "0214"),
        (JP, JP_TYPES, "0114"),
        (JP, JP_TYPES, "3512"),
        (CH, CH_TYPES, "3311"),
    ],
)
def test_snc_9_0_1_the_mp_shown_are_the_same_for_every_unit_type(
    side: str, units: tuple[str, ...], at: str
) -> None:
    """SNC-9.0.1, SNC-9.0.4, SNC-9.4.x, SNC-9.5.x: from the same hex along every path of two
    hexes, units of every mobile type (full or reduced) leave the same MP, as the enemy sees
    them: a unit hidden under a top is not told apart by the MP of its move."""
    enemy = CH if side == JP else JP
    base = _mover(side)
    shown: dict[tuple[Hex, ...], set[tuple[Any, ...]]] = {}
    walked = []
    for k, unit in enumerate(units):
        s = _alone(base, unit, at, reduced=k == len(units) - 1)
        paths = _paths(s, unit, 2)
        walked.append(set(paths))
        for p in paths:
            shown.setdefault(p, set()).add(tuple(_seen_mp(s, unit, p, enemy)))
    assert walked[0] and all(w == walked[0] for w in walked)  # the same paths for every type
    assert all(len(v) == 1 for v in shown.values()), shown
    if at != "3512":  # SNC-9.4.3, SNC-9.5.1.1: here costs vary with the terrain and roads
        assert len({seq for v in shown.values() for seq in v}) > 1
