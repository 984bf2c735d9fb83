"""The base of Shumshu's symbolic action schemas: `ActionSchema` (a guard of conjuncts
citing their clauses, an effect settled as every action is), `Done` for a step left by its
`Done` action, the names of the choice variables and their ranges.

Apart so that the schemas of the turn (`symbolic_landing_actions`, `symbolic_actions`) and
of one combat (`symbolic_combat_actions`) share one base without importing one another.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from solvers.checking.system import Conjunct, IntVar, Schema, Var
from solvers.checking.terms import B, Frame, I, Ops
from specs.shumshu.formal.symbolic import STAGES
from specs.shumshu.formal.symbolic_play import Model


def need(clause: str, text: str, make: Callable[[], B], lazy: bool = False) -> Conjunct[B]:
    return Conjunct(clause, text, make, lazy)


UNIT, HEX, FACE, SUNK, YES = "c_unit", "c_hex", "c_face", "c_sunk", "c_yes"


PRESS, AIRC, BANZAI = "c_press", "c_air", "c_banzai"


class ActionSchema(Schema):
    """One kind of action of the Python rules over the model `m`: its guard is a list of
    conjuncts citing their clauses, its effect the next frame, settled."""

    def __init__(self, m: Model, name: str, clauses: tuple[str, ...], *choices: Var) -> None:
        self.m = m
        self.name = name
        self.clauses = clauses
        self.choices = choices

    def unit(
        self, o: Ops[B, I], c: Frame[B, I], f: Callable[[int], B], units: Iterable[int] = ()
    ) -> B:
        """`f` of the unit chosen (among `units`, by default all)."""
        return o.case(c.i(UNIT), f, tuple(units) or self.m.t.units)

    def chosen(self, o: Ops[B, I], c: Frame[B, I], u: int) -> B:
        return o.eq(c.i(UNIT), u)

    def stage(self, o: Ops[B, I], s: Frame[B, I], stage: int, clause: str) -> Conjunct[B]:
        text = f"the game is at the {STAGES[stage].value} step"
        return need(clause, text, lambda: o.eq(s.i("stage"), stage))

    def effect(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        return self.m.settle(o, self.step(o, s, c))

    def step(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        raise NotImplementedError

    def place(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I], to: I) -> dict[str, I]:
        """The chosen unit goes to hex `to`."""
        m = self.m
        return {m.at[u]: o.ite(self.chosen(o, c, u), to, s.i(m.at[u])) for u in m.t.units}


def unit_var(m: Model) -> IntVar:
    return IntVar(UNIT, 0, m.t.N - 1)


def hex_var(m: Model) -> IntVar:
    return IntVar(HEX, 1, m.t.H)


class Done(ActionSchema):
    """`Done` at one step: ends forming, the sea movement, a replacement, a reinforcement or
    the advance, going where `sequence` goes."""

    def __init__(
        self,
        m: Model,
        name: str,
        clauses: tuple[str, ...],
        at: int,
        then: Callable[[Ops[Any, Any], Frame[Any, Any]], Frame[Any, Any]],
        extra: Callable[[Ops[Any, Any], Frame[Any, Any]], Any] | None = None,
        text: str = "",
    ) -> None:
        super().__init__(m, name, clauses)
        self.at = at
        self.then = then
        self.extra = extra
        self.text = text

    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        out = [self.stage(o, s, self.at, self.clauses[0])]
        extra = self.extra
        if extra is not None:
            out.append(need(self.clauses[0], self.text, lambda: extra(o, s)))
        return out

    def step(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        return self.then(o, s)
