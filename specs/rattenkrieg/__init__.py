"""Rattenkrieg Stalingrad (CMJ postcard game, 2008): an area map, a 52-card deck, hidden steps.

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
    from specs.rattenkrieg.game import Rattenkrieg

    # The rules play none of the roles now (each is built below); `kernel.game.Game` still
    # lists the roles' members until the kernel drops them, so mypy would have them here.
    return Rattenkrieg()


def _codec(rules: Any) -> Codec[Any, Any]:
    from specs.rattenkrieg.io.codec import RattenkriegCodec

    return RattenkriegCodec(rules)


def _narration(rules: Any) -> Narration[Any, Any]:
    from specs.rattenkrieg.io.narration import RattenkriegNarration

    return RattenkriegNarration(rules)


def _position(rules: Any) -> PositionCheck[Any]:
    from specs.rattenkrieg.formal.position import RattenkriegPositionCheck

    return RattenkriegPositionCheck(rules)


def _data(rules: Any) -> DataCheck:
    from specs.rattenkrieg.formal.facts import RattenkriegDataCheck

    return RattenkriegDataCheck(rules)


def _picture(rules: Any) -> Picture[Any]:
    from specs.rattenkrieg.io.picture import RattenkriegPicture

    return RattenkriegPicture(rules)


def _formal() -> object:
    from specs.rattenkrieg.formal import verification

    return verification


def _evaluation() -> Evaluation:
    from specs.rattenkrieg.bots.evaluation import evaluate

    return evaluate


def _resampler() -> Resample:
    from specs.rattenkrieg.bots.resample import resample

    return resample


def _spiel(game: Game[Any, Any]) -> Sequence[Spec]:
    from specs.rattenkrieg.spiel import specs

    return specs(game)


PACKAGE = GamePackage(
    name="rattenkrieg",
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
