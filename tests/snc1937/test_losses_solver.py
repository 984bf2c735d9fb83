"""SNC's step losses from the solver layer (specs/snc1937/rules/loss_query.py), held equal to
specs/snc1937/rules/losses.py loss_choices (SNC-10.5.1.3, SNC-10.5.2.1 to SNC-10.5.2.3, AMB-SNC-28,
AMB-SNC-33)."""

from __future__ import annotations

import attrs
from hypothesis import given, settings
from hypothesis import strategies as st

from specs.snc1937.rules.loss_query import explain, loss_outcomes
from specs.snc1937.rules.losses import LossOutcome, loss_choices
from tests.snc1937.test_zoc import DATA, variant

JP_UNITS = sorted(u.id for u in DATA.units if u.side == "JP")
CH_UNITS = sorted(u.id for u in DATA.units if u.side == "CH")
TWO_STEP = frozenset(u.id for u in DATA.units if u.steps == 2)
ORDERS = ("two_step_first", "strongest_first")
STATIC_STEPS = ("counter_data", "elite_only")


@settings(max_examples=80, deadline=None)
@given(
    side=st.sampled_from((JP_UNITS, CH_UNITS)),
    data=st.data(),
    steps=st.integers(0, 7),
    order=st.sampled_from(ORDERS),
    static_steps=st.sampled_from(STATIC_STEPS),
)
def test_snc_10_5_2_1_loss_outcomes_equal_loss_choices(
    side: list[str], data: st.DataObject, steps: int, order: str, static_steps: str
) -> None:
    """SNC-10.5.2.1, SNC-10.5.2.2, SNC-10.5.2.3, SNC-10.5.1.3, AMB-SNC-28, AMB-SNC-33
    (property): the solver's outcomes are loss_choices', under both loss orders, on stacks of
    real counters (some already reduced); each is explained as legal."""
    units = data.draw(st.lists(st.sampled_from(side), min_size=1, max_size=5, unique=True))
    reduced = frozenset(data.draw(st.lists(st.sampled_from(units), max_size=2))) & TWO_STEP
    v = variant(loss_order=order, static_steps=static_steps)
    got = loss_outcomes(DATA, v, units, reduced, steps)
    assert got == loss_choices(DATA, v, units, reduced, steps)
    for o in got[:3]:
        assert explain(DATA, v, units, reduced, steps, o) == []


@settings(max_examples=60, deadline=None)
@given(
    side=st.sampled_from((JP_UNITS, CH_UNITS)),
    data=st.data(),
    steps=st.integers(1, 5),
    order=st.sampled_from(ORDERS),
)
def test_snc_10_5_2_2_wrong_outcomes_are_refused(
    side: list[str], data: st.DataObject, steps: int, order: str
) -> None:
    """SNC-10.5.2.1 to SNC-10.5.2.3 (property): any other choice of eliminated and flipped
    units is refused with a reason naming a clause."""
    units = data.draw(st.lists(st.sampled_from(side), min_size=1, max_size=4, unique=True))
    v = variant(loss_order=order)
    gone = data.draw(st.lists(st.sampled_from(units), max_size=len(units), unique=True))
    flips = [u for u in units if u not in gone and u in TWO_STEP and data.draw(st.booleans())]
    total = sum(2 if u in TWO_STEP else 1 for u in units)
    chosen = LossOutcome(tuple(sorted(gone)), tuple(sorted(flips)), max(0, steps - total))
    legal = chosen in loss_choices(DATA, v, units, frozenset(), steps)
    reasons = explain(DATA, v, units, frozenset(), steps, chosen)
    assert (reasons == []) == legal
    assert all(c.startswith("SNC-") for r in reasons for c in r.clauses)


def test_snc_10_5_2_1_two_step_first_named() -> None:
    """SNC-10.5.2.1: eliminating the 98th (one step) before reducing the 87th (two steps) is
    refused, naming SNC-10.5.2.1."""
    v = variant()
    units = ("CH-87D", "CH-98D", "CH-G-A")
    assert loss_outcomes(DATA, v, units, frozenset(), 1) == (LossOutcome((), ("CH-87D",)),)
    reasons = explain(DATA, v, units, frozenset(), 1, LossOutcome(("CH-98D",), ()))
    assert {c for r in reasons for c in r.clauses} == {"SNC-10.5.2.1"}


def test_snc_10_5_2_2_strongest_first_named() -> None:
    """SNC-10.5.2.2: among two-step regiments, the 3rd Division's (CF 4) are reduced before the
    11th's (CF 3); reducing an 11th Division regiment first is refused naming the clause."""
    v = variant()
    units = ("JP-3D-1", "JP-11D-1")
    assert loss_outcomes(DATA, v, units, frozenset(), 1) == (LossOutcome((), ("JP-3D-1",)),)
    reasons = explain(DATA, v, units, frozenset(), 1, LossOutcome((), ("JP-11D-1",)))
    assert {c for r in reasons for c in r.clauses} == {"SNC-10.5.2.2"}


def test_snc_10_5_2_3_japanese_garrisons_last_named() -> None:
    """SNC-10.5.2.3: a Japanese garrison loses a step only when nothing else is left."""
    v = variant()
    units = ("JP-G-A", "JP-SNLF1")
    reasons = explain(DATA, v, units, frozenset(), 1, LossOutcome(("JP-G-A",), ()))
    assert {c for r in reasons for c in r.clauses} == {"SNC-10.5.2.3"}
    assert loss_outcomes(DATA, v, units, frozenset(), 3) == (
        LossOutcome(("JP-G-A", "JP-SNLF1"), ()),
    )


def test_snc_10_5_1_3_unabsorbed_losses_and_counts() -> None:
    """SNC-10.5.1.1, SNC-10.5.1.3: steps beyond the force are ignored; an outcome taking the
    wrong number of steps is refused by the count rule."""
    v = variant()
    got = loss_outcomes(DATA, v, ("CH-45B",), frozenset(), 3)
    assert got == (LossOutcome(("CH-45B",), (), 2),)
    wrong = attrs.evolve(got[0], unabsorbed=0)
    assert {c for r in explain(DATA, v, ("CH-45B",), frozenset(), 3, wrong) for c in r.clauses} == {
        "SNC-10.5.1.1",
        "SNC-10.5.1.3",
    }
    none = LossOutcome((), ())
    reasons = explain(DATA, v, ("JP-3D-1",), frozenset(), 1, none)
    assert {c for r in reasons for c in r.clauses} == {"SNC-10.5.1.1", "SNC-10.5.1.3"}


def test_snc_10_5_2_1_playout_losses_equal_loss_choices() -> None:
    """SNC-10.5.2.1 to SNC-10.5.2.3: at every loss step of seeded random games, the solver's
    ways to take the losses are loss_choices'."""
    from specs.snc1937.rules.state import SNCState, Step
    from tests.snc1937.test_attacks_solver import _playout_positions

    checked = 0
    for seed in range(3):
        for state in _playout_positions(seed):
            assert isinstance(state, SNCState)
            c = state.combat
            if c is None or state.step not in (Step.LOSS_D, Step.LOSS_A):
                continue
            units, steps = (
                (c.defenders, c.loss_d) if state.step == Step.LOSS_D else (c.attackers, c.loss_a)
            )
            units = tuple(u for u in units if u not in state.dead)
            if not units:
                continue
            v = state.variant
            got = loss_outcomes(DATA, v, units, state.reduced, steps)
            assert got == loss_choices(DATA, v, units, state.reduced, steps)
            checked += 1
    assert checked > 0
