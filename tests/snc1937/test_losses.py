"""Apportioning step losses and the landing combat's loss procedure (SNC-10.5.1.x,
SNC-10.5.2.x, SNC-8.4.0.7 to SNC-8.4.0.9, SNC-2.2.1.11)."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernel.errors import IllegalAction
from kernel.hexes import Hex, parse_hex
from kernel.variants import Variant
from specs.snc1937.data.loader import SNCData, load_data
from specs.snc1937.data.variants import CATALOGUE
from specs.snc1937.rules import losses as L
from specs.snc1937.rules import odds as O

DATA = load_data()


def variant(**overrides: str) -> Variant:
    """Preset `standard` of the game's catalogue with `overrides`."""
    return CATALOGUE.variant("standard", overrides)


def h(text: str) -> Hex:
    return parse_hex(text)


def ways(
    units: tuple[str, ...], steps: int, reduced: frozenset[str] = frozenset(), **over: str
) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    return [
        (o.eliminated, o.flipped)
        for o in L.loss_choices(DATA, variant(**over), units, reduced, steps)
    ]


THIRD = ("JP-3D-1", "JP-3D-2", "JP-3D-3", "JP-3D-4")
ELEVENTH = ("JP-11D-1", "JP-11D-2", "JP-11D-3", "JP-11D-4")


def test_snc_10_5_2_1_two_step_units_reduced_first() -> None:
    """SNC-10.5.2.1: every two-step unit is reduced before a one-step unit is eliminated: one
    step from 87th (5/2), 98th (3) and a garrison (1) reduces the 87th."""
    assert ways(("CH-87D", "CH-98D", "CH-G-A"), 1) == [((), ("CH-87D",))]


def test_snc_10_5_2_2_strongest_first_example_gt3_3511() -> None:
    """SNC-10.5.2.2 (section 12 GT 3, AMB-SNC-28): three steps from 3511 (87th, 98th, garrison)
    take the 87th's two steps and the 98th before the garrison, as the example says: the 87th
    reduced (to 2), then the strongest one-step unit, the 98th (3), then the 87th (2)."""
    assert ways(("CH-87D", "CH-98D", "CH-G-A"), 3) == [(("CH-87D", "CH-98D"), ())]
    assert ways(("CH-87D", "CH-98D", "CH-G-A"), 2) == [(("CH-98D",), ("CH-87D",))]


def test_snc_10_5_2_2_amb_snc_28_loss_order_readings() -> None:
    """SNC-10.5.2.1, SNC-10.5.2.2 (AMB-SNC-28, `loss_order`): the rules clash when a one-step
    unit is stronger than a full two-step unit. The provisional counters have no such pair, so
    the Shigeto Detachment (3) is made one-step in a copy of the data and loses a step with
    SNLF 1 (2/1): `two_step_first` (standard) reduces the SNLF, `strongest_first` eliminates the
    stronger detachment."""
    units = tuple(attrs.evolve(u, reduced=None) if u.id == "JP-SHIGETO" else u for u in DATA.units)
    data = SNCData(DATA.map, DATA.components, units, DATA.setup, DATA.crt, DATA.tec)
    force = ("JP-SHIGETO", "JP-SNLF1")
    for order, expected in (
        ("two_step_first", L.LossOutcome((), ("JP-SNLF1",))),
        ("strongest_first", L.LossOutcome(("JP-SHIGETO",), ())),
    ):
        found = L.loss_choices(data, variant(loss_order=order), force, frozenset(), 1)
        assert found == (expected,)


def test_snc_10_5_2_2_ties_are_the_owners_choice() -> None:
    """SNC-10.5.2.2 (AMB-SNC-28): among equally strong units the owner chooses, so every choice
    is listed, sorted: one step from four 4-CF regiments is four outcomes."""
    assert ways(THIRD, 1) == [((), (u,)) for u in THIRD]


def test_snc_10_5_2_3_japanese_garrisons_last() -> None:
    """SNC-10.5.2.3: the Shanghai Garrison (2, static) takes the last step: two steps from it and
    SNLF 1 (2/1) eliminate the SNLF, under both loss orders."""
    force = ("JP-G-SHANGHAI", "JP-SNLF1")
    assert ways(force, 2) == [(("JP-SNLF1",), ())]
    assert ways(force, 2, loss_order="strongest_first") == [(("JP-SNLF1",), ())]
    assert ways(force, 3) == [(("JP-G-SHANGHAI", "JP-SNLF1"), ())]


def test_snc_10_5_2_3_chinese_garrisons_are_not_last() -> None:
    """SNC-10.5.2.3 names only Japanese garrisons: a Chinese garrison (2, static) is taken by
    strength like any other unit (AMB-SNC-28), before a weaker 1-CF brigade."""
    assert ways(("CH-G-BAOSHAN", "CH-45B"), 1) == [(("CH-G-BAOSHAN",), ())]


def test_snc_10_5_1_3_no_carry_over() -> None:
    """SNC-10.5.1.3: losses beyond the force's steps are ignored, never carried over."""
    (only,) = L.loss_choices(DATA, variant(), ("CH-98D",), frozenset(), 5)
    assert only == L.LossOutcome(("CH-98D",), (), 4)
    (none,) = L.loss_choices(DATA, variant(), ("CH-98D",), frozenset(), 0)
    assert none == L.LossOutcome((), (), 0)


def test_snc_10_5_1_1_reduced_units_have_one_step_left() -> None:
    """SNC-10.5.1.1, SNC-10.5.2.1: a reduced two-step unit has one step left; its reduced CF
    ranks it (SNC-9.6.9: the 11th with two regiments reduced loses a step: "a third regiment of
    the 11th is reduced", one of the two full ones, the owner's choice)."""
    reduced = frozenset({"JP-11D-3", "JP-11D-4"})
    assert ways(ELEVENTH, 1, reduced) == [((), ("JP-11D-1",)), ((), ("JP-11D-2",))]
    outcome = L.loss_choices(DATA, variant(), ELEVENTH, reduced, 1)[0]
    assert outcome.reduced_after(reduced) == reduced | {"JP-11D-1"}


def test_snc_10_5_2_1_examples_gt3_loudian_and_3410() -> None:
    """SNC-10.5.2.1, SNC-10.5.2.2 (section 12 GT 3): at Loudian a 2/1 "reduc[es] the Chinese
    elite 5 and two of the Japanese regiments"; at 3410 a 1/1 reduces "one elite brigade" and
    "one Japanese 4-strength regiment" (not the 3-CF detachment)."""
    assert ways(("CH-36D", "CH-55D", "CH-45B"), 1) == [((), ("CH-36D",))]
    two = ways(ELEVENTH, 2)
    assert len(two) == 6 and all(not e and len(f) == 2 for e, f in two)
    assert ways(("CH-1TD", "CH-2TD"), 1) == [((), ("CH-1TD",)), ((), ("CH-2TD",))]
    assert ways((*THIRD, "JP-SHIGETO"), 1) == [((), (u,)) for u in THIRD]


def test_snc_2_2_1_11_amb_snc_33_static_steps() -> None:
    """SNC-2.2.1.11 (AMB-SNC-33, `static_steps`): the Wusong garrison is printed on both sides:
    `counter_data` (standard) gives it two steps, so one loss flips it; `elite_only` one step."""
    assert ways(("CH-G-WUSONG",), 1) == [((), ("CH-G-WUSONG",))]
    assert ways(("CH-G-WUSONG",), 1, static_steps="elite_only") == [(("CH-G-WUSONG",), ())]
    spec = DATA.unit("CH-G-WUSONG")
    assert L.printed_steps(spec, variant(static_steps="elite_only")) == 1
    assert L.printed_steps(DATA.unit("CH-87D"), variant(static_steps="elite_only")) == 2


def test_snc_10_5_2_1_loss_problem() -> None:
    """SNC-10.5.2.1: eliminating the 98th while the 87th is unreduced is refused."""
    units = ("CH-87D", "CH-98D")
    wrong = L.LossOutcome(("CH-98D",), ())
    problem = L.loss_problem(DATA, variant(), units, frozenset(), 1, wrong)
    assert problem is not None and "SNC-10.5.2.1" in problem
    right = L.LossOutcome((), ("CH-87D",))
    assert L.loss_problem(DATA, variant(), units, frozenset(), 1, right) is None


UNITS = ("CH-87D", "CH-98D", "CH-G-A", "CH-G-WUSONG", "JP-SNLF1", "JP-G-SHANGHAI", "JP-3D-1")


@settings(max_examples=60, deadline=None)
@given(
    st.sets(st.sampled_from(UNITS), min_size=1),
    st.sets(st.sampled_from(UNITS)),
    st.integers(0, 8),
    st.sampled_from(["two_step_first", "strongest_first"]),
)
def test_snc_10_5_1_3_every_choice_takes_the_steps(
    units: set[str], reduced: set[str], steps: int, order: str
) -> None:
    """SNC-10.5.1.1, SNC-10.5.1.3, SNC-10.5.2.3: every listed way removes exactly the steps the
    force can absorb, the rest unabsorbed; a Japanese garrison loses a step only when nothing
    else is left; the list is sorted and without repeats."""
    v = variant(loss_order=order)
    force = tuple(sorted(units))
    left = {u: L.steps_left(DATA.unit(u), reduced, v) for u in force}
    total = sum(left.values())
    found = L.loss_choices(DATA, v, force, frozenset(reduced), steps)
    assert found and list(found) == sorted(set(found), key=lambda o: (o.eliminated, o.flipped))
    for o in found:
        taken = sum(left[u] for u in o.eliminated) + len(o.flipped)
        assert taken == min(steps, total) and o.unabsorbed == max(0, steps - total)
        garrison_hit = any(
            DATA.unit(u).side == "JP" and DATA.unit(u).is_static for u in o.eliminated
        )
        if garrison_hit:
            others = [
                u for u in force if not (DATA.unit(u).side == "JP" and DATA.unit(u).is_static)
            ]
            assert all(u in o.eliminated for u in others)


# --- the landing combat (SNC-8.4.0.7 to SNC-8.4.0.9) ----------------------------------------------


def test_snc_8_4_0_8_all_chinese_eliminated() -> None:
    """SNC-8.4.0.7, SNC-8.4.0.8 (section 12 GT 2): the 3rd Division lands at Wusong at 6:1 and
    rolls a 1 (1/2 in the provisional CRT): the two-step garrison is eliminated first, then the
    Japanese lose their one step ("he rolls a 1 and loses a step") and the survivors advance."""
    result = O.crt_result(DATA, variant(), O.parse_column("6:1"), 1)
    assert result == (1, 2)
    (chinese,) = L.loss_choices(DATA, variant(), ("CH-G-WUSONG",), frozenset(), result[1])
    out = L.landing_outcome(
        DATA, variant(), h("3510"), THIRD, ("CH-G-WUSONG",), frozenset(), result, chinese, {}
    )
    assert out.japanese_steps == 1 and out.retreats == () and out.garrison_eliminated == ()
    assert len(out.japanese_choices) == 4
    assert out.advancing(THIRD, out.japanese_choices[0]) == THIRD


def test_snc_8_4_0_9_survivors_retreat_and_one_more_step() -> None:
    """SNC-8.4.0.9: Chinese left in the landing hex retreat one hex, garrison steps are
    eliminated instead, and the Japanese lose their result plus one step."""
    defenders = ("CH-G-WUSONG", "CH-98D")
    (chinese,) = L.loss_choices(DATA, variant(), defenders, frozenset(), 1)
    assert chinese.flipped == ("CH-G-WUSONG",)
    out = L.landing_outcome(
        DATA, variant(), h("3510"), THIRD, defenders, frozenset(), (0, 1), chinese,
        {"CH-98D": h("3511")},
    )  # fmt: skip
    assert out.garrison_eliminated == ("CH-G-WUSONG",)
    assert out.retreats == (("CH-98D", h("3511")),)
    assert out.japanese_steps == 1
    assert out.advancing(THIRD, out.japanese_choices[0]) == THIRD


def test_snc_8_4_0_9_amb_snc_11_no_retreat_hex() -> None:
    """SNC-8.4.0.9 (AMB-SNC-11): a survivor with no hex to retreat to is eliminated; one that
    is given no retreat, or a hex not adjacent to the landing hex, is refused."""
    defenders = ("CH-98D",)
    (nothing,) = L.loss_choices(DATA, variant(), defenders, frozenset(), 0)
    out = L.landing_outcome(
        DATA, variant(), h("3510"), THIRD, defenders, frozenset(), (1, 0), nothing,
        {"CH-98D": None},
    )  # fmt: skip
    assert out.retreat_eliminated == ("CH-98D",) and out.japanese_steps == 2
    with pytest.raises(IllegalAction):
        L.landing_outcome(
            DATA, variant(), h("3510"), THIRD, defenders, frozenset(), (1, 0), nothing, {}
        )
    with pytest.raises(IllegalAction):
        L.landing_outcome(
            DATA, variant(), h("3510"), THIRD, defenders, frozenset(), (1, 0), nothing,
            {"CH-98D": h("3512")},
        )  # fmt: skip


def test_snc_8_4_0_7_chinese_losses_must_be_legal() -> None:
    """SNC-8.4.0.7, SNC-10.5.2.1: the Chinese losses taken first follow the apportioning rules."""
    wrong = L.LossOutcome(("CH-98D",), ())
    with pytest.raises(IllegalAction):
        L.landing_outcome(
            DATA, variant(), h("3510"), THIRD, ("CH-87D", "CH-98D"), frozenset(), (0, 1), wrong,
            {"CH-87D": h("3511")},
        )  # fmt: skip


def test_snc_10_5_1_3_landing_losses_beyond_the_force() -> None:
    """SNC-10.5.1.3 (AMB-SNC-12 (ii)): landing losses the force cannot pay are dropped: one
    SNLF (2 steps) owing 3 + 1 steps is eliminated with 2 unabsorbed, and nobody advances."""
    (nothing,) = L.loss_choices(DATA, variant(), ("CH-98D",), frozenset(), 0)
    out = L.landing_outcome(
        DATA, variant(), h("3510"), ("JP-SNLF1",), ("CH-98D",), frozenset(), (3, 0), nothing,
        {"CH-98D": h("3511")},
    )  # fmt: skip
    (japanese,) = out.japanese_choices
    assert japanese.unabsorbed == 2 and out.advancing(("JP-SNLF1",), japanese) == ()
    with pytest.raises(IllegalAction):
        out.advancing(("JP-SNLF1",), L.LossOutcome((), ()))


def test_snc_10_5_2_2_strength_measure_readings() -> None:
    """SNC-10.5.2.2 "the strongest unit" first, measured by `strength_measure` (AMB-SNC-28):
    a flipped CH-87D (5, reduced 2) beside CH-98D (3, one step) loses one step. By `current_cf`
    (standard, the kernel note) the 98th (3 > 2) is eliminated; by `printed_cf` the 87th
    (5 > 3)."""
    assert (DATA.unit("CH-87D").cf, DATA.unit("CH-87D").reduced) == (5, 2)
    assert DATA.unit("CH-98D").cf == 3
    force, reduced = ("CH-87D", "CH-98D"), frozenset({"CH-87D"})
    assert ways(force, 1, reduced) == [(("CH-98D",), ())]
    assert ways(force, 1, reduced, strength_measure="printed_cf") == [(("CH-87D",), ())]
