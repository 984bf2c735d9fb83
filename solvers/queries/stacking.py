"""Stacking limits as Z3 formulas: is a stack legal, and which units may go to make it legal.

A spec describes one side's limits in one hex as plain data (`StackingProblem`) and passes the
units there (`StackUnit`). The same description serves two kinds of choice the rules give the
owner: which units to eliminate to bring an overstacked hex within limits (SNC-6.0.4), and which
units defend a hex when only some may (SHU-STACK.3). Both pick the units to keep (survivors,
defenders) among those present; `Extent` says how many the owner must let go, per reading.

`solvers.queries.stacking_oracle` computes the same sets by trying every subset.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Literal, NamedTuple

import attrs

from kernel.errors import InvalidInput
from solvers import smt
from solvers.reasons import Reason


class Choice(NamedTuple):
    """The units the owner lets go (eliminated, or not defending) and those kept, by id."""

    removed: tuple[str, ...]
    kept: tuple[str, ...]


def _strings(xs: Iterable[str]) -> tuple[str, ...]:
    return tuple(xs)


def _id_set(xs: Iterable[str]) -> frozenset[str]:
    return frozenset(xs)


@attrs.frozen
class StackUnit:
    """A unit in the hex: `weight` counts toward weighted capacities (integers: a half division
    equivalent is 1 when the limit is given in halves); `group` is the formation a
    `OneFormation` limit may fill the stack with (a division, the SNLF)."""

    id: str
    name: str
    weight: int = attrs.field(default=1, validator=attrs.validators.ge(0))
    group: str | None = None


@attrs.frozen
class Capacity:
    """The kept units weigh at most `bound` (or number at most `bound` when not `weighted`).
    Weights are in `1/scale` of `measure` for the sentences (scale 2: halves)."""

    bound: int
    clauses: tuple[str, ...] = attrs.field(converter=_strings)
    text: str
    weighted: bool = False
    scale: int = 1
    measure: str = "units"


def _complete(xs: Mapping[str, int] | Iterable[tuple[str, int]]) -> tuple[tuple[str, int], ...]:
    items = xs.items() if isinstance(xs, Mapping) else xs
    return tuple(sorted(items))


@attrs.frozen
class OneFormation:
    """All kept units but at most `outside` belong to one formation (units without a group are
    always outside): "the four regiments of one division plus one garrison or regiment".

    `complete` names groups that are one formation only when at least that many of their units
    are kept; with fewer kept, each of their kept units is a formation of its own ("the four
    SNLF battalions stacked together count as one division", SNC-6.2.2, read strictly)."""

    outside: int
    clauses: tuple[str, ...] = attrs.field(converter=_strings)
    text: str
    complete: tuple[tuple[str, int], ...] = attrs.field(default=(), converter=_complete)


@attrs.frozen
class Barred:
    """`units` may not be kept (decoys do not defend...)."""

    units: frozenset[str] = attrs.field(converter=_id_set)
    clauses: tuple[str, ...] = attrs.field(converter=_strings)
    text: str


@attrs.frozen
class AtLeast:
    """At least `bound` units are kept (a hex with units has a defender)."""

    bound: int
    clauses: tuple[str, ...] = attrs.field(converter=_strings)
    text: str


Limit = Capacity | OneFormation | Barred | AtLeast


class Extent(enum.Enum):
    """How many units the owner must let go. SNC-6.0.4 ("eliminate enough excess units there
    (player's choice)") reads as MINIMAL or as MINIMUM, which differ once weights differ (drop
    one 1.5 DE division, or three 0.5 DE brigades?); a spec picks one per its variant."""

    MINIMAL = "minimal"  # each unit let go was needed: keeping it would break a limit
    MINIMUM = "minimum"  # as few units as possible
    ANY = "any"  # any choice that leaves the hex within limits


def _limits(xs: Iterable[Limit]) -> tuple[Limit, ...]:
    return tuple(xs)


@attrs.frozen
class StackingProblem:
    """One side's limits in one hex, and how the owner brings the hex within them.

    `where` names the hex in sentences ("hex 3512"); `removal` says what letting a unit go
    means ("eliminated", "left out of the defence"); `extent_clauses` cite the rule that the
    extent reading encodes.
    """

    where: str
    limits: tuple[Limit, ...] = attrs.field(converter=_limits)
    extent: Extent = Extent.MINIMAL
    extent_clauses: tuple[str, ...] = attrs.field(default=(), converter=_strings)
    removal: str = "eliminated"


# --- breaches, shared with the oracle ---------------------------------------------------------


@attrs.frozen(order=True)
class Breach:
    """A broken rule: `problem.limits[index]` ("limit"), the extent reading for one needless
    removal of `unit` ("minimal"), or too many removals ("minimum")."""

    kind: Literal["limit", "minimal", "minimum"]
    index: int = 0
    unit: str = ""


def by_id(units: Sequence[StackUnit]) -> dict[str, StackUnit]:
    out = {u.id: u for u in units}
    if len(out) != len(units):
        raise InvalidInput("a unit is listed twice in the stack", field="units")
    return out


def formation_outside(units: Iterable[StackUnit], complete: Iterable[tuple[str, int]] = ()) -> int:
    """How many of `units` fall outside the best single formation (`OneFormation.complete`:
    a group short of its number counts unit by unit)."""
    units = list(units)
    need = dict(complete)
    size: dict[str, int] = {}
    for u in units:
        if u.group is not None:
            size[u.group] = size.get(u.group, 0) + 1

    def key(u: StackUnit) -> str | tuple[str, str] | None:
        if u.group is not None and size[u.group] < need.get(u.group, 0):
            return (u.group, u.id)
        return u.group

    keys = [key(u) for u in units]
    groups = {k for k in keys if k is not None}
    return min((sum(1 for k in keys if k != g) for g in groups), default=len(units))


def _amount(limit: Capacity, units: Iterable[StackUnit]) -> int:
    return sum(u.weight if limit.weighted else 1 for u in units)


def reason(
    problem: StackingProblem,
    units: Sequence[StackUnit],
    removed: Iterable[str],
    breach: Breach,
    minimum: int = 0,
) -> Reason:
    """The sentence for one breach by the stack left after `removed` go."""
    gone = set(removed)
    kept = [u for u in units if u.id not in gone]
    where = problem.where
    if breach.kind == "minimal":
        name = by_id(units)[breach.unit].name
        return Reason(
            problem.extent_clauses,
            f"{where}: {name} need not be {problem.removal}: the hex is within limits with it",
        )
    if breach.kind == "minimum":
        return Reason(
            problem.extent_clauses,
            f"{where}: {minimum} unit(s) need be {problem.removal}, not {len(gone)}",
        )
    limit = problem.limits[breach.index]
    if isinstance(limit, Capacity):
        said = f"{_amount(limit, kept) / limit.scale:g} {limit.measure}"
    elif isinstance(limit, OneFormation):
        said = f"{formation_outside(kept, limit.complete)} outside any one formation"
    elif isinstance(limit, Barred):
        said = ", ".join(u.name for u in kept if u.id in limit.units)
    else:
        said = str(len(kept))
    return Reason(limit.clauses, f"{where}: {limit.text} ({said} here)")


# --- the encoding -----------------------------------------------------------------------------


def _within(limit: Limit, units: Sequence[StackUnit], keep: Mapping[str, smt.Bool]) -> smt.Bool:
    """`limit` holds of the kept units (`keep[id]` true)."""
    if isinstance(limit, Capacity):
        if not limit.weighted:
            return smt.at_most([keep[u.id] for u in units], limit.bound)
        terms = [(keep[u.id], u.weight) for u in units if u.weight != 0]
        return smt.weighted_at_most(terms, limit.bound)
    if isinstance(limit, OneFormation):
        groups = sorted({u.group for u in units if u.group is not None})
        if not groups:
            return smt.at_most([keep[u.id] for u in units], limit.outside)
        need = dict(limit.complete)
        ways = []
        for g in groups:
            fits = smt.at_most([keep[u.id] for u in units if u.group != g], limit.outside)
            if g in need:  # a formation only when complete; else each unit is its own
                members = [keep[u.id] for u in units if u.group == g]
                ways.append(smt.and_([smt.at_least(members, need[g]), fits]))
                ways.extend(
                    smt.at_most([keep[v.id] for v in units if v.id != u.id], limit.outside)
                    for u in units
                    if u.group == g
                )
            else:
                ways.append(fits)
        return smt.or_(ways)
    if isinstance(limit, Barred):
        return smt.and_(smt.not_(keep[u.id]) for u in units if u.id in limit.units)
    return smt.at_least([keep[u.id] for u in units], limit.bound)


class _Encoding:
    """keep[id]: the unit stays (survives, defends). As in `solvers.queries.retreat`, constraints
    are
    labelled only when `track` is set (only explanations need cores)."""

    def __init__(
        self,
        problem: StackingProblem,
        units: Sequence[StackUnit],
        *,
        extent: bool = True,
        track: bool = False,
    ) -> None:
        self.units = list(units)
        by_id(self.units)
        self.solver = smt.Solver()
        self.keep = {u.id: smt.bool_var(f"keep_{u.id}") for u in self.units}
        self.breaches: list[Breach] = []

        def add(formula: smt.Bool, breach: Breach) -> None:
            self.breaches.append(breach)
            self.solver.add(formula, breach if track else None)

        for k, limit in enumerate(problem.limits):
            add(_within(limit, self.units, self.keep), Breach("limit", k))
        self.minimum = 0
        if not extent:
            return
        if problem.extent == Extent.MINIMAL:
            for u in self.units:
                back = {**self.keep, u.id: smt.true()}
                fits = smt.and_(_within(lim, self.units, back) for lim in problem.limits)
                add(
                    smt.implies(smt.not_(self.keep[u.id]), smt.not_(fits)),
                    Breach("minimal", 0, u.id),
                )
        elif problem.extent == Extent.MINIMUM:
            self.minimum = self._fewest()
            gone = [smt.not_(x) for x in self.keep.values()]
            add(smt.at_most(gone, self.minimum), Breach("minimum"))

    def _fewest(self) -> int:
        """The fewest removals that leave the hex within limits (all of them if none do);
        asked before any extent constraint is added."""
        gone = [smt.not_(x) for x in self.keep.values()]
        for k in range(len(gone) + 1):
            self.solver.push()
            self.solver.add(smt.at_most(gone, k))
            ok = self.solver.check()
            self.solver.pop()
            if ok:
                return k
        return len(gone)

    def fix(self, removed: Iterable[str]) -> list[smt.Bool]:
        gone = set(removed)
        return [smt.not_(x) if i in gone else x for i, x in self.keep.items()]


# --- the API ----------------------------------------------------------------------------------


def check(problem: StackingProblem, units: Sequence[StackUnit]) -> bool:
    """Is the stack `units` within the limits?"""
    enc = _Encoding(problem, units, extent=False)
    return enc.solver.check(enc.fix(()))


def explain(problem: StackingProblem, units: Sequence[StackUnit]) -> list[Reason]:
    """Every limit the stack breaks, each from a minimal unsat core; empty when legal."""
    return _explain(problem, units, (), extent=False)


def check_choice(
    problem: StackingProblem, units: Sequence[StackUnit], removed: Iterable[str]
) -> bool:
    """Is letting `removed` go a legal way to bring the hex within limits?"""
    gone = _known(units, removed)
    enc = _Encoding(problem, units)
    return enc.solver.check(enc.fix(gone))


def removable_next(
    problem: StackingProblem, units: Sequence[StackUnit], removed: Iterable[str]
) -> tuple[str, ...]:
    """The units some legal choice lets go together with every unit of `removed`: the owner's
    next picks when he lets units go one at a time (one solver check per unit, never the
    exponential list of choices)."""
    gone = _known(units, removed)
    enc = _Encoding(problem, units)
    fixed = [smt.not_(enc.keep[i]) for i in gone]
    return tuple(
        i
        for i in sorted(enc.keep)
        if i not in gone and enc.solver.check([*fixed, smt.not_(enc.keep[i])])
    )


def explain_choice(
    problem: StackingProblem, units: Sequence[StackUnit], removed: Iterable[str]
) -> list[Reason]:
    """Why letting `removed` go is not a legal choice (every rule it breaks); empty if it is."""
    return _explain(problem, units, _known(units, removed), extent=True)


def _known(units: Sequence[StackUnit], removed: Iterable[str]) -> tuple[str, ...]:
    ids = by_id(units)
    gone = tuple(sorted(set(removed)))
    unknown = [i for i in gone if i not in ids]
    if unknown:
        raise InvalidInput(f"units not in the stack: {unknown}", field="removed")
    return gone


def _explain(
    problem: StackingProblem, units: Sequence[StackUnit], removed: tuple[str, ...], *, extent: bool
) -> list[Reason]:
    enc = _Encoding(problem, units, extent=extent, track=True)
    cores = smt.disjoint_cores(enc.solver, enc.fix(removed), enc.breaches)
    found = {b for core in cores for b in core if isinstance(b, Breach)}
    return [reason(problem, units, removed, b, enc.minimum) for b in sorted(found)]


def compliance_choices(problem: StackingProblem, units: Sequence[StackUnit]) -> Iterator[Choice]:
    """The legal choices of units to let go, lazily, sorted by the removed ids.

    A depth-first walk over the sorted ids picks the next unit to let go; the solver is asked,
    before each branch, whether some legal choice lies below it, so no branch is a dead end.
    """
    enc = _Encoding(problem, units)
    if enc.solver.check():
        yield from _walk(enc, sorted(enc.keep), (), 0)


def _walk(enc: _Encoding, ids: list[str], chosen: tuple[str, ...], pos: int) -> Iterator[Choice]:
    """The choices below `chosen` (ids let go so far) that let go no id before `pos` more.
    A module function, not a closure over itself: a recursive closure is a reference cycle
    per call, which only the cyclic collector frees (with the solver it holds)."""
    keep = enc.keep
    kept_before = [keep[i] for i in ids[:pos] if i not in chosen]
    gone = [smt.not_(keep[i]) for i in chosen]
    if enc.solver.check([*gone, *kept_before, *(keep[i] for i in ids[pos:])]):
        yield Choice(chosen, tuple(i for i in ids if i not in chosen))
    for j in range(pos, len(ids)):
        skipped = [keep[i] for i in ids[pos:j]]
        if enc.solver.check([*gone, *kept_before, *skipped, smt.not_(keep[ids[j]])]):
            yield from _walk(enc, ids, (*chosen, ids[j]), j + 1)


def count(problem: StackingProblem, units: Sequence[StackUnit]) -> int:
    """How many legal choices there are (a stack holds a handful of units: enumerated)."""
    return sum(1 for _ in compliance_choices(problem, units))
