"""A model with ghost variables: state the rules keep but no guard or effect of the model reads
(whether a hidden piece is face up, say), added so that an observation can be written over
the model.

A ghost never changes what a step may do or where the model's own variables go: every schema
keeps its guard and its effect, and the ghosts' next values are a function of the step (the
state before, the choices and the model's state after). Where the rules' value is not such a
function (it depends on something the model computes inside a step and does not keep), a
ghost choice leaves it open between the values the rules may give: more transitions, never
fewer. So whatever was proved of the model holds of the extended one, and the extended one is
held to the rules by checking the ghosts against the projected concrete state on playouts,
like any variable.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from solvers.checking.system import BoolVar, Conjunct, Schema, System, Var
from solvers.checking.terms import B, Frame, I, Ops


class Ghosts(Protocol):
    """The ghost variables, their initial values and how a step changes them."""

    variables: tuple[Var, ...]
    choices: tuple[Var, ...]  # where the rules' value is not a function of the model's step

    def initial(self) -> dict[str, int | bool]: ...

    def update(
        self,
        o: Ops[Any, Any],
        schema: Schema,
        s: Frame[Any, Any],
        c: Frame[Any, Any],
        after: Frame[Any, Any],
    ) -> Mapping[str, Any]:
        """The ghosts' next values by name (the term in `s` for one that stays)."""
        ...


class _GhostSchema(Schema):
    def __init__(self, inner: Schema, ghosts: Ghosts) -> None:
        self.inner, self.ghosts = inner, ghosts
        self.name, self.clauses = inner.name, inner.clauses
        self.choices = (*inner.choices, *ghosts.choices)

    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        return self.inner.guard(o, s, c)

    def effect(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        after = self.inner.effect(o, s, c)
        new = self.ghosts.update(o, self.inner, s, c, after)
        kinds = {v.name: isinstance(v, BoolVar) for v in self.ghosts.variables}
        bools = {n: v for n, v in new.items() if kinds[n]}
        ints = {n: v for n, v in new.items() if not kinds[n]}
        return after.evolve(ints, bools, keep_memo=True)


class WithGhosts:
    """`system` with `ghosts` (a `System`)."""

    def __init__(self, system: System, ghosts: Ghosts) -> None:
        self.base, self.ghosts = system, ghosts
        self.name = f"{system.name}+ghosts"
        self.variables: tuple[Var, ...] = (*system.variables, *ghosts.variables)
        self.schemas: tuple[Schema, ...] = tuple(_GhostSchema(sc, ghosts) for sc in system.schemas)

    def initial(self) -> dict[str, int | bool]:
        return {**self.base.initial(), **self.ghosts.initial()}
