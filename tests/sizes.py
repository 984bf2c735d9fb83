"""How large the long checks run. `make test` runs them quick, sized so the suite stays within
its time on a busy two-core laptop; `make bench` runs the whole suite again at full size
(`WARGAME_FULL=1`). The verdict of either depends only on the size, never on the clock."""

from __future__ import annotations

import os
from typing import TypeVar

T = TypeVar("T")

FULL = os.environ.get("WARGAME_FULL") == "1"


def size(quick: int, full: int) -> int:
    """`full` under WARGAME_FULL=1, else `quick`."""
    return full if FULL else quick


def cases(quick: list[T], extra: list[T]) -> list[T]:
    """Parametrised cases: `quick` always, `extra` too at full size."""
    return [*quick, *extra] if FULL else quick
