"""The ambiguity explorer: where two readings of a rule part ways (the gap search is in
`solvers.checking.gaps`).

Works on any game through the kernel contract (solvers never import specs).

`differential`: for an option, play the same game under two readings side by side from the
setup. At each position compare what each reading allows (the side to move, the legal
actions, the chance outcomes and their probabilities, the result); then take one action both
allow and compare the positions it leads to. The first difference is a witness: a position
reachable from the setup, with the action log that reaches it under both readings. Guided
play runs many seeded games within its limits and keeps the shortest witness. When the
reachable positions can be enumerated in full (small games), the same comparison over all of
them is a proof that the readings never differ; otherwise the verdict is unknown, with the
limit that was hit. Where the spec has a symbolic model that encodes both readings, Z3 over
that model (`solvers.checking.explore_model`) comes before guided play: it finds the shortest path
to a difference, realised as actions of the rules and checked there, or proves that the
model's transitions are the same under both readings.

Limits. Every search has deterministic limits, which give the same verdict on any machine
under any load: the exhaustive search a number of positions (`exhaustive_cap`), Z3 a depth of
bounded model checking (`depth`) and a resource limit per check (`rlimit`), guided play a
number of games (`games`) of at most `max_steps` steps. A wall-clock `budget` per reading
pair may bound them as well (what `wargame explore --budget` sets); each search then stops at
whichever limit comes first. `budget=None` uses the deterministic limits only, which is what
a test that asks for a witness or a proof must do. A finding names the limits its searches
hit (`Finding.limit`), and its detail says where each stopped.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import attrs

from kernel.codec import dump_json
from kernel.errors import WargameError
from kernel.game import CHANCE
from kernel.playout import Agent, random_agent
from kernel.roles import AssembledGame
from kernel.variants import Option, Variant, consultations
from solvers import smt
from solvers.checking.explore_model import (
    BUDGET,
    MODEL_RLIMIT,
    model_differential,
    proved_invariants,
)
from solvers.checking.readings import named as named
from solvers.checking.readings import reading_pairs as reading_pairs
from solvers.checking.readings import reading_variant as reading_variant
from solvers.checking.refinement import replayed_from
from solvers.checking.unroll import template
from solvers.checking.verification import SymbolicModel

Json = Any

GAMES = "games"  # guided play played all its games
POSITIONS = "positions"  # the exhaustive search reached its cap of positions


@attrs.frozen
class Difference:
    """What the two readings disagree on at the witness position."""

    kind: str  # "to_move" | "actions" | "chance" | "outcome" | "result_of_action"
    only_a: tuple[str, ...]
    only_b: tuple[str, ...]
    detail: str = ""


@attrs.frozen
class Witness:
    log: tuple[Json, ...]  # actions (JSON) from `start`, legal under both readings
    state: Json  # the witness position under reading A (state JSON)
    difference: Difference
    units: int  # units on the map at the witness, a size measure
    found_by: str  # "guided play" | "exhaustive search"
    shrunk_from: int | None = (
        None  # the length of the log found, when shrunk (solvers.checking.shrink)
    )
    # where the log starts, under reading A (state JSON): the preset's set-up with units taken
    # off the map (solvers.checking.shrink); None: the preset's set-up itself
    start: Json | None = None
    # the actions of play from the set-up to the position `start` was made from (0: the
    # set-up itself), and the units taken off it there, in order (solvers.checking.shrink)
    start_after: int = 0
    removed: tuple[str, ...] = ()


def start_state(game: AssembledGame[Any, Any], variant: Variant, start: Json | None) -> Any:
    """Where a witness log starts under `variant`: the set-up, or the witness's own `start`
    read under `variant` (through the game's codec, so its position check applies)."""
    if start is None:
        return game.initial_state(variant)
    return rebind(game, game.state_from_json(start), variant)


@attrs.frozen
class Finding:
    option: str
    clauses: tuple[str, ...]
    ambiguity: str | None
    reading_a: str
    reading_b: str
    preset: str
    verdict: str  # "differ" | "equivalent" | "unknown"
    witness: Witness | None
    detail: str
    seconds: float
    # The limits the searches hit, in the order they ran ("positions", "depth", "rlimit",
    # "games", "budget"), comma-separated; empty when none was (a search settled the pair).
    limit: str = ""
    z3_depth: int = -1  # the depth Z3's bounded model checking searched to (-1: not run)
    # equivalent only because the situation the option governs never arises under this preset
    # (guided play never had the rules ask for its reading): explore it under another preset
    moot: bool = False


def rebind(game: AssembledGame[Any, Any], state: Any, variant: Variant) -> Any:
    """The same position read under another variant (named as a preset if it is one).

    The variant is replaced on the state itself (every game's state is an attrs class with a
    `variant` field), and the result goes through the game's own codec: written by
    `state_to_json`, so every field derived from the variant (Nomonhan's points, say) is
    derived anew rather than copied, and read back by `state_from_json`, so the position
    check of the new reading applies. A state of another kind is rebound through its JSON."""
    variant = named(game.catalogue, variant)
    cls = type(state)
    if attrs.has(cls) and "variant" in attrs.fields_dict(cls):
        data = game.state_to_json(attrs.evolve(state, variant=variant))
    else:
        data = game.state_to_json(state)
        data["variant"] = variant.to_json()
    return game.state_from_json(data)


def field_diff(game: AssembledGame[Any, Any], a: Any, b: Any, limit: int = 3) -> str:
    """The top-level state fields two positions disagree on, briefly."""
    ja, jb = game.state_to_json(a), game.state_to_json(b)
    keys = [k for k in sorted(set(ja) | set(jb)) if k != "variant" and ja.get(k) != jb.get(k)]
    parts = [f"{k}: {dump_json(ja.get(k))[:60]} / {dump_json(jb.get(k))[:60]}" for k in keys]
    return "; ".join(parts[:limit])


def position_key(game: AssembledGame[Any, Any], state: Any) -> str:
    """A position as canonical JSON without its variant: equal under two readings exactly
    when the readings have led to the same place."""
    data = game.state_to_json(state)
    data.pop("variant", None)
    return dump_json(data)


def same_position(game: AssembledGame[Any, Any], a: Any, b: Any) -> bool:
    """`position_key(game, a) == position_key(game, b)`, compared as data rather than as
    canonical text: what replaying a log under two readings asks at every step, where
    writing out both keys was most of a witness shrink's time. The same test for what the
    codecs write (JSON data with one type per field), and not a comparison of the states'
    fields: a state's JSON may derive values from its variant (Nomonhan's points)."""
    ja, jb = game.state_to_json(a), game.state_to_json(b)
    ja.pop("variant", None)
    jb.pop("variant", None)
    return bool(ja == jb)


def _actions(game: AssembledGame[Any, Any], state: Any) -> dict[str, Any]:
    return {dump_json(game.action_to_json(a)): a for a in game.legal_actions(state)}


def _chance(game: AssembledGame[Any, Any], state: Any) -> dict[str, Fraction]:
    return {dump_json(game.action_to_json(a)): p for a, p in game.chance_outcomes(state)}


def compare(game: AssembledGame[Any, Any], a: Any, b: Any) -> Difference | None:
    """How the same position differs under the two readings, before any action."""
    ma, mb = game.to_move(a), game.to_move(b)
    if ma != mb:
        return Difference("to_move", (str(ma),), (str(mb),), "a different side is to move")
    oa, ob = game.outcome(a), game.outcome(b)
    if (oa is None) != (ob is None) or (oa and ob and oa.to_json() != ob.to_json()):
        return Difference(
            "outcome",
            (dump_json(oa.to_json()) if oa else "game goes on",),
            (dump_json(ob.to_json()) if ob else "game goes on",),
            "the result of the game differs",
        )
    if ma is None:
        return None
    if ma == CHANCE:
        ca, cb = _chance(game, a), _chance(game, b)
        if ca != cb:
            keys = sorted(set(ca) | set(cb))
            return Difference(
                "chance",
                tuple(f"{k} p={ca[k]}" for k in keys if ca.get(k) != cb.get(k) and k in ca),
                tuple(f"{k} p={cb[k]}" for k in keys if ca.get(k) != cb.get(k) and k in cb),
                "the chance outcomes or their probabilities differ",
            )
        return None
    la, lb = set(_actions(game, a)), set(_actions(game, b))
    if la != lb:
        return Difference(
            "actions", tuple(sorted(la - lb)), tuple(sorted(lb - la)), "the legal actions differ"
        )
    return None


PLACES = ("hex", "area", "where")
"""The fields a unit's JSON names its place on the map by (a hex map's hex, an area map's
Area); a unit with none of them set is off the map."""


def on_map(unit: Json) -> bool:
    """A unit of a state JSON's `units` has a place on the map."""
    return isinstance(unit, dict) and any(unit.get(k) is not None for k in PLACES)


def units_on_map(data: Json) -> int:
    units = data.get("units") if isinstance(data, dict) else None
    if isinstance(units, list):
        return sum(1 for u in units if on_map(u))
    return 0


def _witness_at(
    game: AssembledGame[Any, Any],
    log: tuple[Json, ...],
    state: Any,
    diff: Difference,
    found_by: str,
) -> Witness:
    """The witness of `diff` at `state` (reading A's position), reached by `log`."""
    data = game.state_to_json(state)
    return Witness(log, data, diff, units_on_map(data), found_by)


class _SideBySide:
    """One game under reading A, each position also read under B, and its log so far."""

    def __init__(
        self, game: AssembledGame[Any, Any], va: Variant, vb: Variant, found_by: str
    ) -> None:
        self.game, self.found_by = game, found_by
        self.a, self.b = game.initial_state(va), game.initial_state(vb)
        self.log: list[Json] = []

    def witness(self, diff: Difference) -> Witness:
        return _witness_at(self.game, tuple(self.log), self.a, diff, self.found_by)

    def here(self) -> Witness | None:
        """A difference at the current position (the set-up's state itself, at the start)."""
        game = self.game
        if not self.log and not same_position(game, self.a, self.b):
            detail = "the set-up differs: " + field_diff(game, self.a, self.b)
            return self.witness(Difference("setup", (), (), detail))
        diff = compare(game, self.a, self.b)
        return None if diff is None else self.witness(diff)

    def tries(self, action: Any) -> Witness | None:
        """A difference in where `action` leads from here."""
        game = self.game
        diff = after_action(game, action, game.apply(self.a, action), game.apply(self.b, action))
        return None if diff is None else self.witness(diff)

    def take(self, action: Any, na: Any = None, nb: Any = None) -> Witness | None:
        """Take `action` under both readings (`na`, `nb`: where it leads, if known): a
        difference in where it leads, or None and play goes on from there."""
        game = self.game
        if na is None or nb is None:
            na, nb = game.apply(self.a, action), game.apply(self.b, action)
        diff = after_action(game, action, na, nb)
        if diff is not None:
            return self.witness(diff)
        self.log.append(game.action_to_json(action))
        self.a, self.b = na, nb
        return None


def _walk(
    game: AssembledGame[Any, Any],
    va: Variant,
    vb: Variant,
    rng: random.Random,
    max_steps: int,
    agent: Agent[Any, Any],
    option: str | None = None,
    probe: int = 64,
    deadline: float | None = None,
) -> Witness | None:
    """One game under reading A, each position also read under B; the first difference.
    Where the rules ask for `option`'s reading (so the situation it governs has arisen), up
    to `probe` other legal actions are tried under both readings too. The game stops after
    `max_steps` steps, or at the wall-clock `deadline` (a `time.perf_counter` value) if any."""
    pair = _SideBySide(game, va, vb, "guided play")
    for _ in range(max_steps):
        if deadline is not None and time.perf_counter() > deadline:
            return None
        found = pair.here()
        if found is not None:
            return found
        a = pair.a
        side = game.to_move(a)
        if side is None:
            return None
        if side == CHANCE:
            outcomes = game.chance_outcomes(a)
            action = rng.choices([x for x, _ in outcomes], [float(p) for _, p in outcomes])[0]
            found = pair.take(action)
        else:
            with consultations() as asked:
                legal = list(game.legal_actions(a))
                if not legal:
                    return None
                action = agent(game, a, legal, rng)
                na, nb = game.apply(a, action), game.apply(pair.b, action)
            if option is not None and asked[option]:
                others = [x for x in legal if x != action]
                for other in rng.sample(others, min(probe, len(others))):
                    found = pair.tries(other)
                    if found is not None:
                        return found
            found = pair.take(action, na, nb)
        if found is not None:
            return found
    return None


def after_action(game: AssembledGame[Any, Any], action: Any, na: Any, nb: Any) -> Difference | None:
    """The difference when one action, allowed by both readings, leads to different places."""
    if same_position(game, na, nb):
        return None
    text = dump_json(game.action_to_json(action))
    return Difference(
        "result_of_action",
        (text,),
        (text,),
        "the same action leads to different positions: " + field_diff(game, na, nb),
    )


def _exhaustive(
    game: AssembledGame[Any, Any], va: Variant, vb: Variant, cap: int, deadline: float | None = None
) -> tuple[str, Witness | None, int, str]:
    """Breadth-first over every reachable position of A (up to `cap`): 'equivalent' when all
    were compared, 'differ' with the shortest witness, or 'unknown' at the cap or at the
    wall-clock `deadline`; with the positions seen and the limit hit ("positions", "budget")."""
    a0, b0 = game.initial_state(va), game.initial_state(vb)
    if not same_position(game, a0, b0):
        w = Witness(
            (),
            game.state_to_json(a0),
            Difference("setup", (), (), "set-up differs"),
            0,
            "exhaustive search",
        )
        return "differ", w, 1, ""
    frontier: list[tuple[Any, Any, tuple[Json, ...]]] = [(a0, b0, ())]
    seen = {position_key(game, a0)}
    while frontier:
        nxt: list[tuple[Any, Any, tuple[Json, ...]]] = []
        for a, b, log in frontier:
            if deadline is not None and time.perf_counter() > deadline:
                return "unknown", None, len(seen), BUDGET
            diff = compare(game, a, b)
            if diff is not None:
                return "differ", _witness_at(game, log, a, diff, "exhaustive search"), len(seen), ""
            side = game.to_move(a)
            if side is None:
                continue
            moves = (
                [x for x, _ in game.chance_outcomes(a)]
                if side == CHANCE
                else list(game.legal_actions(a))
            )
            for action in moves:
                na, nb = game.apply(a, action), game.apply(b, action)
                step = (*log, game.action_to_json(action))
                diff = after_action(game, action, na, nb)
                if diff is not None:
                    w = _witness_at(game, log, a, diff, "exhaustive search")
                    return "differ", w, len(seen), ""
                k = position_key(game, na)
                if k not in seen:
                    if len(seen) >= cap:
                        return "unknown", None, len(seen), POSITIONS
                    seen.add(k)
                    nxt.append((na, nb, step))
        frontier = nxt
    return "equivalent", None, len(seen), ""


ModelSource = Callable[[Variant], SymbolicModel | None]
"""A spec's `symbolic_model` (see `solvers.checking.verification`)."""


_MODELS: dict[tuple[ModelSource, Variant], SymbolicModel | None] = {}
_MODELS_KEPT = 4


# The longest a reading's model took to build (its one-step formula), per model source: the
# model search is not started when the budget left to it is shorter (`--budget` only).
_BUILD_SECONDS: dict[ModelSource, float] = {}


def _build(models: ModelSource, model: SymbolicModel) -> None:
    """Build `model`'s one-step formula (once per system), noting how long a build takes."""
    start = time.perf_counter()
    template(model.system)
    took = time.perf_counter() - start
    _BUILD_SECONDS[models] = max(_BUILD_SECONDS.get(models, 0.0), took)


def prepare_models(
    game: AssembledGame[Any, Any], models: ModelSource, presets: Sequence[str]
) -> None:
    """Build the symbolic model of each preset before the reading pairs are explored (each
    pair compares against its preset's own model), so that a pair's budget is not spent on
    work every pair shares, and the first pair under a preset knows, as the others do,
    whether building its other reading's model fits its budget."""
    for name in presets:
        model = model_of(models, game.presets()[name])
        if model is not None:
            _build(models, model)


def model_of(models: ModelSource, variant: Variant) -> SymbolicModel | None:
    """The symbolic model of `variant`, or None when the spec has none for it or only an
    abstraction (`SymbolicModel.exact` False: what differs or is reached over it may not be
    what the rules do, and exploration reads both ways). The last few
    are kept: every reading pair of a preset compares against the preset's own model, whose
    template, frozen variables and proved invariants are then built once, not once a pair."""
    key = (models, variant)
    if key in _MODELS:
        _MODELS[key] = _MODELS.pop(key)  # the most recently used last
        return _MODELS[key]
    try:
        model = models(variant)
    except WargameError:
        model = None
    if model is not None and not model.exact:
        model = None  # an abstraction: its paths and differences need not be the rules'
    _MODELS[key] = model
    while len(_MODELS) > _MODELS_KEPT:
        del _MODELS[next(iter(_MODELS))]
    return model


def along(
    game: AssembledGame[Any, Any], va: Variant, vb: Variant, actions: Sequence[Any], found_by: str
) -> Witness | None:
    """Follow `actions` from the set-up under both readings, comparing every position and the
    result of each action; at the end, the result of every action allowed there too. The first
    difference, as a witness, or None."""
    pair = _SideBySide(game, va, vb, found_by)
    for i in range(len(actions) + 1):
        found = pair.here()
        if found is not None:
            return found
        side = game.to_move(pair.a)
        if side is None:
            return None
        if i < len(actions):
            tried: Sequence[Any] = actions[i : i + 1]
        elif side == CHANCE:
            tried = [x for x, _ in game.chance_outcomes(pair.a)]
        else:
            tried = list(game.legal_actions(pair.a))
        for action in tried:
            found = pair.tries(action)
            if found is not None:
                return found
        if i < len(actions):
            pair.take(actions[i])
    return None


@attrs.frozen
class _ModelOutcome:
    """What the search over the symbolic model settled for a pair."""

    witness: Witness | None
    equivalent: bool
    note: str
    limit: str = ""  # the limit that stopped Z3 ("depth", "rlimit", "budget"), if any
    depth: int = -1  # the depth bounded model checking searched to (-1: it did not run)


def _model_search(
    game: AssembledGame[Any, Any],
    models: ModelSource,
    va: Variant,
    vb: Variant,
    budget: float | None,
    depth: int,
    rlimit: int,
) -> _ModelOutcome:
    """Z3 over the symbolic model: a reachable model witness realised as actions of the rules
    and checked there, a proof on the model, or a note on why neither."""
    ma, mb = model_of(models, va), model_of(models, vb)
    if ma is None or mb is None:
        return _ModelOutcome(None, False, "the symbolic model does not encode this reading")
    built = _BUILD_SECONDS.get(models, 0.0)
    if budget is not None and built > budget:
        note = (
            f"Z3 over the symbolic model was not asked: building a reading's model takes "
            f"{built:.1f} s, more than the {budget:.1f} s of the budget left to it"
        )
        return _ModelOutcome(None, False, note, BUDGET)
    deadline = None if budget is None else time.perf_counter() + budget
    for m in (ma, mb):  # each built once per system; not cut short by the budget
        _build(models, m)
        if deadline is not None and time.perf_counter() >= deadline:
            note = (
                f"Z3 over the symbolic model was not asked: building the readings' models "
                f"took the {budget:.1f} s of the budget left to it"
            )
            return _ModelOutcome(None, False, note, BUDGET)
    left = None if deadline is None else deadline - time.perf_counter()
    try:
        with smt.wall_clock(deadline):  # the model's checks only, never the rules'
            mv = model_differential(
                ma.system,
                mb.system,
                max_depth=depth,
                budget=left,
                invariants=lambda: proved_invariants(ma.system, ma.formal()),
                rlimit=rlimit,
            )
    except WargameError as exc:  # a solver failure costs this pair its model search only
        return _ModelOutcome(None, False, f"Z3 over the symbolic model failed: {exc.message}")
    if mv.verdict == "equivalent":
        return _ModelOutcome(None, True, mv.detail, depth=mv.depth)
    if mv.verdict != "differ" or mv.trace is None:
        return _ModelOutcome(
            None, False, f"Z3 over the symbolic model: {mv.detail}", mv.limit, mv.depth
        )
    try:
        actions = replayed_from(game, ma, game.initial_state(va), mv.trace)
    except ValueError as exc:
        return _ModelOutcome(
            None, False, f"the model's witness is not realised by the rules: {exc}"
        )
    at = f"; the model's readings part at {mv.at}" if mv.at else ""
    w = along(game, va, vb, actions, f"Z3 over the symbolic model ({mv.detail}{at})")
    if w is None:
        note = (
            f"the model's readings part at {mv.at} after {len(actions)} actions, but the "
            "rules' do not there (a difference in what the projection drops)"
        )
        return _ModelOutcome(None, False, note, depth=mv.depth)
    return _ModelOutcome(
        w, False, f"Z3 over the symbolic model, {mv.seconds:.1f} s", depth=mv.depth
    )


@attrs.frozen
class _Played:
    """What guided play found: the shortest witness, the games played, how often the rules
    asked for each option's reading meanwhile, and the limit that ended it ("games",
    "budget", or empty when it stopped with a witness in hand after enough games)."""

    best: Witness | None
    games: int
    asked: Counter[str]
    limit: str


ENOUGH_GAMES = 40
"""Guided play stops once it has a witness and has played this many games."""


def _guided(
    game: AssembledGame[Any, Any],
    va: Variant,
    vb: Variant,
    games: int,
    deadline: float | None,
    max_steps: int,
    agents: Sequence[Agent[Any, Any]],
    option: str | None = None,
) -> _Played:
    """Seeded games under both readings, at most `games` of them, none started (nor a step
    taken) past the wall-clock `deadline` if any."""
    best: Witness | None = None
    played = 0
    limit = GAMES
    with consultations() as asked:
        while played < games:
            if deadline is not None and time.perf_counter() > deadline:
                limit = BUDGET
                break
            agent = agents[played % len(agents)]
            w = _walk(game, va, vb, random.Random(played), max_steps, agent, option, 64, deadline)
            played += 1
            if w is not None and (
                best is None or (len(w.log), w.units) < (len(best.log), best.units)
            ):
                best = w
            if best is not None and played >= ENOUGH_GAMES:
                limit = ""
                break
        else:
            if deadline is not None and time.perf_counter() > deadline:
                limit = BUDGET  # the last game was cut short
    return _Played(best, played, asked, limit)


def _said(limit: str, games: int, budget: float | None) -> str:
    """What ended guided play, in words."""
    if limit == BUDGET:
        return f"the wall-clock budget of {budget:g} s ran out"
    if limit == GAMES:
        return f"the limit of {games} games was reached"
    return f"a witness was in hand after {ENOUGH_GAMES} games"


def differential(
    game: AssembledGame[Any, Any],
    option: Option,
    *,
    preset: str | None = None,
    budget: float | None = 3.0,
    games: int = 1_000,
    max_steps: int = 600,
    exhaustive_cap: int = 2_000,
    depth: int = 24,
    rlimit: int = MODEL_RLIMIT,
    agents: Sequence[Agent[Any, Any]] = (random_agent,),
    models: ModelSource | None = None,
) -> list[Finding]:
    """One finding per reading pair of `option` (the preset's reading against each other).

    In order: exhaustive search (small games: a proof either way), Z3 over the symbolic model
    when `models` gives one for both readings (`solvers.checking.explore_model`: the shortest
    reachable witness, realised and checked against the rules, or a proof on the model), then
    guided play. A proof on the model is only reported as such when guided play finds no
    difference either: the model abstracts some things (who chooses, dice probabilities), and
    a difference there is still a difference.

    Limits (see the module docstring): the exhaustive search compares at most
    `exhaustive_cap` positions; Z3 searches paths of at most `depth` steps, each check
    within `rlimit`; guided play plays at most `games` games of at most `max_steps` steps.
    `budget` (seconds, or None for none) bounds each pair's wall time as well: the
    exhaustive search has its first quarter; Z3 has half of what is then left (a check in
    progress stops at its end too, `smt.wall_clock`; building the model is not cut short);
    guided play has the rest, to the end of the budget, and its last game ends at once. The
    preset's own model, which every pair compares against, is built before the first pair's
    clock starts (`prepare_models`)."""
    cat = game.catalogue
    preset = preset or cat.default_preset
    base = cat.preset(preset)
    if models is not None:  # shared by every pair of the preset: built before their clocks
        prepare_models(game, models, [preset])
    searches = _Searches(budget, games, max_steps, exhaustive_cap, depth, rlimit, agents, models)
    return [
        _pair(game, option, preset, ra, rb, searches)
        for ra, rb in reading_pairs(option, base.reading(option.name))
    ]


@attrs.frozen
class _Searches:
    """`differential`'s limits (see the module docstring), agents and symbolic models."""

    budget: float | None
    games: int
    max_steps: int
    exhaustive_cap: int
    depth: int
    rlimit: int
    agents: Sequence[Agent[Any, Any]]
    models: ModelSource | None


def _pair(
    game: AssembledGame[Any, Any],
    option: Option,
    preset: str,
    ra: str,
    rb: str,
    searches: _Searches,
) -> Finding:
    """The finding for readings `ra` and `rb` of `option` under `preset` (`pair`, filled in
    with what settles it): the exhaustive search, then, when it settles nothing, the searches
    beyond it (`_beyond_exhaustive`)."""
    cat = game.catalogue
    start = time.perf_counter()
    deadline = None if searches.budget is None else start + searches.budget / 4
    va = reading_variant(cat, preset, option.name, ra)
    vb = reading_variant(cat, preset, option.name, rb)
    pair = Finding(option.name, option.clauses, option.ambiguity, ra, rb, preset, "", None, "", 0)
    # Small games: every reachable position compared is a proof either way.
    verdict, best, n, hit = _exhaustive(game, va, vb, searches.exhaustive_cap, deadline)
    if verdict == "equivalent":
        detail = f"proved: every one of the {n} reachable positions compared"
    elif verdict == "differ":
        detail = f"exhaustive search, {n} positions"
    else:
        return _beyond_exhaustive(game, pair, va, vb, searches, start, (n, hit))
    seconds = time.perf_counter() - start
    return attrs.evolve(pair, verdict=verdict, witness=best, detail=detail, seconds=seconds)


def _beyond_exhaustive(
    game: AssembledGame[Any, Any],
    pair: Finding,
    va: Variant,
    vb: Variant,
    searches: _Searches,
    start: float,
    exhausted: tuple[int, str],
) -> Finding:
    """The finding of `pair` (readings `va` and `vb`) when the exhaustive search settled
    nothing (`exhausted`: the positions it compared and the limit it hit): Z3 over the
    symbolic model, with half of the budget left, then, unless it realised a witness, guided
    play to the end of the budget (which began at `start`)."""
    budget = searches.budget
    n, hit = exhausted
    if hit == BUDGET:
        searched = (
            f"its quarter of the wall-clock budget of {budget:g} s ran out after {n} "
            "positions of the exhaustive search"
        )
    else:
        searched = f"the reachable positions exceed the exhaustive cap of {searches.exhaustive_cap}"
    limits = [hit]
    model: _ModelOutcome | None = None
    if searches.models is not None:
        half = None if budget is None else max(0.0, start + budget - time.perf_counter()) / 2
        model = _model_search(game, searches.models, va, vb, half, searches.depth, searches.rlimit)
        limits.append(model.limit)
    if model is not None and model.witness is not None:
        best: Witness | None = model.witness
        verdict, detail, moot = "differ", model.note, False
    else:
        until = None if budget is None else start + budget
        g = _guided(
            game, va, vb, searches.games, until, searches.max_steps, searches.agents, pair.option
        )
        limits.append(g.limit)
        verdict, detail, moot = _after_play(g, model, pair, searches, searched)
        best = g.best
    return attrs.evolve(
        pair,
        verdict=verdict,
        witness=best,
        detail=detail,
        seconds=time.perf_counter() - start,
        limit=", ".join(dict.fromkeys(x for x in limits if x)),
        z3_depth=-1 if model is None else model.depth,
        moot=moot,
    )


def _after_play(
    g: _Played, model: _ModelOutcome | None, pair: Finding, searches: _Searches, searched: str
) -> tuple[str, str, bool]:
    """The verdict once guided play has run, its detail, and whether the pair is moot: a
    witness of play differs; a proof on the model with no difference in play is equivalent
    (moot when the rules never asked for the option's reading); anything else is unknown
    (`searched`: where the exhaustive search stopped)."""
    played = (
        f"{g.games} guided games (up to {searches.max_steps} steps each, until "
        f"{_said(g.limit, searches.games, searches.budget)})"
    )
    asked = g.asked[pair.option]
    if g.best is None and not asked:
        played += (
            ", in which the rules never asked for this option's reading (the "
            "situation it governs did not arise)"
        )
    elif g.best is None:
        played += f", in which the rules asked for its reading {asked} times"
    notes = [] if model is None else [model.note]
    if g.best is not None:
        notes.insert(0, f"shortest of the witnesses in {played}")
        if model is not None and model.equivalent:
            notes.append(
                "the difference lies in what the model abstracts (who chooses, dice probabilities)"
            )
        return "differ", "; ".join(notes), False
    if model is not None and model.equivalent:
        notes.append(f"and no difference in {played}")
        moot = bool(g.games and not asked)
        if moot:
            notes.insert(0, f"moot under {pair.preset}: the rules never ask for it")
        return "equivalent", "; ".join(notes), moot
    notes.insert(0, f"no difference in {played}; {searched}")
    return "unknown", "; ".join(notes), False
