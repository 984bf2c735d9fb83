"""Readings the catalogue lists but the rules do not implement (`Reading.unplayed`).

No variant may choose such a reading (the catalogue refuses it, naming why), so no search
can compare it with the preset's; and no static check may call the pair equivalent either:
where no rule reads the option, the game the reading describes is still not the one played
(another city list, a set-up choice the kernel offers no action for). The explorer lists
each such pair with the verdict `unplayed` and the reason in its detail, and counts it
neither settled nor unknown.
"""

from __future__ import annotations

from kernel.variants import Catalogue, Option
from solvers.checking.differences import Finding
from solvers.checking.readings import unplayed_pairs

UNPLAYED = "unplayed"
"""The verdict of a pair whose other reading the rules do not implement."""


def unplayed_findings(cat: Catalogue, option: Option, preset: str | None = None) -> list[Finding]:
    """A finding per reading of `option` the rules do not play, against `preset`'s (the
    catalogue's default when None): `unplayed`, its detail "not implemented: <why>"."""
    name = preset or cat.default_preset
    return [
        Finding(
            option.name,
            option.clauses,
            option.ambiguity,
            ra,
            rb,
            name,
            UNPLAYED,
            None,
            f"not implemented: {why}",
            0.0,
        )
        for ra, rb, why in unplayed_pairs(option, cat.preset(name).reading(option.name))
    ]
