"""The SNC sequence of play (SNC-5.x), movement in it (SNC-9.x, SNC-7.2.x), the stacking
check of a Move phase (SNC-6.0.2) and the victory conditions (SNC-4.x)."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from kernel.errors import IllegalAction
from kernel.hexes import Hex, parse_hex
from specs.snc1937.data.variants import CATALOGUE
from specs.snc1937.game import SNC
from specs.snc1937.rules.actions import Declare, Done, Eliminate, Move, Top
from specs.snc1937.rules.state import CH, JP, Order, Phase, SNCState, Step

GAME = SNC()
CITIES = frozenset(h for h in GAME.board.map.cities if not GAME.board.is_neutral(h))  # SNC-4.3.2


def H(text: str) -> Hex:
    return parse_hex(text)


def start(**options: str) -> SNCState:
    return GAME.initial_state(CATALOGUE.variant("standard", options))


def with_units(s: SNCState, **changes: Any) -> SNCState:
    """The state with units moved: unit id -> hex text, or None to take it off the map."""
    where = dict(s.where)
    for u, h in changes.items():
        uid = u.replace("_", "-")
        if h is None:
            where.pop(uid, None)
        else:
            where[uid] = H(h)
    trt = tuple(p for p in s.trt if p[0] not in where)
    dead = frozenset(u for u, _ in s.where if u not in where and not any(u == x for x, _ in trt))
    return attrs.evolve(s, where=tuple(sorted(where.items())), trt=trt, dead=s.dead | dead)


def declared(s: SNCState, order: Order) -> SNCState:
    return GAME.apply(s, Declare(order))


def test_snc_5_3_1_declaration_before_the_player_turn() -> None:
    """SNC-5.3.1, SNC-5.0.2: the player turn opens with the phase-order declaration; an
    action out of its place in the sequence is refused."""
    s = start()
    assert GAME.to_move(s) == CH
    assert set(GAME.legal_actions(s)) == {Declare(o) for o in Order}
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, Move(("CH-87D",), H("3410")))
    assert "SNC-5.3.1" in err.value.clauses


def test_snc_5_3_2_no_movement_in_a_fight_phase() -> None:
    """SNC-5.3.2: a Fight phase allows attacks, not moves; a Move phase the reverse."""
    s = declared(start(), Order.FIGHT_MOVE)
    assert not any(isinstance(a, Move) for a in GAME.legal_actions(s))
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, Move(("CH-87D",), H("3410")))
    assert "SNC-5.3.2" in err.value.clauses
    s = declared(start(), Order.MOVE_FIGHT)
    assert any(isinstance(a, Move) for a in GAME.legal_actions(s))


def test_snc_5_1_1_the_phases_of_a_game_turn() -> None:
    """SNC-5.1.1, SNC-5.3.3, SNC-5.3.4: Chinese First Ops, Reinforcement, Second Ops under one
    declaration, then the Japanese turn, then the next GT (SNC-5.2.1)."""
    s = declared(start(), Order.MOVE_MOVE)
    seen = [(s.side, s.phase)]
    while s.turn == 1 and s.result is None:
        acts = GAME.legal_actions(s)
        if GAME.to_move(s) == "chance":
            s = GAME.apply(s, GAME.chance_outcomes(s)[0][0])
            continue
        pick = next((a for a in acts if isinstance(a, Done | Declare)), acts[0])
        s = GAME.apply(s, pick)
        if (s.side, s.phase) != seen[-1]:
            seen.append((s.side, s.phase))
    assert seen[:7] == [
        (CH, Phase.OPS1),
        (CH, Phase.REINF),
        (CH, Phase.OPS2),
        (JP, Phase.DECLARE),
        (JP, Phase.OPS1),
        (JP, Phase.REINF),
        (JP, Phase.OPS2),
    ]
    assert s.turn == 2 and s.side == CH and s.phase == Phase.DECLARE


def _at(s: SNCState, turn: int, side: str, phase: Phase, order: Order) -> SNCState:
    return attrs.evolve(s, turn=turn, side=side, phase=phase, order=order, step=Step.MAIN)


def test_snc_5_2_2_the_game_ends_after_gt_12() -> None:
    """SNC-5.2.2, SNC-4.3.3: the Victory Check of GT 12 without every city Japanese is a
    Chinese win."""
    s = _at(start(), 12, JP, Phase.OPS2, Order.FIGHT_FIGHT)
    s = attrs.evolve(s, trt=())
    s = GAME.apply(s, Done())
    assert s.result is not None and s.result.winner == CH and s.result.clause == "SNC-4.3.3"
    assert GAME.to_move(s) is None


def test_snc_4_3_1_japanese_win_holding_every_city() -> None:
    """SNC-4.3.1, SNC-4.3.2: in the Victory Check the Japanese win with every city hex (3513
    counting as theirs once all the others are)."""
    s = _at(start(), 6, JP, Phase.OPS2, Order.FIGHT_FIGHT)
    s = attrs.evolve(s, jp_control=CITIES)
    assert H("3513") not in CITIES
    s = GAME.apply(s, Done())
    assert s.result is not None and s.result.winner == JP and s.result.clause == "SNC-4.3.1"


def test_snc_4_3_1_no_win_one_city_short() -> None:
    """SNC-4.3.1: one city hex short, the game goes on to the next GT."""
    s = _at(start(), 6, JP, Phase.OPS2, Order.FIGHT_FIGHT)
    s = attrs.evolve(s, jp_control=CITIES - {H("0202")})
    s = GAME.apply(s, Done())
    assert s.result is None and s.turn == 7


def test_snc_4_1_1_chinese_control_of_shanghai_wins_at_once() -> None:
    """SNC-4.1.1, SNC-3.2.2: a Chinese unit entering 3512 takes control and wins."""
    s = with_units(start(), JP_SNLF1=None, JP_SNLF2=None, JP_G_SHANGHAI=None)
    s = declared(s, Order.MOVE_FIGHT)
    s = GAME.apply(s, Move(("CH-87D",), H("3512")))
    assert s.result is not None and s.result.winner == CH and s.result.clause == "SNC-4.1.1"


def test_snc_4_2_1_sudden_defeat_without_a_unit_near_shanghai() -> None:
    """SNC-4.2.1: until GT 5, no Chinese unit in or next to 3512 loses at once."""
    s = start()
    near = {H("3512"), *GAME.board.neighbors(H("3512"))}
    gone = {u.replace("-", "_"): None for u, h in s.where if h in near and u.startswith("CH")}
    s = declared(with_units(s, **gone), Order.MOVE_FIGHT)
    assert s.result is not None and s.result.winner == JP and s.result.clause == "SNC-4.2.1"


def test_snc_4_2_1_timing_end_of_phase() -> None:
    """SNC-4.2.1 under sudden_defeat_timing=end_of_phase (AMB-SNC-15): only at a phase end."""
    s = start(sudden_defeat_timing="end_of_phase")
    near = {H("3512"), *GAME.board.neighbors(H("3512"))}
    gone = {u.replace("-", "_"): None for u, h in s.where if h in near and u.startswith("CH")}
    s = declared(with_units(s, **gone), Order.MOVE_FIGHT)
    assert s.result is None
    s = GAME.apply(s, Done())
    assert s.result is not None and s.result.clause == "SNC-4.2.1"


def test_snc_4_1_2_gt8_adjacent_chinese_win() -> None:
    """SNC-4.1.2 (AMB-SNC-14 literal): from GT 8 a Chinese unit next to 3512 wins."""
    s = attrs.evolve(start(), turn=8, trt=())
    s = declared(s, Order.MOVE_FIGHT)
    assert s.result is not None and s.result.winner == CH and s.result.clause == "SNC-4.1.2"


def _steps(s: SNCState, units: tuple[str, ...]) -> set[Hex]:
    return {a.to for a in GAME.legal_actions(s) if isinstance(a, Move) and a.units == units}


def test_snc_9_0_1_movement_allowance_of_eight() -> None:
    """SNC-9.0.1, SNC-9.4.1, SNC-9.0.10: a Chinese unit pays 1 MP a hex (2 half-MP), moves
    hex by hex, and stops with no MP left after 8 clear hexes."""
    s = with_units(start(), CH_11D="1010")
    s = declared(s, Order.MOVE_FIGHT)
    unit = ("CH-11D",)
    path = []
    for _ in range(8):
        options = sorted(_steps(s, unit))
        assert options
        to = next(
            (
                h
                for h in options
                if h not in path and not GAME.board.side_kind(dict(s.where)["CH-11D"], h)
            ),
            options[0],
        )
        s = GAME.apply(s, Move(unit, to))
        path.append(to)
        if not s.moving:
            break
    assert "CH-11D" in s.done and not s.moving and s.mp == 0
    assert not _steps(s, unit)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, Move(unit, GAME.board.neighbors(path[-1])[0]))
    assert "SNC-9.0.1" in err.value.clauses


def test_snc_7_2_1_a_unit_stops_on_entering_an_ezoc() -> None:
    """SNC-7.2.1: a moving unit stops in the first EZOC hex it enters; SNC-9.0.12: it never
    enters an enemy hex."""
    b = GAME.board
    zoc = set(b.neighbors(H("3205")))
    pairs = [
        (begin, mid)
        for z in sorted(zoc)
        for mid in b.neighbors(z)
        if mid not in zoc and mid != H("3205")
        for begin in b.neighbors(mid)
        if begin not in zoc and b.enterable(begin)
    ]
    for begin, mid in pairs:
        s = declared(with_units(start(), CH_11D=str(begin), JP_3D_1="3205"), Order.MOVE_FIGHT)
        if mid in _steps(s, ("CH-11D",)) and s.result is None:
            break
    s = GAME.apply(s, Move(("CH-11D",), mid))
    into = sorted(_steps(s, ("CH-11D",)) & zoc)
    assert into and H("3205") not in _steps(s, ("CH-11D",))
    s = GAME.apply(s, Move(("CH-11D",), into[0]))
    assert not s.moving and "CH-11D" in s.done  # stopped at once


def test_snc_7_2_3_leaving_an_ezoc_into_one_is_refused() -> None:
    """SNC-7.2.3: a unit starting in an EZOC may leave only into a hex free of EZOC."""
    s = with_units(start(), CH_11D="3006", JP_3D_1="3007")
    s = declared(s, Order.MOVE_FIGHT)
    zoc = set(GAME.board.neighbors(H("3007")))
    assert H("3006") in zoc
    assert _steps(s, ("CH-11D",))
    assert not _steps(s, ("CH-11D",)) & zoc


def test_snc_6_0_2_stacking_checked_at_the_end_of_a_move_phase() -> None:
    """SNC-6.0.2 (a), SNC-6.0.4, SNC-6.2.3: four Chinese divisions (4 DE) in a hex at the end
    of a Move phase: the Chinese eliminate one of their choice."""
    s = with_units(start(), CH_3D="2005", CH_6D="2005", CH_7D="2005", CH_51D="2005")
    s = declared(s, Order.MOVE_FIGHT)
    s = GAME.apply(s, Done())
    assert s.step == Step.STACK and GAME.to_move(s) == CH
    acts = GAME.legal_actions(s)
    assert set(acts) == {Eliminate(u) for u in ("CH-3D", "CH-6D", "CH-7D", "CH-51D")}
    s = GAME.apply(s, Eliminate("CH-3D"))
    assert s.phase == Phase.REINF and "CH-3D" in s.dead


def test_snc_6_2_3_three_division_equivalents_fit() -> None:
    """SNC-6.2.3: an elite division (1.5), a regular division and a brigade (0.5) fit."""
    s = with_units(start(), CH_36D="2005", CH_3D="2005", CH_20B="2005")
    s = declared(s, Order.MOVE_FIGHT)
    s = GAME.apply(s, Done())
    assert s.step == Step.MAIN and s.phase == Phase.REINF


def test_snc_3_1_1_set_up() -> None:
    """SNC-3.1.1, SNC-3.1.4, SNC-3.2.1: GT 1; the at-start units on their section 13 hexes;
    SNC-3.1.2, SNC-8.0.1: every reinforcement in the TRT box of its GT; the Japanese control
    only their two hexes."""
    s = start()
    assert s.turn == 1 and s.side == CH
    data = GAME.data
    where = dict(s.where)
    for a in data.setup.at_start:
        assert all(where[u] == h for u, h in a.place.items())
    assert set(s.trt) == {(u, r.gt) for r in data.setup.reinforcements for u in r.units}
    assert s.jp_control == frozenset({H("3512"), H("3611")})


def test_snc_3_1_3_at_start_markers_usable_on_gt1() -> None:
    """SNC-3.1.3, SNC-8.5.1: the at-start markers are held from GT 1; a GT 2 marker only from
    the GT 2 player turn."""
    t = GAME.tables
    assert t.markers(CH, "artillery", 1) == 3 and t.markers(JP, "naval_gunfire", 1) == 3
    assert t.markers(JP, "air", 1) == 0 and t.markers(JP, "air", 2) == 1


def test_snc_5_0_3_no_going_back() -> None:
    """SNC-5.0.3, SNC-9.0.6: once the Move phase is over its moves are gone; a unit moves
    once per phase (SNC-9.0.7); any number of units may move (SNC-9.0.8)."""
    s = declared(start(), Order.MOVE_FIGHT)
    first = GAME.legal_actions(s)[0]
    assert isinstance(first, Move)
    s = GAME.apply(s, first)
    if s.moving:
        s = GAME.apply(s, Done())  # the move stops
    assert not s.moving
    assert not any(isinstance(a, Move) and first.units[0] in a.units for a in GAME.legal_actions(s))
    assert any(isinstance(a, Move) for a in GAME.legal_actions(s))
    s = GAME.apply(s, Done())
    while s.phase != Phase.OPS2:
        acts = GAME.legal_actions(s)
        if GAME.to_move(s) == "chance":
            s = GAME.apply(s, GAME.chance_outcomes(s)[0][0])
        else:  # the first action but a change of top unit, which could go on forever
            s = GAME.apply(s, next(a for a in acts if not isinstance(a, Top)))
    assert not any(isinstance(a, Move) for a in GAME.legal_actions(s))


def test_snc_9_0_5_moves_only_in_a_move_phase_of_ones_own() -> None:
    """SNC-9.0.5, SNC-9.0.6: the Japanese cannot move in the Chinese player turn."""
    s = declared(start(), Order.MOVE_FIGHT)
    with pytest.raises(IllegalAction):
        GAME.apply(s, Move(("JP-SNLF3",), H("3710")))


def test_snc_5_3_6_reinforcements_move_whatever_the_first_phase() -> None:
    """SNC-5.3.5, SNC-5.3.6, SNC-8.2.7: after a Fight first phase the Chinese reinforcements
    still arrive and move in the Reinforcement Phase."""
    s = attrs.evolve(start(), turn=2)
    s = GAME.apply(declared(s, Order.FIGHT_FIGHT), Done())
    assert s.phase == Phase.REINF
    from specs.snc1937.rules.actions import Place

    place = next(a for a in GAME.legal_actions(s) if isinstance(a, Place))
    s = GAME.apply(s, place)
    assert any(isinstance(a, Move) for a in GAME.legal_actions(s))


def test_snc_8_0_4_no_early_arrival() -> None:
    """SNC-8.0.4, SNC-8.0.1: on GT 1 the Chinese have nothing to place; the GT 2 units wait
    in the TRT (SNC-8.4.0.2: reinforcements take no part in the First Operations Phase)."""
    s = GAME.apply(declared(start(), Order.MOVE_MOVE), Done())
    assert s.phase == Phase.REINF
    from specs.snc1937.rules.actions import Place

    assert not any(isinstance(a, Place) for a in GAME.legal_actions(s))
    assert Done() in GAME.legal_actions(s)
    assert all(u not in dict(s.where) for u, gt in s.trt if gt >= 2)


def test_snc_8_0_3_units_in_play_stay_in_play() -> None:
    """SNC-8.0.3, SNC-8.3.3: no action takes a unit off the map except losses, over-stacking
    and interdiction; eliminated units never come back (only elite units, SNC-8.1.2)."""
    names = {
        "Declare", "Move", "Attack", "Join", "Strike", "Support", "Intercept", "Roll", "Loss",
        "Retreat", "Advance", "Place", "Land", "Delay", "Replace", "Remove", "Eliminate", "Done",
    }  # fmt: skip
    import specs.snc1937.rules.actions as acts

    assert {n for n in names if hasattr(acts, n)} == names
    assert not hasattr(acts, "Withdraw")


def test_snc_3_2_2_control_passes_in_every_hex_entered() -> None:
    """SNC-3.2.2 (control_transit, found here): under every_hex_entered a Chinese unit passing
    through a Japanese-controlled hex takes it back; under where_move_ends only its last hex."""
    for reading, kept in (("every_hex_entered", False), ("where_move_ends", True)):
        s = with_units(start(control_transit=reading), CH_11D="2005")
        s = attrs.evolve(s, jp_control=s.jp_control | {H("2006")})
        s = declared(s, Order.MOVE_FIGHT)
        s = GAME.apply(s, Move(("CH-11D",), H("2006")))
        nxt = sorted(_steps(s, ("CH-11D",)) - {H("2005")})
        s = GAME.apply(s, Move(("CH-11D",), nxt[0]))
        if s.moving:
            s = GAME.apply(s, Done())
        assert (H("2006") in s.jp_control) == kept, reading
        assert nxt[0] not in s.jp_control


def test_snc_4_1_2_must_gain_reading() -> None:
    """SNC-4.1.2 under gt8_adjacency=must_gain (AMB-SNC-14): units already next to 3512 at
    GT 8 do not win; one that comes next to it does."""
    s = attrs.evolve(start(gt8_adjacency="must_gain"), turn=8, trt=())
    s = declared(s, Order.MOVE_FIGHT)
    assert s.result is None
    ring = {H("3512"), *GAME.board.neighbors(H("3512"))}
    s = with_units(s, CH_87D="3410", CH_98D="3410")
    steps = _steps(s, ("CH-87D",)) & ring
    assert steps
    s = GAME.apply(s, Move(("CH-87D",), sorted(steps)[0]))
    assert s.result is not None and s.result.clause == "SNC-4.1.2"
