"""The variant catalogue covers every AMB-RKS entry, the optional recruiting rule and the gaps
found here; the `standard` preset takes the catalogue's kernel notes."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from specs.rattenkrieg.data.variants import CATALOGUE, PRESETS

CATALOGUED = [
    f"AMB-RKS-{n}"
    for n in (1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15, 16, 17, 18, 19, 20, 21, 23, 24, 25)
]
RULES = Path(__file__).resolve().parents[3] / "shared" / "rules"
# The clause and ambiguity IDs, copied from the shared rules index so the tests run anywhere;
# where the shared files are present, the copy is held equal to them.
IDS = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "rattenkrieg-ids.json").read_text("utf-8")
)


def _shared_ambiguities() -> list[str]:
    path = RULES / "ambiguities.md"
    if not path.exists():
        return list(IDS["ambiguities"])
    found = set(re.findall(r"### (AMB-RKS-\d+)", path.read_text(encoding="utf-8")))
    return sorted(found, key=lambda a: int(a[8:]))


def _shared_clauses() -> set[str]:
    path = RULES / "rattenkrieg.md"
    if not path.exists():
        return set(IDS["clauses"])
    return set(re.findall(r"^\| (RKS-[\d.]+) \|", path.read_text(encoding="utf-8"), flags=re.M))


@pytest.mark.parametrize("amb", CATALOGUED)
def test_every_catalogue_ambiguity_is_an_option(amb: str) -> None:
    options = [o for o in CATALOGUE.options if o.ambiguity == amb]
    assert options, f"{amb} has no option"
    assert all(len(o.readings) >= 2 for o in options)


def test_the_catalogue_lists_exactly_these_ambiguities() -> None:
    """If the shared catalogue gains an AMB-RKS entry, this test names it."""
    found = _shared_ambiguities()
    assert found == CATALOGUED == IDS["ambiguities"]


def test_rks_7_5_5_the_optional_recruiting_rule_is_an_option() -> None:
    """RKS-7.5.5: only the Soviet Army recruits, as an option of the standard rule RKS-7.5.1."""
    option = CATALOGUE.option("recruiting")
    assert {r.name for r in option.readings} == {"both", "soviet_only"}
    assert "RKS-7.5.5" in option.clauses
    assert PRESETS["standard"]["recruiting"] == "both"
    assert PRESETS["soviet_recruiting"]["recruiting"] == "soviet_only"
    differing = {o.name for o, _, _ in CATALOGUE.differing("standard", "soviet_recruiting")}
    assert differing == {"recruiting"}


def test_standard_takes_the_kernel_note_wherever_there_is_one() -> None:
    for option in CATALOGUE.options:
        notes = [r.name for r in option.readings if r.source.startswith("catalogue kernel note")]
        if notes:
            assert PRESETS["standard"][option.name] in notes, option.name


def test_every_reading_says_where_it_comes_from_and_cites_known_clauses() -> None:
    ids = _shared_clauses()
    assert ids == set(IDS["clauses"])
    for o in CATALOGUE.options:
        assert o.question and o.clauses
        assert set(o.clauses) <= ids, o.name
        for r in o.readings:
            assert r.summary and r.source
            assert set(r.clauses) <= ids, (o.name, r.name)
    without_amb = [o.name for o in CATALOGUE.options if o.ambiguity is None]
    assert set(without_amb) == {
        "discard_faces",
        "recruiting",
        "zero_steps",
        "assault_gun_on_panzer",
        "cardless_entry",
        "reattack_events",
        "reattack_effects",
        "t34_support_card",
        "refill_amount",
        "soviet_rear_entry",
        "rear_retreat_ban",
        "stuck_attacker",
        "isolation_choice",
        "recruiting_order",
    }


def test_what_the_discards_reveal_is_an_option_found_here() -> None:
    """RKS-3.3.3, RKS-8.5.1, RKS-8.7.1: the text never says discards lie face up, and cards
    are revealed only at judgement: `discard_faces` (found here, no catalogue entry) reads the
    pile as face up, face down, or face up only for cards the rules reveal; no preset lets the
    defender see an uncontested face-down card."""
    option = CATALOGUE.option("discard_faces")
    assert option.ambiguity is None and option.question.startswith("(found here)")
    assert {r.name for r in option.readings} == {"face_up", "face_down", "revealed_only"}
    assert all(r.clauses and r.source == "found here" for r in option.readings)
    assert {"RKS-8.5.1", "RKS-8.7.1"} <= set(option.clauses)
    assert {chosen["discard_faces"] for chosen in PRESETS.values()} == {"revealed_only"}
