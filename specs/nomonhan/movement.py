"""Movement Phase: moving units, reinforcements and pontoon demolition (NOM-7, NOM-8, NOM-OPT).

Legality is written once per action (`move_problem`, `enter_problem`, `demolish_problem`
return the broken clause and a message, or None); legal-action generation and `apply` both
use it, PokerKit-style.
"""

from __future__ import annotations

import functools
import heapq

import attrs

from kernel.errors import IllegalAction
from kernel.hexes import Hex
from specs.nomonhan.actions import Demolish, Enter, Move
from specs.nomonhan.board import Board, can_cross, enemy_zoc_hexes, in_enemy_zoc, occupancy
from specs.nomonhan.data import UnitSpec
from specs.nomonhan.state import NomonhanState, UnitState

Problem = tuple[str, str] | None  # (clause, message)


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
    return {h for h in best if h != start and (h not in occ or occ[h].id == spec.id)}


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
    spec = board.data.unit(unit_id)
    here = state.unit(unit_id).hex
    assert here is not None
    return frozenset(destinations(board, state, spec, here, spec.ma, occupancy(state)))


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
    out = []
    for spec in board.data.units:
        u = state.unit(spec.id)
        if (
            spec.side == state.phasing
            and spec.gt is not None
            and spec.gt <= state.turn
            and u.hex is None
            and u.steps > 0
            and spec.id not in state.withdrawn
            and spec.id not in state.moved
        ):
            out.append(spec)
    return out


def entry_options(board: Board, state: NomonhanState, spec: UnitSpec) -> list[tuple[Hex, Hex]]:
    """(flag hex, destination) pairs for a due reinforcement (NOM-8.8, NOM-8.9)."""
    occ = occupancy(state)
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
        for dest in sorted(destinations(board, state, spec, flag, left, placed)):
            out.append((flag, dest))
    return out


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
    occ = occupancy(state)
    if pontoon is None or not any(
        h in occ and board.data.unit(occ[h].id).side == "JP" for h in (pontoon.a, pontoon.b)
    ):
        return "NOM-OPT.4", "no Japanese unit is in a hex of the pontoon bridge"
    return None


def legal_movement_actions(board: Board, state: NomonhanState) -> list[Move | Enter | Demolish]:
    out: list[Move | Enter | Demolish] = []
    if demolish_problem(board, state) is None:
        out.append(Demolish())
    occ = occupancy(state)
    for spec in board.data.units:
        u = state.unit(spec.id)
        if (
            spec.side != state.phasing
            or u.hex is None
            or spec.id in state.moved
            or in_enemy_zoc(board, state, spec.side, u.hex, occ)
        ):
            continue  # NOM-8.1 not its phase or already moved; NOM-7.3 starts in an EZOC
        # NOM-8.1: each unit of the mover may move, hex by hex, within its MA
        out.extend(Move(spec.id, dest) for dest in sorted(unit_destinations(board, state, spec.id)))
    for spec in due_reinforcements(board, state):
        for at, to in entry_options(board, state, spec):
            out.append(Enter(spec.id, at, to))
    return out


def apply_move(board: Board, state: NomonhanState, unit_id: str, to: Hex) -> NomonhanState:
    return attrs.evolve(
        state,
        units=tuple(UnitState(u.id, to, u.steps) if u.id == unit_id else u for u in state.units),
        moved=state.moved | {unit_id},
    )


def check(problem: Problem) -> None:
    if problem is not None:
        clause, message = problem
        raise IllegalAction(f"{message} ({clause})", clauses=(clause,))
