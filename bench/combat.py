"""Benchmark of combat-assignment generation: Z3 layer, plain oracle, naive Z3, OR-Tools CP-SAT.

`python -m bench.combat [--quick]` measures, in CPU time (`time.process_time`: other work
shares the machine), numbers to compare between runs on one machine, never pass/fail:
- a synthetic front of 30 attackers against 15 targets (ONE_TARGET grouping, two attackers per
  hex, at most two attackers across a hexside, two thirds of the attackers obliged, a third of
  the targets that must be attacked): time to the first assignment and assignments listed per
  second, for each method;
- dense contact components: the same generator at 4 to 16 attackers against half as many
  targets, all in one component, under many-to-many grouping and one defender per combat. For
  each: how many assignments there are (`count`, and its time), the Z3 layer's and the
  oracle's rate of listing them, cold (caches emptied: the solver is built) and warm, and the
  time to the first assignment. A run stops at a cap on assignments or on CPU time; a method
  that lists nothing within the time cap shows 0. Each figure is the best of a few runs;
- the Combat Phases met in random Nomonhan playouts: whole declaration sets served per second by
  the Z3 layer (warm cache, as in play, and cold) against the oracle `legal_declarations`.
CP-SAT is measured when `ortools` is installed (`pip install -e '.[bench]'`).
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import time
from collections.abc import Callable, Iterator
from typing import Any

import attrs

from kernel.game import Game
from kernel.playout import play
from solvers import smt
from solvers.queries import assignments as z3_layer
from solvers.queries.combat import MANY, ONE_TARGET, Assignment, CombatProblem, Contact, Reason
from solvers.queries.combat_oracle import iter_assignments
from solvers.queries.combat_shape import localise, split
from solvers.queries.combat_z3 import ShapeEncoding

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


def _first_and_rate(
    make: Callable[[], Iterator[Any]], limit: int, budget: float = 5.0
) -> tuple[float, float, int]:
    """(CPU seconds to the first item, items per CPU second, items) listing at most `limit`
    items, or what was listed once `budget` CPU seconds have passed (checked between items)."""
    start = time.process_time()
    n = 0
    first = float("nan")
    for _ in make():
        n += 1
        if n == 1:
            first = time.process_time() - start
        if n >= limit or time.process_time() - start > budget:
            break
    total = time.process_time() - start
    return first, n / total if total > 0 else float("inf"), n


def _in_child(
    make: Callable[[], Iterator[Any]], limit: int, budget: float
) -> tuple[float, float, int]:
    """`_first_and_rate` in a forked process, killed when it is still working long after
    `budget` (the oracle's precomputation on a big component yields nothing for minutes, and a
    CPU-time alarm would coarsen this process's CPU clock to the scheduler tick)."""
    ctx = multiprocessing.get_context("fork")
    receive, send = ctx.Pipe(duplex=False)

    def run() -> None:
        send.send(_first_and_rate(make, limit, budget))

    child = ctx.Process(target=run, daemon=True)
    child.start()
    got = receive.poll(budget * 8 + 5)  # wall time: the machine is shared
    result: tuple[float, float, int] = receive.recv() if got else (float("nan"), 0.0, 0)
    if child.is_alive():
        child.kill()
    child.join()
    return result


def _best(runs: list[tuple[float, float, int]]) -> tuple[float, float, int]:
    """The best of repeated runs: the least time to the first, the highest rate."""
    firsts = [f for f, _, _ in runs if f == f]
    return (min(firsts) if firsts else float("nan"), max(r for _, r, _ in runs), runs[0][2])


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
    z3_layer.clear_cache()
    start = time.process_time()
    total_count = z3_layer.count(problem)
    out["count"] = (total_count, time.process_time() - start)
    return out


def dense_component(units: int, grouping: str, seed: int = 1) -> CombatProblem:
    """`units` attackers against half as many targets, in one contact component: the front
    generator (`synthetic_front`) with the first seed from `seed` that joins them all."""
    for s in range(seed, seed + 100):
        problem = attrs.evolve(synthetic_front(units, max(1, units // 2), s), grouping=grouping)
        if len(split(problem)) == 1:
            return problem
    raise ValueError(f"no seed joins {units} attackers in one component")


DENSE_SIZES = (4, 6, 8, 10, 12, 14, 16)


def _cold(problem: CombatProblem) -> Callable[[], Iterator[Assignment]]:
    def make() -> Iterator[Assignment]:
        z3_layer.clear_cache()
        return z3_layer.assignments(problem)

    return make


def _warm(problem: CombatProblem) -> Callable[[], Iterator[Assignment]]:
    return lambda: z3_layer.assignments(problem)


def _oracle(problem: CombatProblem) -> Callable[[], Iterator[Assignment]]:
    return lambda: iter_assignments(problem)


def bench_dense(
    sizes: tuple[int, ...], limit: int, budget: float, repeats: int
) -> list[dict[str, Any]]:
    """Both groupings at each size: the count, and each method's listing, cold and warm."""
    out: list[dict[str, Any]] = []
    for grouping in (MANY, ONE_TARGET):
        for units in sizes:
            problem = dense_component(units, grouping)
            z3_layer.clear_cache()
            start = time.process_time()
            total = z3_layer.count(problem)
            counted = time.process_time() - start
            cold: list[tuple[float, float, int]] = []
            warm: list[tuple[float, float, int]] = []
            oracle: list[tuple[float, float, int]] = []
            for i in range(repeats):
                cold.append(_first_and_rate(_cold(problem), limit, budget))
                warm.append(_first_and_rate(_warm(problem), limit, budget))
                if i == 0 or oracle[-1][2] == min(limit, total):  # a capped run is not repeated
                    oracle.append(_in_child(_oracle(problem), limit, budget))
            out.append(
                {
                    "grouping": grouping,
                    "units": units,
                    "targets": len(problem.targets),
                    "assignments": total,
                    "count_s": counted,
                    "z3_cold": _best(cold),
                    "z3_warm": _best(warm),
                    "oracle": _best(oracle),
                }
            )
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


def bench_playouts(games: int, seed: int, repeats: int = 3) -> dict[str, Any]:
    from specs.nomonhan.rules.combat_query import declarations
    from specs.nomonhan.rules.declare import legal_declarations
    from tools.registry import get_game

    game = get_game("nomonhan")
    board = game.rules.board  # type: ignore[attr-defined]
    out: dict[str, Any] = {}
    for preset in game.presets():
        states = declare_positions(game, preset, games, seed)
        best = [float("inf")] * 3
        for _ in range(repeats):
            t0 = time.process_time()
            n_oracle = sum(len(legal_declarations(board, s)) for s in states)
            t1 = time.process_time()
            z3_layer.clear_cache()
            n_cold = sum(len(declarations(board, s)) for s in states)
            t2 = time.process_time()
            n_warm = sum(len(declarations(board, s)) for s in states)
            t3 = time.process_time()
            assert n_oracle == n_cold == n_warm
            best = [min(b, t) for b, t in zip(best, (t1 - t0, t2 - t1, t3 - t2), strict=True)]
        out[preset] = {
            "positions": len(states),
            "declarations": n_oracle,
            "oracle_sets_per_s": len(states) / best[0],
            "z3_cold_sets_per_s": len(states) / best[1],
            "z3_warm_sets_per_s": len(states) / best[2],
            "cache": dict(z3_layer.stats),
        }
    return out


def _ms(seconds: float) -> str:
    return "-" if seconds != seconds else f"{seconds * 1000:.2f}"


def _ratio(a: float, b: float) -> str:
    if b <= 0 or a != a or b != b:
        return "-"
    r = a / b
    return f"{r:.2f}" if r < 100 else f"{r:.0f}"


def _rate(r: float) -> str:
    return f"{r:,.0f}" if r >= 10 else f"{r:.2f}"


def render(front: dict[str, Any], dense: list[dict[str, Any]], playouts: dict[str, Any]) -> str:
    lines = ["combat assignments, synthetic 30 x 15 front (ONE_TARGET, hexside limits), CPU time:"]
    lines.append(f"  {'method':<28}{'first (ms)':>12}{'assignments/s':>16}{'listed':>10}")
    for name, value in front.items():
        if name == "count":
            continue
        first, rate, n = value
        lines.append(f"  {name:<28}{_ms(first):>12}{rate:>16,.0f}{n:>10,}")
    count, seconds = front["count"]
    lines.append(f"  exact count {count:,} in {seconds * 1000:.1f} ms (without listing)")
    lines.append(
        "dense contact components (one component: n attackers, n/2 targets), CPU time, "
        "assignments listed per second cold (caches emptied) and warm:"
    )
    lines.append(
        f"  {'grouping':<10}{'units':>6}{'assignments':>15}{'count ms':>10}"
        f"{'oracle/s':>11}{'z3 cold/s':>11}{'z3 warm/s':>11}{'cold/or':>9}{'warm/or':>9}"
        f"{'z3 1st ms':>11}{'or 1st ms':>11}"
    )
    for r in dense:
        o_first, o_rate, _ = r["oracle"]
        c_first, c_rate, _ = r["z3_cold"]
        _, w_rate, _ = r["z3_warm"]
        name = "many" if r["grouping"] == MANY else "one-def"
        lines.append(
            f"  {name:<10}{r['units']:>6}{r['assignments']:>15,}{r['count_s'] * 1000:>10.1f}"
            f"{_rate(o_rate):>11}{_rate(c_rate):>11}{_rate(w_rate):>11}"
            f"{_ratio(c_rate, o_rate):>9}{_ratio(w_rate, o_rate):>9}"
            f"{_ms(c_first):>11}{_ms(o_first):>11}"
        )
    lines.append("combat declarations on positions from random Nomonhan playouts, CPU time:")
    lines.append(
        f"  {'preset':<8}{'positions':>10}{'oracle sets/s':>15}{'z3 cold/s':>12}{'z3 warm/s':>12}"
        f"{'cold/oracle':>13}{'warm/oracle':>13}"
    )
    for preset, r in playouts.items():
        lines.append(
            f"  {preset:<8}{r['positions']:>10}{r['oracle_sets_per_s']:>15,.0f}"
            f"{r['z3_cold_sets_per_s']:>12,.0f}{r['z3_warm_sets_per_s']:>12,.0f}"
            f"{r['z3_cold_sets_per_s'] / r['oracle_sets_per_s']:>13.2f}"
            f"{r['z3_warm_sets_per_s'] / r['oracle_sets_per_s']:>13.2f}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.combat", description=__doc__)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    front = bench_front(2000 if args.quick else 20000, args.seed)
    dense = bench_dense(
        DENSE_SIZES,
        limit=1000 if args.quick else 5000,
        budget=1.0 if args.quick else 5.0,
        repeats=1 if args.quick else 3,
    )
    playouts = bench_playouts(10 if args.quick else 40, args.seed, repeats=1 if args.quick else 3)
    print(render(front, dense, playouts))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
