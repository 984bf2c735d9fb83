"""Each side's hexes worked out from the position a step started from (issue 34).

`tables.put` records the position it made, the one it made it from and the units it moved;
the hexes of each side of the new position are then worked out from those of the old one
(`tables._moved_sides`), only the hexes units left or entered looked at again, or read afresh
when a hex holds both sides. Here, right after every step of seeded playouts of both presets
(so that the worked-out reading is the one kept), and after a unit moved in a position whose
hexes mix both sides, they must be those of the position rebuilt; and a reading that forgets
the hexes left must be told apart by the same comparison.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from kernel.game import CHANCE
from kernel.hexes import Hex
from specs.snc1937.data.variants import CATALOGUE
from specs.snc1937.game import SNC
from specs.snc1937.rules import tables
from specs.snc1937.rules.actions import Action
from specs.snc1937.rules.state import CH, JP, SNCState, evolve

GAME = SNC()
T = GAME.tables
Where = tuple[tuple[str, Hex], ...]


def ref_side_hexes(where: Where, side: str) -> frozenset[Hex]:
    """SNC-2.1.2: the hexes whose first unit, in the position's order, is `side`'s."""
    first: dict[Hex, str] = {}
    for unit, h in where:
        first.setdefault(h, unit)
    return frozenset(h for h, u in first.items() if T.spec[u].side == side)


def _crowded(side: str) -> SNCState:
    """Every reinforcement on the map at its first listed or landing hex too: some hexes then
    hold both sides' units, which play never makes (SNC-9.0.12)."""
    s = GAME.initial_state(CATALOGUE.preset("standard"))
    where = dict(s.where)
    for line in GAME.data.setup.reinforcements:
        hexes = line.hexes or tuple(sorted(GAME.data.map.landings))
        where.update(dict.fromkeys(line.units, hexes[0]))
    return evolve(s, where=tuple(sorted(where.items())), trt=(), side=side)


CROWDED = [_crowded(CH), _crowded(JP)]


def _sides_after_each_step(steps: int) -> list[str]:
    """Each side's hexes of every position play makes, read right after the step that made
    it (so worked out from the position before, `tables._moved_sides`), against the rebuilt
    ones; the `_crowded` positions moved a unit too (hexes of both sides: the full reading)."""
    out = []
    for preset in sorted(CATALOGUE.presets):
        rng = random.Random(11)
        s = GAME.initial_state(CATALOGUE.preset(preset))
        for i in range(steps):
            side = GAME.to_move(s)
            if side is None:
                break
            if side == CHANCE:
                action: Action = rng.choice(GAME.chance_outcomes(s))[0]
            else:
                action = rng.choice(GAME.legal_actions(s))
            s = GAME.apply(s, action)
            for who in (CH, JP):
                if tables.side_hexes(s.where, T, who) != ref_side_hexes(s.where, who):
                    out.append(f"{preset} step {i}: hexes of {who}")
    for s in CROWDED:
        tables.side_hexes(s.where, T, CH)
        moved = tables.put(s, {s.where[0][0]: s.where[-1][1]})
        for who in (CH, JP):
            if tables.side_hexes(moved.where, T, who) != ref_side_hexes(moved.where, who):
                out.append(f"crowded: hexes of {who}")
    return out


def test_snc_2_1_2_sides_worked_out_from_the_last_position_match() -> None:
    """SNC-2.1.2, SNC-9.0.12: each side's hexes, worked out from the position a step started
    from, are those of the position rebuilt."""
    assert _sides_after_each_step(1500) == []


def test_a_sabotaged_moved_sides_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Sides worked out from the hexes entered alone (the hexes left forgotten) are caught."""
    real = tables._moved_sides

    def entered_only(where: Where, t: Any, old: Where, moves: Any, before: Any) -> Any:
        return real(where, t, old, {u: h for u, h in moves.items() if h is not None}, before)

    monkeypatch.setattr(tables, "_moved_sides", entered_only)
    assert _sides_after_each_step(600)
