"""Shortest witnesses: shrink a witness log while it still shows the difference.

A witness found by guided play is one seeded game's log up to the first position where two
readings part ways, often dozens of actions of which few matter. `shrink` drops chunks of
actions (halves, then quarters, ... down to single actions, anywhere in the log: a prefix, a
middle stretch or the tail) and keeps a shorter log when it still replays legally under both
readings, leads both through the same positions, and ends where the two readings differ in
the same way (the same kind of difference: legal actions, result of an action, side to move,
outcome, chance). Dropping the tail tries the truncated log; a candidate whose readings part
earlier than its end gives that earlier, shorter witness. Among logs of equal length the one
with fewer units on the map is kept.

The work is bounded by a deterministic count of replays (`max_replays`), never by time, so
the same witness shrinks to the same log on any machine under any load.

Works on any game through the kernel contract (solvers never import specs).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import attrs

from kernel.errors import WargameError
from kernel.game import CHANCE, Game
from kernel.variants import Variant
from solvers.explore import (
    Difference,
    Finding,
    Json,
    Witness,
    after_action,
    compare,
    position_key,
    reading_variant,
    units_on_map,
)

MAX_REPLAYS = 120
"""The replays one witness may cost by default (each replays the candidate log once under
both readings)."""


def replay(
    game: Game[Any, Any], va: Variant, vb: Variant, log: Sequence[Json], like: Difference
) -> Witness | None:
    """`log` replayed from the set-up under both readings: the witness it gives, or None when
    an action is illegal under either, or the readings do not differ at its end as `like`
    does. When one action of the log already leads the readings to different positions and
    `like` is such a difference, the witness stops there (a shorter one)."""
    a, b = game.initial_state(va), game.initial_state(vb)
    if position_key(game, a) != position_key(game, b):
        return None  # the set-up itself differs: nothing to shrink
    return _follow(game, a, b, (), log, like)


def _follow(
    game: Game[Any, Any],
    a: Any,
    b: Any,
    prefix: Sequence[Json],
    log: Sequence[Json],
    like: Difference,
) -> Witness | None:
    """`replay` from the positions `a`, `b` (the same under both readings) that `prefix`
    reaches, on through `log`. Where chance is to move and the log's action is not one of its
    outcomes there (dropping an action changed the dice or the draw), chance's likeliest
    outcome is taken instead: in place of the log's own chance action, or before its player
    action, which is then tried again."""
    done: list[Json] = list(prefix)
    for data in log:
        first = _step(game, a, b, data)
        todo: list[tuple[Json, Any]] = [(data, first)]
        if first is None and game.to_move(a) == CHANCE:
            outcome = _likeliest(game, a)
            todo = [(outcome, None)]
            if _kind(data) != _kind(outcome):  # not the log's chance action: then try it again
                todo.append((data, None))
        for item, known in todo:
            step = known or _step(game, a, b, item)
            if step is None:
                return None
            diff, na, nb = step
            if diff is not None:
                return _witness(game, done, a, diff) if diff.kind == like.kind else None
            done.append(item)
            a, b = na, nb
    if like.kind == "result_of_action":
        try:
            action = game.action_from_json(json.loads(like.only_a[0]))
            na, nb = game.apply(a, action), game.apply(b, action)
        except (WargameError, ValueError, IndexError):
            return None
        diff = after_action(game, action, na, nb)
    else:
        diff = compare(game, a, b)
    if diff is None or diff.kind != like.kind:
        return None
    return _witness(game, done, a, diff)


def _step(
    game: Game[Any, Any], a: Any, b: Any, data: Json
) -> tuple[Difference | None, Any, Any] | None:
    """One action of a log under both readings: where it leads (and the difference when the
    readings part there), or None when either refuses it."""
    try:
        action = game.action_from_json(data)
        na, nb = game.apply(a, action), game.apply(b, action)
    except WargameError:
        return None
    return after_action(game, action, na, nb), na, nb


def _likeliest(game: Game[Any, Any], state: Any) -> Json:
    """Chance's likeliest outcome (the first of the likeliest, in the rules' order)."""
    outcomes = list(game.chance_outcomes(state))
    best = max(range(len(outcomes)), key=lambda i: (outcomes[i][1], -i))
    return game.action_to_json(outcomes[best][0])


def _kind(data: Json) -> Any:
    """An action's kind as its JSON names it (its `type`)."""
    return data.get("type") if isinstance(data, dict) else None


def _witness(game: Game[Any, Any], log: Sequence[Json], state: Any, diff: Difference) -> Witness:
    data = game.state_to_json(state)
    return Witness(tuple(log), data, diff, units_on_map(data), "")


def _trail(
    game: Game[Any, Any], va: Variant, vb: Variant, log: Sequence[Json]
) -> list[tuple[Any, Any]]:
    """The positions under both readings after each prefix of a witness log (legal under
    both: it is a witness's)."""
    a, b = game.initial_state(va), game.initial_state(vb)
    out = [(a, b)]
    for data in log:
        action = game.action_from_json(data)
        a, b = game.apply(a, action), game.apply(b, action)
        out.append((a, b))
    return out


def _smaller(w: Witness, than: Witness) -> bool:
    return (len(w.log), w.units) < (len(than.log), than.units)


def shrink(
    game: Game[Any, Any],
    va: Variant,
    vb: Variant,
    witness: Witness,
    *,
    max_replays: int = MAX_REPLAYS,
) -> tuple[Witness, int]:
    """The shortest witness found by dropping chunks of `witness`'s log (see the module
    docstring), and the replays it took (at most `max_replays`). The witness returned keeps
    the original's `found_by` and records the original length in `shrunk_from` when it is
    shorter; it is `witness` itself when nothing shorter was found."""
    best = witness
    replays = 0
    size = max(1, len(best.log) // 2)
    trail = _trail(game, va, vb, best.log) if max_replays > 0 else []
    while size >= 1 and replays < max_replays:
        start = 0
        improved = False
        while start < len(best.log) and replays < max_replays:
            a, b = trail[start]  # the log up to `start` is kept: replay from there
            rest = best.log[start + size :]
            replays += 1
            got = _follow(game, a, b, best.log[:start], rest, best.difference)
            if got is not None and _smaller(got, best):
                best = got
                improved = True
                trail = _trail(game, va, vb, best.log)
                # the same start again: the log there is new
            else:
                start += size
        if not improved:
            size //= 2
        size = min(size, max(1, len(best.log) // 2))
    if best is witness:
        return witness, replays
    return (
        attrs.evolve(best, found_by=witness.found_by, shrunk_from=len(witness.log)),
        replays,
    )


def shrink_finding(
    game: Game[Any, Any], finding: Finding, *, max_replays: int = MAX_REPLAYS
) -> Finding:
    """The finding with its witness shrunk (`shrink`); as it is when it has none."""
    if finding.witness is None:
        return finding
    cat = game.catalogue
    va = reading_variant(cat, finding.preset, finding.option, finding.reading_a)
    vb = reading_variant(cat, finding.preset, finding.option, finding.reading_b)
    witness, _ = shrink(game, va, vb, finding.witness, max_replays=max_replays)
    if witness is finding.witness:
        return finding
    return attrs.evolve(finding, witness=witness)
