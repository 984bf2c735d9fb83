"""The variant catalogue covers every NOM ambiguity and every clause where EN and JA differ."""

from __future__ import annotations

import pytest

from specs.nomonhan.data.variants import CATALOGUE, PRESETS

AMBIGUITIES = [
    f"AMB-NOM-{n}"
    for n in (2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23)
]

# Clauses the index marks "Differ", "JA only" or "EN only" with a rule effect, and the option
# that carries both readings.
DIFFERENCES = {
    "NOM-4.4": "tie",
    "NOM-4.5": "scoring",
    "NOM-4.6": "scoring",
    "NOM-5.4": "game_end",
    "NOM-5.5": "game_end",
    "NOM-8.5": "pontoon_users",
    "NOM-8.7": "pass_through",
    "NOM-9.3": "must_be_attacked",
    "NOM-9.14": "attacker_targets",
    "NOM-9.17": "artillery_frequency",
    "NOM-9.18": "artillery_adjacency",
    "NOM-9.19": "artillery_rules",
    "NOM-9.20": "artillery_rules",
    "NOM-9.28": "artillery_rules",
    "NOM-9.30": "advance_units",
    "NOM-9.33": "tank_advance_bridge",
    "NOM-OPT.1": "demolition",
    "NOM-OPT.2": "demolition",
    "NOM-OPT.3": "demolition",
    "NOM-OPT.5": "demolition_effect",
    "NOM-2.2": "tank_numbers",
}


@pytest.mark.parametrize("amb", AMBIGUITIES)
def test_every_catalogue_ambiguity_is_an_option(amb: str) -> None:
    options = [o for o in CATALOGUE.options if o.ambiguity == amb]
    assert options, f"{amb} has no option"
    assert all(len(o.readings) >= 2 for o in options)


@pytest.mark.parametrize(("clause", "option"), sorted(DIFFERENCES.items()))
def test_en_ja_differences_are_options_citing_the_clause(clause: str, option: str) -> None:
    """NOM-4.4, NOM-4.5, NOM-4.6, NOM-5.4, NOM-5.5, NOM-8.5, NOM-8.7, NOM-9.3, NOM-9.14,
    NOM-9.17, NOM-9.18, NOM-9.19, NOM-9.20, NOM-9.28, NOM-9.30, NOM-9.33, NOM-OPT.1 to
    NOM-OPT.5, NOM-2.2: each is an option whose readings the presets choose."""
    opt = CATALOGUE.option(option)
    cited = set(opt.clauses) | {c for r in opt.readings for c in r.clauses}
    assert clause in cited


def test_presets_differ_exactly_where_the_texts_do() -> None:
    differing = {o.name for o, _, _ in CATALOGUE.differing("ja", "en")}
    assert differing == {
        "tie",
        "game_end",
        "must_be_attacked",
        "artillery_adjacency",
        "artillery_rules",
        "pontoon_users",
        "demolition",
        "advance_units",
        "tank_advance_bridge",
        "pass_through",
    }
    sources = {o.name: {r.name: r.source for r in o.readings} for o in CATALOGUE.options}
    for name in differing:
        assert sources[name][PRESETS["ja"][name]] == "JA text"
        assert sources[name][PRESETS["en"][name]] == "EN text"


def test_every_reading_says_where_it_comes_from() -> None:
    for o in CATALOGUE.options:
        assert o.question and o.clauses
        for r in o.readings:
            assert r.summary and r.source
