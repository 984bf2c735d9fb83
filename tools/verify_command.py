"""The `wargame verify` command: its arguments, the tasks dealt to worker processes, the table.

What each task does (a property proved or tested under a preset, or the quick refinement
check) is in `tools.verify`; this module runs the tasks and reports them.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import multiprocessing
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from kernel.codec import dump_json
from kernel.errors import InvalidInput, WargameError
from tools.registry import game_names, get_game
from tools.verify import REFINEMENT, Refinement, Row, spec_verification, verify_batch


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", nargs="?", metavar="GAME", help="one game (default: all)")
    p.add_argument("--preset", metavar="PRESET", help="one preset (default: all)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument(
        "--witnesses",
        metavar="DIR",
        help="where witness logs go (default: TMPDIR/wargame-witnesses)",
    )
    p.add_argument("--jobs", type=int, metavar="N", help="worker processes (default: up to 2)")
    p.add_argument(
        "--property",
        action="append",
        default=[],
        metavar="ID",
        help="only this property (repeatable); the refinement check is then skipped",
    )


def run_cli(args: argparse.Namespace) -> int:
    names = [args.game] if args.game else game_names()
    only = tuple(args.property)
    tasks: list[tuple[str, str, str]] = []
    declared: set[str] = set()
    silent: list[str] = []  # games that declare no properties
    for name in names:
        game = get_game(name)
        presets = sorted(game.presets())
        if args.preset is not None:
            if args.preset not in presets:
                known = ", ".join(presets)
                raise InvalidInput(
                    f"{name} has no preset {args.preset!r} (presets: {known})", field="--preset"
                )
            presets = [args.preset]
        spec = spec_verification(game)
        ids = [p.id for p in spec.properties()] if spec is not None else []
        if not ids:
            silent.append(name)
        declared.update(ids)
        wanted = [i for i in ids if not only or i in only] + ([] if only else [REFINEMENT])
        tasks += [(name, preset, what) for preset in presets for what in wanted]
    unknown = sorted(set(only) - declared)
    if unknown:
        raise InvalidInput(
            f"no property {', '.join(unknown)} in {', '.join(names)}", field="--property"
        )
    witness_dir = args.witnesses or str(Path(tempfile.gettempdir()) / "wargame-witnesses")
    jobs = args.jobs or min(2, os.cpu_count() or 1, max(1, len(tasks)))
    if jobs < 1:
        raise InvalidInput("--jobs must be 1 or more", field="--jobs")
    order = _dealing_order(tasks)
    start = time.perf_counter()
    results_sorted = _run([tasks[i] for i in order], witness_dir, jobs)
    results: list[Row | Refinement | None] = [None] * len(tasks)
    for i, r in zip(order, results_sorted, strict=True):
        results[i] = r
    seconds = time.perf_counter() - start
    rows = [r for r in results if isinstance(r, Row)]
    checks = [c for c in results if isinstance(c, Refinement)]
    ok = all(r.ok for r in rows) and all(not c.mismatches for c in checks)
    if args.json:
        out = {
            "ok": ok,
            "seconds": round(seconds, 1),
            "results": [r.to_json() for r in rows],
            "refinement": [c.to_json() for c in checks],
            "without_properties": silent,
        }
        sys.stdout.write(dump_json(out) + "\n")
    else:
        sys.stdout.write(render(rows, checks, seconds, silent) + "\n")
    return 0 if ok else 1


def _dealing_order(tasks: Sequence[tuple[str, str, str]]) -> list[int]:
    """The order tasks are dealt to the workers in: properties expected to fail first (their
    witness searches cost most), then each game's tasks property by property with its presets
    side by side, so that one property's runs under two presets (which cost alike) go to
    different workers and the shares come out even."""
    first: dict[tuple[str, str], int] = {}
    for i, (name, _, what) in enumerate(tasks):
        first.setdefault((name, what), i)
    return sorted(
        range(len(tasks)),
        key=lambda i: (
            tasks[i][2] not in _failing(tasks[i][0]),
            first[tasks[i][0], tasks[i][2]],
            i,
        ),
    )


def _failing(name: str) -> set[str]:
    """IDs of the game's properties expected to fail somewhere: their witness searches usually
    cost most, so they are dealt out to the workers first and the shares come out even."""
    spec = spec_verification(get_game(name))
    if spec is None:
        return set()
    return {p.id for p in spec.properties() if "fails" in p.expected.values()}


def _run(
    tasks: list[tuple[str, str, str]], witness_dir: str, jobs: int
) -> list[Row | Refinement | None]:
    """The tasks' results in task order. Each worker takes a fixed share (`_shares`), so what
    a worker has solved before a task, and hence every witness, is the same from run to run."""
    if jobs == 1 or len(tasks) == 1:
        return verify_batch(tasks, witness_dir)
    shares = _shares(tasks, jobs)
    batches = [[tasks[i] for i in share] for share in shares]
    context = multiprocessing.get_context("spawn")  # z3 contexts are not fork-safe
    with concurrent.futures.ProcessPoolExecutor(jobs, mp_context=context) as pool:
        futures = [pool.submit(verify_batch, batch, witness_dir) for batch in batches]
        try:
            done = [f.result() for f in futures]
        except WargameError:
            raise
        except Exception as exc:  # a worker failed: report it as ours, without a traceback
            raise RuntimeError(f"a verify worker failed: {exc}") from exc
    out: list[Row | Refinement | None] = [None] * len(tasks)
    for share, results in zip(shares, done, strict=True):
        for i, r in zip(share, results, strict=True):
            out[i] = r
    return out


COSTS = Path(__file__).with_name("verify_costs.json")
"""Seconds each task took in a `wargame verify` on 2 cores: hints that balance the workers'
shares, nothing else (a task not listed counts as `_DEFAULT_COST`; stale hints only make the
shares less even). Refresh with `python -m tools.verify_costs`."""


_DEFAULT_COST = 2.0


def _shares(tasks: Sequence[tuple[str, str, str]], jobs: int) -> list[list[int]]:
    """Each worker's tasks (indices, in task order): the costliest first, each to the worker
    with the least work so far (`COSTS`; ties to the first worker), so that two tasks that
    cost alike go to different workers. Fixed for a given task list and hints file."""
    hints: dict[str, float] = {}
    if COSTS.exists():
        hints = json.loads(COSTS.read_text(encoding="utf-8"))

    def cost(i: int) -> float:
        return float(hints.get(" ".join(tasks[i]), _DEFAULT_COST))

    load = [0.0] * jobs
    shares: list[list[int]] = [[] for _ in range(jobs)]
    for i in sorted(range(len(tasks)), key=lambda i: (-cost(i), i)):
        w = min(range(jobs), key=lambda w: (load[w], w))
        shares[w].append(i)
        load[w] += cost(i)
    return [sorted(share) for share in shares]


def render(
    rows: list[Row], checks: list[Refinement], seconds: float, silent: Sequence[str] = ()
) -> str:
    """The table people read: property, clauses, preset, expected, verdict, method, time."""
    header = ("property", "clauses", "preset", "expected", "verdict", "method", "time")
    lines = [
        (
            r.id,
            _clauses(r.clauses),
            r.preset,
            r.expected,
            r.verdict + ("" if r.ok else " !"),
            r.method,
            f"{r.seconds:.1f}s",
        )
        for r in rows
    ]
    widths = [max(len(x[i]) for x in [header, *lines]) for i in range(len(header))]
    out = [
        "  ".join(x.ljust(w) for x, w in zip(line, widths, strict=True)).rstrip()
        for line in [header, *lines]
    ]
    for r in rows:
        if r.witness_path is not None:
            out.append(f"witness {r.id} ({r.game} {r.preset}): {r.detail}")
            out.append(f"  wargame play {r.game} --replay {r.witness_path}")
        elif not r.ok:
            out.append(f"{r.id} ({r.game} {r.preset}): {r.verdict}: {r.detail}")
    for c in checks:
        state = "ok" if not c.mismatches else f"{len(c.mismatches)} MISMATCHES"
        compared = (
            f"{c.positions} positions ({c.successors} successors) compared"
            if c.exact
            else "every step a model step (an abstraction: direction (a) only)"
        )
        out.append(
            f"refinement {c.game} {c.preset}: {c.games} game{'s' if c.games != 1 else ''}, "
            f"{c.steps} steps, {compared}: {state}"
        )
        out.extend(f"  {m}" for m in c.mismatches)
    out.extend(f"{name}: declares no properties (no verification module)" for name in silent)
    failed = sum(not r.ok for r in rows)
    verdict = "all as expected" if not failed else f"{failed} not as expected"
    out.append(f"{len(rows)} verdicts, {verdict}, in {seconds:.1f}s")
    return "\n".join(out)


def _clauses(clauses: tuple[str, ...]) -> str:
    return ",".join(clauses) if len(clauses) <= 3 else ",".join(clauses[:3]) + ",..."
