"""The base of Nomonhan's action schemas: a conjunct citing its clause (`need`), and what every
schema shares (the chosen unit, the stage it needs, a unit's relocation, the frame after a
combat)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from solvers.checking.system import Conjunct, Schema, Var
from solvers.checking.terms import B, Frame, I, Ops
from specs.nomonhan.formal.symbolic import STAGE_NAMES
from specs.nomonhan.formal.symbolic_play import Model


def need(clause: str, text: str, make: Callable[[], B], lazy: bool = False) -> Conjunct[B]:
    return Conjunct(clause, text, make, lazy)


class NomonhanSchema(Schema):
    def __init__(self, m: Model, name: str, clauses: tuple[str, ...], *choices: Var) -> None:
        self.m = m
        self.name = name
        self.clauses = clauses
        self.choices = choices

    def unit(
        self, o: Ops[B, I], c: Frame[B, I], f: Callable[[int], B], units: Iterable[int] = ()
    ) -> B:
        """`f` of the unit chosen by the choice `unit` (among `units`, default all)."""
        return o.case(c.i("unit"), f, tuple(units) or self.m.t.units)

    def stage(self, o: Ops[B, I], s: Frame[B, I], stage: int, clause: str) -> Conjunct[B]:
        text = f"the game is at the {STAGE_NAMES[stage]} stage"
        return need(clause, text, lambda: o.eq(s.i("stage"), stage))

    def relocate(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> dict[str, I]:
        """The chosen unit moves to the chosen hex `to`."""
        m, to, unit = self.m, c.i("to"), c.i("unit")
        return {m.pos[v]: o.ite(o.eq(unit, v), to, s.i(m.pos[v])) for v in m.t.units}

    def then_after_combat(self, o: Ops[B, I], s: Frame[B, I]) -> Frame[B, I]:
        m = self.m
        return m.after_combat(o, m.cleared(o, s, pending=False, current=True), m.budget)
