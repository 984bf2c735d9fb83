"""How good a Shanghai-Nanking 1937 position looks to one side, from its observation alone (for
the greedy and search agents of `tools.agents`), squashed into (-1, 1); a finished game is +1 /
-1 as its result says.

It mirrors the victory conditions: the Japanese win when they control all seven city hexes in a
Victory Check Phase (SNC-4.3.1, SNC-4.3.2), the Chinese when they do not by GT 12 (SNC-4.3.3);
the Chinese win at once by taking Shanghai, 3512 (SNC-4.1.1), or from GT 8 by having units in
or next to it (SNC-4.1.2), and lose at once if up to GT 5 none is there (SNC-4.2.1). So the
value is mostly the share of the city hexes the Japanese control, then the Chinese presence
around Shanghai, then the material each side keeps on the map (the observation counts every
stack, hidden units included; a reduced unit counts half).

`evaluate_state(rules, state, side)` is the same value read from a state the search drew
(`evaluate(game.observe(state, side), side)`, held equal by the tests) without building the
whole observation: a search scores a position per simulation, and building the observation
document took about a tenth of an SNC search's time.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from kernel.evaluation import finished
from kernel.hexes import Hex, parse_hex
from specs.snc1937.rules.state import CH, JP, Step
from specs.snc1937.rules.tables import locations, stacks

if TYPE_CHECKING:
    from specs.snc1937.rules.play import SNCRules
    from specs.snc1937.rules.state import SNCState
    from specs.snc1937.rules.tables import Tables

CITY_WEIGHT = 1.2
"""On the Japanese share of the (non-neutral) city hexes, from -1 (none) to +1 (all)."""
SHANGHAI_WEIGHT = 0.4
"""On the Chinese units in or next to 3512, up to `SHANGHAI_FULL` of them."""
SHANGHAI_FULL = 3
MATERIAL_WEIGHT = 0.6
"""On the difference of units kept, relative to their total."""
SHANGHAI = "3512"  # SNC-4.1.1, SNC-4.1.2, SNC-4.2.1


@functools.cache
def _board() -> tuple[frozenset[str], frozenset[str], dict[str, str]]:
    """The non-neutral city hexes, 3512 and its neighbours, each unit's side (static data)."""
    from kernel.hexes import hex_name, parse_hex
    from specs.snc1937.rules.play import SNCRules

    board = SNCRules().board
    cities = frozenset(hex_name(h) for h in board.map.cities if not board.is_neutral(h))
    shanghai = parse_hex(SHANGHAI)
    ring = frozenset(hex_name(h) for h in (shanghai, *board.neighbors(shanghai)))
    sides = {u.id: u.side for u in board.data.units}
    return cities, ring, sides


def evaluate(observation: Mapping[str, Any], side: str) -> float:
    """The value of the observed position for `side`, in [-1, 1]."""
    done = finished(observation, side)
    if done is not None:
        return done
    cities, ring, sides = _board()
    control = set(observation["jp_control"])
    held = sum(h in control for h in cities)  # SNC-4.3.1
    city_share = 2 * held / len(cities) - 1 if cities else 0.0
    kept = {"CH": 0.0, "JP": 0.0}
    near = 0
    for stack in observation["stacks"]:
        kept[stack["side"]] += stack["count"]
        if stack["side"] == "CH" and stack["hex"] in ring:  # SNC-4.1.2, SNC-4.2.1
            near += stack["count"]
    for unit in observation.get("reduced", ()):
        owner = sides.get(unit)
        if owner is not None:
            kept[owner] -= 0.5
    material = (kept["JP"] - kept["CH"]) / (kept["JP"] + kept["CH"] + 1)
    presence = min(near, SHANGHAI_FULL) / SHANGHAI_FULL
    japanese = CITY_WEIGHT * city_share + MATERIAL_WEIGHT * material - SHANGHAI_WEIGHT * presence
    return math.tanh(japanese if side == "JP" else -japanese)


@functools.cache
def _hexes(t: Tables) -> tuple[frozenset[Hex], frozenset[Hex]]:
    """`_board`'s city hexes and Shanghai's ring as hexes, from the game's own tables."""
    board = t.board
    shanghai = parse_hex(SHANGHAI)
    cities = frozenset(h for h in board.map.cities if not board.is_neutral(h))
    return cities, frozenset((shanghai, *board.neighbors(shanghai)))


def _shown(s: SNCState) -> Hex | None:
    """The stack a combat shows whole (SNC-6.3.1), as `io.observation.observe` reads it: the
    target once the attack's resolution begins (AMB-SNC-40: later under
    fog_fire_support=support_then_reveal)."""
    c = s.combat
    if c is None:
        return None
    hidden = {Step.JOIN}
    if s.variant.is_("fog_fire_support", "support_then_reveal"):  # AMB-SNC-40
        hidden |= {Step.SUPPORT_A, Step.AIR_ASK, Step.AIR_ROLL}
    return None if s.step in hidden else c.target


def evaluate_state(rules: SNCRules, s: SNCState, side: str) -> float:
    """`evaluate(game.observe(s, side), side)`, read from the state: every stack's owner,
    count and hex, and the reduced units `side` sees (its own, the enemy tops, the stack a
    combat shows and those off the map, SNC-6.3.1), nothing it does not."""
    if s.result is not None:
        winner = s.result.winner
        return 0.0 if winner is None else (1.0 if winner == side else -1.0)
    t = rules.tables
    cities, ring = _hexes(t)
    held = len(cities & s.jp_control)  # SNC-4.3.1
    city_share = 2 * held / len(cities) - 1 if cities else 0.0
    spec = t.spec
    kept = {CH: 0.0, JP: 0.0}
    near = 0
    mine: set[str] = set()  # the units of `side`'s stacks: shown whole
    for h, units in stacks(s.where).items():
        owner = spec[units[0]].side
        kept[owner] += len(units)
        if owner == CH and h in ring:  # SNC-4.1.2, SNC-4.2.1
            near += len(units)
        if owner == side:
            mine.update(units)
    shown = _shown(s)
    on_map = locations(s.where)
    for u in s.reduced:
        at = on_map.get(u)
        if at is None or u in mine or at == shown or _top(t, s, u, at):
            kept[spec[u].side] -= 0.5
    material = (kept[JP] - kept[CH]) / (kept[JP] + kept[CH] + 1)
    presence = min(near, SHANGHAI_FULL) / SHANGHAI_FULL
    japanese = CITY_WEIGHT * city_share + MATERIAL_WEIGHT * material - SHANGHAI_WEIGHT * presence
    return math.tanh(japanese if side == JP else -japanese)


def _top(t: Tables, s: SNCState, unit: str, h: Hex) -> bool:
    """Whether `unit` is the top of its stack in `h` (`top_unit.top_first`: the last put on
    top, else the first in the data's order; SNC-6.3.1, AMB-SNC-40)."""
    units = stacks(s.where)[h]
    top = next((u for u in s.on_top if u in units), None)
    return unit == (min(units, key=t.order.__getitem__) if top is None else top)
