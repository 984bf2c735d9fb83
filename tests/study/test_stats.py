"""The study's statistics: Wilson intervals, the exact McNemar test and the paired interval,
against closed forms and the properties an interval must have."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tools.agents.match import MatchResult
from tools.study.stats import Z95, compare, mcnemar_p, paired_difference, summarize, wilson


def test_wilson_closed_forms() -> None:
    """0 of n: upper bound z²/(n + z²); n of n: lower bound n/(n + z²); 5 of 10: the textbook
    (0.2366, 0.7634)."""
    z2 = Z95 * Z95
    assert wilson(0, 10) == pytest.approx((0.0, z2 / (10 + z2)))
    assert wilson(10, 10) == pytest.approx((10 / (10 + z2), 1.0))
    low, high = wilson(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)


@given(st.integers(1, 500).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_contains_the_rate(kn: tuple[int, int]) -> None:
    k, n = kn
    low, high = wilson(k, n)
    assert 0.0 <= low <= k / n <= high <= 1.0


def test_mcnemar_exact_values() -> None:
    """Two-sided binomial(b + c, 1/2) tail on the discordant seeds."""
    assert mcnemar_p(0, 0) == 1.0
    assert mcnemar_p(3, 3) == 1.0
    assert mcnemar_p(0, 5) == pytest.approx(2 / 32)
    assert mcnemar_p(6, 0) == pytest.approx(2 / 64)
    assert mcnemar_p(1, 9) == pytest.approx(2 * (1 + 10) / 1024)
    assert mcnemar_p(2000, 1000) < 1e-10  # large counts stay finite


tables = st.tuples(*[st.integers(0, 60)] * 4).filter(lambda t: sum(t) > 0)


@given(tables)
def test_paired_interval_contains_the_difference_and_mirrors(t: tuple[int, int, int, int]) -> None:
    """The interval holds (c - b)/n, stays in [-1, 1], and swapping the readings negates it."""
    a, b, c, d = t
    n = a + b + c + d
    low, high = paired_difference(a, b, c, d)
    assert -1.0 <= low <= (c - b) / n + 1e-12
    assert (c - b) / n - 1e-12 <= high <= 1.0
    back = paired_difference(a, c, b, d)
    assert back == pytest.approx((-high, -low))


def test_paired_interval_narrows_with_more_games() -> None:
    """The same proportions on ten times the seeds give a narrower interval."""
    small = paired_difference(10, 2, 6, 12)
    large = paired_difference(100, 20, 60, 120)
    assert large[1] - large[0] < small[1] - small[0]
    assert large[0] > 0  # 60 against 20 discordant seeds: clearly positive


def test_seeds_that_all_agree_still_leave_an_interval() -> None:
    """20 paired seeds, 10 won under both readings and 10 under neither: no seed changed, yet
    20 games do not prove the readings equal. Newcombe's corrected correlation
    ((a d - b c - n / 2) over the margins: 0.9, not 1) leaves about +-9 points; the
    uncorrected one would give an interval of zero width."""
    low, high = paired_difference(10, 0, 0, 10)
    wl, _ = wilson(10, 20)
    half = (0.5 - wl) * math.sqrt(2 - 2 * 0.9)
    assert (low, high) == pytest.approx((-half, half))
    assert half > 0.08


def _r(seed: int, winner: str | None, stop: str = "ended", steps: int = 10) -> MatchResult:
    clause = None if stop == "step_limit" else "NOM-4.3"
    return MatchResult(seed, stop, winner, clause, steps, steps)


def test_summary_counts_and_paired_comparison() -> None:
    """A draw, a truncated game and wins are told apart; the comparison pairs by seed."""
    base = [_r(0, "SU"), _r(1, "JP", steps=20), _r(2, "SU"), _r(3, None, "step_limit", 30)]
    other = [_r(0, None), _r(1, "JP", steps=20), _r(2, "SU"), _r(3, None, "step_limit", 30)]
    s = summarize(base, ("JP", "SU"))
    assert s["games"] == 4
    assert s["wins"]["SU"]["count"] == 2 and s["wins"]["SU"]["rate"] == 0.5
    assert s["draw"]["count"] == 0
    assert s["unfinished"] == {"step_limit": 1}
    assert s["length"]["mean"] == 17.5 and s["length"]["median"] == 15.0
    assert s["clauses"] == {"NOM-4.3": 3}
    c = compare(base, list(reversed(other)), ("JP", "SU"))
    assert c["paired_games"] == 4 and c["changed_games"] == 1
    su = c["outcomes"]["SU"]
    assert (su["base_only"], su["other_only"], su["difference"]) == (1, 0, -0.25)
    draw = c["outcomes"]["draw"]
    assert (draw["base_only"], draw["other_only"], draw["difference"]) == (0, 1, 0.25)
    assert c["outcomes"]["JP"]["p_value"] == 1.0
    assert not math.isnan(su["low"])
