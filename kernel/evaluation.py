"""What every game's declared evaluation (`specs/<game>/bots/evaluation.py`) shares.

A spec's `evaluate(observation, side) -> float` scores one side's observation in [-1, 1] for
the bots (`tools.agents`): it reads the observation only, never the state, so an agent that
uses it learns nothing its side may not know.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def finished(observation: Mapping[str, Any], side: str) -> float | None:
    """+1 / -1 / 0 for a game the observation says is over (won, lost, drawn), else None."""
    result = observation.get("result")
    if not isinstance(result, Mapping):
        return None
    winner = result.get("winner")
    return 0.0 if winner is None else (1.0 if winner == side else -1.0)
