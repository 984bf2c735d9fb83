"""Play steered toward a place in the rules' code (`solvers.checking.approach`): a best-first
search from the corpus's positions (`solvers.checking.corpus`) that expands first the position
whose next step came closest to the place, by the approach level of the rules' own conditions,
until a step runs the place itself (the clause takes effect, or the rules ask for the option).

For situations random play rarely makes (a city attacked from three sides, a 5:1 attack):
no scenario is written by hand; the search is scored by the conditions the code states.

Limits are counts (positions evaluated, actions tried from each); a wall-clock `deadline`
may stop it as well.
"""

from __future__ import annotations

import heapq
import random
import time
from collections.abc import Callable, Iterator
from typing import Any

import attrs

from kernel.errors import WargameError
from kernel.game import CHANCE
from kernel.roles import AssembledGame
from solvers.checking.approach import Place, lines_of, nearest
from solvers.checking.bounded_search import BUDGET
from solvers.checking.corpus import Corpus

NODES = "steered positions"  # the cap of positions evaluated was reached
STARTS = 24  # corpus positions per preset the search starts from (spread over its games)
WIDTH = 6  # actions tried from each position expanded (a seeded sample when more are legal)


@attrs.frozen
class Reached:
    """A position where a place ran: the actions from the set-up, the state, its distance
    (0) and the positions evaluated to find it."""

    actions: tuple[Any, ...]
    state: Any
    evaluated: int


@attrs.frozen
class Steered:
    """What the steered search found: the positions at distance 0 it met (in order), the best
    distance seen, the positions evaluated, and the limit that ended it ("": the frontier
    ran dry)."""

    reached: tuple[Reached, ...]
    best: int
    evaluated: int
    limit: str


def steer(
    game: AssembledGame[Any, Any],
    corpus: Corpus,
    preset: str,
    places: list[Place],
    files: tuple[str, ...],
    *,
    nodes: int = 120,
    enough: int = 1,
    deadline: float | None = None,
    stop: Callable[[Reached], bool] | None = None,
) -> Steered:
    """Best-first from the corpus positions of `preset` toward `places` (in `files`), at most
    `nodes` positions evaluated; it stops once `enough` positions at distance 0 were met (or
    `stop` says so of one). A position's distance is that of one step from it: what the side
    to move may do, and (a seeded sample of) the actions allowed, applied."""
    rng = random.Random(0)
    frontier: list[tuple[int, int, tuple[Any, ...], Any]] = []
    found: list[Reached] = []
    count, best, tie, limit = 0, 1_000, 0, ""
    # the starts first, each evaluated; then the children of the closest, the latest pushed
    # first among equals (a dive, as play goes on, rather than a sweep of one step from all)
    todo = [(actions, state, 1_000) for actions, state in corpus_starts(game, corpus, preset)]
    while todo or frontier:
        if count >= nodes:
            limit = NODES
            break
        if deadline is not None and time.perf_counter() > deadline:
            limit = BUDGET
            break
        if todo:
            actions, state, _ = todo.pop(0)
        else:
            _, _, actions, state = heapq.heappop(frontier)
        count += 1
        d, children = _evaluate(game, state, places, files, rng)
        best = min(best, d)
        if d == 0:
            here = Reached(actions, state, count)
            found.append(here)
            if len(found) >= enough or (stop is not None and stop(here)):
                break
        for action, after in children:
            tie -= 1
            heapq.heappush(frontier, (d, tie, (*actions, action), after))
    return Steered(tuple(found), best, count, limit)


def corpus_starts(
    game: AssembledGame[Any, Any], corpus: Corpus, preset: str
) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """`STARTS` corpus positions of the preset, spread evenly over each game's length."""
    games = [g for g in corpus.games if g.preset == preset and g.positions]
    if not games:
        return
    each = max(1, STARTS // len(games))
    for g in games:
        stride = max(1, len(g.positions) // each)
        for p in g.positions[::stride][:each]:
            yield tuple(g.actions[: p.step]), p.state


def _evaluate(
    game: AssembledGame[Any, Any],
    state: Any,
    places: list[Place],
    files: tuple[str, ...],
    rng: random.Random,
) -> tuple[int, list[tuple[Any, Any]]]:
    """The distance of one step from `state`, and the positions the actions tried lead to."""
    ran, children = step_run(game, state, files, rng)
    return nearest(places, ran), children


def step_run(
    game: AssembledGame[Any, Any],
    state: Any,
    files: tuple[str, ...],
    rng: random.Random,
) -> tuple[dict[str, set[int]], list[tuple[Any, Any]]]:
    """The lines of `files` one step from `state` runs, and the positions the actions tried
    lead to."""
    children: list[tuple[Any, Any]] = []

    def step() -> None:
        side = game.to_move(state)
        if side is None:
            return
        if side == CHANCE:
            moves = [x for x, _ in game.chance_outcomes(state)]
        else:
            moves = list(game.legal_actions(state))
        for action in rng.sample(moves, min(WIDTH, len(moves))):
            try:
                children.append((action, game.apply(state, action)))
            except WargameError:
                continue

    return lines_of(files, step), children
