"""Stacking limits (SNC-6.0.x, SNC-6.1.1, SNC-6.2.x; AMB-SNC-8, AMB-SNC-9, AMB-SNC-10): the
Japanese five, the Chinese three division equivalents in exact fractions, and the owner's
choices of eliminations in an over-stacked hex."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernel.hexes import Hex, parse_hex
from kernel.variants import Variant
from specs.snc1937.data.loader import load_data
from specs.snc1937.data.setup_data import MARKER_KINDS
from specs.snc1937.data.variants import CATALOGUE
from specs.snc1937.rules.stacking import (
    chinese_de,
    cull_choices,
    division_equivalents,
    hexes_to_check,
    overstacked,
    stacking_problem,
    within_limits,
)

DATA = load_data()
STANDARD = CATALOGUE.preset("standard")
CHINESE = sorted(u.id for u in DATA.units if u.side == "CH")
JAPANESE = sorted(u.id for u in DATA.units if u.side == "JP")
SNLF = ("JP-SNLF1", "JP-SNLF2", "JP-SNLF3", "JP-SNLF9")
THIRD = ("JP-3D-1", "JP-3D-2", "JP-3D-3", "JP-3D-4")
ELEVENTH = ("JP-11D-1", "JP-11D-2", "JP-11D-3", "JP-11D-4")
REGULAR_DIVISIONS = ("CH-55D", "CH-56D", "CH-57D", "CH-98D", "CH-3D", "CH-6D")


def _v(**options: str) -> Variant:
    return CATALOGUE.variant("standard", options)


def test_snc_6_2_4_the_example_stack_is_three_de_and_legal() -> None:
    """SNC-6.2.4: an elite division, a regular division and a regular brigade, 1.5 + 1.0 + 0.5
    = 3 DE, is a legal stack; one more regular brigade is not (SNC-6.2.3)."""
    stack = ("CH-87D", "CH-55D", "CH-45B")
    assert chinese_de(stack, DATA, STANDARD) == Fraction(3)
    assert within_limits(stack, DATA, STANDARD)
    over = (*stack, "CH-20B")
    assert chinese_de(over, DATA, STANDARD) == Fraction(7, 2)
    problem = stacking_problem(over, DATA, STANDARD)
    assert problem is not None and problem.startswith("SNC-6.2.3")


@pytest.mark.parametrize(
    ("unit", "de"),
    [
        ("CH-45B", Fraction(1, 2)),  # regular brigade
        ("CH-55D", Fraction(1)),  # regular division
        ("CH-1TD", Fraction(1)),  # elite brigade
        ("CH-87D", Fraction(3, 2)),  # elite division
    ],
)
def test_snc_6_2_3_division_equivalents(unit: str, de: Fraction) -> None:
    """SNC-6.2.3: regular brigade 0.5, regular division 1.0, elite brigade 1.0, elite
    division 1.5 DE, as exact fractions."""
    value = division_equivalents(DATA.unit(unit), STANDARD)
    assert value == de and isinstance(value, Fraction)


def test_snc_6_2_3_three_de_is_the_chinese_limit() -> None:
    """SNC-6.2.3: three regular divisions are legal, four are not; six brigades legal, seven
    not."""
    assert within_limits(REGULAR_DIVISIONS[:3], DATA, STANDARD)
    assert not within_limits(REGULAR_DIVISIONS[:4], DATA, STANDARD)
    brigades = ("CH-45B", "CH-20B", "CH-11B", "CH-12B", "CH-13B", "CH-34B", "CH-37B")
    assert within_limits(brigades[:6], DATA, STANDARD)
    assert not within_limits(brigades, DATA, STANDARD)


def test_snc_6_2_3_amb_snc_10_static_units_by_static_de() -> None:
    """SNC-6.2.3, AMB-SNC-10: statics count 0 DE under static_de=zero, by their size symbol
    under by_size (the PPC, sized XX, is then 1; a lettered garrison, X, 1/2)."""
    by_size = _v(static_de="by_size")
    assert division_equivalents(DATA.unit("CH-PPC"), STANDARD) == 0
    assert division_equivalents(DATA.unit("CH-PPC"), by_size) == 1
    assert division_equivalents(DATA.unit("CH-G-J"), by_size) == Fraction(1, 2)
    stack = (*REGULAR_DIVISIONS[:3], "CH-G-J")
    assert within_limits(stack, DATA, STANDARD)
    assert not within_limits(stack, DATA, by_size)


def test_snc_6_2_1_five_japanese_units() -> None:
    """SNC-6.2.1: five Japanese units per hex, a sixth is over the limit."""
    five = (*THIRD, "JP-G-A")
    assert within_limits(five, DATA, STANDARD)
    problem = stacking_problem((*five, "JP-G-B"), DATA, STANDARD)
    assert problem is not None and problem.startswith("SNC-6.2.1")


def test_snc_6_2_1_amb_snc_9_mixed_divisions() -> None:
    """SNC-6.2.1, AMB-SNC-9: two regiments of the 3rd and two of the 11th are legal under
    japanese_stack=five_any, not under division_plus_one; four of the 3rd and a garrison, or
    a detachment, are legal under both."""
    strict = _v(japanese_stack="division_plus_one")
    mixed = (*THIRD[:2], *ELEVENTH[:2])
    assert within_limits(mixed, DATA, STANDARD)
    assert not within_limits(mixed, DATA, strict)
    for fifth in ("JP-G-A", "JP-SHIGETO", "JP-11D-1"):
        assert within_limits((*THIRD, fifth), DATA, strict)
    assert not within_limits((*THIRD[:3], "JP-G-A", "JP-SHIGETO"), DATA, strict)


def test_snc_6_2_2_the_snlf_battalions_count_as_a_division() -> None:
    """SNC-6.2.2: the four SNLF battalions stacked together are a division, so with one
    garrison they are legal under division_plus_one."""
    strict = _v(japanese_stack="division_plus_one")
    assert within_limits((*SNLF, "JP-G-SHANGHAI"), DATA, strict)
    assert not within_limits((*SNLF[:2], "JP-G-SHANGHAI", "JP-G-A"), DATA, strict)


def test_snc_6_2_2_partial_snlf_stacks_by_snlf_partial_division() -> None:
    """SNC-6.2.2 (found here): SNLF 1, 2 and 9 with the Shanghai Garrison in 3512 (SNC-13.24,
    SNC-13.27) are legal under division_plus_one when any SNLF together count as one division,
    and over the limit when only all four do."""
    stack = ("JP-SNLF1", "JP-SNLF2", "JP-SNLF9", "JP-G-SHANGHAI")
    assert within_limits(stack, DATA, _v(japanese_stack="division_plus_one"))
    all_four = _v(japanese_stack="division_plus_one", snlf_partial_division="all_four")
    assert not within_limits(stack, DATA, all_four)
    assert within_limits((*SNLF, "JP-G-SHANGHAI"), DATA, all_four)


def test_snc_6_0_1_opposing_units_never_stack() -> None:
    """SNC-6.0.1: a hex holding units of both sides breaks the rules, however few."""
    problem = stacking_problem(("CH-45B", "JP-SNLF1"), DATA, STANDARD)
    assert problem is not None and problem.startswith("SNC-6.0.1")
    with pytest.raises(ValueError, match=r"SNC-6\.0\.1"):
        cull_choices(("CH-45B", "JP-SNLF1"), DATA, STANDARD)


def test_snc_6_1_1_markers_have_no_stacking_value() -> None:
    """SNC-6.1.1: fire support markers are no counters of the unit list, so a hex's stacking
    counts its units only: a hex at the limit stays legal whatever markers the sides hold."""
    assert not set(MARKER_KINDS) & {u.id for u in DATA.units}
    assert all(u.type in ("infantry", "naval_infantry", "static") for u in DATA.units)
    assert within_limits((*THIRD, "JP-G-A"), DATA, STANDARD)


def test_snc_6_0_4_the_owner_chooses_which_units_go() -> None:
    """SNC-6.0.4: four regular divisions (4 DE) lose any one of them; an elite division and
    three regular divisions (4.5 DE) lose the elite, or any two regulars (one is not enough)."""
    four = REGULAR_DIVISIONS[:4]
    assert cull_choices(four, DATA, STANDARD) == tuple((u,) for u in sorted(four))
    mixed = ("CH-87D", *REGULAR_DIVISIONS[:3])
    regulars = sorted(REGULAR_DIVISIONS[:3])
    expected = (("CH-87D",), *itertools.combinations(regulars, 2))
    assert cull_choices(mixed, DATA, STANDARD) == expected
    assert cull_choices(mixed, DATA, _v(overstack_cull="fewest")) == (("CH-87D",),)


def test_snc_6_0_4_a_hex_within_limits_loses_nothing() -> None:
    """SNC-6.0.4: only over-stacked hexes lose units."""
    assert cull_choices(REGULAR_DIVISIONS[:3], DATA, STANDARD) == ((),)


def test_snc_6_0_4_choices_when_fewer_units_break_the_limit() -> None:
    """SNC-6.0.4 with AMB-SNC-9 all_four: four SNLF, a garrison and a regiment lose the
    garrison or the regiment, or all four SNLF; never one SNLF alone, which would leave three
    separate battalions."""
    v = _v(japanese_stack="division_plus_one", snlf_partial_division="all_four")
    stack = (*SNLF, "JP-G-SHANGHAI", "JP-3D-1")
    choices = cull_choices(stack, DATA, v)
    assert ("JP-G-SHANGHAI",) in choices and ("JP-3D-1",) in choices
    assert tuple(sorted(SNLF)) in choices
    assert not any(len(c) == 1 and c[0] in SNLF for c in choices)


def test_snc_6_0_4_a_crowded_reinforcement_hex() -> None:
    """SNC-6.0.4, SNC-13.19: 22 regular divisions in 2410 keep any three: C(22, 3) choices."""
    divisions = [u.id for u in DATA.units if u.side == "CH" and u.arm == "regular"]
    divisions = [u for u in divisions if DATA.unit(u).size == "XX"][:22]
    choices = cull_choices(divisions, DATA, STANDARD)
    assert len(choices) == 1540
    assert all(len(c) == 19 for c in choices)


def _brute(units: tuple[str, ...], v: Variant) -> set[tuple[str, ...]]:
    ordered = sorted(units)
    compliant = [
        frozenset(r)
        for n in range(len(ordered) + 1)
        for r in itertools.combinations(ordered, n)
        if within_limits([u for u in ordered if u not in r], DATA, v)
    ]
    return {tuple(sorted(r)) for r in compliant if not any(o < r for o in compliant)}


@settings(max_examples=60, deadline=None)
@given(
    chinese=st.booleans(),
    picks=st.lists(st.integers(0, 10_000), min_size=1, max_size=8, unique=True),
    static_de=st.sampled_from(("zero", "by_size")),
    japanese_stack=st.sampled_from(("five_any", "division_plus_one")),
    snlf=st.sampled_from(("any_together", "all_four")),
)
def test_snc_6_0_4_cull_choices_are_exactly_the_minimal_removals(
    chinese: bool, picks: list[int], static_de: str, japanese_stack: str, snlf: str
) -> None:
    """SNC-6.0.4: every choice brings the hex within limits, no unit of a choice could have
    been kept, and every way to comply removes some choice (held against brute force)."""
    pool = CHINESE if chinese else [*SNLF, *THIRD, *ELEVENTH, "JP-G-A", "JP-G-B", "JP-SHIGETO"]
    units = tuple(sorted({pool[i % len(pool)] for i in picks}))
    v = _v(static_de=static_de, japanese_stack=japanese_stack, snlf_partial_division=snlf)
    choices = cull_choices(units, DATA, v)
    if within_limits(units, DATA, v):
        assert choices == ((),)
        return
    assert set(choices) == _brute(units, v)
    assert list(choices) == sorted(choices, key=lambda c: (len(c), c))


def test_snc_6_0_2_amb_snc_8_hexes_a_check_covers() -> None:
    """SNC-6.0.2, SNC-6.0.3, AMB-SNC-8: check (a) covers the phasing player's hexes (both
    players' under movement_check_side=both_players); check (b) the combat's hexes for both
    players (every hex under stacking_check=global)."""
    a, b, c = parse_hex("3511"), parse_hex("3512"), parse_hex("2410")
    stacks = {a: ("CH-87D",), b: ("JP-SNLF1",), c: ("CH-3D",)}
    assert hexes_to_check(stacks, DATA, STANDARD, phasing="JP") == (b,)
    both = _v(movement_check_side="both_players")
    assert hexes_to_check(stacks, DATA, both, phasing="JP") == tuple(sorted((a, b, c)))
    combat = hexes_to_check(stacks, DATA, STANDARD, phasing="JP", after_combat=(a, b))
    assert combat == (a, b)
    glob = _v(stacking_check="global")
    every = tuple(sorted((a, b, c)))
    assert hexes_to_check(stacks, DATA, glob, phasing="JP", after_combat=(a, b)) == every


def test_snc_6_0_3_both_players_check_after_combat() -> None:
    """SNC-6.0.3: after a combat both players' over-stacked hexes among those checked are
    found, the non-phasing player's too."""
    a, b = parse_hex("3511"), parse_hex("3512")
    stacks = {a: REGULAR_DIVISIONS[:4], b: (*THIRD, "JP-G-A", "JP-G-B")}
    hexes = hexes_to_check(stacks, DATA, STANDARD, phasing="JP", after_combat=(a, b))
    assert overstacked(stacks, hexes, DATA, STANDARD) == (a, b)


@settings(max_examples=40, deadline=None)
@given(
    picks=st.lists(st.integers(0, 10_000), min_size=1, max_size=7, unique=True),
    chinese=st.booleans(),
    seed=st.randoms(use_true_random=False),
)
def test_snc_6_4_1_the_order_within_a_stack_has_no_effect(
    picks: list[int], chinese: bool, seed: random.Random
) -> None:
    """SNC-6.4.1: the order of units in a hex changes neither legality nor the choices."""
    pool = CHINESE if chinese else JAPANESE
    units = [pool[i % len(pool)] for i in picks]
    units = list(dict.fromkeys(units))
    shuffled = units[:]
    seed.shuffle(shuffled)
    for v in (STANDARD, _v(japanese_stack="division_plus_one", static_de="by_size")):
        assert within_limits(units, DATA, v) == within_limits(shuffled, DATA, v)
        assert cull_choices(units, DATA, v) == cull_choices(shuffled, DATA, v)


def _setup_stacks() -> dict[Hex, tuple[str, ...]]:
    stacks: dict[Hex, tuple[str, ...]] = {}
    for line in DATA.setup.at_start:
        for unit, h in line.place.items():
            stacks[h] = (*stacks.get(h, ()), unit)
    return stacks


def test_snc_3_0_3_the_set_up_is_within_the_limits() -> None:
    """SNC-3.0.3: stacking limits apply at set-up, and the section 13 set-up meets them under
    both presets; under division_plus_one with all_four SNLF (found here) 3512's two SNLF
    battalions and the Shanghai Garrison would be over the limit."""
    stacks = _setup_stacks()
    for preset in ("standard", "printed"):
        v = CATALOGUE.preset(preset)
        assert overstacked(stacks, stacks, DATA, v) == ()
    strict = _v(japanese_stack="division_plus_one")
    assert overstacked(stacks, stacks, DATA, strict) == ()
    all_four = _v(japanese_stack="division_plus_one", snlf_partial_division="all_four")
    assert overstacked(stacks, stacks, DATA, all_four) == (parse_hex("3512"),)
