"""The toy game of the tests, in the one package shape every game has (`docs/adding-a-game.md`).

Two sides add 1 or 2 to a shared total, or pass; after each addition a coin (chance) may add
one more. The first total of GOAL or more ends the game, won by the side that added last. The
variant `gapped` plants a gap (the side to move has no action at total 3); `coin_name` changes
nothing (an equivalent pair of readings). The kernel, solver and tool tests run against it.

The toy has no data files: `data_dir` is `tests/toy/data` (the folder of its variants), which
holds no `*.toml`. It has no verification link (`formal=None`: its position check is in
`formal/position.py`, but it declares no properties and no symbolic model), no hidden
information (no resampler), no picture and no OpenSpiel codec. Its rules object (`Toy`) plays
the codec, narration, position-check and data-check roles itself, delegating to `io/codec.py`
and `formal/position.py`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kernel.game import Game
from kernel.package import Evaluation, GamePackage


def _rules() -> Game[Any, Any]:
    from tests.toy.rules.game import Toy

    return Toy()


def _itself(rules: Any) -> Any:
    """The toy's rules play this role themselves (the tests use `Toy()` as a whole game)."""
    return rules


def _evaluation() -> Evaluation:
    from tests.toy.bots.evaluation import evaluate

    return evaluate


PACKAGE = GamePackage(
    name="toy",
    rules=_rules,
    codec=_itself,
    narration=_itself,
    position=_itself,
    data=_itself,
    data_dir=Path(__file__).parent / "data",
    formal=None,
    evaluation=_evaluation,
    resampler=None,
    picture=None,
    spiel=None,
)

__all__ = ["PACKAGE"]
