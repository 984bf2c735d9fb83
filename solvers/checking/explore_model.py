"""Where two readings part ways, searched with Z3 over the symbolic model.

A spec builds the models of two readings from one data file, so they share their variables and
one formula can say "in state s, with choices c, schema k is allowed under one reading and not
under the other, or leads to another state": the difference D(s, c). Then:

- the schemas of both readings are the very same terms: the model does not tell the readings
  apart (it may not encode the option at all), and nothing is claimed ("silent");
- D holds in no state that every reachable state is known to be: the two transition relations
  agree on all of them, so on the model the readings never differ ("equivalent"). What is
  known of reachable states: the domains, the invariants proved of reading A's model, and the
  values of variables that only dead rules change (`bounded_search.frozen_variables`). What
  the model abstracts, such as the probabilities of a die, is outside that proof, and the
  caller says so;
- otherwise bounded model checking, one step deeper at a time, finds the shortest path of
  reading A from the initial state to a state where D holds: a reachable witness of the
  model ("differ"), which the caller realises as actions of the Python rules and checks there.
  With no such path within the depth, the verdict is "unknown" and the detail gives a state
  where the readings differ, not shown reachable.

The same searches answer two more questions (`solvers.checking.model_reach`): does a clause
ever take effect (`clause_reach`), and what is the shortest path to a state where no action is
enabled, whatever the choices, and the game is not over: a position where the rules leave the
side to move stuck (`stuck_reach`).

Limits (`solvers.checking.bounded_search`). Every search here is bounded by deterministic
limits, which give the same verdict on every machine and under any load: `max_depth` (the
deepest path bounded model checking tries) and `rlimit` (Z3's resource limit, per check; a
check that hits it makes the verdict "unknown"). A wall-clock `budget` may be given as well:
once it has run out no new depth is started, nor the proof over the proved invariants, so the
verdict may depend on the machine's speed (building the model and a check in progress are not
cut short). `budget=None` uses the deterministic limits only (what tests do). Each verdict
names the limit that stopped it (`limit`: "depth", "rlimit" or "budget"; empty when the search
settled the question) and the depth it searched to.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from solvers import smt
from solvers.checking.bounded_search import (
    BUDGET,
    MODEL_RLIMIT,
    Search,
    fixed,
    frozen_variables,
    limit_of,
    somewhere,
)
from solvers.checking.system import (
    StatePredicate,
    System,
    Var,
    domain,
    pinned,
    read_state,
    z3_frame,
)
from solvers.checking.unroll import Template, template
from solvers.checking.verdicts import Trace


@attrs.frozen
class SchemaChange:
    """A schema whose guard or effect the two readings build differently, and the formula
    (over the template state and choices) that holds where they really disagree."""

    schema: str
    clauses: tuple[str, ...]
    differs: Any


@attrs.frozen
class ModelVerdict:
    verdict: str  # "differ" | "equivalent" | "silent" | "unknown"
    detail: str
    trace: Trace | None = None  # reading A's path from the initial state to the difference
    changed: tuple[str, ...] = ()  # the schemas the readings build differently
    at: str = ""  # at the witness: the schema and choices the readings disagree on
    seconds: float = 0.0
    limit: str = ""  # what stopped an "unknown": "depth" | "rlimit" | "budget"
    depth: int = -1  # the depth bounded model checking searched to (-1: it did not run)


def _choice_vars(a: Template, b: Template) -> tuple[Var, ...] | None:
    """The choice variables of both templates, or None if a name has two domains."""
    out: dict[str, Var] = {}
    for v in (*a.choice_vars, *b.choice_vars):
        if out.setdefault(v.name, v) != v:
            return None
    return tuple(out.values())


def schema_changes(
    a: System, b: System, spent: Callable[[], bool] = lambda: False
) -> list[SchemaChange] | None:
    """The schemas (by name) whose guard conjuncts or effect the readings build differently,
    each with the formula that holds where reading A and reading B disagree on it: one allows
    it and the other not, or both allow it and it leads to different states. None when
    `spent()` says the wall-clock budget ran out before every schema was compared (building
    the terms of a new reading takes seconds, and no Z3 check bounds it)."""
    o = smt.Z3
    ta, tb = template(a), template(b)
    index_b = {sc.name: k for k, sc in enumerate(b.schemas)}
    index_a = {sc.name: k for k, sc in enumerate(a.schemas)}
    names = [sc.name for sc in a.schemas] + [n for n in index_b if n not in index_a]
    out = []
    for name in names:
        if spent():
            return None
        ka, kb = index_a.get(name), index_b.get(name)
        ga = [] if ka is None else [ta.term(ka, j) for j in range(len(ta.guards[ka]))]
        gb = [] if kb is None else [tb.term(kb, j) for j in range(len(tb.guards[kb]))]
        ea = {} if ka is None else ta.effects[ka]
        eb = {} if kb is None else tb.effects[kb]
        moved = [n for n in ea if n in eb and not smt.structurally_equal(ea[n], eb[n])]
        same_guard = len(ga) == len(gb) and all(
            smt.structurally_equal(x, y) for x, y in zip(ga, gb, strict=True)
        )
        if ka is not None and kb is not None and same_guard and not moved:
            continue
        allow_a = o.all(ga) if ka is not None else o.lit(False)
        allow_b = o.all(gb) if kb is not None else o.lit(False)
        elsewhere = o.any(o.not_(_equal(o, ea[n], eb[n])) for n in moved)
        differs = o.any(
            [
                o.not_(o.iff(allow_a, allow_b)),
                o.all([allow_a, allow_b, elsewhere]),
            ]
        )
        clauses = next(sc.clauses for sc in (*a.schemas, *b.schemas) if sc.name == name)
        out.append(SchemaChange(name, clauses, smt.formula(differs)))
    return out


def _equal(o: Any, x: Any, y: Any) -> Any:
    return o.iff(x, y) if smt.is_bool(x) else o.eq(x, y)


def _where(
    a: System, changes: Sequence[SchemaChange], choice_vars: Sequence[Var], state: dict[str, Any]
) -> str:
    """At a concrete state: the first schema, with its choices, the readings disagree on."""
    choice = z3_frame(choice_vars, "")
    uses = {sc.name: {v.name for v in sc.choices} for sc in a.schemas}
    s = smt.Solver(finite_domain=False)
    s.add(pinned(a.variables, template(a).cur, state))
    for c in domain(choice_vars, choice):
        s.add(c)
    for ch in changes:
        if s.check([ch.differs]):
            values = read_state(s.model(), choice_vars, choice)
            used = uses.get(ch.schema, set(values))
            names = sorted(used)
            if len(names) > 4:  # many choices (a whole declaration): the ones set
                names = [n for n in names if values[n]]
            shown = ", ".join(f"{n}={values[n]}" for n in names)
            return f"{ch.schema}({shown})"
    return ""


def model_differential(
    a: System,
    b: System,
    *,
    max_depth: int = 24,
    budget: float | None = None,
    invariants: Callable[[], Sequence[StatePredicate]] = tuple,
    rlimit: int = MODEL_RLIMIT,
) -> ModelVerdict:
    """Compare reading A's model with reading B's (see the module docstring). `invariants`
    gives invariants proved of A's model (asked for only when a proof is attempted), which
    the proof of equivalence may assume. Bounded model checking goes no deeper than
    `max_depth`, nor starts a new depth `budget` seconds after it began (`None`: no
    wall-clock limit); every Z3 check is bounded by `rlimit`."""
    start = time.perf_counter()
    search = Search(max_depth, budget, rlimit)
    verdict = _set_apart(a, b)
    if verdict is None:
        verdict = _compared(a, b, search, invariants, rlimit)
    return attrs.evolve(verdict, seconds=time.perf_counter() - start)


def _set_apart(a: System, b: System) -> ModelVerdict | None:
    """What the models settle before their transitions are built: different state variables
    (nothing can be said) or different set-ups (they differ at once); None when neither."""
    if a.variables != b.variables:
        return ModelVerdict("unknown", "the two models have different state variables")
    init_a, init_b = a.initial(), b.initial()
    if init_a != init_b:
        names = sorted(n for n in init_a if init_a[n] != init_b.get(n))
        return ModelVerdict(
            "differ",
            "the set-ups differ on the model: " + ", ".join(names[:6]),
            Trace((init_a,), ()),
            depth=0,
        )
    return None


def _compared(
    a: System,
    b: System,
    search: Search,
    invariants: Callable[[], Sequence[StatePredicate]],
    rlimit: int,
) -> ModelVerdict:
    """The readings' transitions compared: the schemas they build differently, then a proof
    that those agree on every state where the frozen variables keep their values, else the
    shortest path of reading A to a state where they differ, else a proof over the proved
    invariants, else "unknown" with a state of the domain where they differ."""
    cvars = _choice_vars(template(a), template(b))
    if cvars is None:
        return ModelVerdict("unknown", "the models give one choice two domains")
    # `changes` is rebound below as its formulas are fixed, and nothing else holds the list:
    # the Z3 terms freed then are reused, and the models Z3 finds (the witnesses and examples
    # reported) depend on which ones.
    changes = schema_changes(a, b, search.spent)
    if changes is None:
        return ModelVerdict(
            "unknown",
            f"{search.stopped()} while the readings' transitions were being compared",
            limit=BUDGET,
        )
    if not changes:
        return ModelVerdict(
            "silent",
            "the model builds both readings to the same transitions: it does not encode "
            "this option, so it proves nothing here",
        )
    changed = tuple(c.schema for c in changes)
    try:
        # A proof first where it is cheap: every state where the frozen variables keep their
        # initial values (a superset of the reachable ones).
        kept = frozen_variables(a, rlimit)
        changes = [attrs.evolve(c, differs=fixed(a, c.differs, rlimit)) for c in changes]
        changes = [c for c in changes if not smt.is_false(c.differs)]
        goals = [c.differs for c in changes]
        if somewhere(a, cvars, goals, (), rlimit) is None:
            return _equivalent(changed, kept, 0)
        # Reachable: the shortest path of reading A to a state where they differ.
        trace = search.deepen(a, cvars, smt.Z3.any(goals))
        if trace is not None:
            where = _where(a, changes, cvars, dict(trace.states[-1]))
            depth = search.depth
            return ModelVerdict(
                "differ",
                f"bounded model checking, depth {depth}",
                trace,
                changed,
                where,
                depth=depth,
            )
        if search.spent():  # the costly proof below is not started once the budget is gone
            return ModelVerdict(
                "unknown",
                f"{search.searched()} reaches a state where the readings differ "
                f"({search.stopped()} before a proof over the proved invariants was tried)",
                changed=changed,
                limit=BUDGET,
                depth=search.depth,
            )
        # None within reach: a proof again, now over the states the invariants admit.
        assumed = invariants()
        example = somewhere(a, cvars, goals, assumed, rlimit)
        if example is None:
            return _equivalent(changed, kept, len(assumed), search.depth)
    except smt.SolverUnknown as exc:
        message = f"{exc.message}{search.reached()}"
        return ModelVerdict(
            "unknown", message, changed=changed, limit=limit_of(exc), depth=search.depth
        )
    return ModelVerdict(
        "unknown",
        f"{search.searched()} reaches a state where the readings differ "
        f"({search.stopped()}); they do differ in a state that satisfies every "
        f"proved invariant but was not shown reachable ({example})",
        changed=changed,
        limit=search.limit,
        depth=search.depth,
    )


def _equivalent(
    changed: tuple[str, ...], kept: dict[str, int | bool], assumed: int, depth: int = -1
) -> ModelVerdict:
    """The readings proved to agree, over the states where the variables in `kept` keep their
    initial values and, when `assumed`, that many proved invariants hold."""
    return ModelVerdict(
        "equivalent",
        "proved on the symbolic model: in every state of its domain where the "
        f"variables no live rule changes keep their initial values "
        f"({', '.join(sorted(kept)) or 'none'})"
        f"{f' and the {assumed} proved invariants hold' if assumed else ''}, both "
        "readings allow the same actions with the same effects (schemas "
        f"{', '.join(changed)} are written differently but agree there)",
        changed=changed,
        depth=depth,
    )
