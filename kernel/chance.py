"""Chance as explicit, exactly weighted outcomes.

Dice are never rolled inside the rules: a rules function asks for a distribution, the side to
move becomes CHANCE, and the caller (a player, a replay, a seeded agent) picks an outcome. The
probabilities are exact `Fraction`s, so tests can check that they sum to one and enumerations
(perft, expectimax) are exact.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from fractions import Fraction
from math import comb
from typing import TypeVar

T = TypeVar("T")

D6_FACES = (1, 2, 3, 4, 5, 6)


@functools.cache
def binomial(n: int, p: Fraction) -> tuple[Fraction, ...]:
    """P(k successes in n independent trials of probability p), for k = 0..n."""
    if n < 0:
        raise ValueError("n must be >= 0")
    q = 1 - p
    return tuple(comb(n, k) * p**k * q ** (n - k) for k in range(n + 1))


def hit_probability(hitting_faces: int) -> Fraction:
    """Probability that one d6 shows one of `hitting_faces` faces."""
    return Fraction(hitting_faces, 6)


def sample(outcomes: Sequence[tuple[T, Fraction]], rng: random.Random) -> T:
    """Draw one outcome with its exact probability (integer arithmetic, no float bias)."""
    if not outcomes:
        raise ValueError("no outcomes to sample from")
    denominator = 1
    for _, p in outcomes:
        denominator = denominator * p.denominator // _gcd(denominator, p.denominator)
    point = rng.randrange(denominator)
    acc = 0
    for item, p in outcomes:
        acc += p.numerator * (denominator // p.denominator)
        if point < acc:
            return item
    raise ValueError("probabilities do not sum to one")


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a
