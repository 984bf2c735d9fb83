"""The greedy agent: one ply on the evaluation its game's spec declares.

For each legal action it plays the action on states drawn from its seat (`Seat.sample`: under
perfect information the state itself, else states it cannot tell from the real one), takes the
exact expectation over the chance steps that follow at once (the probabilities of
`chance_outcomes`, as long as chance stays to move and the number of positions stays within a
budget) and scores each resulting position by its side's observation of it
(`specs/<game>/bots/evaluation.py`), or, where that module also offers `evaluate_state`, by the
same value read from the state without building the observation (Shanghai-Nanking: an
observation costs more than the step). It plays the best action, ties broken by its generator. Where
there are very many legal actions it weighs a random draw of them (`MAX_CANDIDATES`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from kernel.errors import WargameError
from kernel.game import CHANCE, Game
from kernel.roles import rules_of
from tools.agents.base import Seat
from tools.agents.evaluations import EvaluateState, required_evaluation, state_evaluation

Evaluation = Callable[[Mapping[str, Any], str], float]
"""`evaluate(observation, side)`: a position's value in [-1, 1] to `side`, from its view
(`tools.agents.evaluations.Evaluate`)."""

HIDDEN_SAMPLES = 4
"""States drawn per decision in a game with hidden information (one suffices otherwise)."""
CHANCE_BUDGET = 64
"""The most positions one action's chance expectation may expand to: a chance step with more
outcomes than the budget left is scored where it stands."""
MAX_CANDIDATES = 48
"""The most legal actions one decision weighs: where there are more (a Shanghai-Nanking
reinforcement may go to hundreds of hexes, and each `apply` there checks the whole listing), a
uniform draw of this many, made with the agent's generator."""
TIE = 1e-9
"""Values closer than this are a tie."""


def evaluation(game_name: str) -> Evaluation:
    """The evaluation the game's package declares (`GamePackage.evaluation`)."""
    return required_evaluation(game_name)


def expected_value(
    game: Game[Any, Any],
    state: Any,
    side: str,
    evaluate: Evaluation,
    budget: int = CHANCE_BUDGET,
    from_state: EvaluateState | None = None,
) -> float:
    """`side`'s value of `state`: its evaluation, or, while chance is to move, the exact
    expectation over the outcomes, each sub-tree given its share of the budget. With
    `from_state` (equal to `evaluate` of the observation), the observation is not built."""
    if game.to_move(state) != CHANCE:
        return _scored(game, state, side, evaluate, from_state)
    outcomes = game.chance_outcomes(state)
    if not outcomes or len(outcomes) > budget:
        return _scored(game, state, side, evaluate, from_state)
    share = budget // len(outcomes)
    return sum(
        float(p) * expected_value(game, game.apply(state, a), side, evaluate, share, from_state)
        for a, p in outcomes
    )


def _scored(
    game: Game[Any, Any],
    state: Any,
    side: str,
    evaluate: Evaluation,
    from_state: EvaluateState | None,
) -> float:
    """The evaluation of `state` to `side`: read from the state where the game offers it."""
    if from_state is not None:
        return from_state(rules_of(game), state, side)
    return evaluate(game.observe(state, side), side)


@attrs.frozen
class GreedyAgent:
    """One ply, then the spec's evaluation (module docstring)."""

    evaluate: Evaluation
    samples: int = 1
    """States drawn from the seat per decision."""
    budget: int = CHANCE_BUDGET
    max_candidates: int = MAX_CANDIDATES
    name: str = "greedy"
    from_state: EvaluateState | None = None
    """`evaluate` read from the state (the game's `evaluate_state`), when it has one."""

    def choose(self, seat: Seat[Any, Any], rng: random.Random) -> Any:
        if len(seat.legal) == 1:
            return seat.legal[0]
        game = seat.game
        states = [seat.sample(rng) for _ in range(self.samples)]
        candidates = list(seat.legal)
        if len(candidates) > self.max_candidates:
            candidates = rng.sample(candidates, self.max_candidates)
        best: list[Any] = []
        best_value = float("-inf")
        for action in candidates:
            values = []
            for state in states:
                try:
                    after = game.apply(state, action)
                except WargameError:  # a draw where the action is not legal: no evidence
                    continue
                values.append(
                    expected_value(
                        game, after, seat.side, self.evaluate, self.budget, self.from_state
                    )
                )
            if not values:
                continue
            value = sum(values) / len(values)
            if value > best_value + TIE:
                best, best_value = [action], value
            elif value >= best_value - TIE:
                best.append(action)
        return rng.choice(best or candidates)


def greedy_agent(game: Game[Any, Any]) -> GreedyAgent:
    """The greedy agent for `game`: one state under perfect information, a few draws else."""
    samples = 1 if game.perfect_information else HIDDEN_SAMPLES
    return GreedyAgent(evaluation(game.name), samples, from_state=state_evaluation(game.name))
