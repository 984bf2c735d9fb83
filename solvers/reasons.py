"""Why something is illegal: clause IDs and a sentence a player understands.

Shared by every solver's `explain` (combat assignments, retreats, stacking), so a tool prints
one kind of answer whatever it asked.
"""

from __future__ import annotations

from typing import NamedTuple


class Reason(NamedTuple):
    """Clause IDs and a sentence; `{unit}`, `{target}`, `{hexside}` and `{limit}` in a
    template sentence are filled in by `format`."""

    clauses: tuple[str, ...]
    text: str

    def format(self, **names: object) -> Reason:
        return Reason(self.clauses, self.text.format(**names))

    def __str__(self) -> str:
        return f"{self.text}: {', '.join(self.clauses)}" if self.clauses else self.text
