"""Victory (SNC-4.1.x, SNC-4.2.1, SNC-4.3.x, SNC-4.4.1; AMB-SNC-14, AMB-SNC-16): the Chinese
sudden-death victory and defeat, and the end-of-turn Victory Check over the map's cities."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kernel.hexes import Hex, parse_hex
from kernel.variants import Variant
from specs.snc1937.data.loader import load_data
from specs.snc1937.data.variants import CATALOGUE
from specs.snc1937.rules.board import Board
from specs.snc1937.rules.control import initial_control
from specs.snc1937.rules.victory import (
    SHANGHAI,
    chinese_near_shanghai,
    shanghai_ring,
    sudden_death,
    sudden_defeat,
    sudden_victory,
    victory_check,
)

DATA = load_data()
BOARD = Board(DATA)
STANDARD = CATALOGUE.preset("standard")
H = parse_hex
CITIES = frozenset(h for h in DATA.map.cities if not BOARD.is_neutral(h))
RING = sorted(shanghai_ring(BOARD) - {SHANGHAI, H("3513")})
FAR = H("2410")
GTS = st.integers(1, 12)


def _v(**options: str) -> Variant:
    return CATALOGUE.variant("standard", options)


def _setup_stacks() -> dict[Hex, tuple[str, ...]]:
    stacks: dict[Hex, tuple[str, ...]] = {}
    for line in DATA.setup.at_start:
        for unit, h in line.place.items():
            stacks[h] = (*stacks.get(h, ()), unit)
    return stacks


JAPANESE_ONLY = {H("3512"): ("JP-SNLF1",), H("3611"): ("JP-SNLF3",), FAR: ("CH-3D",)}
START = initial_control(DATA)


def test_snc_4_1_2_shanghai_and_its_neighbours() -> None:
    """SNC-4.1.2, SNC-4.2.1: 3512 and the six hexes adjacent to it (3513 among them)."""
    expected = {"3512", "3511", "3513", "3411", "3412", "3611", "3612"}
    assert shanghai_ring(BOARD) == {H(h) for h in expected}


@settings(max_examples=30, deadline=None)
@given(gt=GTS)
def test_snc_4_1_1_chinese_control_of_3512_wins_at_any_time(gt: int) -> None:
    """SNC-4.1.1: the Chinese win at once when they control 3512, on any GT."""
    control = START - {SHANGHAI}
    outcome = sudden_victory(BOARD, DATA, {SHANGHAI: ("CH-87D",)}, control, gt, STANDARD)
    assert outcome is not None and outcome.winner == "CH" and outcome.clause == "SNC-4.1.1"
    assert sudden_victory(BOARD, DATA, JAPANESE_ONLY, START, gt, STANDARD) is None


@settings(max_examples=30, deadline=None)
@given(gt=GTS, where=st.sampled_from(RING))
def test_snc_4_1_2_from_gt_8_a_chinese_unit_next_to_shanghai_wins(gt: int, where: Hex) -> None:
    """SNC-4.1.2, AMB-SNC-14 (literal): on or after GT 8 a Chinese unit in a hex adjacent to
    3512 wins at once; before GT 8 it does not."""
    stacks = {SHANGHAI: ("JP-SNLF1",), where: ("CH-57D",)}
    outcome = sudden_victory(BOARD, DATA, stacks, START, gt, STANDARD)
    if gt >= 8:
        assert outcome is not None and outcome.winner == "CH" and outcome.clause == "SNC-4.1.2"
    else:
        assert outcome is None


def test_snc_4_1_2_amb_snc_14_the_literal_reading_wins_with_the_set_up() -> None:
    """SNC-4.1.2, AMB-SNC-14: read literally, Chinese units left next to Shanghai since the
    set-up win the moment GT 8 begins (the consequence the catalogue asks to document); under
    must_gain they win only by moving or advancing there."""
    stacks = _setup_stacks()
    outcome = sudden_victory(BOARD, DATA, stacks, START, 8, STANDARD)
    assert outcome is not None and outcome.clause == "SNC-4.1.2"
    gain = _v(gt8_adjacency="must_gain")
    assert sudden_victory(BOARD, DATA, stacks, START, 8, gain) is None
    moved = sudden_victory(BOARD, DATA, stacks, START, 8, gain, entered=[H("3411")])
    assert moved is not None and moved.clause == "SNC-4.1.2"
    assert sudden_victory(BOARD, DATA, stacks, START, 8, gain, entered=[FAR]) is None


def test_snc_4_1_2_sudden_death_units_statics() -> None:
    """SNC-4.1.2, SNC-4.2.1 (sudden_death_units, found here): the 3511 garrison alone next to
    3512 counts as a Chinese unit under any_unit, not under mobile_only."""
    stacks = {SHANGHAI: ("JP-SNLF1",), H("3511"): ("CH-G-J",)}
    assert chinese_near_shanghai(BOARD, DATA, stacks, STANDARD)
    mobile = _v(sudden_death_units="mobile_only")
    assert not chinese_near_shanghai(BOARD, DATA, stacks, mobile)
    assert sudden_victory(BOARD, DATA, stacks, START, 9, mobile) is None
    defeat = sudden_defeat(BOARD, DATA, stacks, 3, mobile)
    assert defeat is not None and defeat.clause == "SNC-4.2.1"


@settings(max_examples=30, deadline=None)
@given(gt=GTS)
def test_snc_4_2_1_no_chinese_unit_near_shanghai_by_gt_5_loses(gt: int) -> None:
    """SNC-4.2.1: from GT 1 to the end of GT 5, no Chinese unit in or next to 3512 is a
    Japanese win; later it is not."""
    outcome = sudden_defeat(BOARD, DATA, JAPANESE_ONLY, gt, STANDARD)
    if gt <= 5:
        assert outcome is not None and outcome.winner == "JP" and outcome.clause == "SNC-4.2.1"
    else:
        assert outcome is None
    kept = {**JAPANESE_ONLY, H("3612"): ("CH-57D",)}
    assert sudden_defeat(BOARD, DATA, kept, gt, STANDARD) is None


def test_snc_4_2_1_the_set_up_is_not_a_defeat() -> None:
    """SNC-4.2.1: the set-up has Chinese units next to 3512, so no game ends on GT 1."""
    assert sudden_death(BOARD, DATA, _setup_stacks(), START, 1, STANDARD) is None


@settings(max_examples=30, deadline=None)
@given(gt=GTS)
def test_snc_4_3_1_all_seven_cities_win_the_victory_check(gt: int) -> None:
    """SNC-4.3.1, SNC-4.3.2: the Japanese win the Victory Check when they control every city
    hex of the map; 3513 counts once the six others are theirs."""
    assert len(DATA.map.cities) == 7
    outcome = victory_check(BOARD, DATA, {}, CITIES, gt, STANDARD)
    assert outcome is not None and outcome.winner == "JP" and outcome.clause == "SNC-4.3.1"


@settings(max_examples=30, deadline=None)
@given(gt=st.integers(1, 11), missing=st.sampled_from(sorted(CITIES)))
def test_snc_4_3_1_one_city_short_is_no_win(gt: int, missing: Hex) -> None:
    """SNC-4.3.1: one city hex not Japanese (whichever), and play goes on before GT 12."""
    assert victory_check(BOARD, DATA, {}, CITIES - {missing}, gt, STANDARD) is None


def test_snc_4_3_3_gt_12_without_every_city_is_a_chinese_win() -> None:
    """SNC-4.3.3: at the GT 12 Victory Check, the Japanese short of a city lose; with all of
    them they win (SNC-4.3.1 first)."""
    short = CITIES - {FAR}
    outcome = victory_check(BOARD, DATA, {}, short, 12, STANDARD)
    assert outcome is not None and outcome.winner == "CH" and outcome.clause == "SNC-4.3.3"
    assert victory_check(BOARD, DATA, {}, short, 11, STANDARD) is None
    win = victory_check(BOARD, DATA, {}, CITIES, 12, STANDARD)
    assert win is not None and win.winner == "JP"


def test_snc_4_3_1_amb_snc_16_victory_control_occupation() -> None:
    """SNC-4.3.1, AMB-SNC-16 (iii): under victory_control=occupation the cities need Japanese
    units in them; hex control alone is not enough."""
    occupation = _v(victory_control="occupation")
    assert victory_check(BOARD, DATA, {}, CITIES, 5, occupation) is None
    stacks = {h: ("JP-G-A",) for h in CITIES}
    outcome = victory_check(BOARD, DATA, stacks, frozenset(), 5, occupation)
    assert outcome is not None and outcome.clause == "SNC-4.3.1"


def test_snc_4_4_1_a_win_is_a_win() -> None:
    """SNC-4.4.1: no gradations: every outcome names a winner and a clause, never points."""
    outcomes = [
        victory_check(BOARD, DATA, {}, CITIES, 3, STANDARD),
        victory_check(BOARD, DATA, {}, frozenset(), 12, STANDARD),
        sudden_defeat(BOARD, DATA, JAPANESE_ONLY, 2, STANDARD),
        sudden_victory(BOARD, DATA, {}, frozenset(), 4, STANDARD),
    ]
    for outcome in outcomes:
        assert outcome is not None and outcome.winner in ("CH", "JP")
        assert outcome.points == () and outcome.clause.startswith("SNC-4.")
