"""Counts of pieces as sums of named indicators, for the self-composition prover.

An observation that counts pieces (face-down pieces per hex, say) is a sum of 0/1 terms,
one per piece. Here each summand is a named 0/1 variable with its defining equation asserted
(`name == ite(condition, 1, 0)`), one name per condition (structurally, after
simplification), so the same condition in two terms, or in a state before and after a step
that leaves it as it was, is one variable. The equations are definitions (each names a
term), so asserting them adds nothing to what holds: a proof over the named terms is a proof
over the counts.

Naming alone does not make Z3's arithmetic solver settle equal counts of hidden pieces (nine
pieces over four hexes stay unknown within 20M rlimit, named or not); a linear fact per piece
over the names does, at once (tests/solvers/test_noninterference_names.py): the names are the
vocabulary in which such per-piece facts can be stated.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from solvers import smt

PREFIX = "ind!"  # no model variable's name holds "!"


class NamingOps(smt.Z3Ops):
    """`Z3Ops` whose counts are sums of named indicators (`Indicators`)."""

    def __init__(self, names: Indicators) -> None:
        super().__init__()
        self.names = names

    def count(self, items: Iterable[Any]) -> Any:
        return self.add(self.names.name(x) for x in items)


class Indicators:
    """The named 0/1 indicators of the conditions counted, and their defining equations."""

    def __init__(self) -> None:
        self.ops = NamingOps(self)
        self._by_hash: dict[int, list[tuple[Any, Any]]] = {}
        self.items: dict[str, Any] = {}  # name -> the condition it indicates
        self.defs: dict[str, Any] = {}  # name -> its defining equation

    def name(self, item: Any) -> Any:
        """The indicator of condition `item` (0 or 1 when it is a constant)."""
        if isinstance(item, bool):
            return int(item)
        item = smt.simplify(item)
        if isinstance(item, bool) or smt.is_false(item):
            return 0 if item is not True else 1
        bucket = self._by_hash.setdefault(hash(item), [])
        for known, var in bucket:
            if smt.structurally_equal(known, item):
                return var
        label = f"{PREFIX}{len(self.items)}"
        var = smt.fresh_int(label)
        bucket.append((item, var))
        self.items[label] = item
        self.defs[label] = smt.formula(smt.Z3.eq(var, smt.Z3.ite(item, 1, 0)))
        return var

    def in_term(self, term: Any) -> list[str]:
        """The indicators `term` reads."""
        if isinstance(term, bool | int):
            return []
        return sorted(n for n in smt.names_in(term) if n in self.items)


class Defining:
    """A solver that asserts the defining equation of every indicator a formula added through
    `add_named` reads, and (`deep`, the default) of every indicator those equations read in
    turn (a condition over a count made after a step names the count's indicators), once per
    scope: an equation added
    after a `push` goes with its `pop`, and so do the conditions `noninterference_facts`
    marked asked or agreed there (a fact popped is no longer assumed)."""

    def __init__(self, solver: smt.Solver, names: Indicators, *, deep: bool = True) -> None:
        self.solver, self.names = solver, names
        self.deep = deep  # False: the equations of the names a formula reads, no deeper
        self._defined: set[str] = set()
        self.asked: set[int] = set()  # the conditions `noninterference_facts` asked, by id
        self.agreed: set[int] = set()  # those of them known equal in the two copies
        self._scopes: list[tuple[list[str], set[int], set[int]]] = []

    def add(self, formula: Any) -> None:
        self.solver.add(formula)

    def add_named(self, formula: Any) -> None:
        self.define(formula)
        self.solver.add(formula)

    def define(self, term: Any) -> None:
        """The defining equations of the indicators `term` reads, and of those each equation
        reads, those not yet asserted. An indicator left undefined would be a free integer:
        a model could then give it a value no state gives its condition (a pair of "states"
        that are none), so every name reachable from `term` is defined (definitions name
        terms, so asserting them adds nothing that does not hold)."""
        todo = self.names.in_term(term)
        while todo:
            n = todo.pop()
            if n in self._defined:
                continue
            self._defined.add(n)
            if self._scopes:
                self._scopes[-1][0].append(n)
            self.solver.add(self.names.defs[n])
            if self.deep:
                todo.extend(self.names.in_term(self.names.items[n]))

    def mark(self, key: int, *, agreed: bool) -> None:
        """Record condition `key` asked (and `agreed`: known equal in the copies) in the
        current scope."""
        marks = self.agreed if agreed else self.asked
        if key in marks:
            return
        marks.add(key)
        if self._scopes:
            _, asked, known = self._scopes[-1]
            (known if agreed else asked).add(key)

    def push(self) -> None:
        self.solver.push()
        self._scopes.append(([], set(), set()))

    def pop(self) -> None:
        self.solver.pop()
        defined, asked, agreed = self._scopes.pop()
        self._defined.difference_update(defined)
        self.asked -= asked
        self.agreed -= agreed

    def check(self) -> bool:
        return self.solver.check()

    def check_within(self, rlimit: int) -> bool:
        """`check` within a smaller resource limit than the solver's own (a side question
        that may go unanswered): `smt.Solver.check_within`."""
        return self.solver.check_within(rlimit)

    def model(self) -> smt.Model:
        return self.solver.model()
