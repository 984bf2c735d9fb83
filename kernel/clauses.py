"""Clause IDs in text, read exactly: `NOM-9.17`, `NOM-OPT.5`, `SHU-CRT.1`, `SNC-10.4.1.3`,
`RKS-8.7.2`, and a range such as "NOM-9.17 to NOM-9.21" read as every clause in it. A word
that only looks like one (`OFF-MAP`, `AMB-SNC-40`) is not a clause, nor is a section
("NOM-7", "NOM-OPT": every clause index numbers its clauses within a section)."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

PREFIXES = ("NOM", "RKS", "SHU", "SNC")  # the four games' clause indexes
_PART = r"[A-Z0-9]+(?:\.[A-Z0-9]+)+"  # a clause has a dot; "NOM-7" is a section
_ANY = "[A-Z]{2,5}"  # any index's prefix (a game with an index of its own, such as the toy)


@functools.lru_cache(maxsize=32)
def _pattern(prefix: str) -> re.Pattern[str]:
    """IDs whose prefix matches the regular expression `prefix`, or ranges of them."""
    # whole: never cut short ("SNC-7.2.x" names a section's clauses, not clause SNC-7.2)
    one = rf"(?<!\w)(?<![A-Z]-)(?:{prefix})-{_PART}(?![\w]|\.[A-Za-z0-9])"
    return re.compile(rf"(?P<first>{one})(?:(?:\s+to\s+|\s*[-–]\s*)(?P<last>{one}))?")


def clause_ids(text: str, prefixes: Iterable[str] | None = PREFIXES) -> list[str]:
    """The clause IDs `text` cites, in order, each once; a range of clauses that differ only
    in their last number ("SNC-6.0.2 to SNC-6.0.4") gives each clause in it. `prefixes`: the
    clause indexes to read (None: any of 2 to 5 capitals)."""
    prefix = _ANY if prefixes is None else "|".join(re.escape(p) for p in prefixes)
    out: dict[str, None] = {}
    for m in _pattern(prefix).finditer(text):
        first, last = m.group("first"), m.group("last")
        out.update(dict.fromkeys(_expanded(first, last) if last else [first]))
    return list(out)


def _expanded(first: str, last: str) -> list[str]:
    head_a, _, tail_a = first.rpartition(".")
    head_b, _, tail_b = last.rpartition(".")
    if head_a and head_a == head_b and tail_a.isdigit() and tail_b.isdigit():
        lo, hi = int(tail_a), int(tail_b)
        if lo <= hi <= lo + 50:
            return [f"{head_a}.{n}" for n in range(lo, hi + 1)]
    return [first, last]
