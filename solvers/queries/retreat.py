"""Retreat paths as the models of a Z3 formula: generate, count, check and explain.

A spec describes one retreat as plain data (`RetreatProblem`): opaque hex labels, adjacency, the
start hex, how many hexes the unit must retreat, and each rule that bars a step, with the clauses
it encodes and a sentence a player understands. The retreat rules of the four games differ in
what they bar (enemy ZOC, occupied hexes, river hexsides, the map edge, going back, not moving
away) but all bar single steps of a path, so one encoding serves them all.

A path is the tuple of hexes entered, one per hex retreated. A path that leaves the map (where a
reading allows it) ends at the off-map hex, so it may be shorter than `length`.
`solvers.queries.retreat_oracle` computes the same sets by plain depth-first search.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from solvers import smt
from solvers.queries.retreat_problem import (
    Breach,
    NoCrossing,
    NoEnd,
    NoEntry,
    Path,
    RetreatProblem,
    reason,
    shape_problem,
)
from solvers.reasons import Reason

# --- the encoding ----------------------------------------------------------------------------


class _Encoding:
    """at[i][h]: the unit is in hex h after retreating i hexes (at[0] is the start).

    The formulas of one breach (one rule at one step) are joined under one label, and labelled
    only when `track` is set: enumeration needs no core, and untracked constraints keep each
    check cheap.
    """

    def __init__(
        self,
        problem: RetreatProblem,
        extra: Iterable[str] = (),
        *,
        track: bool = False,
    ) -> None:
        self.p = problem
        self.scope = _scope(problem, extra)
        self.exits = problem.exits() & self.scope
        self.solver = smt.Solver()
        n = problem.length
        self.at: list[dict[str, smt.Bool]] = [
            {h: smt.true() if h == problem.start else smt.false() for h in self.scope}
        ]
        for i in range(1, n + 1):
            self.at.append({h: smt.bool_var(f"at{i}_{h}") for h in self.scope})
            self.solver.add(smt.exactly(list(self.at[i].values()), 1))
            for x in self.exits:  # off the map for good
                self.solver.add(smt.implies(self.at[i - 1][x], self.at[i][x]))
        self._parts: dict[Breach, list[smt.Bool]] = {}
        for i in range(1, n + 1):
            self._step(i)
            self._revisit(i)
            self._progress(i)
        for breach, parts in self._parts.items():
            self.solver.add(smt.and_(parts), breach if track else None)

    def breaches(self) -> list[Breach]:
        """Every breach this encoding can report (each a tracked label when `track`)."""
        return list(self._parts)

    def var(self, i: int, h: str) -> smt.Bool:
        return self.at[i].get(h, smt.false()) if i >= 0 else smt.false()

    def entered(self, i: int, h: str) -> smt.Bool:
        """The unit comes into `h` at step `i` (staying off the map is not entering)."""
        if h in self.exits:
            return smt.and_([self.var(i, h), smt.not_(self.var(i - 1, h))])
        return self.var(i, h)

    def moves(self, i: int, a: str, b: str) -> smt.Bool:
        return smt.and_([self.var(i - 1, a), self.entered(i, b)])

    def bar(self, breach: Breach, formula: smt.Bool) -> None:
        """`formula` must not hold; breaking that is `breach`."""
        self._parts.setdefault(breach, []).append(smt.not_(formula))

    def _step(self, i: int) -> None:
        p, scope = self.p, self.scope
        if p.max_hexes is not None and i > p.max_hexes.count:
            self.bar(Breach(i, "max"), smt.not_(smt.or_([self.var(i - 1, x) for x in self.exits])))
        for h in sorted(scope):
            came = smt.or_([self.var(i - 1, g) for g in p.neighbors(h)])
            self.bar(Breach(i, "step"), smt.and_([self.entered(i, h), smt.not_(came)]))
        if p.off_map is not None and not p.off_map.allowed:
            for x in sorted(p.off_map.hexes & scope):
                self.bar(Breach(i, "off_map"), self.var(i, x))
        for k, rule in enumerate(p.prohibitions):
            breach = Breach(i, "prohibition", k)
            if isinstance(rule, NoEntry) and rule.hex in scope:
                self.bar(breach, self.entered(i, rule.hex))
            elif isinstance(rule, NoCrossing) and rule.source in scope and rule.to in scope:
                self.bar(breach, self.moves(i, rule.source, rule.to))
            elif isinstance(rule, NoEnd) and i == p.length and rule.hex in scope:
                self.bar(breach, self.var(i, rule.hex))  # off the map, it stays where it left

    def _revisit(self, i: int) -> None:
        rv = self.p.revisit
        if rv is None:
            return
        earlier = [i - 2] if rv.kind == "not_back" else range(i)
        for h in sorted(self.scope - self.exits):
            before = smt.or_([self.var(j, h) for j in earlier if j >= 0])
            self.bar(Breach(i, "revisit"), smt.and_([self.var(i, h), before]))

    def _progress(self, i: int) -> None:
        pr = self.p.progress
        if pr is None:
            return
        dist = dict(pr.distance)
        for a, b in self.p.adjacent:
            for x, y in ((a, b), (b, a)):
                inside = x in self.scope and y in self.scope and x in dist and y in dist
                if inside and dist[y] <= dist[x]:
                    self.bar(Breach(i, "progress"), self.moves(i, x, y))

    def fix(self, path: Path) -> list[smt.Bool]:
        """Literals that pin the unit to `path` (padded once it has left the map)."""
        full = list(path) + [path[-1]] * (self.p.length - len(path)) if path else []
        return [self.at[i + 1][h] for i, h in enumerate(full)]


def _scope(p: RetreatProblem, extra: Iterable[str]) -> frozenset[str]:
    """Hexes within `length` steps of the start (the only ones a path can use), plus `extra`."""
    seen = {p.start}
    frontier = [p.start]
    for _ in range(p.length):
        nxt = []
        for h in frontier:
            for n in p.neighbors(h):
                if n not in seen:
                    seen.add(n)
                    nxt.append(n)
        frontier = nxt
    return frozenset(seen | set(extra))


# --- the API ---------------------------------------------------------------------------------


def paths(problem: RetreatProblem) -> Iterator[Path]:
    """The legal retreat paths, lazily, in sorted order.

    A depth-first walk asks the solver, before each hex it tries, whether some legal path
    continues that way, so it never descends into a dead branch and yields in tuple order.
    """
    enc = _Encoding(problem)
    exits = problem.exits()

    def walk(prefix: Path, fixed: list[smt.Bool]) -> Iterator[Path]:
        i = len(prefix)
        if i == problem.length or (prefix and prefix[-1] in exits):
            yield prefix
            return
        here = prefix[-1] if prefix else problem.start
        for h in problem.neighbors(here):
            lit = enc.at[i + 1].get(h)
            if lit is not None and enc.solver.check([*fixed, lit]):
                yield from walk((*prefix, h), [*fixed, lit])

    if enc.solver.check():
        yield from walk((), [])


def destinations(problem: RetreatProblem) -> list[str]:
    """The hexes where a legal retreat can end, sorted (the start itself for a 0-hex retreat)."""
    return sorted({path[-1] if path else problem.start for path in paths(problem)})


def count(problem: RetreatProblem) -> int:
    """How many legal paths there are (retreats are a few hexes long: enumerated)."""
    return sum(1 for _ in paths(problem))


def check(problem: RetreatProblem, path: Sequence[str]) -> bool:
    """Is `path` (the hexes entered, in order) a legal retreat?"""
    path = tuple(path)
    if shape_problem(problem, path) is not None:
        return False
    enc = _Encoding(problem, path)
    return enc.solver.check(enc.fix(path))


def explain(problem: RetreatProblem, path: Sequence[str]) -> list[Reason]:
    """Why `path` is illegal, in words, empty when it is legal.

    Each reason comes from a minimal unsat core; the cores are drawn one after another, each
    new one with the rules already named set aside (`smt.disjoint_cores`), so every rule the
    path breaks is listed, sorted by step, then in the problem's order.
    """
    path = tuple(path)
    shape = shape_problem(problem, path)
    if shape is not None:
        return [shape]
    enc = _Encoding(problem, path, track=True)
    cores = smt.disjoint_cores(enc.solver, enc.fix(path), enc.breaches())
    found = {b for core in cores for b in core if isinstance(b, Breach)}
    return [reason(problem, path, b) for b in sorted(found, key=Breach.key)]
