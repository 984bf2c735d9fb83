"""Every AMB-SHU entry of the catalogue is an option with readings; preset `draft` follows the
kernel notes; the silent points found here are marked (AMB-SHU-1 to AMB-SHU-30; SHU-SEQ.2)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from specs.shumshu.data.variants import CATALOGUE, DRAFT, SILENT

CATALOGUE_FILE = Path(__file__).resolve().parents[3] / "shared" / "rules" / "ambiguities.md"
ENTRIES = [f"AMB-SHU-{n}" for n in (*range(1, 29), 30)]
FOUND_HERE = {
    "landing_size",
    "worst_roll_opposed",
    "press_landings",
    "resolution_order",
    "retreat_together",
    "victors",
    "hex33_blocked",
    "reinforcement_moves",
    "defender_count",
    "rgt_obligation",
    "road_path",
    # choices the first build made silently, made options afterwards
    "landing_obligation",
    "decoy_discovery",
    "ship_load",
    "sunk_passengers",
    "eliminated_face",
    "friendly_landing",
    "lander_order",
    "decoy_return_moves",
    "landing_swamp",
    "decoy_return_blocked",
    "decoy_return_compulsory",
    "decoy_return_order",
    "replace_lost",
    "landing_turns",
}
NOTE_SILENT = {"reform": "text, read literally", "decoy_return": "found here"}
"""Catalogue options on a point whose kernel note decides nothing (AMB-SHU-10 iv): draft reads
the text literally. `decoy_return` (AMB-SHU-21 iii): draft departs from the kernel note's empty
hex, which would tell the Russians which counter is the returning decoy (SHU-COMBAT.5); the
option's question argues it (tests/shumshu/test_hidden_history.py)."""


def test_the_entries_listed_are_the_catalogues() -> None:
    if not CATALOGUE_FILE.exists():
        pytest.skip("the shared catalogue is not beside this checkout")
    text = CATALOGUE_FILE.read_text(encoding="utf-8")
    assert sorted(set(re.findall(r"### (AMB-SHU-\d+)", text))) == sorted(ENTRIES)


@pytest.mark.parametrize("amb", ENTRIES)
def test_every_catalogue_entry_is_an_option(amb: str) -> None:
    options = [o for o in CATALOGUE.options if o.ambiguity == amb]
    assert options, f"{amb} has no option"
    assert all(len(o.readings) >= 2 for o in options)


def test_shu_seq_2_the_game_length_is_an_option() -> None:
    """SHU-SEQ.2, AMB-SHU-2: the length and the AM/PM structure are options."""
    assert {r.name for r in CATALOGUE.option("game_length").readings} >= {"three_days", "two_days"}
    assert CATALOGUE.option("turn_structure").ambiguity == "AMB-SHU-2"


def test_draft_follows_the_kernel_notes() -> None:
    """Preset `draft` reads every catalogue option as the catalogue's kernel note says, and
    every found-here option by its first reading."""
    for o in CATALOGUE.options:
        chosen = o.reading(DRAFT[o.name])
        if o.ambiguity is not None:
            assert chosen.source == NOTE_SILENT.get(o.name, "catalogue kernel note"), o.name
        else:
            assert chosen == o.readings[0]


def test_options_found_here_are_marked() -> None:
    found = {o.name for o in CATALOGUE.options if o.ambiguity is None}
    assert found == FOUND_HERE
    for o in CATALOGUE.options:
        assert o.question.endswith("(found here)") == (o.ambiguity is None)


def test_every_reading_says_where_it_comes_from() -> None:
    for o in CATALOGUE.options:
        assert o.question and o.clauses and all(c.startswith("SHU-") for c in o.clauses)
        for r in o.readings:
            assert r.summary and r.source


def test_the_options_added_for_silent_choices_cite_clauses_in_every_reading() -> None:
    """The options made from the first build's silent choices: each reading names its clauses
    and its source; a draft reading keeps the build's behaviour (tests in
    test_silent_choices.py)."""
    for o in SILENT:
        for r in o.readings:
            assert r.clauses and all(c.startswith("SHU-") for c in r.clauses), (o.name, r.name)
            assert r.source in ("found here", "catalogue kernel note", "text, read literally")
