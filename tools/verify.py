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
the one the spec expects. The command itself (its arguments, the worker processes, the table)
is `tools.verify_command`.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path
from typing import Any, cast

import attrs

from kernel.playout import CycleWatch, Playout, play
from kernel.properties import Property
from kernel.roles import AssembledGame
from solvers.checking import prover, refinement
from solvers.checking.verdicts import Trace
from solvers.checking.verification import SpecVerification, SymbolicModel
from tools import game_logs
from tools.registry import get_game, package_of

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
    trace: Trace,
    actions: list[Any],
) -> list[Any]:
    """The witness actions, with the loop repeated until the concrete positions repeat too (the
    projection may leave out something the loop changes)."""
    assert trace.loop is not None
    loop = Trace(trace.states[trace.loop :], trace.steps[trace.loop :])
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
    log = game_logs.make_log(game, variant, seed, playout)
    path = witness_dir / f"{game.name}-{preset}-{row.id}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    game_logs.write_log(path, log, argument="--witnesses")
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


def verify_batch(
    tasks: list[tuple[str, str, str]], witness_dir: str
) -> list[Row | Refinement | None]:
    return [verify_one(*task, witness_dir) for task in tasks]
