"""The odds of a combat or a landing roll, its column shifts, and the result of a die.

`odds` computes the basic column (SHU-COMBAT.7, SHU-COMBAT.8) and every shift with the clause
that gives it (SHU-COMBAT.9 to SHU-COMBAT.12, SHU-DISRUPT.2, SHU-TANK.1, SHU-TANK.2,
SHU-AIR.1, SHU-LAND.6); `outcome` reads the table for one face (SHU-CRT.1, SHU-CRT.9,
SHU-BANZAI.1, SHU-PRESS.1). Both are pure, so tests and the describe module share them.
"""

from __future__ import annotations

import attrs

from specs.shumshu.rules import crt
from specs.shumshu.rules.board import Board
from specs.shumshu.rules.state import JP, RU, Fight, Loc, ShumshuState, other


@attrs.frozen
class Odds:
    attack: int
    defence: int
    base: int  # column index, or crt.BELOW / crt.ABOVE
    shifts: tuple[tuple[int, str], ...]  # (+1 right / -1 left, clause)
    column: int  # after the shifts (meaningless when automatic)
    automatic: str = ""  # a result without a roll (odds_beyond=automatic, AMB-SHU-16)


def attacker_side(b: Board, fight: Fight) -> str:
    return b.side_of[fight.attackers[0]]


def _crossing(b: Board, s: ShumshuState, fight: Fight) -> list[str]:
    """Attackers crossing a river into the hex, not counting a hexside that Russian engineers
    attack across (SHU-COMBAT.11, AMB-SHU-18)."""
    out = []
    for a in fight.attackers:
        h = s.piece(a).hex
        if h is None or not b.river_between(h, fight.hex):
            continue
        engineers = any(
            b.unit(x).type == "engineer" and s.piece(x).hex == h for x in fight.attackers
        )
        if not engineers:
            out.append(a)
    return out


def odds(b: Board, s: ShumshuState, fight: Fight) -> Odds:
    v = s.variant
    side = attacker_side(b, fight)
    attack = sum(b.unit(a).attack for a in fight.attackers)
    defenders = [s.piece(d) for d in fight.defenders]
    defence = sum(b.unit(d.id).defence for d in defenders)
    if not fight.landing and b.terrain(fight.hex) == "mountain" and defenders:
        defence += 1  # SHU-COMBAT.8: per hex, not for a landing
    base = crt.basic_column(attack, defence)  # SHU-COMBAT.7: attack over defence factors
    shifts: list[tuple[int, str]] = []
    if fight.landing:
        if b.in_black(fight.hex):
            if v.is_("kamchatka_shift", "column"):
                shifts.append((1, "SHU-LAND.6"))
            if v.is_("kamchatka_artillery", "with_column"):
                shifts.append((1, "SHU-COMBAT.10"))
    else:
        if b.friendly_range(side, fight.hex):
            shifts.append((1, "SHU-COMBAT.10"))
        if b.friendly_range(other(side), fight.hex):
            shifts.append((-1, "SHU-COMBAT.10"))
        crossing = _crossing(b, s, fight)
        if v.is_("river_half", "units"):
            river = 2 * len(crossing) > len(fight.attackers)
        else:
            river = 2 * sum(b.unit(a).attack for a in crossing) > attack
        if river:
            shifts.append((-1, "SHU-COMBAT.11"))
    if b.terrain(fight.hex) == "swamp" and not (fight.landing and v.is_("landing_swamp", "exempt")):
        shifts.append((-1, "SHU-COMBAT.12"))  # a landing too, unless `landing_swamp=exempt`
    disrupted = [d.disrupted for d in defenders]
    if disrupted and (
        all(disrupted) if v.is_("disrupted_shift", "all_disrupted") else any(disrupted)
    ):
        shifts.append((1, "SHU-DISRUPT.2"))
    if side == JP and not fight.landing:
        for a in fight.attackers:
            if b.unit(a).is_tank and not tank_stopped(b, s, fight, a):
                shifts.append((1, "SHU-TANK.1"))
        if fight.air:
            shifts.append((1, "SHU-AIR.1"))
    automatic = ""
    if v.is_("odds_beyond", "automatic"):
        automatic = "AE" if base == crt.BELOW else "DE" if base == crt.ABOVE else ""
    column = crt.shifted(v, base, [x for x, _ in shifts])  # SHU-COMBAT.9: the column shifts
    return Odds(attack, defence, base, tuple(shifts), column, automatic)


def tank_stopped(b: Board, s: ShumshuState, fight: Fight, tank: str) -> bool:
    """No tank bonus across a river (the tank's own hexside, AMB-SHU-18) or once the AT guns
    have arrived (SHU-TANK.2: game-wide, or in the defending hex, AMB-SHU-22)."""
    h = s.piece(tank).hex
    if h is not None and b.river_between(h, fight.hex):
        return True
    if s.variant.is_("at_guns", "game_wide"):
        return s.at_arrived  # SHU-TANK.2: no tank bonus once the AT guns have arrived
    return any(
        b.unit(p.id).type == "at_gun" and p.loc is Loc.MAP and p.hex == fight.hex for p in s.units
    )


@attrs.frozen
class Reading:
    """One die read for a combat: the faces, the row and column, and the result."""

    natural: int
    modified: int
    row: int
    column: int
    result: str


def outcome(b: Board, s: ShumshuState, fight: Fight, face: int, o: Odds | None = None) -> Reading:
    """The CRT result of `face` (SHU-CRT.1): the roller's reading (SHU-CRT.9), Banzai's +1
    (SHU-BANZAI.1; above 6 counts as 6), Kamchatka's pip (SHU-LAND.6), then a pressed
    attack moves the column by the modified or natural roll (SHU-PRESS.1, AMB-SHU-25)."""
    v = s.variant
    o = o or odds(b, s, fight)
    side = attacker_side(b, fight)
    left = crt.reads_left(v, side)
    modified = face
    if fight.banzai:
        modified = min(6, modified + 1)  # SHU-BANZAI.1: +1 to the attack die roll
    if fight.landing and b.in_black(fight.hex) and v.is_("kamchatka_shift", "die"):
        modified = crt.favour(left, modified)  # SHU-LAND.6: Kamchatka, 1 in the Russians' favour
    row = crt.row_of(b.data.crt, left, modified)
    column = o.column
    if fight.press:  # SHU-PRESS.1: two best rows one column right, four worst one left
        press_face = modified if v.is_("press_roll", "modified") else face
        column = crt.pressed(column, crt.row_of(b.data.crt, left, press_face))
    return Reading(face, modified, row, column, crt.result(b.data.crt, column, row))


def worst_roll(b: Board, s: ShumshuState, fight: Fight, face: int) -> bool:
    """A lander's worst possible roll, natural or modified (SHU-LAND.3, AMB-SHU-5)."""
    left = crt.reads_left(s.variant, RU)
    v = s.variant
    if (
        v.is_("worst_roll", "modified")
        and b.in_black(fight.hex)
        and v.is_("kamchatka_shift", "die")
    ):
        face = crt.favour(left, face)
    return crt.row_of(b.data.crt, left, face) == len(b.data.crt.rows) - 1
