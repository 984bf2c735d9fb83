"""The toy game of the tests, in the one package shape every game has (`docs/adding-a-game.md`).

Two sides add 1 or 2 to a shared total, or pass; after each addition a coin (chance) may add
one more. The first total of GOAL or more ends the game, won by the side that added last. The
variant `gapped` plants a gap (the side to move has no action at total 3); `coin_name` changes
nothing (an equivalent pair of readings). The kernel, solver and tool tests run against it.

The toy has no data files: `data_dir` is `tests/toy/data` (the folder of its variants), which
holds no `*.toml`. It has no verification link (`formal=None`: its position check is in
`formal/position.py`, but it declares no properties and no symbolic model), no hidden
information (no resampler), no picture and no OpenSpiel codec. Its rules (`Toy`, `game.py`)
play no other role: the codec, narration, position check and data check are classes of their
own, built from the rules (`tests/toy/doubles.py` has the toy as one object playing every
role, for tests that plant a weakness in one role).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kernel.game import Game
from kernel.package import Evaluation, GamePackage
from kernel.roles import Codec, DataCheck, Narration, PositionCheck


def _rules() -> Game[Any, Any]:
    from tests.toy.game import Toy

    return Toy()


def _codec(rules: Any) -> Codec[Any, Any]:
    from tests.toy.io.codec import ToyCodec

    return ToyCodec(rules)


def _narration(rules: Any) -> Narration[Any, Any]:
    from tests.toy.io.narration import ToyNarration

    return ToyNarration(rules)


def _position(rules: Any) -> PositionCheck[Any]:
    from tests.toy.formal.position import ToyPositionCheck

    return ToyPositionCheck(rules)


def _data(rules: Any) -> DataCheck:
    from tests.toy.formal.facts import ToyDataCheck

    return ToyDataCheck(rules)


def _evaluation() -> Evaluation:
    from tests.toy.bots.evaluation import evaluate

    return evaluate


PACKAGE = GamePackage(
    name="toy",
    rules=_rules,
    codec=_codec,
    narration=_narration,
    position=_position,
    data=_data,
    data_dir=Path(__file__).parent / "data",
    formal=None,
    evaluation=_evaluation,
    resampler=None,
    picture=None,
    spiel=None,
)

__all__ = ["PACKAGE"]
