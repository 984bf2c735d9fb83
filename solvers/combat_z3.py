"""The Z3 encoding of a combat shape, and its lazy enumeration in canonical order.

Decision variables are the candidate combats of the shape (`Shape.candidates`): under
ONE_TARGET a literal means "this attacker attacks this target", under MANY "this group fights
as one combat". An attacker's choice is which of its literals is true, or none; blocking and
branching are on these choices only, so an exempt attacker that attacks nobody is a choice of
its own and no model is lost (cf. z3 issue #5765).

Enumeration is a depth-first search over the attackers' choices in problem order, each branch
decided by an incremental `check` under assumptions. A branch that agrees with the last model
is taken without a check, so a solution costs about one check. The order is lexicographic in
the choice vector, hence canonical and independent of the solver's heuristics.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator

from solvers import smt
from solvers.combat import MANY
from solvers.combat_shape import LocalCombat, Shape

Label = tuple[str, int]  # (rule kind, local index of the unit, target or hexside it is about)
AddFn = Callable[[smt.Bool, Hashable], None]


class ShapeEncoding:
    """The literals of a shape and the constraints over them (labelled by rule and unit)."""

    def __init__(self, shape: Shape, prefix: str = "c") -> None:
        self.shape = shape
        self.candidates: list[LocalCombat] = shape.candidates()
        self.lits = [smt.bool_var(f"{prefix}{i}") for i in range(len(self.candidates))]
        self.by_attacker: list[list[int]] = [[] for _ in range(shape.n_attackers)]
        self.by_target: list[list[int]] = [[] for _ in range(shape.n_targets)]
        for i, (atts, tgts) in enumerate(self.candidates):
            for a in atts:
                self.by_attacker[a].append(i)
            for t in tgts:
                self.by_target[t].append(i)

    def attacks(self, a: int) -> smt.Bool:
        return smt.or_(self.lits[i] for i in self.by_attacker[a])

    def attacked(self, t: int) -> smt.Bool:
        return smt.or_(self.lits[i] for i in self.by_target[t])

    def encode(self, add: AddFn) -> None:
        shape = self.shape
        lits = self.lits
        for a in range(shape.n_attackers):
            mine = [lits[i] for i in self.by_attacker[a]]
            add(smt.at_most(mine, 1), ("attack_once", a))
        for a in shape.must_attack:
            add(smt.at_least([lits[i] for i in self.by_attacker[a]], 1), ("must_attack", a))
        if shape.grouping == MANY:
            for t in range(shape.n_targets):
                add(smt.at_most([lits[i] for i in self.by_target[t]], 1), ("defend_once", t))
        for t in shape.must_be_attacked:
            add(smt.at_least([lits[i] for i in self.by_target[t]], 1), ("must_be_attacked", t))
        if shape.grouping != MANY:
            for a in shape.attack_all:
                if len(shape.reach(a)) > 1:
                    add(smt.and_(smt.not_(lits[i]) for i in self.by_attacker[a]), ("attack_all", a))
        for a, targets in shape.also_attack:
            for t in targets:
                add(smt.implies(self.attacks(a), self.attacked(t)), ("also_attack", t))
        for h, limit in shape.hexside_limits:
            add(smt.at_most(self._crossing(h), limit), ("hexside_limit", h))

    def _crossing(self, h: int) -> list[smt.Bool]:
        """One literal per attacker that attacks across hexside `h`."""
        shape = self.shape
        out = []
        for a in range(shape.n_attackers):
            across = [
                self.lits[i]
                for i in self.by_attacker[a]
                if any(shape.hexside(a, t) == h for t in self.candidates[i][1])
            ]
            if across:
                out.append(smt.or_(across))
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


class ShapeSolver:
    """An incremental solver for one shape, enumerating its solutions lexicographically."""

    def __init__(self, shape: Shape, rlimit: int = smt.DEFAULT_RLIMIT) -> None:
        self.encoding = enc = ShapeEncoding(shape)
        self.solver = smt.Solver(rlimit=rlimit)
        enc.encode(lambda f, _label: self.solver.add(f))
        self.reader = smt.Reader(enc.lits)
        # assume[a][c]: the assumptions for attacker a making choice c (0 = no attack)
        self.assume: list[list[list[smt.Bool]]] = [
            [[smt.not_(enc.lits[i]) for i in mine]] + [[enc.lits[i]] for i in mine]
            for mine in enc.by_attacker
        ]

    def _choice(self, values: list[bool], a: int) -> int:
        for c, i in enumerate(self.encoding.by_attacker[a], start=1):
            if values[i]:
                return c
        return 0

    def solutions(self) -> Iterator[tuple[LocalCombat, ...]]:
        if not self.solver.check():
            return
        yield from self._search(0, [], self.reader.read(self.solver.model()), [])

    def _search(
        self, a: int, assumed: list[smt.Bool], values: list[bool], chosen: list[int]
    ) -> Iterator[tuple[LocalCombat, ...]]:
        enc = self.encoding
        if a == enc.shape.n_attackers:
            yield enc.decode(chosen)
            return
        current = self._choice(values, a)
        for c, extra in enumerate(self.assume[a]):
            branch = assumed + extra
            if c == current:
                sub = values
            elif self.solver.check(branch):
                sub = self.reader.read(self.solver.model())
            else:
                continue
            picked = [*chosen, enc.by_attacker[a][c - 1]] if c else chosen
            yield from self._search(a + 1, branch, sub, picked)
