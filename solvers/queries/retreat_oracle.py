"""Retreat paths by plain depth-first search: the oracle the Z3 encoding is held against.

Each rule is tested directly on a concrete path, one step at a time (`breaches`), with no
solver; tests compare the sets it yields, and the rules it says a path breaks, with
`solvers.queries.retreat`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

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


def step_breaches(problem: RetreatProblem, path: Path, i: int) -> list[Breach]:
    """Every rule broken by entering `path[i - 1]` at step `i` (1-based)."""
    p = problem
    here = path[i - 1]
    before = path[i - 2] if i >= 2 else p.start
    visited = (p.start, *path[: i - 1])
    last = i == len(path) and (i == p.length or here in p.exits())  # the retreat ends here
    out: list[Breach] = []
    if p.max_hexes is not None and i > p.max_hexes.count:
        out.append(Breach(i, "max"))
    if here not in p.neighbors(before):
        out.append(Breach(i, "step"))
    if p.off_map is not None and not p.off_map.allowed and here in p.off_map.hexes:
        out.append(Breach(i, "off_map"))
    for k, rule in enumerate(p.prohibitions):
        if (
            (isinstance(rule, NoEntry) and rule.hex == here)
            or (isinstance(rule, NoCrossing) and (rule.source, rule.to) == (before, here))
            or (isinstance(rule, NoEnd) and last and rule.hex == here)
        ):
            out.append(Breach(p.length if isinstance(rule, NoEnd) else i, "prohibition", k))
    rv = p.revisit
    if rv is not None and here not in p.exits():
        earlier = visited[-2:-1] if rv.kind == "not_back" else visited
        if here in earlier:
            out.append(Breach(i, "revisit"))
    if p.progress is not None and here in p.neighbors(before):
        dist = dict(p.progress.distance)
        if here in dist and before in dist and dist[here] <= dist[before]:
            out.append(Breach(i, "progress"))
    return out


def breaches(problem: RetreatProblem, path: Sequence[str]) -> list[Breach]:
    """Every rule a well-shaped `path` breaks, sorted as explanations list them."""
    path = tuple(path)
    out = [b for i in range(1, len(path) + 1) for b in step_breaches(problem, path, i)]
    return sorted(out, key=Breach.key)


def explain(problem: RetreatProblem, path: Sequence[str]) -> list[Reason]:
    path = tuple(path)
    shape = shape_problem(problem, path)
    if shape is not None:
        return [shape]
    return [reason(problem, path, b) for b in breaches(problem, path)]


def check(problem: RetreatProblem, path: Sequence[str]) -> bool:
    return not explain(problem, path)


def paths(problem: RetreatProblem) -> Iterator[Path]:
    """Every legal path in sorted order: extend by each neighbour in sorted order, dropping a
    branch as soon as its newest step breaks a rule."""
    exits = problem.exits()

    def walk(prefix: Path) -> Iterator[Path]:
        i = len(prefix)
        if i == problem.length or (prefix and prefix[-1] in exits):
            yield prefix
            return
        here = prefix[-1] if prefix else problem.start
        for h in problem.neighbors(here):
            nxt = (*prefix, h)
            if not step_breaches(problem, nxt, len(nxt)):
                yield from walk(nxt)

    yield from walk(())


def destinations(problem: RetreatProblem) -> list[str]:
    return sorted({p[-1] if p else problem.start for p in paths(problem)})


def count(problem: RetreatProblem) -> int:
    return sum(1 for _ in paths(problem))
