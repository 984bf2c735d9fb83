"""SNC's stacking limits from the solver layer (specs/snc1937/rules/stacking_query.py), held equal
to
specs/snc1937/rules/stacking.py (SNC-6.0.1, SNC-6.0.4, SNC-6.2.1 to SNC-6.2.4; AMB-SNC-9,
AMB-SNC-10) on generated stacks of the real counters and on the stacks of section 13."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable

from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.queries import stacking_oracle
from solvers.queries.stacking import Capacity, Extent, OneFormation, StackingProblem, StackUnit
from solvers.queries.stacking import check_choice as solver_check_choice
from solvers.queries.stacking import compliance_choices as solver_choices
from solvers.reasons import Reason
from specs.snc1937.rules.stacking import cull_choices, stacking_problem, within_limits
from specs.snc1937.rules.stacking_query import (
    compliance_choices,
    cull_next,
    explain,
    explain_choice,
    stack_units,
)
from specs.snc1937.rules.stacking_query import stacking_problem as solver_problem
from specs.snc1937.rules.stacking_query import within_limits as solver_within
from tests.sizes import size
from tests.snc1937.test_zoc import DATA, variant

JP_UNITS = sorted(u.id for u in DATA.units if u.side == "JP")
SNLF = sorted(u.id for u in DATA.units if u.division == "SNLF")
CH_UNITS = sorted(u.id for u in DATA.units if u.side == "CH")
CLAUSE = re.compile(r"(?:SNC|AMB-SNC)-[\d.]+\d")
READINGS = st.fixed_dictionaries(
    {
        "japanese_stack": st.sampled_from(("five_any", "division_plus_one")),
        "snlf_partial_division": st.sampled_from(("any_together", "all_four")),
        "static_de": st.sampled_from(("zero", "by_size")),
        "overstack_cull": st.sampled_from(("minimal", "fewest")),
    }
)


def _clauses(reasons: Iterable[Reason]) -> set[str]:
    return {c for r in reasons for c in r.clauses}


def _same(units: list[str], readings: dict[str, str]) -> None:
    v = variant(**readings)
    assert solver_within(units, DATA, v) == within_limits(units, DATA, v)
    problem = stacking_problem(units, DATA, v)
    reasons = explain("2410", units, DATA, v)
    assert (reasons == []) == (problem is None)
    if problem is not None:  # the oracle's clause is among the solver's
        assert set(CLAUSE.findall(problem)) & _clauses(reasons)
    want = cull_choices(units, DATA, v)
    got = tuple(compliance_choices("2410", units, DATA, v))
    assert set(got) == set(want) and len(got) == len(want)
    for c in got[:3]:
        assert explain_choice("2410", units, c, DATA, v) == []
    # culling one unit at a time (the game's STACK step): the next picks after each prefix of a
    # choice are the units of some choice holding the prefix
    for c in want[:2]:
        for k in range(len(c)):
            prior = set(c[:k])
            expected = {u for w in want if prior <= set(w) for u in w} - prior
            now = [u for u in units if u not in prior]
            assert set(cull_next("2410", now, sorted(prior), DATA, v)) == expected


@settings(max_examples=size(25, 50), deadline=None)
@given(
    units=st.lists(
        st.one_of(st.sampled_from(SNLF), st.sampled_from(JP_UNITS)),
        min_size=1,
        max_size=7,
        unique=True,
    ),
    readings=READINGS,
)
def test_snc_6_2_1_japanese_stacks_equal_the_oracle(
    units: list[str], readings: dict[str, str]
) -> None:
    """SNC-6.2.1, SNC-6.2.2, SNC-6.0.4, AMB-SNC-9 (property): compliance, its explanation and
    the owner's elimination choices equal specs/snc1937/rules/stacking.py under every reading."""
    _same(units, readings)


@settings(max_examples=size(40, 80), deadline=None)
@given(
    units=st.lists(st.sampled_from(CH_UNITS), min_size=1, max_size=8, unique=True),
    readings=READINGS,
)
def test_snc_6_2_3_chinese_stacks_equal_the_oracle(
    units: list[str], readings: dict[str, str]
) -> None:
    """SNC-6.2.3, SNC-6.0.4, AMB-SNC-10 (property): the DE limit in halves, its explanation
    and the elimination choices equal specs/snc1937/rules/stacking.py."""
    _same(units, readings)


def _section13() -> list[tuple[str, list[str]]]:
    out: dict[str, list[str]] = {}
    for line in DATA.setup.at_start:
        for unit, where in line.place.items():
            out.setdefault(f"start {where}", []).append(unit)
    for r in DATA.setup.reinforcements:
        if len(r.hexes) == 1:
            out.setdefault(f"GT{r.gt} {r.side} {r.hexes[0]}", []).extend(r.units)
    return sorted(out.items())


def test_snc_6_0_4_section_13_stacks_equal_the_oracle() -> None:
    """SNC-6.0.4, SNC-6.2.1, SNC-6.2.3, SNC-13.x: the at-start stacks and each single-hex
    reinforcement line agree with the oracle (the choices listed in full up to 12 units)."""
    for readings in ({}, {"japanese_stack": "division_plus_one", "static_de": "by_size"}):
        v = variant(**readings)
        for _, units in _section13():
            assert solver_within(units, DATA, v) == within_limits(units, DATA, v)
            if len(units) <= 12:
                assert set(compliance_choices("x", units, DATA, v)) == set(
                    cull_choices(units, DATA, v)
                )


def test_snc_6_0_4_twenty_seven_units_at_2410_on_gt3() -> None:
    """SNC-6.0.4, SNC-6.2.3, SNC-13.x: the 27 Chinese units arriving at 2410 on GT 3 break the
    3 DE limit; the solver accepts a spread of the oracle's 3961 elimination choices, its
    first choices are the oracle's, and it refuses eliminating everything."""
    units = [u for r in DATA.setup.reinforcements if r.gt == 3 and r.side == "CH" for u in r.units]
    assert len(units) == 27
    v = variant()
    assert _clauses(explain("2410", units, DATA, v)) == {"SNC-6.2.3"}
    want = cull_choices(units, DATA, v)
    assert len(want) == 3961
    problem = solver_problem("2410", "CH", DATA, v)
    stack = stack_units(units, DATA, v)
    for c in want[::400]:
        assert solver_check_choice(problem, stack, c)
    first = [c.removed for c in itertools.islice(solver_choices(problem, stack), 5)]
    assert set(first) <= set(want)
    assert "SNC-6.0.4" in _clauses(explain_choice("2410", units, sorted(units), DATA, v))


def test_snc_6_2_4_example_stack_is_legal() -> None:
    """SNC-6.2.4: an elite division, a regular division and a regular brigade are 3 DE: legal;
    a second regular brigade breaks SNC-6.2.3."""
    v = variant()
    assert explain("2410", ["CH-87D", "CH-3D", "CH-45B"], DATA, v) == []
    assert _clauses(explain("2410", ["CH-87D", "CH-3D", "CH-45B", "CH-20B"], DATA, v)) == {
        "SNC-6.2.3"
    }


def test_snc_6_0_1_opposing_units_never_stack() -> None:
    """SNC-6.0.1: units of both sides in one hex are refused by name."""
    assert _clauses(explain("3511", ["CH-87D", "JP-3D-1"], DATA, variant())) == {"SNC-6.0.1"}
    assert not solver_within(["CH-87D", "JP-3D-1"], DATA, variant())


def test_snc_6_2_2_snlf_count_as_a_division() -> None:
    """SNC-6.2.2, AMB-SNC-9: under division_plus_one the four SNLF battalions and a garrison
    are legal; three of them with the garrison only under snlf_partial_division=any_together."""
    plus_one = {"japanese_stack": "division_plus_one"}
    assert explain("3512", [*SNLF, "JP-G-SHANGHAI"], DATA, variant(**plus_one)) == []
    three = ["JP-SNLF1", "JP-SNLF2", "JP-SNLF9", "JP-G-SHANGHAI"]
    assert explain("3512", three, DATA, variant(**plus_one)) == []
    strict = variant(**plus_one, snlf_partial_division="all_four")
    assert "AMB-SNC-9" in _clauses(explain("3512", three, DATA, strict))


def test_snc_6_2_1_six_japanese_units_and_the_culls() -> None:
    """SNC-6.2.1, SNC-6.0.4: six regiments break the five-unit limit; the owner eliminates
    any one; eliminating two is refused as needless."""
    units = ["JP-3D-1", "JP-3D-2", "JP-3D-3", "JP-3D-4", "JP-11D-1", "JP-11D-2"]
    v = variant()
    assert _clauses(explain("3510", units, DATA, v)) == {"SNC-6.2.1"}
    assert sorted(compliance_choices("3510", units, DATA, v)) == [(u,) for u in sorted(units)]
    assert _clauses(explain_choice("3510", units, ["JP-3D-1", "JP-3D-2"], DATA, v)) == {"SNC-6.0.4"}


def test_snc_6_0_4_fewest_reading() -> None:
    """SNC-6.0.4 (overstack_cull): under `fewest` only the smallest culls are choices; under
    `minimal` dropping three brigades instead of one division is a choice too."""
    units = ["CH-87D", "CH-36D", "CH-3D", "CH-45B", "CH-20B", "CH-11B"]
    minimal = set(compliance_choices("x", units, DATA, variant()))
    fewest = set(compliance_choices("x", units, DATA, variant(overstack_cull="fewest")))
    assert fewest < minimal
    assert len({len(c) for c in fewest}) == 1


def test_snc_6_2_2_complete_formation_solver_equals_its_oracle() -> None:
    """SNC-6.2.2 (the generic `OneFormation.complete` the strict SNLF reading needs): the Z3
    choices equal the subset oracle of solvers/queries/stacking_oracle.py on every small stack."""
    units = [StackUnit(f"s{i}", f"s{i}", 1, "S") for i in range(4)] + [
        StackUnit("a", "a", 1, "A"),
        StackUnit("b", "b", 1, "b"),
    ]
    for extent in (Extent.MINIMAL, Extent.MINIMUM, Extent.ANY):
        problem = StackingProblem(
            "hex 1",
            (Capacity(5, ("C",), "five"), OneFormation(1, ("F",), "one", complete={"S": 4})),
            extent,
            ("E",),
        )
        for n in range(len(units) + 1):
            for some in itertools.combinations(units, n):
                got = sorted(solver_choices(problem, some))
                assert got == stacking_oracle.choices(problem, some)


def test_snc_6_0_4_strict_snlf_keeps_maximal_stacks() -> None:
    """SNC-6.0.4, SNC-6.2.2, AMB-SNC-9: with all four SNLF battalions and two garrisons under
    division_plus_one and snlf_partial_division=all_four, eliminating three battalions and a
    garrison leaves a legal stack, yet all four and a garrison could have stayed: not a choice
    (the oracle's maximal stacks), and refused naming SNC-6.0.4."""
    v = variant(japanese_stack="division_plus_one", snlf_partial_division="all_four")
    units = [*SNLF, "JP-G-A", "JP-G-B"]
    got = set(compliance_choices("3512", units, DATA, v))
    assert got == set(cull_choices(units, DATA, v))
    assert ("JP-G-A",) in got and ("JP-G-A", "JP-SNLF1", "JP-SNLF2", "JP-SNLF3") not in got
    needless = ["JP-G-A", "JP-SNLF1", "JP-SNLF2", "JP-SNLF3"]
    assert _clauses(explain_choice("3512", units, needless, DATA, v)) == {"SNC-6.0.4"}


def test_snc_6_2_1_playout_stacks_equal_the_oracle() -> None:
    """SNC-6.2.1, SNC-6.2.3: every stack of the positions of seeded random games is within
    limits for the solver exactly when it is for the oracle."""
    from specs.snc1937.rules.state import SNCState
    from tests.snc1937.test_attacks_solver import _playout_positions

    v = variant()
    seen: set[tuple[str, ...]] = set()
    for seed in range(2):
        for state in _playout_positions(seed):
            assert isinstance(state, SNCState)
            by_hex: dict[object, list[str]] = {}
            for u, x in state.where:
                by_hex.setdefault(x, []).append(u)
            for units in by_hex.values():
                key = tuple(sorted(units))
                if key not in seen:
                    seen.add(key)
                    assert solver_within(units, DATA, v) == within_limits(units, DATA, v)
    assert len(seen) > 10
