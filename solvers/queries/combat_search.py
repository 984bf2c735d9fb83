"""Lexicographic enumeration of a combat shape's solutions, each proved by Z3.

The search tree is the canonical order itself: each node is a choice whose branches come in
that order, each branch a few literals assumed on top of those of the path. A subclass says
what the nodes are and what a leaf is; Z3 says which leaves are solutions, in one of two ways.

- Leaf by leaf. The search goes down without asking, taking the first branch the structure of
  the shape allows, and checks the leaf: one check, the whole path assumed. A leaf that holds
  is listed. A leaf that fails is traced back by bisection over the path to the first choice
  after which nothing holds, and that choice's subtree is dropped whole: a dead subtree costs
  one failed leaf and a few checks, whatever its size.
- A subtree at once. The rules beyond the shape of combats and the obligation to attack
  (`Rules`: targets that must be attacked, also-attack, hexside limits) are also written
  negated, under a literal of their own. One check asks whether any way to finish a path
  breaks a rule; when Z3 proves that none does, every leaf under the path is a model and is
  listed without a check. This is asked at the root, and again where a subclass sees no rule
  left open (`settled`): most shapes met in play, and dense fronts once their targets that
  must be attacked are, cost one check for thousands of assignments.

Subclasses prune by plain reasoning what cannot form a combat at all (and what cannot meet an
obligation any more), so on most shapes no leaf fails. Nodes without a choice are implied by the
formula, so every leaf listed is the projection of a model of the whole encoding. The order is
the tree's: it does not depend on the solver.

Measured against the alternatives: asking before going down (a check per branch) costs a check
per branch that holds solutions, near the leaves about two per solution; following models (a
check, then the model's branches for free) costs more again, as Z3 converts every model back
through its preprocessing.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from typing import Any

from solvers import smt
from solvers.queries.combat_shape import LocalCombat

# (the literals a branch assumes, the node it leads to, what it adds to the solution or None)
Branch = tuple[Sequence[Any], Hashable, Any]

MEMO_NODES = 200_000  # nodes whose branches are kept (the same node recurs under many paths)


class Rules:
    """The rules of a shape beyond the shape of its combats and the obligation to attack:
    targets that must be attacked, also-attack, hexside limits. Written twice into the formula:
    as rules, under the literal `rules` (assumed by every ordinary check), and broken, under
    the literal `broken`: "one of them fails". A check that assumes `broken` with a path asks
    whether any way to finish the path breaks a rule; when none does, every leaf under the
    path is a model, and the search lists them without a check each."""

    def __init__(self, formula: smt.Formula) -> None:
        self.formula = formula
        self.rules = formula.var("r")
        self.broken = formula.var("b")
        self._ways: list[Any] = []

    def add(self, rule: Any, broken: Sequence[Any]) -> None:
        """`rule`, and what its failure means (all of `broken` hold)."""
        f = self.formula
        f.add(f.clause([self.rules], [rule]))
        way = f.var("w")
        for term in broken:
            f.add(f.clause([way], [term]))
        self._ways.append(way)

    def close(self) -> bool:
        """Whether there is any rule (the broken side is finished here)."""
        self.formula.add(self.formula.clause([self.broken], self._ways))
        return bool(self._ways)


class Search:
    """Subclasses build their formula (`_solve`) and say what the nodes and leaves are. A node
    is a hashable key (not the path to it): its branches depend on the key alone, and are
    worked out once; what the path has chosen is the trail of the branches' items."""

    solver: smt.BoolSolver

    def _solve(self, formula: smt.Formula, rules: Rules, rlimit: int) -> None:
        """Hand the formula to Z3."""
        any_rule = rules.close()
        self.solver = smt.BoolSolver(formula, rlimit=rlimit)
        self.ruled = [rules.rules] if any_rule else []  # assumed by every check
        self.breaking = [rules.broken] if any_rule else None

    def settled(self, key: Any) -> bool:
        """Whether no rule instance is open below `key` (then the search asks Z3 whether any
        leaf below breaks a rule, once). False by default: only the root is asked."""
        return False

    def _proved(self, path: list[Any]) -> bool:
        """Whether Z3 proves that no way to finish `path` breaks a rule."""
        if self.breaking is None:
            return True
        return not self.solver.check([*self.breaking, *path])

    def root(self) -> Hashable:
        raise NotImplementedError

    def node(self, key: Any) -> list[Branch] | None:
        """The branches below `key` the structure allows, in order (None at a leaf)."""
        raise NotImplementedError

    def leaf(self, key: Any, items: list[Any]) -> tuple[LocalCombat, ...]:
        """The solution at a leaf, from the items of the branches taken (None left out)."""
        raise NotImplementedError

    def solutions(self) -> Iterator[tuple[LocalCombat, ...]]:
        solver, node, ruled = self.solver, self.node, self.ruled
        if not solver.check(ruled):
            return
        memo: dict[Hashable, Any] = {}
        key = self.root()
        path: list[Any] = [*ruled]  # the literals assumed
        base = len(path)
        items: list[Any] = []  # what the branches taken add
        known = base  # path[:known] is satisfiable
        proved = base if self._proved([]) else -1  # path[:proved] only has leaves that hold
        asked = -1  # path[:asked] was asked about below the root, and a rule can break
        # frames: [branches, the next branch to open, len(path), len(items)]
        stack: list[list[Any]] = []
        while True:
            while True:  # down, taking the first branch
                if proved < 0 and asked < 0 and self.settled(key):
                    asked = len(path)
                    if self._proved(path[base:]):
                        proved = len(path)
                branches = memo.get(key, memo)
                if branches is memo:
                    branches = node(key)
                    if len(memo) < MEMO_NODES:
                        memo[key] = branches
                if branches is None:
                    if proved >= 0 or solver.check(path):
                        known = len(path)
                        yield self.leaf(key, items)
                    else:
                        known = self._drop_dead(path, stack, known)
                    break
                if not branches:  # a dead end the structure sees: nothing to ask
                    break
                if len(branches) > 1:
                    stack.append([branches, 1, len(path), len(items)])
                lits, key, item = branches[0]
                path.extend(lits)
                if item is not None:
                    items.append(item)
            if not stack:
                return
            frame = stack[-1]  # up, to the next branch
            branches, depth = frame[0], frame[2]
            del path[depth:]
            del items[frame[3] :]
            known = min(known, depth)
            if proved > depth:
                proved = -1
            if asked > depth:
                asked = -1
            lits, key, item = branches[frame[1]]
            path.extend(lits)
            if item is not None:
                items.append(item)
            frame[1] += 1
            if frame[1] == len(branches):
                stack.pop()

    def _drop_dead(self, path: list[Any], stack: list[list[Any]], known: int) -> int:
        """`path` fails and `path[:known]` holds: bisect over the nodes between for the first
        prefix that fails, and drop the frames at or below it (nothing under them holds).
        Returns the length of the longest prefix known to hold."""
        points: list[int] = sorted({known, *(f[2] for f in stack if f[2] > known), len(path)})
        lo, hi = 0, len(points) - 1
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if self.solver.check(path[: points[mid]]):
                lo = mid
            else:
                hi = mid
        while stack and stack[-1][2] >= points[hi]:
            stack.pop()
        return points[lo]
