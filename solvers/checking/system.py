"""A symbolic transition system: named state variables with finite domains, one initial state,
and labelled action schemas, each a guard (conjuncts citing clauses) and an effect.

An effect returns the whole next frame; whatever it does not replace stays equal (the frame
condition). Schemas are written against `solvers.checking.terms.Ops`, so one definition yields the
Z3
step relation the prover unrolls and a plain evaluator the refinement check runs. Nothing here
knows any game.
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, Protocol

import attrs

from solvers import smt
from solvers.checking.terms import CONCRETE, B, Frame, I, Ops


@attrs.frozen
class IntVar:
    """An integer from `lo` to `hi` (None: no upper bound)."""

    name: str
    lo: int = 0
    hi: int | None = None


@attrs.frozen
class BoolVar:
    name: str


Var = IntVar | BoolVar
Values = Mapping[str, int | bool]


@attrs.frozen
class Conjunct(Generic[B]):
    """One condition of a guard, with the clause it encodes and a sentence saying it. `make`
    builds it on demand; a `lazy` one is costly, and a prover may leave it out (which only
    adds transitions) until a counterexample shows it is needed. `about` names the subjects
    (units, say) it constrains: a proof by parts (`solvers.checking.prover.Part`) assumes only the
    conjuncts about its part's subjects, which is sound for the same reason."""

    clause: str
    text: str
    make: Callable[[], B]
    lazy: bool = False
    about: frozenset[str] = frozenset()


class Schema(abc.ABC):
    """An action schema: `guard(s, c)` says when it may be taken with choices `c`, and
    `effect(s, c)` gives the next frame."""

    name: str
    clauses: tuple[str, ...]
    choices: tuple[Var, ...] = ()

    @abc.abstractmethod
    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]: ...

    @abc.abstractmethod
    def effect(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]: ...


class WithoutClause(Schema):
    """`schema` with the guard conjuncts citing `clause` left out. A proof that fails without
    them rests on that rule: how tests show a proof is no tautology."""

    def __init__(self, schema: Schema, clause: str) -> None:
        self.inner, self.dropped = schema, clause
        self.name, self.clauses, self.choices = schema.name, schema.clauses, schema.choices

    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        return [g for g in self.inner.guard(o, s, c) if g.clause != self.dropped]

    def effect(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        return self.inner.effect(o, s, c)


class System(Protocol):
    """What the prover needs of a model."""

    name: str
    variables: tuple[Var, ...]
    schemas: tuple[Schema, ...]

    def initial(self) -> dict[str, int | bool]:
        """The one initial state (set-up randomness would be a chance schema)."""
        ...


class StatePredicate(Protocol):
    """A formula over one state."""

    def __call__(self, o: Ops[B, I], s: Frame[B, I], /) -> B: ...


class StepPredicate(Protocol):
    """A formula over one step: the state before and the state after."""

    def __call__(self, o: Ops[B, I], s: Frame[B, I], t: Frame[B, I], /) -> B: ...


class Ranking(Protocol):
    """A non-negative integer that drops on every step (it proves that play ends)."""

    def __call__(self, o: Ops[B, I], s: Frame[B, I], /) -> I: ...


# --- concrete evaluation ---------------------------------------------------------------------


def concrete_frame(variables: Sequence[Var], values: Values) -> Frame[bool, int]:
    ints = {v.name: int(values[v.name]) for v in variables if isinstance(v, IntVar)}
    bools = {v.name: bool(values[v.name]) for v in variables if isinstance(v, BoolVar)}
    return Frame(ints, bools)


def choice_frame(schema: Schema, values: Values) -> Frame[bool, int]:
    """The choices of `schema`, unset ones at their lowest value."""
    ints = {v.name: int(values.get(v.name, v.lo)) for v in schema.choices if isinstance(v, IntVar)}
    bools = {
        v.name: bool(values.get(v.name, False)) for v in schema.choices if isinstance(v, BoolVar)
    }
    return Frame(ints, bools)


@attrs.frozen
class Evaluation:
    """A schema taken with given choices from a concrete state: the guard conjuncts that fail
    (empty when it may be taken) and the next state."""

    failed: tuple[Conjunct[bool], ...]
    after: dict[str, int | bool]


def evaluate(system: System, state: Values, schema: Schema, choices: Values) -> Evaluation:
    s = concrete_frame(system.variables, state)
    c = choice_frame(schema, choices)
    failed = tuple(g for g in schema.guard(CONCRETE, s, c) if not g.make())
    after = schema.effect(CONCRETE, s, c).values() if not failed else {}
    return Evaluation(failed, after)


def schema_named(system: System, name: str) -> Schema:
    for sc in system.schemas:
        if sc.name == name:
            return sc
    raise KeyError(name)


# --- Z3 frames ------------------------------------------------------------------------------------


def z3_frame(variables: Sequence[Var], suffix: str) -> Frame[Any, Any]:
    ints = {v.name: smt.fresh_int(v.name + suffix) for v in variables if isinstance(v, IntVar)}
    bools = {v.name: smt.fresh_bool(v.name + suffix) for v in variables if isinstance(v, BoolVar)}
    return Frame(ints, bools)


def domain(variables: Sequence[Var], f: Frame[Any, Any]) -> list[smt.Bool]:
    """The bounds of every integer variable of `f`."""
    out = []
    for v in variables:
        if isinstance(v, IntVar):
            out.append(smt.within(f.i(v.name), v.lo, v.hi))
    return out


def equal_states(variables: Sequence[Var], a: Frame[Any, Any], b: Frame[Any, Any]) -> smt.Bool:
    av, bv = a.values(), b.values()
    return smt.Z3.all(av[v.name] == bv[v.name] for v in variables)


def pinned(variables: Sequence[Var], f: Frame[Any, Any], values: Values) -> smt.Bool:
    """`f` equals the concrete state `values`."""
    fv = f.values()
    return smt.Z3.all(fv[v.name] == values[v.name] for v in variables)


def read_state(
    model: smt.Model, variables: Sequence[Var], f: Frame[Any, Any]
) -> dict[str, int | bool]:
    fv = f.values()
    return {v.name: smt.value_of(model, fv[v.name]) for v in variables}
