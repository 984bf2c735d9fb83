"""The map and counters as the rules use them: adjacency, the Rears, the named Areas, the
unit table, and unit lookups in a state.

Built once per data file. The rules find Tractor Works, Mamayev Kurgan and the Rears by their
role and kind in the data, so a transcription with other ids works unchanged.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import attrs

from kernel.errors import DataError, InvalidInput
from specs.rattenkrieg.data.loader import AreaSpec, RKData, UnitSpec
from specs.rattenkrieg.rules.state import SIDES, RKState, Unit

_KEEP: Any = object()  # "leave this field as it is" in `Board.update`


class Board:
    def __init__(self, data: RKData) -> None:
        self.data = data
        self.areas: dict[str, AreaSpec] = {a.id: a for a in data.areas}
        self.stalingrad: tuple[str, ...] = tuple(a.id for a in data.areas if a.kind != "rear")
        self.index: dict[str, int] = {a: i for i, a in enumerate(self.stalingrad)}
        adjacent: dict[str, set[str]] = {a.id: set() for a in data.areas}
        for a, b in data.borders + data.arrows:
            adjacent[a].add(b)
            adjacent[b].add(a)
        self.adjacent: dict[str, tuple[str, ...]] = {
            a: tuple(x for x in self.areas if x in n) for a, n in adjacent.items()
        }
        rears = {a.side: a.id for a in data.areas if a.kind == "rear" and a.side is not None}
        roles = {a.role: a.id for a in data.areas if a.role is not None}
        if set(rears) != set(SIDES) or set(roles) != {"tractor_works", "mamayev_kurgan"}:
            raise DataError(
                "the map needs one Rear per side (RKS-2.1.1), Tractor Works and Mamayev Kurgan",
                field="area",
            )
        self.rear: dict[str, str] = rears
        self.tractor_works = roles["tractor_works"]
        self.mamayev_kurgan = roles["mamayev_kurgan"]
        soviet_rear = rears["SU"]
        self.arrows: tuple[str, ...] = tuple(
            a for a in self.stalingrad if a in self.adjacent[soviet_rear]
        )  # RKS-3.5.2: the victory Areas (RKS-4.1.1)
        self.specs: dict[str, UnitSpec] = {u.id: u for u in data.units}
        self.unit_index: dict[str, int] = {u.id: i for i, u in enumerate(data.units)}
        self.side_of: dict[str, str] = {u.id: u.side for u in data.units}
        self.normal_areas = tuple(a for a in self.stalingrad if self.areas[a].kind == "normal")
        self.rifles = tuple(u.id for u in data.units if u.type == "rifle")

    # --- areas ---------------------------------------------------------------------------------
    def is_city(self, area: str) -> bool:
        return self.areas[area].kind == "city"

    def is_rear(self, area: str) -> bool:
        return self.areas[area].kind == "rear"

    def enemy_rear(self, side: str) -> str:
        return self.rear["SU" if side == "GE" else "GE"]

    def name(self, area: str | None) -> str:
        return "off the map" if area is None else self.areas[area].name

    def check_area(self, area: str, field: str) -> None:
        if area not in self.areas:
            known = ", ".join(self.areas)
            raise InvalidInput(f"unknown area {area!r} (areas: {known})", field=field)

    def check_unit(self, unit: str, field: str) -> None:
        if unit not in self.specs:
            raise InvalidInput(f"unknown unit {unit!r}", field=field)

    # --- units in a state ----------------------------------------------------------------------
    def unit(self, s: RKState, unit_id: str) -> Unit:
        return s.units[self.unit_index[unit_id]]

    def with_unit(self, s: RKState, unit: Unit) -> RKState:
        i = self.unit_index[unit.id]
        return attrs.evolve(s, units=(*s.units[:i], unit, *s.units[i + 1 :]))

    def update(
        self,
        s: RKState,
        unit_id: str,
        *,
        area: str | None = _KEEP,
        steps: frozenset[str] = _KEEP,
        flipped: bool = _KEEP,
        isolated: bool = _KEEP,
    ) -> RKState:
        """The state with some of one unit's fields changed."""
        u = self.unit(s, unit_id)
        return self.with_unit(
            s,
            Unit(
                u.id,
                u.area if area is _KEEP else area,
                u.steps if steps is _KEEP else steps,
                u.flipped if flipped is _KEEP else flipped,
                u.isolated if isolated is _KEEP else isolated,
            ),
        )

    def units_in(self, s: RKState, area: str, side: str | None = None) -> Iterator[Unit]:
        for u in s.units:
            if u.area == area and (side is None or self.side_of[u.id] == side):
                yield u

    def is_tank(self, unit_id: str) -> bool:
        return self.specs[unit_id].type == "tank"
