"""The conditions of a component's term that the two copies agree on, proved one by one and
then assumed (`solvers.checking.noninterference`).

A step that runs on through the end of a combat, of the combat phase or of a player-turn leaves
a component (the player-turn, the stage) as an ite-chain over hundreds of conditions: whether a
pending attack goes into each hex, whether a retreating unit is left, whether the Japanese
hold the combat's hex once the unit has moved. Asked whole, the two copies' terms exhaust the
limit; yet each condition, asked alone (c = c' in the pair), is settled at once, and with all
of them assumed the whole question is too (the copies' terms then agree by congruence). So a
component that exhausts the limit is asked again after each Boolean subterm of its first
copy's term (the deepest first, so that a larger one is asked once its parts are known equal)
whose copy in the second is another term is asked equal, and assumed once proved. Each is a
consequence of what the solver holds (the relation, the lemmas, the bridges, the labels, the
guards), so assuming it leaves out no counterexample; one left open is not assumed.

Called by `noninterference_search` (`_settle`) for two steps of one schema, when a whole
component exhausts the limit alone, before the case split (`noninterference_cases`). A pair it
once returned whose concrete observations agree came from indicators whose conditions read
other indicators (a count inside a condition, after `noninterference_moves`): the inner ones
were left undefined and the second copy read the first copy's; `Defining.define` and
`Pair.second` now follow them (tests/solvers/test_noninterference_names.py,
test_noninterference_pair.py; the means itself on a toy: test_noninterference_facts.py)."""

from __future__ import annotations

from typing import Any

from solvers import smt
from solvers.checking.noninterference_cases import subterms
from solvers.checking.noninterference_counts import Question
from solvers.checking.noninterference_names import Defining
from solvers.checking.noninterference_pair import Pair

LIMIT = 4000  # subterms looked through per component
SHARE = 20  # a condition is asked within this fraction of the solver's limit


def _booleans(term: Any) -> list[Any]:
    """The Boolean subterms of `term` (no literal), each once, breadth first, at most `LIMIT`
    subterms looked through."""
    return [
        e
        for e in subterms(term, LIMIT)
        if smt.is_bool(e) and str(e.decl().name()) not in ("true", "false")
    ]


def learn(p: Pair, solver: Defining, same: frozenset[str], q: Question) -> int:
    """Each condition of `q`'s first term whose copy is another term, asked equal in the pair
    (deepest first) within `SHARE` of the solver's limit, and assumed once proved (module
    docstring): how many were assumed. A condition asked before in this solver is not asked
    again; one whose parts are each one term in both copies or known equal follows from them
    (its copies agree by congruence) and is not asked."""
    o = smt.Z3
    learned = 0
    rlimit = max(1, solver.solver.rlimit // SHARE)
    for e in reversed(_booleans(q[1])):
        key = e.get_id()
        if key in solver.asked or key in solver.agreed:
            continue
        solver.mark(key, agreed=False)
        e2 = p.second(e, same)
        if smt.structurally_equal(e, e2) or all(
            c.get_id() in solver.agreed or smt.structurally_equal(c, p.second(c, same))
            for c in e.children()
        ):
            solver.mark(key, agreed=True)
            continue
        claim = smt.formula(o.iff(e, e2))
        solver.push()
        try:
            solver.add_named(smt.formula(o.not_(claim)))
            proved = not solver.check_within(rlimit)
        except smt.SolverUnknown:
            proved = False
        finally:
            solver.pop()
        if proved:
            solver.add_named(claim)
            solver.mark(key, agreed=True)
            learned += 1
    return learned
