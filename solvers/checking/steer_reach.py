"""Clauses no seeded play reached, reached by play steered toward them: one best-first search
per preset from the run's corpus (`solvers.checking.steer_many`) toward every such clause at
once, scored by the approach level of the statements that apply each
(`solvers.checking.approach`); where it gets there, the clause is reached with the log of
actions from the set-up to a position where it takes effect.

For each clause it does not reach it says why (`why`): the closest approach seen, or that no
statement cites the clause (only a docstring) or that each one refuses an illegal action
(`solvers.checking.unreached_why`). What
no steered search reaches is left to Z3 over the symbolic model
(`solvers.checking.unreached.settle_unreached`).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from kernel.roles import AssembledGame
from solvers.checking import reach
from solvers.checking.approach import clause_places, with_callers
from solvers.checking.bounded_search import BUDGET
from solvers.checking.corpus import Corpus
from solvers.checking.steer import NODES
from solvers.checking.steer_many import FAR, Many, steer_many
from solvers.checking.unreached import Unreached, game_sources, prefixes
from solvers.checking.unreached_why import docstring_reason, refusal_reason

STEER_REACH_SECONDS = 10.0
"""Wall-clock time for all the unreached clauses together (the CLI only)."""


def steer_unreached(
    game: AssembledGame[Any, Any],
    corpus: Corpus,
    clauses: Sequence[str],
    *,
    nodes: int = 60,
    deadline: float | None = None,
    why: dict[str, str] | None = None,
) -> tuple[list[Unreached], list[str]]:
    """The clauses steered play reaches under some preset, each with its log and position,
    and the clauses it does not (with the reason in `why`, when given). At most `nodes`
    positions per clause sought and preset; no search started past `deadline` (a
    `time.perf_counter()` value), and each preset gets an even share of what is left."""
    files = game_sources(game)
    sites = reach.sites_of(files, prefixes(game))
    reached: list[Unreached] = []
    done: set[str] = set()
    said: dict[str, list[str]] = {c: [] for c in clauses}
    presets = list(game.presets())
    for i, preset in enumerate(presets):
        targets = {
            c: with_callers(clause_places(sites, [c]), files) for c in clauses if c not in done
        }
        targets = {c: p for c, p in targets.items() if p}
        now = time.perf_counter()
        if not targets or (deadline is not None and now > deadline):
            continue
        share = None if deadline is None else now + (deadline - now) / (len(presets) - i)
        start = time.perf_counter()
        many = steer_many(
            game, corpus, preset, targets, files, nodes=nodes * len(targets), deadline=share
        )
        for clause, r in many.reached.items():
            done.add(clause)
            reached.append(
                Unreached(
                    clause,
                    preset,
                    "reached",
                    f"steered play toward the statements that apply it reached one after "
                    f"{r.evaluated} positions evaluated: seeded play was not varied enough",
                    tuple(game.action_to_json(a) for a in r.actions),
                    game.state_to_json(r.state),
                    time.perf_counter() - start,
                )
            )
        for clause in targets:
            if clause not in done:
                said[clause].append(_missed(preset, many, clause, len(targets[clause])))
    left = [c for c in clauses if c not in done]
    if why is not None:
        for c in left:
            known = [x for x in (docstring_reason(sites, c), refusal_reason(sites, c)) if x]
            parts = known + said[c]
            why[c] = "; ".join(parts) or "no statement of the rules cites it"
    return reached, left


def _missed(preset: str, many: Many, clause: str, places: int) -> str:
    """Why the search under `preset` did not reach `clause`, in words."""
    ended = {
        "": "its frontier ran dry",
        BUDGET: "its share of the wall-clock budget ran out",
        NODES: "it reached its cap of positions",
    }.get(many.limit, many.limit)
    level = many.best.get(clause, FAR)
    closest = (
        "no step ran the function holding any of them"
        if level >= FAR
        else f"the closest step stopped {level} block(s) short of one"
    )
    return (
        f"play steered under {preset} toward the {places} statement(s) that apply it "
        f"evaluated {many.evaluated} positions ({ended}): {closest}"
    )
