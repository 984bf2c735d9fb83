"""One seeded game between agents, each seeing only its own seat (`tools.agents.base`).

Everything random comes from the seed: chance outcomes from one stream, each side's agent from
its own, so a game depends on its seed alone, not on which process or machine plays it, nor on
what was played before (a study's results are the same on any engine and any worker count).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from kernel.chance import sample
from kernel.game import CHANCE, Game
from kernel.playout import Observation
from kernel.variants import Variant
from tools.agents.base import Agent, Seat

DEFAULT_MAX_STEPS = 20_000


@attrs.frozen
class MatchResult:
    """How one game ended. `stop` is "ended" (the rules ended it: `winner`, `clause`), "no_action"
    (the side to move had no legal action: a gap in the rules, `clause` lists the clauses) or
    "step_limit" (the declared cap on actions was reached: a truncation, not a result)."""

    seed: int
    stop: str
    winner: str | None
    clause: str | None
    steps: int
    decisions: int

    def to_json(self) -> dict[str, Any]:
        return attrs.asdict(self)


def sampler_for(
    game: Game[Any, Any], state: Any, side: str, observation: Mapping[str, Any]
) -> Callable[[random.Random], Any]:
    """`Seat.sample` for `side` at `state`: the state itself when the game hides nothing, else a
    draw from the game's fast resampler (`tools.agents.resampling.sampler`), which is given
    `observation` (the side's) only, prepared at the first draw (an agent that never draws
    costs nothing)."""
    if game.perfect_information:
        return lambda rng: state
    from tools.agents.resampling import sampler

    prepare = sampler(game)
    drawn: list[Callable[[random.Random], Any]] = []

    def draw(rng: random.Random) -> Any:
        if not drawn:
            drawn.append(prepare(observation, side))
        return drawn[0](rng)

    return draw


def seat(game: Game[Any, Any], state: Any, side: str, legal: Any) -> Seat[Any, Any]:
    """`side`'s seat at `state`. The observation is computed on first use (`Observation`), so an
    agent that never looks (a random one) costs no `observe` per decision."""
    observation = Observation(lambda: game.observe(state, side))
    return Seat(game, side, observation, legal, sampler_for(game, state, side, observation))


def play_match(
    game: Game[Any, Any],
    variant: Variant,
    agents: Mapping[str, Agent],
    seed: int,
    *,
    max_steps: int = DEFAULT_MAX_STEPS,
    on_step: Callable[[Any, Any, Any], Any] | None = None,
) -> MatchResult:
    """Play one game from the variant's set-up until the rules end it, the side to move has no
    legal action, or `max_steps` actions (chance included)."""
    state = game.initial_state(variant)
    chance_rng = random.Random(f"{seed}/chance")
    rngs = {side: random.Random(f"{seed}/{side}") for side in game.sides}
    steps = decisions = 0
    while True:
        side = game.to_move(state)
        if side is None:
            out = game.outcome(state)
            winner = out.winner if out is not None else None
            clause = out.clause if out is not None else None
            return MatchResult(seed, "ended", winner, clause, steps, decisions)
        if steps >= max_steps:
            return MatchResult(seed, "step_limit", None, None, steps, decisions)
        if side == CHANCE:
            action = sample(game.chance_outcomes(state), chance_rng)
        else:
            legal = game.legal_actions(state)
            if not legal:
                clauses = ",".join(game.no_action_clauses(state))
                return MatchResult(seed, "no_action", None, clauses, steps, decisions)
            action = agents[side].choose(seat(game, state, side, legal), rngs[side])
            decisions += 1
        nxt = game.apply(state, action)
        if on_step is not None:
            on_step(state, action, nxt)
        state = nxt
        steps += 1
