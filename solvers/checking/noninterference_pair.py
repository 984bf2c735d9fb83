"""The two copies of a one-step template that a non-interference question compares
(`solvers.checking.noninterference`), with the observer's counts as named indicators
(`noninterference_names`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

import attrs

from solvers import smt
from solvers.checking.noninterference_names import Defining, Indicators
from solvers.checking.prover import Lemma
from solvers.checking.system import Schema, System, domain, z3_frame
from solvers.checking.terms import Frame, Ops
from solvers.checking.unroll import Template, template

Label = tuple[str, tuple[Any, ...]]
"""The observable part of a step: the kind of action and the terms the blind side sees."""


class Observer(Protocol):
    """What one side sees of a model: the observation of a state and the observable part of a
    step, each written once against `Ops` (the prover's terms and the refinement check's
    values are one definition)."""

    side: str

    def observe(self, o: Ops[Any, Any], s: Frame[Any, Any]) -> Mapping[str, Any]:
        """The observation of state `s`, component by name (integer or Boolean terms)."""
        ...

    def label(
        self, o: Ops[Any, Any], schema: Schema, s: Frame[Any, Any], c: Frame[Any, Any]
    ) -> Label:
        """What the side sees of `schema` taken in `s` with choices `c`."""
        ...


@attrs.frozen
class Bridge:
    """A relational lemma: a term over one state that is equal in any two states with equal
    observations (no lemma assumed). It adds nothing to the relation, it only
    spells out a consequence the solver would otherwise have to find inside every pair
    (a count at a hex named by a variable, say). `prove` derives it from equal observations
    first, case by case over the values of the state variable `split` (so each case reads
    one hex; None: one case), and only then assumes it; each case within `rlimit` when given
    (a count the finite-domain solver spends more on), else the proof's limit."""

    name: str
    term: Callable[[Ops[Any, Any], Frame[Any, Any]], Any]
    split: str | None = None
    rlimit: int | None = None


def simplified(term: Any) -> Any:
    return term if isinstance(term, bool | int) else smt.simplify(term)


def equal(o: Any, a: Any, b: Any) -> Any:
    return o.iff(a, b) if smt.is_bool(a) or smt.is_bool(b) else o.eq(a, b)


class Pair:
    """Two copies of the one-step template: the template's own variables and renamed ones.

    A variable the observation shows as it is (a component that is the bare variable) is
    equal in the two states by assumption, so the second copy reads the first copy's
    variable: the same question, and the terms of the two copies share all they read of it
    (a component of the two states after that reads no hidden variable is then one term).
    With `named`, what the observer counts is a sum of named indicators (each copy's its own,
    defined by an equation asserted with the formulas that read it: `Defining`)."""

    def __init__(self, system: System, observer: Observer, *, named: bool = True) -> None:
        self.system, self.observer = system, observer
        self.names = Indicators()
        self.ops: Ops[Any, Any] = self.names.ops if named else smt.Z3
        self.t: Template = template(system)
        t = self.t
        self.obs_now = {n: simplified(v) for n, v in observer.observe(self.ops, t.cur).items()}
        self.reads: set[str] = set()
        cur = t.cur.values()
        self.shared: set[str] = set()
        for term in self.obs_now.values():
            names = smt.names_in(term)
            self.reads |= names
            if len(names) == 1:
                (name,) = names
                if name in cur and smt.structurally_equal(term, cur[name]):
                    self.shared.add(name)
        self.reads = {n for n in self.reads if n in cur}  # the indicators by what they read
        self.reads |= {n for i in self.names.items.values() for n in smt.names_in(i)}
        own = z3_frame(system.variables, "~2")
        self.cur2 = Frame(
            {n: cur[n] if n in self.shared else v for n, v in own.ints.items()},
            {n: cur[n] if n in self.shared else v for n, v in own.bools.items()},
        )
        self.choice2 = z3_frame(t.choice_vars, "~2")
        cur2 = self.cur2.values()
        ch, ch2 = t.choice.values(), self.choice2.values()
        self.pairs = [
            (cur[v.name], cur2[v.name]) for v in system.variables if v.name not in self.shared
        ]
        self.choice_pairs = {v.name: (ch[v.name], ch2[v.name]) for v in t.choice_vars}
        self._after: dict[int, Mapping[str, Any]] = {}
        self._frames: dict[int, Frame[Any, Any]] = {}
        self._labels: dict[int, Label] = {}
        self.looked: set[int] = set()  # the schemas `noninterference_moves` looked at
        self.facts: dict[int, list[Any]] = {}  # per schema, terms to prove equal, then assume
        self._second: dict[tuple[str, frozenset[str]], Any] = {}
        self.agreed: dict[int, frozenset[str]] = {}  # per schema, choices proved shared

    def solver(self, *, finite_domain: bool = False, rlimit: int) -> Defining:
        return Defining(smt.Solver(finite_domain=finite_domain, rlimit=rlimit), self.names)

    def second(self, term: Any, same: frozenset[str] = frozenset(), *, plain: bool = False) -> Any:
        """`term` over the second copy (a Python constant is its own copy); the choices named
        in `same` are the first copy's. An indicator the term reads becomes the indicator of
        its condition over the second copy (`plain`: the term reads none, a guard, say)."""
        if isinstance(term, bool | int):
            return term
        pairs = self.pairs + [p for n, p in self.choice_pairs.items() if n not in same]
        if plain:
            return smt.substitute(term, pairs)
        found = self.names.in_term(term)
        named = [(smt.fresh_int(n), self._second_of(n, same)) for n in found]
        return smt.substitute(term, pairs + named)

    def _second_of(self, name: str, same: frozenset[str]) -> Any:
        """The indicator of `name`'s condition over the second copy. The condition may read
        indicators itself (a condition over a count made after a step): those become the
        second copy's too (`second`), else the second copy's condition would read the first
        copy's count. An indicator's condition reads only indicators named before it, so
        this ends."""
        key = (name, same)
        if key not in self._second:
            self._second[key] = self.names.name(self.second(self.names.items[name], same))
        return self._second[key]

    def choices2(self, same: frozenset[str]) -> Frame[Any, Any]:
        """The second copy's choices, those in `same` the first copy's."""
        ch, ch2 = self.t.choice, self.choice2
        return Frame(
            {n: ch.ints[n] if n in same else v for n, v in ch2.ints.items()},
            {n: ch.bools[n] if n in same else v for n, v in ch2.bools.items()},
        )

    def after(self, k: int) -> Frame[Any, Any]:
        """The state after schema k: the template's, or its rewriting given by `rewrite`."""
        frame = self._frames.get(k)
        return self.t.after(k) if frame is None else frame

    def rewrite(self, k: int, frame: Frame[Any, Any], label: Label | None = None) -> None:
        """Read the state after schema k as `frame` (and its observable part as `label`): the
        same, its terms rewritten by identities proved first (`noninterference_moves`)."""
        self._frames[k] = frame
        self._after.pop(k, None)
        if label is not None:
            self._labels[k] = label

    def obs_after(self, k: int) -> Mapping[str, Any]:
        """The observation after schema k, each component simplified (so one the step leaves
        as it was is, most often, the very term it was before)."""
        if k not in self._after:
            seen = self.observer.observe(self.ops, self.after(k))
            self._after[k] = {n: simplified(v) for n, v in seen.items()}
        return self._after[k]

    def label(self, k: int) -> Label:
        """The observable part of schema k, or its rewriting given by `rewrite`."""
        if k in self._labels:
            return self._labels[k]
        return self.observer.label(self.ops, self.system.schemas[k], self.t.cur, self.t.choice)

    def bridged(self, bridge: Bridge) -> Any:
        """The bridge's statement: its term equal in the two states."""
        term = simplified(bridge.term(self.ops, self.t.cur))
        return smt.formula(equal(smt.Z3, term, self.second(term)))

    def labels_equal(
        self, solver: Defining, l1: Sequence[Any], l2: Sequence[Any], same: frozenset[str]
    ) -> None:
        """The two steps' labels equal (what the blind side sees of them), a term that is one
        term in both copies left out."""
        o = smt.Z3
        for a, b in zip(l1, l2, strict=True):
            b2 = self.second(b, same)
            if not smt.structurally_equal(a, b2):
                solver.add_named(smt.formula(equal(o, a, b2)))

    def guards(self, solver: Defining, k1: int, k2: int, same: frozenset[str]) -> None:
        """The eager conjuncts of both steps' guards (those the template builds at once): a
        pair of states that breaks one is no pair of steps, so assuming them from the start
        leaves out no counterexample, and spares the solver states where a stage reads pieces
        that could not have acted."""
        t = self.t
        for j in sorted(t.eager[k1]):
            solver.add(smt.formula(t.term(k1, j)))
        for j in sorted(t.eager[k2]):
            solver.add(self.second(smt.formula(t.term(k2, j)), same, plain=True))

    def base(
        self, solver: Defining, lemmas: Sequence[Lemma], bridges: Sequence[Bridge] = ()
    ) -> None:
        """Both states in their domains, the lemmas in both, equal observations, and the
        bridges (which follow from those: `derive`)."""
        t = self.t
        both = [*domain(self.system.variables, t.cur), *domain(t.choice_vars, t.choice)]
        for c in both:
            solver.add(c)
            solver.add(self.second(c, plain=True))
        for lemma in lemmas:
            f = smt.formula(lemma.holds(smt.Z3, t.cur))
            solver.add(f)
            solver.add(self.second(f, plain=True))
        for term in self.obs_now.values():
            if not smt.structurally_equal(term, self.second(term)):
                solver.add_named(smt.formula(equal(smt.Z3, term, self.second(term))))
        for bridge in bridges:
            solver.add_named(self.bridged(bridge))

    def same_choices(
        self, k1: int, k2: int, l1: Sequence[Any], l2: Sequence[Any]
    ) -> frozenset[str]:
        """The choices both steps show as they are (one schema, a label term that is the bare
        choice): equal by the labels' equality, so one variable serves both copies; and those
        proved equal in two steps of the schema (`agreed`, `noninterference_choices`)."""
        if k1 != k2:
            return frozenset()
        ch = self.t.choice.values()
        out = set(self.agreed.get(k1, ()))
        for a, b in zip(l1, l2, strict=True):
            names = smt.names_in(a)
            if len(names) != 1 or not smt.structurally_equal(a, b):
                continue
            (name,) = names
            if name in self.choice_pairs and smt.structurally_equal(a, ch[name]):
                out.add(name)
        return frozenset(out)


def rewritten_frame(s: Frame[Any, Any], term: Callable[[Any], Any]) -> Frame[Any, Any]:
    """`s` with `term` applied to each of its terms (a rewriting of the state after)."""
    return Frame({n: term(v) for n, v in s.ints.items()}, {n: term(v) for n, v in s.bools.items()})


def prove_identities(
    p: Pair,
    used: Sequence[tuple[Any, Any]],
    rlimit: int,
    atoms: Mapping[tuple[int, int], Sequence[Any]] | None = None,
) -> None:
    """Each pair (old term, its rewriting) an identity on one copy, each pair asked once:
    raises SolverUnknown when the limit is spent and ValueError when one fails (a rewriting
    that is not an identity). A pair given `atoms` (by the two terms' ids) is asked first with
    those atoms abstracted (`abstracted`), then, if that does not settle it, as it is."""
    seen: set[tuple[int, int]] = set()
    for old, new in used:
        key = (old.get_id(), new.get_id())
        if key in seen:
            continue
        seen.add(key)
        mine = (atoms or {}).get(key)
        if mine and not _differ(p, *abstracted(p, old, new, mine), rlimit):
            continue
        if _differ(p, old, new, rlimit):
            raise ValueError(f"not an identity on one copy: {str(old)[:300]}")


def _differ(p: Pair, old: Any, new: Any, rlimit: int) -> bool:
    """Whether some state of one copy gives `old` and `new` different values. Asked first with
    the equations of the indicators the two terms read and no deeper (the indicators their
    conditions read left free): no model there means none with every equation either, and
    the solver is spared the pieces' conditions a rewriting's identity does not depend on (a
    roll's identities, about counting, exhaust the limit with every equation). A model there
    may give an inner indicator a value no state gives it, so the question is then asked again
    with every equation (`Defining`)."""
    o = smt.Z3
    claim = smt.formula(o.not_(equal(o, old, new)))
    shallow = Defining(smt.Solver(finite_domain=False, rlimit=rlimit), p.names, deep=False)
    shallow.add_named(claim)
    if not shallow.check():
        return False
    solver = Defining(smt.Solver(finite_domain=False, rlimit=rlimit), p.names)
    solver.add_named(claim)
    return solver.check()


def abstracted(p: Pair, old: Any, new: Any, atoms: Sequence[Any]) -> tuple[Any, Any]:
    """`old` and `new` with the indicators they read written out (ite(condition, 1, 0)) and
    each atom (and its simplified form, the one an indicator names) replaced by a fresh
    Boolean: an identity over the fresh Booleans, for all their values, holds for the atoms
    (putting the atoms back gives the two terms), and the solver is spared what the atoms
    read (an identity that is one of counting, whatever the pieces' conditions are)."""
    names = p.names
    found = sorted(set(names.in_term(old)) | set(names.in_term(new)))
    written = [(smt.fresh_int(n), smt.Z3.ite(names.items[n], 1, 0)) for n in found]
    pairs: dict[int, tuple[Any, Any]] = {}
    for i, a in enumerate(atoms):
        fresh = smt.fresh_bool(f"atom!{i}")
        for form in (a, smt.simplify(a)):
            pairs.setdefault(form.get_id(), (form, fresh))
    swap = list(pairs.values())
    return (
        smt.substitute(smt.substitute(old, written), swap),
        smt.substitute(smt.substitute(new, written), swap),
    )
