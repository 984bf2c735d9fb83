"""Shanghai-Nanking Campaign 1937 (Strategy & Tactics 329): presets `standard` and `printed`.

The game's parts, declared once (`kernel.package.GamePackage`): tools reach them through
`tools.registry`, never by module names.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kernel.game import Game
from kernel.package import Evaluation, GamePackage, Resample
from kernel.roles import Codec, DataCheck, Narration, Picture, PositionCheck
from kernel.spiel_codec import Spec


def _rules() -> Game[Any, Any]:
    from specs.snc1937.game import SNC

    # The rules play none of the roles now (each is built below); `kernel.game.Game` still
    # lists the roles' members until the kernel drops them, so mypy would have them here.
    return SNC()


def _codec(rules: Any) -> Codec[Any, Any]:
    from specs.snc1937.io.codec import SNCCodec

    return SNCCodec(rules)


def _narration(rules: Any) -> Narration[Any, Any]:
    from specs.snc1937.io.narration import SNCNarration

    return SNCNarration(rules)


def _position(rules: Any) -> PositionCheck[Any]:
    from specs.snc1937.formal.position import SNCPositionCheck

    return SNCPositionCheck(rules)


def _data(rules: Any) -> DataCheck:
    from specs.snc1937.formal.facts import SNCDataCheck

    return SNCDataCheck(rules)


def _picture(rules: Any) -> Picture[Any]:
    from specs.snc1937.io.picture import SNCPicture

    return SNCPicture(rules)


def _formal() -> object:
    from specs.snc1937.formal import verification

    return verification


def _evaluation() -> Evaluation:
    from specs.snc1937.bots.evaluation import evaluate

    return evaluate


def _resampler() -> Resample:
    from specs.snc1937.bots.resample import resample

    return resample


def _spiel(game: Game[Any, Any]) -> Sequence[Spec]:
    from specs.snc1937.spiel import specs

    return specs(game)


PACKAGE = GamePackage(
    name="snc1937",
    rules=_rules,
    codec=_codec,
    narration=_narration,
    position=_position,
    data=_data,
    picture=_picture,
    data_dir=Path(__file__).parent / "data",
    formal=_formal,
    evaluation=_evaluation,
    resampler=_resampler,
    spiel=_spiel,
)

__all__ = ["PACKAGE"]
