"""Replaying a witness log under two readings, the ground work of the shrink (`shrink`).

Split from `shrink` so the shrink holds only its search over shorter logs and fewer units:
`replay` (a log from the set-up or a start, to the same kind of difference, chance's
likeliest outcome standing in where a dropped action changed the dice), `follow` (the same
from positions already reached), `replay_step` (one action under both readings) and `trail`
(the positions after each prefix of a witness log).

Works on any game through the kernel contract (solvers never import specs).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from kernel.errors import WargameError
from kernel.game import CHANCE
from kernel.roles import AssembledGame
from kernel.variants import Variant
from solvers.checking.differences import (
    OBSERVATION,
    Difference,
    Json,
    Witness,
    after_action,
    compare,
    same_position,
    seen_differently,
    start_state,
    units_on_map,
)


def replay(
    game: AssembledGame[Any, Any],
    va: Variant,
    vb: Variant,
    log: Sequence[Json],
    like: Difference,
    start: Json | None = None,
) -> Witness | None:
    """`log` replayed from the set-up (or from `start`, a state JSON) under both readings:
    the witness it gives, or None when an action is illegal under either, or the readings do
    not differ at its end as `like` does. When one action of the log already leads the
    readings to different positions and `like` is such a difference, the witness stops there
    (a shorter one)."""
    a, b = start_state(game, va, start), start_state(game, vb, start)
    if not same_position(game, a, b):
        return None  # the set-up itself differs: nothing to shrink
    return follow(game, a, b, (), log, like, start)


def follow(
    game: AssembledGame[Any, Any],
    a: Any,
    b: Any,
    prefix: Sequence[Json],
    log: Sequence[Json],
    like: Difference,
    start: Json | None = None,
) -> Witness | None:
    """`replay` from the positions `a`, `b` (the same under both readings) that `prefix`
    reaches from `start` (None: the set-up), on through `log`. Where chance is to move and
    the log's action is not one of its outcomes there (dropping an action changed the dice or
    the draw), chance's likeliest outcome is taken instead: in place of the log's own chance
    action, or before its player action, which is then tried again."""
    done: list[Json] = list(prefix)
    for data in log:
        first = replay_step(game, a, b, data)
        todo: list[tuple[Json, Any]] = [(data, first)]
        if first is None and game.to_move(a) == CHANCE:
            outcome = _likeliest(game, a)
            todo = [(outcome, None)]
            if _kind(data) != _kind(outcome):  # not the log's chance action: then try it again
                todo.append((data, None))
        for item, known in todo:
            step = known or replay_step(game, a, b, item)
            if step is None:
                return None
            diff, na, nb = step
            if diff is not None:
                return _witness(game, done, a, diff, start) if diff.kind == like.kind else None
            done.append(item)
            a, b = na, nb
    if like.kind == "result_of_action":
        try:
            action = game.action_from_json(json.loads(like.only_a[0]))
            na, nb = game.apply(a, action), game.apply(b, action)
        except (WargameError, ValueError, IndexError):
            return None
        diff = after_action(game, action, na, nb)
    elif like.kind == OBSERVATION:
        diff = seen_differently(game, a, b)
    else:
        diff = compare(game, a, b)
    if diff is None or diff.kind != like.kind:
        return None
    return _witness(game, done, a, diff, start)


def replay_step(
    game: AssembledGame[Any, Any], a: Any, b: Any, data: Json
) -> tuple[Difference | None, Any, Any] | None:
    """One action of a log under both readings: where it leads (and the difference when the
    readings part there), or None when either refuses it."""
    try:
        action = game.action_from_json(data)
        na, nb = game.apply(a, action), game.apply(b, action)
    except WargameError:
        return None
    return after_action(game, action, na, nb), na, nb


def _likeliest(game: AssembledGame[Any, Any], state: Any) -> Json:
    """Chance's likeliest outcome (the first of the likeliest, in the rules' order)."""
    outcomes = list(game.chance_outcomes(state))
    best = max(range(len(outcomes)), key=lambda i: (outcomes[i][1], -i))
    return game.action_to_json(outcomes[best][0])


def _kind(data: Json) -> Any:
    """An action's kind as its JSON names it (its `type`)."""
    return data.get("type") if isinstance(data, dict) else None


def _witness(
    game: AssembledGame[Any, Any],
    log: Sequence[Json],
    state: Any,
    diff: Difference,
    start: Json | None,
) -> Witness:
    data = game.state_to_json(state)
    return Witness(tuple(log), data, diff, units_on_map(data), "", start=start)


def trail(
    game: AssembledGame[Any, Any], va: Variant, vb: Variant, log: Sequence[Json], start: Json | None
) -> list[tuple[Any, Any]]:
    """The positions under both readings after each prefix of a witness log from `start`
    (legal under both: it is a witness's)."""
    a, b = start_state(game, va, start), start_state(game, vb, start)
    out = [(a, b)]
    for data in log:
        action = game.action_from_json(data)
        a, b = game.apply(a, action), game.apply(b, action)
        out.append((a, b))
    return out
