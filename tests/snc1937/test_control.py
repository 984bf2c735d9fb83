"""Hex control (SNC-3.2.x, SNC-4.3.2, SNC-0.0.1; AMB-SNC-16): the Japanese start with the two
hexes they occupy, control passes on entry, and 3513's control for victory is derived."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernel.hexes import Hex, parse_hex
from kernel.variants import Variant
from specs.snc1937.data.loader import load_data
from specs.snc1937.data.variants import CATALOGUE
from specs.snc1937.rules.board import Board
from specs.snc1937.rules.control import (
    ARRIVALS,
    after_arrival,
    after_move,
    controller,
    initial_control,
    initial_control_of,
    japanese_cities,
    settlement_counts_japanese,
    takes_control,
)

DATA = load_data()
BOARD = Board(DATA)
STANDARD = CATALOGUE.preset("standard")
LAND = sorted(h for h in DATA.map.hexes if BOARD.enterable(h))
SETTLEMENT = parse_hex("3513")
CITIES = sorted(h for h in DATA.map.cities if not BOARD.is_neutral(h))
H = parse_hex


def _v(**options: str) -> Variant:
    return CATALOGUE.variant("standard", options)


def _setup_stacks() -> dict[Hex, tuple[str, ...]]:
    stacks: dict[Hex, tuple[str, ...]] = {}
    for line in DATA.setup.at_start:
        for unit, h in line.place.items():
            stacks[h] = (*stacks.get(h, ()), unit)
    return stacks


def test_snc_3_2_1_the_japanese_start_with_3512_and_3611_only() -> None:
    """SNC-3.2.1: at the start the Japanese control only the two hexes they occupy, 3512 and
    3611; the Chinese control every other hex."""
    assert initial_control(DATA) == {H("3512"), H("3611")}
    assert initial_control_of(_setup_stacks(), DATA) == initial_control(DATA)
    control = initial_control(DATA)
    chinese = [h for h in DATA.map.hexes if controller(h, control) == "CH"]
    assert len(chinese) == len(DATA.map.hexes) - 2


def test_snc_3_2_2_control_switches_on_entry_as_often_as_it_happens() -> None:
    """SNC-3.2.2: a hex passes to the side whose unit enters it, back and forth."""
    control = initial_control(DATA)
    h = H("3511")
    control = after_arrival(control, "JP", [h], "move", STANDARD)
    assert controller(h, control) == "JP"
    control = after_arrival(control, "CH", [h], "advance", STANDARD)
    assert controller(h, control) == "CH"
    control = after_arrival(control, "JP", [h], "advance", STANDARD)
    assert controller(h, control) == "JP"
    back = after_arrival(control, "CH", [H("3512")], "move", STANDARD)
    assert controller(H("3512"), back) == "CH"


@pytest.mark.parametrize("how", ARRIVALS)
def test_snc_3_2_2_amb_snc_16_which_arrivals_enter(how: str) -> None:
    """SNC-3.2.2, AMB-SNC-16 (i): under control_entry=any_arrival every way of coming to be in
    a hex takes it; under movement_and_advance placement and retreat do not."""
    h = H("3510")
    control = initial_control(DATA)
    assert h in after_arrival(control, "JP", [h], how, STANDARD)
    strict = _v(control_entry="movement_and_advance")
    taken = h in after_arrival(control, "JP", [h], how, strict)
    assert taken == (how in ("move", "advance"))
    assert takes_control(how, strict) == taken


def test_snc_3_2_2_an_unknown_arrival_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown arrival"):
        takes_control("teleport", STANDARD)


def test_snc_3_2_2_a_move_takes_every_hex_it_enters() -> None:
    """SNC-3.2.2 (control_transit, found here): "whenever a ground unit ... enters the hex":
    every hex of the path under every_hex_entered, only the last under where_move_ends."""
    path = [H("3411"), H("3410"), H("3310")]
    control = initial_control(DATA)
    assert set(path) <= after_move(control, "JP", path, STANDARD)
    ends = after_move(control, "JP", path, _v(control_transit="where_move_ends"))
    assert ends == control | {H("3310")}
    assert after_move(control, "JP", [], STANDARD) == control


def test_snc_0_0_1_no_unit_enters_the_settlement() -> None:
    """SNC-0.0.1: 3513 is never entered, so no arrival puts it in the control set."""
    with pytest.raises(ValueError, match="no unit enters"):
        after_arrival(frozenset(), "JP", [SETTLEMENT], "move", STANDARD, BOARD)


@settings(max_examples=60, deadline=None)
@given(
    start=st.sets(st.sampled_from(LAND), max_size=20),
    arrivals=st.lists(
        st.tuples(
            st.sampled_from(("CH", "JP")),
            st.sampled_from(LAND),
            st.sampled_from(ARRIVALS),
        ),
        max_size=12,
    ),
)
def test_snc_3_2_3_only_the_hexes_entered_change_hands(
    start: set[Hex], arrivals: list[tuple[str, Hex, str]]
) -> None:
    """SNC-3.2.3, SNC-3.2.2: an arrival changes the control of the hex entered and of no other
    hex (a ZOC projected into a neighbour never does); the last side to enter holds it."""
    control = frozenset(start)
    last: dict[Hex, str] = {}
    for side, h, how in arrivals:
        after = after_arrival(control, side, [h], how, STANDARD, BOARD)
        assert after ^ control <= {h}
        control = after
        last[h] = side
    for h in LAND:
        expected = last.get(h, "JP" if h in start else "CH")
        assert controller(h, control) == expected


def test_snc_4_3_2_the_settlement_counts_when_every_other_city_is_japanese() -> None:
    """SNC-4.3.2, AMB-SNC-16 (ii): 3513 counts as Japanese-controlled exactly when every other
    city hex (from the map data) is."""
    assert SETTLEMENT in DATA.map.cities and len(DATA.map.cities) == 7
    assert not settlement_counts_japanese(BOARD, initial_control(DATA))
    all_but_one = frozenset(CITIES[:-1])
    assert not settlement_counts_japanese(BOARD, all_but_one)
    assert SETTLEMENT not in japanese_cities(BOARD, all_but_one)
    every = frozenset(CITIES)
    assert settlement_counts_japanese(BOARD, every)
    assert japanese_cities(BOARD, every) == frozenset(DATA.map.cities)
    assert controller(SETTLEMENT, every) == "CH"  # never entered (SNC-0.0.1)
