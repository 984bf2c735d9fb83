"""Japanese overrun geometry, cost and sequencing (SNC-9.6.x; AMB-SNC-25, AMB-SNC-26)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from kernel.errors import IllegalAction
from specs.snc1937.rules.movement import reachable
from specs.snc1937.rules.overrun import (
    after_overrun,
    check_overrun,
    overrun_cost,
    overrun_options,
    overrun_problem,
    overrun_targets,
)
from tests.snc1937.test_zoc import BOARD, DATA, STANDARD, h, pos, variant

ELEVENTH = ("JP-11D-1", "JP-11D-2", "JP-11D-3", "JP-11D-4")
THIRD = ("JP-3D-1", "JP-3D-2")


def example() -> dict[str, object]:
    """SNC-9.6.9: three Chinese divisions in Chang Sho (2606), one in 2707, the 11th Division in
    2806 with 3 MP left."""
    return {"h2806": ELEVENTH, "h2707": "CH-3D", "h2606": ("CH-6D", "CH-7D", "CH-51D")}


STACKS = pos(**example())  # type: ignore[arg-type]


def problem(target: str, mp: Fraction = Fraction(3), **readings: str) -> str | None:
    return overrun_problem(
        BOARD, DATA, variant(**readings), STACKS, ELEVENTH, h("2806"), h(target), mp
    )


def test_snc_9_6_9_example_overrun_of_2707() -> None:
    """SNC-9.6.9: the 11th in 2806 with 3 MP may overrun 2707 (marsh: 2 + 1 MP), but not the
    town 2606 (not adjacent anyway, and a town)."""
    assert problem("2707") is None
    assert overrun_targets(BOARD, DATA, STANDARD, STACKS, ELEVENTH, h("2806"), Fraction(3)) == (
        h("2707"),
    )
    assert check_overrun(
        BOARD, DATA, STANDARD, STACKS, ELEVENTH, h("2806"), h("2707"), Fraction(3)
    ) == Fraction(0)


def test_snc_9_6_1_cost_is_entry_plus_one() -> None:
    """SNC-9.6.1, AMB-SNC-25 (a): an overrun costs the target's entry cost plus 1 (3 for a
    marsh); under one_mp only 1."""
    assert overrun_cost(BOARD, DATA, STANDARD, h("2806"), h("2707")) == 3
    assert overrun_cost(BOARD, DATA, variant(overrun_cost="one_mp"), h("2806"), h("2707")) == 1
    assert "SNC-9.6.1" in (problem("2707", Fraction(5, 2)) or "")
    assert problem("2707", Fraction(1), overrun_cost="one_mp") is None


def test_snc_9_6_1_not_a_city_or_town() -> None:
    """SNC-9.6.1: no overrun of a city or town hex (Chang Sho 2606 from 2707's side)."""
    stacks = pos(h2707=ELEVENTH, h2606="CH-6D")
    found = overrun_problem(
        BOARD, DATA, STANDARD, stacks, ELEVENTH, h("2707"), h("2606"), Fraction(8)
    )
    assert found is not None and "city or town" in found
    city = pos(h2510=ELEVENTH, h2410="CH-6D")
    assert "city or town" in (
        overrun_problem(BOARD, DATA, STANDARD, city, ELEVENTH, h("2510"), h("2410"), Fraction(8))
        or ""
    )


def test_snc_9_6_1_target_must_hold_chinese_and_be_adjacent() -> None:
    """SNC-9.6.1: the overrun hex is an adjacent hex with Chinese units."""
    assert "no Chinese units" in (problem("2807") or "")
    assert "not next to" in (problem("2909") or "")


def test_snc_9_6_1_only_japanese_mobile_units() -> None:
    """SNC-9.6.1, SNC-9.1.1: the Chinese never overrun; static units never do."""
    stacks = pos(h2806="CH-6D", h2707="JP-11D-1")
    assert "only the Japanese" in (
        overrun_problem(BOARD, DATA, STANDARD, stacks, ["CH-6D"], h("2806"), h("2707"), Fraction(8))
        or ""
    )
    garrison = pos(h2806=("JP-11D-1", "JP-G-A"), h2707="CH-3D")
    assert "static" in (
        overrun_problem(
            BOARD,
            DATA,
            STANDARD,
            garrison,
            ["JP-11D-1", "JP-G-A"],
            h("2806"),
            h("2707"),
            Fraction(8),
        )
        or ""
    )


def test_snc_9_6_2_the_group_moves_together() -> None:
    """SNC-9.6.2: the overrunning units are one group from one hex; units of another hex cannot
    join; the group moves together even under stack_movement=units_only."""
    stacks = pos(h2806=ELEVENTH, h2906=THIRD, h2707="CH-3D")
    mixed = (*ELEVENTH, *THIRD)
    assert "SNC-9.6.2" in (
        overrun_problem(BOARD, DATA, STANDARD, stacks, mixed, h("2806"), h("2707"), Fraction(3))
        or ""
    )
    assert problem("2707", stack_movement="units_only") is None


def test_snc_9_6_3_survivors_stop_the_group() -> None:
    """SNC-9.6.3, SNC-9.6.8: when Chinese units survive, the group stays in the hex it attacked
    from, cannot move on, and may try again for 1 more MP or stop."""
    after = after_overrun(BOARD, DATA, STANDARD, STACKS, h("2806"), h("2707"), Fraction(2))
    assert after.at == h("2806") and not after.may_move_on
    assert after.may_overrun_again and after.repeat


def test_snc_9_6_8_another_attempt_costs_one_mp() -> None:
    """SNC-9.6.8: a renewed overrun of the same hex costs another MP (not the entry again)."""
    assert overrun_cost(BOARD, DATA, STANDARD, h("2806"), h("2707"), repeat=True) == 1
    left = check_overrun(
        BOARD, DATA, STANDARD, STACKS, ELEVENTH, h("2806"), h("2707"), Fraction(2), repeat=True
    )
    assert left == 1
    with pytest.raises(IllegalAction, match=r"SNC-9\.6\.1"):
        check_overrun(
            BOARD,
            DATA,
            STANDARD,
            STACKS,
            ELEVENTH,
            h("2806"),
            h("2707"),
            Fraction(1, 2),
            repeat=True,
        )
    none_left = after_overrun(BOARD, DATA, STANDARD, STACKS, h("2806"), h("2707"), Fraction(1, 2))
    assert not none_left.may_overrun_again


def test_snc_9_6_6_continue_when_cleared_and_free_of_zoc() -> None:
    """SNC-9.6.6: defenders eliminated, MP left and no Chinese ZOC in the overrun hex: the group
    moves on from it."""
    cleared = pos(h2806=ELEVENTH)  # 2707's defender gone, nobody near
    after = after_overrun(BOARD, DATA, STANDARD, cleared, h("2806"), h("2707"), Fraction(2))
    assert after.at == h("2707") and after.may_move_on and not after.may_overrun_again
    spent = after_overrun(BOARD, DATA, STANDARD, cleared, h("2806"), h("2707"), Fraction(0))
    assert not spent.may_move_on


def test_snc_9_6_7_in_chinese_zoc_another_overrun() -> None:
    """SNC-9.6.7, SNC-9.6.6: cleared 2707 lies in the ZOC of Chang Sho (2606): the group may not
    move on but may attempt another overrun."""
    cleared = pos(h2806=ELEVENTH, h2606=("CH-6D", "CH-7D", "CH-51D"))
    after = after_overrun(BOARD, DATA, STANDARD, cleared, h("2806"), h("2707"), Fraction(2))
    assert after.at == h("2707") and not after.may_move_on and after.may_overrun_again
    assert not after.repeat


def test_snc_9_6_1_overrun_from_ezoc_option() -> None:
    """SNC-9.6.1, AMB-SNC-25: 2806 is in the ZOC of 2707; allowed by default (the example),
    refused under overrun_from_ezoc=forbidden."""
    assert problem("2707") is None
    assert "AMB-SNC-25" in (problem("2707", overrun_from_ezoc="forbidden") or "")


def test_snc_9_6_7_repeated_overruns_option() -> None:
    """SNC-9.6.7, AMB-SNC-26: a hex already overrun this phase may be overrun again unless
    repeated_overruns=once_per_hex."""
    done = frozenset({h("2707")})
    assert (
        overrun_problem(
            BOARD,
            DATA,
            STANDARD,
            STACKS,
            ELEVENTH,
            h("2806"),
            h("2707"),
            Fraction(3),
            overrun_this_phase=done,
        )
        is None
    )
    once = variant(repeated_overruns="once_per_hex")
    assert "AMB-SNC-26" in (
        overrun_problem(
            BOARD,
            DATA,
            once,
            STACKS,
            ELEVENTH,
            h("2806"),
            h("2707"),
            Fraction(3),
            overrun_this_phase=done,
        )
        or ""
    )


def test_snc_9_6_2_overrun_options_after_moving_together() -> None:
    """SNC-9.6.2, SNC-9.6.1, SNC-9.0.11, SNC-9.6.9: the 11th Division moving together from
    2904 reaches 2807 with 7/2 MP and may overrun 2707 from there (3 MP); it reaches 2806 with
    only 5/2, too few for the 3 MP overrun. With 3 MP left at 2806 (the example) exactly that
    overrun remains, leaving nothing."""
    stacks = pos(h2904=ELEVENTH, h2707="CH-3D", h2606=("CH-6D", "CH-7D", "CH-51D"))
    ends = reachable(BOARD, DATA, STANDARD, stacks, ELEVENTH, h("2904"))
    assert ends[h("2806")] == Fraction(5, 2) and ends[h("2807")] == Fraction(7, 2)
    options = overrun_options(BOARD, DATA, STANDARD, stacks, ELEVENTH, h("2904"))
    assert options == {(h("2807"), h("2707")): Fraction(1, 2)}
    example_only = overrun_options(
        BOARD, DATA, STANDARD, STACKS, ELEVENTH, h("2806"), mp=Fraction(3)
    )
    assert example_only == {(h("2806"), h("2707")): Fraction(0)}


def test_snc_9_6_8_overrun_repeat_cost_readings() -> None:
    """SNC-9.6.8 "pay 1 more MP", found-here option `overrun_repeat_cost`: a renewed overrun of
    the marsh hex 2707 from 2806 costs 1 MP under `one_mp` (standard) and the first attempt's 3
    under `full_cost`; with 2 MP left the group may try again only under `one_mp`."""
    full = variant(overrun_repeat_cost="full_cost")
    assert overrun_cost(BOARD, DATA, STANDARD, h("2806"), h("2707"), repeat=True) == 1
    assert overrun_cost(BOARD, DATA, full, h("2806"), h("2707"), repeat=True) == 3
    assert after_overrun(BOARD, DATA, STANDARD, STACKS, h("2806"), h("2707"), Fraction(2)).repeat
    one = after_overrun(BOARD, DATA, STANDARD, STACKS, h("2806"), h("2707"), Fraction(2))
    again = after_overrun(BOARD, DATA, full, STACKS, h("2806"), h("2707"), Fraction(2))
    assert one.may_overrun_again and not again.may_overrun_again
    with pytest.raises(IllegalAction, match=r"SNC-9\.6\.1"):
        check_overrun(
            BOARD, DATA, full, STACKS, ELEVENTH, h("2806"), h("2707"), Fraction(2), repeat=True
        )
