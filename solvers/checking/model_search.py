"""The explorer's search over the symbolic model: each reading's model built once and kept
(`model_of`, `prepare_models`), then Z3's shortest path to a difference, realised as actions of
the rules (`model_search`; the formulas are `solvers.checking.explore_model`'s)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from kernel.errors import WargameError
from kernel.roles import AssembledGame
from kernel.variants import Variant
from solvers import smt
from solvers.checking.bounded_search import BUDGET, proved_invariants
from solvers.checking.differences import Witness
from solvers.checking.explore_model import model_differential
from solvers.checking.refinement import replayed_from
from solvers.checking.side_by_side import along
from solvers.checking.unroll import template
from solvers.checking.verification import SymbolicModel

ModelSource = Callable[[Variant], SymbolicModel | None]
"""A spec's `symbolic_model` (see `solvers.checking.verification`)."""


_MODELS: dict[tuple[ModelSource, Variant], SymbolicModel | None] = {}
_MODELS_KEPT = 4


# The longest a reading's model took to build (its one-step formula), per model source: the
# model search is not started when the budget left to it is shorter (`--budget` only).
_BUILD_SECONDS: dict[ModelSource, float] = {}


def _build(models: ModelSource, model: SymbolicModel) -> None:
    """Build `model`'s one-step formula (once per system), noting how long a build takes."""
    start = time.perf_counter()
    template(model.system)
    took = time.perf_counter() - start
    _BUILD_SECONDS[models] = max(_BUILD_SECONDS.get(models, 0.0), took)


def prepare_models(
    game: AssembledGame[Any, Any], models: ModelSource, presets: Sequence[str]
) -> None:
    """Build the symbolic model of each preset before the reading pairs are explored (each
    pair compares against its preset's own model), so that a pair's budget is not spent on
    work every pair shares, and the first pair under a preset knows, as the others do,
    whether building its other reading's model fits its budget."""
    for name in presets:
        model = model_of(models, game.presets()[name])
        if model is not None:
            _build(models, model)


def model_of(models: ModelSource, variant: Variant) -> SymbolicModel | None:
    """The symbolic model of `variant`, or None when the spec has none for it or only an
    abstraction (`SymbolicModel.exact` False: what differs or is reached over it may not be
    what the rules do, and exploration reads both ways). The last few
    are kept: every reading pair of a preset compares against the preset's own model, whose
    template, frozen variables and proved invariants are then built once, not once a pair."""
    key = (models, variant)
    if key in _MODELS:
        _MODELS[key] = _MODELS.pop(key)  # the most recently used last
        return _MODELS[key]
    try:
        model = models(variant)
    except WargameError:
        model = None
    if model is not None and not model.exact:
        model = None  # an abstraction: its paths and differences need not be the rules'
    _MODELS[key] = model
    while len(_MODELS) > _MODELS_KEPT:
        del _MODELS[next(iter(_MODELS))]
    return model


@attrs.frozen
class ModelOutcome:
    """What the search over the symbolic model settled for a pair."""

    witness: Witness | None
    equivalent: bool
    note: str
    limit: str = ""  # the limit that stopped Z3 ("depth", "rlimit", "budget"), if any
    depth: int = -1  # the depth bounded model checking searched to (-1: it did not run)


def model_search(
    game: AssembledGame[Any, Any],
    models: ModelSource,
    va: Variant,
    vb: Variant,
    budget: float | None,
    depth: int,
    rlimit: int,
) -> ModelOutcome:
    """Z3 over the symbolic model: a reachable model witness realised as actions of the rules
    and checked there, a proof on the model, or a note on why neither."""
    ma, mb = model_of(models, va), model_of(models, vb)
    if ma is None or mb is None:
        return ModelOutcome(None, False, "the symbolic model does not encode this reading")
    built = _BUILD_SECONDS.get(models, 0.0)
    if budget is not None and built > budget:
        note = (
            f"Z3 over the symbolic model was not asked: building a reading's model takes "
            f"{built:.1f} s, more than the {budget:.1f} s of the budget left to it"
        )
        return ModelOutcome(None, False, note, BUDGET)
    deadline = None if budget is None else time.perf_counter() + budget
    for m in (ma, mb):  # each built once per system; not cut short by the budget
        _build(models, m)
        if deadline is not None and time.perf_counter() >= deadline:
            note = (
                f"Z3 over the symbolic model was not asked: building the readings' models "
                f"took the {budget:.1f} s of the budget left to it"
            )
            return ModelOutcome(None, False, note, BUDGET)
    left = None if deadline is None else deadline - time.perf_counter()
    try:
        with smt.wall_clock(deadline):  # the model's checks only, never the rules'
            mv = model_differential(
                ma.system,
                mb.system,
                max_depth=depth,
                budget=left,
                invariants=lambda: proved_invariants(ma.system, ma.formal()),
                rlimit=rlimit,
            )
    except WargameError as exc:  # a solver failure costs this pair its model search only
        return ModelOutcome(None, False, f"Z3 over the symbolic model failed: {exc.message}")
    if mv.verdict == "equivalent":
        return ModelOutcome(None, True, mv.detail, depth=mv.depth)
    if mv.verdict != "differ" or mv.trace is None:
        return ModelOutcome(
            None, False, f"Z3 over the symbolic model: {mv.detail}", mv.limit, mv.depth
        )
    try:
        actions = replayed_from(game, ma, game.initial_state(va), mv.trace)
    except ValueError as exc:
        return ModelOutcome(None, False, f"the model's witness is not realised by the rules: {exc}")
    at = f"; the model's readings part at {mv.at}" if mv.at else ""
    w = along(game, va, vb, actions, f"Z3 over the symbolic model ({mv.detail}{at})")
    if w is None:
        note = (
            f"the model's readings part at {mv.at} after {len(actions)} actions, but the "
            "rules' do not there (a difference in what the projection drops)"
        )
        return ModelOutcome(None, False, note, depth=mv.depth)
    return ModelOutcome(w, False, f"Z3 over the symbolic model, {mv.seconds:.1f} s", depth=mv.depth)
