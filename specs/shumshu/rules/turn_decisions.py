"""The decisions of a player-turn before its attacks (SHU-SEQ.1): forming regiments
(SHU-RGT.1), sea movement, the air strike on shipping and the landings (SHU-LAND.*,
SHU-AIR.2), replacements (SHU-REPL.*), reinforcements (SHU-REINF.*), decoys coming back
(SHU-COMBAT.6) and movement (SHU-MOVE.*).

Each checks the action against the lists its step in `sequence` offers, raising
`IllegalAction` with the clauses it breaks, applies it and goes on to the next step; kept
apart from the steps so that the chain of steps reads as one.
"""

from __future__ import annotations

import attrs

from kernel.hexes import Hex
from specs.shumshu.rules import landing
from specs.shumshu.rules.actions import Embark, LandAt
from specs.shumshu.rules.board import Board
from specs.shumshu.rules.effects import form
from specs.shumshu.rules.movement import move_problem
from specs.shumshu.rules.sequence import (
    air_step,
    decoy_step,
    form_step,
    illegal,
    landing_step,
    move_step,
)
from specs.shumshu.rules.state import Loc, Sail, ShumshuState, Stage
from specs.shumshu.rules.units import changed, period, update


def form_regiment(b: Board, s: ShumshuState, regiment: str) -> ShumshuState:
    """Three battalions together and undisrupted become their regiment (SHU-RGT.1)."""
    where = dict(landing.formable(b, s))
    if regiment not in where:
        raise illegal(
            f"{regiment} cannot form: its three battalions must be together and "
            "undisrupted at the start of the turn",
            "SHU-RGT.1",
        )
    return form_step(b, form(b, s, regiment, where[regiment]))


def choose_sail(b: Board, s: ShumshuState, action: LandAt | Embark) -> ShumshuState:
    """A landing hex picked, or a unit embarked, for this turn's sea movement (SHU-LAND.1,
    SHU-LAND.2, SHU-REINF.3); once nothing more may be chosen the units sail."""
    if not landing.sail_choice_ok(b, s, action):
        if isinstance(action, LandAt):
            raise illegal(*landing.land_at_problem(b, s, action.hex))
        raise illegal(
            f"{action.unit} cannot embark: a Russian unit off-board, due by its turn, in "
            "data order, at most three landers (one per capability) or one delivery per "
            "capability to the beachhead on an AM turn",
            "SHU-LAND.2",
            "SHU-REINF.3",
        )
    if isinstance(action, LandAt):
        s = attrs.evolve(s, sail=Sail(action.hex))
    else:
        sail = landing.start_sail(s, None)
        s = attrs.evolve(s, sail=attrs.evolve(sail, party=(*sail.party, action.unit)))
    if landing.sail_choices(b, s):
        return s
    assert s.sail is not None
    return air_step(b, attrs.evolve(s, sail=attrs.evolve(s.sail, sailed=True)))


def sail_done(b: Board, s: ShumshuState) -> ShumshuState:
    """The Russians end their choices at sea and the units embarked sail (SHU-LAND.2)."""
    if not landing.sail_done_ok(s):
        raise illegal("a landing needs at least one battalion", "SHU-LAND.2")
    sail = attrs.evolve(s.sail, sailed=True) if s.sail is not None else None
    return air_step(b, attrs.evolve(s, sail=sail))


def strike(b: Board, s: ShumshuState, yes: bool) -> ShumshuState:
    """The Japanese send the Ki-43 against Russian shipping, or not (SHU-AIR.2)."""
    if yes:  # SHU-AIR.2: the Ki-43 rolls against Russian shipping
        return attrs.evolve(s, stage=Stage.AIR_ROLL)
    return landing_step(b, s)


def air_roll(b: Board, s: ShumshuState, face: int, sunk: str | None) -> ShumshuState:
    """The Ki-43's roll against shipping, then the landings (SHU-AIR.2, SHU-AIR.3)."""
    if (face, sunk) not in {(f, u) for f, u, _ in landing.air_outcomes(b, s)}:
        raise illegal(
            "not a possible roll of the Ki-43: a die face, and a unit sunk only on its best roll",
            "SHU-AIR.2",
        )
    return landing_step(b, landing.apply_air(b, s, face, sunk))


def replace_unit(b: Board, s: ShumshuState, unit: str) -> ShumshuState:
    """An eliminated infantry battalion comes back at the beachhead (SHU-REPL.1,
    SHU-REPL.2)."""
    if unit not in landing.replacements(b, s):
        lost_now = unit in s.acted and s.variant.is_("replace_lost", "next_turn")
        raise illegal(
            f"{unit} cannot be replaced: one eliminated infantry battalion per "
            "turn, at the beachhead, after the reinforcements (AMB-SHU-9)"
            + (
                "; it was lost at sea this player-turn (replace_lost=next_turn)" if lost_now else ""
            ),
            "SHU-REPL.1",
            "SHU-REPL.2",
        )
    # SHU-REPL.1: an eliminated battalion back, one per turn
    s = update(s, [unit], loc=Loc.MAP, hex=s.beachhead, revealed=False)
    return move_step(b, attrs.evolve(s, replaced=period(s)))


def reinforce(b: Board, s: ShumshuState, unit: str, h: Hex) -> ShumshuState:
    """One Japanese unit arrives from Paramushir (SHU-REINF.1, SHU-REINF.2)."""
    if (unit, h) not in landing.reinforcements(b, s):
        raise illegal(
            f"{unit} cannot arrive at {h}: one unit from Paramushir to hex 33 on "
            "the Japanese AM turn",
            "SHU-REINF.2",
            "SHU-REINF.1",
        )
    s = update(s, [unit], loc=Loc.MAP, hex=h)  # SHU-REINF.2: one unit arrives
    if s.variant.is_("reinforcement_moves", "arrival_is_move"):
        s = attrs.evolve(s, moved=s.moved | {unit})
    return decoy_step(b, s)


def return_decoy(b: Board, s: ShumshuState, unit: str, h: Hex) -> ShumshuState:
    """A discovered decoy comes back face down (SHU-COMBAT.6, AMB-SHU-21)."""
    if (unit, h) not in landing.decoy_returns(b, s):
        due = sorted({u for u, _ in landing.decoy_returns(b, s)})
        where = sorted({str(x) for _, x in landing.decoy_returns(b, s)})
        raise illegal(
            f"{unit} cannot come back at {h}: the decoys that may come back now are "
            f"{', '.join(due) or 'none'}, into {', '.join(where) or 'no hex'} "
            f"(decoy_return={s.variant.reading('decoy_return')}, AMB-SHU-21)",
            "SHU-COMBAT.6",
        )
    s = update(s, [unit], loc=Loc.MAP, hex=h, recover=0, revealed=False)
    if s.variant.is_("decoy_return_moves", "return_is_move") and s.variant.is_(
        "decoy_movement", "like_infantry"
    ):
        s = attrs.evolve(s, moved=s.moved | {unit})
    return decoy_step(b, s)


def decoy_done(b: Board, s: ShumshuState) -> ShumshuState:
    """The Japanese keep the decoys still due off the map this player-turn: allowed only
    under `decoy_return_compulsory=optional` (SHU-COMBAT.6)."""
    if not landing.decoy_may_wait(s):
        raise illegal(
            "a decoy due back comes back now: it was removed only until the next turn "
            "(decoy_return_compulsory=compulsory)",
            "SHU-COMBAT.6",
        )
    return move_step(b, s)


def move_unit(b: Board, s: ShumshuState, unit: str, to: Hex) -> ShumshuState:
    """One unit moves (SHU-MOVE.1 to SHU-MOVE.4, by `move_problem`)."""
    found = move_problem(b, s, unit, to)
    if found is not None:
        raise illegal(f"{found[1]} ({found[0]})", found[0])
    return attrs.evolve(s, units=changed(s, [unit], hex=to), moved=s.moved | {unit})
