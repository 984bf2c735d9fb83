"""The agents that play from one side's seat, by name (`wargame play --agent A --against B`).

`random`: uniform over the legal actions. `greedy`: one ply on the evaluation the game's spec
declares (`tools.agents.greedy`). `mcts`: OpenSpiel's MCTS for a game with perfect information
(`tools.agents.mcts`), information-set MCTS for one with hidden information
(`tools.agents.ismcts`), so a bot never searches on what its side may not see.
"""

from __future__ import annotations

from typing import Any

from kernel.errors import InvalidInput, MissingExtra
from kernel.game import Game
from tools.agents.base import Agent, RandomAgent

AGENT_NAMES = ("random", "greedy", "mcts")


def make_agent(
    name: str, game: Game[Any, Any], side: str, *, simulations: int | None = None
) -> Agent:
    """The agent called `name` to play `side` of `game`; `simulations` sets an MCTS agent's
    searches per decision (None: its default). Unknown names are refused naming `agent`."""
    if side not in game.sides:
        raise InvalidInput(f"{game.name} has no side {side!r}", field="side")
    if simulations is not None and simulations < 1:
        raise InvalidInput("simulations must be 1 or more", field="simulations")
    if name == "random":
        return RandomAgent()
    if name == "greedy":
        from tools.agents.greedy import greedy_agent

        return greedy_agent(game)
    if name == "mcts":
        if game.perfect_information:
            try:
                from tools.agents.mcts import DEFAULT_SIMULATIONS, SpielMCTSAgent
            except ImportError as exc:
                raise MissingExtra("openspiel", "the mcts agent (OpenSpiel's MCTS)", exc) from exc

            return SpielMCTSAgent(game, simulations or DEFAULT_SIMULATIONS)
        return _ismcts(game, simulations)
    known = ", ".join(AGENT_NAMES)
    raise InvalidInput(f"unknown agent {name!r} (agents: {known})", field="agent")


def _ismcts(game: Game[Any, Any], simulations: int | None) -> Agent:
    """The information-set MCTS agent, imported only when asked for."""
    try:
        from tools.agents.ismcts import ISMCTSAgent
    except ImportError as exc:
        raise InvalidInput(
            f"the mcts agent for {game.name} (hidden information) is not available: {exc}",
            field="agent",
        ) from None
    agent: Agent = (
        ISMCTSAgent(name="mcts") if simulations is None else ISMCTSAgent(simulations, name="mcts")
    )
    return agent
