"""The refinement check: does the symbolic model the prover reasons about describe the Python
rules that run?

On real playouts of a game, in both directions:

(a) every concrete step, projected, is a transition of the model: the schema its action is an
    instance of accepts it (every guard conjunct holds) and leads to the projected next state;
    a failure names the step, the schema and the clause of the conjunct that fails, or the
    variables that differ;
(b) from a concrete position, every transition the model allows leads to the projected result
    of some legal action or chance outcome (within the projection): the model's successors are
    enumerated by the solver, each blocked once found, and compared with the projections of
    `game.apply` over the legal actions.

Without this, a proof would speak of a model, not of the code.
"""

from __future__ import annotations

import collections
import itertools
import math
import random
import time
from collections.abc import Iterator, Sequence
from typing import Any

import attrs

from kernel.chance import sample
from kernel.game import CHANCE
from kernel.playout import play
from kernel.roles import AssembledGame
from solvers import smt
from solvers.checking.system import (
    IntVar,
    Schema,
    Var,
    concrete_frame,
    domain,
    evaluate,
    schema_named,
)
from solvers.checking.terms import Frame
from solvers.checking.verdicts import Trace
from solvers.checking.verification import SymbolicModel

State = dict[str, int | bool]
Key = tuple[tuple[str, int | bool], ...]


def _key(state: State) -> tuple[tuple[str, int | bool], ...]:
    return tuple(sorted(state.items()))


@attrs.frozen
class Mismatch:
    """Where the model and the rules part: the step, the schema, the clauses, what differs."""

    direction: str  # "a": a concrete step is no model transition; "b": a model step no action
    where: str
    schema: str
    clauses: tuple[str, ...]
    detail: str

    def __str__(self) -> str:
        cited = ", ".join(self.clauses)
        return f"({self.direction}) {self.where}: schema {self.schema} [{cited}]: {self.detail}"


def check_step(
    model: SymbolicModel, before: Any, action: Any, after: Any, where: str
) -> Mismatch | None:
    """Direction (a) for one concrete step, by evaluating the model on the projected states."""
    system = model.system
    name, choice = model.schema_of(before, action)
    schema = schema_named(system, name)
    ev = evaluate(system, model.project(before), schema, choice)
    if ev.failed:
        clauses = tuple(dict.fromkeys(g.clause for g in ev.failed))
        texts = "; ".join(f"{g.text} ({g.clause})" for g in ev.failed)
        return Mismatch("a", where, name, clauses, f"the guard fails: {texts}")
    projected = model.project(after)
    diff = sorted(k for k in projected if projected[k] != ev.after[k])
    if diff:
        shown = ", ".join(f"{k}: model {ev.after[k]}, rules {projected[k]}" for k in diff[:8])
        cited = tuple(dict.fromkeys(c for k in diff for c in model.clauses_of(k)))
        return Mismatch(
            "a", where, name, cited or schema.clauses, f"the next state differs: {shown}"
        )
    return None


class Successors:
    """Direction (b): the model's successors of a concrete position, schema by schema.

    The model is built with Z3 operations over the concrete state and symbolic choices, so
    everything the state decides folds to constants and only the choices stay open; the
    solver then enumerates the distinct next states, blocking each one found."""

    def __init__(self, model: SymbolicModel, rlimit: int = 20_000_000) -> None:
        self.model = model
        self.rlimit = rlimit
        system = model.system
        self._choices = {sc.name: _choice_frame(sc.choices) for sc in system.schemas}

    def of(self, state: State) -> dict[Key, tuple[str, dict[str, int | bool]]]:
        """Each successor state (as a sorted key) with one schema and choices leading to it."""
        out: dict[Key, tuple[str, dict[str, int | bool]]] = {}
        for sc in self.model.system.schemas:
            fixed, open_vars = _split(sc.choices)
            for values in itertools.product(*(_values(v) for v in fixed)):
                given = dict(zip((v.name for v in fixed), values, strict=True))
                self._enumerate(sc, state, given, open_vars, out)
        return out

    def _enumerate(
        self,
        sc: Schema,
        state: State,
        given: dict[str, int | bool],
        open_vars: Sequence[Var],
        out: dict[Key, tuple[str, dict[str, int | bool]]],
    ) -> None:
        o = smt.Z3
        s = concrete_frame(self.model.system.variables, state)
        c = self._choices[sc.name]
        c = Frame(
            {n: given.get(n, t) for n, t in c.ints.items()},
            {n: given.get(n, t) for n, t in c.bools.items()},
        )
        guard = o.all(g.make() for g in sc.guard(o, s, c))
        if guard is False:
            return
        after = sc.effect(o, s, c).values()
        solver = smt.Solver(finite_domain=False, rlimit=self.rlimit)
        solver.add(smt.formula(guard))
        for d in domain(open_vars, c):
            solver.add(d)
        while solver.check():
            model = solver.model()
            nxt = {n: smt.value_of(model, t) for n, t in after.items()}
            choice = {v.name: smt.value_of(model, c.values()[v.name]) for v in sc.choices}
            out.setdefault(_key(nxt), (sc.name, choice))
            open_terms = [t != nxt[n] for n, t in after.items() if not isinstance(t, bool | int)]
            if not open_terms:
                return
            solver.add(smt.formula(o.any(open_terms)))


SMALL = 64  # choices whose domains multiply to at most this are tried one value at a time


def _values(v: Var) -> list[int | bool]:
    if isinstance(v, IntVar):
        assert v.hi is not None
        return list(range(v.lo, v.hi + 1))
    return [False, True]


def _split(choices: Sequence[Var]) -> tuple[list[Var], list[Var]]:
    """Small choices are fixed in turn (so the model folds to constants); large ones stay open
    for the solver. Without a small enough product, all stay open."""
    small = [v for v in choices if len(_values(v)) <= SMALL]
    if math.prod(len(_values(v)) for v in small) > SMALL:
        return [], list(choices)
    return small, [v for v in choices if v not in small]


def _choice_frame(choices: Sequence[Var]) -> Frame[Any, Any]:
    ints = {v.name: smt.fresh_int(f"{v.name}?") for v in choices if isinstance(v, IntVar)}
    bools = {v.name: smt.fresh_bool(f"{v.name}?") for v in choices if not isinstance(v, IntVar)}
    return Frame(ints, bools)


def check_position(
    game: AssembledGame[Any, Any], model: SymbolicModel, succ: Successors, state: Any, where: str
) -> tuple[list[Mismatch], int]:
    """Direction (b) at one position (and (a) for all its actions): the model's successors
    against the projected results of every legal action or chance outcome."""
    side = game.to_move(state)
    if side == CHANCE:
        actions = [a for a, _ in game.chance_outcomes(state)]
    elif side is None:
        actions = []
    else:
        actions = list(game.legal_actions(state))
    concrete: dict[tuple[tuple[str, int | bool], ...], Any] = {}
    problems = []
    for a in actions:
        after = game.apply(state, a)
        concrete.setdefault(_key(model.project(after)), a)
        m = check_step(model, state, a, after, f"{where}, action {game.action_to_json(a)}")
        if m is not None:
            problems.append(m)
    modelled = succ.of(model.project(state))
    for key, (name, choice) in modelled.items():
        if key not in concrete:
            schema = schema_named(model.system, name)
            shown = ", ".join(f"{k}={v}" for k, v in sorted(choice.items()) if v)
            detail = (
                f"the model allows this step ({shown or 'no choice'}) but no legal action "
                "leads to its result"
            )
            problems.append(Mismatch("b", where, name, schema.clauses, detail))
    for key, a in concrete.items():
        if key not in modelled:
            detail = f"action {game.action_to_json(a)} leads where no model step does"
            problems.append(Mismatch("b", where, "?", (), detail))
    return problems, len(modelled)


@attrs.frozen
class Report:
    """What a refinement run covered and found."""

    preset: str
    games: int
    steps: int
    positions: int  # positions whose successors were compared in direction (b)
    successors: int
    seconds: float
    mismatches: tuple[Mismatch, ...]
    schemas: tuple[tuple[str, int], ...] = ()  # steps checked in direction (a), by schema

    @property
    def ok(self) -> bool:
        return not self.mismatches


MAX_STEPS = 3_000
"""A refinement run's steps per game at most, by default."""


def run(
    game: AssembledGame[Any, Any],
    model: SymbolicModel,
    preset: str,
    *,
    games: int,
    every: int = 0,
    seed: int = 0,
    max_steps: int = MAX_STEPS,
    stop_after: int = 5,
) -> Report:
    """Seeded random playouts of `preset`: (a) on every step; (b) on every `every`-th position
    (0: never). Stops early after `stop_after` mismatches."""
    start = time.perf_counter()
    r = _Run(game, model, preset, every, stop_after)
    for g in range(games):
        try:
            r.play(seed + g, max_steps)
        except _Stop:
            break
    seconds = time.perf_counter() - start
    by_schema = tuple(sorted(r.by_schema.items()))
    return Report(
        preset, games, r.steps, r.positions, r.successors, seconds, tuple(r.problems), by_schema
    )


class _Run:
    """The counters and findings of one refinement run."""

    def __init__(
        self,
        game: AssembledGame[Any, Any],
        model: SymbolicModel,
        preset: str,
        every: int,
        stop_after: int,
    ) -> None:
        self.game, self.model, self.preset = game, model, preset
        self.every, self.stop_after = every, stop_after
        self.succ = Successors(model) if every else None
        self.problems: list[Mismatch] = []
        self.steps = self.positions = self.successors = 0
        self.by_schema: collections.Counter[str] = collections.Counter()
        self._game_seed = self._n = 0

    def play(self, seed: int, max_steps: int) -> None:
        self._game_seed, self._n = seed, 0
        variant = self.game.presets()[self.preset]
        start = self.game.initial_state(variant)
        play(self.game, start, random.Random(seed), on_step=self.step, max_steps=max_steps)

    def step(self, before: Any, action: Any, after: Any) -> None:
        self._n += 1
        self.steps += 1
        where = f"{self.preset} game {self._game_seed} step {self._n}"
        if self.succ is not None and self._n % self.every == 0:
            found, count = check_position(self.game, self.model, self.succ, before, where)
            self.problems.extend(found)
            self.positions += 1
            self.successors += count
        what = f"{where}, action {self.game.action_to_json(action)}"
        self.by_schema[self.model.schema_of(before, action)[0]] += 1
        m = check_step(self.model, before, action, after, what)
        if m is not None:
            self.problems.append(m)
        if len(self.problems) >= self.stop_after:
            raise _Stop


class _Stop(Exception):
    pass


def playout_paths(
    game: AssembledGame[Any, Any],
    model: SymbolicModel,
    preset: str,
    *,
    games: int,
    seed: int = 0,
    max_steps: int = 1000,
) -> Iterator[Trace]:
    """Model paths from seeded random playouts (projected states, schema and choices per step),
    for the prover to search for a witness the bounded search did not reach."""
    variant = game.presets()[preset]
    for g in range(games):
        rng = random.Random(seed + g)
        state = game.initial_state(variant)
        states: list[State] = [model.project(state)]
        steps: list[tuple[str, dict[str, int | bool]]] = []
        for _ in range(max_steps):
            side = game.to_move(state)
            if side is None:
                break
            if side == CHANCE:
                action = sample(game.chance_outcomes(state), rng)
            else:
                legal = list(game.legal_actions(state))
                if not legal:
                    break
                action = rng.choice(legal)
            steps.append(model.schema_of(state, action))
            state = game.apply(state, action)
            states.append(model.project(state))
        yield Trace(tuple(states), tuple(steps))


def replayed(
    game: AssembledGame[Any, Any], model: SymbolicModel, preset: str, trace: Trace
) -> list[Any]:
    """Concrete actions realising a model path from the initial position (see
    `replayed_from`)."""
    state = game.initial_state(game.presets()[preset])
    if model.project(state) != trace.states[0]:
        raise ValueError("the path does not start at the initial position")
    return replayed_from(game, model, state, trace)


def replayed_from(
    game: AssembledGame[Any, Any], model: SymbolicModel, state: Any, trace: Trace
) -> list[Any]:
    """Concrete actions realising a model path from `state`: at each step the first legal
    action or chance outcome whose projected result is the path's next state. Raises
    ValueError naming the step when none is (a refinement failure)."""
    actions = []
    for i, target in enumerate(trace.states[1:]):
        side = game.to_move(state)
        if side == CHANCE:
            options: Sequence[Any] = [a for a, _ in game.chance_outcomes(state)]
        else:
            options = list(game.legal_actions(state)) if side is not None else []
        for a in options:
            after = game.apply(state, a)
            if model.project(after) == target:
                actions.append(a)
                state = after
                break
        else:
            name = trace.steps[i][0]
            raise ValueError(f"step {i + 1} ({name}): no legal action leads to the path's state")
    return actions
