"""A corpus of seeded games of every preset, played once per explorer run and shared by every
reading pair: each game's actions, and the positions where the rules asked for an option's
reading (`kernel.variants.consultations`), kept with the step they were reached at.

Guided play from the set-up rarely gets far into a long game within a pair's budget; the
corpus has already played there, so a pair starts where its option takes effect
(`solvers.checking.from_corpus`) instead of from the beginning.

Limits are counts (games per preset, steps per game); a wall-clock `deadline` may cut the
building short as well (what `wargame explore --budget` sets), and the corpus names the limit
that ended it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator, Sequence
from typing import Any

import attrs

from kernel.game import CHANCE
from kernel.playout import Agent, random_agent
from kernel.roles import AssembledGame
from kernel.variants import consultations
from solvers.checking.bounded_search import BUDGET

CORPUS_SECONDS = 12.0
"""Wall-clock time a run gives its corpus, all presets together (the CLI only)."""

LEAD = 3
"""Positions kept before each position where an option was asked (references to states the
game made anyway, so they cost no copy)."""

GAMES = "games"  # every seed was played
STEPS = "steps"  # a game reached its step limit


@attrs.frozen
class Position:
    """A position of a corpus game: the step it was reached at (actions from the set-up),
    the state, and the options whose readings the rules asked for there (what the side to
    move may do, and what the action taken did)."""

    step: int
    state: Any
    asked: frozenset[str]
    # the positions of the `LEAD` steps before it, earliest first (where a search around the
    # position starts, `solvers.checking.around`: the choices that led to it made otherwise)
    before: tuple[Any, ...] = ()


@attrs.frozen
class CorpusGame:
    """One seeded game of one preset: its actions from the set-up and the positions where
    some option was asked for."""

    preset: str
    seed: int
    actions: tuple[Any, ...]
    positions: tuple[Position, ...]
    ended: str  # "over" | "stuck" | "steps" | "budget"


@attrs.frozen
class Corpus:
    games: tuple[CorpusGame, ...]
    limit: str  # what ended the building: "games" or "budget"

    def where(self, option: str, preset: str) -> Iterator[tuple[CorpusGame, Position]]:
        """The positions of the preset's games where `option` was asked for, earliest step
        first (so the shortest witness comes first), then by seed."""
        found = [
            (p.step, g.seed, g, p)
            for g in self.games
            if g.preset == preset
            for p in g.positions
            if option in p.asked
        ]
        found.sort(key=lambda x: (x[0], x[1]))
        for _, _, g, p in found:
            yield g, p

    def asked(self, option: str, preset: str) -> int:
        """How many corpus positions of the preset asked for `option`."""
        return sum(1 for _ in self.where(option, preset))


def build_corpus(
    game: AssembledGame[Any, Any],
    seeds: int = 24,
    max_steps: int = 3_000,
    agents: Sequence[Agent[Any, Any]] = (random_agent,),
    deadline: float | None = None,
) -> Corpus:
    """Seeds 0 to `seeds` - 1, each played under every preset in turn (the agent of a seed is
    `agents[seed % len(agents)]`), each at most `max_steps` steps; no game started, nor a step
    taken, past `deadline` (a `time.perf_counter()` value; None: none)."""
    games: list[CorpusGame] = []
    for seed in range(seeds):
        for preset, variant in game.presets().items():
            if deadline is not None and time.perf_counter() > deadline:
                return Corpus(tuple(games), BUDGET)
            agent = agents[seed % len(agents)]
            played = _one(
                game, preset, game.initial_state(variant), seed, max_steps, agent, deadline
            )
            games.append(played)
    return Corpus(tuple(games), GAMES)


def _one(
    game: AssembledGame[Any, Any],
    preset: str,
    state: Any,
    seed: int,
    max_steps: int,
    agent: Agent[Any, Any],
    deadline: float | None,
) -> CorpusGame:
    """One corpus game, the options asked for at each of its positions recorded."""
    rng = random.Random(seed)
    actions: list[Any] = []
    positions: list[Position] = []
    lead: list[Any] = []
    ended = STEPS
    for step in range(max_steps):
        if deadline is not None and time.perf_counter() > deadline:
            ended = BUDGET
            break
        with consultations() as asked:
            side = game.to_move(state)
            if side is None:
                ended = "over"
                break
            if side == CHANCE:
                outcomes = game.chance_outcomes(state)
                weights = [float(p) for _, p in outcomes]
                action = rng.choices([x for x, _ in outcomes], weights)[0]
            else:
                legal = list(game.legal_actions(state))
                if not legal:
                    ended = "stuck"
                    break
                action = agent(game, state, legal, rng)
            after = game.apply(state, action)
        names = frozenset(k for k, n in asked.items() if n)
        if names:
            positions.append(Position(step, state, names, tuple(lead)))
        actions.append(action)
        lead = [*lead[1 - LEAD :], state] if LEAD > 1 else [state]
        state = after
    return CorpusGame(preset, seed, tuple(actions), tuple(positions), ended)
