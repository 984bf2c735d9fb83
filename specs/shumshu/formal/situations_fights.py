"""The fights at hand in a Shumshu position, and what the situations of the options that
govern a combat share (`formal.situations`).

The fights at hand (`fights`) are the combat being resolved (level 0), the attacks declared
(1), and the attacks the phasing side could declare from where its units stand (2); an
option's distance over them (`by_fights`) is the least, over them, of the level plus what
that fight still lacks. Whether the readings part in a fight is asked of the rules
themselves, under both readings (`parts_on_roll`: some face of the die gives another
result).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import attrs

from kernel.hexes import Hex, hex_distance
from kernel.variants import Variant
from specs.shumshu.data.variants import CATALOGUE
from specs.shumshu.rules import crt
from specs.shumshu.rules.board import Board
from specs.shumshu.rules.combat import air_available, defender_choices
from specs.shumshu.rules.declare import front
from specs.shumshu.rules.odds import outcome
from specs.shumshu.rules.state import JP, RU, Fight, Loc, ShumshuState, Stage, other
from specs.shumshu.rules.units import holder

Lacking = Callable[[Board, ShumshuState, Fight], int]
"""What a fight still lacks for the readings to part in it: 0 when they part."""

NO_FIGHT = 3
"""The level of a position with no fight at hand (none under way, declared or possible)."""
EDGE = 1 + 2 + crt.LAST
"""What a fight may lack at most for shift_order (`shift_order_lacks`): with no fight at hand
a position counts as lacking all of it, so that play looks for stronger attacks first."""
LATER = 20
"""What a fight lacks when no step of it can bring what is missing (a later fight must)."""
WIDE = 6
"""More hexes than lie between any two pieces of the island that can meet."""
OVER = 1_000
"""The distance of a finished game."""
FACES = range(1, 7)
FIGHT_STAGES = (Stage.HOLD, Stage.COMMIT, Stage.ROLL)


@functools.lru_cache(maxsize=64)
def other_reading(v: Variant, option: str) -> Variant:
    """`v` with the other reading of a two-reading `option`."""
    readings = [r.name for r in CATALOGUE.option(option).readings]
    flipped = next(r for r in readings if r != v.reading(option))
    choices = dict(v.choices)
    choices[option] = flipped
    return attrs.evolve(v, preset=None, choices=tuple(sorted(choices.items())))


def flipped(s: ShumshuState, option: str) -> ShumshuState:
    """The same position under the other reading of `option`."""
    return attrs.evolve(s, variant=other_reading(s.variant, option))


def parts_on_roll(b: Board, s: ShumshuState, fight: Fight, option: str) -> bool:
    """Some face of the die gives this fight another result under the other reading of
    `option` (SHU-CRT.1, SHU-COMBAT.7 to SHU-COMBAT.12)."""
    if not fight.defenders:
        return False
    t = flipped(s, option)
    return any(
        outcome(b, s, fight, face).result != outcome(b, t, fight, face).result for face in FACES
    )


def fights(b: Board, s: ShumshuState) -> list[tuple[int, Fight]]:
    """The fights at hand with their levels: the combat under way (0; each choice of
    defenders while they are chosen), the attacks declared (1), and, while the phasing side
    moves or declares, an attack on each enemy hex next to its units that may attack, by all
    of them (2). The defenders of a fight not yet under way are the first legal set
    (SHU-STACK.3); a Japanese attack not yet committed comes with the Ki-43 too, while it
    may fly (SHU-AIR.1)."""
    out: list[tuple[int, Fight]] = []
    f = s.fight
    if f is not None and not f.landing:
        if s.stage is Stage.DEFENDERS:
            out += [(0, attrs.evolve(f, defenders=d)) for d in defender_choices(b, s, f.hex)]
        elif s.stage in FIGHT_STAGES:
            out.append((0, f))
    if s.stage in (Stage.DECLARE, Stage.PICK):
        out += [(1, _at(b, s, c.hex, c.attackers)) for c in s.pending]
    if s.stage in (Stage.MOVE, Stage.DECLARE) and s.fight is None:
        fr = front(b, s)
        targets = sorted({t for a in fr.attackers for t in fr.contacts[a]})
        for t in targets:
            out.append((2, _at(b, s, t, tuple(a for a in fr.attackers if t in fr.contacts[a]))))
    if air_available(s):  # SHU-AIR.1: the Ki-43's shift is the attacker's to add
        out += [
            (level, attrs.evolve(f, air=True))
            for level, f in out
            if b.side_of[f.attackers[0]] == JP
            and not f.air
            and (level or s.stage is not Stage.ROLL)
        ]
    return out


def _at(b: Board, s: ShumshuState, h: Hex, attackers: tuple[str, ...]) -> Fight:
    """An attack on `h` by `attackers`, its defenders the first legal set."""
    return Fight(h, attackers, defenders=defender_choices(b, s, h)[0])


def by_fights(
    lacking: Lacking, *, far: Callable[[Board, ShumshuState], int] | None = None
) -> Callable[[Board, ShumshuState], int]:
    """The distance over the fights at hand: the least level plus what the fight lacks, or
    `NO_FIGHT` plus the way to a fight (`far`, or the way to contact: `contact`), whichever
    is less."""

    def distance(b: Board, s: ShumshuState) -> int:
        found = [level + lacking(b, s, f) for level, f in fights(b, s)]
        away = NO_FIGHT + (contact(b, s) if far is None else far(b, s))
        return min([*found, away])

    return distance


def contact(b: Board, s: ShumshuState) -> int:
    """How far the two sides are from a fight: the hexes between the nearest Russian and
    Japanese pieces on the map (0 when next to each other); with no Russian ashore, the
    landing still to make (2, 1 once units are sailing) beyond the island's width."""
    ru = [
        p.hex for p in s.units if p.loc is Loc.MAP and p.hex is not None and b.side_of[p.id] == RU
    ]
    jp = [
        p.hex for p in s.units if p.loc is Loc.MAP and p.hex is not None and b.side_of[p.id] == JP
    ]
    if not ru or not jp:
        sailing = s.sail is not None and bool(s.sail.party)
        return WIDE + (1 if sailing else 2)
    return max(0, min(hex_distance(x, y) for x in ru for y in jp) - 1)


def free_hexes(b: Board, s: ShumshuState, h: Hex | None, side: str) -> int:
    """Neighbouring island hexes free of the enemies of `side` (SHU-STACK.1, AMB-SHU-26)."""
    if h is None:
        return 0
    return sum(1 for n in b.neighbors(h) if holder(b, s, n) != other(side))
