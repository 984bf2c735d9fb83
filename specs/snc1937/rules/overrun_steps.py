"""Japanese overruns in the sequence of play (SNC-9.6.1 to SNC-9.6.8): which `Overrun` actions a
position offers, what one does, and where the group stands once its battle is over.

The geometry, cost and sequel are `overrun.py`'s; the battle is an ordinary combat (fire
support, CRT, losses) with the extra 1L (SNC-9.6.5) through `tables.battle`. An overrun is made
by a group that started its move in one hex and moved together (SNC-9.6.2): at the start of a
move one unit or all the hex's movable Japanese units (the groups a move begins with), or
the group whose move is under way. After the battle the group moves into the cleared hex
(the 9.6 example: "the 11th advances into 2707") and may move on (SNC-9.6.6) or, in a
Chinese ZOC, try another overrun (SNC-9.6.7); if Chinese units remain, it may pay again
against the same hex or stop (SNC-9.6.8). `state.overrun_next` records which.
"""

from __future__ import annotations

from fractions import Fraction

import attrs

from kernel.errors import IllegalAction
from kernel.hexes import Hex
from specs.snc1937.rules import movement, overrun
from specs.snc1937.rules.actions import Overrun
from specs.snc1937.rules.state import CH, FULL_MP, JP, Combat, Phase, SNCState, Step
from specs.snc1937.rules.tables import Tables, arrive, battle, locations, put, side_hexes, stacks


def may_overrun_now(s: SNCState) -> bool:
    """Only the Japanese overrun, and only in their Move phases (SNC-9.6.1, SNC-5.3.2)."""
    return (
        s.side == JP
        and s.phase in (Phase.OPS1, Phase.OPS2)
        and s.step == Step.MAIN
        and s.ops_kind() == "move"
    )


def _strong_enough(t: Tables, s: SNCState, units: tuple[str, ...], target: Hex) -> bool:
    """An overrun's strength, like any attack's, must not round down to 0 (SNC-9.6.4,
    SNC-10.4.1.8)."""
    c = Combat(target=target, attackers=units, overrun=True)
    try:
        battle(t, s, c)  # SNC-9.6.4: its strength, terrain-modified like any attack
    except IllegalAction:
        return False
    return True


def targets(t: Tables, s: SNCState, units: tuple[str, ...], here: Hex, mp: int) -> list[Hex]:
    """The hexes `units` in `here` with `mp` half-MP may attempt an overrun of now
    (`overrun.overrun_problem`; a "repeat" only against the hex just tried, SNC-9.6.8)."""
    chinese = side_hexes(s.where, t, CH)
    near = [n for n in t.board.neighbors(here) if n in chinese]
    if not near:
        return []
    repeat = bool(s.moving) and s.overrun_next == "repeat"
    if repeat:
        near = [n for n in near if n == s.overrun_target]
    st = stacks(s.where)
    out = []
    for n in near:
        problem = overrun.overrun_problem(
            t.board, t.data, s.variant, st, units, here, n, Fraction(mp, 2),
            repeat=repeat, overrun_this_phase=s.overrun_hexes,
        )  # fmt: skip
        if problem is None and _strong_enough(t, s, units, n):
            out.append(n)
    return out


def _start_groups(units: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The groups a move may begin with (`movement_steps.move_starts`): each unit alone and all the
    hex's movable units together (SNC-9.6.2 lets them move together whatever
    `stack_movement`). Other subsets are not offered: listing every subset is exponential (a
    landed line stacks 14 units), and a subset that may not move as a group (AMB-SNC-44) could
    not have moved together to an overrun hex either."""
    return [(u,) for u in units] + ([units] if len(units) > 1 else [])


def actions(t: Tables, s: SNCState) -> list[Overrun]:
    """The overruns offered now: by the moving group from where it stands, or (no move under
    way) by any group of one hex's units that have not moved this phase."""
    if not may_overrun_now(s):
        return []
    if s.moving:
        here = locations(s.where)[s.moving[0]]
        return [Overrun(s.moving, h) for h in targets(t, s, s.moving, here, s.mp)]
    chinese = side_hexes(s.where, t, CH)
    out: list[Overrun] = []
    for h, us in sorted(stacks(s.where).items()):
        if not any(n in chinese for n in t.board.neighbors(h)):
            continue
        mine = tuple(
            u for u in us if t.spec[u].side == JP and not t.spec[u].is_static and u not in s.done
        )
        for group in _start_groups(mine):
            out.extend(Overrun(group, n) for n in targets(t, s, group, h, FULL_MP))
    return out


def is_legal(t: Tables, s: SNCState, action: Overrun) -> bool:
    """`action in actions(t, s)`, checked on its own group."""
    if not may_overrun_now(s):
        return False
    loc = locations(s.where)
    units = action.units
    if not units or len(set(units)) != len(units) or any(u not in loc for u in units):
        return False
    here = loc[units[0]]
    if s.moving:
        if units != s.moving:
            return False
        return action.target in targets(t, s, units, here, s.mp)
    for u in units:
        spec = t.spec[u]
        if loc[u] != here or spec.side != JP or spec.is_static or u in s.done:
            return False
    mine = [u for u in stacks(s.where)[here] if t.spec[u].side == JP]
    movable = tuple(u for u in mine if not t.spec[u].is_static and u not in s.done)
    if units not in _start_groups(movable):
        return False
    return action.target in targets(t, s, units, here, FULL_MP)


def start(t: Tables, s: SNCState, action: Overrun) -> SNCState:
    """Pay for the overrun, stop, and open its battle (SNC-9.6.1, SNC-9.6.3): the defenders
    are revealed (SNC-6.3.1) and fire support follows (SNC-9.6.5)."""
    units, target = action.units, action.target
    here = locations(s.where)[units[0]]
    mp = s.mp if s.moving else FULL_MP
    repeat = bool(s.moving) and s.overrun_next == "repeat"
    left = overrun.check_overrun(
        t.board, t.data, s.variant, stacks(s.where), units, here, target, Fraction(mp, 2),
        repeat=repeat, overrun_this_phase=s.overrun_hexes,
    )  # fmt: skip
    half = left * 2
    if half.denominator != 1:
        raise AssertionError(f"overrun cost finer than 1/2 MP: {left}")
    # SNC-9.6.3: the group stops and fights the overrun as a combat against the hex
    combat = Combat(target=target, attackers=units, overrun=True, defenders=stacks(s.where)[target])
    return attrs.evolve(
        s,
        moving=units,
        mp=int(half),
        overrun_next="",
        overrun_target=None,
        overrun_hexes=s.overrun_hexes | {target},
        combat=combat,
        step=Step.SUPPORT_A,
    )


def finish(t: Tables, s: SNCState) -> tuple[SNCState, bool]:
    """After the battle's losses: the group's place and what it may do next
    (`overrun.after_overrun`, SNC-9.6.6 to SNC-9.6.8), and whether its move is over."""
    c = s.combat
    assert c is not None and c.overrun
    loc = locations(s.where)
    survivors = tuple(u for u in c.attackers if u in loc)
    if not survivors:
        return attrs.evolve(s, moving=(), mp=0, done=s.done | frozenset(c.attackers)), False
    origin = loc[survivors[0]]
    cleared = c.target not in side_hexes(s.where, t, CH)
    v = s.variant
    if cleared and v.is_("overrun_cost", "one_mp") and v.is_("overrun_entry", "pays_entry"):
        entry = movement.cost_between(t.board, t.data, v, JP, origin, c.target) or Fraction(0)
        s = attrs.evolve(s, mp=max(0, s.mp - int(entry * 2)))  # overrun_entry (found here)
    after = overrun.after_overrun(
        t.board, t.data, s.variant, stacks(s.where), origin, c.target, Fraction(s.mp, 2)
    )
    s = attrs.evolve(s, moving=survivors)
    if after.at != origin:
        s = put(s, dict.fromkeys(survivors, after.at))
        s = arrive(t, s, JP, [after.at], "move")  # SNC-3.2.2
    if after.may_move_on:
        return attrs.evolve(s, overrun_next="", overrun_target=None), False
    if after.may_overrun_again:
        nxt = "repeat" if after.repeat else "again"
        target = c.target if after.repeat else None
        return attrs.evolve(s, overrun_next=nxt, overrun_target=target), False
    return s, True
