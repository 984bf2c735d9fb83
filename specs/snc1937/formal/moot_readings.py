"""Reading pairs of SNC that cannot differ under a preset, proved over the game's data
(`reading_proofs`, offered to the ambiguity explorer by the game: `game.SNC`).

Each proof asks the rules' own function that reads the option, under both variants, for every
input the data allows, and compares the answers: the same answer everywhere means the option
changes nothing the rules compute, so the same game. One difference, under the variants handed
in (or with a board or chart other than the data's), makes it fail (None). Each holds for
this data only: the readings could differ with a map or chart the game does not ship.

- yangtze_hexside_combat (found here; SNC-9.4.6, SNC-10.4.1.9, AMB-SNC-24): `forbidden` bars
  attacks across a Yangtze hexside; the map data has none (the Yangtze is drawn as hexes), so
  every pair of adjacent hexes may be attacked across alike (`combat_query.crossable`).
- unstated_terrain (AMB-SNC-4; SNC-10.4.1.2, SNC-10.4.1.3, SNC-9.3.1): `tec_data` reads the
  TEC data's left shift for rice paddy and the water terrain; the TEC data gives paddy 0L and
  the water terrain none, so every hex's in-hex shifts are the same for either defender
  (`column_shifts.in_hex_terrain_shifts`).
- terrain_cap_scope (AMB-SNC-3; SNC-10.4.1.1, SNC-9.6.5): the readings part only where the
  in-hex terrain and the overrun's 1L pass the 2L cap together; no overrun may go into a city
  or town (SNC-9.6.1), and no other terrain gives more than 1L, so every overrun battle has
  the same shifts (`column_shifts.shifts`); a battle that is no overrun has no 1L to cap.
- naval_inland_basis (found here; SNC-11.4.2): the readings part only for a land hex whose
  only neighbours touching the Yangtze are water; under `estuary_is_yangtze=yes` (both
  presets) no land hex is one (`fire_support.one_hex_inland_from_yangtze`); under `no`, hex
  2503 is.
- loss_order (AMB-SNC-28; SNC-10.5.2.1 to SNC-10.5.2.3): the readings part only where a unit
  with one step left is stronger than a full two-step unit of its side; under
  `strength_measure=current_cf` the counter data has none (every pair of units of one side,
  each full or reduced, loses its next step alike, `losses.next_loss`); under `printed_cf`
  it has.
- snlf_partial_division (found here; SNC-6.2.2, AMB-SNC-9): read only where a Japanese stack is
  one division and one other unit (`japanese_stack=division_plus_one`); under `five_any`
  (both presets) every Japanese stack is checked alike (`stacking.stacking_problem`, and the
  limits the cull asks the solver about, `stacking_query.stacking_problem`).
- overrun_entry (found here; SNC-9.6.1, AMB-SNC-25): read only under `overrun_cost=one_mp`;
  under `entry_plus_one` (both presets) a group that clears an overrun hex goes on alike
  (`overrun_steps.finish`, for every pair of hexes an overrun may go from and into).
- road_creek_scope (found here; SNC-9.5.1.1, AMB-SNC-23): read only where a road bridges a
  creek (`road_and_creek=roads_negate_creek`); under `roads_keep_creek_cost` (both presets)
  every step costs the same (`movement.side_steps`, each side's cost of every step).
- landing_halving_base (found here; SNC-8.4.0.5, SNC-2.2.1.11): the readings part only for a
  landing with a reduced attacker. A landing's attackers come from the TRT (`land`), where
  every Japanese unit starts full and no step loss reaches it, unless a landing's reduced
  survivors stay at sea for a later GT (`combat_steps._ashore_done`; no Japanese unit is
  elite, so none comes back from the dead pile, SNC-8.1.2): under
  landing_unpaid_losses=ignored and retreat_blocked=eliminated (both presets) no attacker
  stays at sea, checked at every landing hex with its defender unable to retreat (the only
  way a Chinese unit could stay in the hex), and no Japanese unit starts reduced.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from typing import Any

from kernel.hexes import Hex
from kernel.variants import Variant
from specs.snc1937.rules import combat_steps, overrun_steps, stacking_query
from specs.snc1937.rules.board import Board
from specs.snc1937.rules.column_shifts import in_hex_terrain_shifts, shifts
from specs.snc1937.rules.combat_query import crossable
from specs.snc1937.rules.fire_support import one_hex_inland_from_yangtze
from specs.snc1937.rules.losses import next_loss
from specs.snc1937.rules.movement import side_steps
from specs.snc1937.rules.stacking import stacking_problem
from specs.snc1937.rules.state import CH, FULL_MP, JP, SIDES, Combat, Step, evolve
from specs.snc1937.rules.tables import put

Proof = Callable[[Variant, Variant], str | None]


def _pairs(board: Board) -> list[tuple[Hex, Hex]]:
    """Every ordered pair of adjacent hexes on the map."""
    return [(h, n) for h in board.map.hexes for n in board.neighbors(h) if board.on_map(n)]


def yangtze_hexside_combat(
    game: Any, va: Variant, vb: Variant, board: Board | None = None
) -> str | None:
    """yangtze_hexside_combat: every pair of adjacent map hexes may be attacked across alike
    under both variants (SNC-9.4.6, SNC-10.4.1.9), or None."""
    b = game.board if board is None else board
    pairs = _pairs(b)
    for frm, target in pairs:
        if crossable(game.data, b, frm, target, va) != crossable(game.data, b, frm, target, vb):
            return None
    return (
        "proved by the game over its data: the readings part only across a Yangtze hexside, "
        f"and none of the map's {len(pairs)} pairs of adjacent hexes has one (the Yangtze is "
        "drawn as hexes): every attack may cross the same hexsides under both readings "
        "(SNC-9.4.6, SNC-10.4.1.9; AMB-SNC-24). This holds for the map data shipped"
    )


def unstated_terrain(game: Any, va: Variant, vb: Variant, data: Any | None = None) -> str | None:
    """unstated_terrain: every map hex gives either defender the same in-hex shifts under
    both variants (SNC-10.4.1.2, SNC-10.4.1.3, SNC-9.3.1; AMB-SNC-4), or None."""
    d = game.data if data is None else data
    b = game.board
    n = 0
    for h in b.map.hexes:
        for side in SIDES:
            if in_hex_terrain_shifts(d, b, h, side, va) != in_hex_terrain_shifts(d, b, h, side, vb):
                return None
            n += 1
    return (
        "proved by the game over its data: the TEC data gives rice paddy 0L and the water "
        f"terrain no shift, so all {n} in-hex shifts (each map hex, either side defending) "
        "are the same under both readings (SNC-10.4.1.2, SNC-10.4.1.3, SNC-9.3.1; AMB-SNC-4). "
        "This holds for the TEC data shipped"
    )


def terrain_cap_scope(
    game: Any, va: Variant, vb: Variant, overrun_into: Callable[[Hex], bool] | None = None
) -> str | None:
    """terrain_cap_scope: the shifts of an overrun into any hex an overrun may enter (no city
    nor town, SNC-9.6.1; `overrun_into` stands for that test) are the same under both
    variants (SNC-10.4.1.1, SNC-9.6.5; AMB-SNC-3), or None."""
    b = game.board
    may = overrun_into or (lambda h: b.is_land(h) and not b.is_city(h) and not b.is_town(h))
    n = 0
    for h in b.map.hexes:
        if not may(h):
            continue
        for defender in _chinese_defenders(game):
            at = [
                shifts(game.data, b, h, (defender,), v, attacker_side="JP", overrun=True)
                for v in (va, vb)
            ]
            if at[0] != at[1]:
                return None
            n += 1
    return (
        "proved by the game over its data: no overrun goes into a city or town (SNC-9.6.1) "
        "and no other terrain gives more than 1L, so the overrun's 1L and the in-hex shifts "
        f"never pass the 2L cap together; the shifts of all {n} overruns (each hex an overrun "
        "may enter, Chinese defenders; only Japanese overrun) are the same under both "
        "readings, and a battle that is no overrun has no 1L to cap (SNC-10.4.1.1, "
        "SNC-9.6.5; AMB-SNC-3). This holds for the map and TEC data shipped"
    )


def _chinese_defenders(game: Any) -> tuple[str, ...]:
    """One Chinese unit: the in-hex shifts depend on the defender's side only."""
    return (next(u.id for u in game.data.units if u.side == CH),)


def naval_inland_basis(game: Any, va: Variant, vb: Variant) -> str | None:
    """naval_inland_basis: every map hex is "one hex inland from the Yangtze" alike under
    both variants (SNC-11.4.2), or None."""
    b = game.board
    hexes = list(b.map.hexes)
    for h in hexes:
        if one_hex_inland_from_yangtze(b, va, h) != one_hex_inland_from_yangtze(b, vb, h):
            return None
    return (
        "proved by the game over its data: under "
        f"estuary_is_yangtze={va.reading('estuary_is_yangtze')} every land hex next to a water "
        "hex that touches the Yangtze is also next to a land hex that does, so all "
        f"{len(hexes)} map hexes are one hex inland from the Yangtze alike under both "
        "readings (SNC-11.4.2, SNC-11.4.1). This holds for the map data shipped"
    )


def loss_order(game: Any, va: Variant, vb: Variant) -> str | None:
    """loss_order: for every two units of one side, each full or reduced, the units that may
    take the next step loss are the same under both variants (SNC-10.5.2.1 to SNC-10.5.2.3;
    AMB-SNC-28), or None."""
    data = game.data
    n = 0
    for side in SIDES:
        units = [u.id for u in data.units if u.side == side]
        for i, a in enumerate(units):
            for b in units[i + 1 :]:
                for reduced in _reductions(a, b):
                    if next_loss(data, va, (a, b), reduced) != next_loss(data, vb, (a, b), reduced):
                        return None
                    n += 1
    return (
        "proved by the game over its data: each reading takes the next step loss from the "
        "units first in one order (garrisons last, then the strongest and the two-step units, "
        "in the reading's order of the two), so two readings that pick the same units from "
        f"every pair of units pick the same from every stack; all {n} pairs of units of one "
        "side, each full or reduced, give the same units under both readings: under "
        f"strength_measure={va.reading('strength_measure')} no unit with one step left is "
        "stronger than a full two-step unit of its side (SNC-10.5.2.1 to SNC-10.5.2.3; "
        "AMB-SNC-28). This holds for the counter data shipped"
    )


def _reductions(a: str, b: str) -> tuple[frozenset[str], ...]:
    """Each unit of the pair full or reduced."""
    return (frozenset(), frozenset({a}), frozenset({b}), frozenset({a, b}))


def snlf_partial_division(game: Any, va: Variant, vb: Variant) -> str | None:
    """snlf_partial_division: the limits of a Japanese hex the stacking check asks the solver
    about, and the stacking answer for every Japanese stack of up to six units, are the same
    under both variants (SNC-6.2.1, SNC-6.2.2; AMB-SNC-9), or None."""
    data = game.data
    if stacking_query.stacking_problem("", JP, data, va) != stacking_query.stacking_problem(
        "", JP, data, vb
    ):
        return None
    n = 0
    for stack in _japanese_stacks(data):
        if stacking_problem(stack, data, va) != stacking_problem(stack, data, vb):
            return None
        n += 1
    return (
        "proved by the game over its data: under "
        f"japanese_stack={va.reading('japanese_stack')} the SNLF battalions' grouping is never "
        "asked: the limits of a Japanese hex (what the over-stacking cull asks the solver) are "
        f"the same under both readings, and so is the stacking answer for all {n} Japanese "
        "stacks of one to six units, taken by division (the answer reads of a unit only its "
        "side and division, and the id of a unit of no division), every count of each "
        "(SNC-6.2.1, SNC-6.2.2, SNC-6.0.4; AMB-SNC-9). Under division_plus_one the readings "
        "part"
    )


def _japanese_stacks(data: Any) -> list[tuple[str, ...]]:
    """Every stack of one to six Japanese units up to units alike in side and division: each
    count of each division's units (lone units, of no division, as one class of distinct
    units)."""
    classes: dict[str, list[str]] = {}
    for u in data.units:
        if u.side == JP:
            classes.setdefault(u.division or "", []).append(u.id)
    names = sorted(classes)
    out: list[tuple[str, ...]] = []
    for size in range(1, 7):
        for pick in itertools.combinations_with_replacement(names, size):
            counts = {k: pick.count(k) for k in set(pick)}
            if all(c <= len(classes[k]) for k, c in counts.items()):
                out.append(tuple(u for k, c in sorted(counts.items()) for u in classes[k][:c]))
    return out


def overrun_entry(game: Any, va: Variant, vb: Variant) -> str | None:
    """overrun_entry: for every pair of adjacent hexes a Japanese group may overrun from and
    into (land, the target no city nor town, SNC-9.6.1), the group's place, MP and what it may
    do next once it has cleared the target are the same under both variants
    (`overrun_steps.finish`; SNC-9.6.1, SNC-9.6.6 to SNC-9.6.8; AMB-SNC-25), or None."""
    b, t = game.board, game.tables
    unit = next(u.id for u in game.data.units if u.side == JP and not u.is_static)
    start = game.initial_state(va)
    empty = put(start, dict.fromkeys((u for u, _ in start.where), None))
    n = 0
    for origin in b.map.hexes:
        if not b.enterable(origin):
            continue
        for target in b.neighbors(origin):
            if not b.enterable(target) or b.is_city(target) or b.is_town(target):
                continue
            s = evolve(
                put(empty, {unit: origin}),
                combat=Combat(target=target, attackers=(unit,), overrun=True),
                moving=(unit,),
                mp=FULL_MP,
                step=Step.LOSS_A,
            )
            after_a, stop_a = overrun_steps.finish(t, s)
            after_b, stop_b = overrun_steps.finish(t, evolve(s, variant=vb))
            if stop_a != stop_b or evolve(after_a, variant=vb) != after_b:
                return None
            n += 1
    return (
        "proved by the game over its data: under "
        f"overrun_cost={va.reading('overrun_cost')} a group that clears the overrun hex pays "
        "no entry cost under either reading (the question is asked only under one_mp): for "
        f"all {n} pairs of adjacent hexes a group may overrun from and into, the group's "
        "place, MP and next step after clearing the hex are the same under both readings "
        "(SNC-9.6.1, SNC-9.6.6 to SNC-9.6.8; AMB-SNC-25). Under one_mp the readings part"
    )


def road_creek_scope(game: Any, va: Variant, vb: Variant) -> str | None:
    """road_creek_scope: the movement cost of every step between adjacent hexes, for either
    side, is the same under both variants (`movement.side_steps`; SNC-9.3.2, SNC-9.4.5,
    SNC-9.5.1.1; AMB-SNC-23), or None."""
    b, data = game.board, game.data
    for side in SIDES:
        if side_steps(b, data, va, side) != side_steps(b, data, vb, side):
            return None
    return (
        "proved by the game over its data: under "
        f"road_and_creek={va.reading('road_and_creek')} no road bridges a creek, so whether "
        "the bridge serves units without the road rate is never asked: the movement cost of "
        "every step between adjacent map hexes, for either side, is the same under both "
        "readings (SNC-9.3.2, SNC-9.4.5, SNC-9.5.1.1; AMB-SNC-23). Under roads_negate_creek "
        "the readings part"
    )


def landing_halving_base(game: Any, va: Variant, vb: Variant) -> str | None:
    """landing_halving_base: no landing ever has a reduced attacker under either variant, the
    only attackers whose strength the readings halve differently (SNC-8.4.0.5,
    SNC-2.2.1.11), or None. Checked: no Japanese unit starts reduced, and at every landing
    hex of the map a landing whose Chinese defender has nowhere to retreat (SNC-8.4.0.9)
    ends with every surviving attacker ashore, none left at sea (on the TRT) for a later GT."""
    t = game.tables
    n = 0
    for v in (va, vb):
        start = game.initial_state(v)
        if any(t.spec[u].side == JP for u in start.reduced) or any(
            u.side == JP and u.arm == "elite" for u in game.data.units
        ):
            return None  # a Japanese unit reduced on the TRT from the start or back from the dead
        landings = _blocked_landings(game, start)
        for s in landings:
            after = combat_steps.landing_retreats(t, s)
            c = s.combat
            assert c is not None
            at_sea = {u for u, _ in after.trt} & set(c.attackers)
            if at_sea or any(h != c.target for u, h in after.where if u in c.attackers):
                return None
        n = len(landings)
    return (
        "proved by the game over its data: the readings part only for a landing with a "
        "reduced attacker; a landing's attackers come from the TRT, where no Japanese unit "
        "starts reduced and none comes back from the dead pile (no Japanese unit is elite, "
        "SNC-8.1.2), and its own landing's losses reduce a unit only after its odds are "
        "read; such a unit could land reduced later only if it stayed at sea. Under "
        f"landing_unpaid_losses={va.reading('landing_unpaid_losses')} and "
        f"retreat_blocked={va.reading('retreat_blocked')} none does: at all {n} landing hexes "
        "of the map, a landing whose defender has nowhere to retreat (every neighbour held by "
        "the Japanese) ends with its surviving attackers ashore under both readings "
        "(SNC-8.4.0.5, SNC-8.4.0.8, SNC-8.4.0.9, SNC-2.2.1.11). Under attackers_stay_at_sea "
        "or retreat_blocked=stays the readings part"
    )


def _blocked_landings(game: Any, start: Any) -> list[Any]:
    """At each landing hex of the map: a reduced Japanese attacker from the TRT whose landing
    combat has left one mobile Chinese unit in the hex, every land neighbour held by a
    Japanese unit (no retreat, SNC-8.4.0.9), no attacker loss still owed."""
    b, t = game.board, game.tables
    chinese = next(u.id for u in game.data.units if u.side == CH and not u.is_static)
    japanese = [u.id for u in game.data.units if u.side == JP]
    attacker = next(u for u, _ in start.trt if t.spec[u].side == JP)
    blockers = [u for u in japanese if u != attacker]
    empty = put(start, dict.fromkeys((u for u, _ in start.where), None))
    out = []
    for h in b.map.hexes:
        if not b.is_landing(h) or not b.enterable(h):
            continue
        around = [n for n in b.neighbors(h) if b.on_map(n) and b.enterable(n)]
        placed = put(empty, {chinese: h, **dict(zip(blockers, around, strict=False))})
        combat = Combat(target=h, attackers=(attacker,), landing=True, defenders=(chinese,))
        out.append(evolve(placed, combat=combat, reduced=frozenset({attacker}), step=Step.RETREAT))
    return out


def reading_proofs(game: Any) -> Mapping[str, Proof]:
    """The option -> proof mapping the explorer asks for (`solvers.checking.game_proofs`),
    each bound to `game` (the rules: their board and data)."""
    return {
        "yangtze_hexside_combat": lambda va, vb: yangtze_hexside_combat(game, va, vb),
        "unstated_terrain": lambda va, vb: unstated_terrain(game, va, vb),
        "terrain_cap_scope": lambda va, vb: terrain_cap_scope(game, va, vb),
        "naval_inland_basis": lambda va, vb: naval_inland_basis(game, va, vb),
        "loss_order": lambda va, vb: loss_order(game, va, vb),
        "snlf_partial_division": lambda va, vb: snlf_partial_division(game, va, vb),
        "overrun_entry": lambda va, vb: overrun_entry(game, va, vb),
        "road_creek_scope": lambda va, vb: road_creek_scope(game, va, vb),
        "landing_halving_base": lambda va, vb: landing_halving_base(game, va, vb),
    }
