"""Combat in the sequence of play (SNC-10.x; a landing's, SNC-8.4.0.4 to SNC-8.4.1.3): from the
declaration of an attack to the advance after it, in the order play takes.

An attack is declared one hex at a time (`Attack`), its attackers join one by one (`Join`) and
`Strike` closes the declaration (SNC-10.0.5, SNC-10.1.2); fire support follows
(`support_steps.py`), then the die (`roll`). The defender takes his step losses, then the
attacker (SNC-10.5.1.1, SNC-10.5.2.x); then the victors may advance (SNC-10.5.3.x). A landing
combat's defenders that survive retreat one hex, its survivors come ashore and the 10th Army's
may advance a second hex (SNC-8.4.0.7 to SNC-8.4.1.3); an overrun's group goes on with its move
(`overrun_steps.finish`). Each combat of a Fight phase ends with the stacking check
(`sequence.after_combat`); an overrun's, only under overrun_stacking=after_each_overrun
(`overrun_stack`, SNC-6.0.2, AMB-SNC-8).
The choices each step offers are `combat_choices.py`'s; which hexes may be attacked and by
whom, `combat_query.py`'s; the odds, `tables.battle`.
"""

from __future__ import annotations

import attrs

from kernel.hexes import Hex
from specs.snc1937.rules import (
    movement_steps,
    overrun_steps,
)
from specs.snc1937.rules.combat_choices import (
    advance_choices,
    advance_on_choices,
    alive,
    ashore_choices,
    mobile,
    retreat_hexes,
)
from specs.snc1937.rules.sequence import after_combat
from specs.snc1937.rules.state import CH, JP, Combat, SNCState, Step, evolve
from specs.snc1937.rules.tables import (
    Tables,
    arrive,
    crt,
    eliminate,
    leave_move,
    locations,
    put,
    stacks,
    take_step,
    trt_without,
)

# --- the declaration (SNC-10.0.x, SNC-10.1.x) ----------------------------------------------------


def attack(s: SNCState, target: Hex) -> SNCState:
    """An attack on `target` is declared (SNC-10.0.5, SNC-10.1.2: one hex, one attack at a
    time, in any order); its attackers join next."""
    combat = Combat(target=target, defenders=stacks(s.where)[target])
    # SNC-10.1.2: this attack is finished (advance included) before another is declared
    return evolve(s, combat=combat, step=Step.JOIN)


def join(s: SNCState, unit: str) -> SNCState:
    """SNC-10.0.5: any number of adjacent attackers, from any hexes."""
    assert s.combat is not None
    c = attrs.evolve(s.combat, attackers=(*s.combat.attackers, unit))
    return evolve(s, combat=c)


def strike(s: SNCState) -> SNCState:
    """The attackers are all declared: the defenders are revealed and fire support follows
    (SNC-6.3.1, SNC-11.1.1)."""
    assert s.combat is not None
    c = s.combat
    s = evolve(
        s,
        done=s.done | frozenset(c.attackers),  # SNC-10.0.7: they attack once
        attacked=s.attacked | {c.target},  # SNC-10.0.8: attacked once a phase
        combat=attrs.evolve(c, defenders=stacks(s.where)[c.target]),  # SNC-10.0.4
    )
    return evolve(s, step=Step.SUPPORT_A)  # SNC-6.3.1: revealed now


# --- the die and the losses (SNC-10.5.0.1 to SNC-10.5.2.x) ---------------------------------------


def roll(t: Tables, s: SNCState, face: int) -> SNCState:
    """The combat die on the final column (SNC-10.5.0.1): the steps each side loses, the
    defender's first (SNC-10.5.1.1)."""
    c = s.combat
    assert c is not None
    lost_a, lost_d = crt(t, s, c, face)  # SNC-10.5.0.1: the die, the final column
    # SNC-10.5.1.1: step losses only, the attacker's and the defender's
    c = attrs.evolve(c, face=face, loss_a=lost_a, loss_d=lost_d, won=lost_a < lost_d)
    return _losses_d(t, evolve(s, combat=c))


def loss(t: Tables, s: SNCState, unit: str) -> SNCState:
    """One step off `unit` (SNC-2.2.1.12, SNC-2.2.1.13), the defender's or the attacker's."""
    c = s.combat
    assert c is not None
    s = take_step(t, s, unit)
    if unit in s.moving and unit in s.dead | frozenset(s.elite):  # an overrunner lost
        s = leave_move(s, unit)
    if s.step == Step.LOSS_D:
        c = attrs.evolve(c, loss_d=c.loss_d - 1)
        s = evolve(s, combat=c)
        return _losses_d(t, s)
    c = attrs.evolve(c, loss_a=c.loss_a - 1)
    return _losses_a(t, evolve(s, combat=c))


def _losses_d(t: Tables, s: SNCState) -> SNCState:
    """Defender losses first (SNC-10.5.1.1; in a landing, SNC-8.4.0.7)."""
    c = s.combat
    assert c is not None
    if c.loss_d > 0 and stacks(s.where).get(c.target):
        return evolve(s, step=Step.LOSS_D)
    return _after_losses_d(t, s)


def _after_losses_d(t: Tables, s: SNCState) -> SNCState:
    """The defender's losses are over (the rest cannot be absorbed, SNC-10.5.1.3); in a
    landing the defenders still there retreat (SNC-8.4.0.9); then the attacker's losses."""
    c = s.combat
    assert c is not None
    s = evolve(s, combat=attrs.evolve(c, loss_d=0))
    if c.landing and stacks(s.where).get(c.target):
        # SNC-8.4.0.9: garrison steps are eliminated, the rest retreat, one more step
        here = stacks(s.where)[c.target]
        garrisons = [u for u in here if t.spec[u].is_static]
        s = eliminate(t, s, garrisons)
        s = evolve(s, combat=attrs.evolve(c, loss_d=0, loss_a=c.loss_a + 1))
        return landing_retreats(t, s)
    return _losses_a(t, s)


def _losses_a(t: Tables, s: SNCState) -> SNCState:
    c = s.combat
    assert c is not None
    if c.loss_a > 0 and alive(s):
        return evolve(s, step=Step.LOSS_A)
    return _after_losses(t, s)


def _after_losses(t: Tables, s: SNCState) -> SNCState:
    """Losses over (the rest cannot be absorbed, SNC-10.5.1.3): a landing's survivors
    come ashore (SNC-8.4.0.8, SNC-8.4.0.9); an overrun's group goes on (SNC-9.6.6 to
    SNC-9.6.8); otherwise the advance (SNC-10.5.3.1)."""
    c = s.combat
    assert c is not None
    if c.landing:
        return _survivors_land(t, s)
    if c.overrun:
        s, stop = overrun_steps.finish(t, s)  # SNC-9.6.6 to SNC-9.6.8
        if stop:
            s = movement_steps.stop(t, s)
        return overrun_stack(t, s)
    if advance_choices(t, s):
        return evolve(s, step=Step.ADVANCE)
    return after_combat(t, s)


# --- the advance (SNC-10.5.3.x) ------------------------------------------------------------------


def advance_unit(t: Tables, s: SNCState, unit: str) -> SNCState:
    """One unit advances into the emptied hex (SNC-10.5.3.1), or comes ashore from a landing
    (AMB-SNC-12)."""
    c = s.combat
    assert c is not None
    if c.landing:
        s = _ashore(t, s, (unit,))
        return s if ashore_choices(t, s) else _ashore_done(t, s)
    target = c.target
    s = put(s, {unit: target})  # SNC-10.5.3.1: into the emptied hex
    s = arrive(t, s, s.side, [target], "advance")
    if advance_choices(t, s):
        return s
    return after_combat(t, s)


def end_advance(t: Tables, s: SNCState) -> SNCState:
    """No more units advance (or come ashore): the combat ends."""
    c = s.combat
    if c is not None and c.landing:
        return _ashore_done(t, s)
    return after_combat(t, s)


# --- a landing's defenders retreat (SNC-8.4.0.9, SNC-8.4.1.3; AMB-SNC-11) ------------------------


def retreat_unit(t: Tables, s: SNCState, unit: str, to: Hex) -> SNCState:
    """A Chinese unit retreats one hex (SNC-8.4.0.9, SNC-8.4.1.3); then the next. Out of a
    landing combat it has defended this phase wherever it goes (SNC-10.0.8)."""
    c = s.combat
    if c is not None and c.second is None:
        s = evolve(s, attacked=s.attacked | {to})  # SNC-10.0.8: `to` holds a defender
    s = put(s, {unit: to})
    s = arrive(t, s, CH, [to], "retreat")
    return landing_retreats(t, s)


def landing_retreats(t: Tables, s: SNCState) -> SNCState:
    """Each Chinese unit retreats one hex (SNC-8.4.0.9, SNC-8.4.1.3); one with nowhere to
    go is eliminated, or stays under retreat_blocked=stays (AMB-SNC-11). A static unit (in
    the 10th Army's second hex) has nowhere to go: it never moves (SNC-2.2.1.8, SNC-9.1.1).
    Then the 10th Army unit's advance goes on, or the landing's attacker losses."""
    c = s.combat
    assert c is not None
    origin = c.second or c.target
    while here := stacks(s.where).get(origin, ()):
        movable = mobile(t, here)
        if movable and retreat_hexes(t, s, origin):
            return evolve(s, step=Step.RETREAT)
        if s.variant.is_("retreat_blocked", "stays"):
            break
        s = eliminate(t, s, [(movable or list(here))[0]])
    if c.second is not None:
        return _advance_on_done(t, s)
    return _losses_a(t, s)


# --- a landing's survivors come ashore (SNC-8.4.0.8, SNC-8.4.1.2; AMB-SNC-11, AMB-SNC-12) -------


def _survivors_land(t: Tables, s: SNCState) -> SNCState:
    """After a landing's losses its survivors come ashore: all at once into the emptied hex,
    or under landing_unpaid_losses=attackers_stay_at_sea one at a time as they fit
    (AMB-SNC-12); none while Chinese units stay there (retreat_blocked=stays)."""
    c = s.combat
    assert c is not None
    if s.variant.is_("landing_unpaid_losses", "attackers_stay_at_sea"):
        if ashore_choices(t, s):
            return evolve(s, step=Step.ADVANCE)  # one at a time (AMB-SNC-12)
        return _ashore_done(t, s)
    here = stacks(s.where).get(c.target, ())
    if here and t.spec[here[0]].side == CH:
        return _ashore_done(t, s)  # they stayed (retreat_blocked=stays)
    return _landed(t, _ashore(t, s, tuple(alive(s))))


def _ashore(t: Tables, s: SNCState, units: tuple[str, ...]) -> SNCState:
    c = s.combat
    assert c is not None
    s = evolve(s, trt=trt_without(s, units))
    s = put(s, dict.fromkeys(units, c.target))
    if units:
        s = arrive(t, s, JP, [c.target], "advance")
    return evolve(s, arrived=s.arrived | frozenset(units))


def _ashore_done(t: Tables, s: SNCState) -> SNCState:
    """The survivors left at sea land in a later GT (AMB-SNC-12 attackers_stay_at_sea;
    also when Chinese units stayed in the hex, AMB-SNC-11 stays); SNC-8.0.2's box."""
    c = s.combat
    assert c is not None
    loc = locations(s.where)
    at_sea = [u for u in alive(s) if u not in loc]
    if at_sea:
        later = trt_without(s, at_sea)
        s = evolve(s, trt=tuple(sorted((*later, *((u, s.turn + 1) for u in at_sea)))))
    return _landed(t, s)


def _landed(t: Tables, s: SNCState) -> SNCState:
    """The landing is over: 10th Army units may make a second hex of advance
    (SNC-8.4.1.2), then the landing's stacking check (AMB-SNC-8 (c))."""
    if advance_on_choices(t, s):
        return evolve(s, step=Step.ADVANCE_ON)
    return landing_stack(t, s)


def overrun_stack(t: Tables, s: SNCState) -> SNCState:
    """After an overrun: SNC-6.0.2 names only the end of a Move phase (a) and the combats of a
    Fight phase (b), so under overrun_stacking=end_of_phase (both presets) the overrun starts
    no check and the hex may stay over-stacked while units move out, until check (a) at the
    phase's end (`sequence.end_ops`); under after_each_overrun check (b) follows it
    (AMB-SNC-8)."""
    if s.variant.is_("overrun_stacking", "after_each_overrun"):
        return after_combat(t, s)
    return evolve(s, combat=None, step=Step.MAIN)


def landing_stack(t: Tables, s: SNCState) -> SNCState:
    """After a landing: its hexes are checked only under checked_on_placement
    (AMB-SNC-8 (c))."""
    if s.variant.is_("reinforcement_stacking", "checked_on_placement"):
        return after_combat(t, s)
    return evolve(s, combat=None, step=Step.MAIN)


# --- the 10th Army's second hex (SNC-8.4.1.2, SNC-8.4.1.3) ---------------------------------------


def advance_on(t: Tables, s: SNCState, unit: str, to: Hex) -> SNCState:
    """A 10th Army unit's second hex (SNC-8.4.1.2); into a Chinese-held coastal hex the
    Chinese first retreat one hex (SNC-8.4.1.3)."""
    c = s.combat
    assert c is not None
    s = evolve(s, combat=attrs.evolve(c, second=to, second_unit=unit))
    if stacks(s.where).get(to):
        here = stacks(s.where)[to]
        if t.spec[here[0]].side == CH:
            return landing_retreats(t, s)  # SNC-8.4.1.3: the Chinese there retreat one hex
    return _advance_on_done(t, s)


def _advance_on_done(t: Tables, s: SNCState) -> SNCState:
    c = s.combat
    assert c is not None and c.second is not None and c.second_unit is not None
    to, unit = c.second, c.second_unit
    s = evolve(s, combat=attrs.evolve(c, second=None, second_unit=None))
    # SNC-8.4.1.2: into any adjacent hex not occupied by Chinese units, Japanese-held ones
    # included; SNC-8.4.1.3: a Chinese hex once its units retreated (not under
    # retreat_blocked=stays, where they remain and the unit stays in the landing hex)
    if not any(t.side_of[u] == CH for u in stacks(s.where).get(to, ())):
        s = put(s, {unit: to})
        s = arrive(t, s, JP, [to], "advance")
    return _landed(t, s)
