"""Whether a clause ever takes effect, and whether a position can leave the side to move
stuck, asked of the symbolic model with Z3 (`clause_reach`, `stuck_reach`): bounded model
checking for the shortest path there, and a proof over the proved invariants that there is
none. The searches and their limits are `solvers.checking.bounded_search`'s."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from solvers import smt
from solvers.checking.bounded_search import (
    BUDGET,
    DEPTH,
    MODEL_RLIMIT,
    Search,
    fixed,
    frozen_variables,
    limit_of,
    somewhere,
)
from solvers.checking.system import StatePredicate, System, domain
from solvers.checking.unroll import Unrolling, template
from solvers.checking.verdicts import Trace


@attrs.frozen
class ClauseReach:
    """Whether a clause ever takes effect in a reachable state of the model."""

    clause: str
    verdict: str  # "reached" | "never" | "unknown" | "absent"
    detail: str
    trace: Trace | None = None  # a path to a state where it takes effect
    seconds: float = 0.0
    limit: str = ""  # what stopped an "unknown": "depth" | "rlimit" | "budget"
    depth: int = -1  # the depth bounded model checking searched to (-1: it did not run)


def takes_effect(system: System, clause: str) -> Any | None:
    """The formula (over the template state and choices) that holds where `clause` takes
    effect: a schema citing it may be taken, or a guard conjunct citing it (in a schema that
    does not) refuses an action every other conjunct of its schema allows. None when the model
    does not cite it."""
    o, t = smt.Z3, template(system)
    cases = []
    for k, sc in enumerate(system.schemas):
        terms = [t.term(k, j) for j in range(len(t.guards[k]))]
        if clause in sc.clauses:
            cases.append(o.all(terms))
        for j, g in enumerate(t.guards[k]):
            if g.clause == clause and clause not in sc.clauses:
                cases.append(o.all([o.not_(terms[j]), *terms[:j], *terms[j + 1 :]]))
    return smt.formula(o.any(cases)) if cases else None


def clause_reach(
    system: System,
    clause: str,
    *,
    max_depth: int = 24,
    budget: float | None = None,
    invariants: Callable[[], Sequence[StatePredicate]] = tuple,
    rlimit: int = MODEL_RLIMIT,
) -> ClauseReach:
    """Does `clause` ever take effect (see `takes_effect`)? A path to a position where it does
    ("reached"), a proof that it never does in any reachable state ("never": it holds in no
    state of the domain where the frozen variables keep their values), or "unknown" with the
    depth searched and the limit that stopped the search (`max_depth`, `rlimit` per Z3 check,
    or the wall-clock `budget` when one is given: see the module docstring)."""
    start = time.perf_counter()
    goal = takes_effect(system, clause)
    if goal is None:
        return ClauseReach(clause, "absent", "the symbolic model does not cite this clause")
    cvars = template(system).choice_vars
    search = Search(max_depth, budget, rlimit)

    def never(assumed: int) -> ClauseReach:
        kept = ", ".join(sorted(frozen_variables(system, rlimit))) or "none"
        return ClauseReach(
            clause,
            "never",
            "proved on the symbolic model: it takes effect in no state of the domain "
            f"where the variables no live rule changes keep their initial values ({kept})"
            f"{f' and the {assumed} proved invariants hold' if assumed else ''}",
            depth=search.depth,
        )

    try:
        # As in `model_differential`: a proof where it is cheap, then the shortest path, then
        # a proof over the states the (costly) proved invariants admit.
        goal = fixed(system, goal, rlimit)
        if smt.is_false(goal) or somewhere(system, cvars, [goal], (), rlimit) is None:
            verdict = never(0)
        elif (trace := search.deepen(system, cvars, goal)) is not None:
            verdict = ClauseReach(
                clause,
                "reached",
                f"bounded model checking, depth {search.depth}",
                trace,
                depth=search.depth,
            )
        elif search.spent():  # the costly proof below is not started once the budget is gone
            verdict = ClauseReach(
                clause,
                "unknown",
                f"{search.searched()} reaches a state where it takes effect "
                f"({search.stopped()} before a proof over the proved invariants was tried)",
                limit=BUDGET,
                depth=search.depth,
            )
        else:
            assumed = invariants()
            example = somewhere(system, cvars, [goal], assumed, rlimit)
            verdict = (
                never(len(assumed))
                if example is None
                else ClauseReach(
                    clause,
                    "unknown",
                    f"{search.searched()} reaches a state where it takes effect "
                    f"({search.stopped()}); it does in a state of the domain not shown "
                    f"reachable ({example})",
                    limit=search.limit,
                    depth=search.depth,
                )
            )
    except smt.SolverUnknown as exc:
        verdict = ClauseReach(
            clause,
            "unknown",
            f"{exc.message}{search.reached()}",
            limit=limit_of(exc),
            depth=search.depth,
        )
    return attrs.evolve(verdict, seconds=time.perf_counter() - start)


@attrs.frozen
class StuckReach:
    """Whether the model reaches a state where no schema is enabled for any choices (and the
    game is not over, where the model says when it is: `over`)."""

    verdict: str  # "reached" | "unknown"
    detail: str
    trace: Trace | None = None
    seconds: float = 0.0
    limit: str = ""  # what stopped an "unknown": "depth" | "rlimit" | "budget"
    depth: int = -1


def stuck_formula(system: System) -> Any:
    """Over the template state: no schema's guard holds for any choices in their domains (a
    quantified formula: the choices are bound), and the game is not over (`system.over`, a
    state predicate, when the model has one)."""
    o, t = smt.Z3, template(system)
    enabled = o.any(
        [o.all([t.term(k, j) for j in range(len(t.guards[k]))]) for k in range(len(system.schemas))]
    )
    stuck = smt.for_all(
        list(t.choice.values().values()),
        o.implies(o.all(domain(t.choice_vars, t.choice)), o.not_(enabled)),
    )
    over = getattr(system, "over", None)
    return o.all([stuck, o.not_(over(o, t.cur))]) if over is not None else stuck


def stuck_reach(
    system: System, *, max_depth: int = 12, budget: float | None = None, rlimit: int = MODEL_RLIMIT
) -> StuckReach:
    """The shortest path of the model from its initial state to a stuck state
    (`stuck_formula`), one step deeper at a time, within `max_depth`, `rlimit` per check and
    the wall-clock `budget` (no new depth once spent; None: deterministic limits only). The
    caller realises the path as actions of the rules and checks the position there: the model
    may be an abstraction. The solver is the general one (the choices are quantified), not
    the bit-blasting one of the other searches."""
    start = time.perf_counter()
    search = Search(max_depth, budget, rlimit)
    t = template(system)
    goal = stuck_formula(system)
    u = Unrolling(system, from_initial=True, rlimit=rlimit)
    cur = t.cur.values()
    try:
        for n in range(max_depth + 1):
            if n and search.spent():
                break
            if n:
                u.extend()
            now = u.states[n].values()
            found = u.search(
                smt.substitute(goal, [(cur[v.name], now[v.name]) for v in system.variables])
            )
            search.depth = n
            if found is not None:
                return StuckReach(
                    "reached",
                    f"bounded model checking, depth {n}",
                    Trace(found[0], found[1]),
                    time.perf_counter() - start,
                    depth=n,
                )
        else:
            search.limit = DEPTH
    except smt.SolverUnknown as exc:
        search.limit = limit_of(exc)
    return StuckReach(
        "unknown",
        f"{search.searched()} reaches a stuck state ({search.stopped()})",
        seconds=time.perf_counter() - start,
        limit=search.limit,
        depth=search.depth,
    )
