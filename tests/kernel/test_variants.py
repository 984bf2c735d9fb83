"""Variants: options with readings, presets, overrides and their errors."""

from __future__ import annotations

import pytest

from kernel.errors import InvalidInput
from kernel.variants import Catalogue, Option, Reading, consultations

CAT = Catalogue(
    game="toy",
    options=(
        Option(
            "tie",
            "Who wins a tie?",
            ("X-1",),
            (Reading("a", "A", "text"), Reading("b", "B", "text")),
        ),
        Option("end", "When?", ("X-2",), (Reading("early", "", "t"), Reading("late", "", "t"))),
    ),
    presets={"one": {"tie": "a", "end": "early"}, "two": {"tie": "b", "end": "early"}},
    default_preset="one",
)


def test_preset_and_override() -> None:
    assert CAT.preset("two").reading("tie") == "b"
    changed = CAT.variant("one", {"end": "late"})
    assert changed.preset is None and changed.is_("end", "late")
    same = CAT.variant("one", {"end": "early"})
    assert same.preset == "one" and same == CAT.preset("one")
    assert hash(same) == hash(CAT.preset("one"))


def test_unknown_preset_option_and_reading_name_the_field() -> None:
    with pytest.raises(InvalidInput) as e1:
        CAT.preset("three")
    assert e1.value.field == "variant"
    with pytest.raises(InvalidInput) as e2:
        CAT.variant("one", {"nope": "a"})
    assert e2.value.field == "variant.options.nope"
    with pytest.raises(InvalidInput) as e3:
        CAT.variant("one", {"tie": "c"})
    assert e3.value.field == "variant.options.tie" and e3.value.clauses == ("X-1",)


def test_variant_json_round_trip() -> None:
    v = CAT.variant("two", {"end": "late"})
    assert CAT.variant_from_json(v.to_json()) == v
    assert CAT.variant_from_json("one") == CAT.preset("one")
    with pytest.raises(InvalidInput):
        CAT.variant_from_json(42)


def test_presets_must_choose_every_option() -> None:
    with pytest.raises(ValueError):
        Catalogue(game="bad", options=CAT.options, presets={"p": {"tie": "a"}})


def test_differing_lists_options_read_differently() -> None:
    assert [(o.name, a, b) for o, a, b in CAT.differing("one", "two")] == [("tie", "a", "b")]


def test_consultations_count_what_the_rules_ask_inside_the_block() -> None:
    """Nested blocks each count; outside every block nothing is counted."""
    v = CAT.variant("one", {})
    v.reading("end")
    with consultations() as outer:
        v.is_("end", "late")
        with consultations() as inner:
            v.reading("tie")
        v.reading("tie")
    v.reading("tie")
    assert outer == {"end": 1, "tie": 2}
    assert inner == {"tie": 1}


def test_a_custom_variant_is_named_by_its_nearest_preset_and_what_differs() -> None:
    assert CAT.name_of(CAT.variant("one", {})) == "one"
    assert CAT.name_of(CAT.variant("one", {"end": "late"})) == "one with end=late"
    assert CAT.name_of(CAT.variant("two", {"end": "late"})) == "two with end=late"


def test_an_override_that_spells_out_another_preset_is_named_as_it() -> None:
    """One variant, one form: `one` with `tie=b` has exactly `two`'s readings, so it is `two`
    (the strict codecs refuse an unnamed spelling of a preset)."""
    assert CAT.variant("one", {"tie": "b"}) == CAT.preset("two")
    assert CAT.variant("one", {"tie": "b"}).preset == "two"


def test_exact_reads_a_document_strictly_and_names_the_field() -> None:
    """`Catalogue.exact`: every option with one of its readings, the preset named if and only
    if the readings are its own; each refusal names the field."""
    assert CAT.exact("one", {"tie": "a", "end": "early"}) == CAT.preset("one")
    assert CAT.exact(None, {"tie": "a", "end": "late"}).preset is None
    cases = [
        ("one", {"tie": "a"}, "variant.options.end"),  # an option missing
        ("one", {"tie": "a", "end": "early", "x": "y"}, "variant.options.x"),  # unknown option
        ("one", {"tie": "c", "end": "early"}, "variant.options.tie"),  # unknown reading
        ("one", {"tie": "b", "end": "early"}, "variant.options.tie"),  # not the preset's
        (None, {"tie": "b", "end": "early"}, "variant.preset"),  # a preset left unnamed
    ]
    for preset, options, field in cases:
        with pytest.raises(InvalidInput) as err:
            CAT.exact(preset, options)
        assert err.value.field == field, (preset, options)


def test_an_option_the_catalogue_does_not_list_says_found_here() -> None:
    """`option` marks a silent point found while building (no ambiguity entry) in its
    question, and keeps a catalogued one's question as written."""
    from kernel.variants import NOTE, option, reading

    found = option("x", None, "Who?", ("X-1",), reading("a", "A", NOTE), reading("b", "B", NOTE))
    listed = option("y", "AMB-X-1", "Who?", ("X-1",), reading("a", "A", NOTE, "X-1"))
    assert found.question == "Who? (found here)" and found.ambiguity is None
    assert listed.question == "Who?" and listed.readings[0].clauses == ("X-1",)


def test_a_catalogued_reading_the_rules_do_not_play_is_refused_never_ignored() -> None:
    """A reading marked `unplayed` stays in the catalogue (listed, explained) but no variant
    may choose it: overrides, documents and presets are refused, naming the field and why."""
    why = "no procedure in the text"
    cat = Catalogue(
        game="toy",
        options=(
            Option(
                "tie",
                "Who wins a tie?",
                ("X-1",),
                (Reading("a", "A", "text"), Reading("b", "B", "text", ("X-9",), unplayed=why)),
            ),
        ),
        presets={"one": {"tie": "a"}},
        default_preset="one",
    )
    option = cat.option("tie")
    assert option.reading("b").unplayed == why
    assert [r.name for r in option.played()] == ["a"]
    with pytest.raises(InvalidInput) as e1:
        cat.variant("one", {"tie": "b"})
    assert e1.value.field == "variant.options.tie" and why in str(e1.value)
    assert e1.value.clauses == ("X-9",)
    with pytest.raises(InvalidInput) as e2:
        cat.exact(None, {"tie": "b"}, where="state.variant")
    assert e2.value.field == "state.variant.options.tie"
    with pytest.raises(InvalidInput):
        Catalogue(game="toy", options=cat.options, presets={"two": {"tie": "b"}})
