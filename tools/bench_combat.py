"""Benchmark of combat-assignment generation: Z3 layer, plain oracle, naive Z3, OR-Tools CP-SAT.

`python -m tools.bench_combat [--quick]` measures two things, numbers to compare between runs on
one machine, never pass/fail:
- a synthetic front of 30 attackers against 15 targets (ONE_TARGET grouping, two attackers per
  hex, at most two attackers across a hexside, two thirds of the attackers obliged, a third of
  the targets that must be attacked): time to the first assignment and assignments listed per
  second, for each method;
- the Combat Phases met in random Nomonhan playouts: whole declaration sets served per second by
  the Z3 layer (warm cache, as in play, and cold) against the oracle `legal_declarations`.
CP-SAT is measured when `ortools` is installed (`pip install -e '.[bench]'`).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Iterator
from typing import Any

from kernel.game import Game
from kernel.playout import play
from solvers import assignments as z3_layer
from solvers import smt
from solvers.combat import ONE_TARGET, Assignment, CombatProblem, Contact, Reason
from solvers.combat_oracle import iter_assignments
from solvers.combat_shape import localise
from solvers.combat_z3 import ShapeEncoding

MUST = Reason(("SYN-1",), "must attack")
MUST_BE = Reason(("SYN-2",), "must be attacked")


def synthetic_front(n_attackers: int, n_targets: int, seed: int) -> CombatProblem:
    """A random front: attackers two to a hex, each in contact with one to three neighbouring
    targets; hexsides shared by the two attackers of a hex; limits of two per hexside."""
    rng = random.Random(seed)
    attackers = tuple(f"A{i:02d}" for i in range(n_attackers))
    targets = tuple(f"T{i:02d}" for i in range(n_targets))
    contacts = []
    for i, a in enumerate(attackers):
        centre = i * n_targets // n_attackers
        span = rng.choice((1, 2, 2, 3))
        lo = max(0, min(centre - rng.randrange(span), n_targets - span))
        for t in targets[lo : lo + span]:
            contacts.append(Contact(a, t, f"H{i // 2:02d}/{t}"))
    obliged = rng.sample(attackers, 2 * n_attackers // 3)
    must = rng.sample(targets, n_targets // 3)
    return CombatProblem(
        attackers=attackers,
        targets=targets,
        contacts=tuple(contacts),
        grouping=ONE_TARGET,
        must_attack={a: MUST for a in obliged},
        must_be_attacked={t: MUST_BE for t in must},
        hexside_limits={c.hexside: 2 for c in contacts if c.hexside is not None},
    )


def naive_z3(problem: CombatProblem) -> Iterator[int]:
    """Z3 with blocking clauses on the decision literals: one solver, one model per check."""
    comp = localise(problem, list(problem.attackers), list(problem.targets))
    enc = ShapeEncoding(comp.shape)
    solver = smt.Solver()
    solver.add_text(enc.declarations, [term for term, _ in enc.constraints()])
    n = 0
    while solver.check():
        model = solver.model()
        n += 1
        yield n
        solver.block(enc.lits, model)


def cp_sat(problem: CombatProblem) -> Iterator[int] | None:
    """OR-Tools CP-SAT with a solution callback over the same literals, or None if absent."""
    try:
        from ortools.sat.python import cp_model
    except ImportError:
        return None
    comp = localise(problem, list(problem.attackers), list(problem.targets))
    shape = comp.shape
    model = cp_model.CpModel()
    x = {(a, t): model.new_bool_var(f"x{a}_{t}") for a, t, _ in shape.contacts}
    for a in range(shape.n_attackers):
        mine = [v for (b, _), v in x.items() if b == a]
        model.add(sum(mine) <= 1)
        if a in shape.must_attack:
            model.add(sum(mine) >= 1)
    for t in shape.must_be_attacked:
        model.add(sum(v for (_, u), v in x.items() if u == t) >= 1)
    for h, limit in shape.hexside_limits:
        model.add(sum(x[a, t] for a, t, hh in shape.contacts if hh == h) <= limit)
    found: list[int] = []

    class Collector(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            found.append(1)

    def run() -> Iterator[int]:
        solver = cp_model.CpSolver()
        solver.parameters.enumerate_all_solutions = True
        solver.parameters.num_workers = 1
        solver.parameters.max_time_in_seconds = 2.0
        solver.solve(model, Collector())
        yield from range(1, len(found) + 1)

    return run()


def _first_and_rate(make: Callable[[], Iterator[Any]], limit: int) -> tuple[float, float, int]:
    start = time.perf_counter()
    it = make()
    n = 0
    first = float("nan")
    for _ in it:
        n += 1
        if n == 1:
            first = time.perf_counter() - start
        if n >= limit:
            break
    total = time.perf_counter() - start
    return first, n / total if total > 0 else float("inf"), n


def bench_front(limit: int, seed: int) -> dict[str, Any]:
    problem = synthetic_front(30, 15, seed)
    out: dict[str, Any] = {}
    z3_layer.first(synthetic_front(6, 3, seed))  # load z3 once: a process cost, not a query's

    def z3_cold() -> Iterator[Assignment]:
        z3_layer.clear_cache()
        return z3_layer.assignments(problem)

    out["z3 layer"] = _first_and_rate(z3_cold, limit)
    out["oracle (backtracking)"] = _first_and_rate(lambda: iter_assignments(problem), limit)
    out["z3 naive blocking"] = _first_and_rate(lambda: naive_z3(problem), min(limit, 2000))
    sat = cp_sat(problem)
    if sat is not None:
        # CP-SAT collects within its callback; the time to first is not separable here.
        start = time.perf_counter()
        n = sum(1 for _ in sat)
        total = time.perf_counter() - start
        out["OR-Tools CP-SAT (2 s cap)"] = (float("nan"), n / total, n)
    start = time.perf_counter()
    total_count = z3_layer.count(problem)
    out["count"] = (total_count, time.perf_counter() - start)
    return out


def declare_positions(game: Game[Any, Any], preset: str, games: int, seed: int) -> list[Any]:
    """Combat Phase declaration positions met in random playouts."""
    found: list[Any] = []
    initial = game.initial_state(game.presets()[preset])

    def keep(state: Any, _action: Any, _after: Any) -> None:
        if getattr(state.stage, "value", None) == "declare":
            found.append(state)

    for i in range(games):
        play(game, initial, random.Random(seed + i), on_step=keep)
    return found


def bench_playouts(games: int, seed: int) -> dict[str, Any]:
    from specs.nomonhan.combat_query import declarations
    from specs.nomonhan.declare import legal_declarations
    from tools.registry import get_game

    game = get_game("nomonhan")
    board = game.board  # type: ignore[attr-defined]
    out: dict[str, Any] = {}
    for preset in game.presets():
        states = declare_positions(game, preset, games, seed)
        t0 = time.perf_counter()
        n_oracle = sum(len(legal_declarations(board, s)) for s in states)
        t1 = time.perf_counter()
        z3_layer.clear_cache()
        n_cold = sum(len(declarations(board, s)) for s in states)
        t2 = time.perf_counter()
        n_warm = sum(len(declarations(board, s)) for s in states)
        t3 = time.perf_counter()
        assert n_oracle == n_cold == n_warm
        out[preset] = {
            "positions": len(states),
            "declarations": n_oracle,
            "oracle_sets_per_s": len(states) / (t1 - t0),
            "z3_cold_sets_per_s": len(states) / (t2 - t1),
            "z3_warm_sets_per_s": len(states) / (t3 - t2),
            "cache": dict(z3_layer.stats),
        }
    return out


def render(front: dict[str, Any], playouts: dict[str, Any]) -> str:
    lines = ["combat assignments, synthetic 30 x 15 front (ONE_TARGET, hexside limits):"]
    lines.append(f"  {'method':<28}{'first (ms)':>12}{'assignments/s':>16}{'listed':>10}")
    for name, value in front.items():
        if name == "count":
            continue
        first, rate, n = value
        shown = "-" if first != first else f"{first * 1000:.2f}"
        lines.append(f"  {name:<28}{shown:>12}{rate:>16,.0f}{n:>10,}")
    count, seconds = front["count"]
    lines.append(f"  exact count {count:,} in {seconds * 1000:.1f} ms (without listing)")
    lines.append("combat declarations on positions from random Nomonhan playouts:")
    lines.append(
        f"  {'preset':<8}{'positions':>10}{'oracle sets/s':>15}{'z3 cold/s':>12}{'z3 warm/s':>12}"
        f"{'warm/oracle':>13}"
    )
    for preset, r in playouts.items():
        lines.append(
            f"  {preset:<8}{r['positions']:>10}{r['oracle_sets_per_s']:>15,.0f}"
            f"{r['z3_cold_sets_per_s']:>12,.0f}{r['z3_warm_sets_per_s']:>12,.0f}"
            f"{r['z3_warm_sets_per_s'] / r['oracle_sets_per_s']:>13.2f}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench_combat", description=__doc__)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    front = bench_front(2000 if args.quick else 20000, args.seed)
    playouts = bench_playouts(10 if args.quick else 40, args.seed)
    print(render(front, playouts))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
