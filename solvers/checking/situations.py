"""A game's own measure of how far a position is from one where two readings of an option
answer differently, and play steered by it.

The steered search of `solvers.checking.steer` scores a position by the approach level of
the rules' conditions on the way to the line that asks for an option: it reaches the
question, but the question is often asked with inputs under which both readings answer the
same (odds within the table, a retreat with a free hex, one disrupted unit of one). Where the
readings part is a fact of the position that only the game can state (a combat whose raw
odds lie beyond the table and that has a column shift, a stack of disrupted and undisrupted
defenders): the game offers it through an optional method of its rules,
`reading_situations()`, a mapping from an option's name to a function of a state that
returns a distance, 0 where the readings' inputs differ (the next step may show it), larger
the more of the situation's conditions are missing (say, one per unmet conjunct). No
scenario is written by hand: the distance scores positions that play makes.

`toward` is a best-first search from the corpus positions of a preset by that distance: the
corpus positions (at most `MEASURED` of them, spread over every game, within half of the time
to a deadline) are measured first and the closest expanded first, so a situation some corpus
game came near is where the search starts. The positions it returns at distance 0 are where
the explorer compares the readings (a step on, and around them: `solvers.checking.situated`).
Limits are counts (positions evaluated, actions tried from each); a wall-clock `deadline` may
stop it as well.

Solvers never import specs: the hook is read off the rules object (`kernel.roles.rules_of`).
"""

from __future__ import annotations

import heapq
import itertools
import random
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from kernel.errors import WargameError
from kernel.game import CHANCE
from kernel.roles import AssembledGame, rules_of
from solvers.checking.bounded_search import BUDGET
from solvers.checking.corpus import Corpus
from solvers.checking.steer import Reached, Steered

Situation = Callable[[Any], int]
"""`distance(state)`: 0 where the two readings of the option may answer differently at the
state or its next step; otherwise how many of the situation's conditions are missing."""

HOOK = "reading_situations"
"""The rules' optional method that gives the game's situations, by option."""

WIDTH = 8
"""Actions tried from each position expanded (a seeded sample when more are legal); chance's
outcomes are all tried."""

MEASURED = 2_000
"""Corpus positions of the preset measured as starts (spread evenly over its games)."""

NODES = "situation positions"  # the cap of positions evaluated was reached

FAR = 1_000
"""The distance of a position the game's measure cannot read."""


def reading_situations(game: Any) -> Mapping[str, Situation]:
    """The game's situations by option (empty when the game offers none)."""
    hook = getattr(rules_of(game), HOOK, None)
    if hook is None:
        return {}
    found: Mapping[str, Situation] = hook()
    return found


def toward(
    game: AssembledGame[Any, Any],
    corpus: Corpus,
    preset: str,
    distance: Situation,
    *,
    nodes: int = 200,
    enough: int = 1,
    deadline: float | None = None,
    stop: Callable[[Reached], bool] | None = None,
) -> Steered:
    """Best-first from the corpus positions of `preset` by `distance`, at most `nodes`
    positions evaluated; it stops once `enough` positions at distance 0 were met (or `stop`
    says so of one). Among equals the latest pushed comes first: a dive, as play goes on."""
    rng = random.Random(0)
    frontier: list[tuple[int, int, tuple[Any, ...], Any]] = []
    found: list[Reached] = []
    seen: set[int] = set()
    count, best, tie, limit = 0, FAR, 0, ""
    # the starts measured, at most half of the time left if there is a deadline
    until = None if deadline is None else (time.perf_counter() + deadline) / 2
    for actions, state in _starts(corpus, preset):
        if until is not None and time.perf_counter() > until and frontier:
            break
        tie -= 1
        heapq.heappush(frontier, (_measured(distance, state), tie, actions, state))
    while frontier:
        if count >= nodes:
            limit = NODES
            break
        if deadline is not None and time.perf_counter() > deadline:
            limit = BUDGET
            break
        d, _, actions, state = heapq.heappop(frontier)
        if not _first(seen, state):
            continue
        count += 1
        best = min(best, d)
        if d == 0:
            here = Reached(actions, state, count)
            found.append(here)
            if len(found) >= enough or (stop is not None and stop(here)):
                break
        for action, after in _children(game, state, rng):
            tie -= 1
            heapq.heappush(frontier, (_measured(distance, after), tie, (*actions, action), after))
    return Steered(tuple(found), best, count, limit)


def _starts(corpus: Corpus, preset: str) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """At most `MEASURED` corpus positions of the preset, spread evenly over each of its games
    and taken from the games in turn (so a search cut short has measured some of each), each
    with the actions that reach it from the set-up."""
    games = [g for g in corpus.games if g.preset == preset and g.positions]
    if not games:
        return
    each = max(1, MEASURED // len(games))
    picked = [g.positions[:: max(1, -(-len(g.positions) // each))] for g in games]
    for row in itertools.zip_longest(*picked):
        for g, p in zip(games, row, strict=True):
            if p is not None:
                yield tuple(g.actions[: p.step]), p.state


def _first(seen: set[int], state: Any) -> bool:
    """Whether `state` is met for the first time (recorded in `seen`; an unhashable state
    always is)."""
    try:
        key = hash(state)
    except TypeError:
        return True
    if key in seen:
        return False
    seen.add(key)
    return True


def _measured(distance: Situation, state: Any) -> int:
    """The distance of `state`; a position the game's measure cannot read is far."""
    try:
        return max(0, int(distance(state)))
    except WargameError:
        return FAR


def _children(
    game: AssembledGame[Any, Any], state: Any, rng: random.Random
) -> list[tuple[Any, Any]]:
    """The positions every chance outcome, or a seeded sample of `WIDTH` actions, lead to."""
    side = game.to_move(state)
    if side is None:
        return []
    if side == CHANCE:
        moves = [x for x, _ in game.chance_outcomes(state)]
    else:
        legal = list(game.legal_actions(state))
        moves = rng.sample(legal, min(WIDTH, len(legal)))
    out: list[tuple[Any, Any]] = []
    for action in moves:
        try:
            out.append((action, game.apply(state, action)))
        except WargameError:
            continue
    return out
