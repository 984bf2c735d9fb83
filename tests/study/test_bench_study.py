"""The study benchmark's measurement: counts and rates from one engine run (no timing is
asserted: speeds depend on the machine, the games do not)."""

from __future__ import annotations

from bench.study import GAME, measure
from tests.study.inprocess import InProcess
from tools.agents import make_agent
from tools.agents.match import play_match
from tools.registry import get_game


def test_measure_counts_the_games_it_times() -> None:
    numbers, results = measure(InProcess(), 3)
    assert (numbers["engine"], numbers["workers"], numbers["games"]) == ("in-process", 1, 3)
    assert numbers["playouts_per_s"] > 0 and numbers["worker_cpu_seconds"] > 0
    game = get_game(GAME)
    variant = game.catalogue.variant(None)
    agents = {side: make_agent("random", game, side) for side in game.sides}
    assert results == [play_match(game, variant, agents, seed) for seed in range(3)]
