"""Japanese overruns in the sequence of play (SNC-9.6.1 to SNC-9.6.8): which overrun steps a
position offers, what each does, and where the group stands once its battle is over.

The geometry, cost and sequel are `overrun.py`'s; the battle is an ordinary combat (fire
support, CRT, losses) with the extra 1L (SNC-9.6.5) through `tables.battle`. An overrun is made
by a group that started its move in one hex and moved together (SNC-9.6.2):

- with a move under way, by its group, which keeps its units (SNC-9.0.10): `Overrun(target)`
  pays and opens the battle at once. Which groups move together is the movement rules' choice
  (`movement_steps.move_starts`, AMB-SNC-44 `stack_movement`);
- otherwise by any group of one hex's Japanese units that have not moved this phase, declared
  like an attack's attackers: `Overrun(target)` opens it (`Step.JOIN`, the combat marked
  `overrun`, no move under way yet), `Join(unit)` adds one unit of the hex (the first unit
  fixes the hex), `Strike()` pays from the full MF and opens the battle. Every group of the hex
  is so reachable, and no step lists subsets: the joins offered are the hex's units.

A group whose whole hex may not overrun the target is not offered (strength only grows as units
join, and the cost and the other conditions depend on the hex, not on the group), so a
declaration can always be completed. After the battle the group moves into the cleared hex
(the 9.6 example: "the 11th advances into 2707") and may move on (SNC-9.6.6) or, in a Chinese
ZOC, try another overrun (SNC-9.6.7); if Chinese units remain, it may pay again against the
same hex or stop (SNC-9.6.8). `state.overrun_next` records which.
"""

from __future__ import annotations

from collections.abc import Container
from fractions import Fraction

from kernel.errors import IllegalAction
from kernel.hexes import Hex, hex_name
from specs.snc1937.rules import movement, odds, overrun
from specs.snc1937.rules.actions import Action, Join, Overrun, Strike
from specs.snc1937.rules.refusals import illegal
from specs.snc1937.rules.state import CH, FULL_MP, JP, Combat, Phase, SNCState, Step, evolve
from specs.snc1937.rules.tables import (
    Tables,
    arrive,
    locations,
    movers,
    put,
    side_hexes,
    stacks,
)


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
    SNC-10.4.1.8): what `tables.battle` refuses for the overrun's `Combat`, read without the
    column shifts it goes on to work out (they refuse nothing)."""
    st, loc = stacks(s.where), locations(s.where)
    attackers = {u: loc[u] for u in units}
    if odds.attack_problem(t.data, t.board, target, attackers, st, s.variant) is not None:
        return False  # SNC-10.0.1, SNC-10.0.3, SNC-10.2.1, SNC-10.4.1.9, SNC-9.4.6
    try:  # SNC-9.6.4: its strength, terrain-modified like any attack
        attack = odds.attack_strength(t.data, t.board, target, attackers, s.reduced)
    except IllegalAction:
        return False
    if attack <= 0:
        return False  # SNC-10.4.1.8
    odds.base_column(attack, odds.defence_strength(t.data, st[target], s.reduced))
    return True  # (a hex defended by no strength is refused as `battle` refuses it)


def targets(
    t: Tables,
    s: SNCState,
    units: tuple[str, ...],
    here: Hex,
    mp: int,
    known: Container[Hex] = (),
) -> list[Hex]:
    """The hexes `units` in `here` with `mp` half-MP may attempt an overrun of now
    (`overrun.overrun_problem`; a "repeat" only against the hex just tried, SNC-9.6.8), but
    for those in `known` (already found open to another group: not judged again)."""
    chinese = side_hexes(s.where, t, CH)
    near = [n for n in t.board.neighbors(here) if n in chinese and n not in known]
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


def movable(t: Tables, s: SNCState, here: Hex) -> tuple[str, ...]:
    """The Japanese units in `here` that may start a move now: mobile, not yet moved this phase
    (SNC-9.0.10, SNC-9.1.1), in the stack's order."""
    return tuple(
        u
        for u in stacks(s.where).get(here, ())
        if t.spec[u].side == JP and not t.spec[u].is_static and u not in s.done
    )


def start_hexes(t: Tables, s: SNCState, target: Hex) -> list[Hex]:
    """The hexes next to `target` whose units may start a group overrunning it, with no move
    under way: those whose movable units, all together, may (SNC-9.6.1, SNC-9.6.2; every
    smaller group of the hex may then grow into a legal one)."""
    out = []
    for h in t.board.neighbors(target):
        mine = movable(t, s, h)
        if mine and target in targets(t, s, mine, h, FULL_MP):
            out.append(h)
    return out


def actions(t: Tables, s: SNCState) -> list[Overrun]:
    """The overruns offered now: by the moving group from where it stands, or (no move under
    way) the targets some hex's units that have not moved may open an overrun of."""
    if not may_overrun_now(s):
        return []
    if s.moving:
        here = locations(s.where)[s.moving[0]]
        return [Overrun(h) for h in targets(t, s, s.moving, here, s.mp)]
    chinese = side_hexes(s.where, t, CH)
    found: set[Hex] = set()
    for h, mine in movers(t, s).items():  # the Japanese units that may start a move (`movable`)
        if any(n in chinese and n not in found for n in t.board.neighbors(h)):
            found.update(targets(t, s, mine, h, FULL_MP, found))
    return [Overrun(h) for h in sorted(found)]


def open_problem(t: Tables, s: SNCState, target: Hex) -> str | None:
    """Why `Overrun(target)` may not be taken now; None when it may."""
    if not may_overrun_now(s):
        return "only the Japanese overrun, in the main step of their Move phase (SNC-9.6.1)"
    if s.moving:
        here = locations(s.where)[s.moving[0]]
        if target in targets(t, s, s.moving, here, s.mp):
            return None
        if s.overrun_next == "repeat" and target != s.overrun_target:
            return f"only {s.overrun_target} may be tried again, or the group stops (SNC-9.6.8)"
        repeat = s.overrun_next == "repeat"
        problem = overrun.overrun_problem(
            t.board, t.data, s.variant, stacks(s.where), s.moving, here, target,
            Fraction(s.mp, 2), repeat=repeat, overrun_this_phase=s.overrun_hexes,
        )  # fmt: skip
        return problem or f"{', '.join(s.moving)} are too weak to overrun {target} (SNC-9.6.4)"
    if start_hexes(t, s, target):
        return None
    near = [h for h in t.board.neighbors(target) if movable(t, s, h)]
    if not near:
        return f"no Japanese unit that has not moved this phase is next to {target} (SNC-9.6.1)"
    mine = movable(t, s, near[0])
    problem = overrun.overrun_problem(
        t.board, t.data, s.variant, stacks(s.where), mine, near[0], target,
        Fraction(FULL_MP, 2), overrun_this_phase=s.overrun_hexes,
    )  # fmt: skip
    return problem or f"the units next to {target} are too weak to overrun it (SNC-9.6.4)"


def is_legal(t: Tables, s: SNCState, action: Overrun) -> bool:
    """`action in actions(t, s)`, checked on its own target."""
    return open_problem(t, s, action.target) is None


def declaring(s: SNCState) -> bool:
    """An overrun's group is being declared (no move under way yet, SNC-9.6.2)."""
    return s.step == Step.JOIN and s.combat is not None and s.combat.overrun


def join_problem(t: Tables, s: SNCState, unit: str) -> str | None:
    """Why `unit` may not join the overrun group being declared; None when it may: a mobile
    Japanese unit that has not moved this phase, in the hex the group starts its move in
    (SNC-9.6.1, SNC-9.6.2, SNC-9.0.10, SNC-9.1.1)."""
    c = s.combat
    assert c is not None and declaring(s)
    loc = locations(s.where)
    if unit not in loc:
        return f"{unit} is not on the map (SNC-9.6.2)"
    if unit in c.attackers:
        return f"{unit} has already joined the overrun of {c.target} (SNC-9.6.2)"
    spec = t.spec[unit]
    if spec.side != JP:
        return f"{unit} is not Japanese: only the Japanese overrun (SNC-9.6.1)"
    if spec.is_static:
        return f"{unit} is static and never moves, so never overruns (SNC-9.1.1, SNC-9.6.2)"
    if unit in s.done:
        return (
            f"{unit} has moved this phase: the overrunning units start their move together "
            "(SNC-9.6.2, SNC-9.0.10)"
        )
    if c.attackers:
        here = loc[c.attackers[0]]
        if loc[unit] != here:
            return (
                f"{unit} is in {loc[unit]}, the group starts its move in {here}: the "
                "overrunning units start their movement in one hex (SNC-9.6.2)"
            )
        return None
    if loc[unit] not in start_hexes(t, s, c.target):
        return f"no group of {loc[unit]} may overrun {c.target} (SNC-9.6.1, SNC-9.6.2)"
    return None


def join_choices(t: Tables, s: SNCState) -> list[str]:
    """The units that may join the overrun group being declared (`join_problem`), in the data's
    order: the first from any hex next to the target whose units may overrun it, the others
    from the first one's hex."""
    c = s.combat
    assert c is not None
    first = c.attackers[:1]
    hexes = [locations(s.where)[first[0]]] if first else start_hexes(t, s, c.target)
    found = [u for h in hexes for u in movable(t, s, h) if u not in c.attackers]
    return sorted(found, key=t.order.__getitem__)


def strike_problem(t: Tables, s: SNCState) -> str | None:
    """Why the declared group may not launch its overrun now; None when it may (the checks
    of `overrun.overrun_problem` from its start hex with its full MF, and a strength above 0,
    SNC-9.6.4, SNC-10.4.1.8)."""
    c = s.combat
    assert c is not None and declaring(s)
    if not c.attackers:
        return "an overrun is made by at least one unit: Join one first (SNC-9.6.2)"
    here = locations(s.where)[c.attackers[0]]
    problem = overrun.overrun_problem(
        t.board, t.data, s.variant, stacks(s.where), c.attackers, here, c.target,
        Fraction(FULL_MP, 2), overrun_this_phase=s.overrun_hexes,
    )  # fmt: skip
    if problem is not None:
        return problem
    if not _strong_enough(t, s, c.attackers, c.target):
        return f"{', '.join(c.attackers)}: the strength rounds down to 0 (SNC-9.6.4, SNC-10.4.1.8)"
    return None


def may_strike(t: Tables, s: SNCState) -> bool:
    return strike_problem(t, s) is None


def why_not(t: Tables, s: SNCState, action: Action) -> IllegalAction | None:
    """The overrun rule a refused overrun step breaks, naming SNC-9.6.x; None for an action
    that is no overrun step."""
    if isinstance(action, Overrun):
        problem = open_problem(t, s, action.target)
        if problem is not None:
            return illegal(f"no overrun of {hex_name(action.target)}: {problem}", "SNC-9.6.1")
    if not declaring(s):
        return None
    if isinstance(action, Join):
        problem = join_problem(t, s, action.unit)
        if problem is not None:
            return illegal(f"{action.unit} may not join: {problem}", "SNC-9.6.2")
    elif isinstance(action, Strike):
        problem = strike_problem(t, s)
        if problem is not None:
            return illegal(f"the overrun may not be launched: {problem}", "SNC-9.6.1")
    else:
        return illegal(
            "the overrun group is being declared: Join its units, then Strike", "SNC-9.6.2"
        )
    return None


def start(t: Tables, s: SNCState, action: Overrun) -> SNCState:
    """`Overrun(target)`: a move under way attempts it with its group at once (SNC-9.6.2: the
    group keeps its units); otherwise the group is declared next (`Step.JOIN`)."""
    if s.moving:
        return launch(t, s, s.moving, action.target)
    return evolve(s, combat=Combat(target=action.target, overrun=True), step=Step.JOIN)


def strike(t: Tables, s: SNCState) -> SNCState:
    """The declared group starts its move with the overrun (SNC-9.6.1, SNC-9.6.2)."""
    c = s.combat
    assert c is not None and declaring(s)
    return launch(t, evolve(s, combat=None, step=Step.MAIN), c.attackers, c.target)


def launch(t: Tables, s: SNCState, units: tuple[str, ...], target: Hex) -> SNCState:
    """Pay for the overrun, stop, and open its battle (SNC-9.6.1, SNC-9.6.3): the defenders
    are revealed (SNC-6.3.1) and fire support follows (SNC-9.6.5)."""
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
    return evolve(
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
        return evolve(s, moving=(), mp=0, done=s.done | frozenset(c.attackers)), False
    origin = loc[survivors[0]]
    cleared = c.target not in side_hexes(s.where, t, CH)
    v = s.variant
    if cleared and v.is_("overrun_cost", "one_mp") and v.is_("overrun_entry", "pays_entry"):
        entry = movement.cost_between(t.board, t.data, v, JP, origin, c.target) or Fraction(0)
        s = evolve(s, mp=max(0, s.mp - int(entry * 2)))  # overrun_entry (found here)
    after = overrun.after_overrun(
        t.board, t.data, s.variant, stacks(s.where), origin, c.target, Fraction(s.mp, 2)
    )
    s = evolve(s, moving=survivors)
    if after.at != origin:
        s = put(s, dict.fromkeys(survivors, after.at))
        s = arrive(t, s, JP, [after.at], "move")  # SNC-3.2.2
    if after.may_move_on:
        return evolve(s, overrun_next="", overrun_target=None), False
    if after.may_overrun_again:
        nxt = "repeat" if after.repeat else "again"
        target = c.target if after.repeat else None
        return evolve(s, overrun_next=nxt, overrun_target=target), False
    return s, True
