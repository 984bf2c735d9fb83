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

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Literal

import attrs

from kernel.errors import InvalidInput
from solvers import smt
from solvers.reasons import Reason

Path = tuple[str, ...]


def _labels(xs: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(set(xs)))


def _clauses(xs: Iterable[str]) -> tuple[str, ...]:
    return tuple(xs)


def _hex_set(xs: Iterable[str]) -> frozenset[str]:
    return frozenset(xs)


@attrs.frozen
class Rule:
    """Clause IDs and the reason a step is barred, worded to follow "... into 0306: "."""

    clauses: tuple[str, ...] = attrs.field(converter=_clauses)
    text: str


@attrs.frozen
class NoEntry:
    """The unit may not enter `hex` (an enemy ZOC, a friendly unit, a neutral hex...)."""

    hex: str
    rule: Rule


@attrs.frozen
class NoCrossing:
    """The unit may not step from `source` into adjacent `to` (a river, a blown bridge)."""

    source: str
    to: str
    rule: Rule


@attrs.frozen
class NoEnd:
    """The unit may pass through `hex` but not end its retreat there (overstacking...)."""

    hex: str
    rule: Rule


Prohibition = NoEntry | NoCrossing | NoEnd


@attrs.frozen
class OffMap:
    """Hexes that stand for leaving the map. Where `allowed`, entering one ends the retreat
    (`rule` says what that means, e.g. elimination); otherwise `rule` bars entering them."""

    hexes: frozenset[str] = attrs.field(converter=_hex_set)
    allowed: bool
    rule: Rule


@attrs.frozen
class Revisit:
    """Limits on entering a hex again: `not_back` bars the hex just left, `never` bars every hex
    already occupied on this retreat, the start hex included."""

    kind: Literal["not_back", "never"]
    rule: Rule


def _sorted_items(m: Mapping[str, int] | Iterable[tuple[str, int]]) -> tuple[tuple[str, int], ...]:
    items = m.items() if isinstance(m, Mapping) else m
    return tuple(sorted(items))


@attrs.frozen
class Progress:
    """Each hex entered must be strictly farther than the hex left, by `distance` (from the
    start, from the nearest attacker, ...). Hexes without a distance are exempt."""

    distance: tuple[tuple[str, int], ...] = attrs.field(converter=_sorted_items)
    rule: Rule


@attrs.frozen
class MaxHexes:
    """The unit may retreat at most `count` hexes (0: it may not retreat at all)."""

    count: int
    rule: Rule


def _prohibitions(xs: Iterable[Prohibition]) -> tuple[Prohibition, ...]:
    return tuple(xs)


def _pairs(pairs: Iterable[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    out = {(a, b) if a < b else (b, a) for a, b in pairs}
    if any(a == b for a, b in out):
        raise InvalidInput("a hex is not adjacent to itself", field="adjacent")
    return tuple(sorted(out))


@attrs.frozen
class RetreatProblem:
    """One unit's retreat of `length` hexes from `start`, with every rule that bars a step.

    `step_rule` names the rule that a retreat moves one adjacent hex per point (its clauses back
    an explanation of a jump or of a path of the wrong length). The order of `prohibitions` is
    the order in which explanations list the rules one step breaks.
    """

    unit: str
    hexes: tuple[str, ...] = attrs.field(converter=_labels)
    adjacent: tuple[tuple[str, str], ...] = attrs.field(converter=_pairs)
    start: str
    length: int
    step_rule: Rule
    prohibitions: tuple[Prohibition, ...] = attrs.field(default=(), converter=_prohibitions)
    off_map: OffMap | None = None
    revisit: Revisit | None = None
    progress: Progress | None = None
    max_hexes: MaxHexes | None = None
    _neighbors: dict[str, tuple[str, ...]] = attrs.field(
        init=False, eq=False, hash=False, repr=False
    )

    def __attrs_post_init__(self) -> None:
        table: dict[str, list[str]] = {}
        for a, b in self.adjacent:
            table.setdefault(a, []).append(b)
            table.setdefault(b, []).append(a)
        object.__setattr__(self, "_neighbors", {h: tuple(sorted(ns)) for h, ns in table.items()})
        known = set(self.hexes)
        named = [self.start, *(h for pair in self.adjacent for h in pair)]
        for p in self.prohibitions:
            named.extend((p.source, p.to) if isinstance(p, NoCrossing) else (p.hex,))
        if self.off_map is not None:
            named.extend(self.off_map.hexes)
        unknown = sorted(set(named) - known)
        if unknown:
            raise InvalidInput(f"hexes not in the problem: {unknown}", field="hexes")
        if self.length < 0:
            raise InvalidInput("a retreat length is never negative", field="length")
        if self.off_map is not None and self.start in self.off_map.hexes:
            raise InvalidInput("a retreat starts on the map", field="start")

    def neighbors(self, h: str) -> tuple[str, ...]:
        """The hexes adjacent to `h`, sorted."""
        return self._neighbors.get(h, ())

    def exits(self) -> frozenset[str]:
        """Off-map hexes that end a retreat (empty unless leaving the map is allowed)."""
        om = self.off_map
        return om.hexes if om is not None and om.allowed else frozenset()


# --- breaches: one rule broken at one step, shared with the oracle ---------------------------

Kind = Literal["max", "step", "off_map", "prohibition", "revisit", "progress"]
_RANK: dict[str, int] = {"max": 0, "step": 1, "off_map": 2, "prohibition": 3, "revisit": 4}


@attrs.frozen
class Breach:
    """Rule `kind` (for a prohibition, `problem.prohibitions[index]`) broken by the hex the
    path enters at `step` (1-based)."""

    step: int
    kind: Kind
    index: int = 0

    def key(self) -> tuple[int, int, int]:
        """Explanations list breaches by step, then in the order the rules are given."""
        return self.step, _RANK.get(self.kind, 5), self.index


def reason(problem: RetreatProblem, path: Path, breach: Breach) -> Reason:
    """The sentence for one breach of `path`, e.g. "2nd Battalion may not retreat from 0305
    into 0306: it is in an enemy ZOC"."""
    i = min(breach.step, len(path))  # a retreat that left the map ends where it left
    here = path[i - 1]
    before = path[i - 2] if i >= 2 else problem.start
    rule = _rule(problem, breach)
    p = problem.prohibitions[breach.index] if breach.kind == "prohibition" else None
    if isinstance(p, NoEnd):
        return Reason(
            rule.clauses, f"{problem.unit} may not end its retreat in {here}: {rule.text}"
        )
    return Reason(
        rule.clauses, f"{problem.unit} may not retreat from {before} into {here}: {rule.text}"
    )


def _rule(problem: RetreatProblem, breach: Breach) -> Rule:
    if breach.kind == "max":
        assert problem.max_hexes is not None
        return problem.max_hexes.rule
    if breach.kind == "off_map":
        assert problem.off_map is not None
        return problem.off_map.rule
    if breach.kind == "prohibition":
        return problem.prohibitions[breach.index].rule
    if breach.kind == "revisit":
        assert problem.revisit is not None
        return problem.revisit.rule
    if breach.kind == "progress":
        assert problem.progress is not None
        return problem.progress.rule
    return problem.step_rule


def shape_problem(problem: RetreatProblem, path: Sequence[str]) -> Reason | None:
    """Why `path` is not even the shape of a retreat (wrong length, a hex after leaving the
    map), or None. Raises InvalidInput for a hex the problem does not know."""
    known = set(problem.hexes)
    for h in path:
        if h not in known:
            raise InvalidInput(f"{h!r} is not a hex of this retreat", field="path")
    exits = problem.exits()
    for h in path[:-1]:
        if h in exits:
            assert problem.off_map is not None
            rule = problem.off_map.rule
            return Reason(
                rule.clauses,
                f"{problem.unit} has left the map at {h} and retreats no further: {rule.text}",
            )
    ended = bool(path) and path[-1] in exits
    if len(path) == problem.length or (ended and len(path) < problem.length):
        return None
    return Reason(
        problem.step_rule.clauses,
        f"{problem.unit} must retreat {problem.length} hex(es), not {len(path)}: "
        f"{problem.step_rule.text}",
    )


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
