"""Postcard Shumshu, August 1945 (L. R. Coatney, rules draft of 14 June 2025): preset `draft`.

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
    from specs.shumshu.game import Shumshu

    # The rules play none of the roles now (each is built below); `kernel.game.Game` still
    # lists the roles' members until the kernel drops them, so mypy would have them here.
    return Shumshu()


def _codec(rules: Any) -> Codec[Any, Any]:
    from specs.shumshu.io.codec import ShumshuCodec

    return ShumshuCodec(rules)


def _narration(rules: Any) -> Narration[Any, Any]:
    from specs.shumshu.io.narration import ShumshuNarration

    return ShumshuNarration(rules)


def _position(rules: Any) -> PositionCheck[Any]:
    from specs.shumshu.formal.position import ShumshuPositionCheck

    return ShumshuPositionCheck(rules)


def _data(rules: Any) -> DataCheck:
    from specs.shumshu.formal.facts import ShumshuDataCheck

    return ShumshuDataCheck(rules)


def _picture(rules: Any) -> Picture[Any]:
    from specs.shumshu.io.picture import ShumshuPicture

    return ShumshuPicture(rules)


def _formal() -> object:
    from specs.shumshu.formal import verification

    return verification


def _evaluation() -> Evaluation:
    from specs.shumshu.bots.evaluation import evaluate

    return evaluate


def _resampler() -> Resample:
    from specs.shumshu.bots.resample import resample

    return resample


def _spiel(game: Game[Any, Any]) -> Sequence[Spec]:
    from specs.shumshu.spiel import specs

    return specs(game)


PACKAGE = GamePackage(
    name="shumshu",
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
