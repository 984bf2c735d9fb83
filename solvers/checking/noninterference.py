"""Non-interference of a symbolic model, proved one step at a time by self-composition.

The blind side sees a state only through an observation (`Observer.observe`, terms over the
state written once against `Ops`) and a step only through its observable part
(`Observer.label`: the kind of action and what of its choices that side sees). The property:
for any two states with equal observations (and the lemmas holding in both), any two steps
whose observable parts are equal lead to two states with equal observations. It is an
inductive relation on pairs of states (the unwinding condition), so by induction on the length
of play the blind side's whole sequence of observations is a function of the observable parts
of the steps alone: nothing it may not see changes what it sees.

What it does not say: the observable parts themselves are declared by the spec (a face-down
piece's hex is seen, its identity not), and a schedule that fixes which hidden piece acts when
would let those parts name it; that is a property of histories, tested by the history harness
(tests/hidden).

The question is asked schema pair by schema pair (two copies of the one-step template, the
second renamed), each guard conjunct left out until a counterexample breaks it (leaving them
out only adds transitions, so a proof holds for the whole model; most steps change what is
observed the same way in both copies whatever their guards say); with `eager`, the
conjuncts the template builds at once are assumed from the start. A counterexample is a
`LeakPair`; `reachable_pair` then looks for one at positions of two given model paths (seeded
playouts, say) that the side cannot tell apart: two witness games. Every solver call is
bounded by its rlimit, never by time.

The lemmas the relation assumes are proved first, together (their conjunction an inductive
invariant of the system, so one lemma may rest on another). Bridges (`Bridge`) are relational
lemmas that add nothing to the relation: each is derived from equal observations first, case
by case, with the finite-domain solver (a count of pieces on a hex the state names, which the
arithmetic solver does not settle within any limit tried), and only then assumed. A proof
may be asked in parts, schema by schema (`prove(..., only=...)`): the whole holds when every
part does. `settled` measures a pair that exhausts the limit: which components the solver
settles, asked one by one. What the observer counts (pieces per hex) the pair sees as sums of
named 0/1 indicators, each defined by an equation (`noninterference_names`), the terms in
which facts about single pieces can be stated. Given `Pieces` (what the counts range over and
the choice naming the piece a step acts on), a count is asked in parts, the acting piece's
change and each other piece's, one question each (`noninterference_counts`): equal parts
give equal counts by linear arithmetic, and no part asks which piece one copy moved against
which the other did; a count whose parts differ is asked whole. With the pieces' positions
(`Pieces.at`, `Pieces.where`), whether some piece stands on a hex in a state the step runs
into (once the acting piece has moved) is read over the count before the step, an identity
proved on one copy (`noninterference_moves`); given the hexes whose counts are known equal
(`Pieces.hexes`), so are whether and how many pieces stand on a hex once a stage of a step
with no actor has moved pieces the step does not name (decoys discovered), with one term per
piece, each asked equal in the pair first and assumed once proved (`noninterference_hexes`).
A chunk of components that exhausts the limit is asked again in halves.

Modules: `noninterference_pair` (the two copies), `noninterference_names` (the indicators),
`noninterference_counts` (counts in parts), `noninterference_moves` (pieces on a hex once
one has moved), `noninterference_hexes` (pieces on a hex once a stage has moved some),
`noninterference_search` (the pairs of schemas
asked, the witness read off a model), `noninterference_bridges` (bridges derived, `settled`),
`noninterference_witness` (two witness games along model paths).
"""

from __future__ import annotations

import time
from collections.abc import Collection, Sequence

import attrs

from solvers import smt
from solvers.checking.noninterference_bridges import derive, derive_in, settled
from solvers.checking.noninterference_counts import Pieces
from solvers.checking.noninterference_pair import Bridge, Label, Observer, Pair
from solvers.checking.noninterference_search import (
    CHUNK,
    Leak,
    LeakPair,
    observation,
    search,
)
from solvers.checking.noninterference_witness import reachable_pair
from solvers.checking.prover import DEFAULT_RLIMIT, Invariant, Lemma, check
from solvers.checking.system import System
from solvers.checking.verdicts import Verdict

__all__ = [
    "CHUNK",
    "Bridge",
    "Label",
    "Leak",
    "LeakPair",
    "NoLeak",
    "Observer",
    "Pieces",
    "derive",
    "observation",
    "prove",
    "reachable_pair",
    "settled",
]


@attrs.frozen
class NoLeak:
    """The formal statement of a `*-P-NO-LEAK` property: non-interference for `observer`
    over `system` (the spec's model extended with what the observation reads, when the
    prover's own model leaves it out), assuming `lemmas` in both states (proved first) and
    the `bridges` (derived from equal observations first); with `pieces`, counts asked in
    parts; with `eager`, the guards' eager conjuncts assumed from the start."""

    observer: Observer
    system: System | None = None
    lemmas: tuple[Lemma, ...] = ()
    bridges: tuple[Bridge, ...] = ()
    pieces: Pieces | None = None
    eager: bool = False

    def verdict(self, system: System, rlimit: int = DEFAULT_RLIMIT) -> Verdict:
        return prove(
            self.system or system,
            self.observer,
            lemmas=self.lemmas,
            bridges=self.bridges,
            rlimit=rlimit,
            pieces=self.pieces,
            eager=self.eager,
        )


def prove(
    system: System,
    observer: Observer,
    *,
    lemmas: Sequence[Lemma] = (),
    bridges: Sequence[Bridge] = (),
    rlimit: int = DEFAULT_RLIMIT,
    only: Collection[str] | None = None,
    pieces: Pieces | None = None,
    eager: bool = False,
) -> Leak:
    """The verdict on non-interference for `observer` over `system` (see the module); with
    `only`, on the pairs of steps whose first is one of those schemas (a part of the proof:
    the whole is proved when every schema's part is). The bridges are derived before any
    pair assumes them (`derive`); with `pieces`, counts are asked in parts (the module);
    with `eager`, both steps' eager guard conjuncts are assumed from the start."""
    start = time.perf_counter()
    if lemmas:
        # proved together: their conjunction inductive (one lemma may rest on another)
        v = check(
            system,
            Invariant(lambda o, s: o.all([lem.holds(o, s) for lem in lemmas])),
            rlimit=rlimit,
        )
        if v.status != "proved":
            names = ", ".join(repr(lem.name) for lem in lemmas)
            detail = f"lemmas {names} not proved inductive together: {v.detail}"
            return Leak("unknown", v.method, detail, seconds=time.perf_counter() - start)
    try:
        if bridges:
            loose = derive_in(Pair(system, observer, named=False), bridges, rlimit)
            if loose is not None:
                detail = f"bridge {loose!r} does not follow from equal observations"
                seconds = time.perf_counter() - start
                return Leak("unknown", "self-composition", detail, seconds=seconds)
        p = Pair(system, observer)
        pair, asked = search(p, lemmas, rlimit, only, bridges, pieces, eager)
    except smt.SolverUnknown as exc:
        return Leak("unknown", "self-composition", exc.message, seconds=time.perf_counter() - start)
    seconds = time.perf_counter() - start
    if pair is None:
        given = "" if not lemmas else " given " + ", ".join(lem.name for lem in lemmas)
        if bridges:
            given += "; bridges " + ", ".join(b.name for b in bridges)
        detail = (
            f"1-inductive relation (equal {observer.side} observations), "
            f"{asked} pairs of schemas{given}"
        )
        return Leak("proved", "self-composition", detail, seconds=seconds)
    detail = (
        f"{pair.first.steps[0][0]} and {pair.second.steps[0][0]} with equal observable parts "
        f"lead from equal {observer.side} observations to different ones: "
        + ", ".join(pair.differs[:5])
    )
    return Leak("refuted", "self-composition", detail, pair=pair, seconds=seconds)
