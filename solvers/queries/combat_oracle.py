"""Plain-Python enumeration of legal combat assignments: the oracle the Z3 path is held to.

Written from the problem description alone, sharing no code with the encoding: backtracking over
the attackers in order, each joining no combat or one it is in contact with, then every rule
checked on the finished assignment. Slow on big fronts and simple on purpose.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from solvers.queries.combat import MANY, Assignment, Combat, CombatProblem, canonical


def _groups(problem: CombatProblem) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """Every combat legal on its own."""
    contact = {(c.attacker, c.target) for c in problem.contacts}
    attackers = [a for a in problem.attackers if a not in problem.static]
    near = {a: [t for t in problem.targets if (a, t) in contact] for a in attackers}
    if problem.grouping != MANY:
        return [
            (atts, (t,))
            for t in problem.targets
            for n in range(1, len(attackers) + 1)
            for atts in itertools.combinations([a for a in attackers if (a, t) in contact], n)
        ]
    out = []
    engaged = [a for a in attackers if near[a]]
    for n in range(1, len(engaged) + 1):
        for atts in itertools.combinations(engaged, n):
            reach = [t for t in problem.targets if any((a, t) in contact for a in atts)]
            for m in range(1, len(reach) + 1):
                for tgts in itertools.combinations(reach, m):
                    if _connected(contact, atts, tgts) and all(
                        a not in problem.attack_all or set(near[a]) <= set(tgts) for a in atts
                    ):
                        out.append((atts, tgts))
    return out


def _connected(contact: set[tuple[str, str]], atts: tuple[str, ...], tgts: tuple[str, ...]) -> bool:
    nodes = {("a", a) for a in atts} | {("t", t) for t in tgts}
    seen = {("a", atts[0])}
    stack = [("a", atts[0])]
    while stack:
        kind, u = stack.pop()
        for nxt in nodes - seen:
            pair = (u, nxt[1]) if kind == "a" else (nxt[1], u)
            if nxt[0] != kind and pair in contact:
                seen.add(nxt)
                stack.append(nxt)
    return seen == nodes


def _legal_without_support(problem: CombatProblem, combats: list[Combat]) -> bool:
    attacking = [a for c in combats for a in c.attackers]
    defending = [t for c in combats for t in c.targets]
    if len(set(attacking)) != len(attacking) or len(set(defending)) != len(defending):
        return False
    if not set(problem.must_attack) <= set(attacking):
        return False
    if not set(problem.must_be_attacked) <= set(defending):
        return False
    contact = {(c.attacker, c.target): c.hexside for c in problem.contacts}
    for c in combats:
        for a in c.attackers:
            mine = {t for (x, t) in contact if x == a}
            if a in problem.attack_all and not mine <= set(c.targets):
                return False
            if not problem.also_attack.get(a, frozenset()) <= set(defending):
                return False
    for hexside, limit in problem.hexside_limits.items():
        crossing = {
            a
            for c in combats
            for a in c.attackers
            for t in c.targets
            if (a, t) in contact and contact[a, t] == hexside
        }
        if len(crossing) > limit:
            return False
    return True


def _support_choices(problem: CombatProblem, combats: list[Combat]) -> Iterator[Assignment]:
    options = []
    for s in problem.supporters:
        reachable = [
            i
            for i, c in enumerate(combats)
            if s.unavailable is None and not s.reach.isdisjoint(c.attackers + c.targets)
        ]
        options.append(
            [
                pick
                for n in range(min(s.max_combats, len(reachable)) + 1)
                for pick in itertools.combinations(reachable, n)
            ]
        )
    for choice in itertools.product(*options):
        yield tuple(
            Combat(
                c.attackers,
                c.targets,
                tuple(
                    s.id for s, pick in zip(problem.supporters, choice, strict=True) if i in pick
                ),
            )
            for i, c in enumerate(combats)
        )


def iter_assignments(problem: CombatProblem) -> Iterator[Assignment]:
    """The legal assignments, lazily: backtracking over the attackers in problem order, with
    one prune (a target that must be attacked and that no later attacker can reach)."""
    groups = _groups(problem)
    attackers = [a for a in problem.attackers if a not in problem.static]
    position = {a: i for i, a in enumerate(attackers)}
    first_of: dict[str, list[tuple[tuple[str, ...], tuple[str, ...]]]] = {a: [] for a in attackers}
    for g in groups:
        first_of[g[0][0]].append(g)
    last_chance = {t: -1 for t in problem.targets}
    for c in problem.contacts:
        if c.attacker in position:
            last_chance[c.target] = max(last_chance[c.target], position[c.attacker])
    due: dict[int, list[str]] = {}
    for t in problem.must_be_attacked:
        due.setdefault(last_chance.get(t, -1), []).append(t)
    if due.get(-1):
        return

    def search(
        i: int, used: frozenset[str], hit: frozenset[str], chosen: list[Combat]
    ) -> Iterator[Assignment]:
        if i == len(attackers):
            if _legal_without_support(problem, chosen):
                for assignment in _support_choices(problem, chosen):
                    yield canonical(problem, assignment)
            return
        a = attackers[i]
        options: list[tuple[tuple[str, ...], tuple[str, ...]] | None] = []
        if a in used:
            options.append(None)
        else:
            if a not in problem.must_attack:  # prune: an obliged unit cannot stay idle
                options.append(None)
            options.extend(g for g in first_of[a] if used.isdisjoint(g[0]) and hit.isdisjoint(g[1]))
        for g in options:
            now_used, now_hit = used, hit
            if g is not None:
                chosen.append(Combat(*g))
                now_used, now_hit = used | set(g[0]), hit | set(g[1])
            if all(t in now_hit for t in due.get(i, ())):
                yield from search(i + 1, now_used, now_hit, chosen)
            if g is not None:
                chosen.pop()

    yield from search(0, frozenset(), frozenset(), [])


def oracle_assignments(problem: CombatProblem) -> set[Assignment]:
    """The set of legal assignments, each in canonical form."""
    return set(iter_assignments(problem))
