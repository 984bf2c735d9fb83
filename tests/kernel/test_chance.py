"""Chance: exact binomial probabilities and exact sampling."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from kernel.chance import binomial, hit_probability, sample


@given(st.integers(0, 20), st.sampled_from([Fraction(1, 3), Fraction(1, 6), Fraction(1, 2)]))
def test_binomial_sums_to_one(n: int, p: Fraction) -> None:
    dist = binomial(n, p)
    assert len(dist) == n + 1
    assert sum(dist) == 1
    assert dist[n] == p**n


def test_nom_9_11_hit_on_five_or_six_is_one_third() -> None:
    """NOM-9.11: a die hits on 5 or 6; NOM-9.15: only a 6 against a hill."""
    assert hit_probability(2) == Fraction(1, 3)
    assert hit_probability(1) == Fraction(1, 6)


def test_sample_follows_exact_weights() -> None:
    outcomes = [("a", Fraction(1, 6)), ("b", Fraction(1, 3)), ("c", Fraction(1, 2))]
    rng = random.Random(7)
    counts = Counter(sample(outcomes, rng) for _ in range(6000))
    assert abs(counts["a"] - 1000) < 150
    assert abs(counts["b"] - 2000) < 200
    assert abs(counts["c"] - 3000) < 200


def test_sample_is_reproducible_from_seed() -> None:
    outcomes = [(i, Fraction(1, 6)) for i in range(1, 7)]
    first = [sample(outcomes, random.Random(3)) for _ in range(5)]
    assert first == [sample(outcomes, random.Random(3)) for _ in range(5)]


def test_sample_never_picks_zero_weight_tail() -> None:
    outcomes = [("only", Fraction(1)), ("never", Fraction(0))]
    rng = random.Random(0)
    assert {sample(outcomes, rng) for _ in range(200)} == {"only"}
