"""Legal combat assignments of a position: enumerate, count, check, explain (DESIGN "Generate").

The problem is split into independent contact components (`combat_shape.split`). Each
component's solutions come from Z3 (`combat_z3.ShapeSolver`: every one listed is proved by a
satisfiable check, or by Z3 showing that no completion of its branch breaks a rule), lazily,
and are cached by the component's canonical shape, so a shape met again in another position
costs a dictionary lookup; a whole problem met again (positions recur in play) is answered from
its list. An assignment is one solution per component, side by side, then the supporters'
choices of which reachable combats to support. Supporters are the one rule that ties
components together (once per phase); their choices are independent of each other given the
combats, so they are layered on top exactly. `check` and `explain` encode the whole problem,
supporters included.

`count` never lists: a dynamic programme per component (`combat_count`: a transfer matrix
along the attackers, the open targets as its state, identical units merged), combined over
components and supporters. Under MANY, where that state would hold most targets at once (a
dense component with about as many targets as attackers), the component is counted instead
over the nodes of its search, memoised (`combat_many_count.count_structure`), when no rule beyond
the structure applies and no supporter reaches it.

Order: components by their first unit in problem order, the first component outermost; inside a
component, lexicographic in its attackers' choices (no attack first, then its combat: under
ONE_TARGET its target in order, under MANY its units as sorted tuples); then the support
choices, no support first. It is the same on every run and machine.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter, OrderedDict
from collections.abc import Callable, Hashable, Iterator, Sequence

from solvers.queries import combat_many_count
from solvers.queries.combat import MANY, Assignment, Combat, CombatProblem, Supporter
from solvers.queries.combat_count import Histogram, count_many
from solvers.queries.combat_count_one import count_one_target
from solvers.queries.combat_explain import explain
from solvers.queries.combat_shape import Component, LocalCombat, Shape, split
from solvers.queries.combat_z3 import ShapeSolver

__all__ = ["assignments", "check", "clear_cache", "count", "explain", "first"]

CACHE_SHAPES = 512  # distinct component shapes kept
CACHE_SOLUTIONS = 20_000  # solutions kept per shape; larger sets are regenerated when reread
CACHE_PROBLEMS = 4096  # whole problems kept, with their assignments listed
LIST_PROBLEM = 256  # a problem with more assignments than this is not kept whole


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
_problems: OrderedDict[Hashable, tuple[Assignment, ...]] = OrderedDict()
_firsts: OrderedDict[Hashable, Assignment | None] = OrderedDict()
stats = Counter[str]()


def clear_cache() -> None:
    _cache.clear()
    _problems.clear()
    _firsts.clear()
    stats.clear()


def _problem_key(p: CombatProblem) -> Hashable:
    """Everything in a problem that decides its assignments (names and rule texts do not)."""
    return (
        p.grouping,
        p.attackers,
        p.targets,
        p.contacts,
        frozenset(p.must_attack),
        frozenset(p.must_be_attacked),
        p.attack_all,
        tuple((a, frozenset(ts)) for a, ts in p.also_attack.items()),
        p.static,
        tuple(sorted(p.hexside_limits.items())),
        tuple((s.id, s.reach, s.max_combats, s.unavailable is None) for s in p.supporters),
    )


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


def _globaliser(comp: Component) -> Callable[[LocalCombat], Combat]:
    """A component's local combats as the problem's, each made once per call."""
    made: dict[LocalCombat, Combat] = {}
    attackers, targets = comp.attackers, comp.targets

    def globalise(local: LocalCombat) -> Combat:
        found = made.get(local)
        if found is None:
            found = made[local] = Combat(
                tuple(attackers[a] for a in local[0]), tuple(targets[t] for t in local[1])
            )
        return found

    return globalise


def _combat_sets(
    comps: Sequence[Component], makers: Sequence[Callable[[LocalCombat], Combat]]
) -> Iterator[list[Combat]]:
    """The product of the components' solution sets, first component outermost, lazily."""
    if not comps:
        yield []
        return
    globalise = makers[0]
    for local in solutions(comps[0].shape):
        mine = [globalise(c) for c in local]
        if len(comps) == 1:
            yield mine
            continue
        for others in _combat_sets(comps[1:], makers[1:]):
            yield mine + others


def _in_reach(problem: CombatProblem, combat: Combat) -> list[bool]:
    return [
        s.unavailable is None and not s.reach.isdisjoint((*combat.attackers, *combat.targets))
        for s in problem.supporters
    ]


def _with_support(ordered: list[Combat], live: list[Supporter]) -> Iterator[Assignment]:
    """The combats in canonical order, then each choice of the supporters that can support
    (a supporter unavailable or out of reach of every unit has the one choice: none)."""
    if not live:
        yield tuple(ordered)
        return
    per_supporter: list[list[tuple[int, ...]]] = []
    for s in live:
        reachable = [
            i
            for i, c in enumerate(ordered)
            if not s.reach.isdisjoint(c.attackers) or not s.reach.isdisjoint(c.targets)
        ]
        per_supporter.append(
            [
                pick
                for size in range(min(s.max_combats, len(reachable)) + 1)
                for pick in itertools.combinations(reachable, size)
            ]
        )
    for choice in itertools.product(*per_supporter):
        support: dict[int, list[str]] = {}
        for s, pick in zip(live, choice, strict=True):
            for i in pick:
                support.setdefault(i, []).append(s.id)
        yield tuple(
            Combat(c.attackers, c.targets, tuple(support[i])) if i in support else c
            for i, c in enumerate(ordered)
        )


def assignments(problem: CombatProblem) -> Iterator[Assignment]:
    """Every legal assignment, lazily, in the canonical order (module docstring). A problem
    met again (positions recur in play) is answered from the list made the first time."""
    key = _problem_key(problem)
    found = _problems.get(key)
    if found is not None:
        _problems.move_to_end(key)
        stats["problem hit"] += 1
        yield from found
        return
    kept: list[Assignment] | None = []
    for assignment in _assignments(problem):
        if kept is not None:
            kept.append(assignment)
            if len(kept) > LIST_PROBLEM:
                kept = None
        yield assignment
    if kept is not None:
        _problems[key] = tuple(kept)
        if len(_problems) > CACHE_PROBLEMS:
            _problems.popitem(last=False)


def _assignments(problem: CombatProblem) -> Iterator[Assignment]:
    comps = split(problem)
    live = [s for s in problem.supporters if s.unavailable is None and s.reach]
    makers = [_globaliser(c) for c in comps]
    if len(comps) == 1:  # the component's combats are in canonical order already
        globalise = makers[0]
        if not live:  # the common case in play, written out
            for local in solutions(comps[0].shape):
                yield tuple(map(globalise, local))
            return
        for local in solutions(comps[0].shape):
            yield from _with_support(list(map(globalise, local)), live)
        return
    if not comps:
        yield from _with_support([], live)
        return
    # Each component's combats are in order, and combats have disjoint attackers: the union
    # is in canonical order (`combat.canonical`) by the rank of each combat's first attacker.
    rank = {a: i for i, a in enumerate(problem.attackers)}

    def first_attacker(c: Combat) -> int:
        return rank[c.attackers[0]]

    for combats in _combat_sets(comps, makers):
        combats.sort(key=first_attacker)
        yield from _with_support(combats, live)


def first(problem: CombatProblem) -> Assignment | None:
    """The first legal assignment, or None. Asked far more often than the whole list (is any
    attack possible?), and a listing stopped after one is never kept whole, so the answer is
    kept on its own (LRU over `CACHE_PROBLEMS` problems)."""
    key = _problem_key(problem)
    listed = _problems.get(key)
    if listed is not None:
        stats["problem hit"] += 1
        return listed[0] if listed else None
    if key in _firsts:
        _firsts.move_to_end(key)
        stats["first hit"] += 1
        return _firsts[key]
    found = next(_assignments(problem), None)
    _firsts[key] = found
    if len(_firsts) > CACHE_PROBLEMS:
        _firsts.popitem(last=False)
    return found


def check(problem: CombatProblem, assignment: Assignment) -> bool:
    """Whether `assignment` is legal (the whole problem encoded, supporters included)."""
    return not explain(problem, assignment)


def _histogram(problem: CombatProblem, comp: Component) -> Histogram:
    """Solutions of one component by how many of its combats each supporter could reach."""
    k = len(problem.supporters)
    known = _cache.get(comp.shape)
    if known is None or not known.done:  # a dynamic programme, nothing listed
        a_index = {a: i for i, a in enumerate(comp.attackers)}
        t_index = {t: i for i, t in enumerate(comp.targets)}
        reach_a = [
            frozenset(a_index[u] for u in s.reach if u in a_index)
            if s.unavailable is None
            else frozenset()
            for s in problem.supporters
        ]
        reach_t = [
            frozenset(t_index[u] for u in s.reach if u in t_index)
            if s.unavailable is None
            else frozenset()
            for s in problem.supporters
        ]
        shape = comp.shape
        if shape.grouping != MANY:
            return count_one_target(shape, reach_a, reach_t)
        width = combat_many_count.frontier_width(shape)
        if (
            not any(reach_a)
            and not any(reach_t)
            and width >= combat_many_count.WIDE_FRONTIER
            and shape.n_attackers <= 2 * width
        ):  # the frontier would hold too many targets: by the search's structure
            n = combat_many_count.count_structure(shape)
            if n is not None:
                return Counter({(0,) * k: n})
        return count_many(shape, reach_a, reach_t)
    out: Histogram = Counter()  # listed already: read the list
    globalise = _globaliser(comp)
    for local in solutions(comp.shape):
        totals = [0] * k
        for c in map(globalise, local):
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
