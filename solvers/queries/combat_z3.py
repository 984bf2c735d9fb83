"""Combat shapes in Z3: the enumeration of their solutions in canonical order, and the
per-combat encoding that explanations use.

`ShapeSolver(shape)` lists a shape's solutions lazily in the canonical order, each proved by
Z3 (`combat_search.Search`). Formulas are built through the C API (`smt.Formula`): text costs
a parser per solver and z3.py a Python object per node, both more than the search on the small
shapes of play. The obligation to attack is in the shape of the search (an obliged attacker
has no "no attack" branch); the other rules are `combat_search.Rules`.
- ONE_TARGET (`OneTargetSearch`): a literal per contact, "this attacker attacks this target".
- MANY (`combat_many.ManySearch`): a label per unit naming its combat by the combat's first
  attacker, with connectivity encoded, so the formula grows with the contacts and not with the
  connected groups (of which a dense front of 12 attackers has thousands).

`ShapeEncoding` is the per-candidate encoding (a literal per combat legal on its own) with
every rule labelled by kind and unit: `combat_explain` draws its unsat cores from it.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from typing import Any

from solvers import smt
from solvers.queries.combat import MANY
from solvers.queries.combat_many import ManySearch
from solvers.queries.combat_search import Branch, Rules, Search
from solvers.queries.combat_shape import LocalCombat, Shape


class ShapeEncoding:
    """The literals of a shape and the constraints over them as SMT-LIB text, each labelled
    by rule and unit. Text is parsed in one call; building the same formula node by node in
    z3's Python layer took longer than solving it."""

    def __init__(self, shape: Shape, prefix: str = "c") -> None:
        self.shape = shape
        self.candidates: list[LocalCombat] = shape.candidates()
        self.names = [f"{prefix}{i}" for i in range(len(self.candidates))]
        self.declarations = smt.declare(self.names)
        self._lits: list[smt.Bool] | None = None
        self.by_attacker: list[list[int]] = [[] for _ in range(shape.n_attackers)]
        self.by_target: list[list[int]] = [[] for _ in range(shape.n_targets)]
        for i, (atts, tgts) in enumerate(self.candidates):
            for a in atts:
                self.by_attacker[a].append(i)
            for t in tgts:
                self.by_target[t].append(i)
        self.hexside_of = {(a, t): h for a, t, h in shape.contacts}
        self.reach = [shape.reach(a) for a in range(shape.n_attackers)]

    @property
    def lits(self) -> list[smt.Bool]:
        if self._lits is None:
            self._lits = smt.constants(self.declarations, self.names)
        return self._lits

    def _of(self, indices: list[int]) -> list[str]:
        return [self.names[i] for i in indices]

    def constraints(self) -> Iterator[tuple[str, Hashable]]:
        """(SMT-LIB term, label) for every rule of the shape."""
        shape = self.shape
        for a in range(shape.n_attackers):
            yield smt.t_at_most(self._of(self.by_attacker[a]), 1), ("attack_once", a)
        for a in shape.must_attack:
            yield smt.t_at_least(self._of(self.by_attacker[a]), 1), ("must_attack", a)
        if shape.grouping == MANY:
            for t in range(shape.n_targets):
                yield smt.t_at_most(self._of(self.by_target[t]), 1), ("defend_once", t)
        for t in shape.must_be_attacked:
            yield smt.t_at_least(self._of(self.by_target[t]), 1), ("must_be_attacked", t)
        if shape.grouping != MANY:
            for a in shape.attack_all:
                if len(self.reach[a]) > 1:
                    yield smt.t_at_most(self._of(self.by_attacker[a]), 0), ("attack_all", a)
        for a, targets in shape.also_attack:
            for t in targets:
                attacks = smt.t_or(self._of(self.by_attacker[a]))
                yield (
                    smt.t_implies(attacks, smt.t_or(self._of(self.by_target[t]))),
                    (
                        "also_attack",
                        t,
                    ),
                )
        crossing = self._crossing()
        for h, limit in shape.hexside_limits:
            across = crossing.get(h, {})
            if len(across) > limit:  # otherwise the limit cannot bind
                terms = [smt.t_or(self._of(mine)) for _, mine in sorted(across.items())]
                yield smt.t_at_most(terms, limit), ("hexside_limit", h)

    def _crossing(self) -> dict[int, dict[int, list[int]]]:
        """hexside -> attacker -> the literals in which it attacks across that hexside."""
        out: dict[int, dict[int, list[int]]] = {}
        for i, (atts, tgts) in enumerate(self.candidates):
            for a in atts:
                for h in {self.hexside_of.get((a, t), -1) for t in tgts} - {-1}:
                    out.setdefault(h, {}).setdefault(a, []).append(i)
        return out

    def decode(self, chosen: list[int]) -> tuple[LocalCombat, ...]:
        """Local combats from the set of true literals."""
        if self.shape.grouping == MANY:
            return tuple(sorted(self.candidates[i] for i in set(chosen)))
        groups: dict[int, list[int]] = {}
        for i in chosen:
            (a,), (t,) = self.candidates[i]
            groups.setdefault(t, []).append(a)
        return tuple(sorted((tuple(sorted(atts)), (t,)) for t, atts in groups.items()))


class OneTargetSearch(Search):
    """ONE_TARGET: a literal x(a, t) per contact, "a attacks t". The nodes are the attackers in
    order; the branches no attack (every literal of the attacker false), then each target in
    contact, in order. Structure alone drops the branches an obliged attacker, or an attacker
    that must attack all its several contacts at once, cannot take, and those that leave a
    target that must be attacked out of reach of the attackers after; an attacker left with
    one branch is no node at all."""

    def __init__(self, shape: Shape, rlimit: int = smt.DEFAULT_RLIMIT) -> None:
        f = smt.Formula()
        self.shape = shape
        n = shape.n_attackers
        self.candidates = shape.candidates()
        x = f.vars("x", len(self.candidates))
        by_attacker: list[list[int]] = [[] for _ in range(n)]
        by_target: list[list[int]] = [[] for _ in range(shape.n_targets)]
        for i, ((a,), (t,)) in enumerate(self.candidates):
            by_attacker[a].append(i)
            by_target[t].append(i)
        mine = [[x[i] for i in by_attacker[a]] for a in range(n)]
        for a in range(n):
            f.add(f.at_most(mine[a], 1))
        for a in shape.must_attack:  # the search never leaves an obliged attacker idle
            f.add(f.or_(mine[a]))
        blocked = {a for a in shape.attack_all if len(by_attacker[a]) > 1}
        for a in blocked:
            f.add(f.at_most(mine[a], 0))
        rules = Rules(f)
        for t in shape.must_be_attacked:
            hit = [x[i] for i in by_target[t]]
            rules.add(f.or_(hit), [f.not_(lit) for lit in hit])
        for a, targets in shape.also_attack:
            for t in targets:
                hit_t = f.or_([x[i] for i in by_target[t]])
                attacks = f.or_(mine[a])
                rules.add(f.clause([attacks], [hit_t]), [attacks, f.not_(hit_t)])
        hexside_of = {(a, t): h for a, t, h in shape.contacts}
        self.only_targets = not shape.also_attack
        for h, limit in shape.hexside_limits:
            across = [
                [x[i] for i in by_attacker[a] if hexside_of[a, self.candidates[i][1][0]] == h]
                for a in range(n)
            ]
            crossing = [f.or_(lits) for lits in across if lits]
            if len(crossing) > limit:  # otherwise the limit cannot bind
                rules.add(f.at_most(crossing, limit), [f.at_least(crossing, limit + 1)])
                self.only_targets = False
        self._solve(f, rules, rlimit)
        # due[a]: the targets that must be attacked and that no attacker after a can reach
        last: dict[int, int] = {}
        for (a,), (t,) in self.candidates:
            if a not in blocked:
                last[t] = max(last.get(t, -1), a)
        self.due = [0] * n
        for t in shape.must_be_attacked:
            if t in last:
                self.due[last[t]] |= 1 << t
        self.later_due = [0] * n  # what the node key keeps of the targets hit: those due later
        for a in range(n - 2, -1, -1):
            self.later_due[a] = self.later_due[a + 1] | self.due[a + 1]
        self.due_from = [*(self.due[a] | self.later_due[a] for a in range(n)), 0]
        must = set(shape.must_attack)
        # per attacker: (assumptions, the target attacked or None) in canonical order
        self.choices: list[list[tuple[list[Any], int | None]]] = []
        for a in range(n):
            branches: list[tuple[list[Any], int | None]] = []
            if a not in must:
                branches.append(([f.not_(lit) for lit in mine[a]], None))
            if a not in blocked:
                branches.extend(([x[i]], i) for i in by_attacker[a])
            self.choices.append(branches)

    def root(self) -> Hashable:
        return (0, 0)

    def node(self, key: Any) -> list[Branch] | None:
        a, hit = key
        if a == self.shape.n_attackers:
            return None
        branches: list[Branch] = []
        due = self.due[a]
        for lits, i in self.choices[a]:
            now = hit
            if i is not None:
                now |= 1 << self.candidates[i][1][0]
            if due & ~now:
                continue  # a target that must be attacked would be left out of reach
            branches.append((lits, (a + 1, now & self.later_due[a]), i))
        if len(branches) == 1:  # implied by the formula: no assumption needed
            return [((), branches[0][1], branches[0][2])]
        return branches

    def settled(self, key: Any) -> bool:
        """Every target that must be attacked and is due from here on is attacked already,
        and no other rule applies."""
        a, hit = key
        return self.only_targets and hit == self.due_from[a]

    def leaf(self, key: Any, items: list[Any]) -> tuple[LocalCombat, ...]:
        groups: dict[int, list[int]] = {}
        for i in items:
            (a,), (t,) = self.candidates[i]
            groups.setdefault(t, []).append(a)
        return tuple(sorted((tuple(atts), (t,)) for t, atts in groups.items()))


def ShapeSolver(shape: Shape, rlimit: int = smt.DEFAULT_RLIMIT) -> Search:
    """The enumerating solver of a shape (its grouping decides the encoding)."""
    if shape.grouping == MANY:
        return ManySearch(shape, rlimit)
    return OneTargetSearch(shape, rlimit)
