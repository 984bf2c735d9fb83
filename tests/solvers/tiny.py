"""Tiny hand-written transition systems for the solver tests: a schema from two functions, and
a system from its variables, initial state and schemas."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from solvers.checking.system import Conjunct, Schema, Var
from solvers.checking.terms import B, Frame, I, Ops

Fn = Callable[[Ops[Any, Any], Frame[Any, Any]], Any]


class Rule(Schema):
    """A schema from two functions: when it applies, and the new values it gives."""

    def __init__(
        self, name: str, when: Fn, then: Callable[..., dict[str, Any]], lazy: Fn | None = None
    ) -> None:
        self.name = name
        self.clauses = (f"T-{name}",)
        self.choices: tuple[Var, ...] = ()
        self.when, self.then, self.lazy = when, then, lazy

    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        out = [Conjunct(f"T-{self.name}", "when", lambda: self.when(o, s))]
        if self.lazy is not None:
            lazy = self.lazy
            out.append(Conjunct(f"T-{self.name}-lazy", "lazy", lambda: lazy(o, s), lazy=True))
        return out

    def effect(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        return s.evolve(self.then(o, s))


class Tiny:
    def __init__(
        self,
        name: str,
        variables: tuple[Var, ...],
        init: dict[str, int | bool],
        schemas: tuple[Schema, ...],
    ) -> None:
        self.name = name
        self.variables = variables
        self.schemas = schemas
        self._init = init

    def initial(self) -> dict[str, int | bool]:
        return dict(self._init)
