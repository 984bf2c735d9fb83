"""Battle of Nomonhan (CMJ postcard game, 2012): EN and JA texts as presets `en` and `ja`.

The game's parts, declared once (`kernel.package.GamePackage`): tools reach them through
`tools.registry`, never by module names.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kernel.game import Game
from kernel.package import Evaluation, GamePackage
from kernel.roles import Codec, DataCheck, Narration, Picture, PositionCheck
from kernel.spiel_codec import Spec


def _rules() -> Game[Any, Any]:
    from specs.nomonhan.game import Nomonhan

    return Nomonhan()


def _codec(rules: Any) -> Codec[Any, Any]:
    from specs.nomonhan.io.codec import NomonhanCodec

    return NomonhanCodec(rules)


def _narration(rules: Any) -> Narration[Any, Any]:
    from specs.nomonhan.io.narration import NomonhanNarration

    return NomonhanNarration(rules)


def _position(rules: Any) -> PositionCheck[Any]:
    from specs.nomonhan.formal.position import NomonhanPositionCheck

    return NomonhanPositionCheck(rules)


def _data(rules: Any) -> DataCheck:
    from specs.nomonhan.formal.facts import NomonhanDataCheck

    return NomonhanDataCheck(rules)


def _picture(rules: Any) -> Picture[Any]:
    from specs.nomonhan.io.picture import NomonhanPicture

    return NomonhanPicture(rules)


def _formal() -> object:
    from specs.nomonhan.formal import verification

    return verification


def _evaluation() -> Evaluation:
    from specs.nomonhan.bots.evaluation import evaluate

    return evaluate


def _spiel(game: Game[Any, Any]) -> Sequence[Spec]:
    from specs.nomonhan.spiel import specs

    return specs(game)


PACKAGE = GamePackage(
    name="nomonhan",
    rules=_rules,
    codec=_codec,
    narration=_narration,
    position=_position,
    data=_data,
    picture=_picture,
    data_dir=Path(__file__).parent / "data",
    formal=_formal,
    evaluation=_evaluation,
    resampler=None,
    spiel=_spiel,
)

__all__ = ["PACKAGE"]
