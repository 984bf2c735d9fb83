"""Resolving declared combats: dice, damage point by point, retreats, advance (NOM-9.8-9.34).

Each function takes a state and returns the next one; `sequence` decides what follows a
finished combat (the next combat, the end of the phase, or the end of the turn).
"""

from __future__ import annotations

import attrs

from kernel.hexes import Hex
from specs.nomonhan.rules import sequence
from specs.nomonhan.rules.board import Board, can_cross, carries_zoc, in_enemy_zoc, occupancy
from specs.nomonhan.rules.state import Combat, NomonhanState, Resolution, Stage, UnitState, other
from specs.nomonhan.rules.strength import ja_artillery


def start_combat(board: Board, state: NomonhanState, index: int) -> NomonhanState:
    """Take pending combat `index`, drop what can no longer fight (AMB-NOM-19), and roll."""
    pending = state.pending[:index] + state.pending[index + 1 :]
    combat = _still_fighting(board, state, state.pending[index])
    state = attrs.evolve(state, pending=pending)
    if combat is None:
        return sequence.after_combat(board, state)
    start = tuple(
        sorted(
            (u, h)
            for u in combat.attackers + combat.defenders
            if (h := state.unit(u).hex) is not None
        )
    )
    return attrs.evolve(
        state, stage=Stage.ROLL, current=Resolution(combat=combat, start_hexes=start)
    )


def _still_fighting(board: Board, state: NomonhanState, c: Combat) -> Combat | None:
    alive = [u for u in c.attackers + c.defenders if state.unit(u).hex is not None]
    atts = tuple(a for a in c.attackers if a in alive)
    defs = tuple(d for d in c.defenders if d in alive)
    if state.variant.is_("disturbed_combats", "drop_out_of_contact"):

        def touching(x: str, ys: tuple[str, ...]) -> bool:
            hx = state.unit(x).hex
            assert hx is not None
            return any(
                (hy := state.unit(y).hex) is not None
                and hy in board.neighbors(hx)
                and carries_zoc(board, state.variant, state.demolished, hx, hy)
                for y in ys
            )

        atts, defs = (
            tuple(a for a in atts if touching(a, defs)),
            tuple(d for d in defs if touching(d, atts)),
        )
    if not atts or not defs:
        return None
    return Combat(atts, defs, c.support)


def apply_roll(
    board: Board, state: NomonhanState, attacker_hits: int, defender_hits: int
) -> NomonhanState:
    """Compare hits: the side with fewer takes the difference as damage (NOM-9.12)."""
    res = state.current
    assert res is not None
    diff = attacker_hits - defender_hits
    if diff == 0:  # NOM-9.12: equal hits, neither side takes damage
        return sequence.after_combat(board, attrs.evolve(state, current=None))
    loser = other(state.phasing) if diff > 0 else state.phasing
    res = attrs.evolve(res, loser=loser, damage_left=abs(diff))  # NOM-9.12: the difference
    return continue_damage(board, attrs.evolve(state, current=res, stage=Stage.DAMAGE))


def loser_units(state: NomonhanState) -> list[str]:
    res = state.current
    assert res is not None
    ids = res.combat.defenders if res.loser != state.phasing else res.combat.attackers
    return [u for u in ids if state.unit(u).hex is not None]


def damage_chooser(state: NomonhanState) -> str:
    """Who allocates damage (AMB-NOM-7)."""
    res = state.current
    assert res is not None and res.loser is not None
    return res.loser if state.variant.is_("damage_allocation", "owner") else other(res.loser)


def retreat_problem(
    board: Board, state: NomonhanState, unit_id: str, to: Hex
) -> tuple[str, str] | None:
    """Why `unit_id` may not retreat into `to` for one damage point, or None when it may: one
    adjacent hex (NOM-9.24, AMB-NOM-20), not an EZOC (NOM-9.25), not a friendly-occupied hex
    (NOM-9.26) nor an enemy one (NOM-8.6), crossing as in movement (NOM-8.4, NOM-8.5,
    AMB-NOM-20); never the JA Artillery (NOM-9.28)."""
    spec = board.data.unit(unit_id)
    here = state.unit(unit_id).hex
    res = state.current
    assert here is not None and res is not None
    v = state.variant
    name = f"{spec.name} in {here}"
    if ja_artillery(v, spec):
        return "NOM-9.28", "the Soviet Artillery may not retreat: it loses its step"
    if v.is_("retreat_repeat", "once") and unit_id in res.retreated:
        return "NOM-9.24", f"{name} has retreated once in this combat (AMB-NOM-20)"
    if to not in board.neighbors(here):
        return "NOM-9.24", f"{name} retreats one hex per damage point, and {to} is not adjacent"
    occ = occupancy(state)
    if to in occ:
        if board.side_of[occ[to].id] == spec.side:
            return "NOM-9.26", f"{name} may not retreat into {to}: a friendly unit is there"
        return "NOM-8.6", f"{name} may not retreat into {to}: an enemy unit is there"
    if not can_cross(board, v, state.demolished, spec, here, to):
        kind = board.hexside_kind(here, to, state.demolished)
        clause = {"pontoon": "NOM-8.5", "blown": "NOM-OPT.5"}.get(kind, "NOM-8.4")
        return clause, f"{name} may not retreat across the {kind} hexside into {to} (AMB-NOM-20)"
    if in_enemy_zoc(board, state, spec.side, to, occ):
        return "NOM-9.25", f"{name} may not retreat into {to}: it is in an enemy ZOC"
    return None


def retreat_hexes(board: Board, state: NomonhanState, unit_id: str) -> list[Hex]:
    """Hexes a unit may retreat into for one damage point (see `retreat_problem`)."""
    here = state.unit(unit_id).hex
    assert here is not None
    return [n for n in board.neighbors(here) if retreat_problem(board, state, unit_id, n) is None]


def loss_choices(board: Board, state: NomonhanState) -> list[tuple[str, Hex | None]]:
    """Each legal (unit, retreat hex or None for a step loss) for the next damage point."""
    units = loser_units(state)
    art = board.data.artillery.id if board.data.artillery is not None else None
    if (
        art in units
        and state.variant.is_("artillery_shielding", "any_damage_ends")
        and state.variant.is_("artillery_rules", "ja")
    ):
        units = [art]  # AMB-NOM-15 (ii): the damage falls on the Artillery
    out: list[tuple[str, Hex | None]] = []
    for u in units:
        out.append((u, None))
        out.extend((u, h) for h in retreat_hexes(board, state, u))
    return out


def apply_loss(board: Board, state: NomonhanState, unit_id: str, to: Hex | None) -> NomonhanState:
    """One damage point: retreat one hex or lose one step (NOM-9.24, NOM-9.27)."""
    res = state.current
    assert res is not None
    spec = board.data.unit(unit_id)
    units = []
    for u in state.units:
        if u.id != unit_id:
            units.append(u)
        elif to is not None:  # NOM-9.24: the damage point taken as a one-hex retreat
            units.append(UnitState(u.id, to, u.steps))
        else:  # NOM-9.24: a step lost, a two-sided unit flipped, a last step removed
            steps = u.steps - 1
            units.append(UnitState(u.id, u.hex if steps > 0 else None, steps))
    res = attrs.evolve(
        res,
        damage_left=res.damage_left - 1,
        damage_done=res.damage_done + 1,
        retreated=res.retreated | ({unit_id} if to is not None else set()),
    )
    state = attrs.evolve(state, units=tuple(units), current=res)
    ended = sequence.sudden_death(board, state)
    if ended is not None:
        return ended
    if spec.side == state.initiative:
        return sequence.initiative_change(board, state)  # NOM-6.2
    return continue_damage(board, state)


def continue_damage(board: Board, state: NomonhanState) -> NomonhanState:
    """Next damage point, or (none left, or nobody left to take it, AMB-NOM-8) the advance."""
    res = state.current
    assert res is not None
    if res.damage_left > 0 and loser_units(state):
        return attrs.evolve(state, stage=Stage.DAMAGE)
    return begin_advance(board, state)


def begin_advance(board: Board, state: NomonhanState) -> NomonhanState:
    """Advance after combat when the enemy has left the combat's hex(es) (NOM-9.29)."""
    res = state.current
    assert res is not None and res.loser is not None
    loser_ids = res.combat.defenders if res.loser != state.phasing else res.combat.attackers
    start = dict(res.start_hexes)
    left = [state.unit(u).hex != start[u] for u in loser_ids]
    emptied = all(left) if state.variant.is_("advance_trigger", "all_hexes") else any(left)
    total = res.damage_done + res.damage_left
    points = total if state.variant.is_("advance_points", "hit_difference") else res.damage_done
    state = attrs.evolve(state, current=attrs.evolve(res, advance_left=points if emptied else 0))
    if emptied and points > 0 and advance_choices(board, state):  # NOM-9.29: enemy hex left
        return attrs.evolve(state, stage=Stage.ADVANCE)
    return sequence.after_combat(board, attrs.evolve(state, current=None))


def advancers(board: Board, state: NomonhanState) -> list[str]:
    res = state.current
    assert res is not None and res.loser is not None
    winner = other(res.loser)
    if state.variant.is_("advance_units", "participants"):
        ids = res.combat.attackers if winner == state.phasing else res.combat.defenders
    else:
        ids = tuple(s.id for s in board.data.units if s.side == winner)
    return [u for u in ids if state.unit(u).hex is not None]


def advance_choices(board: Board, state: NomonhanState) -> list[tuple[str, Hex]]:
    """One hex per point into a vacant hex (NOM-9.30, NOM-9.32), ignoring enemy ZOC
    (NOM-9.31); crossing as in movement; tanks never across a bridge under JA (NOM-9.33)."""
    v = state.variant
    occ = occupancy(state)
    out = []
    for uid in advancers(board, state):
        spec = board.data.unit(uid)
        here = state.unit(uid).hex
        assert here is not None
        for n in board.neighbors(here):
            if n in occ or not can_cross(board, v, state.demolished, spec, here, n):
                continue  # NOM-9.32: only into a vacant hex (crossing as in movement)
            if (
                spec.is_tank
                and v.is_("tank_advance_bridge", "banned")
                and board.hexside_kind(here, n, state.demolished) != "open"
            ):
                continue  # NOM-9.33: a tank may not advance across a bridge
            out.append((uid, n))  # NOM-9.30 one hex a point; NOM-9.31 EZOC ignored, none tested
    return out


def apply_advance(board: Board, state: NomonhanState, unit_id: str, to: Hex) -> NomonhanState:
    res = state.current
    assert res is not None
    units = tuple(UnitState(u.id, to, u.steps) if u.id == unit_id else u for u in state.units)
    res = attrs.evolve(res, advance_left=res.advance_left - 1)  # NOM-9.30: one point a hex
    state = attrs.evolve(state, units=units, current=res)
    if res.advance_left > 0 and advance_choices(board, state):
        return state
    return sequence.after_combat(board, attrs.evolve(state, current=None))
