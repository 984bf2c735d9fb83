"""Legal combat assignments of a position: enumerate, count, check, explain (DESIGN "Generate").

The problem is split into independent contact components (`combat_shape.split`). Each
component's solutions come from Z3 (`combat_z3.ShapeSolver`), lazily, and are cached by the
component's canonical shape, so a shape met again in another position costs a dictionary
lookup. An assignment is one solution per component, side by side, then the supporters' choices
of which reachable combats to support. Supporters are the one rule that ties components together
(once per phase); their choices are independent of each other given the combats, so they are
layered on top exactly. `check` and `explain` encode the whole problem, supporters included.

Order: components by their first unit in problem order, the first component outermost; inside a
component, lexicographic in its attackers' choices (no attack first, then targets in order);
then the support choices, no support first. It is the same on every run and machine.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter, OrderedDict
from collections.abc import Iterator, Sequence

from solvers.combat import MANY, Assignment, Combat, CombatProblem, order_of
from solvers.combat_count import Histogram, count_one_target
from solvers.combat_explain import explain
from solvers.combat_shape import Component, LocalCombat, Shape, split
from solvers.combat_z3 import ShapeSolver

__all__ = ["assignments", "check", "clear_cache", "count", "explain", "first"]

CACHE_SHAPES = 512  # distinct component shapes kept
CACHE_SOLUTIONS = 20_000  # solutions kept per shape; larger sets are regenerated when reread


class _Solutions:
    """A shape's solutions, generated on demand and kept for the next reader."""

    def __init__(self, shape: Shape) -> None:
        self.shape = shape
        self.items: list[tuple[LocalCombat, ...]] = []
        self._source: Iterator[tuple[LocalCombat, ...]] | None = ShapeSolver(shape).solutions()
        self.done = False

    def __iter__(self) -> Iterator[tuple[LocalCombat, ...]]:
        i = 0
        while True:
            if i < len(self.items):
                yield self.items[i]
                i += 1
                continue
            if self.done:
                return
            if len(self.items) >= CACHE_SOLUTIONS:
                # Too many to keep: a private solver replays the rest for this reader.
                yield from itertools.islice(ShapeSolver(self.shape).solutions(), i, None)
                return
            assert self._source is not None
            item = next(self._source, None)
            if item is None:
                self.done = True
                self._source = None
                return
            self.items.append(item)


_cache: OrderedDict[Shape, _Solutions] = OrderedDict()
stats = Counter[str]()


def clear_cache() -> None:
    _cache.clear()
    stats.clear()


def solutions(shape: Shape) -> _Solutions:
    """The cached solution set of a shape (LRU over `CACHE_SHAPES` shapes)."""
    found = _cache.get(shape)
    if found is not None:
        _cache.move_to_end(shape)
        stats["hit"] += 1
        return found
    stats["miss"] += 1
    made = _Solutions(shape)
    _cache[shape] = made
    if len(_cache) > CACHE_SHAPES:
        _cache.popitem(last=False)
    return made


def _globalise(comp: Component, local: tuple[LocalCombat, ...]) -> list[Combat]:
    return [
        Combat(tuple(comp.attackers[a] for a in atts), tuple(comp.targets[t] for t in tgts))
        for atts, tgts in local
    ]


def _combat_sets(comps: Sequence[Component]) -> Iterator[list[Combat]]:
    """The product of the components' solution sets, first component outermost, lazily."""
    if not comps:
        yield []
        return
    head, rest = comps[0], comps[1:]
    for local in solutions(head.shape):
        mine = _globalise(head, local)
        for others in _combat_sets(rest):
            yield mine + others


def _in_reach(problem: CombatProblem, combat: Combat) -> list[bool]:
    return [
        s.unavailable is None and not s.reach.isdisjoint((*combat.attackers, *combat.targets))
        for s in problem.supporters
    ]


def _with_support(
    problem: CombatProblem, combats: list[Combat], rank: dict[str, int]
) -> Iterator[Assignment]:
    """Each component's combats are already in canonical form; only their order is made."""
    ordered = sorted(
        combats, key=lambda c: ([rank[u] for u in c.attackers], [rank[u] for u in c.targets])
    )
    if not problem.supporters:
        yield tuple(ordered)
        return
    reach = [_in_reach(problem, c) for c in ordered]
    per_supporter: list[list[tuple[int, ...]]] = []
    for k, s in enumerate(problem.supporters):
        reachable = [i for i in range(len(ordered)) if reach[i][k]]
        picks = [
            pick
            for size in range(min(s.max_combats, len(reachable)) + 1)
            for pick in itertools.combinations(reachable, size)
        ]
        per_supporter.append(picks)
    for choice in itertools.product(*per_supporter):
        support: dict[int, list[str]] = {}
        for k, pick in enumerate(choice):
            for i in pick:
                support.setdefault(i, []).append(problem.supporters[k].id)
        yield tuple(
            Combat(c.attackers, c.targets, tuple(support[i])) if i in support else c
            for i, c in enumerate(ordered)
        )


def assignments(problem: CombatProblem) -> Iterator[Assignment]:
    """Every legal assignment, lazily, in the canonical order (module docstring)."""
    rank = order_of(problem)
    for combats in _combat_sets(split(problem)):
        yield from _with_support(problem, combats, rank)


def first(problem: CombatProblem) -> Assignment | None:
    return next(assignments(problem), None)


def check(problem: CombatProblem, assignment: Assignment) -> bool:
    """Whether `assignment` is legal (the whole problem encoded, supporters included)."""
    return not explain(problem, assignment)


def _histogram(problem: CombatProblem, comp: Component) -> Histogram:
    """Solutions of one component by how many of its combats each supporter could reach."""
    k = len(problem.supporters)
    known = _cache.get(comp.shape)
    if comp.shape.grouping != MANY and (known is None or not known.done):
        a_index = {a: i for i, a in enumerate(comp.attackers)}
        t_index = {t: i for i, t in enumerate(comp.targets)}
        live = [s for s in problem.supporters]
        reach_a = [
            frozenset(a_index[u] for u in s.reach if u in a_index)
            if s.unavailable is None
            else frozenset()
            for s in live
        ]
        reach_t = [
            frozenset(t_index[u] for u in s.reach if u in t_index)
            if s.unavailable is None
            else frozenset()
            for s in live
        ]
        return count_one_target(comp.shape, reach_a, reach_t)
    out: Histogram = Counter()
    for local in solutions(comp.shape):
        totals = [0] * k
        for c in _globalise(comp, local):
            for s, yes in enumerate(_in_reach(problem, c)):
                totals[s] += yes
        out[tuple(totals)] += 1
    return out


def count(problem: CombatProblem) -> int:
    """The exact number of legal assignments, without listing them where that is costly."""
    k = len(problem.supporters)
    total: Histogram = Counter({(0,) * k: 1})
    for comp in split(problem):
        hist = _histogram(problem, comp)
        merged: Histogram = Counter()
        for x, m in total.items():
            for y, n in hist.items():
                merged[tuple(i + j for i, j in zip(x, y, strict=True))] += m * n
        total = merged
    out = 0
    for reach, ways in total.items():
        factor = 1
        for s, e in zip(problem.supporters, reach, strict=True):
            factor *= sum(math.comb(e, j) for j in range(min(s.max_combats, e) + 1))
        out += ways * factor
    return out
