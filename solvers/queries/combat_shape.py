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
from typing import NamedTuple

from solvers.queries.combat import MANY, CombatProblem

LocalCombat = tuple[tuple[int, ...], tuple[int, ...]]  # (attackers, targets), local indices


class Shape(NamedTuple):
    """A component in local indices (a named tuple: made for every position met in play)."""

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


class Component(NamedTuple):
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
    with no contact and no obligation are left out: they can only stay out of combat. (Written
    for speed: a position of a playout has a few components of a few units among many units
    out of contact, and this runs for every position; only the units met are looked at.)"""
    static, limits = problem.static, problem.hexside_limits
    n = len(problem.attackers)
    a_at = {a: i for i, a in enumerate(problem.attackers)}
    t_at = {t: n + i for i, t in enumerate(problem.targets)}
    # union-find over the units met (attackers i, targets n + j): a unit not in `up` is a root
    up: dict[int, int] = {}
    kept: list[tuple[int, int, str | None]] = []
    crossing: dict[str, int] = {}  # limited hexside -> an attacker across it
    for c in problem.contacts:
        a, t = a_at.get(c.attacker), t_at.get(c.target)
        if a is None or t is None or c.attacker in static:
            continue
        h = c.hexside if c.hexside in limits else None
        kept.append((a, t, h))
        while a in up:
            a = up[a]
        while t in up:
            t = up[t]
        if a != t:
            up[a] = t
        if h is not None:
            x = crossing.setdefault(h, a)
            while x in up:
                x = up[x]
            while a in up:
                a = up[a]
            if a != x:
                up[a] = x
    touched = [a for a, _, _ in kept]
    for attacker in problem.must_attack:
        a = a_at.get(attacker)
        if a is not None and attacker not in static:
            touched.append(a)
    for target in problem.must_be_attacked:
        t = t_at.get(target)
        if t is not None:
            touched.append(t)
    if not touched:
        return []
    met = {*touched, *(t for _, t, _ in kept)}
    if problem.also_attack:
        for attacker, ts in problem.also_attack.items():
            a = a_at.get(attacker)
            if a is None or attacker in static:
                continue
            for target in ts:
                t = t_at[target]  # every one is a target (`CombatProblem` refuses others)
                met.update((a, t))
                while a in up:
                    a = up[a]
                while t in up:
                    t = up[t]
                if a != t:
                    up[a] = t
    rooted: dict[int, int] = {}
    for x in met:
        r = x
        while r in up:
            r = up[r]
        rooted[x] = r
    live = {rooted[x] for x in touched}
    # components in problem order of their first unit; units in problem order within them
    attackers, targets = problem.attackers, problem.targets
    parts: dict[int, tuple[list[str], list[str]]] = {}
    local: dict[int, int] = {}
    for x in sorted(met):
        r = rooted[x]
        if r in live:
            atts, tgts = parts.setdefault(r, ([], []))
            if x < n:
                local[x] = len(atts)
                atts.append(attackers[x])
            else:
                local[x] = len(tgts)
                tgts.append(targets[x - n])
    if len(parts) == 1:
        ((atts, tgts),) = parts.values()
        raw = [(local[a], local[t], h) for a, t, h in kept]
        return [_component(problem, atts, tgts, raw)]
    by_root: dict[int, list[tuple[int, int, str | None]]] = {r: [] for r in parts}
    for a, t, h in kept:  # every contact's attacker is in a live component
        by_root[rooted[a]].append((local[a], local[t], h))
    return [_component(problem, atts, tgts, by_root[r]) for r, (atts, tgts) in parts.items()]


def _component(
    problem: CombatProblem,
    attackers: list[str],
    targets: list[str],
    raw: list[tuple[int, int, str | None]],
) -> Component:
    """The component of these units, from its contacts in local indices."""
    if any(h is not None for _, _, h in raw):
        hexsides = sorted({h for _, _, h in raw if h is not None})
        h_index = {h: i for i, h in enumerate(hexsides)}
        contacts = tuple(sorted({(a, t, -1 if h is None else h_index[h]) for a, t, h in raw}))
        limits = tuple((h_index[h], problem.hexside_limits[h]) for h in hexsides)
    else:
        hexsides, limits = [], ()
        contacts = tuple(sorted({(a, t, -1) for a, t, _ in raw}))
    also = problem.also_attack
    if also:
        t_index = {t: i for i, t in enumerate(targets)}
        also_attack = tuple(
            (i, tuple(sorted(t_index[t] for t in also[a])))
            for i, a in enumerate(attackers)
            if also.get(a)
        )
    else:
        also_attack = ()
    must_a, must_t, every = problem.must_attack, problem.must_be_attacked, problem.attack_all
    shape = Shape(
        grouping=problem.grouping,
        n_attackers=len(attackers),
        n_targets=len(targets),
        contacts=contacts,
        must_attack=tuple(i for i, a in enumerate(attackers) if a in must_a) if must_a else (),
        must_be_attacked=(tuple(i for i, t in enumerate(targets) if t in must_t) if must_t else ()),
        attack_all=tuple(i for i, a in enumerate(attackers) if a in every) if every else (),
        also_attack=also_attack,
        hexside_limits=limits,
    )
    return Component(shape, tuple(attackers), tuple(targets), tuple(hexsides))
