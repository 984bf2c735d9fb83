"""The combat results table and the die: which row a face reads, odds columns, shifts.

Rows are indexed from the top (0, attacker-best) to the bottom (5, attacker-worst); every
column is monotone in this order (SHU-CRT.9). A roller reads the left or the right die number
of each row by the `die_reading` option (AMB-SHU-1); everything below asks `reads_left`.
"""

from __future__ import annotations

from fractions import Fraction

from kernel.variants import Variant
from specs.shumshu.data.loader import Crt
from specs.shumshu.rules.state import JP, RU

COLUMN_VALUES = (
    Fraction(1, 3),
    Fraction(1, 2),
    Fraction(1),
    Fraction(3, 2),
    Fraction(2),
    Fraction(3),
    Fraction(4),
)
"""1:3, 1:2, 1:1, 3:2, 2:1, 3:1, 4:1 as ratios (SHU-COMBAT.7)."""
LAST = len(COLUMN_VALUES) - 1
BELOW, ABOVE = -1, len(COLUMN_VALUES)  # odds off the table (AMB-SHU-16)
DEFENDER_RESULTS = ("DE", "DR", "DW", "D")
D_OR_WORSE = ("D", "AD", "AE")  # SHU-BANZAI.2


def reads_left(v: Variant, roller: str) -> bool:
    """Whether `roller` reads the left die number (6 at the top) (SHU-CRT.9, AMB-SHU-1)."""
    reading = v.reading("die_reading")
    if reading == "by_nationality":
        return roller == JP  # SHU-CRT.9: the Japanese read the left number, the Russians right
    if reading == "attacker_left":
        return True
    return roller == RU


def row_of(crt: Crt, left: bool, face: int) -> int:
    """The table row a face reads (SHU-CRT.1, SHU-CRT.9)."""
    return (crt.left if left else crt.right).index(face)


def favour(left: bool, face: int, pips: int = 1) -> int:
    """The face moved `pips` rows toward the roller's best row, kept on the die (AMB-SHU-5)."""
    return max(1, min(6, face + pips if left else face - pips))


def basic_column(attack: int, defence: int) -> int:
    """Attack over defence rounded down to a column (SHU-COMBAT.7); BELOW 1:3 or ABOVE 4:1
    (5:1 or more) when off the table (AMB-SHU-16)."""
    if defence <= 0:
        return ABOVE
    ratio = Fraction(attack, defence)
    if ratio < COLUMN_VALUES[0]:
        return BELOW
    if ratio >= 5:
        return ABOVE
    return max(i for i, value in enumerate(COLUMN_VALUES) if value <= ratio)  # SHU-COMBAT.7


def clamp(column: int) -> int:
    return max(0, min(LAST, column))


def shifted(v: Variant, column: int, shifts: list[int]) -> int:
    """The column after the shifts (SHU-COMBAT.9), per `shift_order` (AMB-SHU-17): summed
    then clamped, or applied one at a time, the attacker's (positive) first, each clamped."""
    column = clamp(column)
    if v.is_("shift_order", "sum_then_clamp"):
        return clamp(column + sum(shifts))
    for s in sorted(shifts, reverse=True):
        column = clamp(column + s)
    return column


def pressed(column: int, row: int) -> int:
    """A pressed attack reads the two best rows one column right and the four worst one
    column left; edge columns stay (SHU-PRESS.1, AMB-SHU-25)."""
    return clamp(column + 1) if row <= 1 else clamp(column - 1)


def result(crt: Crt, column: int, row: int) -> str:
    return crt.rows[row][column]
