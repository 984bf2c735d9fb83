"""Two readings compared around the corpus positions where the rules asked for an option.

The corpus search (`solvers.checking.from_corpus`) compares the readings at the positions a
seeded game made, with one sample of actions there; a reading often answers the same as the
other there and differs only for other inputs (a combat at other odds, other attackers, a
roll of the other die). The choices that set those inputs were made a few steps before. So
the search here starts from the positions `LEAD` steps before each such corpus position (and
at it), and tries every action (a seeded sample beyond `width`) and every chance outcome
there, under both readings, to `depth` steps; children where the rules asked for the option
are searched first. A difference is confirmed by replaying the corpus game's log and the
path from the set-up under both readings (`solvers.checking.witness_replay.replay`), so the
witness is a log legal under both from the set-up.

Limits are counts: positions expanded in all (`nodes`) and per start (`per_start`); a
wall-clock `deadline` may stop it as well.
"""

from __future__ import annotations

import heapq
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from kernel.errors import WargameError
from kernel.game import CHANCE
from kernel.roles import AssembledGame
from kernel.variants import Variant, consultations
from solvers.checking.bounded_search import BUDGET
from solvers.checking.corpus import Corpus, Position
from solvers.checking.differences import Difference, Witness, after_action, compare, rebind
from solvers.checking.witness_replay import replay

FOUND_BY = "search around a corpus position"
NODES = "around nodes"  # the search reached its cap of positions expanded
UNCONFIRMED = "parted before"  # a difference whose path does not replay from the set-up
DEPTH = 4
"""Steps searched from a start: the lead-up to the corpus position and a step or two past."""
WIDTH = 16
"""Actions tried at a decision (a seeded sample when more are legal); chance's outcomes are
all tried."""


@attrs.frozen
class Around:
    """What the search found: a witness (or None), the starts searched, the positions
    expanded, and the limit that ended it ("" when every start was searched)."""

    witness: Witness | None
    starts: int
    expanded: int
    limit: str


@attrs.frozen
class _Search:
    """One search's fixed parts: the game, the readings, and its limits."""

    game: AssembledGame[Any, Any]
    va: Variant
    vb: Variant
    option: str
    depth: int
    width: int
    deadline: float | None
    # the game's measure of how far a position is from where the readings part, when the
    # search starts from a position it found (`around_position`): children nearer first, and
    # every action tried at the start
    order: Callable[[Any], int] | None = None


class _Stop(Exception):
    """The search's cap or deadline was reached."""


def around(
    game: AssembledGame[Any, Any],
    corpus: Corpus,
    va: Variant,
    vb: Variant,
    option: str,
    preset: str,
    *,
    nodes: int = 600,
    positions: int | None = None,
    per_start: int = 120,
    depth: int = DEPTH,
    width: int = WIDTH,
    deadline: float | None = None,
) -> Around:
    """The first difference found around the corpus positions of `preset` where the rules
    asked for `option` (earliest first, each position once; the first `positions` of them
    when given: those the corpus search looked at), at most `nodes` positions expanded in all
    and `per_start` from each start."""
    search = _Search(game, va, vb, option, depth, width, deadline)
    seen: set[int] = set()
    expanded = starts = 0
    where = list(corpus.where(option, preset))
    for g, p in where if positions is None else where[:positions]:
        for step, state in _starts(p):
            if expanded >= nodes:
                return Around(None, starts, expanded, NODES)
            if deadline is not None and time.perf_counter() > deadline:
                return Around(None, starts, expanded, BUDGET)
            key = hash(state)
            if key in seen:
                continue
            seen.add(key)
            starts += 1
            budget = [min(per_start, nodes - expanded)]
            found = _from_start(search, g.actions[:step], state, budget)
            expanded += min(per_start, nodes - expanded) - budget[0]
            if found is not None:
                return Around(found, starts, expanded, "")
    return Around(None, starts, expanded, "")


def _starts(p: Position) -> list[tuple[int, Any]]:
    """Where to search from for a corpus position: the earliest of its lead-up positions, then
    the position itself (the lead-up's other positions are searched from the first)."""
    out: list[tuple[int, Any]] = []
    if p.before:
        out.append((p.step - len(p.before), p.before[0]))
    out.append((p.step, p.state))
    return out


def around_position(
    game: AssembledGame[Any, Any],
    va: Variant,
    vb: Variant,
    option: str,
    actions: Sequence[Any],
    state: Any,
    *,
    nodes: int = 120,
    depth: int = DEPTH,
    width: int = WIDTH,
    deadline: float | None = None,
    order: Callable[[Any], int] | None = None,
) -> Around:
    """The first difference within `depth` steps of one position (`state`, which `actions`
    reach from the set-up: a position the game's own measure found, `solvers.checking.situated`),
    at most `nodes` positions expanded; the witness is the path from the set-up on to it.
    With `order` (that measure), every action is tried at the position itself and the
    children nearer by it are searched first."""
    search = _Search(game, va, vb, option, depth, width, deadline, order)
    budget = [nodes]
    unconfirmed: list[bool] = []
    found = _from_start(search, actions, state, budget, unconfirmed)
    expanded = nodes - budget[0]
    if found is not None:
        return Around(found, 1, expanded, "")
    if unconfirmed:
        return Around(None, 1, expanded, UNCONFIRMED)
    if deadline is not None and time.perf_counter() > deadline:
        return Around(None, 1, expanded, BUDGET)
    return Around(None, 1, expanded, NODES if budget[0] <= 0 else "")


def _from_start(
    search: _Search,
    prefix: Sequence[Any],
    state: Any,
    budget: list[int],
    unconfirmed: list[bool] | None = None,
) -> Witness | None:
    """The search from one start (`state`, which the actions of `prefix` reach from the
    set-up), `budget[0]` positions at most (decremented as they are expanded). A difference
    whose path does not replay from the set-up under both readings (the readings part
    another way before the start) is no witness; `unconfirmed` records that one was seen."""
    game = search.game
    try:
        a = (
            state
            if getattr(state, "variant", None) == search.va
            else rebind(game, state, search.va)
        )
        b = rebind(game, state, search.vb)
    except WargameError:
        return None  # no position of one reading
    rng = random.Random(len(prefix))
    try:
        if search.order is None:
            found = _dfs(search, a, b, [], search.depth, rng, budget)
        else:
            found = _nearest_first(search, a, b, rng, budget)
    except _Stop:
        return None
    if found is None:
        return None
    path, diff = found
    log = [game.action_to_json(x) for x in [*prefix, *path]]
    witness = replay(game, search.va, search.vb, log, diff)
    if witness is None and unconfirmed is not None:
        unconfirmed.append(True)
    return None if witness is None else attrs.evolve(witness, found_by=FOUND_BY)


def _dfs(
    search: _Search,
    a: Any,
    b: Any,
    path: list[Any],
    depth: int,
    rng: random.Random,
    budget: list[int],
) -> tuple[list[Any], Difference] | None:
    """A difference within `depth` steps of `a`/`b` (the same position under the two
    readings), with the actions that lead to it; each position expanded costs one of
    `budget[0]`."""
    game = search.game
    if budget[0] <= 0 or (search.deadline is not None and time.perf_counter() > search.deadline):
        raise _Stop
    budget[0] -= 1
    diff = compare(game, a, b)
    if diff is not None:
        return path, diff
    children: list[tuple[int, int, int, Any, Any, Any]] = []
    for i, action in enumerate(_moves(search, a, rng, every=depth == search.depth)):
        try:
            with consultations() as asked:
                na, nb = game.apply(a, action), game.apply(b, action)
        except WargameError:
            return path, Difference(
                "actions", (), (), "an action allowed by both is refused by one"
            )
        diff = after_action(game, action, na, nb)
        if diff is not None:
            return [*path, action], diff
        children.append((_measure(search, na), -asked[search.option], i, action, na, nb))
    if depth <= 1:
        return None
    children.sort(key=lambda c: (c[0], c[1], c[2]))
    for _, _, _, action, na, nb in children:
        if game.to_move(na) is None:
            continue
        found = _dfs(search, na, nb, [*path, action], depth - 1, rng, budget)
        if found is not None:
            return found
    return None


def _nearest_first(
    search: _Search, a: Any, b: Any, rng: random.Random, budget: list[int]
) -> tuple[list[Any], Difference] | None:
    """`_dfs`'s search in another order, where the game's measure orders it: the position
    nearest by the measure expanded first (then the shallowest, then the latest reached),
    so that one branch does not use up the budget before its siblings are tried."""
    game = search.game
    frontier: list[tuple[int, int, int, list[Any], Any, Any]] = [(0, 0, 0, [], a, b)]
    tie = 0
    while frontier:
        if budget[0] <= 0 or (
            search.deadline is not None and time.perf_counter() > search.deadline
        ):
            raise _Stop
        _, depth, _, path, a, b = heapq.heappop(frontier)
        budget[0] -= 1
        diff = compare(game, a, b)
        if diff is not None:
            return path, diff
        for action in _moves(search, a, rng, every=not path):
            try:
                na, nb = game.apply(a, action), game.apply(b, action)
            except WargameError:
                return path, Difference(
                    "actions", (), (), "an action allowed by both is refused by one"
                )
            diff = after_action(game, action, na, nb)
            if diff is not None:
                return [*path, action], diff
            if depth + 1 < search.depth and game.to_move(na) is not None:
                tie -= 1
                item = (_measure(search, na), depth + 1, tie, [*path, action], na, nb)
                heapq.heappush(frontier, item)
    return None


def _measure(search: _Search, state: Any) -> int:
    """The game's measure of `state` when the search has one (0 otherwise; a position the
    measure cannot read comes last)."""
    if search.order is None:
        return 0
    try:
        return int(search.order(state))
    except WargameError:
        return 1_000


def _moves(search: _Search, state: Any, rng: random.Random, every: bool = False) -> Sequence[Any]:
    """Every chance outcome, or the legal actions (a seeded sample of `width` when more, unless
    `every` is asked at the start of a search the game's measure orders)."""
    game = search.game
    side = game.to_move(state)
    if side is None:
        return []
    if side == CHANCE:
        return [x for x, _ in game.chance_outcomes(state)]
    legal = list(game.legal_actions(state))
    if len(legal) <= search.width or (every and search.order is not None):
        return legal
    return rng.sample(legal, search.width)


def said_around(r: Around) -> str:
    """What the search around the corpus positions did, in words."""
    if r.witness is not None:
        return (
            "the readings part within a few steps of a corpus position where the rules asked "
            f"for the option (every action tried; {r.expanded} positions expanded)"
        )
    why = {
        "": "every start searched",
        BUDGET: "until its share of the budget ran out",
        NODES: "up to its cap of positions",
    }.get(r.limit, r.limit)
    return (
        f"no difference within {DEPTH} steps of {r.starts} starts around them, every "
        f"action tried ({r.expanded} positions expanded, {why})"
    )
