"""The greedy agent scores a position from the state where the game's evaluation module offers
`evaluate_state` (Shanghai-Nanking), without building the observation: the same value, so the
same choices. Held by playing the same seeded games with and without it (every action equal),
and a wrong state score is caught (the games part)."""

from __future__ import annotations

from typing import Any

import attrs

from tools.agents.greedy import GreedyAgent, greedy_agent
from tools.agents.match import play_match
from tools.registry import get_game

GAME = get_game("snc1937")
STEPS = 120


def _log(agent: GreedyAgent, seed: int) -> list[Any]:
    """The actions of a greedy-against-greedy game of SNC's standard preset, `STEPS` long."""
    log: list[Any] = []
    play_match(
        GAME,
        GAME.presets()["standard"],
        dict.fromkeys(GAME.sides, agent),
        seed,
        max_steps=STEPS,
        on_step=lambda _s, action, _n: log.append(action),
    )
    return log


def test_snc_greedy_reads_the_state_score_and_chooses_as_from_the_observation() -> None:
    """SNC-6.3.1: the state score equals the observation's, so the games are the same."""
    fast = greedy_agent(GAME)
    assert fast.from_state is not None
    plain = attrs.evolve(fast, from_state=None)
    for seed in range(2):
        assert _log(fast, seed) == _log(plain, seed)


def test_a_wrong_state_score_is_caught() -> None:
    """A state score that is not the observation's (its negation) plays another game."""
    fast = greedy_agent(GAME)
    score = fast.from_state
    assert score is not None
    wrong = attrs.evolve(fast, from_state=lambda rules, s, side: -score(rules, s, side))
    assert any(_log(wrong, seed) != _log(fast, seed) for seed in range(2))
