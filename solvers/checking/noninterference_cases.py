"""A component of the observation whose question exhausts the limit, asked case by case
(`solvers.checking.noninterference`).

A step that runs on through several stages (the end of a combat, of the combat phase, of a
player-turn) leaves a component as a deep ite-chain over the stages' conditions: whether any
combat is left, whether exactly one, whether the defenders fit the limit. Asked whole, the
two copies' terms may exhaust the limit although each condition is settled in the pair on its
own. So, for a condition c of the first copy's term (top-down, the nearest first) whose copy
c' in the second is proved to agree with it (c = c' given what the solver holds; a condition
that reads no hidden variable is its own copy), the question is asked twice: with c and c'
both true, and both false, each copy's term with c (c') replaced by that value and simplified
(the same value in that case, and a smaller term). The two cases cover every pair of states
the question ranges over, so equal terms in both are equal terms; a case that exhausts the
limit is split again on a condition of its own terms, down to `DEPTH` splits. A selector (a
sum of ite(c_h, h, 0): the one hex marked, say) is split first on its values: when, for each
value v (0 and each h), selector == v is proved to agree in the copies, a case with both
selectors v (each term with its selector replaced by v and simplified), and a last case with
neither any of them (terms as they are). A counterexample in a case is one of the whole
question (its model gives the condition the case's value)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from solvers import smt
from solvers.checking.noninterference_counts import Question
from solvers.checking.noninterference_names import Defining
from solvers.checking.noninterference_pair import Pair

DEPTH = 3  # nested splits at most
TRIED = 8  # conditions tried at each split (the nearest to the term's top)
SEEN = 400  # subterms looked through for conditions at each split

Ask = Callable[[list[Question]], Any]
"""One question asked in the pair: a counterexample, or what `_chunk` returns when none."""


def subterms(term: Any, most: int = SEEN) -> Iterator[Any]:
    """`term` and its subterms, breadth first (the nearest to the top first), each once, at
    most `most` of them; no literal of Python's."""
    seen: set[int] = set()
    queue = [term]
    while queue and len(seen) < most:
        e = queue.pop(0)
        if isinstance(e, bool | int) or e.get_id() in seen:
            continue
        seen.add(e.get_id())
        yield e
        queue.extend(e.children())


def conditions(term: Any) -> list[Any]:
    """The conditions of `term`'s ites, the nearest to the top first, each once; a Boolean
    literal is none."""
    return [
        e.arg(0)
        for e in subterms(term)
        if smt.is_ite(e) and str(e.arg(0).decl().name()) not in ("true", "false")
    ]


def agree(p: Pair, solver: Defining, c: Any, c2: Any) -> bool:
    """Whether the two copies' conditions are proved equal (within the limit)."""
    if smt.structurally_equal(c, c2):
        return True
    o = smt.Z3
    solver.push()
    try:
        solver.add_named(smt.formula(o.not_(o.iff(c, c2))))
        return not solver.check()
    except smt.SolverUnknown:
        return False
    finally:
        solver.pop()


def fixed(term: Any, c: Any, value: bool) -> Any:
    """`term` with condition `c` given `value`, simplified."""
    return _put(term, c, smt.value_term(value))


def selectors(term: Any) -> list[Any]:
    """The sums in `term` of three or more terms ite(c, v, 0) with distinct numbers v (the one
    hex among those marked, say), the nearest to the top first."""
    out: list[Any] = []
    for e in subterms(term):
        if str(e.decl().name()) == "+" and e.num_args() >= 3:
            values = [_value(x) for x in e.children()]
            if None not in values and len(set(values)) == len(values):
                out.append(e)
    return out


def _value(e: Any) -> int | None:
    """v when `e` is ite(c, v, 0) for a number v."""
    if not smt.is_ite(e) or not smt.is_int_value(e.arg(1)) or not smt.is_int_value(e.arg(2)):
        return None
    return None if e.arg(2).as_long() != 0 else int(e.arg(1).as_long())


def cases(
    p: Pair,
    solver: Defining,
    same: frozenset[str],
    q: Question,
    ask: Ask,
    depth: int = DEPTH,
    done: frozenset[int] = frozenset(),
) -> Any:
    """Question `q` (a whole component) asked case by case (module docstring): what `ask`
    returns for the first counterexample found, else an empty set; raises SolverUnknown when
    no split settles it within `depth` splits (`done`: the selectors split on already)."""
    name, a = q[0], q[1]
    if depth > 0:
        for e in selectors(a):
            if e.get_id() not in done:
                found = _values(p, solver, same, q, e, ask, (depth, done | {e.get_id()}))
                if found is not None:
                    return found
        for c in conditions(a)[:TRIED]:
            c2 = p.second(c, same)
            if agree(p, solver, c, c2):
                return _both(p, solver, same, q, (c, c2), ask, (depth, done))
    raise smt.SolverUnknown(f"{name}: no split settles it within the limit")


def _case(
    p: Pair,
    solver: Defining,
    same: frozenset[str],
    q: Question,
    given: list[Any],
    ask: Ask,
    at: tuple[int, frozenset[int]],
) -> Any:
    """`q` asked given `given`, split again when it exhausts the limit."""
    if smt.structurally_equal(q[1], q[2]):
        return set()
    solver.push()
    try:
        for x in given:
            solver.add_named(smt.formula(x))
        try:
            return ask([q])
        except smt.SolverUnknown:
            return cases(p, solver, same, q, ask, at[0] - 1, at[1])
    finally:
        solver.pop()


def _both(
    p: Pair,
    solver: Defining,
    same: frozenset[str],
    q: Question,
    c: tuple[Any, Any],
    ask: Ask,
    at: tuple[int, frozenset[int]],
) -> Any:
    """`q` with both copies' condition true, then false."""
    o = smt.Z3
    name, a, b = q
    for value in (True, False):
        case = (name, fixed(a, c[0], value), fixed(b, c[1], value))
        given = [x if value else o.not_(x) for x in c]
        found = _case(p, solver, same, case, given, ask, at)
        if found:
            return found
    return set()


def _values(
    p: Pair,
    solver: Defining,
    same: frozenset[str],
    q: Question,
    e: Any,
    ask: Ask,
    at: tuple[int, frozenset[int]],
) -> Any | None:
    """`q` with selector `e` (and its copy) given each of its values v (0 and the numbers of
    its terms), each copy's selector then the number v, and last given none of them (a case
    whose terms keep the selector); None when whether the selector is v is not proved equal
    in the copies for some v (then the cases would not cover every pair)."""
    o = smt.Z3
    name, a, b = q
    e2 = p.second(e, same)
    values = sorted({0, *(v for x in e.children() if (v := _value(x)) is not None)})
    if not all(agree(p, solver, o.eq(e, v), o.eq(e2, v)) for v in values):
        return None
    for v in values:
        n = smt.value_term(v)
        case = (name, _put(a, e, n), _put(b, e2, n))
        found = _case(p, solver, same, case, [o.eq(e, v), o.eq(e2, v)], ask, at)
        if found:
            return found
    rest = [o.all([o.not_(o.eq(x, v)) for v in values]) for x in (e, e2)]
    return _case(p, solver, same, q, rest, ask, at)


def _put(term: Any, e: Any, value: Any) -> Any:
    """`term` with subterm `e` replaced by `value`, simplified."""
    return smt.simplify(smt.substitute(term, [(e, value)]))
