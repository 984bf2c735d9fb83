"""Benchmark of `wargame study`: random Nomonhan playouts per second on the local engine with
one and two workers and on a local Ray with two workers, and the scaling efficiency (a
two-worker rate over twice the one-worker rate of the local engine). Each run also reports the
processor time its workers spent and the share of their CPUs they got: on a machine busy with
other work, a low efficiency with a low share is the machine, not the engine.

`python -m bench.study [--games N] [--json FILE]`. Each engine is started and warmed up
(one game per worker, workers importing the rules) before the clock starts, so the rate is the
steady one; Ray's start-up is reported apart. The games are checked equal on every engine (exit
1 otherwise): the speed may differ, the results may not.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tools.agents.match import MatchResult
from tools.study.engine import Engine, LocalEngine, RayEngine, make_tasks
from tools.study.plan import make_plan

GAME = "nomonhan"


def measure(engine: Engine, games: int) -> tuple[dict[str, Any], list[MatchResult]]:
    """Start the engine, warm it up, then time `games` random games on it."""
    plan = make_plan(GAME, games=games)
    warm = make_plan(GAME, games=engine.workers, seed_start=10**9)
    started = time.perf_counter()
    with engine:
        ready = time.perf_counter()
        for _ in engine.run(make_tasks(warm, {"": list(warm.seeds)}, engine.workers)):
            pass
        tasks = make_tasks(plan, {"": list(plan.seeds)}, engine.workers)
        clock = time.perf_counter()
        finished = list(engine.run(tasks))
        seconds = time.perf_counter() - clock
    results = [r for done in finished for r in done.results]
    cpu = sum(done.cpu_seconds for done in finished)
    results.sort(key=lambda r: r.seed)
    steps = sum(r.steps for r in results)
    return {
        "engine": engine.name,
        "workers": engine.workers,
        "games": len(results),
        "tasks": len(tasks),
        "seconds": round(seconds, 3),
        "start_seconds": round(ready - started, 3),
        "playouts_per_s": round(len(results) / seconds, 2),
        "steps_per_s": round(steps / seconds, 1),
        "worker_cpu_seconds": round(cpu, 3),
        "playouts_per_cpu_s": round(len(results) / cpu, 2),
        "cpu_share": round(cpu / (seconds * engine.workers), 3),
    }, results


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.study", description=__doc__)
    p.add_argument("--games", type=int, default=200, help="games per engine (default 200)")
    p.add_argument("--json", metavar="FILE", help="also write the numbers as JSON")
    args = p.parse_args(argv)
    runs: dict[str, dict[str, Any]] = {}
    reference: list[MatchResult] | None = None
    same = True
    engines: list[tuple[str, Engine]] = [
        ("local-1", LocalEngine(1)),
        ("local-2", LocalEngine(2)),
        ("ray-2", RayEngine(2)),
    ]
    for name, engine in engines:
        numbers, results = measure(engine, args.games)
        runs[name] = numbers
        reference = results if reference is None else reference
        same = same and results == reference
        print(
            f"{name:8} {numbers['playouts_per_s']:8.2f} playouts/s  "
            f"{numbers['steps_per_s']:9.1f} steps/s  ({numbers['games']} games in "
            f"{numbers['seconds']:.2f} s; start-up {numbers['start_seconds']:.2f} s; "
            f"{numbers['playouts_per_cpu_s']:.2f} playouts per worker CPU-second; workers got "
            f"{100 * numbers['cpu_share']:.0f}% of their CPUs)"
        )
    base = runs["local-1"]["playouts_per_s"]
    efficiency = {
        name: round(runs[name]["playouts_per_s"] / (2 * base), 3) for name in ("local-2", "ray-2")
    }
    for name, value in efficiency.items():
        print(f"scaling efficiency {name} vs local-1: {value:.2f}")
    print("same results on every engine" if same else "RESULTS DIFFER BETWEEN ENGINES")
    if args.json:
        report = {
            "machine": {
                "python": platform.python_version(),
                "cpus": os.cpu_count(),
                "platform": platform.platform(),
            },
            "game": GAME,
            "runs": runs,
            "scaling_efficiency": efficiency,
            "same_results": same,
        }
        Path(args.json).write_text(json.dumps(report, indent=2) + "\n")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
