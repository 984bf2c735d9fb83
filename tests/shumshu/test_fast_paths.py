"""Shumshu's fast paths against a plain reference (issue 34).

The front of a combat phase and the side holding each hex are kept for the last positions
asked, a regiment's battalions are looked up in the board, and the set-up placings are listed
lazily. Here each is held equal to a fresh computation (the uncached function, the data file's
own search, the plain list) on positions from seeded playouts of every preset, and a cache
broken on purpose is told apart by the same comparison.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from kernel.game import CHANCE
from kernel.hexes import Hex
from specs.shumshu.rules import declare, movement, units
from specs.shumshu.rules.actions import Action, Done, Move, Place
from specs.shumshu.rules.setup import setup_waiting
from specs.shumshu.rules.state import Loc, ShumshuState, Stage
from tests.shumshu.positions import CATALOGUE, RULES, B

STEPS = 1500  # steps of each seeded playout (a count, not a time)
SEEDS = (0, 1)


def _playout(preset: str, seed: int) -> Iterator[ShumshuState]:
    rng = random.Random(seed)
    s = RULES.initial_state(CATALOGUE.preset(preset))
    for _ in range(STEPS):
        side = RULES.to_move(s)
        if side is None:
            return
        yield s
        if side == CHANCE:
            outcomes = RULES.chance_outcomes(s)
            action = rng.choices([a for a, _ in outcomes], [float(p) for _, p in outcomes])[0]
        else:
            action = rng.choice(RULES.legal_actions(s))
        s = RULES.apply(s, action)


FRESH_FRONT = declare._front.__wrapped__  # the front computed afresh, the cache bypassed
FRESH_DESTINATIONS = movement._destinations.__wrapped__
POSITIONS = [s for p in sorted(CATALOGUE.presets) for seed in SEEDS for s in _playout(p, seed)]


def ref_hex_sides(s: ShumshuState) -> dict[Hex, str]:
    """SHU-STACK.1: the side of the pieces in each occupied hex."""
    return {p.hex: B.side_of[p.id] for p in s.units if p.loc is Loc.MAP and p.hex is not None}


def _front_fields(f: declare.Front) -> tuple[Any, ...]:
    return (f.side, f.attackers, f.barred, f.contacts, f.obliged, f.hexsides, f.limit)


def _front_differences(positions: list[ShumshuState]) -> int:
    """Positions where the kept front differs from one computed afresh (SHU-COMBAT.1 to
    SHU-COMBAT.4): asked twice, as the listing and the checks do."""
    bad = 0
    for s in positions:
        fresh = _front_fields(FRESH_FRONT(B, s))
        bad += _front_fields(declare.front(B, s)) != fresh
        bad += _front_fields(declare.front(B, s)) != fresh
    return bad


def test_enough_positions() -> None:
    stages = {s.stage for s in POSITIONS}
    assert len(POSITIONS) >= 200 and {Stage.SETUP, Stage.MOVE, Stage.DECLARE} <= stages


def test_shu_stack_1_hex_sides_match_a_fresh_pass() -> None:
    for s in POSITIONS:
        assert dict(units.hex_sides(B, s)) == ref_hex_sides(s)


def test_shu_combat_1_front_matches_a_fresh_computation() -> None:
    declaring = [s for s in POSITIONS if s.stage == Stage.DECLARE]
    assert declaring and _front_differences(declaring) == 0


def test_a_sabotaged_front_cache_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A cache that answers every position with the first one's front is told apart."""
    declaring = [s for s in POSITIONS if s.stage == Stage.DECLARE]
    first = declare._front(B, declaring[0])
    monkeypatch.setattr(declare, "_front", lambda b, s: first)
    assert _front_differences(declaring) > 0


def test_shu_rgt_1_battalions_match_the_data_file() -> None:
    for u in B.data.units:
        if u.is_regiment:
            assert B.battalions_of(u.id) == B.data.battalions_of(u.id)
            assert len(B.battalions_of(u.id)) == 3


def test_shu_setup_1_lazy_placings_match_the_plain_list() -> None:
    """SHU-SETUP.1: every waiting piece on every hex, in the plain list's order, and the same
    membership for placings off the list."""
    setups = [s for s in POSITIONS if s.stage == Stage.SETUP][::7]
    assert setups
    for s in setups:
        plain: list[Action] = [Place(u, h) for u in setup_waiting(B, s) for h in B.hexes]
        lazy = RULES.legal_actions(s)
        assert len(lazy) == len(plain) and list(lazy) == plain
        wanted = set(plain)
        placed = [p.id for p in s.units if p.id not in set(setup_waiting(B, s))][:3]
        for a in [*plain[::50], *(Place(u, B.hexes[0]) for u in placed)]:
            assert (a in lazy) == (a in wanted)


def _destination_differences(positions: list[ShumshuState]) -> int:
    """(position, unit) pairs where the kept destinations differ from a fresh search
    (SHU-MOVE.1 to SHU-MOVE.4), each asked twice as the listing and the move's check do."""
    bad = 0
    for s in positions:
        for p in s.units:
            if p.loc is Loc.MAP and B.side_of[p.id] == s.side:
                fresh = FRESH_DESTINATIONS(B, s, p.id)
                bad += movement.destinations(B, s, p.id) != fresh
                bad += movement.destinations(B, s, p.id) != fresh
    return bad


def test_shu_move_1_destinations_match_a_fresh_search() -> None:
    moving = [s for s in POSITIONS if s.stage == Stage.MOVE]
    assert moving and _destination_differences(moving) == 0


def test_a_sabotaged_destinations_cache_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A cache keyed on the unit alone (any position's answer reused) is told apart."""
    kept: dict[str, tuple[Hex, ...]] = {}

    def by_unit(b: Any, s: ShumshuState, unit: str) -> tuple[Hex, ...]:
        return kept.setdefault(unit, FRESH_DESTINATIONS(b, s, unit))

    monkeypatch.setattr(movement, "_destinations", by_unit)
    moving = [s for s in POSITIONS if s.stage == Stage.MOVE]
    assert _destination_differences(moving) > 0


def test_shu_move_1_lazy_moves_match_the_plain_list() -> None:
    """SHU-MOVE.1: every unit's moves then Done, in the plain list's order, and the same
    membership for moves to hexes the unit may not enter and for units of the other side."""
    moving = [s for s in POSITIONS if s.stage == Stage.MOVE][::3]
    assert moving
    for s in moving:
        mine = [p.id for p in s.units if p.loc is Loc.MAP and B.side_of[p.id] == s.side]
        plain: list[Action] = [
            *(Move(u, h) for u in mine for h in FRESH_DESTINATIONS(B, s, u)),
            Done(),
        ]
        lazy = RULES.legal_actions(s)
        assert len(lazy) == len(plain) and list(lazy) == plain
        wanted = set(plain)
        others = [p.id for p in s.units if p.loc is Loc.MAP and p.id not in mine][:2]
        near = [Move(u, h) for u in [*mine[:3], *others] for h in B.hexes[::40]]
        for a in [*plain, *near]:
            assert (a in lazy) == (a in wanted)
