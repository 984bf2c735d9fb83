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
from specs.snc1937.formal.situations_common import Situation, other_readings
from specs.snc1937.rules.state import CH, JP, Phase, SNCState, Step, evolve

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
    # found here (SNC-10.0.8, SNC-8.4.0.4): a second landing on a hex attacked this phase
    "landing_defended_once": reinforcements(JP),
    # found here (SNC-6.0.4): the culls of an over-stacked hex, minimal or fewest
    "overstack_cull": culling,
    # found here (SNC-8.4.1.1, SNC-13.x): a section 13 line landing whole or by formation
    "landing_split": reinforcements(JP),
}
