"""SNC's situations: for an option whose readings part only in a battle random play rarely
makes, the distance of a position from one where the two readings' inputs differ
(`reading_situations`, offered to the ambiguity explorer by the game: `game.SNC`; the search
that uses it is `solvers.checking.situations.toward`).

Every distance is the option's own condition, asked of the rules' own functions (under the
state's reading and under each other reading of the option, the state with its variant's
reading changed, where the condition is that they answer differently): 0 where the next
step(s) may show the readings part, more the more of the condition is missing. The battle
options are measured in `situations_combat`, the others in `situations_play`. No position is
written by hand: the search measures positions play makes.

- crt_5to1_six (SNC-0.0.4, SNC-10.5.0.1): the CRT cells the errata box changes (5:1, die 6):
  a battle read at a changed column.
- odds_limits (AMB-SNC-2; SNC-10.3.1.1, SNC-10.4.0.3): basic odds beyond 6:1 with a net left
  shift, or below 1:3 with a net right shift.
- town_marsh_woods (AMB-SNC-1; SNC-0.0.3, SNC-10.4.1.4 to SNC-10.4.1.6): a Japanese attack on
  a Chinese-held town in a woods or marsh hex.
- concentric (AMB-SNC-27; SNC-10.4.2.1): Japanese attackers from three hexes with one hex
  between each, a Japanese unit in a hex between.
- landing_halving_base (found here; SNC-8.4.0.5): a landing with a reduced attacker.
- sudden_defeat_timing (AMB-SNC-15; SNC-4.2.1): the last Chinese unit in or next to 3512 on
  GT 1 to 5, with a move or combat under way.
- sudden_death_units (found here; SNC-4.2.1): a static Chinese unit in or next to 3512 on GT 1
  to 5 and at most one mobile one.
- chinese_air (AMB-SNC-31; SNC-11.3.1): a second Japanese air marker in a phase where the
  Chinese air support has flown.
- marker_arrival (found here; SNC-8.5.1, SNC-11.1.4): the Japanese defending with naval
  gunfire in the Chinese player turn, when this GT's markers and last GT's differ.
- control_entry (AMB-SNC-16; SNC-3.2.2): a placement, unopposed landing or retreat into a hex
  the arriving side does not control.
- retreat_into_ezoc, retreat_blocked (AMB-SNC-11; SNC-8.4.0.9): a landing combat whose
  Chinese defenders may retreat into a Japanese ZOC, or cannot retreat at all.
- replacement_timing (AMB-SNC-20; SNC-8.3.4): a Japanese Reinforcement Phase from GT 3 about
  to open with a unit that may take a replacement step.
- estuary_is_yangtze, fire_support_refresh, landing_fire_support (SNC-11.1.x, SNC-11.4.x,
  SNC-8.5.2): a battle where the markers a side may add differ.
- control_transit (found here; SNC-3.2.2): a move into a hex the moving side does not
  control.
- japanese_stack (AMB-SNC-9; SNC-6.2.1): a Japanese move, landing or placement making a stack
  the readings judge differently.
- landing_defended_once (found here; SNC-10.0.8, SNC-8.4.0.9): a landing whose Chinese
  defenders may retreat into a hex where another group may still land this phase
  (`situations_listing.landing_again`).
- chinese_rail, rail_start_in_ezoc, elite_return_ban, tenth_army_delay, tenth_army_unopposed,
  landing_split, overstack_cull: a position of the kind where the
  option changes what may be done (a Reinforcement Phase, a cull) whose listing differs
  (`situations_listing`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from specs.snc1937.formal.situations_combat import (
    beyond_limits,
    combat_situation,
    concentric_between,
    crt_changed,
    reduced_lander,
    toward_town,
    town_in_woods,
)
from specs.snc1937.formal.situations_common import Grade, Situation
from specs.snc1937.formal.situations_listing import LISTED, landing_again, listing_situation
from specs.snc1937.formal.situations_play import (
    arrival_elsewhere,
    defeat_timing,
    defence_markers,
    japanese_stacks,
    landing_retreat,
    replacements_due,
    second_interception,
    static_only,
    support_differs,
    transit,
)

GRADES: dict[str, Grade] = {
    "crt_5to1_six": crt_changed,
    "odds_limits": beyond_limits,
    "concentric": concentric_between,
    "landing_halving_base": reduced_lander,
}


def reading_situations(rules: Any) -> Mapping[str, Situation]:
    """The option -> distance mapping the explorer asks for
    (`solvers.checking.situations`), each bound to `rules` (their tables, board and data)."""
    out = {option: combat_situation(rules, option, grade) for option, grade in GRADES.items()}
    out["town_marsh_woods"] = combat_situation(
        rules, "town_marsh_woods", town_in_woods, toward_town
    )
    out["sudden_defeat_timing"] = defeat_timing(rules)
    out["sudden_death_units"] = static_only(rules)
    out["chinese_air"] = second_interception(rules)
    out["marker_arrival"] = defence_markers(rules)
    out["control_entry"] = arrival_elsewhere(rules)
    out["replacement_timing"] = replacements_due(rules)
    out["control_transit"] = transit(rules)
    out["japanese_stack"] = japanese_stacks(rules)
    for option in ("estuary_is_yangtze", "fire_support_refresh", "landing_fire_support"):
        out[option] = support_differs(rules, option)
    for option in ("retreat_into_ezoc", "retreat_blocked"):
        out[option] = landing_retreat(rules, option)
    for option, where in LISTED.items():
        out[option] = listing_situation(rules, option, where)
    out["landing_defended_once"] = landing_again(rules)
    return out
