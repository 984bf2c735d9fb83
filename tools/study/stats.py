"""The numbers a study reports, computed from stored results sorted by seed (so they do not
depend on the order the engine delivered them).

Win rates carry 95% Wilson score intervals: unlike the plain normal interval they stay inside
[0, 1] and keep their coverage near 0 and 1 and for a few dozen games.

`--compare` plays each reading on the same seeds, so a reading's effect is measured on paired
games: for one outcome (a side's win, or a draw), seed by seed, both readings give it (a), only
the base reading (b), only the other (c), or neither (d). The difference in rate is (c - b) / n.
Its p-value is the exact McNemar test: under "no effect" a discordant seed is as likely either
way, so b ~ Binomial(b + c, 1/2), two-sided. It uses only the discordant seeds and is exact,
which matters here: a rules option often changes the result of only a handful of seeds (a tie
on points), where a normal approximation on the paired differences would be far off. Its 95%
interval is Newcombe's hybrid score interval for paired proportions (method 10, 1998), built
from the two Wilson intervals and the correlation of the pairs, so it is consistent with the
per-reading intervals and, like them, behaves near 0 and 1.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from tools.agents.match import MatchResult

Z95 = 1.959963984540054
"""The standard normal quantile of 0.975: 95% two-sided intervals."""
ALPHA = 0.05
DRAW = "draw"
"""The outcome of a game the rules ended with no winner."""


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion ((0, 1) when n is 0)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if successes == 0 else max(0.0, centre - half)  # exact ends, no rounding dust
    high = 1.0 if successes == n else min(1.0, centre + half)
    return (low, high)


def outcome_of(result: MatchResult) -> str | None:
    """A side's name when it won, DRAW when the rules ended the game without a winner, None
    when the game did not end by the rules (no legal action, step limit)."""
    if result.stop != "ended":
        return None
    return result.winner if result.winner is not None else DRAW


def rate(count: int, n: int) -> dict[str, Any]:
    low, high = wilson(count, n)
    return {"count": count, "rate": count / n if n else 0.0, "low": low, "high": high}


def summarize(results: Sequence[MatchResult], sides: Sequence[str]) -> dict[str, Any]:
    """One reading's games: win rates per side and the draw rate (over all games: a game that
    did not end by the rules is no one's win), the games that did not end by the rules, game
    length in steps (chance included) and decisions, and how the games ended, by clause."""
    n = len(results)
    outcomes = Counter(outcome_of(r) for r in results)
    steps = [r.steps for r in results]
    clauses = Counter(r.clause or "" for r in results if r.stop == "ended")
    stops = Counter(r.stop for r in results if r.stop != "ended")
    return {
        "games": n,
        "wins": {side: rate(outcomes[side], n) for side in sides},
        DRAW: rate(outcomes[DRAW], n),
        "unfinished": {stop: stops[stop] for stop in sorted(stops)},
        "length": {
            "mean": statistics.fmean(steps) if steps else 0.0,
            "median": float(statistics.median(steps)) if steps else 0.0,
            "min": min(steps, default=0),
            "max": max(steps, default=0),
            "mean_decisions": statistics.fmean(r.decisions for r in results) if results else 0.0,
        },
        "clauses": {c: k for c, k in sorted(clauses.items(), key=lambda ck: (-ck[1], ck[0]))},
    }


def mcnemar_p(b: int, c: int) -> float:
    """Exact two-sided McNemar p-value on b and c discordant pairs (1 when there are none)."""
    m = b + c
    if m == 0:
        return 1.0
    k = min(b, c)
    tail = Fraction(sum(math.comb(m, i) for i in range(k + 1)), 1 << m)
    return min(1.0, float(2 * tail))


def paired_difference(a: int, b: int, c: int, d: int, z: float = Z95) -> tuple[float, float]:
    """Newcombe's hybrid score interval (method 10) for p_other - p_base, where p_base =
    (a + b) / n and p_other = (a + c) / n over n = a + b + c + d paired games."""
    n = a + b + c + d
    if n == 0:
        return (-1.0, 1.0)
    p1, p2 = (a + c) / n, (a + b) / n  # other, base
    l1, u1 = wilson(a + c, n, z)
    l2, u2 = wilson(a + b, n, z)
    margins = (a + b) * (c + d) * (a + c) * (b + d)
    phi = _corrected(a * d - b * c, n) / math.sqrt(margins) if margins else 0.0
    theta = p1 - p2
    lower = (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2
    upper = (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2
    return (
        max(-1.0, theta - math.sqrt(max(0.0, lower))),
        min(1.0, theta + math.sqrt(max(0.0, upper))),
    )


def _corrected(ad_bc: int, n: int) -> float:
    """Newcombe's continuity correction of the correlation's numerator (method 10, as
    Fagerland, Lydersen and Laake 2014 restate it): less n/2 where it exceeds n/2, 0 where it
    lies in [0, n/2], as it is where negative. Without it, seeds that all agree (b = c = 0)
    give a correlation of 1 and an interval of zero width, a certainty a few dozen games do
    not give."""
    if ad_bc > n / 2:
        return ad_bc - n / 2
    return 0.0 if ad_bc >= 0 else float(ad_bc)


def compare(
    base: Sequence[MatchResult], other: Sequence[MatchResult], sides: Sequence[str]
) -> dict[str, Any]:
    """Per outcome (each side's win, a draw), the paired difference other - base on the seeds
    both readings have played."""
    by_seed = {r.seed: r for r in other}
    pairs = [(outcome_of(r), outcome_of(by_seed[r.seed])) for r in base if r.seed in by_seed]
    n = len(pairs)
    out: dict[str, Any] = {"paired_games": n, "outcomes": {}}
    for outcome in (*sides, DRAW):
        a = sum(1 for x, y in pairs if x == outcome and y == outcome)
        b = sum(1 for x, y in pairs if x == outcome and y != outcome)
        c = sum(1 for x, y in pairs if x != outcome and y == outcome)
        d = n - a - b - c
        low, high = paired_difference(a, b, c, d)
        p = mcnemar_p(b, c)
        out["outcomes"][outcome] = {
            "base_rate": (a + b) / n if n else 0.0,
            "other_rate": (a + c) / n if n else 0.0,
            "difference": (c - b) / n if n else 0.0,
            "low": low,
            "high": high,
            "base_only": b,
            "other_only": c,
            "p_value": p,
            "significant": p < ALPHA,
        }
    out["changed_games"] = sum(1 for x, y in pairs if x != y)
    return out
