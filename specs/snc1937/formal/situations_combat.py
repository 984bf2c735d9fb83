"""SNC's situations in battle (`formal.situations`): an option read in the CRT result of a
battle, measured by the battle under way.

0 where the rules' own odds and CRT answer differently under the state's reading and under
each other reading of the option for the battle under way before its die (the die then shows
it), 1 where they do for the attackers declared so far (the declaration still open), and
otherwise 2 plus how far the battle is from the situation (`Grade`: the columns still missing
to 5:1 or beyond the table, the hexes missing to a concentric attack, a reduced unit missing
from a landing; FAR for a battle that cannot become one); a position with no battle under way
is farther, a Fight phase's less than others' (a battle may be declared there), or as the
option measures it (`Outside`: the hexes between the Japanese and a Chinese-held town in
woods or marsh).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kernel.errors import WargameError
from kernel.hexes import Hex, hex_distance, hex_neighbors
from specs.snc1937.formal.situations_common import (
    BEFORE_DIE,
    FACES,
    FAR,
    OPS,
    UNDER_WAY,
    Grade,
    Situation,
    other_readings,
    outside,
)
from specs.snc1937.rules.odds import HIGHEST, LOWEST, clamp, crt_result, parse_column
from specs.snc1937.rules.state import CH, JP, Combat, SNCState, Step, evolve
from specs.snc1937.rules.tables import battle, locations, stacks


def _results(rules: Any, s: SNCState, c: Combat) -> tuple[tuple[int, int], ...] | None:
    """The steps each side loses on each die face (SNC-10.5.0.1: the battle's final column,
    `tables.battle`, read on the CRT), or None: no battle yet."""
    try:
        column = battle(rules.tables, s, c).column
        return tuple(crt_result(rules.data, s.variant, column, face) for face in FACES)
    except WargameError:
        return None


def _differ(rules: Any, s: SNCState, c: Combat, option: str) -> bool:
    """Whether the battle's die results differ under another reading of `option`."""
    mine = _results(rules, s, c)
    if mine is None:
        return False
    others = other_readings(s.variant, option)
    return any(_results(rules, evolve(s, variant=v), c) != mine for v in others)


Outside = Callable[[Any, SNCState], int]
"""How far a position with no battle under way is from one (FAR and more)."""


def combat_situation(
    rules: Any, option: str, grade: Grade, far_off: Outside | None = None
) -> Situation:
    """The distance for an option read in the CRT result of a battle (module docstring);
    `far_off` measures a position with no battle under way (`situations_common.outside`
    unless given)."""

    def away(s: SNCState) -> int:
        return outside(s) if far_off is None else far_off(rules, s)

    def distance(s: SNCState) -> int:
        c = s.combat
        if c is None or (c.overrun and s.step == Step.JOIN) or s.step not in UNDER_WAY:
            return away(s)
        if c.attackers and _differ(rules, s, c, option):
            return 0 if s.step in BEFORE_DIE else 1
        graded = grade(rules, s, c)
        return away(s) if graded >= FAR else 2 + graded

    return distance


def _column(rules: Any, s: SNCState, c: Combat) -> tuple[int, int] | None:
    """The battle's basic column and net shift, or None (no attacker yet, no strength)."""
    if not c.attackers:
        return None
    try:
        o = battle(rules.tables, s, c)
    except WargameError:
        return None
    return o.base, o.net


def crt_changed(rules: Any, s: SNCState, c: Combat) -> int:
    """crt_5to1_six: the columns between the battle's final column and one the errata box
    changes (SNC-0.0.4); an attacker missing counts as far."""
    found = _column(rules, s, c)
    if found is None:
        return FAR
    base, net = found
    at = clamp(base + net)
    changed = {parse_column(label) for label, _ in rules.data.crt.errata}
    return min(abs(at - k) for k in changed)


def beyond_limits(rules: Any, s: SNCState, c: Combat) -> int:
    """odds_limits: the columns still missing beyond 6:1 (below 1:3), plus one while no net
    shift points back into the table (SNC-10.3.1.1, SNC-10.4.0.3)."""
    found = _column(rules, s, c)
    if found is None:
        return FAR
    base, net = found
    high = max(0, HIGHEST + 1 - base) + (0 if net < 0 else 1)
    low = max(0, base - (LOWEST - 1)) + (0 if net > 0 else 1)
    return min(high, low)


def _town_in_woods(rules: Any, h: Hex) -> bool:
    """A town in a woods or marsh hex (SNC-10.4.1.4, SNC-10.4.1.5)."""
    return bool(rules.board.is_town(h) and rules.board.terrain(h) in {"woods", "marsh"})


def town_in_woods(rules: Any, s: SNCState, c: Combat) -> int:
    """town_marsh_woods: 0 for a battle on a town in a woods or marsh hex held by the Chinese
    (attacked by the Japanese, a landing's too: SNC-10.4.1.4); FAR for any other (it cannot
    become one: the search looks for another battle)."""
    defenders = stacks(s.where).get(c.target, ())
    chinese = bool(defenders) and rules.data.unit(defenders[0]).side == CH
    return 0 if _town_in_woods(rules, c.target) and chinese else FAR


def toward_town(rules: Any, s: SNCState) -> int:
    """town_marsh_woods with no battle under way: FAR plus the hexes between the Japanese
    units and the nearest Chinese-held town in a woods or marsh hex (0 when one is adjacent:
    an attack may be declared), one more outside a Japanese Fight phase (whatever the phase:
    play passes through the others on its way to one)."""
    st = stacks(s.where)
    towns = [
        h for h, us in st.items() if _town_in_woods(rules, h) and rules.data.unit(us[0]).side == CH
    ]
    japanese = [h for h, us in st.items() if rules.data.unit(us[0]).side == JP]
    if not towns or not japanese:
        return outside(s) + 6
    gap = min(hex_distance(a, b) for a in towns for b in japanese) - 1
    fight = s.side == JP and s.phase in OPS and s.step == Step.MAIN and s.ops_kind() == "fight"
    return FAR + min(gap, 20) + (0 if fight else 1)


def concentric_between(rules: Any, s: SNCState, c: Combat) -> int:
    """concentric: the attack hexes missing to a triple with one hex between each, plus one
    while no Japanese unit stands in a hex between (SNC-10.4.2.1; AMB-SNC-27)."""
    board = rules.board
    if board.is_city(c.target) or c.landing or not c.attackers:
        return FAR
    if rules.data.unit(c.attackers[0]).side != JP:
        return FAR
    around = hex_neighbors(c.target)
    loc = locations(s.where)
    dirs = {around.index(loc[u]) for u in c.attackers if loc.get(u) in around}
    st = stacks(s.where)
    best = FAR
    for d in range(2):
        triple = {d, d + 2, d + 4}
        between = (around[d + 1], around[d + 3], around[(d + 5) % 6])
        held = any(rules.data.unit(u).side == JP for b in between for u in st.get(b, ()))
        best = min(best, len(triple - dirs) + (0 if held else 1))
    return best


def reduced_lander(rules: Any, s: SNCState, c: Combat) -> int:
    """landing_halving_base: 0 for a landing with a reduced attacker (SNC-8.4.0.5), 1 for a
    landing with none, 2 for any other battle."""
    if not c.landing:
        return 2
    return 0 if any(u in s.reduced for u in c.attackers) else 1
