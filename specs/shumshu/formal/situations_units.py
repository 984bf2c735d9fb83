"""The situations of Shumshu's options that need a piece somewhere (a regiment formed, the
Russians on a victory hex or on hex 33), as distances over a position: 0 where the
readings' inputs differ, else the conditions still missing (`formal.situations` for the
combat ones and the hook)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from kernel.hexes import Hex, hex_distance
from specs.shumshu.formal.situations_fights import NO_FIGHT, fights
from specs.shumshu.formal.situations_landing import aboard, bound_room, sea_bound
from specs.shumshu.rules.board import Board
from specs.shumshu.rules.declare import front
from specs.shumshu.rules.ending import game_length
from specs.shumshu.rules.state import JP, RU, Loc, ShumshuState, Stage
from specs.shumshu.rules.units import holder, pieces_in, side_pieces

FAR = 12
"""Farther than any two hexes of the island."""


def forming(b: Board, s: ShumshuState) -> int:
    """The battalions short of a regiment's three together and undisrupted on the map
    (SHU-RGT.1), counting those sailing to their hex and those that may still embark for it
    (`sea_bound`), and one more while the Japanese hold the hex they sail to; 0 once a
    regiment may form or is about to land whole."""
    short = 3
    to, bound = sea_bound(b, s)
    for p in s.units:
        if not b.unit(p.id).is_regiment or p.loc is not Loc.UNFORMED:
            continue
        where: Counter[Hex | None] = Counter()
        for bn in b.battalions_of(p.id):
            q = s.piece(bn)
            if q.loc is Loc.MAP and not q.disrupted:
                where[q.hex] += 1
        coming = [bn for bn in b.battalions_of(p.id) if bn in bound]
        room = bound_room(b, s)
        if coming:
            where[to] += min(len(coming), room + sum(1 for u in coming if aboard(s, u)))
        most = max(where.values(), default=0)
        opposed = to is not None and where[to] == most and holder(b, s, to) == JP
        short = min(short, 3 - most + int(opposed))  # SHU-LAND.7: the hex to clear first
    return short


def regiments(b: Board, s: ShumshuState) -> list[str]:
    """The regiments on the map (SHU-RGT.1)."""
    return [p.id for p in side_pieces(b, s, RU) if b.unit(p.id).is_regiment]


def to_japanese(b: Board, s: ShumshuState, h: Hex | None) -> int:
    """Hexes between `h` and the nearest Japanese piece (0: next to one)."""
    hexes = [p.hex for p in side_pieces(b, s, JP) if p.hex is not None]
    if h is None or not hexes:
        return FAR
    return max(0, min(hex_distance(h, x) for x in hexes) - 1)


def regiment_use_distance(b: Board, s: ShumshuState) -> int:
    """regiment_use (AMB-SHU-10, SHU-RGT.1): a regiment formed acts at once or next turn:
    the readings part when one forms (0 at the Russians' choice to form). Lacking: the
    battalions short of three together, and the turn's start."""
    if s.stage is Stage.FORM:
        return 0
    return 1 + forming(b, s)


def regiment_counts_distance(b: Board, s: ShumshuState) -> int:
    """regiment_counts (AMB-SHU-15, SHU-COMBAT.3, SHU-STACK.3): a regiment counts as one
    unit or three: the readings part for a regiment that may attack a Japanese hex next to it
    (counting three, it may not cross a hexside two may cross), or one that defends with
    other units (it fills the three defenders alone). Lacking: a regiment formed, the hexes
    between it and the Japanese, the Russians' turn to attack; far when none is left."""
    rgts = regiments(b, s)
    later = s.turn < game_length(s.variant)  # a Russian player-turn after this game turn
    if not rgts:
        return 3 + forming(b, s) if later or s.side == RU else FAR
    declaring = s.stage in (Stage.MOVE, Stage.DECLARE) and s.fight is None
    moving = int(s.stage is Stage.MOVE)  # its end comes first: the declaration shows it
    fr = front(b, s) if s.side == JP and declaring else None
    able = {t for a in fr.attackers for t in fr.contacts[a]} if fr is not None else set()
    best = FAR
    for r in rgts:
        p = s.piece(r)
        near = to_japanese(b, s, p.hex)
        others = len(pieces_in(s, p.hex)) > 1 if p.hex is not None else False
        if s.side == RU and declaring:
            fresh = not (p.disrupted or r in s.moved or r in s.acted)
            best = min(best, near + int(not fresh) + moving)
        elif s.side == JP and others and declaring:
            best = min(best, near + int(p.hex not in able) + moving)
        elif later or s.side == RU:
            best = min(best, 1 + near + int(s.side == JP and not others))
    return best


def rgt_obligation_distance(b: Board, s: ShumshuState) -> int:
    """rgt_obligation (found here, SHU-COMBAT.4, SHU-RGT.4): a disrupted regiment next to a
    Japanese attacker must be attacked or not: the readings part when the Japanese may attack
    and a disrupted regiment is next to one of their units that may attack it and another
    hex (0 in the declaration, 1 while the Japanese still move: joining the other obliges an
    attack on the regiment under one reading only). A
    disrupted one (it stays so through the next Japanese combat phase, SHU-DISRUPT.4, and
    may not move, SHU-DISRUPT.1) lacks the Japanese turn and a unit next to it; an
    undisrupted one lacks a Japanese attack on it (the levels of `fights`), a D or DW
    (SHU-CRT.6, SHU-CRT.5) and the next Japanese turn; with none formed, the battalions
    short of one as well. Far when no Japanese player-turn is left for what is lacking."""
    rgts = regiments(b, s)
    left = game_length(s.variant) - s.turn  # game turns after this one
    if not rgts:
        # to form (at the start of a Russian player-turn), be hit, then a Japanese one
        now = s.side == RU and s.stage in (Stage.FORM, Stage.SETUP)
        if left < (1 if now else 2):
            return FAR
        bns = [p.hex for p in side_pieces(b, s, RU) if b.unit(p.id).regiment is not None]
        return 6 + forming(b, s) + min((to_japanese(b, s, x) for x in bns), default=0)
    jp_turn = s.side == JP and s.stage in (Stage.MOVE, Stage.DECLARE)
    fr = front(b, s)
    # a Japanese unit that may attack the regiment's hex and another: under one reading only
    # does joining the other oblige an attack on the regiment's hex too (SHU-COMBAT.4)
    torn = {t for a in fr.attackers if len(fr.contacts[a]) >= 2 for t in fr.contacts[a]}
    able = {t for a in fr.attackers for t in fr.contacts[a]}
    attacked = {f.hex: level for level, f in fights(b, s) if s.side == JP}
    later = left >= 1 or s.side == RU  # a Japanese player-turn still to come
    best = FAR
    for r in rgts:
        p = s.piece(r)
        if p.hex is None:
            continue
        if p.disrupted:
            if jp_turn and p.hex in torn:
                best = min(best, int(s.stage is Stage.MOVE))  # the declaration shows it
                continue
            if later:
                near = int(p.hex not in able) + to_japanese(b, s, p.hex)
                best = min(best, 1 + near + int(not jp_turn))
        elif left >= 1 and p.hex in attacked:
            best = min(best, attacked[p.hex] + 2)
        elif left >= 1:
            best = min(best, 5 + to_japanese(b, s, p.hex))
    return best


def strategic_needs_distance(b: Board, s: ShumshuState) -> int:
    """strategic_needs (AMB-SHU-3, SHU-WIN.2): the 2-star hex alone or both stars: the
    verdict parts when the game ends with the Russians on the 2-star hex and off the 1-star
    one, so 0 at the end of the last Japanese player-turn so placed. Lacking: the
    player-turns left, the last one's end, the hexes between the Russians and the 2-star
    hex (one more while the Japanese hold it), the 1-star hex held; far once the last
    Russian player-turn is over without the 2-star hex."""
    if s.stage is Stage.OVER:
        return FAR
    two, one = b.data.two_star, b.data.one_star
    ru = [p.hex for p in side_pieces(b, s, RU) if p.hex is not None]
    if not ru:  # still to land: from the nearest hex the Russians may land on
        ru = [h for h in b.hexes if b.is_coastal(h) and not b.in_red(h)]
    held = holder(b, s, two)
    reach = 0 if held == RU else min(hex_distance(h, two) for h in ru) + int(held == JP)
    reach += int(not side_pieces(b, s, RU))
    ahead = s.side == RU or s.stage is Stage.SETUP
    left = 2 * (game_length(s.variant) - s.turn) + int(ahead)
    moving = s.side == RU and s.stage in _BEFORE_ATTACKS
    if reach and s.turn >= game_length(s.variant) and not moving:
        return FAR  # no Russian movement or attack is left to take it
    last = int(left == 0 and not _ending(s, JP))
    return left + last + reach + int(holder(b, s, one) == RU)


_BEFORE_ATTACKS = (
    Stage.FORM,
    Stage.SAIL,
    Stage.AIR,
    Stage.AIR_ROLL,
    Stage.REPLACE,
    Stage.MOVE,
    Stage.DECLARE,
    Stage.PICK,
    Stage.DEFENDERS,
    Stage.HOLD,
    Stage.COMMIT,
    Stage.ROLL,
    Stage.RETREAT,
    Stage.ADVANCE,
)
"""The Russian player-turn's steps in which its units may still come to a hex."""


def decoy_return_blocked_distance(b: Board, s: ShumshuState) -> int:
    """decoy_return_blocked (found here, SHU-COMBAT.6, SHU-REINF.2): a decoy due back while
    the Russians hold hex 33 waits or comes back: the readings part as the Japanese
    player-turn starts with both, so 0 at the end of a Russian player-turn with the Russians
    on hex 33 and a decoy due back. Lacking: a decoy removed, due, the hexes between the
    Russians and hex 33 (one more while the Japanese hold it), the Russian player-turn, and,
    once all else is there, its end."""
    h33 = b.data.hex33
    removed = [p for p in s.units if p.loc is Loc.REMOVED]
    due = any(p.recover <= s.turn for p in removed)
    ru = [p.hex for p in side_pieces(b, s, RU) if p.hex is not None]
    reach = min((hex_distance(h, h33) for h in ru), default=FAR)
    if s.side == JP and s.turn >= game_length(s.variant):
        return FAR  # no Japanese player-turn is left to start
    held = int(holder(b, s, h33) == JP)  # to be cleared first
    lacking = reach + held + int(not removed) + int(not due) + int(s.side != RU)
    return lacking or int(not _ending(s, RU))


def _ending(s: ShumshuState, side: str) -> bool:
    """`side`'s player-turn is at its movement or attacks with no combat under way: a step
    or two (`Done`) end it, and the next begins."""
    return s.side == side and s.stage in (Stage.MOVE, Stage.DECLARE) and s.fight is None


def decoy_return_order_distance(b: Board, s: ShumshuState) -> int:
    """decoy_return_order (found here, SHU-COMBAT.6): with two decoys due back, the first in
    the counter list comes back, or the Japanese choose: the readings part where the
    Japanese put decoys back with both due (0). Lacking: the decoys short of two removed
    together (discovered in one turn: an attack on a hex that holds one, at the level of the
    fights at hand, removes it), their return. Far once no Japanese player-turn is left for
    them to come back in."""
    last = game_length(s.variant)
    if s.side == JP and s.turn >= last:
        return FAR
    back = Counter(p.recover for p in s.units if p.loc is Loc.REMOVED and p.recover <= last)
    short = 2 - max(back.values(), default=0)
    if short == 0:
        return 0 if s.stage is Stage.DECOY else 1
    if s.turn >= last:
        return FAR  # a decoy found now comes back after the last turn
    decoys = Counter(p.hex for p in s.units if p.loc is Loc.MAP and b.unit(p.id).is_decoy)
    found = [
        level + 1 + max(0, short - decoys[f.hex])
        for level, f in fights(b, s)
        if s.side == RU and decoys[f.hex]
    ]
    return min([*found, NO_FIGHT + 1 + short])


def unit_situations() -> dict[str, Callable[[Board, ShumshuState], int]]:
    """These options' distances, by option."""
    return {
        "regiment_use": regiment_use_distance,
        "regiment_counts": regiment_counts_distance,
        "rgt_obligation": rgt_obligation_distance,
        "strategic_needs": strategic_needs_distance,
        "decoy_return_blocked": decoy_return_blocked_distance,
        "decoy_return_order": decoy_return_order_distance,
    }
