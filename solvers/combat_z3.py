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

from collections.abc import Hashable, Iterator
from typing import Any

from solvers import smt
from solvers.combat import MANY
from solvers.combat_shape import LocalCombat, Shape


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


class ShapeSolver:
    """An incremental solver for one shape, enumerating its solutions lexicographically."""

    def __init__(self, shape: Shape, rlimit: int = smt.DEFAULT_RLIMIT) -> None:
        self.encoding = enc = ShapeEncoding(shape)
        self.solver = smt.Solver(rlimit=rlimit)
        # idle{a} <=> attacker a attacks nobody: one assumption for the "no attack" choice
        idle = [f"idle{a}" for a in range(shape.n_attackers)]
        declarations = enc.declarations + smt.declare(idle)
        terms = [term for term, _label in enc.constraints()]
        terms += [
            f"(= {name} {smt.t_not(smt.t_or(enc._of(mine)))})"
            for name, mine in zip(idle, enc.by_attacker, strict=True)
        ]
        self.solver.add_text(declarations, terms)
        self.reader = smt.Reader(enc.names, declarations)
        self._atoms = smt.Atoms(declarations, enc.names + idle)
        own, idles = self._atoms.raw[: len(enc.names)], self._atoms.raw[len(enc.names) :]
        # assume[a][c]: the assumptions for attacker a making choice c (0 = no attack)
        self.assume: list[list[list[Any]]] = [
            [[idles[a]]] + [[own[i]] for i in mine] for a, mine in enumerate(enc.by_attacker)
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
        self, a: int, assumed: list[Any], values: list[bool], chosen: list[int]
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
            elif self.solver.check_atoms(branch):
                sub = self.reader.read(self.solver.model())
            else:
                continue
            picked = [*chosen, enc.by_attacker[a][c - 1]] if c else chosen
            yield from self._search(a + 1, branch, sub, picked)
