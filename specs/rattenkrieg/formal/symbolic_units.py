"""The step rules of Rattenkrieg's abstraction (`symbolic`) about each unit: where it may come
(RKS-3.5.1), how many step cards it may gain (RKS-7.5.3), that it acts only face up
(RKS-7.4.2), that it is isolated only where its side does not control (RKS-8.10.6), and how it
leaves the map and comes back onto it, with its elimination record (RKS-8.9.2, RKS-6.3.1,
RKS-6.1.1, RKS-6.2.1, RKS-3.3.2, RKS-3.1.1).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solvers.checking.system import Conjunct
from solvers.checking.terms import B, Frame, I, Ops
from specs.rattenkrieg.formal.symbolic_state import Rules, acts, at, elim, eturn, flip, iso, steps
from specs.rattenkrieg.rules.state import GE

if TYPE_CHECKING:
    from specs.rattenkrieg.formal.symbolic import Model


def unit_rules(m: Model, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I], u: str) -> list[Conjunct[B]]:
    """Where unit `u` may come (RKS-3.5.1), how many step cards it may gain (RKS-7.5.3), and
    that it acts only face up (RKS-7.4.2)."""
    here, there = s.i(at(u)), n.i(at(u))
    rear, most = m.enemy_rear[u], m.most_steps[u]
    about = frozenset({u})
    return [
        Conjunct(
            "RKS-3.5.1",
            f"{u} never comes to the enemy Rear",
            lambda: o.implies(o.not_(o.eq(there, here)), o.not_(o.eq(there, rear))),
            about=about,
        ),
        Conjunct(
            "RKS-7.5.3",
            f"{u} gains step cards only up to its original {most} (RKS-3.3.1, RKS-6.1.2, "
            "RKS-8.12.1)",
            lambda: o.implies(o.lt(s.i(steps(u)), n.i(steps(u))), o.le(n.i(steps(u)), most)),
            about=about,
        ),
        Conjunct(
            "RKS-7.4.2",
            f"{u} acts (is designated, recruits or moves along) only face up before the "
            "step (RKS-7.5.2, RKS-8.12.4, RKS-10.3.1, RKS-9.8.2)",
            lambda: o.implies(n.b(acts(u)), o.not_(s.b(flip(u)))),
            about=about,
        ),
        Conjunct(
            "RKS-8.10.6",
            f"every step ends with {u}, if isolated on the map, in a Stalingrad Area its "
            "side does not control",
            lambda: m.isolation_settled(o, n, u),
            about=about,
        ),
        *record_rules(m, o, s, n, u),
    ]


def record_rules(
    m: Model, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I], u: str
) -> list[Conjunct[B]]:
    """How unit `u` leaves the map and comes onto it, and its elimination record (RKS-8.9.2,
    RKS-6.3.1, RKS-6.1.1, RKS-6.2.1, RKS-3.3.2, RKS-3.1.1)."""
    here, there = s.i(at(u)), n.i(at(u))
    gone, gone2 = s.i(elim(u)), n.i(elim(u))
    leaves = o.all([o.not_(o.eq(here, 0)), o.eq(there, 0)])
    comes = o.all([o.eq(here, 0), o.not_(o.eq(there, 0))])
    about = frozenset({u})
    rules: Rules[B] = [
        (
            "RKS-8.9.2",
            f"{u} leaves the map only eliminated, recorded once in the Turn the step ends in",
            lambda: o.implies(
                leaves,
                o.all([o.eq(gone, 0), o.eq(gone2, 1), o.eq(n.i(eturn(u)), n.i("turn"))]),
            ),
        ),
        (
            "RKS-8.9.2",
            f"{u}'s elimination record changes only as it leaves the map, or as it revives "
            "(RKS-6.3.1), which clears it",
            lambda: o.implies(
                o.not_(o.eq(gone2, gone)), o.any([leaves, o.all([comes, o.eq(gone2, 0)])])
            ),
        ),
        (
            "RKS-8.9.2",
            f"{u}'s elimination record keeps its Turn",
            lambda: o.implies(
                o.all([o.eq(gone2, gone), o.not_(o.eq(gone, 0))]),
                o.eq(n.i(eturn(u)), s.i(eturn(u))),
            ),
        ),
        (
            "RKS-6.3.1",
            f"{u} comes back onto the map only with its elimination record cleared",
            lambda: o.implies(comes, o.eq(gone2, 0)),
        ),
        (
            "RKS-3.3.2",
            f"{u} leaving the map sheds its steps and markers; off it, it gains none",
            lambda: o.implies(
                o.eq(there, 0),
                o.all(
                    [
                        o.implies(
                            o.not_(o.eq(here, 0)),
                            o.all([o.eq(n.i(steps(u)), 0), o.not_(m.marked(o, n, u))]),
                        ),
                        o.implies(
                            o.eq(here, 0),
                            o.all(
                                [
                                    o.le(n.i(steps(u)), s.i(steps(u))),
                                    o.implies(n.b(flip(u)), s.b(flip(u))),
                                    o.implies(n.b(iso(u)), s.b(iso(u))),
                                ]
                            ),
                        ),
                    ]
                ),
            ),
        ),
    ]
    arrives = m.arrives[u]
    if arrives is not None:
        clause = "RKS-6.1.1" if m.side[u] == GE else "RKS-6.2.1"
        rules += [
            (
                clause,
                f"{u} comes onto the map only from Turn {arrives} on",
                lambda: o.implies(comes, o.le(arrives, n.i("turn"))),
            ),
            (
                clause,
                f"{u} is on the map as Turn {arrives} comes",
                lambda: o.implies(
                    o.all([o.lt(s.i("turn"), arrives), o.le(arrives, n.i("turn"))]),
                    o.not_(o.eq(there, 0)),
                ),
            ),
        ]
    if u in m.rifles:
        rules.append(
            (
                "RKS-3.1.1",
                f"the placing of the Rifles ends only with {u} on the map",
                lambda: o.implies(
                    o.all([s.b("placing"), o.not_(n.b("placing"))]), o.not_(o.eq(there, 0))
                ),
            )
        )
    return [Conjunct(clause, text, make, about=about) for clause, text, make in rules]
