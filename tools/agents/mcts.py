"""The MCTS agent for games with perfect information: OpenSpiel's own `MCTSBot` searching the
OpenSpiel game `tools.spiel` registers for the kernel game.

Each decision starts a search from the seat's state (`Seat.sample`, which under perfect
information is the state itself). A compound action (a Nomonhan declaration: attackers,
defenders, support, ..., commit) is built by the same bot sub-decision by sub-decision, one
search each, and handed back as the kernel action its ids build.

A leaf is valued as the greedy agent values a position: a pending declaration is first completed
at random (so each sub-decision is judged by whole declarations), then `rollout_steps` random
kernel steps are played (none by default), then the spec's evaluation
(`specs/<game>/bots/evaluation.py`) is taken, as the exact expectation over the chance steps due
there (a leaf is often a roll just declared, which one sampled outcome would misjudge). The
bot's and the leaves' random streams are seeded from the agent's generator, so a seeded game
replays exactly. Games with hidden information use the information-set MCTS agent instead
(`tools.agents.ismcts`, chosen by `tools.agents.make_agent`).
"""

from __future__ import annotations

import functools
import random
from typing import Any

import numpy as np

from kernel.chance import sample
from kernel.game import CHANCE, Game
from tools.agents.base import Seat
from tools.agents.greedy import Evaluation, evaluation, expected_value
from tools.spiel.adapter import WargameGame, _Node

DEFAULT_SIMULATIONS = 30
"""Searches per (sub-)decision: enough to beat the random agent clearly (bench/agents.py
measures it) while a Nomonhan game takes seconds."""
DEFAULT_ROLLOUT_STEPS = 0
"""Kernel steps of random play before a leaf is scored: none, the evaluation alone (random
play adds noise faster than information in these games)."""
UCT_C = 2.0
SEARCH_CAP = 5000
"""`max_game_length` of the searched OpenSpiel game, counted from the decision searched: far
beyond any tree a search of `DEFAULT_SIMULATIONS` grows, so a search never reads a truncation
as a result."""


@functools.cache
def spiel_game(game_name: str, preset: str | None) -> WargameGame:
    """The OpenSpiel game `tools.spiel` registers for `game_name` (the preset's, when one is
    registered: the searched state carries its own variant, so any of them plays it the same),
    with `SEARCH_CAP` decisions."""
    from tools import spiel

    keys = [s.short_name for s in spiel.specs() if s.game.name == game_name]
    if not keys:
        raise LookupError(f"no OpenSpiel game is registered for {game_name}")
    preferred = [k for k in keys if preset is not None and k.endswith(f"_{preset}")]
    key = (preferred or sorted(keys))[0]
    return WargameGame(key, {"max_game_length": SEARCH_CAP})


class LeafEvaluator:
    """OpenSpiel's `Evaluator` interface: a cut random rollout on the kernel game, then the
    spec's evaluation; uniform priors (`MCTSBot` uses them only with its default UCT as ties)."""

    def __init__(
        self, game: Game[Any, Any], evaluate: Evaluation, rollout_steps: int, rng: random.Random
    ) -> None:
        self.game = game
        self.evaluate_observation = evaluate
        self.rollout_steps = rollout_steps
        self.rng = rng

    def evaluate(self, state: Any) -> np.ndarray[Any, Any]:
        if state.is_terminal():
            return np.array(state.returns(), dtype=float)
        game = self.game
        if state.prefix:  # a pending declaration is completed at random, then scored
            state = state.clone()
            while state.prefix:
                state.apply_action(self.rng.choice(state.legal_actions()))
            if state.is_terminal():
                return np.array(state.returns(), dtype=float)
        kernel = state.kernel_state
        for _ in range(self.rollout_steps):
            side = game.to_move(kernel)
            if side is None:
                break
            if side == CHANCE:
                kernel = game.apply(kernel, sample(game.chance_outcomes(kernel), self.rng))
                continue
            legal = game.legal_actions(kernel)
            if not legal:
                break
            kernel = game.apply(kernel, self.rng.choice(legal))
        first = game.sides[0]
        value = expected_value(game, kernel, first, self.evaluate_observation)
        return np.array([value if s == first else -value for s in game.sides], dtype=float)

    def prior(self, state: Any) -> list[tuple[int, float]]:
        if state.is_chance_node():
            outcomes: list[tuple[int, float]] = state.chance_outcomes()
            return outcomes
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


class SpielMCTSAgent:
    """OpenSpiel's `MCTSBot` on the game's registered OpenSpiel game (module docstring)."""

    def __init__(
        self,
        game: Game[Any, Any],
        simulations: int = DEFAULT_SIMULATIONS,
        *,
        rollout_steps: int = DEFAULT_ROLLOUT_STEPS,
        name: str = "mcts",
    ) -> None:
        if not game.perfect_information:
            raise ValueError(f"{game.name} hides information: use the information-set agent")
        if simulations < 1:
            raise ValueError("simulations must be 1 or more")
        self.game = game
        self.simulations = simulations
        self.rollout_steps = rollout_steps
        self.evaluate = evaluation(game.name)
        self.name = name

    def choose(self, seat: Seat[Any, Any], rng: random.Random) -> Any:
        from open_spiel.python.algorithms.mcts import MCTSBot

        if len(seat.legal) == 1:
            return seat.legal[0]
        preset = seat.observation.get("variant", {}).get("preset")
        sgame = spiel_game(self.game.name, preset)
        state = sgame.new_initial_state()
        state._node = _Node(state._node.key, seat.sample(rng))
        state._prefix = ()
        state._decisions = 0
        leaf = LeafEvaluator(
            self.game, self.evaluate, self.rollout_steps, random.Random(rng.getrandbits(64))
        )
        bot = MCTSBot(
            sgame,
            UCT_C,
            self.simulations,
            leaf,
            random_state=np.random.RandomState(rng.getrandbits(32)),
        )
        while True:
            ids = state.legal_actions()
            token = ids[0] if len(ids) == 1 else bot.step(state)
            _, action = state.step(token)
            if action is not None:
                return action
            state.apply_action(token)
