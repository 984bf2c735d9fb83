"""Bitmask helpers of the MANY search (`combat_many.ManySearch`): sets of units as int masks.

Split from `combat_many` so the search module holds only the search: the members of a mask,
unions over a mask looked up a byte at a time, and subsets in the order the search lists them.
"""

from __future__ import annotations


class Unions:
    """The union of a family of masks over the members of a mask, looked up 8 bits at a time
    (a search asks this hundreds of thousands of times)."""

    def __init__(self, masks: list[int]) -> None:
        self.tables: list[list[int]] = []
        for start in range(0, len(masks), 8):
            chunk = masks[start : start + 8]
            table = [0] * (1 << len(chunk))
            for byte in range(1, len(table)):
                low = byte & -byte
                table[byte] = table[byte ^ low] | chunk[low.bit_length() - 1]
            self.tables.append(table)

    def of(self, mask: int) -> int:
        out = 0
        for table in self.tables:
            if not mask:
                break
            out |= table[mask & 255]
            mask >>= 8
        return out


def bits(mask: int) -> list[int]:
    """The members of `mask`, in increasing order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def lex_subsets(units: list[int]) -> list[int]:
    """The non-empty subsets of `units` (in order) as masks, ordered by their sorted tuples:
    a set comes before its extensions, which come before the sets that skip its last unit."""
    out: list[int] = []

    def walk(start: int, mask: int) -> None:
        for i in range(start, len(units)):
            grown = mask | 1 << units[i]
            out.append(grown)
            walk(i + 1, grown)

    walk(0, 0)
    return out
