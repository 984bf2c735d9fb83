"""`wargame verify [GAME] [--preset P] [--json]`: each game's declared properties, proved or
refuted under each preset, and the refinement check that ties the proofs to the code.

A game's spec package declares its properties in a `verification` module (see
`solvers.checking.verification`). With a symbolic model for the variant, the prover gives each
property
a verdict: proved, refuted with a witness game, or unknown. A refuted property's witness is
turned into an action log from the initial position that the Python rules accept, written where
`wargame play --replay` can read it. Without a symbolic model the properties are only checked on
seeded playouts, and the table says so ("tested", never "proved"). A model that is an
abstraction (`SymbolicModel.exact` False) proves "over an abstraction": its refinement check is
direction (a) alone, and a counterexample over it counts only once a concrete game replays
it (else the verdict is unknown). The exit code is 1 when a verdict is unknown or differs from
the one the spec expects.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import multiprocessing
import os
import random
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

import attrs

from kernel.codec import dump_json
from kernel.errors import InvalidInput, WargameError
from kernel.playout import CycleWatch, Playout, play
from kernel.properties import Property
from kernel.roles import AssembledGame
from solvers.checking import prover, refinement
from solvers.checking.verification import SpecVerification, SymbolicModel
from tools import playlog
from tools.registry import game_names, get_game, package_of

SIMULATED_GAMES = 40  # seeded playouts searched for a witness when bounded search finds none
TESTED_GAMES = 20  # playouts per preset for a game without a symbolic model
REFINEMENT_GAMES = 4  # quick refinement run per preset (the test suite runs hundreds)
ABSTRACT_REFINEMENT_GAMES = 1  # an abstraction's: its games are long (SNC: 2,176 steps)
ABSTRACT_REFINEMENT_STEPS = 1_000  # and its first 1,000 steps (the test suite plays others)
REFINEMENT_EVERY = 40  # compare successors in direction (b) at every 40th position


@attrs.frozen
class Row:
    """One property under one preset."""

    game: str
    preset: str
    id: str
    clauses: tuple[str, ...]
    statement: str
    expected: str
    verdict: str  # proved | refuted | unknown | tested
    method: str
    detail: str
    seconds: float
    witness: dict[str, Any] | None = None
    witness_path: str | None = None

    @property
    def ok(self) -> bool:
        if self.expected == "holds":
            return self.verdict in ("proved", "tested")
        return self.verdict == "refuted"

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "preset": self.preset,
            "property": self.id,
            "clauses": list(self.clauses),
            "statement": self.statement,
            "expected": self.expected,
            "verdict": self.verdict,
            "ok": self.ok,
            "method": self.method,
            "detail": self.detail,
            "seconds": round(self.seconds, 2),
            "witness": None
            if self.witness is None
            else {"path": self.witness_path, "log": self.witness},
        }


@attrs.frozen
class Refinement:
    game: str
    preset: str
    games: int
    steps: int
    positions: int
    successors: int
    seconds: float
    mismatches: tuple[str, ...]
    exact: bool = True  # False: an abstraction, checked in direction (a) only

    def to_json(self) -> dict[str, Any]:
        return {**attrs.asdict(self), "seconds": round(self.seconds, 2), "ok": not self.mismatches}


def spec_verification(game: AssembledGame[Any, Any]) -> SpecVerification | None:
    """The verification link the game's package declares (`GamePackage.formal`), if any."""
    package = package_of(game)
    formal = None if package is None else package.formal
    return None if formal is None else cast(SpecVerification, formal())


REFINEMENT = "refinement"  # the task that runs the quick refinement check


def verify_one(name: str, preset: str, what: str, witness_dir: str) -> Row | Refinement | None:
    """One property (by ID) of one game under one preset, or its quick refinement check (run
    in a worker process; models and their formulas are cached per process)."""
    game = get_game(name)
    spec = spec_verification(game)
    if spec is None:
        return None
    model = spec.symbolic_model(game.presets()[preset])
    _progress(f"{name} {preset} {what}")
    if what == REFINEMENT:
        if model is None:
            return None
        # an abstraction: direction (a) only, on one game (its test suite plays others)
        every = REFINEMENT_EVERY if model.exact else 0
        games = REFINEMENT_GAMES if model.exact else ABSTRACT_REFINEMENT_GAMES
        steps = refinement.MAX_STEPS if model.exact else ABSTRACT_REFINEMENT_STEPS
        report = refinement.run(game, model, preset, games=games, every=every, max_steps=steps)
        return Refinement(
            name,
            preset,
            report.games,
            report.steps,
            report.positions,
            report.successors,
            report.seconds,
            tuple(str(m) for m in report.mismatches),
            model.exact,
        )
    prop = next(p for p in spec.properties() if p.id == what)
    formal = None if model is None else model.formal().get(prop.id)
    if model is not None and formal is not None:
        return _prove(game, model, preset, prop, formal, Path(witness_dir))
    return _test(game, preset, prop, Path(witness_dir))


def _prove(
    game: AssembledGame[Any, Any],
    model: SymbolicModel,
    preset: str,
    prop: Property,
    formal: prover.Formal,
    witness_dir: Path,
) -> Row:
    paths = refinement.playout_paths(game, model, preset, games=SIMULATED_GAMES)
    v = prover.check(model.system, formal, paths=paths)
    if not model.exact:  # proved over an abstraction; its counterexamples are candidates
        v = attrs.evolve(v, method=f"{v.method} over an abstraction")
    row = Row(
        game.name,
        preset,
        prop.id,
        prop.clauses,
        prop.statement,
        prop.expected.get(preset, "?"),
        v.status,
        v.method,
        v.detail,
        v.seconds,
    )
    if v.status != "refuted" or v.trace is None:
        return row
    try:
        actions = refinement.replayed(game, model, preset, v.trace)
        if v.trace.loop is not None:
            actions = _concrete_lasso(game, model, preset, v.trace, actions)
        elif actions and _holds_at_end(game, preset, prop, actions):
            raise ValueError("the replayed game does not break the property's concrete check")
    except ValueError as exc:
        return attrs.evolve(row, verdict="unknown", detail=f"witness not confirmed: {exc}")
    return _with_witness(game, preset, row, actions, witness_dir)


def _holds_at_end(
    game: AssembledGame[Any, Any], preset: str, prop: Property, actions: list[Any]
) -> bool:
    """The concrete check still holds after the witness's last step."""
    before = _final(game, preset, actions[:-1])
    after = game.apply(before, actions[-1])
    return prop.holds_in(after) and prop.holds_on(before, actions[-1], after)


def _concrete_lasso(
    game: AssembledGame[Any, Any],
    model: SymbolicModel,
    preset: str,
    trace: prover.Trace,
    actions: list[Any],
) -> list[Any]:
    """The witness actions, with the loop repeated until the concrete positions repeat too (the
    projection may leave out something the loop changes)."""
    assert trace.loop is not None
    loop = prover.Trace(trace.states[trace.loop :], trace.steps[trace.loop :])
    for _ in range(3):
        if _lasso(game, preset, actions) is not None:
            return actions
        actions = actions + refinement.replayed_from(
            game, model, _final(game, preset, actions), loop
        )
    raise ValueError("the loop does not bring the concrete game back to a position")


def _final(game: AssembledGame[Any, Any], preset: str, actions: list[Any]) -> Any:
    state = game.initial_state(game.presets()[preset])
    for a in actions:
        state = game.apply(state, a)
    return state


def _lasso(game: AssembledGame[Any, Any], preset: str, actions: list[Any]) -> Any:
    state = game.initial_state(game.presets()[preset])
    watch = CycleWatch(state)
    for a in actions:
        state = game.apply(state, a)
        watch.see(state)
    return watch.lasso


def _with_witness(
    game: AssembledGame[Any, Any],
    preset: str,
    row: Row,
    actions: list[Any],
    witness_dir: Path,
    seed: int | None = None,
) -> Row:
    """Row with the witness as a game log (JSON) written to `witness_dir`. Its agent is the
    seeded random agent when the actions are a seeded playout's (`seed`), so a replay proves
    them; else `external` (a solver chose them), checked for legality only."""
    variant = game.presets()[preset]
    state = game.initial_state(variant)
    watch = CycleWatch(state)
    for a in actions:
        state = game.apply(state, a)
        watch.see(state)
    over = game.to_move(state) is None
    endless = watch.lasso is not None and not over
    playout = Playout(
        tuple(actions),
        state,
        game.outcome(state),
        "ended" if over else "step_limit" if endless else "position",
        game.nontermination_clauses if endless else (),
        watch.lasso,
    )
    log = playlog.make_log(game, variant, seed, playout)
    path = witness_dir / f"{game.name}-{preset}-{row.id}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    playlog.write_log(path, log, argument="--witnesses")
    detail = f"{row.detail}; witness: {len(actions)} actions"
    return attrs.evolve(row, witness=log.to_json(), witness_path=str(path), detail=detail)


def _test(game: AssembledGame[Any, Any], preset: str, prop: Property, witness_dir: Path) -> Row:
    """A property without a formal statement, checked on seeded playouts (not a proof)."""
    start = time.perf_counter()
    expected = prop.expected.get(preset, "?")

    def row(verdict: str, method: str, detail: str) -> Row:
        seconds = time.perf_counter() - start
        return Row(
            game.name,
            preset,
            prop.id,
            prop.clauses,
            prop.statement,
            expected,
            verdict,
            method,
            detail,
            seconds,
        )

    for seed in range(TESTED_GAMES):
        actions, result = _checked_playout(game, preset, prop, seed)
        if result is None:
            found = row(
                "refuted", f"playout (seed {seed}, step {len(actions)})", "a playout breaks it"
            )
            return _with_witness(game, preset, found, actions, witness_dir, seed)
        if prop.kind == "ends" and result.lasso is not None:
            found = row("refuted", f"playout lasso (seed {seed})", "play returns to a position")
            witness = actions[: result.lasso.end]
            return _with_witness(game, preset, found, witness, witness_dir, seed)
    how = f"{TESTED_GAMES} seeded playouts"
    if prop.kind == "ends":
        return row("unknown", how, "no symbolic model, and no lasso in the playouts")
    return row("tested", how, "no counterexample found (a test, not a proof)")


def _checked_playout(
    game: AssembledGame[Any, Any], preset: str, prop: Property, seed: int
) -> tuple[list[Any], Playout[Any, Any] | None]:
    """A seeded playout's actions, and its result (None: it broke the property at the last
    action). A game's properties share their playouts: each is played once per process, and
    replayed once with every property checked at every step."""
    actions, result, broken = _checked_playouts(game, preset, seed)
    at = broken.get(prop.id)
    if at is None:
        return actions, result
    return actions[: at + 1], None


_PLAYOUTS: dict[tuple[str, str, int], tuple[list[Any], Playout[Any, Any], dict[str, int]]] = {}


def _checked_playouts(
    game: AssembledGame[Any, Any], preset: str, seed: int
) -> tuple[list[Any], Playout[Any, Any], dict[str, int]]:
    """The seeded random playout of `game` under `preset` (its actions, not its states), and
    for each declared property broken in it the index of the first action that breaks it."""
    key = (game.name, preset, seed)
    known = _PLAYOUTS.get(key)
    if known is None:
        spec = spec_verification(game)
        props = list(spec.properties()) if spec is not None else []
        actions: list[Any] = []
        broken: dict[str, int] = {}

        def on_step(before: Any, action: Any, after: Any) -> None:
            actions.append(action)
            for p in props:
                if p.id not in broken and not (
                    p.holds_in(after) and p.holds_on(before, action, after)
                ):
                    broken[p.id] = len(actions) - 1

        start = game.initial_state(game.presets()[preset])
        result = play(game, start, random.Random(seed), on_step=on_step, max_steps=2000)
        known = _PLAYOUTS[key] = (actions, result, broken)
    return known


def _progress(text: str) -> None:
    """The task a worker starts, on a terminal only: quiet in logs and CI."""
    if sys.stderr.isatty():
        sys.stderr.write(f"verify: {text}\n")
        sys.stderr.flush()


# --- the command ---------------------------------------------------------------------------------


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


def verify_batch(
    tasks: list[tuple[str, str, str]], witness_dir: str
) -> list[Row | Refinement | None]:
    return [verify_one(*task, witness_dir) for task in tasks]


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
