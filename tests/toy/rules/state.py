"""The toy's position, and the goal that ends play."""

from __future__ import annotations

import attrs

from kernel.game import Outcome
from kernel.variants import Variant

GOAL = 6
"""The first total of GOAL or more ends the game (TOY-GOAL)."""
MAX_TOTAL = GOAL + 2
"""The largest total play reaches: GOAL - 1, plus 2, plus the coin's 1."""


@attrs.frozen
class ToyState:
    variant: Variant
    total: int
    side: str
    coin: bool = False
    result: Outcome | None = None
