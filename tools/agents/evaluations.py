"""A game's evaluation functions, as its package declares them (`GamePackage.evaluation`): what
the greedy agent, OpenSpiel's MCTS and the information-set MCTS score unfinished positions with.

`evaluate(observation, side)` reads the side's view; `evaluate_state(rules, state, side)`, where
the evaluation's module offers it, reads the same value off the state without building the
observation (each game's tests hold the two equal)."""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Mapping
from typing import Any

from kernel.errors import InvalidInput
from tools.registry import get_package

Evaluate = Callable[[Mapping[str, Any], str], float]
"""`evaluate(observation, side)`: a position's value in [-1, 1] to `side`, from its view."""
EvaluateState = Callable[[Any, Any, str], float]
"""`evaluate_state(rules, state, side)`: the same value read from the state."""


@functools.cache
def declared_evaluation(game_name: str) -> Evaluate | None:
    """The game's `evaluate`, or None where the game (or no registered game) declares one."""
    try:
        declared = get_package(game_name).evaluation
    except InvalidInput:  # not a registered game
        return None
    return None if declared is None else declared()


def required_evaluation(game_name: str) -> Evaluate:
    """The game's `evaluate`; a ValueError where it declares none (an agent that needs one)."""
    found = declared_evaluation(game_name)
    if found is None:
        raise ValueError(f"{game_name} declares no evaluation")
    return found


@functools.cache
def state_evaluation(game_name: str) -> EvaluateState | None:
    """The `evaluate_state` beside the game's `evaluate`, if its module has one."""
    evaluate = declared_evaluation(game_name)
    if evaluate is None:
        return None
    found: EvaluateState | None = getattr(
        importlib.import_module(evaluate.__module__), "evaluate_state", None
    )
    return found
