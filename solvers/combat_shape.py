"""A combat problem in local indices: the canonical shape the Z3 encodings and caches work on.

A position splits into contact components that do not constrain each other (DESIGN
"Generate"): an assignment is one solution per component, side by side. A component is renamed
to indices in problem order, so two positions with the same structure share one `Shape`, one
solver and one cached solution set, and the lexicographic order of local solutions is the
problem's own order.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import attrs

from solvers.combat import MANY, CombatProblem

LocalCombat = tuple[tuple[int, ...], tuple[int, ...]]  # (attackers, targets), local indices


@attrs.frozen
class Shape:
    grouping: str
    n_attackers: int
    n_targets: int
    contacts: tuple[tuple[int, int, int], ...]  # (attacker, target, hexside or -1), sorted
    must_attack: tuple[int, ...]
    must_be_attacked: tuple[int, ...]
    attack_all: tuple[int, ...]
    also_attack: tuple[tuple[int, tuple[int, ...]], ...]
    hexside_limits: tuple[tuple[int, int], ...]  # (hexside, limit)

    def reach(self, a: int) -> tuple[int, ...]:
        return tuple(t for (x, t, _) in self.contacts if x == a)

    def hexside(self, a: int, t: int) -> int:
        for x, y, h in self.contacts:
            if (x, y) == (a, t):
                return h
        return -1

    def candidates(self) -> list[LocalCombat]:
        """Combats legal on their own, in canonical order: one target and the attackers in
        contact with it, or (MANY) any connected group respecting `attack_all`."""
        if self.grouping != MANY:
            out: list[LocalCombat] = []
            for a in range(self.n_attackers):
                out.extend(((a,), (t,)) for t in self.reach(a))
            return sorted(out)
        return sorted(_many_candidates(self))


def _many_candidates(shape: Shape) -> Iterator[LocalCombat]:
    reach = {a: set(shape.reach(a)) for a in range(shape.n_attackers)}
    engaged = [a for a in range(shape.n_attackers) if reach[a]]
    forced = set(shape.attack_all)
    for n in range(1, len(engaged) + 1):
        for atts in itertools.combinations(engaged, n):
            near = sorted(set().union(*(reach[a] for a in atts)))
            for m in range(1, len(near) + 1):
                for tgts in itertools.combinations(near, m):
                    tset = set(tgts)
                    if any(not reach[a] & tset for a in atts):
                        continue
                    if any(a in forced and not reach[a] <= tset for a in atts):
                        continue
                    if connected(atts, tgts, reach):
                        yield atts, tgts


def connected(atts: tuple[int, ...], tgts: tuple[int, ...], reach: dict[int, set[int]]) -> bool:
    """The attackers and targets of one group form one graph by their contacts."""
    tset = set(tgts)
    seen_a = {atts[0]}
    seen_t: set[int] = set()
    frontier = [atts[0]]
    while frontier:
        a = frontier.pop()
        for t in reach[a] & tset:
            if t in seen_t:
                continue
            seen_t.add(t)
            for b in atts:
                if b not in seen_a and t in reach[b]:
                    seen_a.add(b)
                    frontier.append(b)
    return len(seen_a) == len(atts) and seen_t == tset


@attrs.frozen
class Component:
    """A part of a problem in local indices, with the global ids to map answers back."""

    shape: Shape
    attackers: tuple[str, ...]
    targets: tuple[str, ...]
    hexsides: tuple[str, ...]  # the limited hexsides, by local index


def localise(problem: CombatProblem, attackers: list[str], targets: list[str]) -> Component:
    """The shape of the part of `problem` made of these units (kept in problem order)."""
    a_index = {a: i for i, a in enumerate(attackers)}
    t_index = {t: i for i, t in enumerate(targets)}
    hexsides = sorted(
        {
            c.hexside
            for c in problem.contacts
            if c.hexside is not None
            and c.hexside in problem.hexside_limits
            and c.attacker in a_index
            and c.target in t_index
        }
    )
    h_index: dict[str | None, int] = {h: i for i, h in enumerate(hexsides)}
    contacts = sorted(
        {
            (a_index[c.attacker], t_index[c.target], h_index.get(c.hexside, -1))
            for c in problem.contacts
            if c.attacker in a_index and c.target in t_index
        }
    )
    shape = Shape(
        grouping=problem.grouping,
        n_attackers=len(attackers),
        n_targets=len(targets),
        contacts=tuple(contacts),
        must_attack=tuple(a_index[a] for a in attackers if a in problem.must_attack),
        must_be_attacked=tuple(t_index[t] for t in targets if t in problem.must_be_attacked),
        attack_all=tuple(a_index[a] for a in attackers if a in problem.attack_all),
        also_attack=tuple(
            (a_index[a], tuple(sorted(t_index[t] for t in problem.also_attack[a] if t in t_index)))
            for a in attackers
            if problem.also_attack.get(a)
        ),
        hexside_limits=tuple(
            (h_index[h], k) for h, k in sorted(problem.hexside_limits.items()) if h in h_index
        ),
    )
    return Component(shape, tuple(attackers), tuple(targets), tuple(hexsides))


def split(problem: CombatProblem) -> list[Component]:
    """Independent contact components, ordered by their first unit in problem order. Units
    with no contact and no obligation are left out: they can only stay out of combat."""
    attackers = [a for a in problem.attackers if a not in problem.static]
    n = len(attackers)
    index = {("a", a): i for i, a in enumerate(attackers)}
    index.update({("t", t): n + i for i, t in enumerate(problem.targets)})
    parent = list(range(n + len(problem.targets)))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(x: int, y: int) -> None:
        rx, ry = find(x), find(y)
        if rx != ry:
            parent[max(rx, ry)] = min(rx, ry)

    touched: set[int] = set()
    by_hexside: dict[str, int] = {}
    for c in problem.contacts:
        a, t = index.get(("a", c.attacker)), index.get(("t", c.target))
        if a is None or t is None:
            continue
        touched.add(a)
        union(a, t)
        if c.hexside is not None and c.hexside in problem.hexside_limits:
            union(by_hexside.setdefault(c.hexside, a), a)
    for attacker, ts in problem.also_attack.items():
        a = index.get(("a", attacker))
        for target in ts:
            t = index.get(("t", target))
            if a is not None and t is not None:
                union(a, t)
    touched.update(index[("a", a)] for a in problem.must_attack if ("a", a) in index)
    touched.update(index[("t", t)] for t in problem.must_be_attacked if ("t", t) in index)
    roots = {find(x) for x in touched}
    groups: dict[int, tuple[list[str], list[str]]] = {}
    for i, attacker in enumerate(attackers):
        root = find(i)
        if root in roots:
            groups.setdefault(root, ([], []))[0].append(attacker)
    for i, target in enumerate(problem.targets):
        root = find(n + i)
        if root in roots:
            groups.setdefault(root, ([], []))[1].append(target)
    return [localise(problem, atts, tgts) for _, (atts, tgts) in sorted(groups.items())]
