"""The SNC's movement fast paths against a plain reference (issue 34).

The views of a position are memoized by identity (`rules/memo.py`) and read from the cached
hexes of each side; the EZOC of a moving group is worked out from those hexes rather than from
a copy of the position without the group; the Move phase lists its starts from a per-position
table of the units that may move, and its top units from a per-position table of the stacks;
sudden death reads the hexes Chinese units entered from the movers alone. Here the same rules
are stated plainly (the position's stacks rebuilt, `zoc.py` and `movement.py` asked directly,
every hex's units filtered again) and must give the same answers on positions from seeded
playouts of both presets; and each fast path broken on purpose must be told apart by the same
comparison. The state's own fast paths are `test_fast_paths_state.py`'s.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from kernel.game import CHANCE
from kernel.hexes import Hex
from specs.snc1937.data.variants import CATALOGUE
from specs.snc1937.game import SNC
from specs.snc1937.rules import (
    movement,
    movement_hexes,
    movement_steps,
    overrun_steps,
    sequence,
    tables,
    top_unit,
    zoc,
)
from specs.snc1937.rules.actions import Action, Advance, Done, Join, Move, Overrun, Top
from specs.snc1937.rules.state import CH, FULL_MP, JP, Phase, SNCState, Step, evolve, other

GAME = SNC()
T = GAME.tables
STEPS = 5000  # steps of each seeded playout searched (a count, not a time)
SEEDS = (0, 1)
KEEP = 60  # positions kept per kind, evenly spaced so that both sides and turns stay
Where = tuple[tuple[str, Hex], ...]


# --- positions and steps from seeded playouts ---------------------------------------------------


def _playout(preset: str, seed: int) -> Iterator[tuple[SNCState, Action, SNCState]]:
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
        yield s, action, after
        s = after


STEPS_SEEN = [x for p in sorted(CATALOGUE.presets) for seed in SEEDS for x in _playout(p, seed)]


def _spaced(found: list[Any]) -> list[Any]:
    return found[:: max(1, len(found) // KEEP)]


def _in_move_phase(s: SNCState) -> bool:
    return s.phase in (Phase.OPS1, Phase.OPS2) and s.ops_kind() == "move" and not s.combat


MOVE_STARTS = _spaced(
    [s for s, _, _ in STEPS_SEEN if _in_move_phase(s) and s.step == Step.MAIN and not s.moving]
)
ANY = _spaced([s for s, _, _ in STEPS_SEEN])
MOVED = [(b, a, c) for b, a, c in STEPS_SEEN if isinstance(a, (Move, Advance))]


def _crowded(side: str) -> SNCState:
    """Every unit on the map, each reinforcement at its first listed or landing hex: some
    hexes then hold both sides' units, which play never makes (SNC-9.0.12), so the views'
    reading of such a hex is checked too."""
    s = GAME.initial_state(CATALOGUE.preset("standard"))
    where = dict(s.where)
    for line in GAME.data.setup.reinforcements:
        hexes = line.hexes or tuple(sorted(GAME.data.map.landings))
        where.update(dict.fromkeys(line.units, hexes[0]))
    return evolve(s, where=tuple(sorted(where.items())), trt=(), side=side)


CROWDED = [_crowded(CH), _crowded(JP)]


# --- the reference: the same rules stated plainly ------------------------------------------------


def ref_stacks(where: Where) -> dict[Hex, tuple[str, ...]]:
    """SNC-2.1.2: each unit in one hex; a hex's units in the position's order."""
    out: dict[Hex, list[str]] = {}
    for unit, h in where:
        out.setdefault(h, []).append(unit)
    return {h: tuple(us) for h, us in out.items()}


def ref_side_hexes(where: Where, side: str) -> frozenset[Hex]:
    return frozenset(h for h, us in ref_stacks(where).items() if T.spec[us[0]].side == side)


def ref_step_choices(s: SNCState, units: tuple[str, ...], here: Hex, mp: int) -> list[Hex]:
    """SNC-9.0.3, SNC-9.0.11, SNC-9.0.12, SNC-7.2.1, SNC-7.2.3: `movement.py` and `zoc.py`
    asked directly, on the position rebuilt."""
    side = s.side
    st = ref_stacks(s.where)
    first = mp == FULL_MP
    stop, at_start = movement.movement_ezoc(T.board, T.data, s.variant, st, units, here)
    if not first and here in stop:
        return []
    exiting = first and here in at_start
    blocked = ref_side_hexes(s.where, other(side))
    out = []
    for n, cost in T.steps(s.variant, side)[here]:
        if cost > mp or n in blocked or (exiting and n in stop):
            continue
        out.append(n)
    return out


def ref_movers(s: SNCState) -> dict[Hex, tuple[str, ...]]:
    """SNC-9.0.6, SNC-9.1.1, SNC-9.0.10: the phasing side's mobile units not yet moved."""
    out = {}
    for h, us in sorted(ref_stacks(s.where).items()):
        mine = tuple(
            u
            for u in us
            if T.spec[u].side == s.side and not T.spec[u].is_static and u not in s.done
        )
        if mine:
            out[h] = mine
    return out


def ref_tops(s: SNCState) -> list[Top]:
    """AMB-SNC-40: every unit below the top of the phasing side's stacks, once a phase."""
    out: list[Top] = []
    for _, units in sorted(ref_stacks(s.where).items()):
        if len(units) > 1 and T.spec[units[0]].side == s.side:
            below = top_unit.top_first(T, s, units)[1:]
            out.extend(Top(u) for u in below if u not in s.topped)
    return out


def ref_move_listing(s: SNCState) -> list[Action]:
    """SNC-9.0.8, SNC-9.0.10, SNC-9.6.1, SNC-9.6.2, AMB-SNC-44 (stacks): a Move phase's
    actions with no move under way, every move built."""
    out: list[Action] = []
    stacks_too = s.variant.is_("stack_movement", "stacks")
    joins: list[Action] = []
    overruns: set[Hex] = set()
    for h, mine in ref_movers(s).items():
        side_units = tuple(u for u in ref_stacks(s.where)[h] if T.spec[u].side == s.side)
        dests = ref_step_choices(s, side_units, h, FULL_MP)
        if dests:
            out.extend(Move((u,), d) for u in mine for d in dests)
            if stacks_too and len(mine) > 1:
                out.extend(Move(mine, d) for d in dests)
        if len(mine) > 1 and ref_step_choices(s, mine, h, FULL_MP):
            joins.extend(Join(u) for u in mine)
        if overrun_steps.may_overrun_now(s):
            overruns.update(overrun_steps.targets(T, s, mine, h, FULL_MP))
    return [*out, *(Overrun(h) for h in sorted(overruns)), *joins, *ref_tops(s), Done()]


def ref_entered(before: SNCState, after: SNCState) -> set[Hex]:
    """AMB-SNC-14: every Chinese unit whose hex changed, wherever it is."""
    old = dict(before.where)
    return {h for u, h in after.where if T.spec[u].side == CH and old.get(u) != h}


def _movers_of(action: Action) -> tuple[str, ...]:
    if isinstance(action, Move):
        return action.units
    return (action.unit,) if isinstance(action, Advance) else ()


def _groups(s: SNCState) -> Iterator[tuple[tuple[str, ...], Hex]]:
    """Every hex's units of each side together, and units alone: the groups the movement
    rules ask about are one side's units (SNC-9.0.6)."""
    for h, us in sorted(ref_stacks(s.where).items()):
        for side in (CH, JP):
            mine = tuple(u for u in us if T.spec[u].side == side)
            if mine:
                yield mine, h
                yield from (((u,), h) for u in mine[:2])


# --- the comparisons -----------------------------------------------------------------------------


def _view_differences(positions: list[SNCState]) -> list[str]:
    out = []
    for i, s in enumerate(positions):
        st = ref_stacks(s.where)
        if list(tables.stacks(s.where).items()) != list(st.items()):
            out.append(f"position {i}: stacks")
        if tables.locations(s.where) != dict(s.where):
            out.append(f"position {i}: locations")
        for side in (CH, JP):
            if tables.side_hexes(s.where, T, side) != ref_side_hexes(s.where, side):
                out.append(f"position {i}: hexes of {side}")
            if tables.zoc_of(T, s, side) != zoc.zoc_hexes(T.board, T.data, s.variant, st, side):
                out.append(f"position {i}: ZOC of {side}")
    return out


def _ezoc_differences(positions: list[SNCState]) -> list[str]:
    out = []
    for i, s in enumerate(positions):
        st = ref_stacks(s.where)
        for units, here in _groups(s):
            want = movement.movement_ezoc(T.board, T.data, s.variant, st, units, here)
            if tables.move_ezoc(T, s, units, here) != want:
                out.append(f"position {i}: EZOC of {units} in {here}")
    return out


def _listing_differences(positions: list[SNCState]) -> list[str]:
    out = []
    for i, s in enumerate(positions):
        if tables.movers(T, s) != ref_movers(s):
            out.append(f"position {i}: movers")
        if list(movement_steps.move_actions(T, s, True, None)) != ref_move_listing(s):
            out.append(f"position {i}: Move phase listing")
    return out


def test_enough_positions() -> None:
    assert all(
        set(ref_side_hexes(s.where, CH)) & set(ref_side_hexes(s.where, JP)) == set() for s in ANY
    )
    mixed = [
        h
        for s in CROWDED
        for h, us in ref_stacks(s.where).items()
        if len({T.spec[u].side for u in us}) > 1
    ]
    assert mixed
    assert len(MOVE_STARTS) >= 30 and {s.side for s in MOVE_STARTS} == {CH, JP}
    assert len({s.variant for s in ANY}) == 2 and len(MOVED) >= 100


def test_snc_2_1_2_and_7_0_views_match_the_reference() -> None:
    """SNC-2.1.2, SNC-7.0.1 to SNC-7.1.5: stacks, each side's hexes and ZOC as rebuilt."""
    assert _view_differences([*ANY, *CROWDED]) == []


@pytest.mark.parametrize("reading", ["occupied_before_entry", "occupied_on_entry"])
def test_snc_7_2_move_ezoc_matches_movement_ezoc(reading: str) -> None:
    """SNC-7.2.1 to SNC-7.2.3, SNC-7.1.5 (ngl_zoc_entry, both readings): the EZOC of every
    group read from the sides' hexes is `movement.movement_ezoc`'s."""
    for preset in sorted(CATALOGUE.presets):
        v = CATALOGUE.variant(preset, {"ngl_zoc_entry": reading})
        mine = [s for s in [*ANY, *CROWDED] if s.variant == CATALOGUE.preset(preset)]
        positions = [evolve(s, variant=v) for s in mine]
        assert positions and _ezoc_differences(positions) == []


def test_snc_9_0_move_phase_listing_matches_the_reference() -> None:
    """SNC-9.0.6, SNC-9.0.8, SNC-9.0.10, SNC-9.6.1, AMB-SNC-40, AMB-SNC-44: the listing from
    the movers table and the memoized step context is the plain one, move for move."""
    assert _listing_differences(MOVE_STARTS) == []


def test_snc_9_0_moves_under_way_match_the_reference() -> None:
    """SNC-9.0.1 to SNC-9.0.4, SNC-7.2.1: a moving group's next hexes are the plain ones."""
    moving = _spaced([s for s, _, _ in STEPS_SEEN if _in_move_phase(s) and s.moving])
    assert len(moving) >= 30
    for s in moving:
        here = dict(s.where)[s.moving[0]]
        assert movement_hexes.step_choices(T, s, here, s.mp, near_jp_ok=True) == (
            ref_step_choices(s, s.moving, here, s.mp)
        )


def test_amb_snc_14_entered_hexes_match_the_whole_position() -> None:
    """AMB-SNC-14: the hexes Chinese units entered, read from the movers alone, are those of
    the whole position compared unit by unit."""
    for before, action, after in MOVED:
        movers = _movers_of(action)
        assert sequence.chinese_entered(T, before, after, movers) == ref_entered(before, after)


# --- sabotage: each fast path broken on purpose is caught ----------------------------------------


def test_a_sabotaged_side_table_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hexes of each side that lose one Chinese hex are told apart."""
    real = tables._hexes_by_side

    def short(where: Where, t: tables.Tables) -> tuple[frozenset[Hex], ...]:
        ch, jp, ch_any, jp_any = real(where, t)
        gone = frozenset(sorted(ch)[:1])
        return ch - gone, jp, ch_any - gone, jp_any

    monkeypatch.setattr(tables, "_hexes_by_side", short)
    assert _view_differences(ANY[:20])


def test_a_sabotaged_ezoc_shield_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """An EZOC that forgets SNC-7.1.5 (the Japanese start hex still shielding) is caught."""

    def unshielded(t: tables.Tables, where: Where, v: Any, units: Any, here: Hex) -> Any:
        z = tables.zoc_of_where(t, where, v, other(t.spec[units[0]].side))
        return z, z

    monkeypatch.setattr(tables, "_move_ezoc", unshielded)
    assert _ezoc_differences(ANY)


def test_a_sabotaged_movers_table_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A movers table that forgets the units that have moved (SNC-9.0.10) is caught."""
    real = tables._movers
    monkeypatch.setattr(tables, "_movers", lambda t, w, done, side: real(t, w, frozenset(), side))
    assert _listing_differences(MOVE_STARTS)


def test_a_sabotaged_step_context_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A step context that lets moves into enemy hexes (SNC-9.0.12) is caught."""
    real = movement_hexes._position

    def open_hexes(*args: Any) -> Any:
        enemy_zoc, _, steps = real(*args)
        return enemy_zoc, frozenset(), steps

    monkeypatch.setattr(movement_hexes, "_position", open_hexes)
    assert _listing_differences(MOVE_STARTS)


def test_a_sabotaged_top_table_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stacks read in reverse data order (the wrong default top unit, SNC-6.3.1) are caught."""
    real = top_unit._piles
    monkeypatch.setattr(
        top_unit,
        "_piles",
        lambda t, w: tuple(
            (side, us[::-1], {us[-1]: tuple(Top(u) for u in us[::-1][1:])})
            for side, us, _ in real(t, w)
        ),
    )
    assert _listing_differences(MOVE_STARTS)


def test_a_sabotaged_entered_set_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Entered hexes that leave out the advancing units (AMB-SNC-14) are caught."""
    real = sequence.chinese_entered
    monkeypatch.setattr(
        sequence, "chinese_entered", lambda t, b, a, movers: real(t, b, a, movers[1:])
    )
    assert any(
        sequence.chinese_entered(T, b, a, _movers_of(act)) != ref_entered(b, a)
        for b, act, a in MOVED
    )


def test_a_sabotaged_first_step_table_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """First steps that skip SNC-7.2.3 (a group leaving an EZOC goes only to hexes free of
    EZOC) for every start hex are caught."""

    def unbound(t: tables.Tables, s: SNCState, near_jp_ok: bool) -> Any:
        _, blocked, steps = movement_hexes._position(t, s.where, s.variant, s.side, near_jp_ok)
        return lambda here: tuple(
            n for n, cost in steps[here] if cost <= FULL_MP and n not in blocked
        )

    monkeypatch.setattr(movement_steps, "first_steps", unbound)
    assert _listing_differences(MOVE_STARTS)


def test_a_sabotaged_overrun_search_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """An overrun search that stops judging targets once any is found open (SNC-9.6.1: every
    adjacent Chinese hex some group may overrun is offered) is caught."""
    real = overrun_steps.targets

    def first_only(*args: Any) -> list[Hex]:
        t, s, units, here, mp, *known = args
        return [] if known and known[0] else real(t, s, units, here, mp)

    monkeypatch.setattr(overrun_steps, "targets", first_only)
    assert _listing_differences(MOVE_STARTS)
