"""Which units a shrunk witness's start has taken off its set-up, read from the two state
JSONs alone: an independent check of `Witness.removed`, which the shrink records as it goes."""

from __future__ import annotations

from solvers.checking.differences import Json, on_map


def removed_units(setup: Json, start: Json | None) -> list[str]:
    """The ids of the units on the map in the set-up `setup` that `start` has off it, in the
    set-up's order (none when `start` is None: the set-up itself)."""
    if start is None:
        return []
    before, after = setup.get("units"), start.get("units")
    if not isinstance(before, list) or not isinstance(after, list):
        return []
    return [
        str(u.get("id", i))
        for i, (u, v) in enumerate(zip(before, after, strict=False))
        if on_map(u) and not on_map(v)
    ]
