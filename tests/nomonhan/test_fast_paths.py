"""The fast move generation and transitions against a plain reference (issue 16, item 6).

Movement uses per-board step tables and bit masks, per-state caches of the enemy ZOC and of the
blocking units, and `apply` checks a Move from a per-state cache and builds the next state
without `attrs.evolve`. Here a straightforward statement of the same rules (a best-first search
over hexsides asked one by one, the ZOC from every enemy unit, states built by `attrs.evolve`)
must give the same legal actions, as lists, and the same next states, on positions from seeded
playouts of both presets and of readings that change what movement allows.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Iterator
from typing import Any

import attrs
import pytest

from kernel.errors import IllegalAction
from kernel.game import CHANCE
from kernel.hexes import Hex
from kernel.playout import play
from kernel.variants import Variant
from specs.nomonhan.data.loader import UnitSpec
from specs.nomonhan.rules.actions import Action, Demolish, EndPhase, Enter, Move
from specs.nomonhan.rules.board import FIXED, OPEN, PONTOON, RIVER, occupancy
from specs.nomonhan.rules.movement import demolish_problem, entry_options
from specs.nomonhan.rules.reach import destinations, unit_destinations
from specs.nomonhan.rules.state import NomonhanState, Stage, UnitState, replace
from tests.nomonhan.positions import GAME

BOARD = GAME.rules.board
DATA = GAME.rules.data

READINGS: list[tuple[str, dict[str, str]]] = [
    ("ja", {}),
    ("en", {}),
    ("ja", {"pass_through": "friendly", "demolition": "optional_ja"}),
    ("en", {"pontoon_users": "not_tanks", "demolition_effect": "crossing_only"}),
    ("en", {"pontoon_is_bridge": "no", "reinforcement_movement": "enter_only"}),
    ("ja", {"reinforcement_timing": "any_phase", "flag_friendly": "must_clear"}),
]


# --- the reference: the movement rules written plainly ---------------------------------------


def ref_zoc_reaches(state: NomonhanState, a: Hex, b: Hex) -> bool:
    """ZOC reaches from `a` into adjacent `b` (NOM-7.4, AMB-NOM-16, AMB-NOM-17)."""
    kind = BOARD.hexside_kind(a, b, state.demolished)
    if kind in (OPEN, FIXED):
        return True
    if kind == RIVER:
        return False
    bridge = state.variant.is_("pontoon_is_bridge", "yes")
    if kind == PONTOON:
        return bridge
    return bridge and state.variant.is_("demolition_effect", "crossing_only")


def ref_enemy_zoc(state: NomonhanState, side: str, occ: dict[Hex, UnitState]) -> set[Hex]:
    """Every hex next to a unit of the other side that its ZOC reaches (NOM-7.1)."""
    out: set[Hex] = set()
    for h, u in occ.items():
        if DATA.unit(u.id).side != side:
            out.update(n for n in BOARD.neighbors(h) if ref_zoc_reaches(state, h, n))
    return out


def ref_can_cross(state: NomonhanState, spec: UnitSpec, a: Hex, b: Hex) -> bool:
    """NOM-8.4 no river without a bridge, NOM-8.5 the pontoon by reading, NOM-OPT.5 blown."""
    kind = BOARD.hexside_kind(a, b, state.demolished)
    if kind in (OPEN, FIXED):
        return True
    if kind == PONTOON:
        if state.variant.is_("pontoon_users", "not_tanks"):
            return not spec.is_tank
        return spec.type in ("infantry", "cavalry")
    return False


def ref_destinations(
    state: NomonhanState, spec: UnitSpec, start: Hex, mp: int, occ: dict[Hex, UnitState]
) -> set[Hex]:
    """Best-first search on MP left, every hexside asked (NOM-7.2, NOM-8.1 to NOM-8.7)."""
    ezoc = ref_enemy_zoc(state, spec.side, occ)
    friendly_ok = state.variant.is_("pass_through", "friendly")
    best = {start: mp}
    heap = [(-mp, start)]
    while heap:
        neg, here = heapq.heappop(heap)
        left = -neg
        if best[here] > left or (here != start and here in ezoc):
            continue
        for n in BOARD.neighbors(here):
            cost = BOARD.cost[n]
            if cost > left or not ref_can_cross(state, spec, here, n):
                continue
            holder = occ.get(n)
            if (
                holder is not None
                and holder.id != spec.id
                and not (friendly_ok and DATA.unit(holder.id).side == spec.side)
            ):
                continue
            if best.get(n, -1) < left - cost:
                best[n] = left - cost
                heapq.heappush(heap, (-(left - cost), n))
    return {h for h in best if h != start and (h not in occ or occ[h].id == spec.id)}


def ref_in_ezoc(state: NomonhanState, side: str, h: Hex) -> bool:
    return h in ref_enemy_zoc(state, side, occupancy(state))


def ref_due(state: NomonhanState) -> list[UnitSpec]:
    out = []
    for spec in DATA.units:
        u = state.unit(spec.id)
        if (
            spec.side == state.phasing
            and spec.gt is not None
            and spec.gt <= state.turn
            and u.hex is None
            and u.steps > 0
            and spec.id not in state.withdrawn
            and spec.id not in state.moved
        ):
            out.append(spec)
    return out


def ref_entries(state: NomonhanState, spec: UnitSpec) -> list[tuple[Hex, Hex]]:
    occ = occupancy(state)
    out = []
    for flag in BOARD.map.flags[spec.side]:
        if flag in occ:
            continue
        out.append((flag, flag))
        if state.variant.is_("reinforcement_movement", "enter_only"):
            continue
        if ref_in_ezoc(state, spec.side, flag):
            continue
        left = spec.ma - BOARD.map.cost(flag)
        placed = {**occ, flag: UnitState(spec.id, flag, state.unit(spec.id).steps)}
        out.extend((flag, d) for d in sorted(ref_destinations(state, spec, flag, left, placed)))
    return out


def ref_moves(state: NomonhanState, spec: UnitSpec) -> list[Hex]:
    """Where `spec` may move now, or nothing (NOM-8.1; NOM-7.3 not from an EZOC)."""
    u = state.unit(spec.id)
    if (
        spec.side != state.phasing
        or u.hex is None
        or spec.id in state.moved
        or ref_in_ezoc(state, spec.side, u.hex)
    ):
        return []
    return sorted(ref_destinations(state, spec, u.hex, spec.ma, occupancy(state)))


def ref_may_end(state: NomonhanState) -> bool:
    """`end_phase_problem(...) is None`, written from the rules (NOM-8.8, NOM-8.9)."""
    v = state.variant
    if v.is_("reinforcement_timing", "any_phase"):
        return True
    due = ref_due(state)
    if any(ref_entries(state, s) for s in due):
        return False
    if v.is_("flag_friendly", "must_clear"):
        occ = occupancy(state)
        for spec in due:
            for flag in BOARD.map.flags[spec.side]:
                holder = occ.get(flag)
                if (
                    holder is not None
                    and DATA.unit(holder.id).side == spec.side
                    and ref_moves(state, DATA.unit(holder.id))
                ):
                    return False
    return True


def ref_legal(state: NomonhanState) -> list[Action]:
    out: list[Action] = []
    if demolish_problem(BOARD, state) is None:
        out.append(Demolish())
    for spec in DATA.units:
        out.extend(Move(spec.id, to) for to in ref_moves(state, spec))
    for spec in ref_due(state):
        out.extend(Enter(spec.id, at, to) for at, to in ref_entries(state, spec))
    if ref_may_end(state):
        out.append(EndPhase())
    return out


def ref_move(state: NomonhanState, unit_id: str, to: Hex) -> NomonhanState:
    units = tuple(UnitState(u.id, to, u.steps) if u.id == unit_id else u for u in state.units)
    return attrs.evolve(state, units=units, moved=state.moved | {unit_id})


# --- positions ------------------------------------------------------------------------------


def positions(per_reading: int) -> Iterator[NomonhanState]:
    """States of the Movement Phase met in seeded random playouts, `per_reading` per reading
    (at most), each a fresh object so that no cache has seen it."""
    for seed, (preset, options) in enumerate(READINGS):
        v: Variant = GAME.catalogue.variant(preset, options)
        found: list[NomonhanState] = []
        game_seed = 0
        while len(found) < per_reading and game_seed < 40:
            rng = random.Random(1000 * seed + game_seed)
            game_seed += 1
            log = play(GAME, GAME.initial_state(v), rng, max_steps=400)
            state = GAME.initial_state(v)
            for action in log.actions:
                if state.stage == Stage.MOVE and rng.random() < 0.5:
                    found.append(state)
                state = GAME.apply(state, action)
        yield from (GAME.state_from_json(GAME.state_to_json(s)) for s in found[:per_reading])


POSITIONS = list(positions(100))


def test_enough_positions() -> None:
    assert len(POSITIONS) >= 500
    assert {s.variant.preset for s in POSITIONS} >= {"ja", "en"}


@pytest.mark.parametrize("k", range(4))
def test_legal_actions_and_destinations_match_the_reference(k: int) -> None:
    for state in POSITIONS[k::4]:
        assert list(GAME.legal_actions(state)) == ref_legal(state), GAME.state_to_json(state)
        occ = occupancy(state)
        for spec in DATA.units:
            u = state.unit(spec.id)
            if u.hex is not None:
                want = ref_destinations(state, spec, u.hex, spec.ma, occ)
                assert destinations(BOARD, state, spec, u.hex, spec.ma, occ) == want
                assert unit_destinations(BOARD, state, spec.id) == frozenset(want)
        for spec in ref_due(state):
            assert entry_options(BOARD, state, spec) == ref_entries(state, spec)


@pytest.mark.parametrize("k", range(4))
def test_apply_matches_the_reference(k: int) -> None:
    rng = random.Random(k)
    for state in POSITIONS[k::4]:
        legal = list(GAME.legal_actions(state))
        for action in legal:
            nxt = GAME.apply(state, action)
            if isinstance(action, Move | Enter):
                want = ref_move(state, action.unit, action.to)
                assert nxt == want and hash(nxt) == hash(attrs.evolve(want))
            assert GAME.state_to_json(nxt) == GAME.state_to_json(attrs.evolve(nxt))
        # Moves not offered are refused with the clauses `move_problem` gives, fast path or not
        hexes = sorted(BOARD.map.hexes)
        for spec in DATA.units:
            to = rng.choice(hexes)
            if Move(spec.id, to) in legal:
                continue
            with pytest.raises(IllegalAction):
                GAME.apply(state, Move(spec.id, to))


def test_replace_is_attrs_evolve() -> None:
    """`replace` builds what `attrs.evolve` builds, with its own hash (not the old one's)."""
    rng = random.Random(7)
    for state in POSITIONS[:100]:
        hash(state)  # the old state's hash cached: the new one must not inherit it
        changes: dict[str, Any] = rng.choice(
            [
                {"moved": frozenset()},
                {"stage": Stage.DECLARE, "turn": state.turn + 1},
                {"demolished": not state.demolished},
                {"units": state.units[::-1]},
            ]
        )
        new = replace(state, **changes)
        want = attrs.evolve(state, **changes)
        assert new == want and hash(new) == hash(want)
        assert vars(new).keys() == vars(want).keys()
    with pytest.raises(TypeError):
        replace(POSITIONS[0], no_such_field=1)


def test_chance_and_other_stages_unchanged_by_the_move_fast_path() -> None:
    """A Move outside the Movement Phase goes to the general path and is refused there."""
    for state in POSITIONS[:50]:
        nxt = GAME.apply(state, EndPhase()) if EndPhase() in GAME.legal_actions(state) else None
        if nxt is None or GAME.to_move(nxt) in (None, CHANCE) or nxt.stage == Stage.MOVE:
            continue
        unit = next(u for u in nxt.units if u.hex is not None)
        assert unit.hex is not None
        for n in BOARD.neighbors(unit.hex):
            with pytest.raises(IllegalAction):
                GAME.apply(nxt, Move(unit.id, n))
