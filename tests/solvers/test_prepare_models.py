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


def test_a_game_whose_model_is_an_abstraction_builds_nothing() -> None:
    """Exploration reads only exact models (`model_of`): an abstraction is not built."""
    game = get_game("rattenkrieg")
    spec = spec_verification(game)
    assert spec is not None
    models = spec.symbolic_model
    explore._BUILD_SECONDS.pop(models, None)
    explore.prepare_models(game, models, list(game.catalogue.presets))
    assert models not in explore._BUILD_SECONDS
