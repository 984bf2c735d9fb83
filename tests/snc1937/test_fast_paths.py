"""The SNC's fast paths against a plain reference (issue 34).

The Reinforcement Phase lists its arrivals lazily (`kernel.choices`), from per-position caches
of the listed and railroad hexes, and answers membership from a unit's hexes; `tables.put`
reuses the pairs of the units that stay; the replacements' LoC search is cached by position.
Here the same rules stated plainly (every `Place` built, the hexes asked of `loc.py` each time,
the position rebuilt from a dict) must give the same lists, the same membership and the same
states, on positions from seeded playouts of both sides' Reinforcement Phases; and a fast path
broken on purpose must be told apart by the same comparison.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import attrs
import pytest

from kernel.game import CHANCE
from kernel.hexes import Hex
from specs.snc1937.data.variants import CATALOGUE
from specs.snc1937.game import SNC
from specs.snc1937.rules import loc, rail_places, reinforcement_steps, tables
from specs.snc1937.rules.actions import Action, Delay, Done, Land, Place, Replace
from specs.snc1937.rules.movement_steps import MoveList, move_actions, move_starts
from specs.snc1937.rules.state import CH, JP, Phase, SNCState, Step
from specs.snc1937.rules.top_unit import tops

GAME = SNC()
T = GAME.tables
STEPS = 6000  # steps of each seeded playout searched for positions (a count, not a time)
SEEDS = (0, 1)
KEEP = 80  # positions kept, evenly spaced over those found, so that both sides and turns stay


# --- the reference: the Reinforcement Phase's listing written plainly ---------------------------


def ref_chinese_places(s: SNCState, unit: str) -> list[tuple[Hex, bool]]:
    """SNC-8.1.4 (elite return), SNC-8.2.1, SNC-8.2.2 (listed hexes), SNC-8.2.4 (railroad)."""
    st = tables.stacks(s.where)
    if unit in s.reduced:
        return [(h, False) for h in reinforcement_steps.elite_places(T, s)]
    listed = T.record[unit].hexes
    ok = loc.reinforcement_hexes(T.board, T.data, st, listed)
    out = [(h, False) for h in listed if h in ok]
    rail = loc.rail_reinforcement_hexes(T.board, T.data, s.variant, st, s.turn)
    out.extend((h, True) for h in sorted(rail))
    return out


def ref_reinforcement_actions(s: SNCState) -> list[Action]:
    """Every action of the phase built, in the listing's order (SNC-8.0.2, SNC-8.2.x,
    SNC-8.3.x, SNC-8.4.x, SNC-5.4.1)."""
    out: list[Action] = []
    delayable = s.variant.is_("reinforcement_delay", "delayable")
    if s.side == CH:
        if s.moving:
            return list(move_actions(T, s, False, s.movable))
        for unit in reinforcement_steps.due(s, CH, T):
            places = ref_chinese_places(s, unit)
            out.extend(Place(unit, h, rail) for h, rail in places)
            if delayable or not places:
                out.append(Delay(unit))
        if s.movable:
            out.extend(MoveList(move_starts(T, s, False, s.movable), ()))
    else:
        if s.variant.is_("replacement_timing", "any_time"):
            out.extend(Replace(u) for u in ref_replace_choices(s))
        for group in reinforcement_steps.landing_groups(T, s):
            if reinforcement_steps.snlf_placed(T, s, group):
                landings: list[Action] = [
                    Place(group[0], h) for h in reinforcement_steps.snlf_hexes(T, s, group[0])
                ]
            elif reinforcement_steps.waits_whole(T, s, group):
                landings = []
            else:
                landings = [Land(group, h) for h in reinforcement_steps.landing_hexes(T, s, group)]
            out.extend(landings)
            if delayable or not landings:
                out.extend(Delay(u) for u in group)
    out.extend(tops(T, s))
    if not reinforcement_steps.due(s, s.side, T):
        out.append(Done())
    return out


def ref_replace_choices(s: SNCState) -> list[str]:
    """SNC-8.3.1 to SNC-8.3.5: reduced Japanese units with a LoC, searched every time."""
    if s.replacements <= 0:
        return []
    regiments = s.variant.is_("replacement_targets", "regiments_only")
    candidates = [
        u
        for u in sorted(s.reduced)
        if T.spec[u].side == JP and not (regiments and T.spec[u].size != "III")
    ]
    if not candidates:
        return []
    st = tables.stacks(s.where)
    ok = loc.japanese_loc_units(T.board, T.data, s.variant, st, candidates)
    return [u for u in candidates if u in ok]


def ref_put(s: SNCState, moves: dict[str, Hex | None]) -> SNCState:
    """The position rebuilt from a dict of every unit's hex."""
    where = {u: h for u, h in s.where if u not in moves}
    where.update({u: h for u, h in moves.items() if h is not None})
    changes: dict[str, Any] = {}
    gone = {u for u, h in moves.items() if h is None}
    if gone & set(s.on_top):
        changes["on_top"] = tuple(u for u in s.on_top if u not in gone)
        changes["topped"] = s.topped - gone
    return attrs.evolve(s, where=tuple(sorted(where.items())), **changes)


# --- positions ------------------------------------------------------------------------------------


def _playout(preset: str, seed: int) -> Iterator[SNCState]:
    rng = random.Random(seed)
    s = GAME.initial_state(CATALOGUE.preset(preset))
    for _ in range(STEPS):
        side = GAME.to_move(s)
        if side is None:
            return
        yield s
        if side == CHANCE:
            outcomes = GAME.chance_outcomes(s)
            action = rng.choices([a for a, _ in outcomes], [float(p) for _, p in outcomes])[0]
        else:
            action = rng.choice(GAME.legal_actions(s))
        s = GAME.apply(s, action)


def _reinforcement_positions() -> list[SNCState]:
    out: list[SNCState] = []
    for preset in sorted(CATALOGUE.presets):
        for seed in SEEDS:
            out.extend(
                s
                for s in _playout(preset, seed)
                if s.phase == Phase.REINF and s.step == Step.MAIN and GAME.to_move(s) == s.side
            )
    return out[:: max(1, len(out) // KEEP)]


POSITIONS = _reinforcement_positions()


def _near_misses(s: SNCState, listed: Sequence[Action]) -> list[Action]:
    """Actions close to legal ones: each due unit at hexes other units may use, by the other
    method, and units not due."""
    units = {a.unit for a in listed if isinstance(a, Place)} | {"no-such-unit"}
    hexes = sorted({a.hex for a in listed if isinstance(a, Place)})[:8]
    return [Place(u, h, rail) for u in sorted(units) for h in hexes for rail in (False, True)]


def _differences(
    listing: Callable[[SNCState], Sequence[Action]], positions: list[SNCState]
) -> list[str]:
    """Where `listing` differs from the reference: the list, or membership of a near miss."""
    out = []
    for i, s in enumerate(positions):
        want = ref_reinforcement_actions(s)
        got = listing(s)
        if list(got) != want or len(got) != len(want):
            out.append(f"position {i}: listing differs")
            continue
        wanted = set(want)
        for a in [*want, *_near_misses(s, want)]:
            if (a in got) != (a in wanted):
                out.append(f"position {i}: membership of {a} differs")
    return out


def _fast(s: SNCState) -> Sequence[Action]:
    return reinforcement_steps.reinforcement_actions(T, s)


def test_enough_positions() -> None:
    sides = {s.side for s in POSITIONS}
    assert len(POSITIONS) >= 20 and sides == {CH, JP}


def test_snc_8_2_reinforcement_listing_matches_the_reference() -> None:
    """SNC-8.0.2, SNC-8.2.1, SNC-8.2.2, SNC-8.2.4, SNC-8.4.0.1: the lazy listing and its
    membership are the plain listing's."""
    assert _differences(_fast, POSITIONS) == []


def test_snc_8_2_apply_accepts_and_refuses_as_the_listing() -> None:
    """SNC-8.2.2: `apply` takes exactly the listed arrivals, checked without listing them."""
    for s in POSITIONS[:: max(1, len(POSITIONS) // 15)]:
        want = ref_reinforcement_actions(s)
        wanted = set(want)
        for a in _near_misses(s, want)[:12]:
            try:
                GAME.apply(s, a)
                took = True
            except Exception:
                took = False
            assert took == (a in wanted), a


def test_a_sabotaged_rail_cache_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A railroad cache that drops one hex (SNC-8.2.4) is told apart by the comparison."""
    real = rail_places.rail_places

    def short(*args: Any) -> tuple[tuple[Hex, bool], ...]:
        return real(*args)[1:]

    monkeypatch.setattr(rail_places, "rail_places", short)
    rail = [s for s in POSITIONS if s.side == CH and real(T, s.where, s.variant, s.turn)]
    assert rail and _differences(_fast, rail)


def test_a_sabotaged_membership_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A membership test that reads an action back wrongly (the rail flag lost) is caught."""

    def wrong(unit: str, action: object) -> tuple[Hex, bool] | None:
        if isinstance(action, Place) and action.unit == unit:
            return (action.hex, False)
        return None

    monkeypatch.setattr(reinforcement_steps, "_back", wrong)
    rail = [s for s in POSITIONS if s.side == CH and s.turn >= 3]
    assert rail and _differences(_fast, rail)


def test_snc_8_3_replacement_choices_match_the_uncached_search() -> None:
    """SNC-8.3.5: the cached LoC search names the same units as a fresh one."""
    for s in POSITIONS:
        for n in (1, 2):
            r = attrs.evolve(s, replacements=n)
            assert reinforcement_steps.replace_choices(T, r) == ref_replace_choices(r)


def test_put_matches_the_plain_rebuild() -> None:
    """SNC-2.1.2: one hex per unit; moving, placing and removing units as a dict would."""
    rng = random.Random(7)
    for s in POSITIONS:
        units = [u for u, _ in s.where]
        hexes = [h for _, h in s.where]
        moves: dict[str, Hex | None] = {rng.choice(units): rng.choice(hexes)}
        moves[rng.choice(units)] = None
        off = [u for u in T.spec if u not in dict(s.where)]
        if off:
            moves[rng.choice(off)] = rng.choice(hexes)
        assert tables.put(s, moves) == ref_put(s, moves)


def test_put_keeps_the_pairs_of_the_units_that_stay() -> None:
    """The pairs of units not moved are the same objects, not rebuilt copies: rebuilding them
    (each holds a `Hex`, tracked by the cyclic collector) is what made the collector run."""
    for s in POSITIONS:
        unit, _ = s.where[0]
        after = tables.put(s, {unit: None})
        old = {id(p) for p in s.where}
        assert after.where and all(id(p) in old for p in after.where)
