"""The bots are stronger than the random agent on Nomonhan (issue 16, item 3): each side
played by the bot in turn, games seeded, the verdict a count of wins."""

from __future__ import annotations

import pytest

from tests.sizes import size
from tools.agents import make_agent
from tools.agents.match import play_match
from tools.registry import get_game

NOMONHAN = get_game("nomonhan")


def wins_against_random(name: str, preset: str, games: int) -> int:
    """Games of `games` the agent `name` wins against random, alternating sides by seed."""
    variant = NOMONHAN.presets()[preset]
    won = 0
    for seed in range(games):
        side = NOMONHAN.sides[seed % 2]
        agents = {
            s: make_agent(name if s == side else "random", NOMONHAN, s) for s in NOMONHAN.sides
        }
        result = play_match(NOMONHAN, variant, agents, seed)
        won += result.winner == side
    return won


def test_greedy_beats_random_in_most_games() -> None:
    games = size(6, 40)
    assert wins_against_random("greedy", "ja", games) > games // 2


@pytest.mark.parametrize("preset", ["ja", "en"])
def test_mcts_beats_random_in_a_majority_of_games(preset: str) -> None:
    games = size(3, 100)
    assert wins_against_random("mcts", preset, games) > games // 2
