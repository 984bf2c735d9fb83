"""The SNC position check's domains: each field of a position within the values the rules give
it, not the values play happened to show (part of `position.check_position`).

The steps a phase has (SNC-5.1.1, SNC-5.3.1, SNC-8.x, SNC-9.6.x, SNC-10.x, SNC-11.2.x), the hex
a static unit may be in (SNC-2.2.1.8, SNC-9.1.3), who may attack and defend (SNC-10.0.3,
SNC-10.2.1), the TRT boxes a counter may wait in (SNC-3.1.2, SNC-8.0.2, SNC-8.0.4, SNC-8.1.2,
SNC-8.1.3), and the hexes a stacking check left over the limits (SNC-6.0.2 to SNC-6.0.4). Each
refusal names the JSON field and the clauses.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from kernel.errors import ImpossiblePosition
from kernel.hexes import Hex
from specs.snc1937.formal.breach import SUDDEN_DEATH
from specs.snc1937.rules import stacking
from specs.snc1937.rules.state import CH, JP, LAST_GT, Phase, SNCState, Step, other
from specs.snc1937.rules.tables import stacks

if TYPE_CHECKING:
    from specs.snc1937.rules.tables import Tables


def _refuse(message: str, field: str, *clauses: str) -> ImpossiblePosition:
    return ImpossiblePosition(f"{message} ({', '.join(clauses)})", field=field, clauses=clauses)


FIGHT_STEPS = frozenset(
    {
        Step.JOIN, Step.SUPPORT_A, Step.AIR_ASK, Step.AIR_ROLL, Step.SUPPORT_D, Step.ROLL,
        Step.LOSS_D, Step.LOSS_A, Step.ADVANCE,
    }
)  # fmt: skip
"""An attack of a Fight phase: declared and joined, supported, rolled, the losses, the advance
(SNC-10.0.5 to SNC-10.5.3.x, SNC-11.1.x, SNC-11.3.1, SNC-11.3.2)."""
OVERRUN_STEPS = FIGHT_STEPS - {Step.ADVANCE}
"""An overrun: its group declared unit by unit from its start hex when no move is under way
(`Step.JOIN`, SNC-9.6.2), its battle, and the group goes on with its move instead of advancing
(SNC-9.6.3 to SNC-9.6.8)."""
LANDING_STEPS = (FIGHT_STEPS - {Step.JOIN}) | {Step.RETREAT, Step.ADVANCE_ON}
"""A landing combat: the landing group attacks, the Chinese survivors retreat, the survivors
come ashore and the 10th Army's may advance a second hex (SNC-8.4.0.4 to SNC-8.4.1.3)."""


def phase_steps(s: SNCState) -> frozenset[Step]:
    """The steps the phase of `s` has in the sequence of play (SNC-5.1.1). The declaration and
    the end of the game have their main step only (SNC-5.3.1, SNC-5.2.2); an Operations Phase
    its main step and the stacking culls (SNC-6.0.4), with the attacks of a Fight phase
    (SNC-10.x) or, in a Japanese Move phase, overruns (SNC-9.6.x); the Chinese Reinforcement
    Phase its interdiction, with Chinese air support against it (SNC-11.2.1, SNC-11.2.2,
    SNC-11.3.3); the Japanese one its replacements and landings (SNC-8.3.4, SNC-8.4.x)."""
    base = frozenset({Step.MAIN, Step.STACK})
    if s.phase == Phase.REINF:
        if s.side == CH:
            return base | {Step.AIR_DEFENCE, Step.AIR_ROLL, Step.INTERDICT_ROLL, Step.INTERDICT}
        return base | {Step.REPLACE} | LANDING_STEPS
    if s.phase in (Phase.OPS1, Phase.OPS2) and s.order is not None:
        if s.ops_kind() == "fight":
            return base | FIGHT_STEPS
        moving = base | {Step.GROUP}  # a group formed to move together (SNC-9.0.10)
        return (moving | OVERRUN_STEPS) if s.side == JP else moving
    return frozenset({Step.MAIN})


def check_domains(t: Tables, s: SNCState) -> None:
    """Each field within its domain as the rules give it (see the module docstring)."""
    _check_steps(s)
    _check_static(t, s)
    _check_combatants(t, s)
    _check_trt(t, s)
    _check_stacking(t, s)
    _check_records(t, s)


def _check_steps(s: SNCState) -> None:
    """The step belongs to the phase (`phase_steps`), and a combat to the phase that has it: a
    landing to the Japanese Reinforcement Phase, an overrun to a Japanese Move phase, an attack
    to a Fight phase. The Victory Check Phase is passed at once: the game ends there or the
    next GT opens (SNC-4.3.1, SNC-5.2.1)."""
    if s.phase == Phase.VICTORY:
        raise _refuse(
            "the Victory Check Phase passes at once: the game ends in it or the next GT opens",
            "phase",
            "SNC-4.3.1",
            "SNC-5.2.1",
        )
    if s.step not in phase_steps(s):
        kind = f" ({s.ops_kind()})" if s.phase in (Phase.OPS1, Phase.OPS2) and s.order else ""
        raise _refuse(
            f"step {s.step.value} is no step of the {s.side} {s.phase.value} phase{kind}",
            "step",
            "SNC-5.1.1",
            "SNC-5.3.1",
        )
    c = s.combat
    interdiction = s.phase == Phase.REINF and s.side == CH
    if s.step == Step.AIR_ROLL and (c is None) != interdiction:
        raise _refuse(
            "the air die rolls for an air marker in a combat, or against interdiction in the "
            "Chinese Reinforcement Phase",
            "combat",
            "SNC-11.3.2",
            "SNC-11.3.3",
        )
    if c is None:
        return
    if c.landing != (s.phase == Phase.REINF):
        raise _refuse(
            "a combat of the Reinforcement Phase is a landing, and a landing is fought there",
            "combat.landing",
            "SNC-8.4.0.4",
        )
    move_phase = s.phase in (Phase.OPS1, Phase.OPS2) and s.ops_kind() == "move"
    if c.overrun != move_phase:
        raise _refuse(
            "a combat of a Move phase is an overrun, and an overrun is made while moving",
            "combat.overrun",
            "SNC-9.6.2",
            "SNC-9.6.3",
        )


@functools.cache
def _static_homes(t: Tables) -> dict[str, Hex]:
    """Each static unit set up on the map, with its section 13 hex (SNC-3.1.4)."""
    return {u: h for a in t.data.setup.at_start for u, h in a.place.items() if t.spec[u].is_static}


@functools.cache
def garrison_pool(t: Tables) -> frozenset[str]:
    """The Japanese garrisons that start off the map, in the pool a captured city draws from
    (SNC-9.1.3): all but the two set up on the map (SNC-9.1.2, SNC-13.24, SNC-13.25)."""
    return frozenset(u for u in t.jp_garrisons if u not in _static_homes(t))


def _check_static(t: Tables, s: SNCState) -> None:
    """Static units never move (SNC-2.2.1.8, SNC-9.1.1) nor attack (SNC-10.2.1): one set up
    on the map is in its set-up hex, or dead; a Japanese garrison from the pool is placed in a
    city a Japanese unit entered, one garrison to a city, the first of the pool in counter
    order (SNC-9.1.3, AMB-SNC-37, `control.garrison_to_place`); none is in a move under way or
    among the units free to move."""
    homes = _static_homes(t)
    garrison_of: dict[Hex, str] = {}
    for i, (u, h) in enumerate(s.where):
        spec = t.spec[u]
        if not spec.is_static:
            continue
        if u in homes and h != homes[u]:
            raise _refuse(
                f"static {u} is in {h}, not in its set-up hex {homes[u]}: static units never move",
                f"where[{i}].hex",
                "SNC-2.2.1.8",
                "SNC-9.1.1",
            )
        if spec.side == JP and u not in homes and not t.board.is_city(h):
            raise _refuse(
                f"garrison {u} is in {h}, and garrisons from the pool go to cities",
                f"where[{i}].hex",
                "SNC-9.1.3",
            )
        if spec.side == JP and garrison_of.setdefault(h, u) != u:
            raise _refuse(
                f"{garrison_of[h]} and {u} both garrison {h}: a city gets one garrison",
                f"where[{i}].unit",
                "SNC-9.1.3",
            )
    on_map = {u for u, _ in s.where}
    pool = garrison_pool(t)
    drawn = [u in on_map or u in s.dead for u in t.jp_garrisons if u in pool]
    if drawn != sorted(drawn, reverse=True):
        raise _refuse(
            "garrisons leave the pool in counter order", "where", "SNC-9.1.3", "AMB-SNC-37"
        )
    for name, units in (("moving", s.moving), ("movable", sorted(s.movable))):
        for k, u in enumerate(units):
            if t.spec[u].is_static:
                raise _refuse(f"static {u} never moves", f"{name}[{k}]", "SNC-2.2.1.8", "SNC-9.1.1")


def _check_combatants(t: Tables, s: SNCState) -> None:
    """Who fights: the attackers are the phasing player's (SNC-10.0.3; an overrun's are the
    Japanese moving group, SNC-9.6.2; a landing's the Japanese arrivals, SNC-8.4.0.4), each
    once, never a static unit (SNC-2.2.1.6, SNC-10.2.1, SNC-10.2.3); on the map they are next
    to the target (SNC-10.0.5) or, once advanced, in it or one hex beyond (SNC-10.5.3.x,
    SNC-8.4.1.2); off it, eliminated (an elite unit perhaps back on the TRT already,
    SNC-8.1.2), or a landing's still at sea; the defenders are the other player's
    (SNC-10.0.3)."""
    c = s.combat
    if c is None:
        return
    if len(set(c.attackers)) != len(c.attackers):
        raise _refuse("each attacker attacks once", "combat.attackers", "SNC-10.0.7")
    loc = dict(s.where)
    at_sea = {u for u, _ in s.trt}
    near = {c.target, *t.board.neighbors(c.target)}
    for k, u in enumerate(c.attackers):
        spec = t.spec[u]
        where = f"combat.attackers[{k}]"
        if spec.side != s.side:
            raise _refuse(
                f"{u} is {spec.side}'s, and in this player turn {s.side} attacks",
                where,
                "SNC-10.0.3",
            )
        if spec.is_static:
            raise _refuse(f"{u} is static and never attacks", where, "SNC-2.2.1.6", "SNC-10.2.1")
        h = loc.get(u)
        gone = u in s.dead or u in s.elite or u in at_sea  # at sea, or an elite unit's box
        if (h is None and not gone) or (h is not None and h not in near):
            raise _refuse(
                f"{u} is not next to {c.target}, in it, or eliminated",
                where,
                "SNC-10.0.5",
                "SNC-8.4.0.4",
            )
    for k, u in enumerate(c.defenders):
        if t.spec[u].side != other(s.side):
            raise _refuse(
                f"{u} is {s.side}'s, the attacking player's, so it defends nothing",
                f"combat.defenders[{k}]",
                "SNC-10.0.3",
            )


def _reinforcement_phase_over(s: SNCState, side: str) -> bool:
    """Whether `side`'s Reinforcement Phase of this GT is over (SNC-5.1.1: the Chinese player
    turn comes first). A game over may have ended inside one, so it counts only the Chinese
    player turn's being over."""
    if side == CH and s.side == JP:
        return True
    return s.side == side and s.phase == Phase.OPS2


def _check_trt(t: Tables, s: SNCState) -> None:
    """The TRT box a counter may wait in. A reinforcement waits from its counter's GT
    (SNC-3.1.2, SNC-8.0.4) and is delayed a GT at a time (SNC-8.0.2; a landing's survivors left
    at sea wait likewise), so never beyond the later of its GT and the next; a Chinese elite
    unit comes back reduced 1 to 6 GTs after its elimination and never beyond GT 12 (SNC-8.1.2,
    SNC-8.1.3), or a GT later when delayed; no other counter is on the TRT (SNC-8.0.1,
    SNC-8.1.1). What is due is placed or delayed in its owner's Reinforcement Phase
    (SNC-5.4.1), so no box lies behind the GT, nor at it once that phase is over."""
    for i, (u, box) in enumerate(s.trt):
        spec = t.spec[u]
        where = f"trt[{i}].gt"
        record = t.record.get(u)
        if spec.side == CH and u in s.reduced:
            if spec.arm != "elite":
                raise _refuse(
                    f"{u} is reduced on the TRT, and only elite Chinese units come back",
                    f"trt[{i}].unit",
                    "SNC-8.1.1",
                    "SNC-8.1.2",
                )
            if box > min(LAST_GT, s.turn + 6) and box != s.turn + 1:
                raise _refuse(
                    f"{u} comes back at most 6 GTs after its elimination and by GT {LAST_GT}, "
                    f"not in GT {box}",
                    where,
                    "SNC-8.1.2",
                    "SNC-8.1.3",
                )
        elif record is None:
            raise _refuse(
                f"{u} is no reinforcement and waits on no TRT box",
                f"trt[{i}].unit",
                "SNC-3.1.2",
                "SNC-8.0.1",
            )
        elif box < record.gt:
            raise _refuse(
                f"{u} arrives in GT {record.gt} at the earliest, so it waits in no earlier box "
                f"than {record.gt}, not in {box}",
                where,
                "SNC-8.0.4",
                "SNC-3.1.2",
            )
        elif box > max(record.gt, s.turn + 1):
            raise _refuse(
                f"{u} of GT {record.gt} is delayed a GT at a time, so it waits by GT "
                f"{max(record.gt, s.turn + 1)}, not in {box}",
                where,
                "SNC-8.0.2",
            )
        low = s.turn + 1 if _reinforcement_phase_over(s, spec.side) else s.turn
        if box < low:
            raise _refuse(
                f"{u} waits in GT {box}, and what was due by GT {low - 1} was placed or delayed",
                where,
                "SNC-5.4.1",
                "SNC-8.0.2",
            )


def _check_stacking(t: Tables, s: SNCState) -> None:
    """A stacking check leaves over the limits only the hexes it hands to their owner's culls
    (SNC-6.0.2 to SNC-6.0.4): a hex it covered (`checked`) is over the limits only in the stack
    step, among its `stack_hexes`, and the stack step has a hex over the limits to cull. A game
    ended by sudden death ended at once, whatever check was under way (SNC-4.1.1, SNC-4.1.2,
    SNC-4.2.1)."""
    if s.result is not None and s.result.clause in SUDDEN_DEATH:
        return
    st = stacks(s.where)
    pending = s.stack_hexes if s.step == Step.STACK else ()
    for h in stacking.overstacked(st, s.checked, t.data, s.variant):
        if h not in pending:
            raise _refuse(
                f"{h} is over the stacking limits, and the check that covered it left it so",
                f"checked[{s.checked.index(h)}]",
                "SNC-6.0.2",
                "SNC-6.0.4",
            )
    if s.step == Step.STACK and not stacking.overstacked(st, s.stack_hexes, t.data, s.variant):
        raise _refuse(
            "the stack step culls over-stacked hexes, and none of its hexes is over the limits",
            "stack_hexes",
            "SNC-6.0.4",
        )


def _check_records(t: Tables, s: SNCState) -> None:
    """The phase's records in their phase: method-(a) arrivals free to move are this Chinese
    Reinforcement Phase's arrivals (SNC-8.2.2); the Japanese markers are marked as used in the
    First Operations Phase only by the Japanese, until the next declaration (SNC-8.5.2); a
    combat's result comes with its die (SNC-10.5.0.1), and its markers are one of a kind per
    side (SNC-11.1.3)."""
    if s.movable and not (s.phase == Phase.REINF and s.side == CH and s.movable <= s.arrived):
        raise _refuse(
            "only Chinese units placed by method (a) in this Reinforcement Phase may move in it",
            "movable",
            "SNC-8.2.2",
        )
    opened = s.side == CH and s.phase in (Phase.DECLARE, Phase.OVER)
    if s.jp_support_ops1 and not ((s.side == JP and s.phase != Phase.DECLARE) or opened):
        raise _refuse(
            "Japanese markers used in the First Operations Phase are the Japanese player "
            "turn's record",
            "jp_support_ops1",
            "SNC-8.5.2",
        )
    c = s.combat
    if c is not None and c.face == 0 and (c.won or c.loss_a or c.loss_d):
        raise _refuse("a combat's result comes with its die", "combat.face", "SNC-10.5.0.1")
    if c is None:
        return
    for name, kinds in (("support_a", c.support_a), ("support_d", c.support_d)):
        if len(set(kinds)) != len(kinds):
            raise _refuse(
                "a side adds one fire support marker of a kind to a combat",
                f"combat.{name}",
                "SNC-11.1.3",
            )
