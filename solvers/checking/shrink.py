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

Then fewer units: a witness seldom needs every unit of the set-up. Each unit on the map at
the start (in the order of the state JSON's `units`) is taken off it in turn: by the game's
own `without_unit` hook when it has one (`kernel.game.UnitRemoval`: the unit eliminated as
its rules eliminate one, cards and markers accounted for; a unit the hook cannot take out is
skipped), else by setting its place fields (`PLACES`) to None in the state JSON. The game's
codec must accept that start under both readings (a position the game refuses, say one where
a unit must be on the map, is skipped), and the same log must still replay legally from it
to the same kind of difference. An action the rules now refuse (the removed unit's own move,
say) is dropped and the rest tried again. A removal is kept when the witness is no longer
and has fewer units; the witness then starts from that set-up (`Witness.start`), and when
units were removed the actions are shrunk once more. Order of preference: fewer actions,
then fewer units at the witness, then at the start. Where the rules can take no unit out at
the set-up (Rattenkrieg's set-up is itself play, RKS-3.1.2), the units are taken off the first
position of the witness's own play where they can be, and the log starts there
(`Witness.start_after` says how many actions in; `Witness.removed` which units are gone).

The work is bounded by deterministic counts of replays (`max_replays` for the actions,
`max_unit_replays` for the units and the actions shrunk after them), never by time, so
the same witness shrinks to the same log on any machine under any load.

The replays themselves are `solvers.checking.witness_replay`'s.

Works on any game through the kernel contract (solvers never import specs).
"""

from __future__ import annotations

import copy
import time
from collections.abc import Sequence
from typing import Any

import attrs

from kernel.errors import WargameError
from kernel.roles import AssembledGame
from kernel.variants import Variant
from solvers.checking.differences import (
    PLACES,
    Finding,
    Json,
    Witness,
    on_map,
    rebind,
    same_position,
    start_state,
    units_on_map,
)
from solvers.checking.readings import reading_variant
from solvers.checking.witness_replay import follow, replay_step, trail

MAX_REPLAYS = 80
"""The replays one witness's actions may cost by default (each replays the candidate log once
under both readings)."""
STEPS_REPLAYED = 4_000
"""The actions one witness's action shrink may replay by default, all replays together: a long
log (a corpus game's, deep into the game) gets fewer replays, at least `MIN_REPLAYS`."""
MIN_REPLAYS = 12
MAX_UNIT_REPLAYS = 20
"""The replays the unit shrink may cost by default: one per start the game accepts, one more
per action then dropped, and those of the second action shrink."""


def _more(replays: int, max_replays: int, deadline: float | None) -> bool:
    """Whether another replay may begin: fewer than `max_replays` so far, `deadline` (if
    any) not passed."""
    return replays < max_replays and (deadline is None or time.perf_counter() <= deadline)


def _smaller(w: Witness, than: Witness) -> bool:
    return (len(w.log), w.units) < (len(than.log), than.units)


def _drop_actions(
    game: AssembledGame[Any, Any],
    va: Variant,
    vb: Variant,
    witness: Witness,
    max_replays: int,
    deadline: float | None = None,
) -> tuple[Witness, int]:
    """The action shrink (see the module docstring) from the witness's start, within
    `max_replays` replays (none begun past `deadline`, a `time.perf_counter()` value)."""
    best = witness
    replays = 0
    size = max(1, len(best.log) // 2)
    positions = trail(game, va, vb, best.log, best.start) if _more(0, max_replays, deadline) else []
    while size >= 1 and _more(replays, max_replays, deadline):
        start = 0
        improved = False
        while start < len(best.log) and _more(replays, max_replays, deadline):
            a, b = positions[start]  # the log up to `start` is kept: replay from there
            rest = best.log[start + size :]
            replays += 1
            got = follow(game, a, b, best.log[:start], rest, best.difference, best.start)
            if got is not None:
                got = attrs.evolve(got, start_after=best.start_after, removed=best.removed)
            if got is not None and _smaller(got, best):
                best = got
                improved = True
                positions = trail(game, va, vb, best.log, best.start)
                # the same start again: the log there is new
            else:
                start += size
        if not improved:
            size //= 2
        size = min(size, max(1, len(best.log) // 2))
    return best, replays


def without_unit(data: Json, index: int) -> Json:
    """A state JSON with its `index`-th unit taken off the map (its place fields None)."""
    out = copy.deepcopy(data)
    unit = out["units"][index]
    for key in PLACES:
        if key in unit:
            unit[key] = None
    return out


def _first_refused(
    game: AssembledGame[Any, Any], a: Any, b: Any, log: Sequence[Json]
) -> int | None:
    """The index of the first action of `log` either reading refuses from `a`, `b` (a plain
    replay: no chance outcome filled in), or None."""
    for i, data in enumerate(log):
        step = replay_step(game, a, b, data)
        if step is None:
            return i
        _, a, b = step
    return None


def _removed(game: AssembledGame[Any, Any], va: Variant, base: Json, index: int) -> Any:
    """The start `base` (a state JSON) under reading A without its `index`-th unit: by the
    game's own `without_unit` hook (`kernel.game.UnitRemoval`: the unit eliminated as the
    rules eliminate one) when it has one, None when the hook refuses; else by the JSON edit
    (`without_unit` here), read through the codec. Raises WargameError for a refused start."""
    hook = getattr(game, "without_unit", None)
    if hook is None:
        return game.state_from_json(without_unit(base, index))
    unit = base["units"][index].get("id")
    return None if unit is None else hook(start_state(game, va, base), str(unit))


def _drop_units(
    game: AssembledGame[Any, Any],
    va: Variant,
    vb: Variant,
    witness: Witness,
    max_replays: int,
    deadline: float | None = None,
) -> tuple[Witness, int]:
    """The unit shrink (see the module docstring) within `max_replays` replays, none begun
    past `deadline`; a start the game's codec refuses under either reading costs none."""
    if witness.difference.kind == "setup":
        return witness, 0
    if witness.start is not None:
        base: Json = witness.start
    else:
        base = game.state_to_json(game.initial_state(va))
    if not isinstance(base.get("units") if isinstance(base, dict) else None, list):
        return witness, 0
    log = list(witness.log)
    best, replays, taken = _remove_each(
        game, va, vb, witness, base, log, witness.start_after, max_replays, deadline
    )
    hook = getattr(game, "without_unit", None)
    if best is not witness or taken or witness.start is not None or hook is None:
        return best, replays
    later = _later_base(game, va, vb, witness, hook)  # the set-up can lose none: play on
    if later is None:
        return best, replays
    base, after = later
    best, more, _ = _remove_each(
        game, va, vb, witness, base, log[after:], after, max_replays - replays, deadline
    )
    return best, replays + more


def _remove_each(
    game: AssembledGame[Any, Any],
    va: Variant,
    vb: Variant,
    witness: Witness,
    base: Json,
    log0: list[Json],
    after: int,
    max_replays: int,
    deadline: float | None = None,
) -> tuple[Witness, int, bool]:
    """Each unit on the map at `base` (a state JSON `after` actions into play, from which
    `log0` leads on to the witness's difference) taken off in turn, kept when the witness
    gets smaller; the witness, the replays and whether the rules took out any unit there."""
    best = witness
    replays = 0
    taken = False
    units = base["units"]
    removed = list(witness.removed)
    size = (len(witness.log), witness.units, units_on_map(base))
    for i in range(len(units)):
        if not _more(replays, max_replays, deadline):
            break
        if not on_map(base["units"][i]):
            continue
        try:
            a = _removed(game, va, base, i)
            if a is None:
                continue  # a unit the rules cannot take out there
            taken = True
            b = rebind(game, a, vb)
        except WargameError:
            continue  # a position the game refuses (a unit the rules keep on the map)
        if not same_position(game, a, b):
            continue
        start = game.state_to_json(a)
        log = list(log0)
        got = None
        while _more(replays, max_replays, deadline):
            replays += 1
            got = follow(game, a, b, (), log, witness.difference, start)
            refused = None if got is not None else _first_refused(game, a, b, log)
            if refused is None:
                break
            del log[refused]  # an action the removal made illegal: try without it
        # fewer actions, then fewer units at the witness, then at the start
        if got is not None and (len(got.log), got.units, units_on_map(start)) < size:
            removed.append(str(units[i].get("id", i)))
            best = attrs.evolve(got, start_after=after, removed=tuple(removed))
            base, log0 = start, list(got.log)
            size = (len(got.log), got.units, units_on_map(start))
    return best, replays, taken


def _later_base(
    game: AssembledGame[Any, Any], va: Variant, vb: Variant, witness: Witness, hook: Any
) -> tuple[Json, int] | None:
    """The first position of the witness's own play, after its set-up, where the game's hook
    takes some unit on the map out (as state JSON), and how many actions in; None when there
    is none before the difference."""
    a, b = game.initial_state(va), game.initial_state(vb)
    for k, data in enumerate(witness.log):
        step = replay_step(game, a, b, data)
        if step is None or step[0] is not None:
            return None  # the log does not go on alike under both readings
        _, a, b = step
        here = game.state_to_json(a)
        units = here.get("units") if isinstance(here, dict) else None
        if isinstance(units, list) and any(
            on_map(u) and u.get("id") is not None and hook(a, str(u["id"])) is not None
            for u in units
        ):
            return here, k + 1
    return None


def shrink(
    game: AssembledGame[Any, Any],
    va: Variant,
    vb: Variant,
    witness: Witness,
    *,
    max_replays: int = MAX_REPLAYS,
    max_unit_replays: int = MAX_UNIT_REPLAYS,
    deadline: float | None = None,
) -> tuple[Witness, int]:
    """The shortest witness found by dropping chunks of `witness`'s log, then units from its
    start (see the module docstring), and the replays it took (at most `max_replays` for the
    actions, plus at most `max_unit_replays` for the units and the second action shrink).
    The witness returned keeps the original's `found_by` and records the original length in
    `shrunk_from` when it is smaller; it is `witness` itself when nothing smaller was found.
    No replay begins past `deadline` (a `time.perf_counter()` value; None: none), so a run's
    shrinking ends within the time it has left."""
    best, replays = _drop_actions(game, va, vb, witness, max_replays, deadline)
    fewer, used = _drop_units(game, va, vb, best, max_unit_replays, deadline)
    if fewer is not best:
        fewer, more = _drop_actions(game, va, vb, fewer, max_unit_replays - used, deadline)
        used += more
        best = fewer
    replays += used
    if best is witness:
        return witness, replays
    return (
        attrs.evolve(best, found_by=witness.found_by, shrunk_from=len(witness.log)),
        replays,
    )


def shrink_finding(
    game: AssembledGame[Any, Any],
    finding: Finding,
    *,
    max_replays: int = MAX_REPLAYS,
    max_unit_replays: int = MAX_UNIT_REPLAYS,
    deadline: float | None = None,
) -> Finding:
    """The finding with its witness shrunk (`shrink`); as it is when it has none. A long log
    gets fewer action replays than `max_replays`: about `STEPS_REPLAYED` actions replayed in
    all, at least `MIN_REPLAYS` replays; none begun past `deadline` (`shrink`)."""
    if finding.witness is None:
        return finding
    long = STEPS_REPLAYED // max(1, len(finding.witness.log))
    max_replays = min(max_replays, max(MIN_REPLAYS, long))
    cat = game.catalogue
    va = reading_variant(cat, finding.preset, finding.option, finding.reading_a)
    vb = reading_variant(cat, finding.preset, finding.option, finding.reading_b)
    witness, _ = shrink(
        game,
        va,
        vb,
        finding.witness,
        max_replays=max_replays,
        max_unit_replays=max_unit_replays,
        deadline=deadline,
    )
    if witness is finding.witness:
        return finding
    return attrs.evolve(finding, witness=witness)
