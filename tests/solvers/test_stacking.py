"""The stacking encoding against its oracle on generated stacks, and the SNC and Shumshu limits
as named examples (SNC-6.0.4, SNC-6.2.1 to SNC-6.2.4, SHU-STACK.3), per reading."""

from __future__ import annotations

from typing import Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernel.errors import InvalidInput
from solvers.queries import stacking, stacking_oracle
from solvers.queries.stacking import (
    AtLeast,
    Barred,
    Capacity,
    Extent,
    Limit,
    OneFormation,
    StackingProblem,
    StackUnit,
)


@st.composite
def stacks(draw: st.DrawFn) -> tuple[StackingProblem, list[StackUnit]]:
    """Up to 7 units with weights and formations, and a random mix of limits."""
    n = draw(st.integers(0, 7))
    units = [
        StackUnit(
            f"u{i}",
            f"Unit {i}",
            draw(st.integers(0, 3)),
            draw(st.sampled_from([None, "A", "B"])),
        )
        for i in range(n)
    ]
    limits: list[Limit] = []
    for k in range(draw(st.integers(0, 3))):
        kind = draw(st.sampled_from(["capacity", "weight", "formation", "barred", "least"]))
        clauses, text = (f"T-{kind}-{k}",), f"rule {kind} {k}"
        if kind in ("capacity", "weight"):
            bound = draw(st.integers(0, 8))
            limits.append(Capacity(bound, clauses, text, weighted=kind == "weight", scale=2))
        elif kind == "formation":
            limits.append(OneFormation(draw(st.integers(0, 2)), clauses, text))
        elif kind == "barred":
            ids = draw(st.sets(st.sampled_from([u.id for u in units]))) if units else set()
            limits.append(Barred(ids, clauses, text))
        else:
            limits.append(AtLeast(draw(st.integers(0, 3)), clauses, text))
    extent = draw(st.sampled_from(list(Extent)))
    return StackingProblem("hex 0101", limits, extent, ("T-EXTENT",)), units


@settings(max_examples=120)
@given(stacks())
def test_solver_choices_equal_oracle_choices_in_the_same_order(
    case: tuple[StackingProblem, list[StackUnit]],
) -> None:
    p, units = case
    found = list(stacking.compliance_choices(p, units))
    assert found == stacking_oracle.choices(p, units)
    assert stacking.count(p, units) == len(found)
    for choice in found[:8]:  # the first few: each check builds a solver
        assert stacking.check_choice(p, units, choice.removed)
        assert stacking.explain_choice(p, units, choice.removed) == []
        kept = [u for u in units if u.id in choice.kept]
        assert stacking.check(p, kept)  # what is kept is within the limits
    assert stacking.check(p, units) == (stacking_oracle.explain(p, units) == [])
    assert stacking.explain(p, units) == stacking_oracle.explain(p, units)


@settings(max_examples=120)
@given(stacks(), st.data())
def test_rejected_choices_are_explained_by_the_rules_they_break(
    case: tuple[StackingProblem, list[StackUnit]], data: st.DataObject
) -> None:
    """A random choice: `check_choice` agrees with the oracle, and `explain_choice` names
    exactly the rules the oracle's own per-rule tests find broken."""
    p, units = case
    removed = data.draw(st.sets(st.sampled_from([u.id for u in units]))) if units else set()
    reasons = stacking.explain_choice(p, units, removed)
    broken = stacking_oracle.breaches(p, units, removed)
    assert stacking.check_choice(p, units, removed) == (not broken) == (not reasons)
    assert reasons == stacking_oracle.explain_choice(p, units, removed)
    assert len(reasons) == len(broken)


def test_unknown_units_are_refused() -> None:
    p = StackingProblem("hex 0101", [])
    with pytest.raises(InvalidInput):
        stacking.check_choice(p, [StackUnit("a", "A")], ["b"])


# --- Shanghai-Nanking 1937 -----------------------------------------------------------------

SNC_EXTENT = ("SNC-6.0.4",)
CHINESE_DE = Capacity(
    6,
    ("SNC-6.2.3",),
    "a Chinese hex holds at most 3 division equivalents",
    weighted=True,
    scale=2,
    measure="division equivalents",
)
JAPANESE_FIVE = Capacity(5, ("SNC-6.2.1",), "a Japanese hex holds at most five units")
ONE_DIVISION = OneFormation(
    1,
    ("SNC-6.2.1", "SNC-6.2.2"),
    "a Japanese hex holds the regiments of one division (the SNLF battalions count as one) "
    "plus one garrison or regiment",
)
# AMB-SNC-9: (a) at most five units of any mix; (b) one division's units plus one other
JapaneseReading = Literal["any_five", "one_division"]


def chinese(extent: Extent = Extent.MINIMAL) -> StackingProblem:
    return StackingProblem("hex 3410", [CHINESE_DE], extent, SNC_EXTENT)


def japanese(reading: JapaneseReading, extent: Extent = Extent.MINIMAL) -> StackingProblem:
    limits: list[Limit] = (
        [JAPANESE_FIVE] if reading == "any_five" else [JAPANESE_FIVE, ONE_DIVISION]
    )
    return StackingProblem("hex 3510", limits, extent, SNC_EXTENT)


def regular_brigade(i: str) -> StackUnit:
    return StackUnit(f"CH-{i}B", f"{i} Brigade", 1)


def regular_division(i: str) -> StackUnit:
    return StackUnit(f"CH-{i}D", f"{i} Division", 2)


def elite_brigade(i: str) -> StackUnit:
    return StackUnit(f"CH-{i}EB", f"{i} Elite Brigade", 2)


def elite_division(i: str) -> StackUnit:
    return StackUnit(f"CH-{i}ED", f"{i} Elite Division", 3)


def regiments(division: str, *numbers: int) -> list[StackUnit]:
    return [StackUnit(f"JP-{division}-{n}", f"{n} Regiment", 1, division) for n in numbers]


def snlf(*numbers: int) -> list[StackUnit]:
    return [StackUnit(f"JP-SNLF-{n}", f"SNLF {n}", 1, "SNLF") for n in numbers]


GARRISON = StackUnit("JP-GAR-SH", "Shanghai Garrison")


def test_snc_6_2_4_elite_division_regular_division_regular_brigade_is_legal() -> None:
    stack = [elite_division("87"), regular_division("98"), regular_brigade("2")]
    assert stacking.check(chinese(), stack)
    assert list(stacking.compliance_choices(chinese(), stack)) == [
        ((), tuple(sorted(u.id for u in stack)))
    ]


def test_snc_6_2_3_chinese_three_division_equivalents() -> None:
    stack = [
        elite_division("87"),
        regular_division("98"),
        regular_brigade("2"),
        regular_brigade("3"),
    ]
    assert not stacking.check(chinese(), stack)
    assert stacking.explain(chinese(), stack) == [
        (
            ("SNC-6.2.3",),
            "hex 3410: a Chinese hex holds at most 3 division equivalents "
            "(3.5 division equivalents here)",
        )
    ]


def test_snc_6_2_3_an_elite_brigade_counts_as_a_division() -> None:
    """1.5 + 1.0 + 0.5 = 3 DE is legal; three elite brigades make 3 DE, a fourth unit breaks it."""
    assert stacking.check(
        chinese(), [elite_division("87"), elite_brigade("1"), regular_brigade("2")]
    )
    brigades = [elite_brigade(i) for i in "123"]
    assert stacking.check(chinese(), brigades)
    assert not stacking.check(chinese(), [*brigades, regular_brigade("4")])


OVER = [elite_division("87"), elite_division("88"), *(regular_brigade(i) for i in "123")]


def test_snc_6_0_4_enough_units_minimal_reading() -> None:
    """4.5 DE: "enough excess units" read as "no unit eliminated that was not needed" allows
    one elite division, or all three brigades."""
    got = [c.removed for c in stacking.compliance_choices(chinese(Extent.MINIMAL), OVER)]
    assert got == [("CH-1B", "CH-2B", "CH-3B"), ("CH-87ED",), ("CH-88ED",)]
    assert stacking.explain_choice(chinese(Extent.MINIMAL), OVER, ["CH-87ED", "CH-1B"]) == [
        (
            ("SNC-6.0.4",),
            "hex 3410: 1 Brigade need not be eliminated: the hex is within limits with it",
        )
    ]


def test_snc_6_0_4_enough_units_minimum_reading() -> None:
    """Read as "as few units as possible", the three brigades are one too many."""
    got = [c.removed for c in stacking.compliance_choices(chinese(Extent.MINIMUM), OVER)]
    assert got == [("CH-87ED",), ("CH-88ED",)]
    assert stacking.explain_choice(chinese(Extent.MINIMUM), OVER, ["CH-1B", "CH-2B", "CH-3B"]) == [
        (("SNC-6.0.4",), "hex 3410: 1 unit(s) need be eliminated, not 3")
    ]


def test_snc_6_0_4_too_few_eliminations_still_break_the_limit() -> None:
    reasons = stacking.explain_choice(chinese(), OVER, ["CH-1B"])
    assert [r.clauses for r in reasons] == [("SNC-6.2.3",)]


def test_amb_snc_10_static_units_count_per_reading() -> None:
    """A garrison has no DE value in SNC-6.2.3: 0 under reading (a), a brigade's 0.5 under (b)."""
    full = [elite_division("87"), elite_division("88")]
    assert stacking.check(chinese(), [*full, StackUnit("CH-GAR", "Garrison", 0)])
    assert not stacking.check(chinese(), [*full, StackUnit("CH-GAR", "Garrison", 1)])


@pytest.mark.parametrize("reading", ["any_five", "one_division"])
def test_snc_6_2_1_one_division_plus_one_garrison(reading: JapaneseReading) -> None:
    stack = [*regiments("3", 6, 18, 29, 34), GARRISON]
    assert stacking.check(japanese(reading), stack)
    sixth = [*stack, *regiments("11", 12)]
    assert not stacking.check(japanese(reading), sixth)
    assert ("SNC-6.2.1",) in [r.clauses for r in stacking.explain(japanese(reading), sixth)]


def test_amb_snc_9_mixed_divisions_per_reading() -> None:
    stack = [*regiments("3", 6, 18), *regiments("11", 12, 22), GARRISON]
    assert stacking.check(japanese("any_five"), stack)
    assert not stacking.check(japanese("one_division"), stack)
    assert stacking.explain(japanese("one_division"), stack) == [
        (
            ("SNC-6.2.1", "SNC-6.2.2"),
            f"hex 3510: {ONE_DIVISION.text} (3 outside any one formation here)",
        )
    ]


def test_snc_6_2_2_the_snlf_battalions_count_as_a_division() -> None:
    assert stacking.check(japanese("one_division"), [*snlf(1, 2, 3, 9), GARRISON])
    # AMB-SNC-35: 3512 at the start (SNLF 1, 2, Shanghai Garrison) takes SNLF 9
    assert stacking.check(japanese("one_division"), [*snlf(1, 2, 9), GARRISON])
    assert not stacking.check(japanese("one_division"), [*snlf(1, 2), GARRISON, *regiments("3", 6)])


def test_snc_6_0_4_japanese_choices_per_reading() -> None:
    """Six units, a whole 3rd Division among them: under AMB-SNC-9 (b) the owner may also let
    the whole division go (minimal reading), which the minimum reading forbids."""
    stack = [*regiments("3", 6, 18, 29, 34), *regiments("11", 12), GARRISON]
    third = tuple(f"JP-3-{n}" for n in (18, 29, 34, 6))
    minimal = [c.removed for c in stacking.compliance_choices(japanese("one_division"), stack)]
    assert minimal == [("JP-11-12",), tuple(sorted(third)), ("JP-GAR-SH",)]
    minimum = japanese("one_division", Extent.MINIMUM)
    assert [c.removed for c in stacking.compliance_choices(minimum, stack)] == [
        ("JP-11-12",),
        ("JP-GAR-SH",),
    ]
    assert stacking.count(japanese("any_five"), stack) == 6  # any one unit


# --- Shumshu -------------------------------------------------------------------------------

RUSSIAN_DEFENDERS = Capacity(
    3, ("SHU-STACK.3",), "at most 3 Russian units defend a hex", measure="defenders"
)
JAPANESE_DEFENDERS = Capacity(
    4, ("SHU-STACK.3",), "at most 4 Japanese units defend a hex", measure="defenders"
)
A_DEFENDER = AtLeast(1, ("SHU-STACK.3",), "a hex with units has a defender")
# The owner picks the defenders (AMB-SHU-11); SHU-STACK.3 does not say whether he must field as
# many as the limit allows or may field fewer: both readings.
DefenceReading = Literal["as_many_as_allowed", "any_up_to"]


def defence(cap: Capacity, reading: DefenceReading, *more: Limit) -> StackingProblem:
    if reading == "as_many_as_allowed":
        return StackingProblem(
            "hex 12", [cap, *more], Extent.MINIMAL, ("SHU-STACK.3",), "left out of the defence"
        )
    return StackingProblem(
        "hex 12", [cap, A_DEFENDER, *more], Extent.ANY, ("SHU-STACK.3",), "left out of the defence"
    )


BATTALIONS = [StackUnit(f"RU-{i}", f"Battalion {i}") for i in range(1, 6)]


def test_shu_stack_3_three_russian_defenders_chosen_by_the_owner() -> None:
    p = defence(RUSSIAN_DEFENDERS, "as_many_as_allowed")
    choices = list(stacking.compliance_choices(p, BATTALIONS))
    assert len(choices) == 10 and all(len(c.kept) == 3 for c in choices)
    assert stacking.explain_choice(p, BATTALIONS, ["RU-1"]) == [
        (("SHU-STACK.3",), "hex 12: at most 3 Russian units defend a hex (4 defenders here)")
    ]
    assert stacking.explain_choice(p, BATTALIONS, ["RU-1", "RU-2", "RU-3"])[0].text == (
        "hex 12: Battalion 1 need not be left out of the defence: the hex is within limits with it"
    )


def test_shu_stack_3_fewer_defenders_per_reading() -> None:
    """Where the owner may field fewer than 3, any 1 to 3 of 5 battalions defend."""
    p = defence(RUSSIAN_DEFENDERS, "any_up_to")
    assert stacking.count(p, BATTALIONS) == 5 + 10 + 10
    assert stacking.check_choice(p, BATTALIONS, ["RU-1", "RU-2", "RU-3", "RU-4"])
    assert not stacking.check_choice(p, BATTALIONS, [u.id for u in BATTALIONS])


def test_shu_stack_3_japanese_decoys_do_not_defend() -> None:
    """AMB-SHU-30: decoys count as units but never defend, so four real units defend."""
    real = [StackUnit(f"JP-{i}", f"Battalion {i}") for i in range(1, 5)]
    decoys = [StackUnit(f"JP-D{i}", f"Decoy {i}") for i in (1, 2)]
    no_decoys = Barred(
        {"JP-D1", "JP-D2"}, ("SHU-STACK.3", "SHU-COMBAT.6"), "decoys do not defend (AMB-SHU-30)"
    )
    p = defence(JAPANESE_DEFENDERS, "as_many_as_allowed", no_decoys)
    choices = list(stacking.compliance_choices(p, [*real, *decoys]))
    assert [c.removed for c in choices] == [("JP-D1", "JP-D2")]
    reasons = stacking.explain_choice(p, [*real, *decoys], ["JP-1", "JP-D2"])
    assert reasons[0] == (
        ("SHU-STACK.3", "SHU-COMBAT.6"),
        "hex 12: decoys do not defend (AMB-SHU-30) (Decoy 1 here)",
    )
