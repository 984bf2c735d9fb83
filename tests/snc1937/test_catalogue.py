"""Every AMB-SNC entry of the catalogue is an option with readings; preset `standard` follows
the kernel notes with the errata box applied, `printed` differs from it exactly where the
errata box changes the printed TEC or CRT (SNC-0.0.3, SNC-0.0.4; AMB-SNC-1 to AMB-SNC-44)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kernel.errors import InvalidInput
from specs.snc1937.data.variants import CATALOGUE, ERRATA_CHANGES, PRINTED, STANDARD

SHARED = Path(__file__).resolve().parents[3] / "shared" / "rules"
AMBIGUITIES = SHARED / "ambiguities.md"
CLAUSES = SHARED / "snc1937.md"
ENTRIES = [f"AMB-SNC-{n}" for n in range(1, 45) if n != 39]
SOURCES = {
    "catalogue kernel note",
    "catalogue reading",
    "text, read literally",
    "errata box",
    "found here",
    "example of play",
}
FOUND_HERE = {
    "crt_5to1_six",
    "snlf_partial_division",
    "overstack_cull",
    "control_transit",
    "sudden_death_units",
    "yangtze_hexside_combat",
    "estuary_is_yangtze",
    "naval_inland_basis",
    "landing_halving_base",
    "ngl_zoc_entry",
    "overrun_repeat_cost",
    "snlf_loc_target",
    "rail_start_in_ezoc",
    "landing_split",
    "overrun_entry",
    "road_creek_scope",
    "attackers_seen",
    "landing_fire_support",
    "marker_arrival",
    "elite_return_ban",
    "elite_return_move",
    "tenth_army_unopposed",
    "tenth_army_delay",
    "landing_defended_once",
}
# The option names and readings other parts of the SNC code are written against.
AGREED = {
    "town_marsh_woods": ("two_left", "one_left"),
    "odds_limits": ("clamp_after_shifts", "clamp_before_shifts"),
    "terrain_cap_scope": ("in_hex_only", "all_shifts"),
    "unstated_terrain": ("no_effect", "tec_data"),
    "crt_5to1_six": ("errata", "printed"),
    "reinforcement_delay": ("delayable", "mandatory"),
    "fire_support_refresh": ("each_operations_phase", "each_player_turn", "first_phase_only"),
    "stacking_check": ("combat_hexes", "global"),
    "reinforcement_stacking": ("exempt_until_next_check", "checked_on_placement"),
    "japanese_stack": ("five_any", "division_plus_one"),
    "static_de": ("zero", "by_size"),
    "retreat_into_ezoc": ("allowed", "forbidden"),
    "landing_unpaid_losses": ("ignored", "attackers_stay_at_sea"),
    "landing_halving": ("total", "per_unit"),
    "gt8_adjacency": ("literal", "must_gain"),
    "sudden_defeat_timing": ("after_each_action", "after_each_move", "end_of_phase"),
    "control_entry": ("any_arrival", "movement_and_advance"),
    "city_zoc": ("projects_out", "none"),
    "japanese_loc": ("blocked_by_units_and_zoc", "blocked_by_units"),
    "replacement_targets": ("any_two_step", "regiments_only"),
    "chinese_rail": ("one_mechanism", "two_mechanisms"),
    "chinese_roads": ("no_bonus", "half_mp"),
    "road_and_creek": ("roads_keep_creek_cost", "roads_negate_creek"),
    "overrun_cost": ("entry_plus_one", "one_mp"),
    "overrun_from_ezoc": ("allowed", "forbidden"),
    "repeated_overruns": ("exempt", "once_per_hex"),
    "concentric": ("directions", "empty_between"),
    "loss_order": ("two_step_first", "strongest_first"),
    "interdiction_removal": ("at_least_smallest_overshoot", "at_most_roll"),
    "chinese_air": ("unlimited", "once_per_phase"),
    "naval_gunfire_adjacent": ("either", "defender_hex", "attacker_hex"),
    "static_steps": ("counter_data", "elite_only"),
    "snlf9_arrival": ("placed", "landing"),
    "reinforcement_actions": ("second_phase_order", "may_move_twice"),
    "fog_fire_support": ("reveal_then_support", "support_then_reveal"),
    "east_of_32xx": ("columns", "rows"),
    "stack_movement": ("stacks", "units_only"),
}


def _shared(path: Path) -> str:
    if not path.exists():
        pytest.skip("the shared rules files are not beside this checkout")
    return path.read_text(encoding="utf-8")


def test_the_entries_listed_are_the_catalogues() -> None:
    """The AMB-SNC headings of the ambiguity catalogue are AMB-SNC-1 to 44 without 39."""
    text = _shared(AMBIGUITIES)
    found = set(re.findall(r"^### (AMB-SNC-\d+)", text, flags=re.MULTILINE))
    assert sorted(found) == sorted(ENTRIES)


def test_every_catalogue_entry_is_an_option() -> None:
    """Each AMB-SNC heading of the catalogue names at least one option."""
    text = _shared(AMBIGUITIES)
    entries = set(re.findall(r"^### (AMB-SNC-\d+)", text, flags=re.MULTILINE))
    covered = {o.ambiguity for o in CATALOGUE.options}
    assert entries <= covered, sorted(entries - covered)
    assert {a for a in covered if a is not None} <= entries


@pytest.mark.parametrize("name", sorted(AGREED))
def test_the_agreed_names_and_readings(name: str) -> None:
    """The names the rules code asks for exist, with these readings in this order (the first
    is `standard`'s)."""
    option = CATALOGUE.option(name)
    assert tuple(r.name for r in option.readings) == AGREED[name]
    assert STANDARD[name] == AGREED[name][0]


def test_every_option_has_two_readings_with_sources() -> None:
    for o in CATALOGUE.options:
        assert o.question and o.clauses, o.name
        assert len(o.readings) >= 2, o.name
        assert len({r.name for r in o.readings}) == len(o.readings), o.name
        for r in o.readings:
            assert r.summary and r.source in SOURCES, (o.name, r.name)


def test_each_preset_chooses_every_option() -> None:
    names = {o.name for o in CATALOGUE.options}
    for preset in ("standard", "printed"):
        chosen = dict(CATALOGUE.preset(preset).choices)
        assert set(chosen) == names
        for option, reading in chosen.items():
            CATALOGUE.option(option).reading(reading)
    assert CATALOGUE.variant(None).preset == "standard"


def test_standard_reads_each_first_reading_the_kernel_notes_and_the_errata() -> None:
    """`standard` follows the catalogue's kernel notes, the errata box where it decides
    (SNC-0.0.3, SNC-0.0.4), the text where the note decides nothing (colour), and a found-here
    option's first reading."""
    for o in CATALOGUE.options:
        chosen = o.reading(STANDARD[o.name])
        assert chosen == o.readings[0]
        if o.ambiguity is None:
            assert chosen.source in ("found here", "text, read literally", "errata box")
        else:
            sources = ("catalogue kernel note", "errata box", "text, read literally")
            # AMB-SNC-32: the one note the example of play overrules (see the option's text)
            example = o.name == "naval_gunfire_adjacent" and chosen.source == "example of play"
            assert chosen.source in sources or example, o.name


def test_snc_0_0_4_printed_differs_from_standard_exactly_where_the_errata_box_changes() -> None:
    """SNC-0.0.3, SNC-0.0.4: the errata box changes the TEC's town in marsh or woods and the CRT
    cell 5:1 die 6; `printed` reads those as printed and everything else as `standard`."""
    differing = {o.name: (a, b) for o, a, b in CATALOGUE.differing("standard", "printed")}
    assert differing == {
        "crt_5to1_six": ("errata", "printed"),
        "town_marsh_woods": ("two_left", "one_left"),
    }
    assert {k: PRINTED[k] for k in ERRATA_CHANGES} == ERRATA_CHANGES
    for name in differing:
        errata = CATALOGUE.option(name).reading(STANDARD[name])
        assert errata.source == "errata box"
        assert set(errata.clauses) & {"SNC-0.0.3", "SNC-0.0.4"}


def test_snc_0_0_3_the_town_reading_cites_both_errata() -> None:
    """SNC-0.0.3 (2L, the errata box) against SNC-10.4.1.6 (1L, the 10.4.1 Map Errata)."""
    option = CATALOGUE.option("town_marsh_woods")
    assert option.ambiguity == "AMB-SNC-1"
    assert "SNC-0.0.3" in option.reading("two_left").clauses
    assert "SNC-10.4.1.6" in option.reading("one_left").clauses


def test_options_found_here_are_marked() -> None:
    found = {o.name for o in CATALOGUE.options if o.ambiguity is None}
    assert found == FOUND_HERE
    for o in CATALOGUE.options:
        assert o.question.endswith("(found here)") == (o.ambiguity is None)


def test_data_only_options_name_the_data_that_decides() -> None:
    """AMB-SNC-17, 24, 34, 36: no rule reads them; the question names the data file."""
    for name in ("city_list", "yangtze_form", "japanese_colour", "garrison_letters"):
        question = CATALOGUE.option(name).question
        assert "No rule reads this option" in question or "no rule reads" in question, name
        assert ".toml" in question or "counter data" in question, name


def test_every_clause_cited_exists_in_the_clause_index() -> None:
    """Clause IDs cited by options and readings are clauses of the SNC index."""
    index = set(re.findall(r"^\| (SNC-[\d.]+) \|", _shared(CLAUSES), flags=re.MULTILINE))
    assert len(index) > 250
    cited = {c for o in CATALOGUE.options for c in o.clauses}
    cited |= {c for o in CATALOGUE.options for r in o.readings for c in r.clauses}
    assert cited <= index, sorted(cited - index)


def test_snc_0_0_5_printed_town_reading_is_the_red_errata_not_the_blue_example() -> None:
    """SNC-0.0.5: red text (errata) outranks blue (examples). Without the errata box, the
    10.4.1 Map Errata (1L, SNC-10.4.1.6) beats the 10.4.1 example (2L, SNC-10.4.1.5), so
    `printed` reads a town in marsh or woods as 1L."""
    assert PRINTED["town_marsh_woods"] == "one_left"
    one_left = CATALOGUE.option("town_marsh_woods").reading("one_left")
    assert "SNC-10.4.1.6" in one_left.clauses and "SNC-10.4.1.5" not in one_left.clauses


@pytest.mark.parametrize(
    ("option", "reading"),
    [
        ("captured_city_garrison", "unlimited"),
        ("non_combat_losses", "combat_only"),
        ("city_list", "other_candidates"),
        ("garrison_letters", "player_choice"),
    ],
)
def test_amb_snc_17_36_37_41_readings_without_a_procedure_are_refused(
    option: str, reading: str
) -> None:
    """AMB-SNC-37 (SNC-9.1.3), AMB-SNC-41 (SNC-2.2.1.15), AMB-SNC-17 (SNC-4.3.1: the map data
    holds one city list) and AMB-SNC-36 (SNC-13.5: the set-up data places the letters, no
    set-up action lets a player): the catalogue lists both readings, but the rules cannot
    play them yet, so choosing one is refused with the field and the reason, never silently
    played as the other reading."""
    assert CATALOGUE.option(option).reading(reading).unplayed
    with pytest.raises(InvalidInput) as err:
        CATALOGUE.variant("standard", {option: reading})
    assert err.value.field == f"variant.options.{option}"
    assert "not played" in str(err.value)
