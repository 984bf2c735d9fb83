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
from kernel.spiel_codec import Spec


def _rules() -> Game[Any, Any]:
    from specs.shumshu.rules.game import Shumshu

    return Shumshu()


def _role_of_rules(rules: Any) -> Any:
    """Transitional: the rules object still plays this role itself."""
    return rules


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
    codec=_role_of_rules,
    narration=_role_of_rules,
    position=_role_of_rules,
    data=_role_of_rules,
    picture=_role_of_rules,
    data_dir=Path(__file__).parent / "data",
    formal=_formal,
    evaluation=_evaluation,
    resampler=_resampler,
    spiel=_spiel,
)

__all__ = ["PACKAGE"]
