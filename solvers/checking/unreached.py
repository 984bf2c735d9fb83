"""Clauses no play reaches: which clauses the code that plays a game cites but no seeded
playout enters (`unreached_clauses`, measured by `solvers.checking.reach`), each then put to
Z3 over the preset's symbolic model (`settle_unreached`): reached (with a log), proved never to
take effect (a candidate gap), or left a candidate for a human to judge.

Works on any game through the kernel contract.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import random
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from kernel.errors import WargameError
from kernel.game import Game
from kernel.playout import play, random_agent
from kernel.roles import AssembledGame, rules_of
from kernel.variants import Variant
from solvers import smt
from solvers.checking import reach
from solvers.checking.bounded_search import MODEL_RLIMIT, proved_invariants
from solvers.checking.differences import Json, replayed
from solvers.checking.model_reach import clause_reach
from solvers.checking.model_search import ModelSource, model_of
from solvers.checking.refinement import replayed_from

UNREACHED_SECONDS = 30.0  # all the clauses no play reached, together

# Modules that describe, check or explain the rules rather than play them: their citations
# are metadata (a property's clauses, an option's, a data fact's, a refusal of a malformed
# document, a query's explanation, the Z3 model's step rules), so no run of play reaches them
# and they are not sites of clause reach. A clause cited only there is not a play candidate.
_NOT_PLAY = (
    "codec",
    "data",
    "describe",
    "facts",
    "invariants",
    "observe",
    "position",
    "properties",
    "scene",
    "symbolic",
    "validate",
    "variants",
    "verification",
    "wire",
)


@attrs.frozen
class Unreached:
    """A clause no seeded play reached, and what Z3 over the symbolic model says of it under
    one preset: "reached" (with a log of the rules' actions to a position where it takes
    effect: play was not varied enough), "never" (proved: its precondition holds in no
    reachable position, a candidate gap), or "candidate" (nothing settled)."""

    clause: str
    preset: str
    verdict: str
    detail: str
    log: tuple[Json, ...] = ()
    state: Json = None
    seconds: float = 0.0
    limit: str = ""  # what left a candidate unsettled: "depth" | "rlimit" | "budget"


def settle_unreached(
    game: AssembledGame[Any, Any],
    clauses: Sequence[str],
    models: ModelSource | None,
    budget: float | None,
    *,
    depth: int = 24,
    rlimit: int = MODEL_RLIMIT,
    total_budget: float | None = None,
    why: Mapping[str, str] | None = None,
) -> list[Unreached]:
    """Each clause no play reached, put to Z3 over each preset's symbolic model: bounded model
    checking to at most `depth` steps, each check within `rlimit`, and no new depth started
    `budget` seconds into a clause (None: the deterministic limits only, as tests use; see
    `solvers.checking.bounded_search`). `total_budget` bounds all the checks together: each gets at
    most an even share of what is left, so a long list stays within it. `why`: what the
    searches before Z3 found of each clause (`solvers.checking.steer_reach`), added to the
    detail of a clause left a candidate, so every one says why nothing reached it."""
    out: list[Unreached] = []
    checks = len(clauses) * len(game.presets())
    end = None if total_budget is None else time.perf_counter() + total_budget
    for clause in clauses:
        for preset, variant in game.presets().items():
            checks -= 1
            model = None if models is None else _any_model(models, variant)
            if model is None:
                out.append(Unreached(clause, preset, "candidate", "no symbolic model to ask"))
                continue
            over = "" if model.exact else " (an abstraction: it may do more than the rules)"
            share = budget
            if end is not None:
                even = max(0.0, end - time.perf_counter()) / (checks + 1)
                share = even if share is None else min(share, even)
            deadline = None if share is None else time.perf_counter() + share
            try:
                with smt.wall_clock(deadline):  # the model's checks only, never the rules'
                    r = clause_reach(
                        model.system,
                        clause,
                        max_depth=depth,
                        budget=share,
                        invariants=functools.partial(
                            proved_invariants, model.system, model.formal()
                        ),
                        rlimit=rlimit,
                    )
            except WargameError as exc:
                out.append(Unreached(clause, preset, "candidate", f"Z3 failed: {exc.message}"))
                continue
            if r.verdict == "reached" and not model.exact:
                # where an abstraction's step may apply the clause, the rules' need not
                out.append(
                    Unreached(
                        clause,
                        preset,
                        "candidate",
                        f"{r.detail}{over}: a step of the model citing it is possible there; "
                        "not shown to take effect in the rules",
                        seconds=r.seconds,
                    )
                )
            elif r.verdict == "reached" and r.trace is not None:
                initial = game.initial_state(variant)
                try:
                    actions = replayed_from(game, model, initial, r.trace)
                except ValueError as exc:
                    out.append(Unreached(clause, preset, "candidate", f"{r.detail}{over}: {exc}"))
                    continue
                state = replayed(game, initial, actions)
                log = tuple(game.action_to_json(a) for a in actions)
                detail = f"Z3 over the symbolic model ({r.detail}): play was not varied enough"
                out.append(
                    Unreached(
                        clause,
                        preset,
                        "reached",
                        detail,
                        log,
                        game.state_to_json(state),
                        r.seconds,
                    )
                )
            elif r.verdict == "never":  # sound on an abstraction too: it does all the rules do
                out.append(Unreached(clause, preset, "never", r.detail + over, seconds=r.seconds))
            else:
                out.append(
                    Unreached(
                        clause, preset, "candidate", r.detail, seconds=r.seconds, limit=r.limit
                    )
                )
    said = why or {}
    return [
        attrs.evolve(u, detail=f"{u.detail}; {said[u.clause]}")
        if u.verdict == "candidate" and u.clause in said
        else u
        for u in out
    ]


_ABSTRACT: dict[tuple[Any, Variant], Any] = {}  # built once per preset and run


def _any_model(models: ModelSource, variant: Variant) -> Any:
    """The preset's symbolic model, exact or an abstraction (`exact` False: every step of the
    rules is one of its steps, so a clause it never reaches the rules never reach, and a path
    it finds is kept only where the rules replay it); None when the spec has none."""
    model = model_of(models, variant)
    if model is not None:
        return model
    key = (models, variant)
    if key not in _ABSTRACT:
        try:
            _ABSTRACT[key] = models(variant)
        except WargameError:
            _ABSTRACT[key] = None
    return _ABSTRACT[key]


def prefixes(game: Game[Any, Any]) -> tuple[str, ...] | None:
    """The game's clause index prefixes, as its own clauses name them (NOM for Nomonhan)."""
    own = getattr(game, "nontermination_clauses", ())
    return tuple(sorted({c.split("-")[0] for c in own})) or None


def _plays(path: str) -> bool:
    stem = Path(path).stem
    return not stem.startswith((*_NOT_PLAY, "test_", "conftest"))


def seeded_play(
    game: AssembledGame[Any, Any], seeds: int = 20, deadline: float | None = None
) -> Callable[[], None]:
    """Random play of every preset from seeds 0 to `seeds` - 1, the presets in turn: what
    clause reach measures. Once `deadline` (a `time.perf_counter()` value; None: none) has
    passed, no new game is started, after one game per preset, and a game in progress ends
    at its next step (a long game measured line by line is slow: it would overrun)."""

    def late(before: Any, action: Any, after: Any) -> None:
        if deadline is not None and time.perf_counter() > deadline:
            raise _Late

    def run() -> None:
        initials = [game.initial_state(v) for v in game.presets().values()]
        agents = dict.fromkeys(game.sides, random_agent)
        for seed in range(seeds):
            if seed and deadline is not None and time.perf_counter() > deadline:
                return
            for initial in initials:
                try:
                    play(game, initial, random.Random(seed), agents, on_step=late)
                except _Late:
                    continue  # the next preset's first game still starts

    return run


class _Late(Exception):
    """Seeded play's deadline passed in the middle of a game."""


def _dispatcher(game: Game[Any, Any]) -> tuple[Path, str]:
    """The file and module of the game's `Game` class (its `game.py`, beside `rules/`)."""
    rules = rules_of(game)
    return Path(inspect.getfile(type(rules))).resolve(), type(rules).__module__


def play_modules(game: Game[Any, Any]) -> dict[str, str]:
    """The modules that play the rules, by file: the `Game` dispatcher and the `rules/`
    package beside it, as against what describes, checks or draws them (`io/`, `data/`,
    `formal/`), less modules named like those (`_NOT_PLAY`) and test modules beside a toy."""
    dispatcher, module = _dispatcher(game)
    package = module.rpartition(".")[0]
    out = {str(dispatcher): module} if _plays(str(dispatcher)) else {}
    for path in sorted((dispatcher.parent / "rules").glob("*.py")):
        if _plays(str(path)):
            stem = "" if path.stem == "__init__" else f".{path.stem}"
            out[str(path)] = f"{package}.rules{stem}"
    return out


def game_sources(game: Game[Any, Any]) -> tuple[str, ...]:
    """The source files that play runs (`play_modules`)."""
    return tuple(sorted(play_modules(game)))


def measured_play(
    game: Game[Any, Any], play_games: Callable[[], None]
) -> tuple[reach.Sites, dict[str, set[int]]]:
    """The game's clause sites, and the lines of its rules that `play_games` runs (their memo
    caches emptied first, so cached rules run again rather than being read)."""
    modules = play_modules(game)
    reach.clear_caches(importlib.import_module(m) for m in modules.values())
    ran = reach.lines_run(sorted(modules), play_games)
    return reach.sites_of(tuple(sorted(modules)), prefixes(game)), ran


def unreached_clauses(game: AssembledGame[Any, Any], play_games: Callable[[], None]) -> list[str]:
    """Clause IDs the game's code cites where a rule takes effect (`solvers.checking.reach`: the
    branch
    that applies it, the refusal that names it) whose statements `play_games` never ran, and
    the clauses its docstrings cite but no branch does: candidates for rules whose
    precondition never holds in play (to be judged by a human: the play may simply not have
    been long or varied enough)."""
    sites, ran = measured_play(game, play_games)
    return sorted(sites.cited - reach.reached(sites, ran))
