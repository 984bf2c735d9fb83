"""The gap search: where the text leaves the players stuck, lets play go on for ever, or has
rules that never take effect.

- positions where the side to move has no legal action although the game is not over, from
  seeded play under each preset and, under readings no preset uses, at the differential
  search's witness positions (`stuck_readings`): the rules demand something no action meets;
- play that can go on without end (a repeated position);
- clauses whose implementing code no play reached (`unreached_clauses`), each then put to Z3
  over the preset's symbolic model (`settle_unreached`): reached (with a log), proved never to
  take effect, or left a candidate for a human to judge.

Works on any game through the kernel contract.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import random
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import attrs

from kernel.clauses import clause_ids
from kernel.errors import WargameError
from kernel.game import CHANCE, Game
from kernel.playout import play, random_agent
from kernel.roles import AssembledGame, rules_of
from kernel.variants import Variant
from solvers import smt
from solvers.checking import reach
from solvers.checking.differences import Finding, Json, rebind, start_state
from solvers.checking.explore import reading_variant
from solvers.checking.explore_model import MODEL_RLIMIT, proved_invariants
from solvers.checking.model_reach import clause_reach, stuck_reach
from solvers.checking.model_search import ModelSource, model_of
from solvers.checking.refinement import replayed_from

# explore's slack beyond its pairs' budgets (its gap search's play takes the rest)
PLAY_SECONDS = 20.0  # the gap search's play and the seeded play clause reach is measured over
UNREACHED_SECONDS = 30.0  # all the clauses no play reached, together
STUCK_SECONDS = 12.0  # the model query for stuck positions, all its variants together


@attrs.frozen
class Gap:
    kind: str  # "no_action" | "endless"
    preset: str
    clauses: tuple[str, ...]
    message: str
    log: tuple[Json, ...] = ()
    state: Json = None
    seconds: float = 0.0
    reading: tuple[str, str] | None = None  # (option, reading) overriding the preset
    # where `log` starts (state JSON under `variant`): a witness's set-up with units removed
    # (solvers.checking.shrink); None: the preset's set-up
    start: Json = None
    start_after: int = 0  # the actions of play before `start` was made (`Witness.start_after`)
    removed: tuple[str, ...] = ()  # the units taken off there (`Witness.removed`)

    def variant(self, game: AssembledGame[Any, Any]) -> Variant:
        """The variant the gap was found under."""
        if self.reading is None:
            return game.presets()[self.preset]
        return reading_variant(game.catalogue, self.preset, *self.reading)

    @property
    def under(self) -> str:
        """The preset, and the reading that overrides it, as words."""
        return _under(self.preset, self.reading)


def _under(preset: str, reading: tuple[str, str] | None) -> str:
    return preset if reading is None else f"{preset} with {reading[0]}={reading[1]}"


def stuck_readings(
    game: AssembledGame[Any, Any], findings: Sequence[Finding], *, successors: int = 200
) -> list[Gap]:
    """Witness positions, and the positions one action past them (at most `successors` per
    witness and reading), where one reading leaves the side to move without a legal action,
    the game not over: under that reading the rules demand something no action satisfies. A
    witness log can stop one action short of such a position. The differential search finds
    these under readings no preset uses; each distinct one (by reading and clauses) is kept."""
    out = []
    seen: set[tuple[str, str, tuple[str, ...]]] = set()
    cat = game.catalogue
    for f in findings:
        if f.witness is None:
            continue
        for reading in (f.reading_a, f.reading_b):
            variant = reading_variant(cat, f.preset, f.option, reading)
            state = rebind(game, game.state_from_json(f.witness.state), variant)
            # the gap's log starts where the witness's does, read under this reading
            start = (
                None
                if f.witness.start is None
                else game.state_to_json(start_state(game, variant, f.witness.start))
            )
            for log, stuck in _stuck_at_or_after(game, state, f.witness.log, successors):
                clauses = tuple(dict.fromkeys((*game.no_action_clauses(stuck), *f.clauses)))
                if (f.option, reading, clauses) in seen:
                    continue
                seen.add((f.option, reading, clauses))
                side = game.to_move(stuck)
                past = "" if len(log) == len(f.witness.log) else ", one action past the witness"
                out.append(
                    Gap(
                        "no_action",
                        f.preset,
                        clauses,
                        f"under {f.option}={reading} the side to move ({side}) has no legal "
                        f"action although the game is not over{past}: the rules demand "
                        "something no action satisfies",
                        log,
                        game.state_to_json(stuck),
                        f.seconds,
                        (f.option, reading),
                        start,
                        f.witness.start_after,
                        f.witness.removed,
                    )
                )
    return out


def _stuck(game: AssembledGame[Any, Any], state: Any) -> bool:
    side = game.to_move(state)
    return side is not None and side != CHANCE and not game.legal_actions(state)


def _stuck_at_or_after(
    game: AssembledGame[Any, Any], state: Any, log: tuple[Json, ...], successors: int
) -> list[tuple[tuple[Json, ...], Any]]:
    """`state` if the side to move there has no legal action, else the positions one action
    (or chance outcome) past it where that is so, each with its log."""
    if _stuck(game, state):
        return [(log, state)]
    side = game.to_move(state)
    if side is None:
        return []
    if side == CHANCE:
        nexts = [a for a, _ in game.chance_outcomes(state)]
    else:
        nexts = list(game.legal_actions(state))
    found = []
    for action in nexts[:successors]:
        after = game.apply(state, action)
        if _stuck(game, after):
            found.append(((*log, game.action_to_json(action)), after))
    return found


def model_stuck(
    game: AssembledGame[Any, Any],
    models: ModelSource | None,
    under: Sequence[tuple[str, tuple[str, str] | None]],
    *,
    budget: float | None,
    max_depth: int = 12,
    rlimit: int = MODEL_RLIMIT,
) -> list[Gap]:
    """A search aimed at stuck positions: Z3 over the symbolic model of each (preset, reading
    or None) in `under` asks for the shortest path to a state where no action is enabled
    whatever its choices, and the game is not over (`solvers.checking.model_reach.stuck_reach`),
    within `max_depth`, `rlimit` per check and `budget` seconds each. A path found is realised
    as the rules' actions and kept only where the rules agree that the side to move has no
    legal action (the clauses are the position's own, `no_action_clauses`)."""
    out: list[Gap] = []
    for preset, reading in under:
        variant = (
            game.presets()[preset]
            if reading is None
            else reading_variant(game.catalogue, preset, *reading)
        )
        model = None if models is None else model_of(models, variant)
        if model is None:
            continue
        deadline = None if budget is None else time.perf_counter() + budget
        try:
            with smt.wall_clock(deadline):
                r = stuck_reach(model.system, max_depth=max_depth, budget=budget, rlimit=rlimit)
        except WargameError:
            continue
        if r.verdict != "reached" or r.trace is None:
            continue
        initial = game.initial_state(variant)
        try:
            actions = replayed_from(game, model, initial, r.trace)
        except ValueError:
            continue
        state = _replay(game, initial, actions)
        if not _stuck(game, state):
            continue
        out.append(
            Gap(
                "no_action",
                preset,
                tuple(game.no_action_clauses(state)),
                f"under {_under(preset, reading)} the side to move ({game.to_move(state)}) has "
                f"no legal action although the game is not over, {len(actions)} actions in: "
                f"found by Z3 over the symbolic model ({r.detail}), the rules agree",
                tuple(game.action_to_json(a) for a in actions),
                game.state_to_json(state),
                r.seconds,
                reading,
            )
        )
    return out


def passive_agent(
    game: Game[Any, Any], state: Any, legal: Sequence[Any], rng: random.Random
) -> Any:
    """Always the last legal action (games list 'end the phase' last): play that avoids
    doing anything, the likeliest way for a game to go on for ever."""
    return legal[-1]


def _replay(game: AssembledGame[Any, Any], state: Any, actions: Sequence[Any]) -> Any:
    for action in actions:
        state = game.apply(state, action)
    return state


def no_action_and_endless(
    game: AssembledGame[Any, Any],
    preset: str,
    *,
    games: int,
    max_steps: int,
    restarts: int = 0,
    deadline: float | None = None,
) -> list[Gap]:
    """Play seeded games (random and passive agents); report every distinct position with no
    legal action though the game is not over (distinct by the clauses whose obligations
    collide there), and every distinct loop (a repeated position; distinct by the kinds of
    action that repeat and the clauses they cite), each with a replayable log.

    `restarts`: after each game, that many random restarts from positions it passed through
    (each picked by the game's seed), played on by random agents: play that reaches the middle
    and late game by other paths than a game from the start, where a gap a preset's play
    never stumbles on may lie. No new game or restart is started once `deadline` (a
    `time.perf_counter()` value; None: none, as tests use) has passed, after the first game."""
    found: list[Gap] = []
    start = time.perf_counter()
    initial = game.initial_state(game.presets()[preset])
    seen: set[tuple[str, tuple[str, ...], tuple[str, ...]]] = set()

    def record(prefix: Sequence[Any], result: Any) -> None:
        actions = (*prefix, *result.actions)
        log = tuple(game.action_to_json(a) for a in actions)
        if result.stop == "no_action":
            key: tuple[str, tuple[str, ...], tuple[str, ...]] = (
                "no_action",
                (),
                tuple(result.clauses),
            )
            if key not in seen:
                seen.add(key)
                found.append(
                    Gap(
                        "no_action",
                        preset,
                        tuple(result.clauses),
                        "the side to move has no legal action although the game is not "
                        "over: the rules demand something no action satisfies",
                        log,
                        game.state_to_json(result.final),
                        time.perf_counter() - start,
                    )
                )
        if result.lasso is not None:
            first, last = len(prefix) + result.lasso.start, len(prefix) + result.lasso.end
            kinds = tuple(sorted({_kind(a) for a in log[first:last]}))
            clauses = _loop_clauses(game, initial, actions, first, last)
            key = ("endless", kinds, clauses)
            if key not in seen:
                seen.add(key)
                found.append(
                    Gap(
                        "endless",
                        preset,
                        clauses,
                        f"play can go on for ever: the position after action {first} comes "
                        f"back after action {last}, so actions {first + 1} to {last} "
                        f"({', '.join(kinds)}) can repeat without end",
                        log[:last],
                        game.state_to_json(_replay(game, initial, actions[:last])),
                        time.perf_counter() - start,
                    )
                )

    def late() -> bool:
        return deadline is not None and time.perf_counter() > deadline

    for seed in range(games):
        if seed and late():
            break
        agent = passive_agent if seed % 2 else random_agent
        rng = random.Random(seed)
        result = play(game, initial, rng, dict.fromkeys(game.sides, agent), max_steps=max_steps)
        record((), result)
        for _ in range(restarts if result.actions else 0):
            if late():
                break
            cut = rng.randrange(len(result.actions))
            prefix = result.actions[:cut]
            branch = play(
                game,
                _replay(game, initial, prefix),
                random.Random(rng.getrandbits(32)),
                dict.fromkeys(game.sides, random_agent),
                max_steps=max_steps,
            )
            record(prefix, branch)
    return found


def _kind(action: Json) -> str:
    """An action's kind as its JSON names it (its `type`), for telling loops apart."""
    if isinstance(action, dict):
        return str(action.get("type", "?"))
    return "?"


def _loop_clauses(
    game: AssembledGame[Any, Any], initial: Any, actions: Sequence[Any], first: int, last: int
) -> tuple[str, ...]:
    """The clauses the play log cites for the actions of a loop (in their descriptions and
    the events they cause), in order of first citation; the game's nontermination clauses
    when the loop's actions cite none."""
    state = _replay(game, initial, actions[:first])
    own = _prefixes(game)
    cited: dict[str, None] = {}
    for action in actions[first:last]:
        after = game.apply(state, action)
        for text in (game.describe(state, action), *game.events(state, action, after)):
            cited.update(dict.fromkeys(clause_ids(text, own)))
        state = after
    return tuple(cited) or tuple(game.nontermination_clauses)


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
) -> list[Unreached]:
    """Each clause no play reached, put to Z3 over each preset's symbolic model: bounded model
    checking to at most `depth` steps, each check within `rlimit`, and no new depth started
    `budget` seconds into a clause (None: the deterministic limits only, as tests use; see
    `solvers.checking.explore_model`). `total_budget` bounds all the checks together: each gets at
    most
    an even share of what is left, so a long list stays within it."""
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
                state = _replay(game, initial, actions)
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
    return out


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


_ABSTRACT: dict[tuple[Any, Variant], Any] = {}  # built once per preset and run


def _prefixes(game: Game[Any, Any]) -> tuple[str, ...] | None:
    """The game's clause index prefixes, as its own clauses name them (NOM for Nomonhan)."""
    own = getattr(game, "nontermination_clauses", ())
    return tuple(sorted({c.split("-")[0] for c in own})) or None


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


def _plays(path: str) -> bool:
    stem = Path(path).stem
    return not stem.startswith((*_NOT_PLAY, "test_", "conftest"))


def seeded_play(
    game: AssembledGame[Any, Any], seeds: int = 20, deadline: float | None = None
) -> Callable[[], None]:
    """Random play of every preset from seeds 0 to `seeds` - 1, the presets in turn: what
    clause reach measures. No new game is started once `deadline` (a `time.perf_counter()`
    value; None: none) has passed, after one game per preset."""

    def run() -> None:
        initials = [game.initial_state(v) for v in game.presets().values()]
        for seed in range(seeds):
            if seed and deadline is not None and time.perf_counter() > deadline:
                return
            for initial in initials:
                play(game, initial, random.Random(seed), dict.fromkeys(game.sides, random_agent))

    return run


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
    return reach.sites_of(tuple(sorted(modules)), _prefixes(game)), ran


def unreached_clauses(game: AssembledGame[Any, Any], play_games: Callable[[], None]) -> list[str]:
    """Clause IDs the game's code cites where a rule takes effect (`solvers.checking.reach`: the
    branch
    that applies it, the refusal that names it) whose statements `play_games` never ran, and
    the clauses its docstrings cite but no branch does: candidates for rules whose
    precondition never holds in play (to be judged by a human: the play may simply not have
    been long or varied enough)."""
    sites, ran = measured_play(game, play_games)
    return sorted(sites.cited - reach.reached(sites, ran))
