"""Choices the two copies of a step are proved to share (`solvers.checking.noninterference`).

A step's label shows a choice masked while it names a hidden piece (ite(hidden, -1, unit)),
so the two copies' choices are two variables, and every term after that reads the choice is
a different term in each copy: a question about one piece becomes one over every pair of
pieces the copies may pick. Where the schema's guards and the lemmas leave the choice no
hidden value (the next unit to retreat, a victor to advance: both in a combat list, where no
face-down piece is), the labels' equality gives the two choices equal. That is asked first,
for each choice the label reads and does not show bare, with both states in the relation,
the lemmas and bridges in both, the labels equal and both steps' eager guard conjuncts
assumed (all of which the pair's question assumes too); a choice proved equal is then one
variable in both copies (`Pair.same_choices`). Every pair of steps the question ranges over
has equal such choices, so a question over the pairs that share them covers them all. The
search asks it only once a pair has exhausted the limit without it (`noninterference_search`):
the other question, asked first, changed Z3's path enough to cost `land_at` its proof."""

from __future__ import annotations

from collections.abc import Sequence

from solvers import smt
from solvers.checking.noninterference_pair import Bridge, Pair, equal
from solvers.checking.prover import Lemma


def agreed(
    p: Pair, k: int, lemmas: Sequence[Lemma], bridges: Sequence[Bridge], rlimit: int
) -> frozenset[str]:
    """The choices of schema k, read by its label and not shown bare, that are proved equal
    in two steps of k with equal labels (module docstring); one left open is not shared."""
    o = smt.Z3
    labels = p.label(k)[1]
    same = p.same_choices(k, k, labels, labels)
    read: set[str] = set()
    for term in labels:
        if not isinstance(term, bool | int):
            read |= smt.names_in(term)
    asked = [v.name for v in p.system.schemas[k].choices if v.name in read and v.name not in same]
    if not asked:
        return frozenset()
    solver = p.solver(rlimit=rlimit)
    p.base(solver, lemmas, bridges)
    p.labels_equal(solver, labels, labels, same)
    p.guards(solver, k, k, same)
    out: set[str] = set()
    for name in asked:
        a, b = p.choice_pairs[name]
        solver.push()
        try:
            solver.add(smt.formula(o.not_(equal(o, a, b))))
            if not solver.check():
                out.add(name)
        except smt.SolverUnknown:
            pass
        finally:
            solver.pop()
    return frozenset(out)
