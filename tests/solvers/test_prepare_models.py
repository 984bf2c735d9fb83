"""`wargame explore` builds each preset's symbolic model before the reading pairs start
(issue 14, item 4: a pair's budget bounds its own work, not what every pair shares)."""

from __future__ import annotations

from solvers import explore
from solvers.unroll import _TEMPLATES
from tools.registry import get_game
from tools.verify import spec_verification


def test_each_presets_model_is_built_once_before_the_pairs() -> None:
    game = get_game("nomonhan")
    spec = spec_verification(game)
    assert spec is not None
    models = spec.symbolic_model
    explore._BUILD_SECONDS.pop(models, None)
    explore.prepare_models(game, models, list(game.catalogue.presets))
    assert explore._BUILD_SECONDS[models] > 0  # the estimate the first pair now has
    for name, variant in game.presets().items():
        model = explore.model_of(models, variant)
        assert model is not None, name
        assert model.system in _TEMPLATES, name  # built: a pair finds it ready


def test_differential_builds_its_presets_model_before_any_pair() -> None:
    """With no budget left to any pair, the preset's model is built all the same: before the
    pairs' clocks start, not by the first pair."""
    game = get_game("nomonhan")
    spec = spec_verification(game)
    assert spec is not None
    models = spec.symbolic_model
    explore._BUILD_SECONDS.pop(models, None)
    option = next(o for o in game.catalogue.options if o.name == "tie")
    findings = explore.differential(game, option, preset="en", budget=0.0, models=models)
    assert findings and all(f.limit for f in findings)  # every pair stopped by its budget
    model = explore.model_of(models, game.presets()["en"])
    assert model is not None and model.system in _TEMPLATES
    assert explore._BUILD_SECONDS[models] > 0


def test_a_game_whose_model_is_an_abstraction_builds_nothing() -> None:
    """Exploration reads only exact models (`model_of`): an abstraction is not built."""
    game = get_game("rattenkrieg")
    spec = spec_verification(game)
    assert spec is not None
    models = spec.symbolic_model
    explore._BUILD_SECONDS.pop(models, None)
    explore.prepare_models(game, models, list(game.catalogue.presets))
    assert models not in explore._BUILD_SECONDS
