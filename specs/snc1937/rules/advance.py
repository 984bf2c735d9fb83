"""Advance after combat: who may advance and where, including the 10th Army's two-hex advance
after its landing, and where the 10th Army may land.

Stacking is another module's concern: the caller passes `may_stack(hex, units)`, true when
those units may end in the hex (SNC-10.5.3.2). It must be monotone (adding units never cures
overstacking), which lets the enumeration prune. Zones of control play no part: EZOCs do not
block an advance (SNC-10.5.3.4), so no ZOC argument is taken; nor does movement: an advance is
not movement and costs no MP (SNC-10.5.3.3).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping

import attrs

from kernel.hexes import Hex, hex_name
from kernel.variants import Variant
from specs.snc1937.data.loader import SNCData
from specs.snc1937.rules.board import Board

MayStack = Callable[[Hex, tuple[str, ...]], bool]


def survivors(attackers: Iterable[str], stacks: Mapping[Hex, tuple[str, ...]]) -> tuple[str, ...]:
    """The participating attackers still on the map after the battle, sorted."""
    on_map = {u for units in stacks.values() for u in units}
    return tuple(sorted(set(attackers) & on_map))


def may_advance(target: Hex, stacks: Mapping[Hex, tuple[str, ...]]) -> bool:
    """An advance is possible only into a defender's hex left empty of all units
    (SNC-10.5.3.1)."""
    return not stacks.get(target, ())  # SNC-10.5.3.1: only into the emptied defender's hex


def advance_choices(
    attackers: Iterable[str],
    stacks: Mapping[Hex, tuple[str, ...]],
    target: Hex,
    may_stack: MayStack,
) -> tuple[tuple[str, ...], ...]:
    """Every legal advance after a battle on `target`, given the position after losses: the
    empty advance first (advancing is optional, SNC-10.5.3.5), then each non-empty set of
    surviving participating attackers (SNC-10.5.3.6) that `may_stack` accepts in the hex
    (SNC-10.5.3.2), smaller sets first, each sorted. None if the hex is not empty
    (SNC-10.5.3.1): only the empty advance. Defenders never advance (SNC-10.5.3.7): only the
    attackers passed are considered."""
    if not may_advance(target, stacks):
        return ((),)
    pool = survivors(attackers, stacks)
    found: list[tuple[str, ...]] = [()]  # SNC-10.5.3.5: advancing is optional
    frontier: list[tuple[str, ...]] = [()]
    while frontier:
        grown: list[tuple[str, ...]] = []
        for group in frontier:
            start = pool.index(group[-1]) + 1 if group else 0
            for unit in pool[start:]:
                candidate = (*group, unit)
                if may_stack(target, candidate):  # SNC-10.5.3.2: within stacking limits
                    grown.append(candidate)
        found += grown
        frontier = grown
    return tuple(found)


def advance_problem(
    attackers: Iterable[str],
    stacks: Mapping[Hex, tuple[str, ...]],
    target: Hex,
    chosen: Collection[str],
    may_stack: MayStack,
) -> str | None:
    """Why `chosen` may not advance into `target` (clause named), or None."""
    if not chosen:
        return None
    if not may_advance(target, stacks):
        return f"{hex_name(target)} is not empty; no advance (SNC-10.5.3.1)"
    pool = set(survivors(attackers, stacks))
    for unit in sorted(chosen):
        if unit not in pool:
            return (
                f"{unit} is not a surviving participating attacker; defenders never advance "
                f"(SNC-10.5.3.6, SNC-10.5.3.7)"
            )
    if not may_stack(target, tuple(sorted(chosen))):
        return f"the advance would overstack {hex_name(target)} (SNC-10.5.3.2)"
    return None


# --- the 10th Army --------------------------------------------------------------------------


def east_of_line(east_of: str) -> int:
    """The number in a printed line like "32xx"."""
    digits = east_of.rstrip("x")
    if not digits.isdigit():
        raise ValueError(f"expected a line like '32xx', got {east_of!r}")
    return int(digits)


def tenth_army_may_land(board: Board, variant: Variant, h: Hex, east_of: str = "32xx") -> bool:
    """Whether the 10th Army may land at `h`: a landing hex east of 32xx inclusive
    (SNC-8.4.1.1). `east_of_32xx` (AMB-SNC-43): `columns` reads 32xx as hex column 32 and up
    (the historical 3417 qualifies); `rows` reads it as the text's "row": rows 32 and up,
    which this map does not have."""
    if not board.is_landing(h):
        return False
    line = east_of_line(east_of)
    if variant.is_("east_of_32xx", "rows"):
        return h.row >= line
    return h.col >= line


@attrs.frozen
class SecondHex:
    """A hex the 10th Army may advance into from its landing hex, and whether the Chinese
    there must first retreat one hex (SNC-8.4.1.3)."""

    hex: Hex
    chinese_retreat: bool


def _crossable(data: SNCData, board: Board, a: Hex, b: Hex) -> bool:
    kind = board.side_kind(a, b)
    return board.enterable(b) and kind not in data.tec.prohibited_sides


def tenth_army_second_hexes(
    data: SNCData, board: Board, landing: Hex, stacks: Mapping[Hex, tuple[str, ...]]
) -> tuple[SecondHex, ...]:
    """Where 10th Army units in their landing hex may make the second hex of their advance
    (SNC-8.4.1.2): any adjacent hex holding no Chinese unit, EZOC notwithstanding
    (SNC-10.5.3.4). If every adjacent hex a unit could enter is Chinese-occupied, instead any
    adjacent Chinese-occupied coastal hex, whose Chinese units retreat one hex
    (SNC-8.4.1.3). Hexes no unit may enter (water, the International Settlement, across a
    prohibited hexside, SNC-9.4.6, SNC-0.0.1) are never offered."""

    def chinese(h: Hex) -> bool:
        return any(data.unit(u).side == "CH" for u in stacks.get(h, ()))

    around = [n for n in board.neighbors(landing) if _crossable(data, board, landing, n)]
    # SNC-8.4.1.2, SNC-10.5.3.4: any adjacent hex free of Chinese units, EZOC or not
    free = [SecondHex(n, False) for n in around if not chinese(n)]
    if free or not around:
        return tuple(free)
    # SNC-8.4.1.3: all Chinese-held: a Chinese-occupied coastal hex, its units to retreat
    return tuple(SecondHex(n, True) for n in around if board.is_coastal(n))


def tenth_army_second_choices(
    data: SNCData,
    board: Board,
    landing: Hex,
    stacks: Mapping[Hex, tuple[str, ...]],
    may_stack: MayStack,
) -> tuple[tuple[Hex, tuple[str, ...]], ...]:
    """Each optional second-hex advance of the 10th Army units in `landing` (SNC-8.4.1.2,
    SNC-8.4.1.3): a destination and a non-empty set of them that may stack there with the
    Japanese units already in it (SNC-10.5.3.2). Where the Chinese must retreat first, the
    stacking is checked against the hex as it will be, empty of them."""
    movers = tuple(sorted(u for u in stacks.get(landing, ()) if data.unit(u).side == "JP"))
    out: list[tuple[Hex, tuple[str, ...]]] = []
    for second in tenth_army_second_hexes(data, board, landing, stacks):
        there = tuple(u for u in stacks.get(second.hex, ()) if data.unit(u).side == "JP")

        def fits(h: Hex, units: tuple[str, ...], there: tuple[str, ...] = there) -> bool:
            return may_stack(h, (*there, *units))

        empty = {**stacks, second.hex: ()}
        for group in advance_choices(movers, empty, second.hex, fits):
            if group:
                out.append((second.hex, group))
    return tuple(out)
