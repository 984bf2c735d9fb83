"""SNC's situations read off what a side may do (`formal.situations`): an option whose readings
change the actions listed in one kind of position (a Reinforcement Phase's placements and
landings, an over-stacked hex's culls) is at distance 0 where the
rules' own listing (`legal_actions`) differs under the state's reading and under another
reading of the option (the explorer's comparison then shows it at once), 1 in a position of
that kind where it does not, 2 elsewhere: the steered search starts from the corpus positions
of that kind and plays on through them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kernel.errors import WargameError
from kernel.game import CHANCE
from kernel.hexes import Hex
from specs.snc1937.formal.situations_common import Situation, other_readings
from specs.snc1937.rules.combat_choices import mobile, retreat_hexes
from specs.snc1937.rules.reinforcement_steps import landing_groups, landing_hexes
from specs.snc1937.rules.state import CH, JP, Phase, SNCState, Step, evolve
from specs.snc1937.rules.tables import stacks

Where = Callable[[SNCState], bool]
"""The kind of position where the option changes what may be done."""


def reinforcements(side: str, from_gt: int = 1) -> Where:
    """`side`'s Reinforcement Phase from GT `from_gt` on (SNC-8.x)."""
    return lambda s: s.side == side and s.phase == Phase.REINF and s.turn >= from_gt


def culling(s: SNCState) -> bool:
    """An over-stacked hex being culled by its owner (SNC-6.0.4)."""
    return s.step == Step.STACK


def listing_situation(rules: Any, option: str, where: Where) -> Situation:
    """The distance for `option` read in what may be done at positions `where` picks (module
    docstring)."""

    def listed(s: SNCState) -> set[Any] | None:
        if rules.to_move(s) in (None, CHANCE):
            return None
        try:
            return set(rules.legal_actions(s))
        except WargameError:
            return None

    def distance(s: SNCState) -> int:
        if s.result is not None or not where(s):
            return 2
        mine = listed(s)
        if mine is None:
            return 1
        others = other_readings(s.variant, option)
        return 0 if any(listed(evolve(s, variant=v)) != mine for v in others) else 1

    return distance


LISTED: dict[str, Where] = {
    # AMB-SNC-21 (SNC-8.2.4, SNC-9.5.2.1): where a Chinese reinforcement may arrive by rail
    "chinese_rail": reinforcements(CH, 3),
    # found here (SNC-9.5.2.3, SNC-7.2.3): a rail move setting out from a Japanese ZOC
    "rail_start_in_ezoc": reinforcements(CH, 3),
    # found here (SNC-8.1.4, SNC-8.2.1): a returning elite unit next to a Japanese unit
    "elite_return_ban": reinforcements(CH),
    # found here (SNC-8.4.1.1, SNC-8.0.2): the rest of a delayed 10th Army line
    "tenth_army_delay": reinforcements(JP),
    # found here (SNC-8.4.1.2): the 10th Army's second hex after an unopposed landing
    "tenth_army_unopposed": reinforcements(JP),
    # found here (SNC-6.0.4): the culls of an over-stacked hex, minimal or fewest
    "overstack_cull": culling,
    # found here (SNC-8.4.1.1, SNC-13.x): a section 13 line landing whole or by formation
    "landing_split": reinforcements(JP),
}


def landing_again(rules: Any) -> Situation:
    """landing_defended_once (found here; SNC-10.0.8, SNC-8.4.0.9): 0 where the Japanese
    Reinforcement Phase's listing differs (`listing_situation`); 1 at a landing combat still
    under way once Chinese units retreated from it into a hex where a group still due may
    land (their retreat makes it a hex attacked this phase, SNC-10.0.8), 2 before they did,
    if they may; 3 where a group may land on a Chinese-held hex next to such a hex; 4 in
    another Japanese Reinforcement Phase, 5 elsewhere."""
    t = rules.tables
    listed = listing_situation(rules, "landing_defended_once", reinforcements(JP))

    def later(s: SNCState, landing: tuple[str, ...]) -> set[Hex]:
        """Where the due groups other than `landing`'s units may land."""
        hexes: set[Hex] = set()
        for group in landing_groups(t, s):
            rest = tuple(u for u in group if u not in landing)
            if rest:
                hexes.update(landing_hexes(t, s, rest))
        return hexes

    def chinese(s: SNCState, h: Hex) -> tuple[str, ...]:
        here = stacks(s.where).get(h, ())
        return here if here and t.spec[here[0]].side == CH else ()

    def distance(s: SNCState) -> int:
        if s.result is not None or s.side != JP or s.phase != Phase.REINF:
            return 5
        c = s.combat
        if c is not None and c.landing:
            hexes = later(s, c.attackers)
            if any(h in s.attacked and h != c.target and chinese(s, h) for h in hexes):
                return 1
            here = chinese(s, c.target)
            open_to = set(retreat_hexes(t, s, c.target)) & hexes
            return 2 if here and mobile(t, here) and open_to else 4
        if listed(s) == 0:
            return 0
        for group in landing_groups(t, s):
            for x in landing_hexes(t, s, group):
                if chinese(s, x) and set(retreat_hexes(t, s, x)) & later(s, group):
                    return 3
        return 4

    return distance
