"""The SNC counters file (`counters.toml`): the components' counts and each combat unit's
counter (SNC-2.2.0.1, SNC-2.2.1.1).
"""

from __future__ import annotations

from typing import Any

import attrs

from kernel.data import Provenance
from specs.snc1937.data.records import SIDES, Record, check_format, table_of, tables_of

ARMS = ("regular", "elite", "garrison", "japanese")  # the four colour schemes, SNC-2.2.1.2
UNIT_TYPES = ("infantry", "naval_infantry", "static")  # SNC-2.2.1.5
SIZES = ("XX", "X", "III", "II")  # SNC-2.2.1.4


@attrs.frozen
class UnitSpec:
    """A combat unit's counter (SNC-2.2.0.1: the other counters are markers, `MarkerLine`): its
    layout (SNC-2.2.1.1) as fields: designation as printed (`name`, `id`), side, colour scheme
    (arm), type, size and CF, the front full strength and the back (`reduced`) the reduced
    side; the reinforcement GT printed in its corner is the section 13 line that brings it."""

    id: str
    name: str
    side: str
    arm: str
    type: str
    size: str
    ad_hoc: bool  # a bracketed size symbol
    cf: int
    reduced: int | None  # the back of a two-step counter
    division: str | None
    brigade: str | None
    formation: str | None
    provenance: Provenance

    @property
    def steps(self) -> int:
        """Two when the counter is printed on both sides, else one (SNC-2.2.1.11)."""
        return 1 if self.reduced is None else 2

    @property
    def is_static(self) -> bool:
        return self.type == "static"


@attrs.frozen
class Components:
    map_inches: tuple[int, int]
    counters: int
    other_games: int
    turn_markers: int
    records: tuple[tuple[str, Provenance], ...]


def read_counters(file: str, raw: dict[str, Any]) -> tuple[Components, tuple[UnitSpec, ...]]:
    """The counters part: the components' counts and each combat unit's counter."""
    check_format(file, raw, "counters", ("components", "other_games", "turn_marker", "unit"))
    comp = Record(
        file, table_of(file, raw, "components"), "components",
        ("map_inches", "counters", "counter_inches"),
    )  # fmt: skip
    inches = comp.list_("map_inches")
    if len(inches) != 2 or not all(isinstance(v, int) and v > 0 for v in inches):
        comp.fail("map_inches", f"expected [height, width], got {inches!r}")
    comp.str_("counter_inches")
    other = Record(file, table_of(file, raw, "other_games"), "other_games", ("counters",))
    turn = Record(file, table_of(file, raw, "turn_marker"), "turn_marker", ("count",))
    components = Components(
        (inches[0], inches[1]),
        comp.int_("counters", 1),
        other.int_("counters"),
        turn.int_("count"),
        (
            ("components", comp.provenance()),
            ("other_games", other.provenance()),
            ("turn_marker", turn.provenance()),
        ),
    )
    fields = (
        "id", "name", "side", "arm", "type", "size", "ad_hoc", "cf", "reduced", "division",
        "brigade", "formation",
    )  # fmt: skip
    units: list[UnitSpec] = []
    seen: set[str] = set()
    for i, item in enumerate(tables_of(file, raw, "unit")):
        rec = Record(file, item, f"unit[{i}]", fields)
        uid = rec.str_("id")
        rec.where = f"unit[{i}] ({uid})"
        if uid in seen:
            rec.fail("id", f"duplicate unit id {uid!r}")
        seen.add(uid)
        side, arm = rec.str_("side", SIDES), rec.str_("arm", ARMS)
        if (side == "JP") != (arm == "japanese"):
            rec.fail("arm", "Japanese units, and only they, are 'japanese' (SNC-2.2.1.2)")
        unit = UnitSpec(
            id=uid,
            name=rec.str_("name"),
            side=side,
            arm=arm,
            type=rec.str_("type", UNIT_TYPES),
            size=rec.str_("size", SIZES),
            ad_hoc=rec.bool_("ad_hoc"),
            cf=rec.int_("cf", 0, 99),
            reduced=rec.opt_int("reduced", 0, 99),
            division=rec.opt_str("division"),
            brigade=rec.opt_str("brigade"),
            formation=rec.opt_str("formation"),
            provenance=rec.provenance(),
        )
        units.append(unit)
    return components, tuple(units)
