"""Each game's evaluation (`GamePackage.evaluation`): a value in [-1, 1] from one side's
observation, +1 / -1 once the observation says the game is won / lost, and moved the right way
by what the victory conditions score."""

from __future__ import annotations

import copy
import functools
import random
from collections.abc import Callable, Mapping
from typing import Any

import pytest

from kernel.playout import play
from tools.registry import game_names, get_game, get_package

Evaluate = Callable[[Mapping[str, Any], str], float]


def evaluation(name: str) -> Evaluate:
    declared = get_package(name).evaluation
    assert declared is not None, f"{name} declares no evaluation"
    return declared()


@functools.cache
def observations(name: str, seed: int, every: int = 25) -> tuple[list[dict[str, Any]], Any]:
    """Both sides' observations every `every` steps of a seeded random game (each marked with
    its side as `_side`; shared by the tests, which copy before changing one), and its end."""
    game = get_game(name)
    seen: list[dict[str, Any]] = []
    steps = [0]

    def step(_before: Any, _action: Any, after: Any) -> None:
        steps[0] += 1
        if len(seen) < 80 and steps[0] % every == 0 and game.to_move(after) is not None:
            seen.extend(game.observe(after, side) | {"_side": side} for side in game.sides)

    variant = game.catalogue.variant(None, {})
    final = play(game, game.initial_state(variant), random.Random(seed), on_step=step)
    return seen, final


@pytest.mark.parametrize("name", game_names())
def test_values_are_bounded_and_a_finished_game_scores_its_result(name: str) -> None:
    game = get_game(name)
    evaluate = evaluation(name)
    seen, final = observations(name, 3)
    assert seen
    for obs in seen:
        assert -1.0 <= evaluate(obs, obs["_side"]) <= 1.0
    assert final.stop == "ended" and final.outcome is not None
    for side in game.sides:
        value = evaluate(game.observe(final.final, side), side)
        if final.outcome.winner is None:
            assert value == 0.0
        else:
            assert value == (1.0 if side == final.outcome.winner else -1.0)


def _better(name: str, obs: dict[str, Any], side: str, change: Callable[[Any], None]) -> None:
    """`change` (what the victory conditions reward `side` for) raises `side`'s value."""
    evaluate = evaluation(name)
    after = copy.deepcopy(obs)
    change(after)
    assert evaluate(after, side) > evaluate(obs, side)


def test_nomonhan_points_and_steps() -> None:
    """Victory points (NOM-4.3, NOM-4.5) and the Japanese tanks (NOM-4.2)."""
    game = get_game("nomonhan")
    obs = game.observe(game.initial_state(game.presets()["ja"]), "JP")
    _better("nomonhan", obs, "JP", lambda o: o["points"].update(JP=2))
    _better("nomonhan", obs, "SU", lambda o: o["points"].update(SU=2))

    def tank_lost(o: Any) -> None:
        next(u for u in o["units"] if u["id"] == "JP-3TK")["steps"] = 1

    _better("nomonhan", obs, "SU", tank_lost)
    evaluate = evaluation("nomonhan")
    assert evaluate(obs, "JP") == pytest.approx(-evaluate(obs, "SU"))


def test_rattenkrieg_victory_areas() -> None:
    """The three Areas next to the Soviet Rear decide the game (RKS-4.1.1)."""
    game = get_game("rattenkrieg")
    seen, _ = observations("rattenkrieg", 3)
    obs = next(o for o in seen if o["_side"] == "GE" and o["control"]["city-centre"] == "SU")
    _better("rattenkrieg", obs, "GE", lambda o: o["control"].update({"city-centre": "GE"}))
    _better("rattenkrieg", obs, "SU", lambda o: o["eliminated"].append([o["units"][0]["id"], 1]))
    assert game.sides == ("GE", "SU")


def test_shumshu_star_hexes() -> None:
    """A Russian piece on the 1-star hex is a marginal victory held (SHU-WIN.1)."""
    from kernel.hexes import hex_name
    from specs.shumshu.bots.evaluation import _board

    one_star = hex_name(_board()[0])
    seen, _ = observations("shumshu", 3)
    obs = next(
        o
        for o in seen
        if o["_side"] == "RU"
        and any(u["loc"] == "map" and u["id"].startswith("RU") for u in o["units"])
        and all(u["hex"] != one_star for u in o["units"])
        and one_star not in o["face_down"]
    )

    def on_star(o: Any) -> None:
        unit = next(u for u in o["units"] if u["loc"] == "map" and u["id"].startswith("RU"))
        unit["hex"] = one_star

    _better("shumshu", obs, "RU", on_star)


def test_snc_city_hexes() -> None:
    """Japanese control of the city hexes (SNC-4.3.1)."""
    from specs.snc1937.bots.evaluation import _board

    cities = _board()[0]
    seen, _ = observations("snc1937", 3)
    obs = next(o for o in seen if o["_side"] == "JP" and not cities <= set(o["jp_control"]))
    missing = sorted(cities - set(obs["jp_control"]))[0]
    _better("snc1937", obs, "JP", lambda o: o["jp_control"].append(missing))
