"""The gap search: where the text leaves the players stuck, lets play go on for ever, or has
rules that never take effect.

- positions where the side to move has no legal action although the game is not over, from
  seeded play under each preset and, under readings no preset uses, at the differential
  search's witness positions (`stuck_readings`): the rules demand something no action meets;
- play that can go on without end (a repeated position);
- clauses whose implementing code no play reached: `solvers.checking.unreached`.

Works on any game through the kernel contract.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any

import attrs

from kernel.clauses import clause_ids
from kernel.errors import WargameError
from kernel.game import CHANCE, Game
from kernel.playout import play, random_agent
from kernel.roles import AssembledGame
from kernel.variants import Variant
from solvers import smt
from solvers.checking.bounded_search import MODEL_RLIMIT
from solvers.checking.differences import Finding, Json, rebind, replayed, start_state
from solvers.checking.explore import reading_variant
from solvers.checking.model_reach import stuck_reach
from solvers.checking.model_search import ModelSource, model_of
from solvers.checking.refinement import replayed_from
from solvers.checking.unreached import prefixes

# explore's slack beyond its pairs' budgets (its gap search's play takes the rest)
PLAY_SECONDS = 20.0  # the gap search's play and the seeded play clause reach is measured over
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
        state = replayed(game, initial, actions)
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
                        game.state_to_json(replayed(game, initial, actions[:last])),
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
                replayed(game, initial, prefix),
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
    state = replayed(game, initial, actions[:first])
    own = prefixes(game)
    cited: dict[str, None] = {}
    for action in actions[first:last]:
        after = game.apply(state, action)
        for text in (game.describe(state, action), *game.events(state, action, after)):
            cited.update(dict.fromkeys(clause_ids(text, own)))
        state = after
    return tuple(cited) or tuple(game.nontermination_clauses)
