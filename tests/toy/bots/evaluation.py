"""How good a toy position looks to one side, from its observation alone: the total's share
of GOAL, for the side that added last (the one not to move; it wins when the total reaches
GOAL) and against the other; a finished game is +1 / -1 as its result says."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kernel.evaluation import finished
from tests.toy.rules.state import GOAL


def evaluate(observation: Mapping[str, Any], side: str) -> float:
    """The value of the observed position for `side`, in [-1, 1]."""
    done = finished(observation, side)
    if done is not None:
        return done
    share = min(int(observation["total"]), GOAL) / GOAL
    added_last = observation["side"] != side
    return share if added_last else -share
