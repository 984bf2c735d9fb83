"""Zones of control (SNC-7.x), on the shipped map."""

from __future__ import annotations

from collections.abc import Mapping

from kernel.hexes import Hex, parse_hex
from kernel.variants import Variant
from specs.snc1937.data.loader import load_data
from specs.snc1937.data.variants import CATALOGUE
from specs.snc1937.rules.board import Board
from specs.snc1937.rules.zoc import ezoc_hexes, zoc_hexes

DATA = load_data()
BOARD = Board(DATA)


def variant(**overrides: str) -> Variant:
    """Preset `standard` of the game's catalogue with `overrides`."""
    return CATALOGUE.variant("standard", overrides)


STANDARD = variant()


def h(text: str) -> Hex:
    return parse_hex(text)


def pos(**by_hex: str | tuple[str, ...]) -> Mapping[Hex, tuple[str, ...]]:
    """A position from keyword arguments like h3610="CH-3D"."""
    return {h(k[1:]): (v,) if isinstance(v, str) else v for k, v in by_hex.items()}


CH, CH2, JP, CH_STATIC = "CH-3D", "CH-6D", "JP-3D-1", "CH-G-WUSONG"


def test_units_exist() -> None:
    assert DATA.unit(CH).side == "CH" and DATA.unit(CH2).side == "CH"
    assert DATA.unit(JP).side == "JP" and not DATA.unit(JP).is_static
    assert DATA.unit(CH_STATIC).is_static


def test_snc_7_0_1_zoc_is_the_six_surrounding_hexes() -> None:
    """SNC-7.0.1: a unit in an open hex projects a ZOC into all six neighbours, and no further."""
    here = h("2707")  # marsh, no barrier hexsides
    zoc = zoc_hexes(BOARD, DATA, STANDARD, {here: (CH,)}, "CH")
    assert zoc == frozenset(BOARD.neighbors(here)) and len(zoc) == 6


def test_snc_7_0_2_static_units_project_zoc() -> None:
    """SNC-7.0.2: static units project a ZOC like infantry."""
    zoc = zoc_hexes(BOARD, DATA, STANDARD, {h("2707"): (CH_STATIC,)}, "CH")
    assert zoc == frozenset(BOARD.neighbors(h("2707")))


def test_snc_7_0_3_both_sides_project_into_the_same_hex() -> None:
    """SNC-7.0.3: opposing ZOCs may cover one hex at once, each with the same effect."""
    stacks = pos(h2707=CH, h2906=JP)
    both = zoc_hexes(BOARD, DATA, STANDARD, stacks, "CH") & zoc_hexes(
        BOARD, DATA, STANDARD, stacks, "JP"
    )
    assert h("2806") in both
    assert ezoc_hexes(BOARD, DATA, STANDARD, stacks, "JP") == zoc_hexes(
        BOARD, DATA, STANDARD, stacks, "CH"
    )


def test_snc_7_1_1_zoc_crosses_rivers_and_creeks() -> None:
    """SNC-7.1.1: ZOCs cross creek and (non-navigable) river hexsides, both ways."""
    assert BOARD.side_kind(h("3510"), h("3511")) == "creek"
    assert h("3511") in zoc_hexes(BOARD, DATA, STANDARD, pos(h3510=CH), "CH")
    rivers = [
        side
        for side, f in BOARD.map.sides.items()
        if f.kind == "river"
        and not f.navigable
        and not BOARD.is_city(side.a)
        and not BOARD.is_city(side.b)
    ]
    assert rivers
    for side in rivers:
        assert side.b in zoc_hexes(BOARD, DATA, STANDARD, {side.a: (CH,)}, "CH")
        assert side.a in zoc_hexes(BOARD, DATA, STANDARD, {side.b: (JP,)}, "JP")


def test_snc_7_1_2_no_zoc_into_a_city() -> None:
    """SNC-7.1.2: no ZOC extends into a city hex (3611 from 3610; Suzhou 2410)."""
    zoc = zoc_hexes(BOARD, DATA, STANDARD, pos(h2411=CH), "CH")
    assert h("2410") in BOARD.neighbors(h("2411")) and BOARD.is_city(h("2410"))
    assert h("2410") not in zoc


def test_snc_7_1_2_city_zoc_projects_out_by_default() -> None:
    """SNC-7.1.2 / AMB-SNC-18: under projects_out a unit in a city projects a ZOC outward;
    under none it projects nothing."""
    stacks = pos(h2410=CH)
    assert h("2411") in zoc_hexes(BOARD, DATA, STANDARD, stacks, "CH")
    assert not zoc_hexes(BOARD, DATA, variant(city_zoc="none"), stacks, "CH")


def test_snc_7_1_3_no_zoc_across_all_lake_hexsides() -> None:
    """SNC-7.1.3: no ZOC across an all-lake (or all-sea) hexside."""
    lake = [side for side, f in BOARD.map.sides.items() if f.kind == "all_lake"]
    assert lake
    for side in lake:
        zoc = zoc_hexes(BOARD, DATA, STANDARD, {side.a: (CH,)}, "CH")
        assert side.b not in zoc


def test_snc_7_1_4_no_zoc_across_navigable_huangpu() -> None:
    """SNC-7.1.4: no ZOC across the navigable Huangpu, in either direction."""
    for side, f in BOARD.map.sides.items():
        if f.navigable:
            assert side.b not in zoc_hexes(BOARD, DATA, STANDARD, {side.a: (JP,)}, "JP")
            assert side.a not in zoc_hexes(BOARD, DATA, STANDARD, {side.b: (JP,)}, "JP")


def test_snc_7_1_5_chinese_zoc_not_into_japanese_coast_under_gunfire() -> None:
    """SNC-7.1.5: a Chinese ZOC does not reach a coastal hex within the Naval Gunfire Line held
    by Japanese units; it does reach it when empty, and the Japanese ZOC is not affected."""
    assert BOARD.in_naval_gunfire_line(h("3510"))
    empty = zoc_hexes(BOARD, DATA, STANDARD, pos(h3610=CH), "CH")
    held = zoc_hexes(BOARD, DATA, STANDARD, pos(h3610=CH, h3510=JP), "CH")
    assert h("3510") in empty and h("3510") not in held
    # not in the Naval Gunfire Line: the Japanese unit is in the ZOC as usual
    assert not BOARD.in_naval_gunfire_line(h("2806"))
    assert h("2806") in zoc_hexes(BOARD, DATA, STANDARD, pos(h2707=CH, h2806=JP), "CH")
    # the Japanese ZOC into a Chinese coastal hex is not reduced
    assert h("3610") in zoc_hexes(BOARD, DATA, STANDARD, pos(h3610=CH, h3510=JP), "JP")


def test_snc_7_1_6_example_3610() -> None:
    """SNC-7.1.6: the Chinese unit (in 3610) projects no ZOC into 3611 (city) or 3609, 3710,
    3711 (across the Huangpu); with a Japanese unit in 3510 not into 3510 either. It does
    project into 3511."""
    zoc = zoc_hexes(BOARD, DATA, STANDARD, pos(h3610=CH), "CH")
    for name in ("3611", "3609", "3710", "3711"):
        assert h(name) not in zoc, name
    assert zoc == {h("3510"), h("3511")}
    with_jp = zoc_hexes(BOARD, DATA, STANDARD, pos(h3610=CH, h3510=JP), "CH")
    assert with_jp == {h("3511")}


def test_snc_7_2_2_friendly_units_do_not_negate_ezoc() -> None:
    """SNC-7.2.2: a friendly unit standing in an EZOC hex does not cancel it."""
    alone = ezoc_hexes(BOARD, DATA, STANDARD, pos(h2707=CH), "JP")
    with_friend = ezoc_hexes(BOARD, DATA, STANDARD, pos(h2707=CH, h2806=JP), "JP")
    assert h("2806") in alone and h("2806") in with_friend
