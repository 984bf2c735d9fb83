"""SNC's units under a stack's top over whole games (SNC-6.3.1, SNC-6.4.1, SNC-10.0.5;
AMB-SNC-40): two games that differ only in which enemy units stand under the tops, or which of
them later moves, fights or is culled, played as the same orders, show the other side the same
view, log line and OpenSpiel strings and tensor after every step while both units stay under
a top, out of any combat."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from specs.snc1937.rules.state import SNCState
from tests.hidden.twins import SNC, snc_pairs
from tools.testing.histories import compare

STEPS = 120


def _check(
    seed: int, side: str, pairs: int, game: Any = SNC, preset: str = "standard"
) -> list[Any]:
    v = SNC.presets()[preset]
    return [
        compare(game, side, history, other, hidden, spiel=v if game is SNC else None)
        for history, other, hidden in snc_pairs(seed, side, STEPS, pairs, preset)
    ]


@pytest.mark.parametrize(
    ("seed", "side", "preset"),
    [(1, "JP", "standard"), (2, "JP", "standard"), (2, "CH", "standard"), (3, "CH", "printed")],
)
def test_snc_6_3_1_units_under_a_top_swapped_change_nothing_the_enemy_sees(
    seed: int, side: str, preset: str
) -> None:
    """SNC-6.3.1: of an enemy stack a side sees the top unit and the count: two enemy units
    under tops swapped for a whole seeded game leave every view, log line and OpenSpiel
    string and tensor of `side` the same, step by step, until one of them is shown."""
    reports = _check(seed, side, 3, preset=preset)
    assert reports, "no pair of units under tops in this game"
    for r in reports:
        assert r.leak is None, str(r.leak)
    assert max(r.compared for r in reports) > 5


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=10, max_value=10_000), st.sampled_from(["CH", "JP"]))
def test_snc_6_3_1_no_seeded_game_leaks_a_unit_under_a_top(seed: int, side: str) -> None:
    """SNC-6.3.1: the same over games hypothesis chooses."""
    for r in _check(seed, side, 2):
        assert r.leak is None, str(r.leak)


def _whole_stacks(game: Any) -> Any:
    """A planted leak: the view also lists where every unit stands, forgetting that only the
    top of an enemy stack is seen (SNC-6.3.1)."""
    leaky = copy.copy(game)
    observe = game.observe

    def seen(s: SNCState, side: str) -> dict[str, Any]:
        return {**observe(s, side), "where": sorted((u, str(h)) for u, h in s.where)}

    leaky.observe = seen
    return leaky


def test_snc_6_3_1_a_planted_leak_of_the_whole_stacks_is_caught() -> None:
    """SNC-6.3.1 (planted weakness): a view that lists every unit's hex tells which of two
    units under a top moved on; the harness finds it in the view."""
    found = [r.leak for r in _check(10, "JP", 1, _whole_stacks(SNC)) if r.leak is not None]
    assert found and found[0].part == "view"
