"""Rattenkrieg's invariants of the map (RKS-P-REAR, RKS-P-UNITS, RKS-P-CONTROL): where the units
may be, how each is accounted for off the map, and who controls each Area.
"""

from __future__ import annotations

from specs.rattenkrieg.formal.breach import Breach
from specs.rattenkrieg.rules.board import Board
from specs.rattenkrieg.rules.control import defined_control
from specs.rattenkrieg.rules.state import GE, RKState, Stage


def rears_respected(b: Board, s: RKState) -> Breach | None:
    """No unit is in the enemy Rear (RKS-3.5.1)."""
    for i, u in enumerate(s.units):
        if u.area is not None and u.area == b.enemy_rear(b.side_of[u.id]):
            return Breach(f"units[{i}].area", "RKS-3.5.1", f"{u.id} is in the enemy Rear")
    return None


def units_accounted(b: Board, s: RKState) -> Breach | None:
    """Every unit is on the map, eliminated once in a Turn played since it arrived, still
    to come as a reinforcement, or a Rifle still to be placed (RKS-3.1.1, RKS-3.2.1, RKS-3.3.2,
    RKS-6.1.1, RKS-6.2.1, RKS-8.9.2)."""
    gone: dict[str, int] = {}
    for i, (uid, turn) in enumerate(s.eliminated):
        spec = b.specs[uid]
        if uid in gone:
            return Breach(f"eliminated[{i}]", "RKS-8.9.2", f"{uid} is eliminated twice")
        if turn > s.turn:
            return Breach(
                f"eliminated[{i}]",
                "RKS-4.1.2",
                f"{uid} eliminated in Turn {turn}, a future one",
            )
        if turn < (spec.arrives or 1):
            return Breach(
                f"eliminated[{i}]",
                "RKS-6.1.1" if spec.side == GE else "RKS-6.2.1",
                f"{uid} eliminated in Turn {turn}, before it arrived in Turn {spec.arrives}",
            )
        if b.unit(s, uid).area is not None:
            return Breach(
                f"units[{b.unit_index[uid]}].area", "RKS-8.9.2", f"eliminated {uid} is on the map"
            )
        gone[uid] = turn
    placing = s.stage == Stage.PLACE
    for i, u in enumerate(s.units):
        spec = b.specs[u.id]
        due = spec.arrives is None or spec.arrives <= s.turn
        arrival = "RKS-6.1.1" if spec.side == GE else "RKS-6.2.1"
        if u.area is None:
            if u.steps or u.flipped or u.isolated:
                return Breach(
                    f"units[{i}]", "RKS-3.3.2", f"{u.id} is off the map with steps or markers"
                )
            if u.id in gone or (spec.type == "rifle" and placing):
                continue
            if spec.arrives is not None and not due:
                continue
            if spec.type == "rifle":
                clause = "RKS-3.1.1"
            elif spec.arrives is not None:
                clause = arrival
            else:
                clause = "RKS-3.2.1" if spec.side == GE else "RKS-3.1.2"
            return Breach(
                f"units[{i}].area",
                clause,
                f"{u.id} is neither on the map nor eliminated, and is not still to come",
            )
        if not due:
            return Breach(f"units[{i}].area", arrival, f"{u.id} arrives in Turn {spec.arrives}")
    return None


def control_defined(b: Board, s: RKState) -> Breach | None:
    """Control follows the definition, an Area has no controller only by AMB-RKS-11 b, and
    no unit is isolated where its own side controls (RKS-3.6.1, RKS-3.6.2, RKS-8.10.6)."""
    uncontrolled = s.variant.is_("contested_control", "uncontrolled")
    defined = defined_control(b, s)
    for i, area in enumerate(b.stalingrad):
        if s.control[i] is None and not uncontrolled:
            return Breach(
                f"control.{area}",
                "RKS-3.6.1",
                "every Area starts Soviet and keeps a controller (AMB-RKS-11 a)",
            )
        if defined[i] != s.control[i]:
            return Breach(
                f"control.{area}",
                "RKS-3.6.2",
                f"{area} must be controlled by the side whose units alone are there",
            )
    for i, u in enumerate(s.units):
        if not u.isolated or u.area is None:
            continue
        if b.is_rear(u.area) or s.control[b.index[u.area]] == b.side_of[u.id]:
            return Breach(
                f"units[{i}].isolated",
                "RKS-8.10.6",
                f"{u.id} is isolated in an Area its side controls",
            )
    return None
