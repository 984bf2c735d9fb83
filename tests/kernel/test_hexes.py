"""Hex geometry: the printed-number convention the Nomonhan facts imply, distance, hexsides."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernel.errors import InvalidInput
from kernel.hexes import (
    Hex,
    hex_adjacent,
    hex_distance,
    hex_name,
    hex_neighbors,
    hexside,
    parse_hex,
    parse_hexside,
)

hexes = st.builds(Hex, st.integers(1, 30), st.integers(1, 30))


def test_nom_7_5_0302_touches_0201_and_0202() -> None:
    """NOM-7.5: the JA example needs 0302 adjacent to both 0201 and 0202."""
    assert hex_adjacent(parse_hex("0302"), parse_hex("0201"))
    assert hex_adjacent(parse_hex("0302"), parse_hex("0202"))


def test_nom_8_5_pontoon_hexes_0207_and_0308_touch() -> None:
    """NOM-8.5: the pontoon bridge spans a hexside, so 0207 and 0308 are adjacent."""
    assert hex_adjacent(parse_hex("0207"), parse_hex("0308"))
    assert not hex_adjacent(parse_hex("0207"), parse_hex("0306"))


def test_nom_9_21_0303_touches_0403() -> None:
    """NOM-9.21: a Soviet unit in 0303 attacks 0403, so they are adjacent."""
    assert hex_adjacent(parse_hex("0303"), parse_hex("0403"))


def test_odd_and_even_column_neighbours() -> None:
    odd = {hex_name(h) for h in hex_neighbors(parse_hex("0305"))}
    even = {hex_name(h) for h in hex_neighbors(parse_hex("0405"))}
    assert odd == {"0304", "0306", "0204", "0205", "0404", "0405"}
    assert even == {"0404", "0406", "0305", "0306", "0505", "0506"}


@given(hexes)
def test_parse_and_name_are_inverse(h: Hex) -> None:
    assert parse_hex(hex_name(h)) == h


@given(hexes, hexes)
def test_distance_one_exactly_for_neighbours_and_symmetric(a: Hex, b: Hex) -> None:
    assert (hex_distance(a, b) == 1) == (b in hex_neighbors(a))
    assert hex_distance(a, b) == hex_distance(b, a)
    assert hex_adjacent(a, b) == hex_adjacent(b, a)


@given(hexes, hexes, hexes)
def test_distance_is_a_metric(a: Hex, b: Hex, c: Hex) -> None:
    assert hex_distance(a, a) == 0
    assert hex_distance(a, c) <= hex_distance(a, b) + hex_distance(b, c)


@given(hexes)
def test_distance_two_ring_has_twelve_hexes(h: Hex) -> None:
    ring = {m for n in hex_neighbors(h) for m in hex_neighbors(n)} - {h, *hex_neighbors(h)}
    assert len(ring) == 12
    assert all(hex_distance(h, m) == 2 for m in ring)


def test_hexside_has_one_name_either_way() -> None:
    a, b = parse_hex("0207"), parse_hex("0308")
    assert hexside(a, b) == hexside(b, a) == parse_hexside("0308/0207")
    assert str(hexside(b, a)) == "0207/0308"


@pytest.mark.parametrize("text", ["", "302", "03020", "ab12", "03-2"])
def test_bad_hex_numbers_name_the_field(text: str) -> None:
    with pytest.raises(InvalidInput) as err:
        parse_hex(text, field="action.to")
    assert err.value.field == "action.to"


def test_hexside_of_non_adjacent_hexes_is_refused() -> None:
    with pytest.raises(InvalidInput):
        parse_hexside("0101/0303")
    with pytest.raises(InvalidInput):
        parse_hexside("0101")
