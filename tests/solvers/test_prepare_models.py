"""`wargame explore` builds each preset's symbolic model before the reading pairs start
(issue 14, item 4: a pair's budget bounds its own work, not what every pair shares)."""

from __future__ import annotations

from typing import Any

import pytest

from kernel.roles import AssembledGame
from solvers.checking import explore, model_search, side_by_side
from solvers.checking.unroll import _TEMPLATES
from tools.registry import get_game
from tools.verify import spec_verification


def _models(name: str) -> tuple[AssembledGame[Any, Any], model_search.ModelSource]:
    """The game and its spec's model source, with no build time noted yet."""
    game = get_game(name)
    spec = spec_verification(game)
    assert spec is not None
    model_search._BUILD_SECONDS.pop(spec.symbolic_model, None)
    return game, spec.symbolic_model


def test_each_presets_model_is_built_once_before_the_pairs() -> None:
    game, models = _models("nomonhan")
    model_search.prepare_models(game, models, list(game.catalogue.presets))
    assert model_search._BUILD_SECONDS[models] > 0  # the estimate the first pair now has
    for name, variant in game.presets().items():
        model = model_search.model_of(models, variant)
        assert model is not None, name
        assert model.system in _TEMPLATES, name  # built: a pair finds it ready


def test_differential_builds_its_presets_model_before_any_pair(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The preset's model is built before the first pair's clock starts (its exhaustive
    search is the first thing a pair does), not within the first pair."""
    game, models = _models("nomonhan")
    events: list[str] = []
    build, exhaustive = model_search._build, side_by_side.exhaustive

    def noted_build(*args: Any) -> None:
        events.append("build")
        build(*args)

    def noted_exhaustive(*args: Any) -> Any:
        events.append("pair")
        return exhaustive(*args)

    monkeypatch.setattr(model_search, "_build", noted_build)
    monkeypatch.setattr(explore, "exhaustive", noted_exhaustive)
    option = next(o for o in game.catalogue.options if o.name == "tie")
    findings = explore.differential(game, option, preset="en", budget=0.0, models=models)
    assert findings and all(f.limit for f in findings)  # every pair stopped by its budget
    assert events[0] == "build" and "pair" in events, events


def test_a_game_whose_model_is_an_abstraction_builds_nothing() -> None:
    """Exploration reads only exact models (`model_of`): an abstraction is not built."""
    game, models = _models("rattenkrieg")
    model_search.prepare_models(game, models, list(game.catalogue.presets))
    assert models not in model_search._BUILD_SECONDS
