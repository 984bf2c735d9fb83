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

import functools
from collections.abc import Collection, Mapping

from kernel.hexes import Hex
from kernel.variants import Variant
from specs.snc1937.data.loader import SNCData
from specs.snc1937.rules.board import Board

ZOC_BARRIERS = frozenset({"all_sea", "all_lake"})  # SNC-7.1.3


@functools.cache
def _sides(data: SNCData) -> dict[str, str]:
    return {u.id: u.side for u in data.units}


def hexes_of_side(data: SNCData, stacks: Mapping[Hex, tuple[str, ...]], side: str) -> set[Hex]:
    """The hexes holding at least one unit of `side` ("CH" or "JP")."""
    sides = _sides(data)
    out: set[Hex] = set()
    for h, ids in stacks.items():
        for u in ids:
            if (sides.get(u) or data.unit(u).side) == side:  # data.unit: unknown ids refused
                out.add(h)
                break
    return out


def _by_side(
    data: SNCData, stacks: Mapping[Hex, tuple[str, ...]]
) -> tuple[frozenset[Hex], frozenset[Hex]]:
    """`hexes_of_side` for "CH" and "JP" in one pass over the position."""
    sides = _sides(data)
    ch: set[Hex] = set()
    jp: set[Hex] = set()
    for h, ids in stacks.items():
        for u in ids:
            side = sides.get(u) or data.unit(u).side  # data.unit: unknown ids refused
            (ch if side == "CH" else jp).add(h)
    return frozenset(ch), frozenset(jp)


def projects_into(board: Board, variant: Variant, src: Hex, dst: Hex) -> bool:
    """Whether a ZOC from units in `src` reaches the adjacent hex `dst` by terrain alone
    (SNC-7.1.1 to SNC-7.1.4; the occupation exception SNC-7.1.5 is in `zoc_hexes`)."""
    return _projects(board, variant.is_("city_zoc", "none"), src, dst)


def _projects(board: Board, city_none: bool, src: Hex, dst: Hex) -> bool:
    if board.is_city(dst):  # SNC-7.1.2: never into a city (3513 is a city too)
        return False
    if board.is_city(src) and city_none:  # AMB-SNC-18 reading (b): city_zoc=none
        return False
    if board.side_kind(src, dst) in ZOC_BARRIERS:  # SNC-7.1.3
        return False
    # SNC-7.1.1: otherwise it projects, whatever the terrain or river hexside
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
    ch, jp = _by_side(data, stacks)
    if side == "CH" and also_japanese:
        jp = jp | frozenset(also_japanese)
    return zoc_from(board, variant, ch, jp, side)


def zoc_from(
    board: Board, variant: Variant, chinese: frozenset[Hex], japanese: frozenset[Hex], side: str
) -> frozenset[Hex]:
    """`zoc_hexes` from the hexes each side occupies (for SNC-7.1.5, `japanese` are the hexes
    counted as Japanese-occupied)."""
    sources = chinese if side == "CH" else japanese
    shielded: frozenset[Hex] = frozenset()
    if side == "CH":  # SNC-7.1.5: Japanese units on the coast under the Naval Gunfire Line
        shielded = japanese & ngl_hexes(board)
    city_none = variant.is_("city_zoc", "none")
    return _projected(board, city_none, sources, shielded)


@functools.cache
def ngl_hexes(board: Board) -> frozenset[Hex]:
    """The map's hexes within the Japanese Naval Gunfire Line (SNC-7.1.5)."""
    return frozenset(h for h in board.map.hexes if board.in_naval_gunfire_line(h))


@functools.cache
def _reach(board: Board, city_none: bool) -> dict[Hex, frozenset[Hex]]:
    """For every hex, the neighbours a ZOC from units there reaches by terrain (cached)."""
    return {
        src: frozenset(d for d in board.neighbors(src) if _projects(board, city_none, src, d))
        for src in board.map.hexes
    }


@functools.lru_cache(maxsize=1024)
def _projected(
    board: Board, city_none: bool, sources: frozenset[Hex], shielded: frozenset[Hex]
) -> frozenset[Hex]:
    """The union of the sources' terrain reach, less the SNC-7.1.5 hexes (cached: the rules
    ask this for every step of every move)."""
    reach = _reach(board, city_none)
    out: set[Hex] = set()
    for src in sources:
        out |= reach[src]  # SNC-7.0.1, SNC-7.0.2: an occupied hex projects into its neighbours
    return frozenset(out - shielded)


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
