"""The Russians' sea movement as the situations see it: where it goes and who may still
come (`sea_bound`), the landing rolls at hand (`landing_fights`), and landing_swamp's
situation (`formal.situations`)."""

from __future__ import annotations

from kernel.hexes import Hex
from specs.shumshu.formal.situations_fights import FIGHT_STAGES, NO_FIGHT, parts_on_roll
from specs.shumshu.rules.board import Board
from specs.shumshu.rules.combat import defender_choices
from specs.shumshu.rules.landing import (
    available,
    embark_choices,
    landing_hexes,
    landing_open,
    party_limit,
)
from specs.shumshu.rules.state import JP, RU, Fight, ShumshuState, Stage
from specs.shumshu.rules.units import holder, real_in


def aboard(s: ShumshuState, unit: str) -> bool:
    """`unit` has embarked in this sea movement."""
    return s.sail is not None and unit in s.sail.party


def sea_bound(b: Board, s: ShumshuState) -> tuple[Hex | None, frozenset[str]]:
    """Where the Russians' sea movement goes (the landing hex, or the beachhead for
    deliveries; any landing hex before one is chosen: None) and the units aboard or that
    may still embark for it (SHU-LAND.2, SHU-REINF.3)."""
    party = s.sail.party if s.sail is not None else ()
    may = embark_choices(b, s) if s.side == RU and s.stage is Stage.SAIL else []
    if s.sail is not None:
        return s.sail.hex or s.beachhead, frozenset((*party, *may))
    if s.side == RU and s.stage is Stage.SAIL and landing_open(s):
        return None, frozenset(u.id for u in b.data.units if available(b, s, u.id))
    return s.beachhead, frozenset(may)


def bound_room(b: Board, s: ShumshuState) -> int:
    """How many more units the sea movement may carry (SHU-LAND.2, SHU-REINF.3)."""
    if s.side != RU or s.stage is not Stage.SAIL:
        return 0
    landing = s.sail is None or s.sail.hex is not None
    embarked = len(s.sail.party) if s.sail is not None else 0
    return max(0, party_limit(s, landing) - embarked)


# --- landings --------------------------------------------------------------------------------


def landing_fights(b: Board, s: ShumshuState) -> list[tuple[int, Fight]]:
    """The landing rolls at hand: the one under way (0), those of the party still to roll and
    of the units that may still embark for it (1), and, before a landing hex is chosen, each
    unit that may sail against each coastal hex it may land on that the Japanese hold (2)
    (SHU-LAND.1, SHU-LAND.2)."""
    f = s.fight
    if f is not None and f.landing and s.stage in FIGHT_STAGES:
        return [(0, f)]
    sail = s.sail
    if sail is not None and sail.hex is not None:
        rolled = f is not None and f.landing  # the first of the party has rolled
        landers = [*sail.party[1 if rolled else 0 :], *embark_choices(b, s)]
        if not sail.party:
            landers += [u.id for u in b.data.units if available(b, s, u.id)]
        held = _held(b, s, sail.hex)
        return [(1, Fight(sail.hex, (u,), landing=True, defenders=held)) for u in landers]
    if s.stage is Stage.SAIL and sail is None:
        landers = [u.id for u in b.data.units if available(b, s, u.id)]
        return [
            (2, Fight(h, (u,), landing=True, defenders=_held(b, s, h)))
            for h in landing_hexes(b, s)
            if holder(b, s, h) == JP
            for u in landers
        ]
    return []


def _held(b: Board, s: ShumshuState, h: Hex) -> tuple[str, ...]:
    """The first legal set of defenders of `h` (SHU-STACK.3)."""
    return defender_choices(b, s, h)[0]


def landing_swamp_distance(b: Board, s: ShumshuState) -> int:
    """landing_swamp (found here, SHU-COMBAT.12, SHU-COMBAT.8, SHU-LAND.2): the swamp's
    shift for a landing or not: the readings part in a landing roll against Japanese
    defenders of a swamp hex (a roll that does not part them counts as none). Lacking, with
    no such roll at hand: a Japanese unit in a coastal swamp hex the Russians may land on,
    no beachhead held (SHU-LAND.10: one landing at a time), the Russian player-turn."""
    found = [level for level, f in landing_fights(b, s) if parts_on_roll(b, s, f, "landing_swamp")]
    swamps = [h for h in b.hexes if b.terrain(h) == "swamp" and b.is_coastal(h) and not b.in_red(h)]
    held = any(real_in(b, s, h) and holder(b, s, h) == JP for h in swamps)
    away = NO_FIGHT + int(not held) + int(s.beachhead is not None) + int(s.side != RU)
    return min([*found, away])
