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

from kernel.package import GamePackage, part, value

PACKAGE = GamePackage(
    name="toy",
    rules=part("tests.toy.game:Toy"),
    codec=part("tests.toy.io.codec:ToyCodec"),
    narration=part("tests.toy.io.narration:ToyNarration"),
    position=part("tests.toy.formal.position:ToyPositionCheck"),
    data=part("tests.toy.formal.facts:ToyDataCheck"),
    data_dir=Path(__file__).parent / "data",
    formal=None,
    evaluation=value("tests.toy.bots.evaluation:evaluate"),
    resampler=None,
    picture=None,
    spiel=None,
)

__all__ = ["PACKAGE"]
