"""The agent registry, what agents are given (a seat, never the state), and that a seeded game
between bots replays exactly."""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest

from kernel.errors import InvalidInput
from kernel.playout import decision_positions
from specs.nomonhan.rules.state import Stage
from tools.agents import AGENT_NAMES, make_agent
from tools.agents.base import RandomAgent, Seat
from tools.agents.greedy import GreedyAgent
from tools.agents.match import play_match, sampler_for, seat
from tools.agents.mcts import SpielMCTSAgent
from tools.registry import get_game

NOMONHAN = get_game("nomonhan")


def spiel_codec() -> Any:
    from tools import spiel

    return next(s.codec for s in spiel.specs() if s.game.name == "nomonhan")


def test_registry_names_and_kinds() -> None:
    assert AGENT_NAMES == ("random", "greedy", "mcts")
    assert isinstance(make_agent("random", NOMONHAN, "JP"), RandomAgent)
    assert isinstance(make_agent("greedy", NOMONHAN, "SU"), GreedyAgent)
    mcts = make_agent("mcts", NOMONHAN, "JP", simulations=7)
    assert isinstance(mcts, SpielMCTSAgent) and mcts.simulations == 7
    assert {make_agent(n, NOMONHAN, "JP").name for n in AGENT_NAMES} == set(AGENT_NAMES)


def test_hidden_game_mcts_is_not_the_perfect_information_bot() -> None:
    """A hidden-information game gets the information-set agent, never OpenSpiel's MCTS on
    the full state."""
    game = get_game("rattenkrieg")
    agent = make_agent("mcts", game, "GE", simulations=3)
    assert agent.name == "mcts"
    assert not isinstance(agent, SpielMCTSAgent)
    with pytest.raises(ValueError):
        SpielMCTSAgent(game)


def test_unknown_agent_names_the_field() -> None:
    with pytest.raises(InvalidInput) as err:
        make_agent("alphazero", NOMONHAN, "JP")
    assert err.value.field == "agent"
    assert "alphazero" in err.value.message and "greedy" in err.value.message
    with pytest.raises(InvalidInput) as bad_side:
        make_agent("random", NOMONHAN, "GE")
    assert bad_side.value.field == "side"


def test_a_seat_holds_no_state() -> None:
    fields = {f.name for f in attrs.fields(Seat)}
    assert fields == {"game", "side", "observation", "legal", "sample"}


class _Spy:
    """A seat's sampler that counts its draws."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.calls = 0

    def __call__(self, rng: random.Random) -> Any:
        self.calls += 1
        return self.inner(rng)


@pytest.mark.parametrize("name", ["greedy", "mcts"])
def test_hidden_game_agents_search_only_on_samples(name: str) -> None:
    """In Rattenkrieg an agent's choice is the same from any state its side cannot tell from
    the real one (a resampled state: same observation, other hidden cards), and it draws from
    `seat.sample` to make it: what it does not see cannot change what it plays."""
    from tools.agents.resampling import resampler

    game = get_game("rattenkrieg")
    variant = game.catalogue.variant(None, {})
    positions = decision_positions(game, game.initial_state(variant), random.Random(5), 150)
    checked = 0
    for state in positions:
        side = game.to_move(state)
        assert side is not None
        legal = game.legal_actions(state)
        if len(legal) < 2:
            continue
        observation = game.observe(state, side)
        other = resampler(game)(observation, side, random.Random(9))
        assert game.observe(other, side) == observation
        agent = make_agent(name, game, side, simulations=8)
        choices = []
        for real in (state, other):
            spy = _Spy(sampler_for(game, real, side, game.observe(real, side)))
            chair = Seat(game, side, observation, game.legal_actions(real), spy)
            choices.append(agent.choose(chair, random.Random(3)))
            assert spy.calls >= 1
        assert choices[0] == choices[1] and choices[0] in legal
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def test_mcts_builds_a_declaration_and_returns_the_kernel_action() -> None:
    """A Nomonhan declaration is several sub-decisions in OpenSpiel; the agent returns the one
    kernel action they build, one of the seat's legal actions (NOM-9.2)."""
    variant = NOMONHAN.presets()["ja"]
    positions = decision_positions(
        NOMONHAN,
        NOMONHAN.initial_state(variant),
        random.Random(5),
        600,
        keep=lambda _i, s: s.stage == Stage.DECLARE and len(NOMONHAN.legal_actions(s)) > 2,
    )
    assert positions
    state = positions[0]
    side = NOMONHAN.to_move(state)
    assert side is not None
    legal = NOMONHAN.legal_actions(state)
    agent = make_agent("mcts", NOMONHAN, side, simulations=10)
    chosen = agent.choose(seat(NOMONHAN, state, side, legal), random.Random(0))
    assert chosen in legal
    tokens = spiel_codec().tokens(chosen)
    assert len(tokens) > 1  # built from sub-decisions
    again = agent.choose(seat(NOMONHAN, state, side, legal), random.Random(0))
    assert again == chosen


def test_seeded_bot_game_replays_exactly() -> None:
    """Same seed, same game: every choice (the bots' searches included) comes from the seed."""
    variant = NOMONHAN.presets()["en"]

    def game(seed: int) -> tuple[Any, list[Any]]:
        agents = {
            "JP": make_agent("mcts", NOMONHAN, "JP", simulations=6),
            "SU": make_agent("greedy", NOMONHAN, "SU"),
        }
        actions: list[Any] = []

        def step(_before: Any, action: Any, _after: Any) -> None:
            actions.append(action)

        result = play_match(NOMONHAN, variant, agents, seed, max_steps=120, on_step=step)
        return result, actions

    first, second, other = game(4), game(4), game(5)
    assert first == second and first[1]
    assert other[1] != first[1]
