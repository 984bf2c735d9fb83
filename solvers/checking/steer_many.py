"""Play steered toward many places at once: one best-first search from the corpus's positions
(`solvers.checking.corpus`) toward every clause no play reached, where a search per clause
(`solvers.checking.steer`) would apply the same actions again for each.

Each position evaluated is one step from it under tracing (`solvers.checking.approach`): every
clause still sought whose place that step ran is reached there; the position's priority is the
smallest approach level over the clauses still sought, re-scored when it comes off the frontier
(a clause reached meanwhile no longer pulls play toward it). The clauses reached and, for the
rest, the closest approach seen are what the search reports.

Limits are counts (positions evaluated, actions tried from each); a wall-clock `deadline` may
stop it as well.
"""

from __future__ import annotations

import heapq
import random
import time
from collections.abc import Mapping
from typing import Any

import attrs

from kernel.roles import AssembledGame
from kernel.variants import consultations
from solvers.checking.approach import Place, nearest
from solvers.checking.bounded_search import BUDGET
from solvers.checking.corpus import Corpus
from solvers.checking.steer import NODES, Reached, corpus_starts, step_run

FAR = 1_000  # the approach level of a clause none of whose places' functions ran


@attrs.frozen
class Many:
    """What the search found: the first position where each clause reached took effect, the
    closest approach level seen for each clause (0 for those reached), the positions
    evaluated, and the limit that ended it ("": every clause reached or the frontier ran
    dry)."""

    reached: Mapping[str, Reached]
    best: Mapping[str, int]
    evaluated: int
    limit: str


def steer_many(
    game: AssembledGame[Any, Any],
    corpus: Corpus,
    preset: str,
    targets: Mapping[str, list[Place]],
    files: tuple[str, ...],
    *,
    nodes: int,
    deadline: float | None = None,
    options: bool = False,
) -> Many:
    """Best-first from the corpus positions of `preset` toward the places of every clause in
    `targets` (in `files`), at most `nodes` positions evaluated. With `options`, the targets
    are options and one is reached only where the rules asked for its reading
    (`kernel.variants.consultations`): a place on an `if` line runs when the test is
    evaluated, even where a condition before the question cut it short."""
    rng = random.Random(0)
    left = {c: p for c, p in targets.items() if p}
    best = dict.fromkeys(targets, FAR)
    found: dict[str, Reached] = {}
    frontier: list[tuple[int, int, tuple[Any, ...], Any, dict[str, int]]] = []
    todo = list(corpus_starts(game, corpus, preset))
    count, tie, limit = 0, 0, ""
    while (todo or frontier) and left:
        if count >= nodes:
            limit = NODES
            break
        if deadline is not None and time.perf_counter() > deadline:
            limit = BUDGET
            break
        if todo:
            actions, state = todo.pop(0)
        else:
            d, t, actions, state, parent = heapq.heappop(frontier)
            now = min((parent[c] for c in left if c in parent), default=FAR)
            if now > d:  # scored for clauses reached since: back in its new place
                heapq.heappush(frontier, (now, t, actions, state, parent))
                continue
        count += 1
        with consultations() as asked:
            ran, children = step_run(game, state, files, rng)
        dists = {c: nearest(places, ran) for c, places in left.items()}
        if options:  # the line ran, the question was not asked: one short of it
            dists = {c: d if d or asked[c] else 1 for c, d in dists.items()}
        for c, dist in dists.items():
            best[c] = min(best[c], dist)
            if dist == 0:
                found[c] = Reached(actions, state, count)
                del left[c]
        score = min((v for c, v in dists.items() if c in left), default=FAR)
        for action, after in children:
            tie -= 1
            heapq.heappush(frontier, (score, tie, (*actions, action), after, dists))
    return Many(found, best, count, limit)
