"""Rattenkrieg's invariants of what follows a combat's result or a bombardment (RKS-P-AFTERMATH,
RKS-P-PICKS): damage, a random pick, the remaining units and the continuation, each waiting for
a decision the rules ask for.
"""

from __future__ import annotations

from specs.rattenkrieg.formal.breach import Breach
from specs.rattenkrieg.formal.invariants_draws import event_target
from specs.rattenkrieg.rules import damage
from specs.rattenkrieg.rules.board import Board
from specs.rattenkrieg.rules.sources import combat_cards
from specs.rattenkrieg.rules.state import GE, SU, RKState, Stage


def aftermath(b: Board, s: RKState) -> Breach | None:
    """Damage, the remaining units and the continuation wait for a decision the rules ask
    for (RKS-8.9.1, RKS-8.9.2, RKS-8.10.1, RKS-8.10.2, RKS-8.11.2, RKS-9.2.2, RKS-9.6.1)."""
    found = _damaged(b, s)
    if found is not None:
        return found
    d = s.damage
    if d is not None and s.stage == Stage.DAMAGE and not damage.damage_choices(b, s):
        return Breach("damage", "RKS-8.9.2", f"{d.unit} has no choice: it is eliminated")
    found = _picked(b, s)
    if found is not None:
        return found
    c = s.combat
    if c is None:
        return None
    if s.stage == Stage.ISOLATION:
        left = damage.remaining(b, s)
        if not left or not damage.retreat_areas(b, s, left[0], "isolation"):
            return Breach(
                "combat.staying",
                "RKS-8.10.2",
                "a unit with nowhere to retreat is isolated at once: nothing to decide",
            )
    if s.stage == Stage.CONTINUE:
        if not damage.enemies_remain(b, s):
            return Breach("combat", "RKS-8.11.2", "no enemy remains: the combat is over")
        retreats = damage.retreat_areas(b, s, c.attacker, "continuation")
        if not combat_cards(b, s, c.attacker) and not retreats:
            return Breach("combat", "RKS-8.11.2", "the attacker can neither fight nor go")
    return None


def picks(b: Board, s: RKState) -> Breach | None:
    """The part of `aftermath` proved over the abstraction (RKS-P-PICKS): the damaged unit
    is on the map; a bombarded one is no T-34 (it is eliminated) and fits as its event's
    target; a random step pick is the damaged unit's under lost_step=random and it has a
    step; the Sniper's pick is the Soviet's from a non-empty German hand, for the acting
    unit unless under event_timing=player_turn_too (RKS-8.9.1, RKS-8.12.1, RKS-9.2.1,
    RKS-9.6.1). The rest of `aftermath` (whether damage has a choice, the remaining units'
    retreats, the continuation) is proved with it as RKS-P-AFTERMATH."""
    return _damaged(b, s) or _picked(b, s)


def _damaged(b: Board, s: RKState) -> Breach | None:
    """The damaged unit is on the map; a bombarded one is no T-34 (it is eliminated) and fits
    as its event's target (RKS-8.9.1, RKS-8.12.1, RKS-9.2.1)."""
    d = s.damage
    if d is None:
        return None
    if b.unit(s, d.unit).area is None:
        return Breach("damage.unit", "RKS-8.9.1", "the damaged unit is not on the map")
    if d.cause != "combat":
        if b.is_tank(d.unit):
            return Breach("damage.unit", "RKS-8.12.1", "a bombarded T-34 is eliminated")
        return event_target(b, s, d.cause, d.unit, "damage.unit")
    return None


def _picked(b: Board, s: RKState) -> Breach | None:
    """A random step pick is the damaged unit's under lost_step=random and it has a step
    (RKS-8.9.1, AMB-RKS-7 iii); the Sniper's pick is the Soviet's from a non-empty German hand,
    for the acting unit unless under event_timing=player_turn_too (RKS-9.6.1, RKS-9.1.3)."""
    d, p = s.damage, s.pick
    if p is None:
        return None
    if p.kind == "step":
        if d is None or p.who != d.unit or not s.variant.is_("lost_step", "random"):
            return Breach("pick", "RKS-8.9.1", "a random step is picked from the damaged")
        if not b.unit(s, p.who).steps:
            return Breach("pick", "RKS-8.9.1", f"{p.who} has no step to lose")
        return None
    if s.player != SU or p.who != GE or not s.hand_ge:
        return Breach("pick", "RKS-9.6.1", "the Sniper picks from the German hand")
    if s.acting is None and not s.variant.is_("event_timing", "player_turn_too"):
        return Breach("pick", "RKS-9.1.3", "the Sniper is the acting unit's event")
    return None
