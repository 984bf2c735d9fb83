"""A new position's views worked out from the one it was made from, against a plain rebuild
(issue 34).

`tables.put` records which position a new one came from and the units it moved; the stacks
and unit hexes of the new position are then the old ones with the touched hexes and units
changed (`position_delta`, `position_views`), in the full rebuild's dict order, which listings
follow. Here, right after every step of seeded playouts of both presets, as play leaves them,
and after steps no one asked a view of, they must equal a plain rebuild written here; so must
`put`'s removal by bisection, control passing only when it changes hands (SNC-3.2.2), the
interdiction's subset sums kept by value (SNC-11.2.2), the top units offered (AMB-SNC-40) and
the standard preset made once. A fast path broken on purpose must be told apart by the same
comparisons. Seeded games are pinned in `test_fast_seeded_logs`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import attrs
import pytest

from kernel.game import CHANCE
from kernel.hexes import Hex
from specs.snc1937.data.variants import CATALOGUE
from specs.snc1937.game import SNC
from specs.snc1937.rules import (
    control,
    odds,
    position_delta,
    position_views,
    reinforcement_steps,
    tables,
    top_unit,
)
from specs.snc1937.rules.actions import Top
from specs.snc1937.rules.state import CH, JP, Phase, SNCState, Step

GAME = SNC()
T = GAME.tables
STEPS = 1500  # steps of each seeded playout (a count, not a time)
PLAYOUTS = (("standard", 1), ("printed", 10))
Where = tuple[tuple[str, Hex], ...]


# --- the plain reference ---------------------------------------------------------------------


def ref_stacks(where: Where) -> dict[Hex, tuple[str, ...]]:
    """SNC-2.1.2: each unit in one hex; hexes in the order their first unit comes in `where`."""
    out: dict[Hex, list[str]] = {}
    for u, h in where:
        out.setdefault(h, []).append(u)
    return {h: tuple(us) for h, us in out.items()}


def ref_sides(where: Where) -> tuple[frozenset[Hex], frozenset[Hex]]:
    """The hexes holding Chinese, and Japanese, units."""
    ch = frozenset(h for u, h in where if T.spec[u].side == CH)
    jp = frozenset(h for u, h in where if T.spec[u].side == JP)
    return ch, jp


def _view_problems(where: Where) -> list[str]:
    out = []
    if list(tables.stacks(where).items()) != list(ref_stacks(where).items()):
        out.append("stacks")
    if list(tables.locations(where).items()) != list(dict(where).items()):
        out.append("locations")
    if tables.occupied_by(where, T) != ref_sides(where):
        out.append("sides")
    return out


# --- positions as play makes them -----------------------------------------------------------


def _steps(preset: str, seed: int) -> Iterator[tuple[SNCState, SNCState]]:
    """Each step of a seeded playout: the state before and the one after."""
    rng = random.Random(seed)
    s = GAME.initial_state(CATALOGUE.preset(preset))
    for _ in range(STEPS):
        side = GAME.to_move(s)
        if side is None:
            return
        if side == CHANCE:
            outcomes = GAME.chance_outcomes(s)
            action = rng.choices([a for a, _ in outcomes], [float(p) for _, p in outcomes])[0]
        else:
            action = rng.choice(GAME.legal_actions(s))
        after = GAME.apply(s, action)
        yield s, after
        s = after


def _play_differences() -> tuple[list[str], int]:
    """Where the views of each new position, read right after the step that made it (the
    fast path play itself took), differ from the plain rebuild; and how many were read."""
    out: list[str] = []
    seen = 0
    for preset, seed in PLAYOUTS:
        for i, (before, after) in enumerate(_steps(preset, seed)):
            if after.where is not before.where:
                seen += 1
                out.extend(f"{preset} step {i}: {p}" for p in _view_problems(after.where))
    return out, seen


CACHES: tuple[Any, ...] = (
    tables.stacks,
    tables.locations,
    tables._stacks,
    tables._locations,
    tables._hexes_by_side,
)


def _caught(differences: Callable[[], Any]) -> bool:
    """A broken fast path shows as differences, or as a view that cannot be worked out."""
    try:
        found = differences()
    except (KeyError, ValueError, IndexError):
        return True
    finally:
        _clear()
    return bool(found[0] if isinstance(found, tuple) else found)


def _clear() -> None:
    """Every view kept by position forgotten, so that the next playout works each out anew."""
    for fn in CACHES:
        fn.cache_clear()
    position_views.MADE.clear()


def test_snc_2_1_2_views_of_each_new_position_match_the_rebuild() -> None:
    """SNC-2.1.2, SNC-9.0.12: the stacks (dict order included), unit hexes and each side's
    hexes of every position play makes are the plain rebuild's."""
    problems, seen = _play_differences()
    assert seen > 500 and problems == []


def test_play_takes_the_fast_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """Most new positions' stacks are worked out from the one before, not rebuilt."""
    calls = {"delta": 0, "full": 0}
    delta, full = position_delta.moved_stacks, position_views._stacks.__wrapped__

    def counted_delta(*args: Any) -> Any:
        calls["delta"] += 1
        return delta(*args)

    def counted_full(where: Where) -> Any:
        calls["full"] += 1
        return full(where)

    _clear()
    monkeypatch.setattr(position_views, "moved_stacks", counted_delta)
    monkeypatch.setattr(position_views, "_stacks", counted_full)
    problems, seen = _play_differences()
    assert problems == [] and calls["delta"] > 5 * calls["full"] and calls["delta"] > seen // 2


def _misplaced(
    old: Mapping[Hex, tuple[str, ...]], was: Mapping[str, Hex], moves: Mapping[str, Hex | None]
) -> dict[Hex, tuple[str, ...]]:
    """A broken delta: a hex that changes place in the order is put last."""
    right = position_delta.moved_stacks(old, was, moves)
    moved = [h for h in right if h not in old or old[h][0] != right[h][0]]
    return {**{h: us for h, us in right.items() if h not in moved}, **{h: right[h] for h in moved}}


def test_a_sabotaged_stack_order_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A delta that keeps the units right but puts a hex out of order is told apart."""
    _clear()
    monkeypatch.setattr(position_views, "moved_stacks", _misplaced)
    problems, _ = _play_differences()
    _clear()
    assert any(p.endswith("stacks") for p in problems)


def test_a_sabotaged_unit_hexes_delta_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A delta of the unit hexes that forgets the units taken off the map is told apart."""

    def forgetful(old: Mapping[str, Hex], moves: Mapping[str, Hex | None]) -> Any:
        return position_delta.moved_locations(old, {u: h for u, h in moves.items() if h})

    _clear()
    monkeypatch.setattr(position_views, "moved_locations", forgetful)
    assert _caught(_play_differences)


# --- positions no one asked a view of -------------------------------------------------------


def _unasked_differences(rounds: int = 40) -> list[str]:
    """Several `put`s in a row from a position with known views, none of the positions between
    asked a view, then the last one's views against the rebuild: the steps between are taken
    as one move of each unit to where it ended."""
    rng = random.Random(11)
    out: list[str] = []
    starts = [a for p, seed in PLAYOUTS for _, a in _steps(p, seed)][::50]
    for i in range(rounds):
        s = rng.choice(starts)
        tables.stacks(s.where)
        tables.locations(s.where)
        for _ in range(rng.randrange(2, 6)):
            units = [u for u, _ in s.where]
            hexes = sorted({h for _, h in s.where})
            moves: dict[str, Hex | None] = {u: rng.choice(hexes) for u in rng.sample(units, 2)}
            if rng.random() < 0.3:
                moves[rng.choice(units)] = None
            s = tables.put(s, moves)
        out.extend(f"round {i}: {p}" for p in _view_problems(s.where))
    return out


def test_views_after_steps_no_one_asked_match_the_rebuild() -> None:
    """SNC-2.1.2: the stacks worked out across several unseen positions are the rebuild's."""
    assert _unasked_differences() == []


def test_a_sabotaged_chain_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reading only the last step's moves, not the whole chain's, is told apart."""
    real = position_views.made_from

    def last_only(where: Where) -> Any:
        made = real(where)
        if made is None:
            return None
        before = real(made[1])
        return made if before is None else (made[0], before[1], made[2])

    monkeypatch.setattr(position_views, "made_from", last_only)
    assert _caught(_unasked_differences)


# --- put, control, subset sums, the standard preset ----------------------------------------


def ref_put(s: SNCState, moves: Mapping[str, Hex | None]) -> Where:
    where = {u: h for u, h in s.where if u not in moves}
    where.update({u: h for u, h in moves.items() if h is not None})
    return tuple(sorted(where.items()))


def _put_differences(positions: list[SNCState]) -> list[str]:
    rng = random.Random(5)
    out = []
    for i, s in enumerate(positions):
        units = [u for u, _ in s.where]
        hexes = [h for _, h in s.where]
        off = sorted(set(T.spec) - set(units))
        moves: dict[str, Hex | None] = {rng.choice(units): rng.choice(hexes)}
        moves[rng.choice(units)] = None
        moves.update({u: rng.choice(hexes) for u in off[:2]})
        if tables.put(s, moves).where != ref_put(s, moves):
            out.append(f"position {i}")
        shuffled = attrs.evolve(s, where=tuple(reversed(s.where)))  # a hand-made order
        want = tuple(p for p in shuffled.where if p[0] not in moves)
        if tables._without(shuffled.where, moves) != list(want):
            out.append(f"position {i}: unsorted")
    return out


POSITIONS = [a for p, seed in PLAYOUTS for _, a in _steps(p, seed)][::25]


def test_snc_2_1_2_put_matches_the_plain_rebuild() -> None:
    """SNC-2.1.2: units moved, placed and removed land where a plain rebuild puts them; a
    position not sorted by unit is still filtered right."""
    assert len(POSITIONS) > 40 and _put_differences(POSITIONS) == []


def test_a_sabotaged_removal_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A removal that keeps the first unit it should drop is told apart."""
    real = tables._without

    def keeps_one(where: Where, units: Any) -> list[tuple[str, Hex]]:
        return real(where, list(units)[1:])

    monkeypatch.setattr(tables, "_without", keeps_one)
    assert _put_differences(POSITIONS)


def _control_differences(switch: Callable[..., frozenset[Hex]]) -> list[str]:
    """SNC-3.2.2: the hexes entered pass to the side entering; the set itself is returned when
    none changes hands."""
    rng = random.Random(9)
    out = []
    for i, s in enumerate(POSITIONS):
        hexes = [h for _, h in s.where]
        for side in (CH, JP):
            chosen = tuple(rng.sample(hexes, 2))
            for entered in (chosen, tuple(s.jp_control)[:2], ()):
                got = switch(s.jp_control, side, entered)
                want = (s.jp_control | set(entered)) if side == JP else s.jp_control - set(entered)
                if got != want:
                    out.append(f"position {i}: {side} {entered}")
                if want == s.jp_control and got is not s.jp_control:
                    out.append(f"position {i}: a copy")
    return out


def test_snc_3_2_2_control_passes_as_the_plain_sets_say() -> None:
    """SNC-3.2.2: `_switch` equals the plain set operations, without copying an unchanged set."""
    assert _control_differences(control._switch) == []


def test_a_sabotaged_control_switch_is_caught() -> None:
    """A switch that skips the change when the first hex entered is already held is caught."""

    def lazy(c: frozenset[Hex], side: str, hexes: tuple[Hex, ...]) -> frozenset[Hex]:
        if hexes and (hexes[0] in c) == (side == JP):
            return c
        return control._switch(c, side, hexes)

    assert _control_differences(lazy)


def ref_subset_sums(cfs: tuple[int, ...]) -> set[int]:
    """SNC-11.2.2: every total of a sub-collection of the CFs (the empty one included)."""
    out: set[int] = set()
    for mask in range(1 << len(cfs)):
        out.add(sum(c for i, c in enumerate(cfs) if mask >> i & 1))
    return out


def _sums_differences(fn: Callable[[tuple[int, ...]], Any]) -> list[tuple[int, ...]]:
    rng = random.Random(4)
    cases = [tuple(rng.randrange(0, 9) for _ in range(rng.randrange(0, 9))) for _ in range(300)]
    return [c for c in cases for _ in range(2) if set(fn(c)) != ref_subset_sums(c)]


def test_snc_11_2_2_subset_sums_kept_by_value_match_the_plain_sums() -> None:
    """SNC-11.2.2: the interdiction's subset sums, asked twice each, are the plain ones."""
    assert _sums_differences(reinforcement_steps._subset_sums) == []


def test_a_sabotaged_subset_sums_memo_is_caught() -> None:
    """A memo keyed by the number of CFs only (the CFs themselves lost) is told apart."""
    kept: dict[int, Any] = {}

    def by_length(cfs: tuple[int, ...]) -> Any:
        return kept.setdefault(len(cfs), reinforcement_steps._subset_sums(cfs))

    assert _sums_differences(by_length)


def test_the_standard_preset_is_made_once_and_is_the_catalogue_s() -> None:
    """The odds without a variant read preset `standard` (`odds.attack_problem`)."""
    assert odds.standard_preset() == CATALOGUE.preset("standard")
    assert odds.standard_preset() is odds.standard_preset()


def ref_tops(s: SNCState) -> list[Top]:
    """AMB-SNC-40, SNC-6.3.1: every unit below the top of the phasing side's stacks (the one
    last put on top, else the first in the data's order), once a phase."""
    if s.moving or s.step != Step.MAIN or s.phase not in (Phase.OPS1, Phase.OPS2, Phase.REINF):
        return []
    out: list[Top] = []
    for _, units in sorted(ref_stacks(s.where).items()):
        if len(units) > 1 and T.spec[units[0]].side == s.side:
            ordered = sorted(units, key=T.order.__getitem__)
            top = next((u for u in s.on_top if u in ordered), ordered[0])
            out.extend(Top(u) for u in ordered if u != top and u not in s.topped)
    return out


def _tops_differences() -> list[int]:
    return [i for i, s in enumerate(POSITIONS) if top_unit.tops(T, s) != ref_tops(s)]


def test_amb_snc_40_tops_match_the_plain_listing() -> None:
    """AMB-SNC-40: the units offered to go on top, the common case read from the position's
    piles, are the plain listing's."""
    assert sum(1 for s in POSITIONS if ref_tops(s)) > 10 and _tops_differences() == []


def test_a_sabotaged_pile_offer_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Piles whose offered `Top`s leave out the last unit are told apart."""
    real = top_unit._piles

    def short(t: Any, where: Where) -> Any:
        return tuple((side, us, {us[0]: offers[us[0]][:-1]}) for side, us, offers in real(t, where))

    monkeypatch.setattr(top_unit, "_piles", short)
    assert _tops_differences()
