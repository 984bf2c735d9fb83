"""The SNC's sequence of play (SNC-5.x): the game turn's phases, the stacking checks between
them (SNC-6.0.2 to SNC-6.0.4), and the sudden-death and victory checks that end the game
(SNC-4.x); pure functions from a state (and an action's arguments) to the next state.

A GT is the Chinese player turn, then the Japanese one (SNC-5.1.1): the phase-order
declaration (`declare`), the First Operations Phase, the Reinforcement Phase, the Second
Operations Phase; the Japanese turn ends with the Victory Check (`next_phase`). What happens
inside a phase is the topic modules' steps: movement (`movement_steps.py`, overruns in
`overrun_steps.py`), combat (`combat_steps.py`), fire support (`support_steps.py`),
reinforcements (`reinforcement_steps.py`), the top unit (`top_unit.py`); `tables.py` is what
they all look up and change. `rules.SNC` dispatches each action to its step.
"""

from __future__ import annotations

from collections.abc import Iterable

from kernel.game import Outcome
from kernel.hexes import Hex, hex_name
from kernel.variants import Variant
from specs.snc1937.rules import stacking, stacking_query, victory
from specs.snc1937.rules.actions import Action, Advance, Move
from specs.snc1937.rules.reinforcement_steps import arrivals, replace_choices
from specs.snc1937.rules.state import CH, JP, Combat, Order, Phase, SNCState, Step, evolve, other
from specs.snc1937.rules.support_steps import chinese_air_ready
from specs.snc1937.rules.tables import Tables, eliminate, leave_move, locations
from specs.snc1937.rules.tables import stacks as stacks  # where tests/tools look it up

# --- the game turn (SNC-5.x) ---------------------------------------------------------------------


def initial_state(t: Tables, variant: Variant) -> SNCState:
    """Set-up (SNC-3.1.1 to SNC-3.1.5, SNC-13.x): at-start units on their hexes (SNC-3.1.4),
    the reinforcements in the TRT box of their GT (SNC-3.1.2, SNC-8.0.1); the Japanese control
    their two hexes (SNC-3.2.1)."""
    # SNC-3.1.4, SNC-3.1.5: the at-start units on their section 13 hexes
    where = {u: h for a in t.data.setup.at_start for u, h in a.place.items()}
    # SNC-3.1.2, SNC-8.0.1: each reinforcement in the TRT box of its GT
    trt = sorted((u, r.gt) for r in t.data.setup.reinforcements for u in r.units)
    jp = frozenset(h for u, h in where.items() if t.spec[u].side == JP)  # SNC-3.2.1
    return SNCState(
        variant=variant,
        turn=1,  # SNC-3.1.1: the Turn marker in box 1
        side=CH,
        phase=Phase.DECLARE,
        step=Step.MAIN,
        order=None,
        where=tuple(sorted(where.items())),
        trt=tuple(trt),
        dead=frozenset(),
        reduced=frozenset(),
        jp_control=jp,
    )


def _phase_reset(s: SNCState, refresh: bool) -> SNCState:
    used = () if refresh else s.used
    return evolve(
        s,
        step=Step.MAIN,
        done=frozenset(),
        attacked=frozenset(),
        ch_air_used=False,
        used=used,
        arrived=frozenset(),
        movable=frozenset(),
        replacements=0,
        overrun_next="",
        overrun_target=None,
        overrun_hexes=frozenset(),
    )


def declare(t: Tables, s: SNCState, order: Order) -> SNCState:
    """The phase-order declaration (SNC-5.3.1, SNC-5.3.3); markers come back at the start of
    the player turn (SNC-8.5.1; AMB-SNC-7)."""
    v = s.variant
    refresh = not v.is_("fire_support_refresh", "each_operations_phase")
    # SNC-5.3.1, SNC-5.3.3: one phase order for the player turn, for all his units
    s = evolve(s, order=order, phase=Phase.OPS1, jp_support_ops1=False)
    # SNC-8.5.1: the markers come back at the start of the player turn
    return _phase_reset(s, refresh or v.is_("fire_support_refresh", "each_operations_phase"))


def end_ops(t: Tables, s: SNCState) -> SNCState:
    """The end of an Operations Phase: a Move phase ends with the mover's stacking check
    (SNC-6.0.2 (a)); then the next phase. The check's hexes are recorded in `checked`."""
    if s.ops_kind() == "move":  # SNC-6.0.2 (a): the check at the end of a Move phase
        st = stacks(s.where)
        checked = stacking.hexes_to_check(st, t.data, s.variant, phasing=s.side)
        s = evolve(s, checked=checked)
        bad = stacking.overstacked(st, checked, t.data, s.variant)
        if bad:
            return evolve(s, step=Step.STACK, stack_hexes=tuple(bad), after_stack="phase")
    return next_phase(t, s)


def start_reinforcements(t: Tables, s: SNCState) -> SNCState:
    """The Reinforcement Phase opens: for the Chinese, from GT 3, air interdiction with
    Chinese air support first (SNC-11.2.1, SNC-11.3.3); for the Japanese, replacements first
    (SNC-8.3.1, SNC-8.3.4)."""
    if s.side == CH:
        if s.turn >= 3 and arrivals(t, s):
            if chinese_air_ready(s):
                return evolve(s, step=Step.AIR_DEFENCE)  # SNC-11.3.3: Chinese air first
            return evolve(s, step=Step.INTERDICT_ROLL)  # SNC-11.2.1: from GT 3
        return s
    s = evolve(s, replacements=2 if s.turn >= 3 else 0)  # SNC-8.3.1: 2 steps from GT 3
    if s.variant.is_("replacement_timing", "any_time"):
        return s  # Replace among the phase's actions (AMB-SNC-20 (iii))
    if replace_choices(t, s):
        return evolve(s, step=Step.REPLACE)  # SNC-8.3.4: replacements come first
    return evolve(s, replacements=0)


def end_reinforcements(t: Tables, s: SNCState) -> SNCState:
    """The end of the Reinforcement Phase: under checked_on_placement the arrivals' hexes are
    checked (AMB-SNC-8 (c)); then the next phase."""
    if s.variant.is_("reinforcement_stacking", "checked_on_placement"):
        hexes = sorted({h for u, h in s.where if u in s.arrived})
        s = evolve(s, checked=tuple(hexes))  # AMB-SNC-8 (c): the arrivals' hexes
        bad = overstacked_hexes(t, s, hexes, s.side)
        if bad:
            return evolve(s, step=Step.STACK, stack_hexes=tuple(bad), after_stack="phase")
    return next_phase(t, s)


def next_phase(t: Tables, s: SNCState) -> SNCState:
    """Move on in the sequence of play (SNC-5.1.1, SNC-5.2.1)."""
    if s.variant.is_("sudden_defeat_timing", "end_of_phase"):
        found = sudden_death(t, s, end_of_phase=True)
        if found is not None:
            return evolve(s, phase=Phase.OVER, step=Step.MAIN, result=found)
    s = evolve(s, stack_hexes=(), after_stack="", combat=None)
    if s.phase == Phase.OPS1:  # SNC-5.1.1: (A) First Operations, then (B) Reinforcement
        # SNC-10.0.8: a new phase, so no unit has been attacked in it yet
        s = evolve(s, phase=Phase.REINF, step=Step.MAIN, attacked=frozenset())
        return start_reinforcements(t, s)
    if s.phase == Phase.REINF:
        refresh = s.variant.is_("fire_support_refresh", "each_operations_phase")
        # this Reinforcement Phase's arrivals that acted in it (a unit of the First Operations
        # Phase is free again): Chinese that moved, Japanese that landed by combat
        # (landing_is_attack=counts)
        moved = s.done & s.arrived
        s = _phase_reset(evolve(s, phase=Phase.OPS2), refresh)
        if s.side == JP:
            if s.ops_kind() == "fight":
                s = evolve(s, done=moved)  # AMB-SNC-12: a landing was their attack
        elif s.ops_kind() == "move" and s.variant.is_(
            "reinforcement_actions", "second_phase_order"
        ):
            s = evolve(s, done=moved)  # AMB-SNC-38: moved once in the Reinforcement Phase
        return s
    if s.side == CH:  # SNC-5.1.1: the Chinese player turn (I), then the Japanese one (II)
        return evolve(s, side=JP, phase=Phase.DECLARE, step=Step.MAIN, order=None)
    found = victory_check(t, s)  # II.D Victory Check Phase
    if found is not None:  # SNC-5.2.2: the game ends (a Japanese win, or GT 12 is over)
        return evolve(s, phase=Phase.VICTORY, step=Step.MAIN, result=found)
    return evolve(
        s, turn=s.turn + 1, side=CH, phase=Phase.DECLARE, step=Step.MAIN, order=None
    )  # SNC-5.2.1


# --- after every action: sudden death (SNC-4.1.x, SNC-4.2.1), the top units (AMB-SNC-40) ---------


def settle(t: Tables, before: SNCState, action: Action, after: SNCState) -> SNCState:
    """`after`, the state `action` led to from `before`, once sudden death is checked
    (`sudden_end`); a new phase (the end of the game included) lets units be put on top
    afresh (AMB-SNC-40)."""
    s = sudden_end(t, before, action, after)
    if s.topped and (s.phase, s.side) != (before.phase, before.side):
        s = evolve(s, topped=frozenset())
    return s


def sudden_end(t: Tables, before: SNCState, action: Action, after: SNCState) -> SNCState:
    """Sudden death is checked after every action (SNC-4.1.1, SNC-4.1.2, SNC-4.2.1), with
    the hexes Chinese units just moved or advanced into (AMB-SNC-14)."""
    s = after
    if s.result is not None:
        return evolve(s, phase=Phase.OVER, step=Step.MAIN, combat=None)
    entered: set[Hex] = set()
    if isinstance(action, Move):
        entered = chinese_entered(t, before, s, action.units)
    elif isinstance(action, Advance):
        entered = chinese_entered(t, before, s, (action.unit,))
    found = sudden_death(t, s, entered=entered)
    if found is not None:
        return evolve(s, phase=Phase.OVER, step=Step.MAIN, combat=None, result=found)
    return s


def chinese_entered(
    t: Tables, before: SNCState, after: SNCState, movers: tuple[str, ...]
) -> set[Hex]:
    """The hexes Chinese units came into from `before` to `after`, a step that moved the
    `movers` (a Move's group, an advancing unit) and no other unit into a hex: the rest of
    the step only removes units or places Japanese garrisons (AMB-SNC-14)."""
    spec = t.spec
    if not movers or spec[movers[0]].side != CH:
        return set()  # a Japanese step (a group is of one side, SNC-9.0.12): nothing to see
    old, new = locations(before.where), locations(after.where)
    return {
        h
        for u in movers
        if spec[u].side == CH and (h := new.get(u)) is not None and old.get(u) != h
    }


def sudden_death(
    t: Tables, s: SNCState, *, end_of_phase: bool = False, entered: Iterable[Hex] = ()
) -> Outcome | None:
    """The Chinese sudden-death victory (`victory.sudden_victory`: SNC-4.1.1, SNC-4.1.2;
    `entered` are the hexes Chinese units just moved or advanced into, for
    gt8_adjacency=must_gain, AMB-SNC-14) and defeat (`victory.sudden_defeat`: SNC-4.2.1),
    the defeat looked at after each action, once no move or combat is under way, or at phase
    ends per `sudden_defeat_timing` (AMB-SNC-15, `victory.defeat_checked_now`)."""
    st = stacks(s.where)
    won = victory.sudden_victory(t.board, t.data, st, s.jp_control, s.turn, s.variant, entered)
    if won is not None:
        return won
    busy = bool(s.moving) or s.combat is not None  # a move or a combat under way
    if end_of_phase or victory.defeat_checked_now(s.variant, busy=busy):
        return victory.sudden_defeat(t.board, t.data, st, s.turn, s.variant)
    return None


def victory_check(t: Tables, s: SNCState) -> Outcome | None:
    """The Victory Check Phase (`victory.victory_check`: SNC-4.3.1 to SNC-4.3.3)."""
    return victory.victory_check(t.board, t.data, stacks(s.where), s.jp_control, s.turn, s.variant)


# --- the stacking checks (SNC-6.0.2 to SNC-6.0.4, SNC-6.2.x) -------------------------------------


def overstacked(t: Tables, v: Variant, units: tuple[str, ...]) -> bool:
    """Whether one side's units in a hex break the limit (SNC-6.2.1 to SNC-6.2.4, through
    `stacking.py`: static_de, japanese_stack, snlf_partial_division)."""
    return bool(units) and not stacking.within_limits(units, t.data, v)


def overstacked_hexes(t: Tables, s: SNCState, hexes: Iterable[Hex], side: str) -> list[Hex]:
    st = stacks(s.where)
    return [
        h
        for h in hexes
        if (us := st.get(h)) and t.spec[us[0]].side == side and overstacked(t, s.variant, us)
    ]


def combat_hexes(t: Tables, s: SNCState, c: Combat) -> list[Hex]:
    loc = locations(s.where)
    hexes = {c.target} | {loc[u] for u in c.attackers if u in loc}
    return sorted(hexes)


def after_combat(t: Tables, s: SNCState) -> SNCState:
    """The stacking check after each combat, both sides (SNC-6.0.2 (b), SNC-6.0.3;
    AMB-SNC-8); its hexes are recorded in `checked`."""
    c = s.combat
    assert c is not None
    st = stacks(s.where)
    fought = combat_hexes(t, s, c)
    # SNC-6.0.2 (b), SNC-6.0.3: after each combat, both players' units are checked
    checked = stacking.hexes_to_check(st, t.data, s.variant, phasing=s.side, after_combat=fought)
    s = evolve(s, checked=checked, combat=None)
    bad = stacking.overstacked(st, checked, t.data, s.variant)
    if bad:
        return evolve(s, step=Step.STACK, stack_hexes=bad, after_stack="main")
    return evolve(s, step=Step.MAIN)


def stack_chooser(t: Tables, s: SNCState) -> tuple[str, list[Hex]]:
    """Who culls next: the phasing side first, then the other (SNC-6.0.4)."""
    for side in (s.side, other(s.side)):
        bad = overstacked_hexes(t, s, s.stack_hexes, side)
        if bad:
            return side, bad
    return s.side, []


def cull_choices(t: Tables, s: SNCState) -> list[str]:
    """The units the owner may eliminate next from his over-stacked hexes (SNC-6.0.4): those
    of some legal choice (`overstack_cull`: no unit needlessly, or the fewest) that holds
    every unit he has culled there in this check; the choices come from the solver layer
    (`stacking_query.compliance_choices`)."""
    _, bad = stack_chooser(t, s)
    st = stacks(s.where)
    out: list[str] = []
    for h in bad:
        prior = tuple(sorted(u for u, x in s.culled if x == h))
        allowed = stacking_query.cull_next(hex_name(h), st[h], prior, t.data, s.variant)
        out.extend(u for u in st[h] if u in allowed)
    return out


def cull(t: Tables, s: SNCState, unit: str) -> SNCState:
    """The owner eliminates `unit` from an over-stacked hex (SNC-6.0.4); the check goes on
    until every hex it covers is within the limits."""
    culled = (*s.culled, (unit, locations(s.where)[unit]))
    s = evolve(eliminate(t, s, [unit]), culled=culled)
    if unit in s.moving:  # a culled unit of a move under way (SNC-6.0.4)
        s = leave_move(s, unit)
    return finish_stack(t, s)


def finish_stack(t: Tables, s: SNCState) -> SNCState:
    """Once no hex of the check is over-stacked, play goes on where it stood, or (after a
    phase's check) with the next phase."""
    _, bad = stack_chooser(t, s)
    if bad:
        return s
    after = s.after_stack
    s = evolve(s, stack_hexes=(), after_stack="", step=Step.MAIN, culled=())
    return next_phase(t, s) if after == "phase" else s
