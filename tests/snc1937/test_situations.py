"""SNC's situations (`specs.snc1937.formal.situations`): each distance reaches 0 from a small
corpus within a count of positions of the steered search (`solvers.checking.situations.toward`),
the readings differ at the position it finds, and the explorer, on counts only, settles the
pair `differ` with a witness that replays from the set-up, where without the situation the
same searches leave it unknown."""

from __future__ import annotations

from typing import Any

import pytest

from kernel.variants import Variant
from solvers.checking.corpus import build_corpus
from solvers.checking.explore import differential, reading_variant
from solvers.checking.situations import reading_situations, toward
from specs.snc1937.formal.situations import GRADES
from specs.snc1937.rules.actions import Land, Place
from specs.snc1937.rules.fire_support import NAVAL, naval_defence_hex
from specs.snc1937.rules.odds import clamp, final_column
from specs.snc1937.rules.state import evolve
from specs.snc1937.rules.support_steps import support_kinds
from specs.snc1937.rules.tables import battle, crt, stacks
from specs.snc1937.rules.victory import shanghai_ring
from tests.snc1937.assembled import rules_of
from tools.registry import get_game
from tools.testing.witnesses import assert_witness_holds, situation_only

GAME = get_game("snc1937")
RULES = rules_of(GAME)
CAT = GAME.catalogue
CORPUS = build_corpus(GAME, seeds=1, max_steps=1_200)
NODES = 40
"""Positions the steered search evaluates at most in these tests."""
REACHED = (
    "crt_5to1_six",
    "odds_limits",
    "sudden_defeat_timing",
    "sudden_death_units",
    "control_entry",
    "marker_arrival",
)
"""The situations this small corpus leads to within `NODES` positions."""


def _pair(option: str) -> tuple[Variant, Variant]:
    own = CAT.preset("standard").reading(option)
    other = next(r.name for r in CAT.option(option).readings if r.name != own)
    return (
        reading_variant(CAT, "standard", option, own),
        reading_variant(CAT, "standard", option, other),
    )


def _found(option: str) -> Any:
    """The first position at distance 0 the steered search finds for `option`."""
    s = toward(GAME, CORPUS, "standard", reading_situations(GAME)[option], nodes=NODES)
    assert s.reached, (option, s.best, s.evaluated)
    return s.reached[0]


def test_the_game_offers_a_situation_for_each_option_it_measures() -> None:
    """The hook gives the combat options of `GRADES` and the others by name."""
    names = set(reading_situations(GAME))
    assert set(GRADES) <= names
    assert set(REACHED) | {"chinese_air", "marker_arrival", "town_marsh_woods"} <= names


def test_snc_0_0_4_crt_5to1_six_situation_is_a_battle_read_at_5_to_1() -> None:
    """SNC-0.0.4, SNC-10.5.0.1: the position found is a battle before its die whose final
    column is 5:1, where die 6 reads 0/4 (errata) or the printed cell."""
    here = _found("crt_5to1_six").state
    c = here.combat
    assert c is not None and c.attackers
    va, vb = _pair("crt_5to1_six")
    o = battle(RULES.tables, here, c)
    assert clamp(o.column) == 4  # 5:1
    a = crt(RULES.tables, evolve(here, variant=va), c, 6)
    b = crt(RULES.tables, evolve(here, variant=vb), c, 6)
    assert a == (0, 4) and a != b


def test_snc_10_3_1_1_odds_limits_situation_is_a_shift_beyond_the_table() -> None:
    """SNC-10.3.1.1, SNC-10.4.0.3 (AMB-SNC-2): the position found is a battle whose basic odds
    lie beyond the table with a net shift back into it, so the two readings read different
    columns."""
    here = _found("odds_limits").state
    c = here.combat
    assert c is not None
    o = battle(RULES.tables, here, c)
    va, vb = _pair("odds_limits")
    assert final_column(o.base, o.net, va) != final_column(o.base, o.net, vb)


def _by_shanghai(here: Any) -> tuple[int, int]:
    """The mobile and the static Chinese units in 3512 or next to it (SNC-4.2.1)."""
    st = stacks(here.where)
    specs = [RULES.data.unit(u) for h in shanghai_ring(RULES.board) for u in st.get(h, ())]
    chinese = [x for x in specs if x.side == "CH"]
    return sum(1 for x in chinese if not x.is_static), sum(1 for x in chinese if x.is_static)


def test_snc_4_2_1_sudden_defeat_timing_situation_is_the_last_unit_by_shanghai_in_a_move() -> None:
    """SNC-4.2.1 (AMB-SNC-15): the position found is on GT 1 to 5, the game not over, one
    Chinese unit left in or next to 3512, a move or a combat under way: the next action may
    take it away, and the readings look at the defeat at different moments."""
    here = _found("sudden_defeat_timing").state
    assert here.result is None and 1 <= here.turn <= 5
    assert sum(_by_shanghai(here)) == 1
    assert here.moving or here.combat is not None


def test_snc_4_2_1_sudden_death_units_situation_is_a_static_unit_by_shanghai() -> None:
    """SNC-4.2.1 (sudden_death_units): the position found is on GT 1 to 5, the game not over,
    a static Chinese unit in or next to 3512 (counted under any_unit, not under mobile_only)
    and at most one mobile one."""
    here = _found("sudden_death_units").state
    assert here.result is None and 1 <= here.turn <= 5
    mobile, static = _by_shanghai(here)
    assert static >= 1 and mobile <= 1


def test_snc_3_2_2_control_entry_situation_is_an_arrival_into_a_hex_of_the_other_side() -> None:
    """SNC-3.2.2, SNC-8.4.0.11 (AMB-SNC-16): at the position found a unit may be placed, land
    unopposed or retreat into a hex its side does not control: control passes there under
    any_arrival, not under movement_and_advance."""
    here = _found("control_entry").state
    st = stacks(here.where)
    arrivals = [
        (RULES.data.unit(a.unit).side, a.hex) if isinstance(a, Place) else ("JP", a.hex)
        for a in GAME.legal_actions(here)
        if isinstance(a, Place) or (isinstance(a, Land) and not st.get(a.hex))
    ]
    assert any((h in here.jp_control) != (side == "JP") for side, h in arrivals)


def test_snc_8_5_1_marker_arrival_situation_is_a_fourth_naval_defence_on_gt_2() -> None:
    """SNC-8.5.1, SNC-11.1.4, SNC-11.1.5, SNC-11.4.3: the position found is a Chinese battle
    of GT 2 before its die on a hex naval gunfire may defend, the Japanese having set aside
    three naval gunfire markers in defence this phase: GT 1's three (SNC-13.27) are spent
    under own_player_turn, GT 2's four (SNC-13.28) still hold one under game_turn."""
    here = _found("marker_arrival").state
    t = RULES.tables
    c = here.combat
    assert c is not None and here.turn == 2 and here.side == "CH"
    assert (t.markers("JP", NAVAL, 1), t.markers("JP", NAVAL, 2)) == (3, 4)
    assert here.used.count(f"JP:{NAVAL}") == 3
    assert naval_defence_hex(RULES.board, here.variant, c.target)
    own, game_turn = _pair("marker_arrival")
    assert NAVAL not in support_kinds(t, evolve(here, variant=own), c, True)
    assert NAVAL in support_kinds(t, evolve(here, variant=game_turn), c, True)


@pytest.mark.parametrize("option", REACHED)
def test_the_pair_differs_only_thanks_to_the_situation(option: str) -> None:
    """Counts only: with no corpus position compared, no search around them, no steered
    search toward the code and no guided game, the situation search settles the pair
    `differ` with a witness that replays from the set-up; given no position to evaluate, the
    same searches leave it unknown and say so."""
    kw: dict[str, Any] = {
        "budget": None,
        "games": 0,
        "exhaustive_cap": 1,
        "corpus": CORPUS,
        "corpus_positions": 0,
        "steer_nodes": 0,
    }
    [f] = differential(GAME, CAT.option(option), situation_nodes=NODES, only=_own(option), **kw)
    assert f.verdict == "differ", (option, f.detail)
    assert f.witness is not None and f.witness.found_by == "play steered toward the situation"
    assert_witness_holds(GAME, f)
    [g] = differential(GAME, CAT.option(option), situation_nodes=0, only=_own(option), **kw)
    assert g.verdict == "unknown" and "evaluated 0 positions, none at distance 0" in g.detail


def _own(option: str) -> tuple[str, str]:
    va, vb = _pair(option)
    return va.reading(option), vb.reading(option)


def test_snc_10_0_8_landing_defended_once_situation_is_a_retreat_into_a_later_landing_hex() -> None:
    """SNC-10.0.8, SNC-8.4.0.9: Chinese units that retreat from a landing into a hex where
    another group of the phase may still land have defended this phase there; the steered
    search finds that position from a corpus of four seeds (GT 2's two lines land at
    3509/3510 and 3308/3408, next to each other), the readings list that group's landings
    differently there, and the explorer settles the pair `differ` with a witness that
    replays from the set-up (counts only)."""
    option = "landing_defended_once"
    corpus = build_corpus(GAME, seeds=4, max_steps=1_500)
    s = toward(GAME, corpus, "standard", reading_situations(GAME)[option], nodes=200)
    assert s.reached, (s.best, s.evaluated)
    here = s.reached[0].state
    va, vb = _pair(option)
    exempt = set(GAME.legal_actions(evolve(here, variant=va)))
    applies = set(GAME.legal_actions(evolve(here, variant=vb)))
    again = [a for a in exempt - applies if isinstance(a, Land)]
    assert again and not applies - exempt
    assert all(a.hex in here.attacked and stacks(here.where).get(a.hex) for a in again)
    f = situation_only(GAME, option, corpus, 200, _own(option))
    assert f.verdict == "differ", f.detail
    assert_witness_holds(GAME, f)
