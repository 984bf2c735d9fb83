"""The map's hexes the text names and the features it states (cities, the International
Settlement, landing sites, the Huangpu, railroads, the examples' hexes), against the data."""

from __future__ import annotations

from pathlib import Path

import pytest

from kernel.hexes import hex_adjacent, hex_neighbors, parse_hex
from specs.snc1937.formal.facts import NAMED_HEXES
from tests.snc1937.datafiles import BOARD, DATA, edited, failed, results

H = parse_hex


def test_snc_2_1_3_every_named_hex_is_a_land_hex_of_the_map() -> None:
    """SNC-2.1.3 (every hex has a four-digit number), SNC-13.1 to SNC-13.33, SNC-7.1.6,
    SNC-9.6.9, SNC-0.0.1: each of the 32 hex numbers the text names is on the map and is land a
    unit may enter; 3513 is land but neutral."""
    assert len(NAMED_HEXES) == 32
    for text in NAMED_HEXES:
        h = H(text)
        assert BOARD.on_map(h) and BOARD.is_land(h), text
        assert BOARD.enterable(h) == (text != "3513"), text
    checked = [r for r in results() if " is a land hex of the map" in r.statement]
    assert len(checked) == 32 and all(r.ok for r in checked)


def test_snc_4_3_1_seven_cities_including_the_texts_four() -> None:
    """SNC-4.3.1: seven city hexes; SNC-2.1.3 Suzhou 2410, SNC-4.1.1 Shanghai 3512, SNC-4.3.2
    3513 and SNC-7.1.6 3611 are among them. The other three (0202 Nanking, 1824 Hangzhou, 1102)
    are provisional (AMB-SNC-17)."""
    cities = {str(h): c for h, c in DATA.map.cities.items()}
    assert len(cities) == 7
    assert {"2410", "3512", "3513", "3611"} <= set(cities)
    assert cities["2410"].name == "Suzhou" and cities["3512"].name == "Shanghai"
    provisional = {h for h, c in cities.items() if c.provenance.is_provisional}
    assert provisional == {"0202", "1102", "1824"}


def test_snc_0_0_1_the_international_settlement() -> None:
    """SNC-0.0.1: 3513 is the neutral International Settlement, a city hex (SNC-4.3.2) in
    Shanghai, next to 3512; no unit sets up or arrives there."""
    settlement = DATA.map.cities[H("3513")]
    assert settlement.neutral and BOARD.is_neutral(H("3513")) and not BOARD.enterable(H("3513"))
    assert [h for h, c in DATA.map.cities.items() if c.neutral] == [H("3513")]
    assert hex_adjacent(H("3512"), H("3513"))
    starts = {h for a in DATA.setup.at_start for h in a.place.values()}
    arrivals = {h for r in DATA.setup.reinforcements for h in r.hexes}
    assert H("3513") not in starts | arrivals


def test_snc_7_1_6_the_huangpu_around_3610() -> None:
    """SNC-7.1.6: from 3610 the navigable Huangpu separates 3609, 3710 and 3711; 3611 is a
    city; 3510 and 3511 are across plain hexsides, and 3510 is a coastal hex within the Japanese
    Naval Gunfire Line (SNC-7.1.5)."""
    at = H("3610")
    assert {str(n) for n in hex_neighbors(at)} == {"3609", "3611", "3510", "3511", "3710", "3711"}
    assert all(BOARD.navigable(at, H(t)) for t in ("3609", "3710", "3711"))
    assert BOARD.side(at, H("3510")) is None and BOARD.side(at, H("3511")) is None
    assert BOARD.is_city(H("3611"))
    assert BOARD.is_coastal(H("3510")) and BOARD.in_naval_gunfire_line(H("3510"))
    assert DATA.map.naval_gunfire_line <= DATA.map.coastal


def test_snc_8_4_0_3_landing_sites() -> None:
    """SNC-8.4.0.3: reinforcements land next to landing hexes marked by arrows. The text names
    3308, 3408, 3509, 3510, 3610 (SNC-13.28, SNC-13.29), 3417 (SNC-13.32) and 3004 (SNC-13.33);
    every landing hex is coastal land with its arrow from the water or across the navigable
    Huangpu, which is how Wusong 3510 and 3610 are reached."""
    named = {"3004", "3308", "3408", "3509", "3510", "3610", "3417"}
    landings = {str(h) for h in DATA.map.landings}
    assert named <= landings and len(landings) == 14
    for h in DATA.map.landings:
        assert BOARD.is_coastal(h) and BOARD.enterable(h) and BOARD.arrow_from_water(h), h
    assert BOARD.navigable(H("3510"), H("3609"))
    assert not any(BOARD.is_water(n) for n in BOARD.neighbors(H("3510")))


def test_snc_9_5_2_2_and_8_2_4_the_rail_net() -> None:
    """SNC-9.5.2.2: Chinese railroad movement starts at Nanking 0202 or Hangzhou 1824, so both
    are railroad hexes on one net; SNC-8.2.4: that net reaches railroad hexes on the west (0103)
    and south (1825) map edges. Suzhou 2410 and Shanghai 3512 are on it too (provisional)."""
    reach = BOARD.rail_reach(H("0202"))
    assert H("1824") in reach and H("2410") in reach and H("3512") in reach
    edges = {str(h) for h in reach if BOARD.on_west_edge(h) or BOARD.on_south_edge(h)}
    assert edges == {"0103", "1825"}
    # a blocked hex cuts the net: without 2318 and 3512 Hangzhou is cut off from Nanking
    assert H("1824") not in BOARD.rail_reach(H("0202"), avoid=frozenset({H("2318"), H("3512")}))


def test_snc_9_6_9_the_overrun_examples_hexes() -> None:
    """SNC-9.6.9: Chang Sho 2606 is a town in a marsh hex; 2707 is marsh, neither town nor city
    (so it may be overrun: cities and towns may not be), between 2806 and 2606; the 3rd
    Division moves along a road into 2706, next to 2606."""
    assert BOARD.is_town(H("2606")) and BOARD.terrain(H("2606")) == "marsh"
    assert BOARD.terrain(H("2707")) == "marsh"
    assert not BOARD.is_town(H("2707")) and not BOARD.is_city(H("2707"))
    assert hex_adjacent(H("2806"), H("2707")) and hex_adjacent(H("2707"), H("2606"))
    assert hex_adjacent(H("2706"), H("2606")) and BOARD.road(H("2806"), H("2706"))
    assert BOARD.side(H("2806"), H("2707")) is None  # the 11th attacks at its full 10


def test_section_12_map_facts() -> None:
    """Section 12 (no clauses): Loudian 3208 and 3410 are towns; creeks separate Wusong 3510
    from 3511 and 3410 (the 3rd Division's attacks are halved); 3308 attacks 3208 at full
    strength; Wusong Creek exists; 3612 is across the Huangpu from 3512. Kept provisional."""
    assert BOARD.is_town(H("3208")) and BOARD.is_town(H("3410"))
    assert BOARD.side_kind(H("3510"), H("3511")) == "creek"
    assert BOARD.side_kind(H("3510"), H("3410")) == "creek"
    assert BOARD.side(H("3308"), H("3208")) is None
    assert any(f.name == "Wusong Creek" for f in DATA.map.sides.values())
    assert BOARD.navigable(H("3512"), H("3612"))
    assert DATA.map.towns[H("3208")].provenance.is_provisional
    example = [r for r in results() if r.clause.startswith("§12")]
    assert len(example) >= 15 and all(r.ok for r in example)


def test_snc_9_4_6_prohibited_hexes_and_routes() -> None:
    """SNC-9.4.6: no unit enters 3513, all-sea, all-lake or estuary hexes or crosses Yangtze
    hexsides; SNC-9.3.3: the Yangtze is an in-hex terrain. The map has all four water types,
    and no road, railroad, set-up or entry hex is in one."""
    water = {t for t in DATA.map.terrain.values() if t in DATA.tec.prohibited_terrain}
    assert water == {"yangtze", "estuary", "sea", "lake"}
    for route in DATA.map.roads + DATA.map.railroads:
        assert all(BOARD.enterable(h) for h in route.hexes), route.name
    assert BOARD.terrain(H("0201")) == "yangtze" and BOARD.terrain(H("3508")) == "estuary"


def test_snc_1_1_1_and_5_0_1_scale_and_turn_track() -> None:
    """SNC-1.1.1: a hex is 7 miles (11 km) across, a GT about two weeks; SNC-5.0.1: twelve GTs,
    so the turn track has 12 boxes."""
    m = DATA.map
    assert (m.hex_miles, m.hex_km, m.turn_weeks, m.turn_boxes) == (7, 11, 2, 12)


def test_the_provisional_map_extent_holds_every_named_hex() -> None:
    """SNC-2.1.3: the grid (provisional, 42 columns by 25 rows) is complete: every hex has a
    terrain, and the named hexes span columns 01-37 and rows 02-24 inside it."""
    m = DATA.map
    assert (m.columns, m.rows) == ((1, 42), (1, 25)) and len(m.hexes) == 42 * 25
    assert set(m.terrain) == set(m.hexes)
    cols = [H(t).col for t in NAMED_HEXES]
    rows = [H(t).row for t in NAMED_HEXES]
    assert (min(cols), max(cols), min(rows), max(rows)) == (1, 37, 2, 24)


@pytest.mark.parametrize(
    ("edits", "expected"),
    [
        # Suzhou's city record moved off 2410
        ([('hex = "2410"\nname = "Suzhou"', 'hex = "2409"\nname = "Suzhou"')], {"SNC-2.1.3"}),
        # the International Settlement no longer neutral
        ([("neutral = true\n", "")], {"SNC-0.0.1"}),
        # a Huangpu hexside of the ZOC example lost (3610's landing arrow crossed it too)
        ([('"3609/3610", ', "")], {"SNC-7.1.6", "SNC-8.4.0.3"}),
        # the overrun example's marsh
        ([('terrain = "marsh"\nsource = "SNC-9.6.9"', 'terrain = "woods"\nsource = "SNC-9.6.9"')],
         {"SNC-9.6.9"}),
        # the section 12 creek at Wusong
        ([('sides = ["3510/3511", "3410/3510"]', 'sides = ["3410/3510"]')], {"§12 GT 3"}),
        # both edge railroads cut short
        (
            [('hexes = ["0202", "0103"]', 'hexes = ["0202", "0203"]'),
             ('hexes = ["1824", "1825"]', 'hexes = ["1824", "1724"]')],
            {"SNC-8.2.4"},
        ),
        # 3510 taken out of the Naval Gunfire Line
        ([('"3509", "3510", ', '"3509", ')], {"SNC-7.1.6"}),
    ],
)  # fmt: skip
def test_snc_map_a_wrong_transcription_fails_its_clause(
    tmp_path: Path, edits: list[tuple[str, str]], expected: set[str]
) -> None:
    """SNC-2.1.3, SNC-0.0.1, SNC-7.1.6, SNC-9.6.9, SNC-8.2.4 and section 12: a map file that
    breaks a fact the text states fails exactly that fact's clause."""
    assert failed(edited(tmp_path, "map.toml", *edits)) == expected
