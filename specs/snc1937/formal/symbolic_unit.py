"""What one step may do to one unit in the SNC's abstract symbolic model (`UnitStep`).

Split from `specs.snc1937.formal.symbolic` (the model, its variables and its one schema): the
per-unit conjuncts of that schema, in the fixed order a prover names them by (movement, the
dead pile, steps, the stacking checks, arrival), each citing the clause it implements. Each
conjunct is about its unit alone, which the proof by parts (`solvers.checking.prover.Part`)
relies on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Generic

from solvers.checking.system import Conjunct
from solvers.checking.terms import B, Frame, I, Ops
from specs.snc1937.formal.symbolic_names import at, flag
from specs.snc1937.rules.state import JP

if TYPE_CHECKING:
    from specs.snc1937.formal.symbolic import Model


class UnitStep(Generic[B, I]):
    """One unit's terms before (`s`) and after (`c`) a step, and the step rules about it."""

    def __init__(self, m: Model, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I], u: str) -> None:
        self.m, self.o, self.s, self.c, self.u = m, o, s, c, u
        self.here, self.there = s.i(at(u)), c.i(at(u))
        self.dead, self.dead2 = s.b(flag("dead", u)), c.b(flag("dead", u))
        self.red, self.red2 = s.b(flag("red", u)), c.b(flag("red", u))
        self.wait, self.wait2 = s.b(flag("elite", u)), c.b(flag("elite", u))
        self.trt, self.trt2 = s.b(flag("trt", u)), c.b(flag("trt", u))
        self.about = frozenset({u})

    def rule(
        self, clause: str, text: str, make: Callable[[], B], lazy: bool = False
    ) -> Conjunct[B]:
        return Conjunct(clause, text, make, lazy, self.about)  # about this unit: `Part`

    def entered(self) -> B:
        o = self.o
        return o.all([o.not_(o.eq(self.there, 0)), o.not_(o.eq(self.there, self.here))])

    def on_map(self, x: I) -> B:
        return self.o.not_(self.o.eq(x, 0))

    def movement(self) -> list[Conjunct[B]]:
        """Where the unit may go (SNC-9.4.6, SNC-9.0.12, SNC-9.0.10)."""
        m, o, s, c, u, there = self.m, self.o, self.s, self.c, self.u, self.there
        return [
            self.rule(
                "SNC-9.4.6",
                f"{u} enters only a land hex other than 3513 (SNC-0.0.1)",
                lambda: o.implies(self.entered(), o.le(there, m.hexes.enterable)),
            ),
            self.rule(
                "SNC-9.0.12",
                f"{u} enters no hex an enemy unit still holds: the enemy there has left it, "
                "eliminated or retreated (SNC-6.0.1, SNC-10.5.3.1, SNC-8.4.0.9)",
                lambda: m.when(o, self.entered(), lambda: m.no_enemy_stays(o, s, c, u, there)),
                lazy=True,  # large, and no proof here needs it (refinement checks it)
            ),
            self.rule(
                "SNC-9.0.10",
                f"{u} enters a hex only in a step of its side's units",
                lambda: o.implies(
                    self.entered(),
                    c.b("mover_jp") if m.side[u] == JP else o.not_(c.b("mover_jp")),
                ),
            ),
        ]

    def dead_pile(self) -> list[Conjunct[B]]:
        """The dead pile is off the map and never left (SNC-8.3.3); a static unit stays in its
        hex or goes there (SNC-2.2.1.8, SNC-9.1.1)."""
        o, u, here, there, dead2 = self.o, self.u, self.here, self.there, self.dead2
        out = [
            self.rule(
                "SNC-8.3.3",
                f"{u} never leaves the dead pile, which is off the map",
                lambda: o.implies(self.dead, o.all([dead2, o.eq(there, 0)])),
            ),
            self.rule(
                "SNC-8.3.3",
                f"a unit in the dead pile is off the map ({u})",
                lambda: o.implies(dead2, o.eq(there, 0)),
            ),
        ]
        if u in self.m.static:
            out.append(
                self.rule(
                    "SNC-2.2.1.8",
                    f"static {u} stays in its hex or goes to the dead pile (SNC-9.1.1)",
                    lambda: o.implies(
                        self.on_map(here),
                        o.any([o.eq(there, here), o.all([o.eq(there, 0), dead2])]),
                    ),
                )
            )
        return out

    def steps(self) -> list[Conjunct[B]]:
        """Steps come back only by replacement (SNC-8.3.2, SNC-8.3.4) or, for an elite unit,
        by its return die (SNC-8.1.2, SNC-8.1.3)."""
        m, o, s, c, u = self.m, self.o, self.s, self.c, self.u
        wait, wait2, red2 = self.wait, self.wait2, self.red2
        spent = o.lt(c.i("repl"), s.i("repl")) if m.side[u] == JP else o.lit(False)
        out = [
            self.rule(
                "SNC-8.3.2",
                f"{u} is restored only by elimination or a Japanese replacement step (SNC-8.3.4)",
                lambda: o.implies(
                    o.all([self.red, o.not_(red2)]), o.any([self.dead2, wait2, spent])
                ),
            )
        ]
        if u not in m.elite_units:
            out.append(
                self.rule(
                    "SNC-8.1.2",
                    f"{u} is no Chinese elite unit and never waits for the return die",
                    lambda: o.not_(wait2),
                )
            )
            return out
        out.append(
            self.rule(
                "SNC-8.1.2",
                f"{u} waits for the return die only once eliminated from the map",
                lambda: o.implies(o.all([o.not_(wait), wait2]), self.on_map(self.here)),
            )
        )
        out.append(
            self.rule(
                "SNC-8.1.2",
                f"{u} leaves the wait only for the dead pile or, reduced, a TRT box (SNC-8.1.3)",
                lambda: o.implies(
                    o.all([wait, o.not_(wait2)]), o.any([self.dead2, o.all([self.trt2, red2])])
                ),
            )
        )
        return out

    def stacking(self) -> list[Conjunct[B]]:
        """The stacking checks find the unit's hex within the limits (SNC-6.0.2, SNC-6.0.4)."""
        m, o, s, c, u = self.m, self.o, self.s, self.c, self.u
        return [
            self.rule(
                "SNC-6.0.2",
                f"a stacking check that leaves {u}'s hex out of the culls finds it within the "
                "limits (SNC-6.2.1, SNC-6.2.3)",
                lambda: m.check_rule(o, s, c, u),
                lazy=True,  # large; only SNC-P-STACKING's parts need it
            ),
            self.rule(
                "SNC-6.0.4",
                f"the culls end with {u}'s hex, if it was over-stacked, within the limits",
                lambda: m.cull_rule(o, s, c, u),
                lazy=True,
            ),
        ]

    def arrival(self) -> Conjunct[B]:
        """A unit comes into play only from the elite wait or, a Japanese garrison, from the
        pool (SNC-8.3.3, SNC-9.1.3)."""
        o, u = self.o, self.u
        garrison = (
            o.all([o.not_(self.dead), self.on_map(self.there)])
            if u in self.m.pool
            else o.lit(False)
        )
        return self.rule(
            "SNC-8.3.3",
            f"{u} comes into play only from the elite wait or, a Japanese garrison, from "
            "the pool (SNC-9.1.3)",
            lambda: o.implies(
                o.all(
                    [
                        o.not_(self.on_map(self.here)),
                        o.not_(self.trt),
                        o.any([self.on_map(self.there), self.trt2]),
                    ]
                ),
                o.any([self.wait, garrison]),
            ),
        )
