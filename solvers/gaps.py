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
import inspect
import random
import sys
import time
from collections.abc import Callable, Sequence
from types import FrameType
from typing import Any

import attrs

from kernel.clauses import clause_ids
from kernel.errors import WargameError
from kernel.game import CHANCE, Game
from kernel.playout import play, random_agent
from kernel.variants import Variant
from solvers import smt
from solvers.explore import Finding, Json, ModelSource, model_of, reading_variant, rebind
from solvers.explore_model import MODEL_RLIMIT, clause_reach, proved_invariants
from solvers.refinement import replayed_from


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

    def variant(self, game: Game[Any, Any]) -> Variant:
        """The variant the gap was found under."""
        if self.reading is None:
            return game.presets()[self.preset]
        return reading_variant(game.catalogue, self.preset, *self.reading)

    @property
    def under(self) -> str:
        """The preset, and the reading that overrides it, as words."""
        if self.reading is None:
            return self.preset
        return f"{self.preset} with {self.reading[0]}={self.reading[1]}"


def stuck_readings(
    game: Game[Any, Any], findings: Sequence[Finding], *, successors: int = 200
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
            state = rebind(
                game,
                game.state_from_json(f.witness.state),
                reading_variant(cat, f.preset, f.option, reading),
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
                    )
                )
    return out


def _stuck(game: Game[Any, Any], state: Any) -> bool:
    side = game.to_move(state)
    return side is not None and side != CHANCE and not game.legal_actions(state)


def _stuck_at_or_after(
    game: Game[Any, Any], state: Any, log: tuple[Json, ...], successors: int
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


def passive_agent(
    game: Game[Any, Any], state: Any, legal: Sequence[Any], rng: random.Random
) -> Any:
    """Always the last legal action (games list 'end the phase' last): play that avoids
    doing anything, the likeliest way for a game to go on for ever."""
    return legal[-1]


def _replay(game: Game[Any, Any], state: Any, actions: Sequence[Any]) -> Any:
    for action in actions:
        state = game.apply(state, action)
    return state


def no_action_and_endless(
    game: Game[Any, Any], preset: str, *, games: int, max_steps: int
) -> list[Gap]:
    """Play seeded games (random and passive agents); report every distinct position with no
    legal action though the game is not over (distinct by the clauses whose obligations
    collide there), and every distinct loop (a repeated position; distinct by the kinds of
    action that repeat and the clauses they cite), each with a replayable log."""
    found: list[Gap] = []
    start = time.perf_counter()
    initial = game.initial_state(game.presets()[preset])
    seen: set[tuple[str, tuple[str, ...], tuple[str, ...]]] = set()
    for seed in range(games):
        agent = passive_agent if seed % 2 else random_agent
        result = play(
            game,
            initial,
            random.Random(seed),
            dict.fromkeys(game.sides, agent),
            max_steps=max_steps,
        )
        log = tuple(game.action_to_json(a) for a in result.actions)
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
            first, last = result.lasso.start, result.lasso.end
            kinds = tuple(sorted({_kind(a) for a in log[first:last]}))
            clauses = _loop_clauses(game, initial, result.actions, first, last)
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
                        game.state_to_json(_replay(game, initial, result.actions[:last])),
                        time.perf_counter() - start,
                    )
                )
    return found


def _kind(action: Json) -> str:
    """An action's kind as its JSON names it (its `type`), for telling loops apart."""
    if isinstance(action, dict):
        return str(action.get("type", "?"))
    return "?"


def _loop_clauses(
    game: Game[Any, Any], initial: Any, actions: Sequence[Any], first: int, last: int
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
    game: Game[Any, Any],
    clauses: Sequence[str],
    models: ModelSource | None,
    budget: float | None,
    *,
    depth: int = 24,
    rlimit: int = MODEL_RLIMIT,
) -> list[Unreached]:
    """Each clause no play reached, put to Z3 over each preset's symbolic model: bounded model
    checking to at most `depth` steps, each check within `rlimit`, and no new depth started
    `budget` seconds into a clause (None: the deterministic limits only, as tests use; see
    `solvers.explore_model`)."""
    out: list[Unreached] = []
    for clause in clauses:
        for preset, variant in game.presets().items():
            model = None if models is None else model_of(models, variant)
            if model is None:
                out.append(Unreached(clause, preset, "candidate", "no symbolic model to ask"))
                continue
            deadline = None if budget is None else time.perf_counter() + budget
            try:
                with smt.wall_clock(deadline):  # the model's checks only, never the rules'
                    r = clause_reach(
                        model.system,
                        clause,
                        max_depth=depth,
                        budget=budget,
                        invariants=functools.partial(
                            proved_invariants, model.system, model.formal()
                        ),
                        rlimit=rlimit,
                    )
            except WargameError as exc:
                out.append(Unreached(clause, preset, "candidate", f"Z3 failed: {exc.message}"))
                continue
            if r.verdict == "reached" and r.trace is not None:
                initial = game.initial_state(variant)
                try:
                    actions = replayed_from(game, model, initial, r.trace)
                except ValueError as exc:
                    out.append(Unreached(clause, preset, "candidate", f"{r.detail}: {exc}"))
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
            elif r.verdict == "never":
                out.append(Unreached(clause, preset, "never", r.detail, seconds=r.seconds))
            else:
                out.append(
                    Unreached(
                        clause, preset, "candidate", r.detail, seconds=r.seconds, limit=r.limit
                    )
                )
    return out


def _prefixes(game: Game[Any, Any]) -> tuple[str, ...] | None:
    """The game's clause index prefixes, as its own clauses name them (NOM for Nomonhan)."""
    own = getattr(game, "nontermination_clauses", ())
    return tuple(sorted({c.split("-")[0] for c in own})) or None


def unreached_clauses(game: Game[Any, Any], play_games: Callable[[], None]) -> list[str]:
    """Clause IDs cited only in the docstrings of the game's functions that `play_games` never
    entered: candidates for rules whose precondition never holds in play (to be judged by a
    human: the play may simply not have been long or varied enough)."""
    prefix = type(game).__module__.rpartition(".")[0] + "."
    entered: set[Any] = set()

    def tracer(frame: FrameType, event: str, arg: Any) -> None:
        if event == "call" and str(frame.f_globals.get("__name__", "")).startswith(prefix):
            entered.add(frame.f_code)

    old = sys.getprofile()
    sys.setprofile(tracer)
    try:
        play_games()
    finally:
        sys.setprofile(old)
    own = _prefixes(game)
    reached: set[str] = set()
    for code in entered:
        doc = code.co_consts[0] if code.co_consts and isinstance(code.co_consts[0], str) else ""
        reached.update(clause_ids(doc, own))
    cited: set[str] = set()
    for name, module in list(sys.modules.items()):
        if not name.startswith(prefix):
            continue
        for obj in vars(module).values():
            if getattr(obj, "__module__", "") != name:
                continue
            # functions and methods only: a class's docstring (an action, a record) describes
            # data, and no play "enters" it
            functions = vars(obj).values() if inspect.isclass(obj) else (obj,)
            for f in functions:
                f = getattr(f, "__func__", f)  # static and class methods
                if inspect.isfunction(f):
                    cited.update(clause_ids(f.__doc__ or "", own))
    return sorted(cited - reached)
