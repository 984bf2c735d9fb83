"""Movement Phase: moving units, reinforcements and pontoon demolition (NOM-7, NOM-8, NOM-OPT).

Legality is written once per action (`move_problem`, `enter_problem`, `demolish_problem`
return the broken clause and a message, or None); legal-action generation and `apply` both
use it, PokerKit-style.
"""

from __future__ import annotations

import functools
import heapq
from collections.abc import Iterable

from kernel.errors import IllegalAction
from kernel.hexes import Hex
from specs.nomonhan.data.loader import UnitSpec
from specs.nomonhan.rules.actions import Demolish, Enter, Move
from specs.nomonhan.rules.board import (
    Board,
    cached_enemy_zoc,
    can_cross,
    enemy_zoc_hexes,
    in_enemy_zoc,
    occupancy,
    state_occupancy,
)
from specs.nomonhan.rules.state import NomonhanState, UnitState, moved_state

Problem = tuple[str, str] | None  # (clause, message)
OccMap = dict[Hex, UnitState]


RELAXATIONS = (
    ("blown", "NOM-OPT.5", "the pontoon bridge is blown"),
    ("pontoon", "NOM-8.5", "it may not use the pontoon bridge"),
    ("rivers", "NOM-8.4", "it would have to cross a river without a bridge"),
    ("hills", "NOM-8.3", "entering a hill costs 2 MP, and it would not have them"),
    ("units", "NOM-8.7", "it would have to pass through another unit"),
    ("zoc", "NOM-7.2", "it would have to go on after entering an enemy ZOC"),
)
"""Each rule a move can break, relaxed one at a time to say which one stops a move."""


def destinations(
    board: Board,
    state: NomonhanState,
    spec: UnitSpec,
    start: Hex,
    mp: int,
    occ: dict[Hex, UnitState],
    relax: str | None = None,
) -> set[Hex]:
    """Hexes where a unit starting at `start` with `mp` points may end its move.

    Entering costs 1 (clear, NOM-8.2) or 2 (hill, NOM-8.3; not enterable with less); rivers per
    `can_cross` (NOM-8.4, NOM-8.5, NOM-OPT.5); a unit entering an EZOC stops (NOM-7.2); no unit
    is passed through (NOM-8.7) unless the reading lets friendly units be; no move ends in an
    occupied hex (NOM-8.6). `relax` lifts one of RELAXATIONS, to explain a refused move.
    """
    v = state.variant
    pass_friendly = v.is_("pass_through", "friendly")
    if relax is None and start in board.bit:
        zoc_bits = board.mask(enemy_zoc_hexes(board, state, spec.side, occ))
        blocked = board.mask(_blocking(board, occ, spec, pass_friendly))
        reached = _reach(board, state, spec, start, mp, blocked, zoc_bits)
        return _ends(board.hexes(reached), start, spec, occ)
    ezoc = frozenset() if relax == "zoc" else enemy_zoc_hexes(board, state, spec.side, occ)
    cost_of = board.cost
    side_of = board.side_of
    demolished = state.demolished
    best = {start: mp}
    heap = [(-mp, start)]
    while heap:
        neg, here = heapq.heappop(heap)
        left = -neg
        if best.get(here, -1) > left:
            continue
        if here != start and here in ezoc:
            continue  # NOM-7.2: stop on entering an EZOC
        for n in board.neighbors(here):
            cost = 1 if relax == "hills" else cost_of[n]
            if cost > left:
                continue  # NOM-8.1 up to the MA; NOM-8.3 no hill with fewer than 2 MP left
            if not can_cross(board, v, demolished, spec, here, n) and not _relaxed(
                board, relax, here, n, demolished
            ):
                continue
            occupant = occ.get(n)
            if (
                occupant is not None
                and occupant.id != spec.id
                and relax != "units"
                and not (pass_friendly and side_of[occupant.id] == spec.side)
            ):
                continue  # NOM-8.7
            rest = left - cost  # NOM-8.2 clear 1 MP, NOM-8.3 hill 2 MP
            if best.get(n, -1) < rest:
                best[n] = rest
                heapq.heappush(heap, (-rest, n))
    return _ends(best, start, spec, occ)


def _ends(best: Iterable[Hex], start: Hex, spec: UnitSpec, occ: dict[Hex, UnitState]) -> set[Hex]:
    """The hexes reached where the move may end: not the start, not occupied (NOM-8.6)."""
    return {h for h in best if h != start and (h not in occ or occ[h].id == spec.id)}


def _blocking(
    board: Board, occ: dict[Hex, UnitState], spec: UnitSpec, pass_friendly: bool
) -> set[Hex]:
    """The hexes `spec` may not pass through: another unit's, a friendly one's only when the
    reading forbids it (NOM-8.7, pass_through)."""
    side_of, side, me = board.side_of, spec.side, spec.id
    return {
        h
        for h, u in occ.items()
        if u.id != me and not (pass_friendly and side_of[u.id] == side)  # NOM-8.7
    }


def _reach(
    board: Board, state: NomonhanState, spec: UnitSpec, start: Hex, mp: int, blocked: int, ezoc: int
) -> int:
    """The hexes (as bits, `Board.masks`) a unit reaches from `start` with `mp` points: the
    search of `destinations` without a relaxation, level by level of MP left, each level a
    few shifts of a mask. `level[k]` holds the hexes reached with at least k MP left.

    Entering costs 1 (clear, NOM-8.2) or 2 (hill, NOM-8.3; not with less left, NOM-8.1);
    across open hexsides and fixed bridges only, the unblown pontoon per `can_cross`, asked as
    the search reaches it (NOM-8.4, NOM-8.5, NOM-OPT.5); a unit entering an EZOC stops
    (NOM-7.2); no unit passes through a `blocked` hex (NOM-8.7).
    """
    me = 1 << board.bit[start]
    if mp <= 0:
        return me
    shifts, by_cost, crossings = board.masks(state.demolished)
    v, demolished = state.variant, state.demolished
    free = ~blocked  # NOM-8.7: no unit passes through another unit
    stays = ~ezoc  # NOM-7.2: a unit entering an EZOC stops there
    level = [0] * (mp + 1)
    near = [0] * (mp + 1)  # near[j]: the neighbours a step from the hexes left with j MP
    bridge = [0] * (mp + 1)  # hexes across the pontoon, reached with that many MP left
    level[mp] = me
    asked: dict[int, bool] = {}
    for j in range(mp, -1, -1):
        if j < mp:
            got = bridge[j]
            for cost, hexes in by_cost:  # NOM-8.2 clear 1 MP, NOM-8.3 hill 2 MP
                if j + cost <= mp:  # NOM-8.1 up to the MA; NOM-8.3 no hill with < 2 MP left
                    got |= near[j + cost] & hexes
            level[j] = level[j + 1] | (got & free)  # NOM-8.7
        if j == 0:
            break
        here = (level[j] & stays) | me  # NOM-7.2: stop on entering an EZOC (not the start)
        step = 0
        for off, hexes in shifts:
            m = here & hexes
            if m:
                step |= m << off if off > 0 else m >> -off
        near[j] = step
        for k, (a, b, bit_a, bit_b, cost) in enumerate(crossings):
            if cost <= j and here >> bit_a & 1:
                ok = asked.get(k)
                if ok is None:  # NOM-8.5: the pontoon only for some units, by reading
                    ok = asked[k] = can_cross(board, v, demolished, spec, a, b)
                if ok:
                    bridge[j - cost] |= 1 << bit_b
    return level[0]


@functools.lru_cache(maxsize=256)
def _state_masks(
    board: Board, state: NomonhanState, side: str, pass_friendly: bool
) -> tuple[int, int, int]:
    """Once per state, as bits: the hexes a unit of `side` may not pass through (NOM-8.7; the
    unit's own hex among them, see `_state_destinations`), the occupied hexes (NOM-8.6) and
    the enemy ZOC (NOM-7.1, NOM-7.2)."""
    side_of, bits = board.side_of, board.bit
    blocked = occupied = 0
    for h, u in state_occupancy(state).items():
        i = bits.get(h)
        if i is not None:
            occupied |= 1 << i
            if not (pass_friendly and side_of[u.id] == side):
                blocked |= 1 << i  # NOM-8.7
    return blocked, occupied, board.mask(cached_enemy_zoc(board, state, side))


def _relaxed(board: Board, relax: str | None, a: Hex, b: Hex, demolished: bool) -> bool:
    kind = board.hexside_kind(a, b, demolished)
    return (
        (relax == "rivers" and kind == "river")
        or (relax == "pontoon" and kind == "pontoon")
        or (relax == "blown" and kind == "blown")
    )


@functools.lru_cache(maxsize=64)
def unit_destinations(board: Board, state: NomonhanState, unit_id: str) -> frozenset[Hex]:
    """Where a unit on the map may move this phase (cached: legal-action generation and the
    check in `apply` ask the same question of the same state)."""
    return frozenset(board.hexes(_destination_mask(board, state, unit_id)))


@functools.lru_cache(maxsize=1024)
def _destination_mask(board: Board, state: NomonhanState, unit_id: str) -> int:
    """`unit_destinations` as bits (`Board.masks`)."""
    spec = board.data.unit(unit_id)
    here = state.unit(unit_id).hex
    assert here is not None
    return _state_destinations(board, state, spec, here, spec.ma, None)


def _state_destinations(
    board: Board, state: NomonhanState, spec: UnitSpec, start: Hex, mp: int, occ: OccMap | None
) -> int:
    """`destinations(board, state, spec, start, mp, occ)` as bits, where `occ` is the state's
    units (None: `occupancy(state)`), perhaps with `spec` placed at `start`: the enemy ZOC
    (NOM-7.1, NOM-7.2), the hexes no unit passes through (NOM-8.7) and the occupied hexes
    (NOM-8.6) are then the state's, from `_state_masks`. The unit itself blocks only
    `start`, which no step re-enters with more MP left than it started with, so the search is
    the same."""
    pass_friendly = state.variant.is_("pass_through", "friendly")
    if start not in board.bit:
        occ = occupancy(state) if occ is None else occ
        return board.mask(destinations(board, state, spec, start, mp, occ))
    blocked, occupied, ezoc = _state_masks(board, state, spec.side, pass_friendly)
    reached = _reach(board, state, spec, start, mp, blocked, ezoc)
    return reached & ~occupied & ~(1 << board.bit[start])  # NOM-8.6: not an occupied hex


@functools.lru_cache(maxsize=1024)
def move_targets(board: Board, state: NomonhanState, unit_id: str) -> int:
    """The hexes (as bits) a Move of `unit_id` may go to in this state: exactly those for
    which `move_problem` is None (NOM-8.1 the mover's unit, on the map, not yet moved;
    NOM-7.3 not starting in an enemy ZOC; then `unit_destinations`), none if it may not move.
    Cached per state, so `apply` checks a Move that `legal_actions` offered with a look-up."""
    spec = board.data.unit(unit_id)
    unit = state.unit(unit_id)
    if (
        spec.side != state.phasing
        or unit.hex is None
        or unit_id in state.moved
        or in_enemy_zoc(board, state, spec.side, unit.hex, state_occupancy(state))
    ):
        return 0  # NOM-8.1 not its phase or already moved; NOM-7.3 starts in an EZOC
    return _destination_mask(board, state, unit_id)


def move_problem(board: Board, state: NomonhanState, action: Move) -> Problem:
    spec = board.data.unit(action.unit)
    unit = state.unit(action.unit)
    if spec.side != state.phasing:
        return "NOM-8.1", f"{spec.name} is not {state.phasing}'s to move in this phase"
    if unit.hex is None:
        return "NOM-8.1", f"{spec.name} is not on the map"
    if action.unit in state.moved:
        return "NOM-8.1", f"{spec.name} has already moved this phase"
    occ = occupancy(state)
    if in_enemy_zoc(board, state, spec.side, unit.hex, occ):
        return "NOM-7.3", f"{spec.name} in {unit.hex} starts in an enemy ZOC and cannot move"
    if not board.on_map(action.to):
        return "NOM-2.4", f"{action.to} is not a hex of the map"
    if action.to in unit_destinations(board, state, action.unit):
        return None
    if action.to in occ:
        return "NOM-8.6", f"{action.to} is occupied: no two units in a hex"
    why = f"{spec.name} cannot move from {unit.hex} to {action.to}"
    for relax, clause, reason in RELAXATIONS:
        if action.to in destinations(board, state, spec, unit.hex, spec.ma, occ, relax):
            return clause, f"{why}: {reason}"
    return "NOM-8.1", f"{why}: it is beyond its movement allowance of {spec.ma}"


def due_reinforcements(board: Board, state: NomonhanState) -> list[UnitSpec]:
    """The mover's reinforcements that may enter now: GT reached, not arrived, not lost."""
    return list(_due_reinforcements(board, state))


@functools.lru_cache(maxsize=256)
def _due_reinforcements(board: Board, state: NomonhanState) -> tuple[UnitSpec, ...]:
    """`due_reinforcements`, once per state (legal actions and the end of the phase ask)."""
    out = []
    phasing, turn, withdrawn, moved = state.phasing, state.turn, state.withdrawn, state.moved
    for spec in board.reinforcements:  # the units with a GT, in data order
        u = state.unit(spec.id)
        if (
            spec.side == phasing
            and spec.gt is not None
            and spec.gt <= turn
            and u.hex is None
            and u.steps > 0
            and spec.id not in withdrawn
            and spec.id not in moved
        ):
            out.append(spec)
    return tuple(out)


def entry_options(board: Board, state: NomonhanState, spec: UnitSpec) -> list[tuple[Hex, Hex]]:
    """(flag hex, destination) pairs for a due reinforcement (NOM-8.8, NOM-8.9)."""
    return list(_entry_options(board, state, spec.id))


@functools.lru_cache(maxsize=256)
def _entry_options(board: Board, state: NomonhanState, unit_id: str) -> tuple[tuple[Hex, Hex], ...]:
    """`entry_options`, once per (state, unit): legal-action generation and the end of the
    phase (NOM-8.8, AMB-NOM-18) ask it of the same state."""
    spec = board.data.unit(unit_id)
    occ = state_occupancy(state)
    out = []
    for flag in board.map.flags[spec.side]:
        if flag in occ:
            continue  # NOM-8.9 (enemy): postponed; a friendly unit there: NOM-8.6
        out.append((flag, flag))
        if state.variant.is_("reinforcement_movement", "enter_only"):
            continue
        if in_enemy_zoc(board, state, spec.side, flag, occ):
            continue  # NOM-7.2: it stops on the flag hex
        left = spec.ma - board.map.cost(flag)
        placed = {**occ, flag: UnitState(spec.id, flag, state.unit(spec.id).steps)}
        # the enemy ZOC of `placed` is the state's: the unit placed on the flag is friendly
        for dest in board.hexes(_state_destinations(board, state, spec, flag, left, placed)):
            out.append((flag, dest))
    return tuple(out)


def enter_problem(board: Board, state: NomonhanState, action: Enter) -> Problem:
    spec = board.data.unit(action.unit)
    if spec not in due_reinforcements(board, state):
        return "NOM-8.8", f"{spec.name} is not a reinforcement due to enter now"
    occ = occupancy(state)
    if action.at not in board.map.flags[spec.side]:
        return "NOM-8.8", f"{action.at} is not a {spec.side} flag hex"
    if action.at in occ:
        holder = board.data.unit(occ[action.at].id)
        if holder.side != spec.side:
            return "NOM-8.9", f"an enemy unit holds flag hex {action.at}: entry is postponed"
        return "NOM-8.6", f"{holder.name} holds flag hex {action.at}"
    if (action.at, action.to) not in entry_options(board, state, spec):
        return "NOM-8.8", f"{spec.name} cannot enter at {action.at} and reach {action.to}"
    return None


def entry_is_mandatory(board: Board, state: NomonhanState) -> bool:
    """Under the first_phase and lost readings a due reinforcement that can enter must."""
    return end_phase_problem(board, state) is not None


def end_phase_problem(board: Board, state: NomonhanState) -> Problem:
    """Why the Movement Phase may not end yet: under the first_phase and lost readings a due
    reinforcement that can enter must (NOM-8.8, AMB-NOM-18); under flag_friendly=must_clear a
    friendly unit on its flag hex that can still move must first make room (NOM-8.9 a
    contrario: only an enemy unit postpones entry)."""
    v = state.variant
    if v.is_("reinforcement_timing", "any_phase"):
        return None
    due = due_reinforcements(board, state)
    if any(entry_options(board, state, s) for s in due):
        return "NOM-8.8", "a reinforcement due this phase can enter and must (NOM-8.8, AMB-NOM-18)"
    if v.is_("flag_friendly", "must_clear"):
        occ = occupancy(state)
        for spec in due:
            for flag in board.map.flags[spec.side]:
                holder = occ.get(flag)
                if (
                    holder is not None
                    and board.data.unit(holder.id).side == spec.side
                    and movable(board, state, holder.id)
                ):
                    return (
                        "NOM-8.9",
                        f"{board.data.unit(holder.id).name} must leave flag hex {flag} so "
                        f"that {spec.name} can enter (flag_friendly=must_clear, NOM-8.8)",
                    )
    return None


def movable(board: Board, state: NomonhanState, unit_id: str) -> bool:
    """The unit may still move this phase: on the map, not yet moved, not in an enemy ZOC
    (NOM-7.3), with somewhere to go."""
    u = state.unit(unit_id)
    side = board.data.unit(unit_id).side
    return (
        u.hex is not None
        and side == state.phasing
        and unit_id not in state.moved
        and not in_enemy_zoc(board, state, side, u.hex, occupancy(state))
        and bool(unit_destinations(board, state, unit_id))
    )


def demolish_problem(board: Board, state: NomonhanState) -> Problem:
    v = state.variant
    if v.is_("demolition", "off"):
        return "NOM-OPT.1", "pontoon demolition is not in force in this variant"
    if state.demolished:
        return "NOM-OPT.5", "the pontoon bridge is already blown"
    if state.phasing != "JP":
        return "NOM-OPT.3", "only the Japanese may blow the pontoon bridge, in their Movement Phase"
    if v.is_("demolition", "optional_ja"):
        if state.moved:
            return "NOM-OPT.3", "the demolition must be declared at the start of the phase"
        if not any(
            board.data.unit(u.id).side == "JP" and 0 < u.steps < board.data.unit(u.id).full_steps
            for u in state.units
        ):
            return "NOM-OPT.2", "no Japanese unit is reduced"
    pontoon = board.map.pontoon
    occ = state_occupancy(state)
    if pontoon is None or not any(
        h in occ and board.data.unit(occ[h].id).side == "JP" for h in (pontoon.a, pontoon.b)
    ):
        return "NOM-OPT.4", "no Japanese unit is in a hex of the pontoon bridge"
    return None


def legal_movement_actions(board: Board, state: NomonhanState) -> list[Move | Enter | Demolish]:
    out: list[Move | Enter | Demolish] = []
    if demolish_problem(board, state) is None:
        out.append(Demolish())
    phasing, moved = state.phasing, state.moved
    for spec, u in _units_with_specs(board, state):
        if spec.side != phasing or u.hex is None or spec.id in moved:
            continue  # NOM-8.1 not its phase or already moved (an EZOC: `move_targets`)
        # NOM-8.1: each unit of the mover may move, hex by hex, within its MA
        out.extend(_moves(board, spec.id, move_targets(board, state, spec.id)))
    for spec in due_reinforcements(board, state):
        for at, to in entry_options(board, state, spec):
            out.append(Enter(spec.id, at, to))
    return out


_MOVES: dict[tuple[Board, str, int], tuple[Move, ...]] = {}


def _moves(board: Board, unit_id: str, targets: int) -> tuple[Move, ...]:
    """`Move(unit_id, to)` for each target (bits) in hex order, the same tuple for equal
    arguments (actions are immutable values), kept for a few thousand (unit, targets)."""
    key = (board, unit_id, targets)
    hit = _MOVES.get(key)
    if hit is None:
        if len(_MOVES) >= 4096:
            _MOVES.clear()
        made = _MOVE_OF.setdefault((board, unit_id), {})
        out = []
        for to in board.hexes(targets):
            move = made.get(to)
            if move is None:
                move = made[to] = Move(unit_id, to)
            out.append(move)
        hit = _MOVES[key] = tuple(out)
    return hit


_MOVE_OF: dict[tuple[Board, str], dict[Hex, Move]] = {}  # one Move per (unit, hex)


def _units_with_specs(board: Board, state: NomonhanState) -> list[tuple[UnitSpec, UnitState]]:
    """Each unit's spec with its state, in data order (the state keeps that order)."""
    specs = board.data.units
    if len(specs) == len(state.units) and all(
        s.id == u.id for s, u in zip(specs, state.units, strict=True)
    ):
        return list(zip(specs, state.units, strict=True))
    return [(spec, state.unit(spec.id)) for spec in specs]


def move_is_legal(board: Board, state: NomonhanState, unit_id: str, to: Hex) -> bool:
    """`move_problem(board, state, Move(unit_id, to)) is None`, for a known unit, from the
    per-state cache of `move_targets`."""
    bit = board.bit.get(to)
    return bit is not None and bool(move_targets(board, state, unit_id) >> bit & 1)


Units = tuple[UnitState, ...]
_Hot = tuple[int, int, Units, Units, frozenset[str]]
_HotSlot = tuple[Board | None, NomonhanState | None, dict[str, _Hot | None]]
_hot: list[_HotSlot] = [(None, None, {})]  # the last (board, state) of `try_move`, and per
# unit: its targets as bits, its steps, the units before and after it, and `moved` with it.
# One tuple, replaced whole, so that threads never see one state's board with another's.


def try_move(board: Board, state: NomonhanState, unit_id: str, to: Hex) -> NomonhanState | None:
    """`apply_move(board, state, unit_id, to)` if `move_is_legal`, else None: the common case
    of `apply`. What does not depend on `to` is kept for the last state asked (a search
    applies every child of one state in a row): the unit's `move_targets`, and its parts of
    the next state."""
    hot_board, hot_state, per_unit = _hot[0]
    if hot_state is not state or hot_board is not board:
        per_unit = {}
        _hot[0] = (board, state, per_unit)
    if unit_id in per_unit:
        entry = per_unit[unit_id]
    else:
        entry = per_unit[unit_id] = _hot_entry(board, state, unit_id)
    bit = board.bit.get(to)
    if entry is None or bit is None or not entry[0] >> bit & 1:
        return None
    _, steps, before, after, moved = entry
    key = (unit_id, to, steps)
    unit = _UNIT_STATES.get(key)
    if unit is None:
        unit = _unit_state(unit_id, to, steps)
    return moved_state(state, (*before, unit, *after), moved)


def _hot_entry(board: Board, state: NomonhanState, unit_id: str) -> _Hot | None:
    """What `try_move` keeps for one unit of the hot state; None if it has no place in the
    data order (`apply_move` then rebuilds the units as written) or is not a known unit."""
    i = board.unit_index.get(unit_id)
    units = state.units
    if i is None or i >= len(units) or units[i].id != unit_id:
        return None
    mask = move_targets(board, state, unit_id)
    return mask, units[i].steps, units[:i], units[i + 1 :], state.moved | {unit_id}


_UNIT_STATES: dict[tuple[str, Hex, int], UnitState] = {}


def _unit_state(unit_id: str, to: Hex, steps: int) -> UnitState:
    """`UnitState(unit_id, to, steps)`, one object for equal values (kept for a few
    thousand): unit states are immutable values."""
    key = (unit_id, to, steps)
    hit = _UNIT_STATES.get(key)
    if hit is None:
        if len(_UNIT_STATES) >= 8192:
            _UNIT_STATES.clear()
        hit = _UNIT_STATES[key] = UnitState(unit_id, to, steps)
    return hit


def apply_move(board: Board, state: NomonhanState, unit_id: str, to: Hex) -> NomonhanState:
    units = state.units
    i = board.unit_index.get(unit_id, -1)
    if 0 <= i < len(units) and units[i].id == unit_id:
        new_units = (*units[:i], _unit_state(unit_id, to, units[i].steps), *units[i + 1 :])
    else:
        new_units = tuple(UnitState(u.id, to, u.steps) if u.id == unit_id else u for u in units)
    return moved_state(state, new_units, state.moved | {unit_id})


def check(problem: Problem) -> None:
    if problem is not None:
        clause, message = problem
        raise IllegalAction(f"{message} ({clause})", clauses=(clause,))
