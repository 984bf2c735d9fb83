"""The column shifts of one SNC battle (SNC-10.4.x): terrain, the concentric attack, fire support.

Split from `odds` (the column scale, the strengths and a whole battle's odds): each shift with
the clause that grants it (`Shift`), the defender's terrain in its hex and along the hexsides
attacked across (SNC-10.4.1.x; unstated_terrain, AMB-SNC-4), the concentric shift
(SNC-10.4.2.x), the cap on terrain shifts, and their net sum (SNC-10.4.0.2: positive is right,
in the attacker's favour). `odds.battle_odds` and `odds.landing_odds` add them to the column.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping

import attrs

from kernel.hexes import Hex, hex_neighbors
from kernel.variants import Variant
from specs.snc1937.data.loader import SNCData
from specs.snc1937.rules.board import Board

STATED_TERRAIN = frozenset({"clear", "woods", "marsh"})  # SNC-10.4.1.2, SNC-10.4.1.3


@attrs.frozen
class Shift:
    """One column shift: +n right (attacker), -n left (defender), with the clause giving it."""

    columns: int
    clause: str
    why: str


def _side_of(data: SNCData, defenders: Iterable[str]) -> str | None:
    sides = {data.unit(u).side for u in defenders}
    return next(iter(sides)) if len(sides) == 1 else None


def in_hex_terrain_shifts(
    data: SNCData, board: Board, target: Hex, defender_side: str, variant: Variant
) -> tuple[Shift, ...]:
    """The left shifts of the defender's hex before the 2L cap (SNC-10.4.1.2 to SNC-10.4.1.7).

    A city gives 2L and other in-hex terrain adds nothing (SNC-10.4.1.7). Otherwise woods and
    marsh give 1L (SNC-10.4.1.3), clear none (SNC-10.4.1.2), and terrain the text gives no
    combat effect (rice paddy) none under `unstated_terrain=no_effect`, the TEC data's value
    under `tec_data` (AMB-SNC-4). A town gives Chinese defenders only 1L (SNC-10.4.1.4); in
    woods or marsh it adds to them under `town_marsh_woods=two_left` (SNC-0.0.3,
    SNC-10.4.1.5) and replaces them under `one_left` (SNC-10.4.1.6, AMB-SNC-1).
    """
    tec = data.tec
    if board.is_city(target):
        left = tec.defence.get((defender_side, "city"), 0)
        return (Shift(-left, "SNC-10.4.1.7", "city"),) if left else ()
    terrain = board.terrain(target)
    if terrain in STATED_TERRAIN or variant.is_("unstated_terrain", "tec_data"):
        natural = tec.defence.get((defender_side, terrain), 0)
    else:
        natural = 0
    # SNC-10.4.1.2: clear terrain's entry gives no shift (its TEC value is 0)
    town = tec.defence.get((defender_side, "town"), 0) if board.is_town(target) else 0
    out: list[Shift] = []
    if town and variant.is_("town_marsh_woods", "one_left"):
        return (Shift(-town, "SNC-10.4.1.6", "town (whatever the other terrain)"),)
    if natural:
        clause = "SNC-10.4.1.3" if terrain in STATED_TERRAIN else "AMB-SNC-4"
        out.append(Shift(-natural, clause, terrain))
    if town:  # SNC-0.0.3, SNC-10.4.1.5: the town's 1L in any hex, added to woods/marsh 1L
        out.append(Shift(-town, "SNC-10.4.1.4", "town (Chinese defenders only)"))
    return tuple(out)


def concentric(
    data: SNCData,
    target: Hex,
    attacker_hexes: Collection[Hex],
    stacks: Mapping[Hex, tuple[str, ...]],
    variant: Variant,
) -> bool:
    """Whether Japanese attackers from `attacker_hexes` earn the concentric 1R (SNC-10.4.2.1).

    Directions are numbered round the target, so d and d+3 are opposite. It qualifies with
    (1) two opposite hexes, (2) three hexes with one hex between each (d, d+2, d+4), or
    (3) more than three hexes. `concentric` (AMB-SNC-27): `directions` asks only that; under
    `empty_between` a case (2) that is not also (1) or (3) needs the three hexes between to
    hold no Japanese unit. The city exclusion and the Japanese-only condition are applied by
    `shifts` (SNC-10.4.2.2, SNC-10.4.2.3).
    """
    around = hex_neighbors(target)
    dirs = frozenset(around.index(h) for h in attacker_hexes if h in around)
    if len(dirs) > 3 or any((d + 3) % 6 in dirs for d in dirs):
        return True
    for d in range(2):
        if {d, d + 2, d + 4} <= dirs:
            if variant.is_("concentric", "directions"):
                return True
            between = (around[d + 1], around[d + 3], around[(d + 5) % 6])
            return not any(data.unit(u).side == "JP" for b in between for u in stacks.get(b, ()))
    return False


def terrain_cap(shifts: Iterable[Shift], cap: int) -> tuple[Shift, ...]:
    """The shifts cut so their left total is at most `cap` (SNC-10.4.1.1)."""
    out, left = [], 0
    for shift in shifts:
        allowed = max(0, min(-shift.columns, cap - left))  # SNC-10.4.1.1: 2L in all at most
        left += allowed
        if allowed:
            out.append(Shift(-allowed, shift.clause, shift.why))
    return tuple(out)


def shifts(
    data: SNCData,
    board: Board,
    target: Hex,
    defenders: Collection[str],
    variant: Variant,
    *,
    attacker_side: str,
    attacker_hexes: Collection[Hex] = (),
    stacks: Mapping[Hex, tuple[str, ...]] | None = None,
    overrun: bool = False,
    landing: bool = False,
    attacker_markers: int = 0,
    defender_markers: int = 0,
) -> tuple[Shift, ...]:
    """Every column shift of one battle, each with its clause (SNC-10.4.0.1).

    Terrain of the defender's hex, capped at 2L (SNC-10.4.1.1): `terrain_cap_scope`
    (AMB-SNC-3) `in_hex_only` caps the in-hex terrain alone, `all_shifts` caps it together with
    the overrun 1L (SNC-9.6.5). Then the Japanese concentric 1R, never into a city and never for
    a landing, whose attackers come from the sea (SNC-10.4.2.1 to SNC-10.4.2.3, AMB-SNC-27);
    and each fire-support marker one column in its owner's favour (SNC-11.1.2): the attacker's
    right, the defender's left. Markers are counted by `fire_support`, which says which ones
    may be added.
    """
    defender_side = _side_of(data, defenders) or ("JP" if attacker_side == "CH" else "CH")
    terrain = list(in_hex_terrain_shifts(data, board, target, defender_side, variant))
    cap = data.tec.terrain_cap
    out: list[Shift] = []
    overrun_shift = [Shift(-1, "SNC-9.6.5", "overrun")] if overrun else []
    if variant.is_("terrain_cap_scope", "all_shifts"):
        out += terrain_cap(terrain + overrun_shift, cap)
    else:
        out += terrain_cap(terrain, cap) + tuple(overrun_shift)
    if (
        attacker_side == "JP"  # SNC-10.4.2.3: only Japanese attacks earn it
        and not landing
        and not board.is_city(target)  # SNC-10.4.2.2: never into a city hex
        and concentric(data, target, attacker_hexes, stacks or {}, variant)
    ):
        out.append(Shift(1, "SNC-10.4.2.1", "concentric attack"))
    out += [Shift(1, "SNC-11.1.2", "attacker's fire support")] * attacker_markers
    out += [Shift(-1, "SNC-11.1.2", "defender's fire support")] * defender_markers
    return tuple(out)


def net_shift(all_shifts: Iterable[Shift]) -> int:
    """All shifts are cumulative into one final left or right shift (SNC-10.4.0.3)."""
    return sum(s.columns for s in all_shifts)  # SNC-10.4.0.3: one net left or right shift
