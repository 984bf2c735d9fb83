"""Zones of control (SNC-7.x): which hexes the units of one side project a ZOC into.

A hex holding any ground unit, static units included, projects a ZOC into its six neighbours
(SNC-7.0.1, SNC-7.0.2); both sides' ZOCs work alike and may overlap (SNC-7.0.3). The exceptions
of SNC-7.1.2 to SNC-7.1.5 are the only ones (SNC-7.1.1): nothing projects into a city hex, nor
across an all-sea or all-lake hexside or the navigable Huangpu; a Chinese ZOC does not reach a
coastal hex within the Japanese Naval Gunfire Line that Japanese units occupy. Whether units in
a city project a ZOC out of it is the `city_zoc` option (AMB-SNC-18).

Positions come in the shared form (`stacks`: unit ids by hex); the rest of the rules (movement,
LoC, retreat, overruns) ask these functions, so the exceptions are written once.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from kernel.hexes import Hex
from kernel.variants import Variant
from specs.snc1937.board import Board
from specs.snc1937.data import SNCData

ZOC_BARRIERS = frozenset({"all_sea", "all_lake"})  # SNC-7.1.3


def hexes_of_side(data: SNCData, stacks: Mapping[Hex, tuple[str, ...]], side: str) -> set[Hex]:
    """The hexes holding at least one unit of `side` ("CH" or "JP")."""
    return {h for h, ids in stacks.items() if any(data.unit(u).side == side for u in ids)}


def projects_into(board: Board, variant: Variant, src: Hex, dst: Hex) -> bool:
    """Whether a ZOC from units in `src` reaches the adjacent hex `dst` by terrain alone
    (SNC-7.1.1 to SNC-7.1.4; the occupation exception SNC-7.1.5 is in `zoc_hexes`)."""
    if board.is_city(dst):  # SNC-7.1.2: never into a city (3513 is a city too)
        return False
    if board.is_city(src) and variant.is_("city_zoc", "none"):  # AMB-SNC-18 reading (b)
        return False
    if board.side_kind(src, dst) in ZOC_BARRIERS:  # SNC-7.1.3
        return False
    return not board.navigable(src, dst)  # SNC-7.1.4: not across the navigable Huangpu


def zoc_hexes(
    board: Board,
    data: SNCData,
    variant: Variant,
    stacks: Mapping[Hex, tuple[str, ...]],
    side: str,
    also_japanese: Collection[Hex] = (),
) -> frozenset[Hex]:
    """Every hex into which the units of `side` project a ZOC (SNC-7.0.1 to SNC-7.1.5).

    `also_japanese` names hexes to treat as occupied by Japanese units for SNC-7.1.5 although
    `stacks` shows none there (a Japanese group that has just entered one)."""
    sources = hexes_of_side(data, stacks, side)
    shielded: set[Hex] = set()
    if side == "CH":  # SNC-7.1.5: Japanese units on the coast under the Naval Gunfire Line
        japanese = hexes_of_side(data, stacks, "JP") | set(also_japanese)
        shielded = {h for h in japanese if board.in_naval_gunfire_line(h)}
    out: set[Hex] = set()
    for src in sources:
        for dst in board.neighbors(src):
            if dst not in shielded and projects_into(board, variant, src, dst):
                out.add(dst)
    return frozenset(out)


def enemy(side: str) -> str:
    """The other side."""
    return "JP" if side == "CH" else "CH"


def ezoc_hexes(
    board: Board,
    data: SNCData,
    variant: Variant,
    stacks: Mapping[Hex, tuple[str, ...]],
    side: str,
) -> frozenset[Hex]:
    """The enemy ZOC that units of `side` must respect. Friendly units standing in an EZOC hex
    do not negate it (SNC-7.2.2), so only the enemy's units count."""
    return zoc_hexes(board, data, variant, stacks, enemy(side))
