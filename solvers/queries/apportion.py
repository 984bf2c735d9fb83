"""Step losses apportioned by precedence, as the models of a Z3 formula: generate, check, explain.

A spec describes one side's losses as plain data (`ApportionProblem`): the units with the steps
each has left, how many steps must be lost, and precedence rules in order, each with the clauses
it encodes. Losses are taken one step at a time; each step comes from a unit whose precedence
key, at the steps it has left then, is the greatest of all units with steps left (keys compare
lexicographically, rule by rule, so the first rule decides and later ones break its ties). Equal
keys are the owner's choice. Steps beyond the force's total are not absorbed. The games' loss
rules ("two-step units first", "the strongest first", "garrisons last") differ only in the keys.

An outcome is how many steps each unit lost (`Outcome`): the order the steps were taken in is
not part of it, as the players see only the result. The encoding unrolls the steps taken:
pick[i][u] says step i comes from unit u. A plain oracle (tests/solvers/test_apportion.py)
walks the same process step by step.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping, Sequence

import attrs

from kernel.errors import InvalidInput
from solvers import smt
from solvers.reasons import Reason


@attrs.frozen
class Precedence:
    """One precedence rule: a greater key value loses its step first. `text` reads after
    "{unit} loses a step while {other} ... ", e.g. "must be reduced first"."""

    clauses: tuple[str, ...]
    text: str


@attrs.frozen
class Unit:
    """A unit with `steps` steps left; `keys[k - 1]` is its precedence key (one int per rule)
    while it has k steps left."""

    id: str
    steps: int
    keys: tuple[tuple[int, ...], ...]


@attrs.frozen
class ApportionProblem:
    """`losses` steps to take from `units` (in canonical order) under `precedence`.
    `count_rule` names the rule that exactly that many steps are lost, the rest ignored."""

    units: tuple[Unit, ...]
    losses: int
    precedence: tuple[Precedence, ...]
    count_rule: Reason
    names: Mapping[str, str] = attrs.Factory(dict)

    def __attrs_post_init__(self) -> None:
        ids = [u.id for u in self.units]
        if len(set(ids)) != len(ids):
            raise InvalidInput("a unit is listed twice", field="units")
        if self.losses < 0:
            raise InvalidInput("losses are never negative", field="losses")
        for u in self.units:
            if u.steps < 0 or len(u.keys) != u.steps:
                raise InvalidInput(f"{u.id} needs one key per step left", field="units")
            if any(len(k) != len(self.precedence) for k in u.keys):
                raise InvalidInput(f"{u.id} needs one key value per rule", field="units")

    def name(self, unit: str) -> str:
        return self.names.get(unit, unit)

    @property
    def absorbed(self) -> int:
        """Steps actually taken: the losses, or every step when the force has fewer."""
        return min(self.losses, sum(u.steps for u in self.units))

    @property
    def unabsorbed(self) -> int:
        return self.losses - self.absorbed


Outcome = tuple[tuple[str, int], ...]  # (unit, steps lost) for each unit that lost any, in order


def _deciding_rule(a: tuple[int, ...], b: tuple[int, ...]) -> int | None:
    """The rule by which key `b` comes before key `a` (the first that differs), or None."""
    for r, (x, y) in enumerate(zip(a, b, strict=True)):
        if x != y:
            return r if y > x else None
    return None


class _Encoding:
    """pick[i][u]: step i is taken from unit u; lost[u][c]: u lost exactly c steps in all."""

    def __init__(self, problem: ApportionProblem, *, track: bool = False) -> None:
        self.p = problem
        self.solver = smt.Solver()
        units = problem.units
        n = problem.absorbed
        self.pick = [[smt.bool_var(f"p{i}_{j}") for j in range(len(units))] for i in range(n)]
        for row in self.pick:
            self.solver.add(smt.exactly(row, 1))
        self.lost: list[list[smt.Bool]] = []
        for j, u in enumerate(units):
            column = [self.pick[i][j] for i in range(n)]
            self.solver.add(smt.at_most(column, u.steps))
            levels = []
            for c in range(u.steps + 1):
                lit = smt.bool_var(f"l{j}_{c}")
                self.solver.add(smt.iff(lit, smt.exactly(column, c)))
                levels.append(lit)
            self.lost.append(levels)
        parts: dict[Hashable, list[smt.Bool]] = {}
        for i in range(n):
            before = [
                [smt.exactly([self.pick[h][j] for h in range(i)], c) for c in range(u.steps)]
                for j, u in enumerate(units)
            ]  # before[j][c]: u lost exactly c steps before step i (so has steps - c left)
            for j, u in enumerate(units):
                for v_index, v in enumerate(units):
                    if v_index == j:
                        continue
                    for cu in range(u.steps):
                        for cv in range(v.steps):
                            r = _deciding_rule(u.keys[u.steps - cu - 1], v.keys[v.steps - cv - 1])
                            if r is None:
                                continue
                            bad = smt.and_([self.pick[i][j], before[j][cu], before[v_index][cv]])
                            parts.setdefault((r, j, v_index), []).append(smt.not_(bad))
        self.labels = list(parts)
        for label, formulas in parts.items():
            self.solver.add(smt.and_(formulas), label if track else None)

    def fix(self, lost: Mapping[str, int]) -> list[smt.Bool]:
        return [self.lost[j][lost.get(u.id, 0)] for j, u in enumerate(self.p.units)]

    def read(self, model: smt.Model) -> Outcome:
        out = []
        for j, u in enumerate(self.p.units):
            c = next(c for c, lit in enumerate(self.lost[j]) if smt.is_true(model, lit))
            if c:
                out.append((u.id, c))
        return tuple(out)


def outcomes(problem: ApportionProblem) -> Iterator[Outcome]:
    """Every legal outcome, sorted (each as (unit, steps lost) in unit order)."""
    enc = _Encoding(problem)
    found: list[Outcome] = []
    projection = [lit for levels in enc.lost for lit in levels]
    while enc.solver.check():
        model = enc.solver.model()
        found.append(enc.read(model))
        enc.solver.block(projection, model)
    yield from sorted(found)


def _shape(problem: ApportionProblem, lost: Mapping[str, int]) -> list[Reason]:
    steps = {u.id: u.steps for u in problem.units}
    out: list[Reason] = []
    for u, c in sorted(lost.items()):
        if u not in steps:
            out.append(Reason(problem.count_rule.clauses, f"{u} is not one of the units"))
        elif c < 0 or c > steps[u]:
            out.append(
                Reason(
                    problem.count_rule.clauses,
                    f"{problem.name(u)} has {steps[u]} step(s) and cannot lose {c}",
                )
            )
    if not out and sum(lost.values()) != problem.absorbed:
        out.append(problem.count_rule.format(losses=problem.losses, absorbed=problem.absorbed))
    return out


def check(problem: ApportionProblem, lost: Mapping[str, int]) -> bool:
    """Whether losing `lost[unit]` steps from each unit is a legal outcome."""
    if _shape(problem, lost):
        return False
    enc = _Encoding(problem)
    return enc.solver.check(enc.fix(lost))


def explain(problem: ApportionProblem, lost: Mapping[str, int]) -> list[Reason]:
    """Why an outcome is illegal (empty when legal): the wrong number of steps, or each
    precedence rule broken, with the unit that lost a step too early and the unit that came
    first, from disjoint unsat cores."""
    shape = _shape(problem, lost)
    if shape:
        return shape
    enc = _Encoding(problem, track=True)
    cores = smt.disjoint_cores(enc.solver, enc.fix(lost), enc.labels)
    out: list[Reason] = []
    for core in cores:
        for label in core:
            assert isinstance(label, tuple)
            r, j, v = label
            rule = problem.precedence[r]
            reason = Reason(
                rule.clauses,
                f"{problem.name(problem.units[j].id)} loses a step while "
                f"{problem.name(problem.units[v].id)} {rule.text}",
            )
            if reason not in out:
                out.append(reason)
    return out


def as_counts(outcome: Sequence[tuple[str, int]]) -> dict[str, int]:
    return dict(outcome)
