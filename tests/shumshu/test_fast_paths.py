"""Shumshu's fast paths against a plain reference (issue 34).

The front of a combat phase, the side holding each hex and the enemy's hexes are kept for the
last positions asked, a unit's destinations are kept by its hex and the enemy's hexes, a
piece is looked up where it was last found, a regiment's battalions, the roads and the AT guns
are tables of the board, and the set-up placings are listed lazily. Here each is held equal to
a fresh computation (the uncached function, a plain search written from the rules text, the
data file's own search, the plain list) on positions from seeded playouts of every preset, and
a fast path broken on purpose is told apart by the same comparison.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import attrs
import pytest

from kernel.game import CHANCE
from kernel.hexes import Hex
from specs.shumshu.rules import declare, movement, units
from specs.shumshu.rules.actions import Action, Done, Move, Place
from specs.shumshu.rules.setup import setup_waiting
from specs.shumshu.rules.state import _SLOT, Loc, ShumshuState, Stage, other
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
FRESH_REACH = movement._reach.__wrapped__
POSITIONS = [s for p in sorted(CATALOGUE.presets) for seed in SEEDS for s in _playout(p, seed)]


def ref_hex_sides(s: ShumshuState) -> dict[Hex, str]:
    """SHU-STACK.1: the side of the pieces in each occupied hex."""
    return {p.hex: B.side_of[p.id] for p in s.units if p.loc is Loc.MAP and p.hex is not None}


def ref_destinations(s: ShumshuState, unit: str) -> tuple[Hex, ...]:
    """SHU-MOVE.1 to SHU-MOVE.3 read plainly: a unit that may move goes one hex into any hex
    without enemies, or along every road path of up to its allowance through such hexes (the
    first step off the road unless `road_path=whole_move`); all paths tried, nothing kept."""
    if movement.mover_problem(B, s, unit) is not None:
        return ()
    start = s.piece(unit).hex
    assert start is not None
    enemy = other(B.side_of[unit])
    sides = ref_hex_sides(s)
    limit = movement.allowance(B, s, unit)
    whole = s.variant.is_("road_path", "whole_move")
    out = {n for n in B.neighbors(start) if sides.get(n) != enemy}

    def walk(h: Hex, steps: int, path: frozenset[Hex]) -> None:
        for n in B.neighbors(h):
            if n in path or sides.get(n) == enemy:
                continue
            if B.road_between(h, n) or (steps == 0 and not whole):
                out.add(n)
                if steps + 1 < limit:
                    walk(n, steps + 1, path | {n})

    walk(start, 0, frozenset({start}))
    return tuple(sorted(out))


def ref_holder(s: ShumshuState, h: Hex) -> str | None:
    """SHU-STACK.1: the side of the first piece in `h`, by a search through the pieces."""
    return next((B.side_of[p.id] for p in s.units if p.loc is Loc.MAP and p.hex == h), None)


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


def test_shu_stack_1_holder_matches_a_search_through_the_pieces() -> None:
    for s in POSITIONS[::3]:
        for h in B.hexes:
            assert units.holder(B, s, h) == ref_holder(s, h)


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
    """(position, unit) pairs where the kept destinations differ from a plain search
    (SHU-MOVE.1 to SHU-MOVE.4), asked of one unit (a move's check) and of the whole side
    (the listing), each twice."""
    bad = 0
    for s in positions:
        table = movement.moves_of(B, s)
        for p in s.units:
            if p.loc is Loc.MAP and B.side_of[p.id] == s.side:
                fresh = ref_destinations(s, p.id)
                bad += movement.destinations(B, s, p.id) != fresh
                bad += movement.destinations(B, s, p.id) != fresh
                bad += table[p.id] != fresh
    return bad


def test_shu_move_1_destinations_match_a_plain_search() -> None:
    moving = [s for s in POSITIONS if s.stage == Stage.MOVE]
    assert moving and _destination_differences(moving) == 0


def test_shu_move_3_the_table_lists_every_unit_of_the_moving_side_and_no_other() -> None:
    for s in [s for s in POSITIONS if s.stage == Stage.MOVE]:
        mine = [p.id for p in s.units if p.loc is Loc.MAP and B.side_of[p.id] == s.side]
        assert list(movement.moves_of(B, s)) == mine


def test_a_sabotaged_destinations_cache_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A cache keyed on the unit's hex alone (the enemy's hexes and the allowance ignored) is
    told apart."""
    kept: dict[Hex, tuple[Hex, ...]] = {}

    def by_hex(b: Any, start: Hex, blocked: frozenset[Hex], limit: int, whole: bool) -> Any:
        return kept.setdefault(start, FRESH_REACH(b, start, blocked, limit, whole))

    monkeypatch.setattr(movement, "_reach", by_hex)
    moving = [s for s in POSITIONS if s.stage == Stage.MOVE]
    assert _destination_differences(moving) > 0


def test_a_sabotaged_enemy_hexes_cache_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Enemy hexes kept from the first position asked (SHU-MOVE.3) are told apart."""
    moving = [s for s in POSITIONS if s.stage == Stage.MOVE]
    first = movement._enemy_hexes(B, moving[0])
    monkeypatch.setattr(movement, "_enemy_hexes", lambda b, s: first)
    assert _destination_differences(moving) > 0


def test_shu_move_1_lazy_moves_match_the_plain_list() -> None:
    """SHU-MOVE.1: every unit's moves then Done, in the plain list's order, and the same
    membership for moves to hexes the unit may not enter and for units of the other side."""
    moving = [s for s in POSITIONS if s.stage == Stage.MOVE][::3]
    assert moving
    for s in moving:
        mine = [p.id for p in s.units if p.loc is Loc.MAP and B.side_of[p.id] == s.side]
        plain: list[Action] = [
            *(Move(u, h) for u in mine for h in ref_destinations(s, u)),
            Done(),
        ]
        lazy = RULES.legal_actions(s)
        assert len(lazy) == len(plain) and list(lazy) == plain
        wanted = set(plain)
        others = [p.id for p in s.units if p.loc is Loc.MAP and p.id not in mine][:2]
        near = [Move(u, h) for u in [*mine[:3], *others] for h in B.hexes[::40]]
        for a in [*plain, *near]:
            assert (a in lazy) == (a in wanted)


def test_board_tables_match_the_data_file() -> None:
    """The board's tables, built once: the road out of each hex (SHU-MOVE.2), the AT guns
    (SHU-TANK.2) and each unit's record."""
    for h in B.hexes:
        assert B.road_neighbors(h) == tuple(n for n in B.neighbors(h) if B.road_between(h, n))
    assert B.at_guns == tuple(u.id for u in B.data.units if u.type == "at_gun") != ()
    assert all(B.unit(u.id) is B.data.unit(u.id) for u in B.data.units)


def _pieces_differences(positions: list[ShumshuState]) -> int:
    """(position, unit) pairs where `piece` differs from a search through the pieces, asked of
    the positions and of the same positions with their pieces listed the other way round."""
    bad = 0
    for s in positions:
        for t in (s, attrs.evolve(s, units=s.units[::-1])):
            for p in s.units:
                bad += t.piece(p.id) != next(q for q in t.units if q.id == p.id)
    return bad


def test_piece_lookup_matches_a_search_through_the_pieces() -> None:
    assert _pieces_differences(POSITIONS[::5]) == 0


def test_a_sabotaged_piece_lookup_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A lookup that trusts the remembered place without reading the id there is told
    apart once the pieces are listed in another order."""

    def trusting(self: ShumshuState, unit_id: str) -> Any:
        i = _SLOT.get(unit_id)
        if i is None:
            i = _SLOT[unit_id] = [p.id for p in self.units].index(unit_id)
        return self.units[i]

    monkeypatch.setattr(ShumshuState, "piece", trusting)
    assert _pieces_differences(POSITIONS[::5]) > 0
