"""Clauses no seeded play reached, reached by play steered toward them: for each, a best-first
search from the run's corpus (`solvers.checking.steer`) scored by the approach level of the
statements that apply it (`solvers.checking.approach`); where it gets there, the clause is
reached with the log of actions from the set-up to a position where it takes effect.

What no steered search reaches is left to Z3 over the symbolic model
(`solvers.checking.unreached.settle_unreached`).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from kernel.roles import AssembledGame
from solvers.checking import reach
from solvers.checking.approach import clause_places
from solvers.checking.corpus import Corpus
from solvers.checking.steer import steer
from solvers.checking.unreached import Unreached, game_sources, prefixes

STEER_REACH_SECONDS = 10.0
"""Wall-clock time for all the unreached clauses together (the CLI only)."""


def steer_unreached(
    game: AssembledGame[Any, Any],
    corpus: Corpus,
    clauses: Sequence[str],
    *,
    nodes: int = 60,
    deadline: float | None = None,
) -> tuple[list[Unreached], list[str]]:
    """The clauses steered play reaches under some preset, each with its log and position,
    and the clauses it does not. At most `nodes` positions per clause and preset; no search
    started past `deadline` (a `time.perf_counter()` value), and each gets an even share of
    what is left."""
    files = game_sources(game)
    sites = reach.sites_of(files, prefixes(game))
    reached: list[Unreached] = []
    left: list[str] = []
    todo = [(c, p) for c in clauses for p in game.presets()]
    done: set[str] = set()
    for i, (clause, preset) in enumerate(todo):
        if clause in done:
            continue
        places = clause_places(sites, [clause])
        now = time.perf_counter()
        if not places or (deadline is not None and now > deadline):
            continue
        share = None if deadline is None else now + (deadline - now) / (len(todo) - i)
        start = time.perf_counter()
        s = steer(game, corpus, preset, places, files, nodes=nodes, deadline=share)
        if not s.reached:
            continue
        r = s.reached[0]
        done.add(clause)
        reached.append(
            Unreached(
                clause,
                preset,
                "reached",
                f"steered play toward the statements that apply it reached one after "
                f"{s.evaluated} positions evaluated: seeded play was not varied enough",
                tuple(game.action_to_json(a) for a in r.actions),
                game.state_to_json(r.state),
                time.perf_counter() - start,
            )
        )
    left = [c for c in clauses if c not in done]
    return reached, left
