"""Hex geometry keyed by the printed four-digit hex numbers.

Printed numbers are CCRR (column, row). The column-offset convention is the one the Nomonhan
facts imply (0302 touches 0201 and 0202; 0207 touches 0308; 0303 touches 0403): every hex
touches (C, R±1); an odd column also touches (C±1, R-1) and (C±1, R); an even column touches
(C±1, R) and (C±1, R+1). In Red Blob Games' terms this is the "even-q" offset layout; the
arithmetic (distance) runs in axial coordinates, the printed number is only a name.
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

import attrs

from kernel.errors import InvalidInput

_HEX_RE = re.compile(r"[0-9]{4}\Z")  # ASCII digits only: "٠٥٠٥" is no hex


class Hex(NamedTuple):
    """A hex by column and row, as printed. A NamedTuple rather than an attrs class: hexes are
    hashed and compared in every inner loop, and tuples do both in C."""

    col: int
    row: int

    def __str__(self) -> str:
        return hex_name(self)

    def __repr__(self) -> str:
        return f"Hex({hex_name(self)})"


def parse_hex(text: str, *, field: str = "hex") -> Hex:
    """Parse a printed four-digit hex number ("0302"); the inverse of `hex_name`."""
    if not isinstance(text, str) or not _HEX_RE.match(text):
        raise InvalidInput(f"not a four-digit hex number: {text!r}", field=field)
    return Hex(int(text[:2]), int(text[2:]))


def hex_name(h: Hex) -> str:
    """The printed four-digit number of a hex; the inverse of `parse_hex`."""
    return f"{h.col:02d}{h.row:02d}"


@functools.cache
def hex_neighbors(h: Hex) -> tuple[Hex, ...]:
    """The six hexes touching `h` (some may be off any given map), in a fixed order."""
    c, r = h.col, h.row
    side = (r - 1, r) if c % 2 == 1 else (r, r + 1)
    return (
        Hex(c, r - 1),
        Hex(c + 1, side[0]),
        Hex(c + 1, side[1]),
        Hex(c, r + 1),
        Hex(c - 1, side[1]),
        Hex(c - 1, side[0]),
    )


def hex_adjacent(a: Hex, b: Hex) -> bool:
    """True when `a` and `b` share a hexside."""
    return b in hex_neighbors(a)


def _axial(h: Hex) -> tuple[int, int]:
    return h.col, h.row - (h.col + (h.col & 1)) // 2


def hex_distance(a: Hex, b: Hex) -> int:
    """Hexes counted from `a` to `b` along the grid (a neighbour is at distance 1)."""
    aq, ar = _axial(a)
    bq, br = _axial(b)
    dq, dr = aq - bq, ar - br
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


@attrs.frozen(order=True)
class Hexside:
    """The side shared by two adjacent hexes; a first-class key for rivers and bridges.

    Always stored with `a < b`, so a hexside has one name whichever way it is crossed.
    """

    a: Hex
    b: Hex

    def __str__(self) -> str:
        return f"{hex_name(self.a)}/{hex_name(self.b)}"


def hexside(a: Hex, b: Hex) -> Hexside:
    """The hexside between two adjacent hexes; raises InvalidInput when they do not touch."""
    if not hex_adjacent(a, b):
        raise InvalidInput(f"hexes {a} and {b} are not adjacent", field="hexside")
    return Hexside(a, b) if a < b else Hexside(b, a)


def parse_hexside(text: str, *, field: str = "hexside") -> Hexside:
    """Parse "0207/0308" (either order); the inverse of `str(hexside)`."""
    parts = text.split("/") if isinstance(text, str) else []
    if len(parts) != 2:
        raise InvalidInput(f"not a hexside 'CCRR/CCRR': {text!r}", field=field)
    try:
        return hexside(parse_hex(parts[0], field=field), parse_hex(parts[1], field=field))
    except InvalidInput as exc:
        raise InvalidInput(exc.message, field=field) from None
