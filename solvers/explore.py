"""The ambiguity explorer: where two readings of a rule part ways (the gap search is in
`solvers.gaps`).

Works on any game through the kernel contract (solvers never import specs).

`differential`: for an option, play the same game under two readings side by side from the
setup. At each position compare what each reading allows (the side to move, the legal
actions, the chance outcomes and their probabilities, the result); then take one action both
allow and compare the positions it leads to. The first difference is a witness: a position
reachable from the setup, with the action log that reaches it under both readings. Guided
play runs many seeded games within a budget and keeps the shortest witness. When the
reachable positions can be enumerated in full (small games), the same comparison over all of
them is a proof that the readings never differ; otherwise the verdict is unknown, with the
limit that was hit. Where the spec has a symbolic model that encodes both readings, Z3 over
that model (`solvers.explore_model`) comes before guided play: it finds the shortest path
to a difference, realised as actions of the rules and checked there, or proves that the
model's transitions are the same under both readings.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from typing import Any

import attrs

from kernel.codec import dump_json
from kernel.errors import WargameError
from kernel.game import CHANCE, Game
from kernel.playout import Agent, random_agent
from kernel.variants import Option, Variant, consultations
from solvers.explore_model import model_differential, proved_invariants
from solvers.refinement import replayed_from
from solvers.verification import SymbolicModel

Json = Any


@attrs.frozen
class Difference:
    """What the two readings disagree on at the witness position."""

    kind: str  # "to_move" | "actions" | "chance" | "outcome" | "result_of_action"
    only_a: tuple[str, ...]
    only_b: tuple[str, ...]
    detail: str = ""


@attrs.frozen
class Witness:
    log: tuple[Json, ...]  # actions (JSON) from the setup, legal under both readings
    state: Json  # the witness position under reading A (state JSON)
    difference: Difference
    units: int  # units on the map at the witness, a size measure
    found_by: str  # "guided play" | "exhaustive search"


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


def rebind(game: Game[Any, Any], state: Any, variant: Variant) -> Any:
    """The same position read under another variant."""
    data = game.state_to_json(state)
    data["variant"] = variant.to_json()
    return game.state_from_json(data)


def field_diff(game: Game[Any, Any], a: Any, b: Any, limit: int = 3) -> str:
    """The top-level state fields two positions disagree on, briefly."""
    ja, jb = game.state_to_json(a), game.state_to_json(b)
    keys = [k for k in sorted(set(ja) | set(jb)) if k != "variant" and ja.get(k) != jb.get(k)]
    parts = [f"{k}: {dump_json(ja.get(k))[:60]} / {dump_json(jb.get(k))[:60]}" for k in keys]
    return "; ".join(parts[:limit])


def _key(game: Game[Any, Any], state: Any) -> str:
    data = game.state_to_json(state)
    data.pop("variant", None)
    return dump_json(data)


def _actions(game: Game[Any, Any], state: Any) -> dict[str, Any]:
    return {dump_json(game.action_to_json(a)): a for a in game.legal_actions(state)}


def _chance(game: Game[Any, Any], state: Any) -> dict[str, Fraction]:
    return {dump_json(game.action_to_json(a)): p for a, p in game.chance_outcomes(state)}


def compare(game: Game[Any, Any], a: Any, b: Any) -> Difference | None:
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


def _units_on_map(data: Json) -> int:
    units = data.get("units") if isinstance(data, dict) else None
    if isinstance(units, list):
        return sum(1 for u in units if isinstance(u, dict) and u.get("hex") is not None)
    return 0


class _SideBySide:
    """One game under reading A, each position also read under B, and its log so far."""

    def __init__(self, game: Game[Any, Any], va: Variant, vb: Variant, found_by: str) -> None:
        self.game, self.found_by = game, found_by
        self.a, self.b = game.initial_state(va), game.initial_state(vb)
        self.log: list[Json] = []

    def witness(self, diff: Difference) -> Witness:
        data = self.game.state_to_json(self.a)
        return Witness(tuple(self.log), data, diff, _units_on_map(data), self.found_by)

    def here(self) -> Witness | None:
        """A difference at the current position (the set-up's state itself, at the start)."""
        game = self.game
        if not self.log and _key(game, self.a) != _key(game, self.b):
            detail = "the set-up differs: " + field_diff(game, self.a, self.b)
            return self.witness(Difference("setup", (), (), detail))
        diff = compare(game, self.a, self.b)
        return None if diff is None else self.witness(diff)

    def tries(self, action: Any) -> Witness | None:
        """A difference in where `action` leads from here."""
        game = self.game
        diff = _after_action(game, action, game.apply(self.a, action), game.apply(self.b, action))
        return None if diff is None else self.witness(diff)

    def take(self, action: Any, na: Any = None, nb: Any = None) -> Witness | None:
        """Take `action` under both readings (`na`, `nb`: where it leads, if known): a
        difference in where it leads, or None and play goes on from there."""
        game = self.game
        if na is None or nb is None:
            na, nb = game.apply(self.a, action), game.apply(self.b, action)
        diff = _after_action(game, action, na, nb)
        if diff is not None:
            return self.witness(diff)
        self.log.append(game.action_to_json(action))
        self.a, self.b = na, nb
        return None


def _walk(
    game: Game[Any, Any],
    va: Variant,
    vb: Variant,
    rng: random.Random,
    max_steps: int,
    agent: Agent[Any, Any],
    option: str | None = None,
    probe: int = 64,
) -> Witness | None:
    """One game under reading A, each position also read under B; the first difference.
    Where the rules ask for `option`'s reading (so the situation it governs has arisen), up
    to `probe` other legal actions are tried under both readings too."""
    pair = _SideBySide(game, va, vb, "guided play")
    for _ in range(max_steps):
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


def _after_action(game: Game[Any, Any], action: Any, na: Any, nb: Any) -> Difference | None:
    """The difference when one action, allowed by both readings, leads to different places."""
    if _key(game, na) == _key(game, nb):
        return None
    text = dump_json(game.action_to_json(action))
    return Difference(
        "result_of_action",
        (text,),
        (text,),
        "the same action leads to different positions: " + field_diff(game, na, nb),
    )


def _exhaustive(
    game: Game[Any, Any], va: Variant, vb: Variant, cap: int
) -> tuple[str, Witness | None, int]:
    """Breadth-first over every reachable position of A (up to `cap`): 'equivalent' when all
    were compared, 'differ' with the shortest witness, or 'unknown' at the cap."""
    a0, b0 = game.initial_state(va), game.initial_state(vb)
    if _key(game, a0) != _key(game, b0):
        w = Witness(
            (),
            game.state_to_json(a0),
            Difference("setup", (), (), "set-up differs"),
            0,
            "exhaustive search",
        )
        return "differ", w, 1
    frontier: list[tuple[Any, Any, tuple[Json, ...]]] = [(a0, b0, ())]
    seen = {_key(game, a0)}
    while frontier:
        nxt: list[tuple[Any, Any, tuple[Json, ...]]] = []
        for a, b, log in frontier:
            diff = compare(game, a, b)
            if diff is not None:
                data = game.state_to_json(a)
                return (
                    "differ",
                    Witness(log, data, diff, _units_on_map(data), "exhaustive search"),
                    len(seen),
                )
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
                diff = _after_action(game, action, na, nb)
                if diff is not None:
                    data = game.state_to_json(a)
                    return (
                        "differ",
                        Witness(log, data, diff, _units_on_map(data), "exhaustive search"),
                        len(seen),
                    )
                k = _key(game, na)
                if k not in seen:
                    if len(seen) >= cap:
                        return "unknown", None, len(seen)
                    seen.add(k)
                    nxt.append((na, nb, step))
        frontier = nxt
    return "equivalent", None, len(seen)


def reading_pairs(option: Option, default: str) -> Iterator[tuple[str, str]]:
    """Each other reading against the preset's."""
    for r in option.readings:
        if r.name != default:
            yield default, r.name


ModelSource = Callable[[Variant], SymbolicModel | None]
"""A spec's `symbolic_model` (see `solvers.verification`)."""


def model_of(models: ModelSource, variant: Variant) -> SymbolicModel | None:
    try:
        return models(variant)
    except WargameError:
        return None


def along(
    game: Game[Any, Any], va: Variant, vb: Variant, actions: Sequence[Any], found_by: str
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


def _model_search(
    game: Game[Any, Any], models: ModelSource, va: Variant, vb: Variant, budget: float
) -> _ModelOutcome:
    """Z3 over the symbolic model: a reachable model witness realised as actions of the rules
    and checked there, a proof on the model, or a note on why neither."""
    ma, mb = model_of(models, va), model_of(models, vb)
    if ma is None or mb is None:
        return _ModelOutcome(None, False, "the symbolic model does not encode this reading")
    try:
        mv = model_differential(
            ma.system,
            mb.system,
            budget=budget,
            invariants=lambda: proved_invariants(ma.system, ma.formal()),
        )
    except WargameError as exc:  # a solver failure costs this pair its model search only
        return _ModelOutcome(None, False, f"Z3 over the symbolic model failed: {exc.message}")
    if mv.verdict == "equivalent":
        return _ModelOutcome(None, True, mv.detail)
    if mv.verdict != "differ" or mv.trace is None:
        return _ModelOutcome(None, False, f"Z3 over the symbolic model: {mv.detail}")
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
        return _ModelOutcome(None, False, note)
    return _ModelOutcome(w, False, f"Z3 over the symbolic model, {mv.seconds:.1f} s")


def _guided(
    game: Game[Any, Any],
    va: Variant,
    vb: Variant,
    budget: float,
    max_steps: int,
    agents: Sequence[Agent[Any, Any]],
    option: str | None = None,
) -> tuple[Witness | None, int, Counter[str]]:
    """Seeded games under both readings within `budget`: the shortest witness, the games
    played, and how often the rules asked for each option's reading meanwhile."""
    start = time.perf_counter()
    best: Witness | None = None
    games = 0
    with consultations() as asked:
        while time.perf_counter() - start < budget:
            agent = agents[games % len(agents)]
            w = _walk(game, va, vb, random.Random(games), max_steps, agent, option)
            games += 1
            if w is not None and (
                best is None or (len(w.log), w.units) < (len(best.log), best.units)
            ):
                best = w
            if best is not None and games >= 40:
                break
    return best, games, asked


def differential(
    game: Game[Any, Any],
    option: Option,
    *,
    preset: str | None = None,
    budget: float = 3.0,
    exhaustive_cap: int = 2_000,
    max_steps: int = 600,
    agents: Sequence[Agent[Any, Any]] = (random_agent,),
    models: ModelSource | None = None,
) -> list[Finding]:
    """One finding per reading pair of `option` (the preset's reading against each other).

    In order: exhaustive search (small games: a proof either way), Z3 over the symbolic model
    when `models` gives one for both readings (`solvers.explore_model`: the shortest reachable
    witness, realised and checked against the rules, or a proof on the model), then guided
    play within `budget` seconds. A proof on the model is only reported as such when guided
    play finds no difference either: the model abstracts some things (who chooses, dice
    probabilities), and a difference there is still a difference."""
    cat = game.catalogue
    preset = preset or cat.default_preset
    base = cat.preset(preset)
    out = []
    for ra, rb in reading_pairs(option, base.reading(option.name)):
        start = time.perf_counter()
        va = cat.variant(preset, {option.name: ra})
        vb = cat.variant(preset, {option.name: rb})
        # Small games: every reachable position compared is a proof either way.
        verdict, best, n = _exhaustive(game, va, vb, exhaustive_cap)
        if verdict == "equivalent":
            detail = f"proved: every one of the {n} reachable positions compared"
        elif verdict == "differ":
            detail = f"exhaustive search, {n} positions"
        else:
            model = None if models is None else _model_search(game, models, va, vb, budget)
            best = None if model is None else model.witness
            if best is not None and model is not None:
                verdict, detail = "differ", model.note
            else:
                best, games, asked = _guided(game, va, vb, budget, max_steps, agents, option.name)
                played = f"{games} guided games (up to {max_steps} steps each, {budget:g} s)"
                if best is None and not asked[option.name]:
                    played += (
                        ", in which the rules never asked for this option's reading (the "
                        "situation it governs did not arise)"
                    )
                elif best is None:
                    played += (
                        f", in which the rules asked for its reading {asked[option.name]} times"
                    )
                notes = [] if model is None else [model.note]
                if best is not None:
                    verdict = "differ"
                    notes.insert(0, f"shortest of the witnesses in {played}")
                    if model is not None and model.equivalent:
                        notes.append(
                            "the difference lies in what the model abstracts (who chooses, "
                            "dice probabilities)"
                        )
                elif model is not None and model.equivalent:
                    verdict = "equivalent"
                    notes.append(f"and no difference in {played}")
                else:
                    notes.insert(
                        0,
                        f"no difference in {played}; the reachable positions exceed the "
                        f"exhaustive cap of {exhaustive_cap}",
                    )
                detail = "; ".join(notes)
        out.append(
            Finding(
                option.name,
                option.clauses,
                option.ambiguity,
                ra,
                rb,
                preset,
                verdict,
                best,
                detail,
                time.perf_counter() - start,
            )
        )
    return out
