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
from kernel.spiel_codec import Spec


def _rules() -> Game[Any, Any]:
    from specs.nomonhan.rules.game import Nomonhan

    return Nomonhan()


def _role_of_rules(rules: Any) -> Any:
    """Transitional: the rules object still plays this role itself."""
    return rules


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
    codec=_role_of_rules,
    narration=_role_of_rules,
    position=_role_of_rules,
    data=_role_of_rules,
    picture=_role_of_rules,
    data_dir=Path(__file__).parent / "data",
    formal=_formal,
    evaluation=_evaluation,
    resampler=None,
    spiel=_spiel,
)

__all__ = ["PACKAGE"]
