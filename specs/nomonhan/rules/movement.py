"""Movement Phase: moving units, reinforcements and pontoon demolition (NOM-7, NOM-8, NOM-OPT).

Legality is written once per action (`move_problem`, `enter_problem`, `demolish_problem`
return the broken clause and a message, or None); legal-action generation and `apply` both
use it, PokerKit-style.
"""

from __future__ import annotations

import functools

from kernel.errors import IllegalAction
from kernel.hexes import Hex
from specs.nomonhan.data.loader import UnitSpec
from specs.nomonhan.rules.actions import Demolish, Enter, Move
from specs.nomonhan.rules.board import (
    Board,
    in_enemy_zoc,
    occupancy,
    state_occupancy,
)
from specs.nomonhan.rules.reach import (
    RELAXATIONS,
    destinations,
    move_targets,
    state_destinations,
    unit_destinations,
)
from specs.nomonhan.rules.state import NomonhanState, UnitState, moved_state

Problem = tuple[str, str] | None  # (clause, message)


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
        for dest in board.hexes(state_destinations(board, state, spec, flag, left, placed)):
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
