"""The link of an abstract symbolic model to its game's rules: what SNC's and Rattenkrieg's
abstractions share (`solvers.checking.verification.SymbolicModel` with `exact` False).

Such a model has one step schema, `step`, whose choices are the projection of the step's
result: any concrete step, projected, must satisfy the step rules (refinement direction (a)).
A link keeps the last few projections and applied steps, since a refinement run asks for each
position and step several times; `known_step` hands it a step taken elsewhere (a test's
hand-made step, say), so `schema_of` reads that result instead of applying the action."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Generic, TypeVar

from kernel.game import Game
from solvers.checking.prover import Formal
from solvers.checking.system import BoolVar, IntVar, Schema, System, Var
from solvers.checking.terms import B, Frame, I

S = TypeVar("S")
KEPT = 4  # projections and steps remembered


class AbstractLink(Generic[S]):
    """The shared part of an abstract model's link: the spec's subclass sets `system` (whose
    initial state is `project` of the set-up), and provides `_project` and, where a step's
    choices hold more than the next state, `_extra_choices`."""

    exact = False  # an over-approximation: refinement direction (a) only
    next_prefix = "next."  # the choice variables: the next state's, by this prefix

    def __init__(
        self,
        game: Game[S, Any],
        clauses: Mapping[str, tuple[str, ...]],
        formal_of: Callable[[], dict[str, Formal]],
    ) -> None:
        self.game = game
        self._clauses = clauses
        self._formal_of = formal_of
        self._formal: dict[str, Formal] | None = None
        self._projected: list[tuple[S, dict[str, int | bool]]] = []
        self._applied: list[tuple[S, Any, S]] = []
        self.system: System

    def formal(self) -> Mapping[str, Formal]:
        """Each proved property's formal statement, built on first use."""
        if self._formal is None:
            self._formal = self._formal_of()
        return self._formal

    def clauses_of(self, variable: str) -> tuple[str, ...]:
        """The clauses of the step rules about `variable` (`unit.x` looks up `unit`)."""
        return self._clauses.get(variable.partition(".")[0], ())

    def project(self, state: S) -> dict[str, int | bool]:
        """The model's view of `state`."""
        for seen, values in self._projected:
            if seen is state:
                return dict(values)
        values = self._project(state)
        self._projected = [(state, values), *self._projected[: KEPT - 1]]
        return dict(values)

    def known_step(self, before: S, action: Any, after: S) -> None:
        """Take `after` as the result of `action` in `before` (for `schema_of`)."""
        self._applied = [(before, action, after), *self._applied[: KEPT - 1]]

    def schema_of(self, state: S, action: Any) -> tuple[str, dict[str, int | bool]]:
        """The one schema, `step`; its choices are the projection of the step's result, with
        the spec's extra choices."""
        after = self._apply(state, action)
        choices: dict[str, int | bool] = {
            self.next_prefix + k: v for k, v in self.project(after).items()
        }
        choices.update(self._extra_choices(state, after))
        return "step", choices

    def _apply(self, state: S, action: Any) -> S:
        for seen, a, after in self._applied:
            if seen is state and a == action:
                return after
        after = self.game.apply(state, action)
        self.known_step(state, action, after)
        return after

    def _project(self, state: S) -> dict[str, int | bool]:
        raise NotImplementedError

    def _extra_choices(self, before: S, after: S) -> dict[str, int | bool]:
        return {}


class AbstractModel:
    """The system of an abstraction (`solvers.checking.system.System`): its variables, one step
    schema
    whose choices are the next state (each variable by `next_prefix` and its name, plus the
    spec's `extra_bools`), and the projected set-up as its initial state (`start`, which the
    link sets)."""

    next_prefix = "next."
    extra_bools: tuple[str, ...] = ()  # choices beyond the next state (SNC: the mover's side)

    def __init__(self) -> None:
        self.variables: tuple[Var, ...] = ()
        self.schemas: tuple[Schema, ...] = ()
        self.start: dict[str, int | bool] = {}

    def initial(self) -> dict[str, int | bool]:
        return dict(self.start)

    def next_of(self, c: Frame[B, I]) -> Frame[B, I]:
        """The next state the step's choices give, by state variable name (and the extras)."""
        p = self.next_prefix
        ints = {v.name: c.i(p + v.name) for v in self.variables if isinstance(v, IntVar)}
        bools = {v.name: c.b(p + v.name) for v in self.variables if isinstance(v, BoolVar)}
        bools.update({name: c.b(name) for name in self.extra_bools})
        return Frame(ints, bools)
