"""Shanghai-Nanking Campaign 1937 (Strategy & Tactics 329): components and section 13 set-up.

So far this package holds the game's data (`data/`, read by `data.py`), the map lookups over it
(`board.py`) and the text's facts about it (`facts.py`); see DATA.md for what is given and what
is provisional. The playable game is `SNC` (`rules.py`), imported on first use so that the data
modules load without the rules.
"""

from __future__ import annotations

from typing import Any

__all__ = ["SNC"]


def __getattr__(name: str) -> Any:
    if name == "SNC":
        from specs.snc1937.rules import SNC

        return SNC
    raise AttributeError(name)
