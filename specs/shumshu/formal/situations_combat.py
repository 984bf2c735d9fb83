"""The situations of Shumshu's options that govern a combat: the odds (shift_order,
disrupted_shift, river_half), who a result reaches (non_defenders, eliminated_face), routs
and withdrawals (no_retreat_path, retreat_together) and the obligation to attack
(must_attack), as distances over a position (`formal.situations`)."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable

import attrs

from kernel.hexes import Hex, hex_distance
from specs.shumshu.formal.situations_fights import (
    EDGE,
    LATER,
    NO_FIGHT,
    OVER,
    WIDE,
    by_fights,
    contact,
    fights,
    flipped,
    free_hexes,
    parts_on_roll,
)
from specs.shumshu.formal.situations_landing import aboard, bound_room, sea_bound
from specs.shumshu.rules import crt
from specs.shumshu.rules.board import Board
from specs.shumshu.rules.combat import DEFENDER_LIMIT
from specs.shumshu.rules.combat_query import declaration_ok, join_ok
from specs.shumshu.rules.declare import front, legal_declarations, pairs_of
from specs.shumshu.rules.ending import game_length
from specs.shumshu.rules.odds import odds
from specs.shumshu.rules.state import JP, RU, Fight, Loc, Piece, ShumshuState, Stage, other
from specs.shumshu.rules.units import real_in

# --- the odds of a combat ------------------------------------------------------------------


def shift_order_lacks(b: Board, s: ShumshuState, fight: Fight) -> int:
    """shift_order (AMB-SHU-17, SHU-COMBAT.9, SHU-COMBAT.10): summing then clamping and
    clamping each shift in turn differ only at the right edge of the table, when the
    attacker's shifts carry the column past 4:1 and some shift goes left. Lacking: a shift
    to the left, one to the right, and the columns short of the edge."""
    if parts_on_roll(b, s, fight, "shift_order"):
        return 0
    o = odds(b, s, fight)
    right = sum(x for x, _ in o.shifts if x > 0)
    left = sum(1 for x, _ in o.shifts if x < 0)
    short = max(0, crt.LAST + 1 - (crt.clamp(o.base) + right))
    return 1 + int(left == 0) + int(right == 0) + short


def disrupted_shift_lacks(b: Board, s: ShumshuState, fight: Fight) -> int:
    """disrupted_shift (AMB-SHU-19, SHU-DISRUPT.2): the shift against disrupted defenders
    with every defender disrupted or any: the readings part for defenders some of whom are
    disrupted and some not. Lacking: a disrupted defender, an undisrupted one."""
    if parts_on_roll(b, s, fight, "disrupted_shift"):
        return 0
    flags = [s.piece(d).disrupted for d in fight.defenders]
    return 1 + int(not any(flags)) + int(all(flags))


def river_half_lacks(b: Board, s: ShumshuState, fight: Fight) -> int:
    """river_half (AMB-SHU-18, SHU-COMBAT.11): "more than half attackers cross-river" by
    units or by factors parts when the attackers across a river are half or fewer by one
    count and more than half by the other. Lacking: an attacker across a river, one not."""
    if parts_on_roll(b, s, fight, "river_half"):
        return 0
    across = [a for a in fight.attackers if _across(b, s, a, fight)]
    return 1 + int(not across) + int(len(across) == len(fight.attackers))


def river_half_distance(b: Board, s: ShumshuState) -> int:
    """A fight under way or declared counts only when it parts the readings (its attackers
    are set); an attack the phasing side could declare is tried with each part of the units
    that could join it (a declaration need not use them all, SHU-COMBAT.1), and lacks what
    `river_half_lacks` counts when none parts them; with none at hand, the way to contact
    and those three."""
    found = [NO_FIGHT + contact(b, s) + 3]
    for level, f in fights(b, s):
        if level < 2:
            if parts_on_roll(b, s, f, "river_half"):
                return level
            continue
        parts = (
            part
            for n in range(2, len(f.attackers) + 1)
            for part in itertools.combinations(f.attackers, n)
        )
        if any(
            _halves_differ(b, s, part, f)
            and parts_on_roll(b, s, attrs.evolve(f, attackers=part), "river_half")
            for part in parts
        ):
            found.append(level)
        else:
            found.append(level + river_half_lacks(b, s, f))
    return min(found)


def _halves_differ(b: Board, s: ShumshuState, attackers: tuple[str, ...], fight: Fight) -> bool:
    """More than half across a river by units and not by factors, or the other way
    (SHU-COMBAT.11, AMB-SHU-18)."""
    across = [a for a in attackers if _across(b, s, a, fight)]
    by_units = 2 * len(across) > len(attackers)
    total = sum(b.unit(a).attack for a in attackers)
    by_factors = 2 * sum(b.unit(a).attack for a in across) > total
    return by_units != by_factors


def _across(b: Board, s: ShumshuState, unit: str, fight: Fight) -> bool:
    """`unit` attacks across a river (SHU-COMBAT.11)."""
    h = s.piece(unit).hex
    return h is not None and b.river_between(h, fight.hex)


# --- who a result reaches -----------------------------------------------------------------


def non_defenders_lacks(b: Board, s: ShumshuState, fight: Fight) -> int:
    """non_defenders (AMB-SHU-11, SHU-STACK.3): a defender result reaches every unit of the
    hex or the defenders only: the readings part when a unit of the hex does not defend
    (more units than the 3 Russians or 4 Japanese that may), before the roll. A fight where
    every unit defends lacks a larger stack, which no step of it brings (`stack_away`)."""
    units = real_in(b, s, fight.hex)
    if fight.defenders and any(p.id not in fight.defenders for p in units):
        return 0
    return LATER


def stack_away(b: Board, s: ShumshuState, side: str) -> int:
    """For the stacks of `side` on the map, Russians sailing to a hex counted in theirs
    (`sea_bound`), the least of the units short of one more than may defend (SHU-STACK.3)
    plus the hexes between the stack and the nearest enemy piece."""
    stacks: Counter[Hex] = Counter(
        p.hex
        for p in s.units
        if p.loc is Loc.MAP
        and p.hex is not None
        and b.side_of[p.id] == side
        and not b.unit(p.id).is_decoy
    )
    if side == RU:
        to, bound = sea_bound(b, s)
        if to is not None:
            stacks[to] += min(len(bound), bound_room(b, s) + sum(aboard(s, u) for u in bound))
    enemy = [
        p.hex for p in s.units if p.loc is Loc.MAP and p.hex is not None and b.side_of[p.id] != side
    ]
    limit = DEFENDER_LIMIT[side] + 1
    return min(
        (
            max(0, limit - n) + min((max(0, hex_distance(x, y) - 1) for y in enemy), default=WIDE)
            for x, n in stacks.items()
        ),
        default=limit + WIDE,
    )


def _russian_attack_on_stack(b: Board, s: ShumshuState) -> int:
    """The way to a Russian attack on a Japanese stack of more units than may defend, one of
    them face down: for each Japanese stack, the units short of five (SHU-STACK.3), one if
    none is face down (SHU-COMBAT.5), and the hexes between it and the nearest Russian
    piece. A stack to grow needs a Japanese player-turn before a Russian one, so none is
    left in the last game turn (nor any attack once its Russian player-turn is over)."""
    last = s.turn >= game_length(s.variant)
    if last and s.side == JP:
        return OVER
    stacks: dict[Hex, list[Piece]] = {}
    for p in s.units:
        if p.loc is Loc.MAP and p.hex is not None and b.side_of[p.id] == JP and _real(b, p):
            stacks.setdefault(p.hex, []).append(p)
    ru = [
        q.hex for q in s.units if q.loc is Loc.MAP and q.hex is not None and b.side_of[q.id] == RU
    ]
    best = OVER
    for h, units in stacks.items():
        short = max(0, DEFENDER_LIMIT[JP] + 1 - len(units))
        if short and last:
            continue
        hidden = any(not (p.revealed or p.disrupted) for p in units)
        way = min((max(0, hex_distance(h, r) - 1) for r in ru), default=WIDE)
        best = min(best, short + int(not hidden) + way)
    return best


def _real(b: Board, p: Piece) -> bool:
    """Not a decoy: a unit that may defend (AMB-SHU-30)."""
    return not b.unit(p.id).is_decoy


def eliminated_face_lacks(b: Board, s: ShumshuState, fight: Fight) -> int:
    """eliminated_face (found here, SHU-COMBAT.5): a Japanese unit eliminated face down is
    turned up or leaves as it was. Defenders and attackers are revealed in combat, so the
    readings part for a face-down Japanese unit of the hex that does not defend (a fifth
    unit, SHU-STACK.3) and that a DE (AMB-SHU-11: it shares the result) eliminates. Lacking:
    a Russian attack on a Japanese hex, and the face-down units short of the fifth (no step
    of a fight brings them: `stack_away`)."""
    if not fight.defenders or b.side_of[fight.defenders[0]] != JP:
        return LATER
    units = real_in(b, s, fight.hex)
    hidden = [p for p in units if p.id not in fight.defenders and not (p.revealed or p.disrupted)]
    return 0 if hidden else LATER


def no_retreat_path_lacks(b: Board, s: ShumshuState, fight: Fight) -> int:
    """no_retreat_path (AMB-SHU-26, SHU-CRT.4, SHU-CRT.5): a unit that must rout or withdraw
    with no hex to go to is eliminated or stays: the readings part for defenders whose every
    neighbouring hex holds the enemy, when the roll routs or withdraws them. Lacking: the
    free hexes around them."""
    if not fight.defenders:
        return 1 + 6
    side = b.side_of[fight.defenders[0]]
    return free_hexes(b, s, fight.hex, side)


def retreat_together_lacks(b: Board, s: ShumshuState, fight: Fight) -> int:
    """retreat_together (found here, SHU-CRT.4, SHU-CRT.5): routed or withdrawn units of one
    hex go to one hex together or each its own: the readings part when two units must go and
    two hexes are free, once the first has gone. Lacking: the roll, the units short of two,
    the free hexes short of two."""
    if not fight.defenders:
        return 1 + 2 + 2
    side = b.side_of[fight.defenders[0]]
    units = len(real_in(b, s, fight.hex))
    return 1 + max(0, 2 - units) + max(0, 2 - free_hexes(b, s, fight.hex, side))


def retreat_together_distance(b: Board, s: ShumshuState) -> int:
    """0 while two or more units are still to rout or withdraw and the first has two hexes
    to go to (its move then leaves the next a choice under one reading only)."""
    f = s.fight
    if s.stage is Stage.RETREAT and f is not None:
        going = [u for u in f.retreating if s.piece(u).loc is Loc.MAP]
        if len(going) >= 2 and free_hexes(b, s, s.piece(going[0]).hex, b.side_of[going[0]]) >= 2:
            return 0
    return by_fights(retreat_together_lacks)(b, s)


def must_attack_distance(b: Board, s: ShumshuState) -> int:
    """must_attack (AMB-SHU-14, SHU-COMBAT.4, SHU-RGT.4): the hexes that must be attacked
    are attacked in the same phase, or by the unit next to them in its own combat: the
    readings part while the phasing side may declare, when the declarations the rules allow
    differ (`declare.legal_declarations` under both): a unit next to a hex that must be
    attacked and to another enemy hex, and others to attack every hex that must be. Lacking
    (never 0 by these alone): the phasing side's movement or declaration, a hex that must be
    attacked next to the unit, a second enemy hex next to it (with only one such hex), other
    units next to all but one of those hexes (or to the one); with no unit that may attack,
    the way to contact as well."""
    if s.fight is not None or s.stage not in (Stage.MOVE, Stage.DECLARE):
        return 1 + NO_FIGHT + contact(b, s)
    fr = front(b, s)
    if fr.attackers and s.stage is Stage.DECLARE and _declaring_differs(b, s):
        return 0  # what may be joined next, or whether the declaration may end, differs
    if fr.attackers:
        here = attrs.evolve(s, stage=Stage.DECLARE, pending=())
        there = flipped(here, "must_attack")
        if legal_declarations(b, here) != legal_declarations(b, there):
            return 1  # the declaration, once entered, shows it

    def lacks(a: str) -> int:
        # to attack at all in the same phase, the unit needs every hex that must be attacked
        # next to it but one (or, with one such hex, that one) attacked by others
        must = fr.obliged[a]
        covered = sum(1 for o in must if any(o in fr.contacts[x] for x in fr.attackers if x != a))
        needed = len(must) - 1 if len(must) >= 2 else 1
        other = int(len(must) == 1 and len(fr.contacts[a]) < 2)
        return 1 + int(not must) + other + max(0, needed - covered)

    return min((lacks(a) for a in fr.attackers), default=NO_FIGHT + contact(b, s))


def _declaring_differs(b: Board, s: ShumshuState) -> bool:
    """The joins open now, or whether the declaration may end now, differ under the other
    reading of must_attack, the joins made so far being open under it too (SHU-COMBAT.1 to
    SHU-COMBAT.4)."""
    t = flipped(s, "must_attack")
    pairs = pairs_of(s.pending)
    if not all(join_ok(b, t, pairs[:k], a, h) for k, (a, h) in enumerate(pairs)):
        return False  # joined as the other reading would not let: they parted before this
    if declaration_ok(b, s, pairs) != declaration_ok(b, t, pairs):
        return True
    fa, ft = front(b, s), front(b, t)
    joins = {(a, h) for f in (fa, ft) for a in f.attackers for h in f.contacts[a]}
    return any(join_ok(b, s, pairs, a, h) != join_ok(b, t, pairs, a, h) for a, h in joins)


def surrounded(b: Board, s: ShumshuState) -> int:
    """The fewest hexes free of the enemy around a hex that holds units next to it
    (SHU-CRT.4, SHU-CRT.5); `WIDE` when no two enemies touch."""
    sides = {p.hex: b.side_of[p.id] for p in s.units if p.loc is Loc.MAP and p.hex is not None}
    return min(
        (
            free_hexes(b, s, h, side)
            for h, side in sides.items()
            if any(sides.get(n) == other(side) for n in b.neighbors(h))
        ),
        default=WIDE,
    )


def combat_situations() -> dict[str, Callable[[Board, ShumshuState], int]]:
    """The combat options' distances, by option."""
    return {
        "shift_order": by_fights(shift_order_lacks, far=lambda b, s: contact(b, s) + EDGE),
        "disrupted_shift": by_fights(disrupted_shift_lacks),
        "river_half": river_half_distance,
        "non_defenders": by_fights(
            non_defenders_lacks, far=lambda b, s: min(stack_away(b, s, RU), stack_away(b, s, JP))
        ),
        "eliminated_face": by_fights(eliminated_face_lacks, far=_russian_attack_on_stack),
        "no_retreat_path": by_fights(no_retreat_path_lacks, far=surrounded),
        "retreat_together": retreat_together_distance,
        "must_attack": must_attack_distance,
    }
