"""Movement (SNC-9.x, SNC-2.2.1.8 to SNC-2.2.1.10, SNC-7.2.x): what a hex costs each side, and
where a unit or a group moving together can go.

Costs come from the TEC data (`data.tec`), by nationality (SNC-9.4.x, SNC-9.5.x):

- Chinese: 1 MP a hex whatever its terrain (SNC-9.4.1), plus the creek/river extra (SNC-9.4.2);
  under `chinese_roads=half_mp` (AMB-SNC-22) the Japanese road rate applies to them too.
- Japanese: by natural terrain (clear 1, woods/marsh/paddy 2; SNC-9.4.3, SNC-9.4.4), a city 1
  (SNC-9.5.0.2), a town as its natural terrain (SNC-9.5.0.3), 1/2 when moving from road to road
  or rail to rail across a hexside the route crosses (SNC-9.5.1.1); creek +1, river +2
  (SNC-9.4.5), and a road never cancels a river crossing (SNC-9.5.1.2); whether it cancels a
  creek crossing is `road_and_creek` (AMB-SNC-23 (iv)).
- Nobody enters water hexes or 3513, or crosses a Yangtze, all-sea or all-lake hexside (SNC-9.4.6,
  SNC-0.0.1).

The cost of a step is the sum of the in-hex and hexside costs (SNC-9.3.2). Step costs are
computed once per board, side and reading and kept as integer ticks (multiples of the smallest
fraction), so `reachable` is a plain Dijkstra: it runs for every unit of an army per query.
"""

from __future__ import annotations

import functools
import heapq
import math
from collections.abc import Collection, Mapping, Sequence
from fractions import Fraction

from kernel.errors import IllegalAction, InvalidInput
from kernel.hexes import Hex, hex_adjacent, hex_name
from kernel.variants import Variant
from specs.snc1937.data.loader import SNCData
from specs.snc1937.rules.board import Board
from specs.snc1937.rules.zoc import enemy, hexes_of_side, zoc_hexes

Steps = Mapping[Hex, tuple[tuple[Hex, int], ...]]  # hex -> (neighbour, cost in ticks)


# --- step costs ---------------------------------------------------------------------------------


def step_cost(
    board: Board,
    data: SNCData,
    side: str,
    a: Hex,
    b: Hex,
    chinese_roads: str,
    road_and_creek: str,
    road_creek_scope: str = "with_road_rate",
) -> Fraction | None:
    """The MP a unit of `side` pays to move from `a` into the adjacent `b`: the terrain of `b`
    plus the water barrier on the hexside crossed (SNC-9.0.4, SNC-9.3.2), or None when the move
    is prohibited (SNC-9.4.6, SNC-0.0.1). Rice paddy counts as natural terrain (SNC-9.5.0.5);
    roads and railroads cost 1/2 (SNC-9.5.0.4) on the terms of SNC-9.5.1.1."""
    tec = data.tec
    if not board.enterable(b):
        return None  # SNC-9.4.6, SNC-0.0.1: water hexes and the International Settlement
    kind = board.side_kind(a, b)
    if kind in tec.prohibited_sides:
        return None  # SNC-9.4.6: Yangtze, all-sea and all-lake hexsides
    in_hex: Fraction | None
    if side == "CH":
        in_hex = tec.mp(tec.enter, "CH", board.terrain(b))  # SNC-9.4.1: 1 whatever the terrain
    elif board.is_city(b):
        in_hex = tec.mp(tec.manmade, side, "city")  # SNC-9.5.0.2 (AMB-SNC-23 (ii))
    else:  # SNC-9.5.0.3: a town costs its natural terrain (the TEC says "terrain")
        # SNC-9.4.3, SNC-9.4.4: Japanese clear 1, woods/marsh/paddy 2 (paddy natural, SNC-9.5.0.5)
        in_hex = tec.mp(tec.enter, side, board.terrain(b))
    if in_hex is None:
        raise InvalidInput(
            f"the TEC gives {side} no cost for {board.terrain(b)} ({hex_name(b)})",
            field="tec.enter",
            clauses=("SNC-9.4.1", "SNC-9.4.3", "SNC-9.4.4"),
        )
    # SNC-9.5.1.1: 1/2 MP from route hex to route hex across a hexside the route crosses; the
    # Chinese get that rate only under chinese_roads=half_mp (AMB-SNC-22)
    route = "road" if board.road(a, b) else "railroad" if board.rail(a, b) else None
    route_cost = None
    if route is not None and (side == "JP" or chinese_roads == "half_mp"):
        route_cost = tec.mp(tec.manmade, "JP", route)  # SNC-9.5.0.4: 1/2 MP on the route
    cost = in_hex if route_cost is None else route_cost
    # a road that bridges a creek (roads_negate_creek) does so for a unit that gets no road
    # rate only under road_creek_scope=every_unit (found here)
    on_road = route_cost is not None or (route == "road" and road_creek_scope == "every_unit")
    if kind in ("creek", "river"):
        extra = tec.mp(tec.cross, side, kind) or Fraction(0)  # SNC-9.4.2, SNC-9.4.5
        if on_road and kind == "creek" and road_and_creek == "roads_negate_creek":
            extra = Fraction(0)  # AMB-SNC-23 (iv) reading: a road bridges a creek
        # SNC-9.3.2, SNC-9.0.4: in-hex cost plus the hexside's water barrier
        cost += extra  # SNC-9.5.1.2: a road never cancels a river crossing
    return cost


@functools.cache
def _steps(
    board: Board,
    data: SNCData,
    side: str,
    chinese_roads: str,
    road_and_creek: str,
    road_creek_scope: str,
) -> tuple[Steps, int]:
    costs: dict[tuple[Hex, Hex], Fraction] = {}
    for a in board.map.hexes:
        if not board.enterable(a):
            continue
        for b in board.neighbors(a):
            c = step_cost(board, data, side, a, b, chinese_roads, road_and_creek, road_creek_scope)
            if c is not None:
                costs[a, b] = c
    scale = math.lcm(1, *(c.denominator for c in costs.values()))
    steps: dict[Hex, list[tuple[Hex, int]]] = {}
    for (a, b), c in costs.items():
        steps.setdefault(a, []).append((b, int(c * scale)))
    return {h: tuple(v) for h, v in steps.items()}, scale


def side_steps(board: Board, data: SNCData, variant: Variant, side: str) -> tuple[Steps, int]:
    """Every legal step for `side` with its cost in ticks, and the ticks per MP (cached)."""
    return _steps(
        board,
        data,
        side,
        variant.reading("chinese_roads"),
        variant.reading("road_and_creek"),
        variant.reading("road_creek_scope"),
    )


def cost_between(
    board: Board, data: SNCData, variant: Variant, side: str, a: Hex, b: Hex
) -> Fraction | None:
    """The MP cost for `side` of the step `a` -> `b`, or None when prohibited (SNC-9.3.2)."""
    steps, scale = side_steps(board, data, variant, side)
    for n, ticks in steps.get(a, ()):
        if n == b:
            return Fraction(ticks, scale)
    return None


# --- groups ------------------------------------------------------------------------------------


def movement_factor(data: SNCData, units: Collection[str]) -> int:
    """The group's MF: 8 for mobile units, 0 if any is static (SNC-9.0.2, SNC-9.1.1,
    SNC-2.2.1.8, SNC-2.2.1.9); a group moves at its slowest member's pace."""
    return min(data.tec.mf_static if data.unit(u).is_static else data.tec.mf_mobile for u in units)


def group_problem(
    data: SNCData,
    variant: Variant,
    stacks: Mapping[Hex, tuple[str, ...]],
    units: Collection[str],
    start: Hex,
    *,
    together: bool = False,
) -> str | None:
    """Why `units` cannot move as one group from `start`, or None. A group is units of one side
    starting in one hex (SNC-9.6.2); more than one unit moves together only under
    `stack_movement=stacks` (AMB-SNC-44) or when `together` (an overrun group, SNC-9.6.2)."""
    if not units:
        return "a move needs at least one unit (SNC-9.0.1)"
    here = stacks.get(start, ())
    missing = [u for u in units if u not in here]
    if missing:
        return f"{', '.join(missing)} not in {hex_name(start)} (SNC-9.6.2)"
    if len({data.unit(u).side for u in units}) > 1:
        return "a group holds units of one side only (SNC-9.0.12)"
    if len(units) > 1 and not together and variant.is_("stack_movement", "units_only"):
        return "each unit moves alone (SNC-9.0.10, AMB-SNC-44 units_only)"
    return None


def _check_group(
    data: SNCData,
    variant: Variant,
    stacks: Mapping[Hex, tuple[str, ...]],
    units: Collection[str],
    start: Hex,
    together: bool,
) -> str:
    problem = group_problem(data, variant, stacks, units, start, together=together)
    if problem is not None:
        raise IllegalAction(problem, clauses=("SNC-9.0.10", "SNC-9.6.2"))
    return data.unit(next(iter(units))).side


def _without(
    stacks: Mapping[Hex, tuple[str, ...]], units: Collection[str], start: Hex
) -> dict[Hex, tuple[str, ...]]:
    out = dict(stacks)
    left = tuple(u for u in stacks.get(start, ()) if u not in units)
    if left:
        out[start] = left
    else:
        out.pop(start, None)
    return out


@functools.cache
def _shield_hexes(board: Board) -> frozenset[Hex]:
    return frozenset(h for h in board.map.hexes if board.in_naval_gunfire_line(h))


def movement_ezoc(
    board: Board,
    data: SNCData,
    variant: Variant,
    stacks: Mapping[Hex, tuple[str, ...]],
    units: Collection[str],
    start: Hex,
) -> tuple[frozenset[Hex], frozenset[Hex]]:
    """The EZOC hexes for a group moving from `start`, as (stop hexes, start-exit hexes).

    The enemy's ZOC comes from the enemy units only: friendly units standing in it do not negate
    it (SNC-7.2.2). For a Japanese group SNC-7.1.5 depends on occupation: the start hex is
    occupied by the group itself; whether the group, on entering an empty coastal hex within the
    Naval Gunfire Line, already shields it is `ngl_zoc_entry` (found here;
    occupied_before_entry: no; occupied_on_entry: yes)."""
    side = data.unit(next(iter(units))).side
    rest = _without(stacks, units, start)
    at_start = zoc_hexes(board, data, variant, stacks, enemy(side))
    if side == "JP" and variant.is_("ngl_zoc_entry", "occupied_on_entry"):
        stop = zoc_hexes(board, data, variant, rest, enemy(side), _shield_hexes(board))
    else:
        stop = zoc_hexes(board, data, variant, rest, enemy(side))
    return stop, at_start


def reachable(
    board: Board,
    data: SNCData,
    variant: Variant,
    stacks: Mapping[Hex, tuple[str, ...]],
    units: Collection[str],
    start: Hex,
    *,
    mp: Fraction | None = None,
    forbid: Collection[Hex] = frozenset(),
    together: bool = False,
) -> dict[Hex, Fraction]:
    """Every hex the group `units` (all in `start`) can end its move in, with the most MP it can
    have left there; `start` itself with all its MP, since no unit must spend any (SNC-9.0.9).

    - MF 8 for mobile units, 0 for static ones, which never move (SNC-9.0.2, SNC-9.1.1); `mp`
      overrides it (the MP left after an overrun, SNC-9.6.6);
    - hex to adjacent hex (SNC-9.0.3), paying the full cost or not entering (SNC-9.0.11), never
      into a hex with enemy units (SNC-9.0.12) or a prohibited hex or hexside (SNC-9.4.6);
    - entering an EZOC hex ends the move (SNC-7.2.1); a group starting in an EZOC may leave only
      into a hex without EZOC (SNC-7.2.3);
    - a group pays per hex the highest cost among its units (AMB-SNC-44 stacks); since costs
      depend only on nationality, that is the side's cost;
    - `forbid`: hexes this move may not enter (SNC-8.2.3: next to a Japanese unit).
    Stacking is not checked here: it is checked at the end of the phase (SNC-6.0.x)."""
    side = _check_group(data, variant, stacks, units, start, together)
    steps, scale = side_steps(board, data, variant, side)
    budget = movement_factor(data, units) * scale if mp is None else int(mp * scale)
    enemy_hexes = hexes_of_side(data, stacks, enemy(side))
    stop, at_start = movement_ezoc(board, data, variant, stacks, units, start)
    blocked = enemy_hexes | set(forbid)
    best: dict[Hex, int] = {start: 0}
    heap: list[tuple[int, Hex]] = [(0, start)]
    while heap:
        spent, h = heapq.heappop(heap)
        if spent > best[h]:
            continue
        if h != start and h in stop:
            continue  # SNC-7.2.1: the move ends on entering an EZOC hex
        leaving_ezoc = h == start and start in at_start
        for n, ticks in steps.get(h, ()):
            total = spent + ticks
            if total > budget or n in blocked:
                continue
            if leaving_ezoc and n in stop:
                continue  # SNC-7.2.3: the first hex out of an EZOC must have none
            if total < best.get(n, budget + 1):
                best[n] = total
                heapq.heappush(heap, (total, n))
    return {h: Fraction(budget - spent, scale) for h, spent in best.items()}


def path_cost(
    board: Board,
    data: SNCData,
    variant: Variant,
    stacks: Mapping[Hex, tuple[str, ...]],
    units: Collection[str],
    start: Hex,
    path: Sequence[Hex],
    *,
    mp: Fraction | None = None,
    forbid: Collection[Hex] = frozenset(),
    together: bool = False,
) -> Fraction:
    """The MP the group spends entering the hexes of `path` in order (not including `start`);
    IllegalAction naming the clause when the path breaks a movement rule (the same rules as
    `reachable`)."""
    side = _check_group(data, variant, stacks, units, start, together)
    budget = Fraction(movement_factor(data, units)) if mp is None else mp
    enemy_hexes = hexes_of_side(data, stacks, enemy(side))
    stop, at_start = movement_ezoc(board, data, variant, stacks, units, start)
    spent = Fraction(0)
    here = start
    for i, n in enumerate(path):
        name = hex_name(n)
        if i > 0 and here in stop:  # a return to the start hex is an entry too
            raise IllegalAction(
                f"the move ended on entering the EZOC hex {hex_name(here)} (SNC-7.2.1)",
                clauses=("SNC-7.2.1",),
            )
        if not hex_adjacent(here, n):
            raise IllegalAction(
                f"{name} does not touch {hex_name(here)}: no skipping hexes (SNC-9.0.3)",
                clauses=("SNC-9.0.3",),
            )
        if n in enemy_hexes:
            raise IllegalAction(f"{name} holds enemy units (SNC-9.0.12)", clauses=("SNC-9.0.12",))
        if n in forbid:
            raise IllegalAction(
                f"{name} is next to a Japanese unit (SNC-8.2.3)", clauses=("SNC-8.2.3",)
            )
        cost = cost_between(board, data, variant, side, here, n)
        if cost is None:
            raise IllegalAction(
                f"no unit enters {name} from {hex_name(here)}: water, the International "
                "Settlement or a Yangtze/all-sea/all-lake hexside (SNC-9.4.6, SNC-0.0.1)",
                clauses=("SNC-9.4.6", "SNC-0.0.1"),
            )
        if i == 0 and start in at_start and n in stop:
            raise IllegalAction(
                f"a unit starting in an EZOC may leave only into a hex without one; {name} has "
                "one (SNC-7.2.3)",
                clauses=("SNC-7.2.3",),
            )
        spent += cost
        if spent > budget:
            raise IllegalAction(
                f"entering {name} needs {spent} MP of {budget} (SNC-9.0.11)",
                clauses=("SNC-9.0.11",),
            )
        here = n
    return spent
