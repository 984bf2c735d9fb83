"""A study from plan to summary: play the seeds the store lacks on an engine, storing each
task's results as it completes, then summarise from the stored rows sorted by seed."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from tools.study.engine import Engine, chunk_size, make_tasks
from tools.study.plan import Plan
from tools.study.stats import compare, summarize
from tools.study.store import Store, missing_seeds


def execute(
    plan: Plan,
    store: Store,
    engine: Engine,
    *,
    progress: Callable[[int, int], None] | None = None,
    stop_after: int | None = None,
) -> int:
    """Play the plan's missing games; returns how many were stored. `progress` hears (games
    done, games to play) after each task; `stop_after` stops after that many tasks, as an
    interrupt would (what is stored stays stored)."""
    return execute_all([plan], store, engine, progress=progress, stop_after=stop_after)


def execute_all(
    plans: Sequence[Plan],
    store: Store,
    engine: Engine,
    *,
    progress: Callable[[int, int], None] | None = None,
    stop_after: int | None = None,
    deadline: float | None = None,
) -> int:
    """Play the missing games of several plans in one engine session (its workers start
    once, not once a plan), plan after plan; returns how many were stored. Past `deadline`
    (a `time.perf_counter()` value) no further task's results are waited for."""
    missing: dict[str, dict[str, Sequence[int]]] = {}
    for plan in plans:
        store.register(plan)
        missing[plan.key] = missing_seeds(store, plan)
    total = sum(len(seeds) for m in missing.values() for seeds in m.values())
    if total == 0:
        return 0
    size = chunk_size(total, engine.workers)
    tasks = [t for p in plans for t in make_tasks(p, missing.pop(p.key, {}), 1, size)]
    stored = done = 0
    with engine:
        results = engine.run(tasks)
        try:
            for i, finished in enumerate(results, start=1):
                key = finished.key or plans[0].key
                stored += store.add(key, finished.reading, finished.results)
                done += len(finished.results)
                if progress is not None:
                    progress(done, total)
                if stop_after is not None and i >= stop_after:
                    break
                if deadline is not None and time.perf_counter() > deadline:
                    break
        finally:
            results.close()
    return stored


def summary(plan: Plan, store: Store) -> dict[str, Any]:
    """The study's numbers, from the stored results of the plan's seeds (sorted by seed):
    per reading, then each reading against the base reading on the same seeds."""
    results = {r: store.results(plan.key, r, plan.seeds) for r in plan.readings}
    readings = [
        {"reading": r, "variant": plan.label(r), **summarize(results[r], plan.sides)}
        for r in plan.readings
    ]
    base = plan.readings[0]
    comparisons = [
        {
            "option": plan.compare,
            "base": base,
            "other": r,
            **compare(results[base], results[r], plan.sides),
        }
        for r in plan.readings[1:]
    ]
    return {"plan": plan.to_json(), "readings": readings, "comparisons": comparisons}
