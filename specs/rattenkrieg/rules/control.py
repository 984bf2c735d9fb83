"""Control of the Areas (RKS-3.6.1 to RKS-3.6.3), the end of isolation (RKS-8.10.6), and who
occupies Mamayev Kurgan (AMB-RKS-17).

Control is recomputed after every action: an Area with non-isolated units of only one side
belongs to that side at once (RKS-3.6.2, RKS-3.6.3); an empty Area keeps its controller, and a
contested one keeps it or has none by reading (AMB-RKS-11). Isolated units whose Area is then
controlled by their own side are isolated no more (RKS-8.10.6).
"""

from __future__ import annotations

import attrs

from specs.rattenkrieg.rules.board import Board
from specs.rattenkrieg.rules.state import RKState


def controller(b: Board, s: RKState, area: str) -> str | None:
    """The side controlling `area`: for a Rear its owner, if Rears count as controlled
    (AMB-RKS-10); for a Stalingrad Area the stored control."""
    if b.is_rear(area):
        if s.variant.is_("rear_control", "own_rear_friendly"):
            return b.areas[area].side
        return None
    return s.control[b.index[area]]


def friendly(b: Board, s: RKState, side: str, area: str) -> bool:
    return controller(b, s, area) == side


def present_sides(b: Board, s: RKState, area: str) -> set[str]:
    """Sides with a unit in `area` that counts for control: isolated ones do not (RKS-3.6.3)."""
    return {b.side_of[u.id] for u in s.units if u.area == area and not u.isolated}


def _control(sides: set[str], before: str | None, contested_none: bool) -> str | None:
    if len(sides) == 1:
        return next(iter(sides))
    if len(sides) == 2 and contested_none:
        return None  # AMB-RKS-11 (b)
    return before  # AMB-RKS-11 (a): empty or contested Areas keep their controller


def defined_control(b: Board, s: RKState) -> tuple[str | None, ...]:
    """Control of every Stalingrad Area as the units make it from the stored control
    (RKS-3.6.2, RKS-3.6.3, AMB-RKS-11)."""
    present: dict[str | None, set[str]] = {}
    for u in s.units:
        if not u.isolated:
            present.setdefault(u.area, set()).add(b.side_of[u.id])
    contested_none = s.variant.is_("contested_control", "uncontrolled")
    return tuple(
        _control(present.get(area, set()), s.control[i], contested_none)
        for i, area in enumerate(b.stalingrad)
    )


def settle(b: Board, s: RKState) -> RKState:
    """Control follows the units (RKS-3.6.2) and isolation ends in friendly Areas (RKS-8.10.6);
    exposed step cards stay exposed only while they are still steps."""
    control = defined_control(b, s)
    units = s.units
    if any(u.isolated for u in units):
        units = tuple(
            attrs.evolve(u, isolated=False)
            if u.isolated
            and u.area is not None
            and not b.is_rear(u.area)
            and control[b.index[u.area]] == b.side_of[u.id]
            else u
            for u in units
        )
    exposed = s.exposed
    if exposed:
        exposed = exposed & frozenset(c for u in units for c in u.steps)
    if control == s.control and units is s.units and exposed == s.exposed:
        return s
    return attrs.evolve(s, control=control, units=units, exposed=exposed)


def occupies(b: Board, s: RKState, side: str) -> bool:
    """Whether `side` occupies Mamayev Kurgan (RKS-9.2.3, RKS-10.2.1), by AMB-RKS-17's reading:
    it controls it, has a non-isolated unit there, or is the only side with units there."""
    mk = b.mamayev_kurgan
    reading = s.variant.reading("occupying")
    if reading == "controls":
        return controller(b, s, mk) == side
    if reading == "present":
        return side in present_sides(b, s, mk)
    sides = {b.side_of[u.id] for u in s.units if u.area == mk}
    return sides == {side}
