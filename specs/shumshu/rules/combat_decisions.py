"""The decisions of the combat phase (SHU-COMBAT.*, SHU-CRT.*): joining and ending the
declaration, picking the attack to resolve, the defenders, No Retreat!, the commitments, the
die roll (a lander's included), routs and withdrawals, and the victors' advance.

Each checks the action against the lists its step in `sequence` offers, raising
`IllegalAction` with the clauses it breaks, applies it and goes on to the next step; kept
apart from the steps so that the chain of steps reads as one.
"""

from __future__ import annotations

import attrs

from kernel.hexes import Hex
from specs.shumshu.rules import combat, crt, landing
from specs.shumshu.rules.board import Board
from specs.shumshu.rules.combat_query import declaration_error, declaration_ok, join_ok
from specs.shumshu.rules.declare import combats_of, pairs_of
from specs.shumshu.rules.effects import eliminate
from specs.shumshu.rules.odds import outcome, worst_roll
from specs.shumshu.rules.sequence import (
    advance_step,
    after_result,
    commit_step,
    fight_done,
    illegal,
    lander_done,
    pick_step,
    set_commit,
    set_defenders,
    start_fight,
)
from specs.shumshu.rules.state import JP, Fight, ShumshuState
from specs.shumshu.rules.units import update


def join_attack(b: Board, s: ShumshuState, unit: str, h: Hex) -> ShumshuState:
    """A unit joins the attack into `h`, in data order, while the declaration can still be
    completed (SHU-COMBAT.1 to SHU-COMBAT.4); a Japanese one is revealed (SHU-COMBAT.5)."""
    pairs = pairs_of(s.pending)
    if not join_ok(b, s, pairs, unit, h):
        raise declaration_error(b, s, (*pairs, (unit, h)), joining=unit)
    pending = combats_of(b, (*pairs, (unit, h)))
    if b.side_of[unit] == JP and s.variant.is_("reveal", "in_combat"):
        s = update(s, [unit], revealed=True)  # SHU-COMBAT.5: revealed once in combat
    return attrs.evolve(s, pending=pending)


def declaration_done(b: Board, s: ShumshuState) -> ShumshuState:
    """The attacks joined are the declaration, if it is a whole legal one (SHU-COMBAT.1 to
    SHU-COMBAT.4); then they are resolved."""
    pairs = pairs_of(s.pending)
    if not declaration_ok(b, s, pairs):
        raise declaration_error(b, s, pairs)
    return pick_step(b, s)


def resolve_attack(b: Board, s: ShumshuState, h: Hex) -> ShumshuState:
    """The attacker picks the declared attack to resolve next (SHU-COMBAT.1)."""
    chosen = [c for c in s.pending if c.hex == h]
    if not chosen:
        raise illegal(f"no declared attack into {h} may be resolved now", "SHU-COMBAT.1")
    return start_fight(b, s, chosen[0])


def defend(b: Board, s: ShumshuState, units: tuple[str, ...]) -> ShumshuState:
    """The defender picks the units that defend the hex (SHU-STACK.3)."""
    fight = s.fight
    assert fight is not None
    ordered = tuple(sorted(units, key=lambda u: b.order.get(u, len(b.order))))
    if ordered not in combat.defender_choices(b, s, fight.hex):
        raise illegal(combat.defence_refusal(b, s, fight.hex, ordered), "SHU-STACK.3")
    return set_defenders(b, s, ordered)


def hold(b: Board, s: ShumshuState, yes: bool) -> ShumshuState:
    """The defender declares No Retreat!, or not (SHU-LAND.8, SHU-LAND.9)."""
    assert s.fight is not None
    s = attrs.evolve(s, fight=attrs.evolve(s.fight, hold=yes))
    return commit_step(b, s)


def commit(b: Board, s: ShumshuState, press: bool, air: bool, banzai: bool) -> ShumshuState:
    """The attacker presses (SHU-PRESS.1), calls the Ki-43 (SHU-AIR.1) and declares Banzai!
    (SHU-BANZAI.1), as far as each is open to it."""
    assert s.fight is not None
    if (press, air, banzai) not in combat.commit_choices(b, s, s.fight):
        raise illegal(
            "not a choice open to this attacker: only the attacker presses; the "
            "Ki-43 once per player-turn and Banzai! for Japanese attacks",
            "SHU-PRESS.1",
            "SHU-AIR.1",
            "SHU-BANZAI.1",
        )
    return set_commit(b, s, press, air, banzai)


def roll(b: Board, s: ShumshuState, face: int) -> ShumshuState:
    """The die is rolled (SHU-CRT.1) and the table read (SHU-CRT.2); a lander's roll is read
    as `landing_roll` says."""
    if not 1 <= face <= 6:
        raise illegal("a die shows 1 to 6", "SHU-CRT.1")
    fight = s.fight
    assert fight is not None
    fight = attrs.evolve(fight, face=face)
    s = attrs.evolve(s, fight=fight)
    if not fight.landing:
        reading = outcome(b, s, fight, face)
        return after_result(b, combat.apply_result(b, s, fight, reading.result))
    return landing_roll(b, s, fight, face)


def landing_roll(b: Board, s: ShumshuState, fight: Fight, face: int) -> ShumshuState:
    """A lander's roll: its worst roll sinks it with a landing capability (SHU-LAND.3,
    SHU-LAND.4); an unopposed lander is done; against defenders the table decides, after a
    worst roll only by reading (`worst_roll_opposed`), and an AE loses the lander."""
    lander = fight.attackers[0]
    worst = worst_roll(b, s, fight, face)
    if worst:  # SHU-LAND.3, SHU-LAND.4
        s = landing.lost_at_sea(landing.lose_ship(eliminate(b, s, [lander])), [lander])
    if not fight.defenders:
        return lander_done(b, s)
    result = outcome(b, s, fight, face).result
    if worst:
        if s.variant.is_("worst_roll_opposed", "crt_too") and result in crt.DEFENDER_RESULTS:
            return after_result(b, combat.apply_result(b, s, fight, result))
        return lander_done(b, attrs.evolve(s, fight=attrs.evolve(fight, result="lost")))
    if result == "AE":
        s = landing.lost_at_sea(eliminate(b, s, [lander]), [lander])
    return after_result(b, combat.apply_result(b, s, fight, result))


def retreat(b: Board, s: ShumshuState, unit: str, to: Hex) -> ShumshuState:
    """The next routed or withdrawn unit goes one hex, into the island, free of enemy units
    (SHU-CRT.4, SHU-CRT.5)."""
    fight = s.fight
    assert fight is not None
    clause = "SHU-CRT.4" if fight.result == "DR" else "SHU-CRT.5"
    if unit != fight.retreating[0] or to not in combat.retreat_choices(b, s, fight):
        raise illegal(
            f"{fight.retreating[0]} goes next, one hex into a hex of the island "
            "free of enemy units",
            clause,
        )
    return after_result(b, combat.apply_retreat(b, s, unit, to))


def advance(b: Board, s: ShumshuState, unit: str, to: Hex) -> ShumshuState:
    """A victor advances into the defender's hex or an empty hex next to it
    (SHU-COMBAT.13)."""
    fight = s.fight
    assert fight is not None
    if unit not in fight.winners or to not in combat.advance_choices(b, s, fight, unit):
        raise illegal(
            f"{unit} cannot advance into {to}: victors advance into the "
            "defender's hex or an empty hex next to it",
            "SHU-COMBAT.13",
        )
    s = update(s, [unit], hex=to)  # SHU-COMBAT.13: a victor advances
    fight = attrs.evolve(fight, winners=tuple(w for w in fight.winners if w != unit))
    s = attrs.evolve(s, fight=fight)
    return advance_step(b, s) if fight.winners else fight_done(b, s)
