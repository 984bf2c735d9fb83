"""The ambiguity explorer: where two readings of a rule part ways, and where the text has gaps.

Works on any game through the kernel contract (solvers never import specs).

- `differential`: for an option, play the same game under two readings side by side from the
  setup. At each position compare what each reading allows (the side to move, the legal
  actions, the chance outcomes and their probabilities, the result); then take one action both
  allow and compare the positions it leads to. The first difference is a witness: a position
  reachable from the setup, with the action log that reaches it under both readings. Guided
  play runs many seeded games within a budget and keeps the shortest witness. When the
  reachable positions can be enumerated in full (small games), the same comparison over all of
  them is a proof that the readings never differ; otherwise the verdict is unknown, with the
  limit that was hit.
- `gaps`: positions where the side to move has no legal action although the game is not
  over (with the clauses that demand something), play that can go on without end (a repeated
  position), and clauses whose implementing code no play ever reached (candidates only).
"""

from __future__ import annotations

import random
import re
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from types import FrameType
from typing import Any

import attrs

from kernel.codec import dump_json
from kernel.game import CHANCE, Game
from kernel.playout import Agent, play, random_agent
from kernel.variants import Option, Variant

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


def _walk(
    game: Game[Any, Any],
    va: Variant,
    vb: Variant,
    rng: random.Random,
    max_steps: int,
    agent: Agent[Any, Any],
) -> Witness | None:
    """One game under reading A, each position also read under B; the first difference."""
    a = game.initial_state(va)
    b = game.initial_state(vb)
    log: list[Json] = []

    def witness(diff: Difference) -> Witness:
        data = game.state_to_json(a)
        return Witness(tuple(log), data, diff, _units_on_map(data), "guided play")

    if _key(game, a) != _key(game, b):
        return witness(Difference("setup", (), (), "the set-up differs: " + field_diff(game, a, b)))
    for _ in range(max_steps):
        diff = compare(game, a, b)
        if diff is not None:
            return witness(diff)
        side = game.to_move(a)
        if side is None:
            return None
        if side == CHANCE:
            outcomes = game.chance_outcomes(a)
            action = rng.choices([x for x, _ in outcomes], [float(p) for _, p in outcomes])[0]
        else:
            legal = list(game.legal_actions(a))
            if not legal:
                return None
            action = agent(game, a, legal, rng)
        na, nb = game.apply(a, action), game.apply(b, action)
        diff = _after_action(game, action, na, nb)
        if diff is not None:
            return witness(diff)
        log.append(game.action_to_json(action))
        a, b = na, nb
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


def differential(
    game: Game[Any, Any],
    option: Option,
    *,
    preset: str | None = None,
    budget: float = 3.0,
    exhaustive_cap: int = 2_000,
    max_steps: int = 600,
    agents: Sequence[Agent[Any, Any]] = (random_agent,),
) -> list[Finding]:
    """One finding per reading pair of `option` (the preset's reading against each other)."""
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
            games = 0
            while time.perf_counter() - start < budget:
                agent = agents[games % len(agents)]
                w = _walk(game, va, vb, random.Random(games), max_steps, agent)
                games += 1
                if w is not None and (
                    best is None or (len(w.log), w.units) < (len(best.log), best.units)
                ):
                    best = w
                if best is not None and games >= 40:
                    break
            if best is not None:
                verdict, detail = "differ", f"shortest of the witnesses in {games} guided games"
            else:
                detail = (
                    f"no difference in {games} guided games (up to {max_steps} steps each, "
                    f"{budget:g} s budget); the reachable positions exceed the exhaustive "
                    f"cap of {exhaustive_cap}"
                )
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


# --- gaps --------------------------------------------------------------------------------------


@attrs.frozen
class Gap:
    kind: str  # "no_action" | "endless" | "unreached"
    preset: str
    clauses: tuple[str, ...]
    message: str
    log: tuple[Json, ...] = ()
    state: Json = None
    seconds: float = 0.0


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
    """Play seeded games (random and passive agents); report the first position with no legal
    action though the game is not over, and the first repeated position (a lasso)."""
    found: list[Gap] = []
    start = time.perf_counter()
    initial = game.initial_state(game.presets()[preset])
    kinds: set[str] = set()
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
        if result.stop == "no_action" and "no_action" not in kinds:
            kinds.add("no_action")
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
        if result.lasso is not None and "endless" not in kinds:
            kinds.add("endless")
            found.append(
                Gap(
                    "endless",
                    preset,
                    tuple(game.nontermination_clauses),
                    f"play can go on for ever: the position after action {result.lasso.start} "
                    f"comes back after action {result.lasso.end}, so actions "
                    f"{result.lasso.start + 1} to {result.lasso.end} can repeat without end",
                    log[: result.lasso.end],
                    game.state_to_json(_replay(game, initial, result.actions[: result.lasso.end])),
                    time.perf_counter() - start,
                )
            )
    return found


CLAUSE = re.compile(r"\b[A-Z]{3}-[A-Z0-9][\w.]*\w")


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
    reached: set[str] = set()
    for code in entered:
        doc = code.co_consts[0] if code.co_consts and isinstance(code.co_consts[0], str) else ""
        reached.update(CLAUSE.findall(doc))
    cited: set[str] = set()
    for name, module in list(sys.modules.items()):
        if not name.startswith(prefix):
            continue
        for obj in vars(module).values():
            if callable(obj) and getattr(obj, "__module__", "") == name:
                cited.update(CLAUSE.findall(getattr(obj, "__doc__", None) or ""))
    return sorted(cited - reached)
