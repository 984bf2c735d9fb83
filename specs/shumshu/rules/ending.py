"""The end of the game (SHU-WIN.1 to SHU-WIN.3, SHU-SEQ.2): its length, the star hexes
taken, the verdict, and `settle`, the checks after every action that may end it early
(AMB-SHU-3) or lose the beachhead (AMB-SHU-7).

Apart from the sequence of play so that the rules of victory read on their own; the steps
only call `game_over` and `game_length` from here.
"""

from __future__ import annotations

import attrs

from kernel.game import Outcome
from kernel.variants import Variant
from specs.shumshu.data.variants import LENGTH
from specs.shumshu.rules.board import Board
from specs.shumshu.rules.state import JP, RU, Loc, ShumshuState, Stage
from specs.shumshu.rules.units import holder


def game_length(v: Variant) -> int:
    return LENGTH[v.reading("game_length")]


def star_hexes(b: Board, s: ShumshuState) -> tuple[bool, bool]:
    """Whether the Russians have the 1-star and the 2-star hex: occupied now, or ever entered
    (AMB-SHU-3)."""
    if s.variant.is_("victory_timing", "ever_entered"):
        return "1" in s.taken, "2" in s.taken
    return holder(b, s, b.data.one_star) == RU, holder(b, s, b.data.two_star) == RU


def verdict(b: Board, s: ShumshuState) -> Outcome:
    """Marginal (SHU-WIN.1) or strategic (SHU-WIN.2) Russian victory, else Japanese
    (SHU-WIN.3)."""
    one, two = star_hexes(b, s)
    if two and (one or s.variant.is_("strategic_needs", "two_star_alone")):
        return Outcome(
            RU,
            {RU: 2, JP: 0},
            "SHU-WIN.2",
            f"strategic victory: the Russians took {b.data.two_star}",
        )
    if one:
        return Outcome(
            RU,
            {RU: 1, JP: 0},
            "SHU-WIN.1",
            f"marginal victory: the Russians took {b.data.one_star}",
        )
    return Outcome(JP, {RU: 0, JP: 1}, "SHU-WIN.3", "the Russians hold no star hex")


def game_over(b: Board, s: ShumshuState) -> ShumshuState:
    return attrs.evolve(
        s, stage=Stage.OVER, result=verdict(b, s), pending=(), fight=None, sail=None
    )


def settle(b: Board, s: ShumshuState) -> ShumshuState:
    """After every action: the beachhead is lost when emptied or taken (AMB-SHU-7); the AT
    guns have arrived once landed (SHU-TANK.2); star hexes entered are recorded and, when they
    count on entry, a strategic victory ends the game (AMB-SHU-3)."""
    if s.stage is Stage.OVER:
        return s
    bh = s.beachhead
    if bh is not None:
        who = holder(b, s, bh)
        if who == JP or (who is None and s.variant.is_("beachhead_lost", "emptied_or_taken")):
            s = attrs.evolve(s, beachhead=None)  # SHU-LAND.10: lost, a new landing may be tried
    if not s.at_arrived and any(s.piece(u).loc is Loc.MAP for u in b.at_guns):
        s = attrs.evolve(s, at_arrived=True)  # SHU-TANK.2: the AT guns have arrived
    if s.variant.is_("victory_timing", "ever_entered"):
        taken = set(s.taken)
        if holder(b, s, b.data.one_star) == RU:
            taken.add("1")
        if holder(b, s, b.data.two_star) == RU:
            taken.add("2")
        if taken != s.taken:
            s = attrs.evolve(s, taken=frozenset(taken))
            one, two = star_hexes(b, s)
            if two and (one or s.variant.is_("strategic_needs", "two_star_alone")):
                return game_over(b, s)
    return s
