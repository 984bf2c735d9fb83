"""Rattenkrieg's invariants of the acting unit's operations (RKS-P-PAY, RKS-P-EFFECTS): the move
waiting for its card, and the events in force.
"""

from __future__ import annotations

from collections import Counter

from specs.rattenkrieg.formal.breach import Breach
from specs.rattenkrieg.rules import activation
from specs.rattenkrieg.rules.board import Board
from specs.rattenkrieg.rules.sources import payment_cards
from specs.rattenkrieg.rules.state import GE, SU, RKState, Stage

EVENTS_OF = {GE: ("assault_gun", "engineer"), SU: ("molotov", "chuikov")}  # RKS-9.1.1, 9.1.2
NEXT_COMBAT = ("engineer", "molotov", "chuikov")  # RKS-9.5.1, RKS-9.7.1, RKS-9.8.1


def pending_fits(b: Board, s: RKState) -> Breach | None:
    """A move waiting for its card: into an adjacent empty enemy Area (RKS-7.3.1), with a
    face-up T-34 of the same Area moving along (RKS-8.12.4), and a card to pay with."""
    p = s.pending
    if p is None:
        return None
    assert s.acting is not None
    mover = b.unit(s, s.acting)
    assert mover.area is not None
    if mover.isolated:
        return Breach("pending", "RKS-8.10.3", "an isolated unit does not move")
    if p.to not in b.adjacent[mover.area] or p.to == b.enemy_rear(s.player):
        return Breach("pending.to", "RKS-7.2.1", f"{p.to} is not an Area the unit may enter")
    if activation.entry(b, s, s.player, p.to) != "pay":
        return Breach("pending.to", "RKS-7.3.1", f"entering {p.to} costs no card")
    if p.escort is not None:
        e = b.unit(s, p.escort)
        if (
            s.player != SU
            or not b.is_tank(p.escort)
            or p.escort == s.acting
            or e.area != mover.area
            or e.flipped
            or e.isolated
        ):
            return Breach(
                "pending.escort",
                "RKS-8.12.4",
                f"{p.escort} is not a face-up T-34 moving along from the same Area",
            )
    if p.payments > activation.payments_for(s, p.escort):
        return Breach("pending.payments", "RKS-7.3.1", "one card pays for the move")
    if not any(activation.pay_problem(b, s, c) is None for c, _ in payment_cards(b, s)):
        return Breach("pending", "RKS-7.3.1", "there is no card to pay with")
    return None


def effects_fit(b: Board, s: RKState) -> Breach | None:
    """Events in force are the acting side's (RKS-9.1.1, RKS-9.1.2), two cards of each at
    most (one by effect_stacking=once), Assault Gun never on a Panzer (RKS-9.4.1), and the
    "next combat" ones pass into that combat (RKS-9.5.1, RKS-9.7.1, RKS-9.8.1)."""
    c = s.combat
    mine = EVENTS_OF[s.player]
    for i, e in enumerate(s.effects):
        if e not in mine:
            return Breach(f"effects[{i}]", "RKS-9.1.1", f"{e} is not a {s.player} event")
    if "assault_gun" in s.effects and s.acting and b.specs[s.acting].type == "panzer":
        return Breach("effects", "RKS-9.4.1", "Assault Gun does nothing for a Panzer")
    fighting = c is not None and c.cause == "combat"
    # RKS-8.11.2 (option reattack_events=effects: played before the re-attack, they wait)
    waiting = s.stage == Stage.CONTINUE and s.variant.is_("reattack_events", "effects")
    if fighting and not waiting and any(e in NEXT_COMBAT for e in s.effects):
        return Breach("effects", "RKS-9.5.1", "a 'next combat' event passes into the combat")
    in_combat: tuple[str, ...] = ()
    if c is not None:
        in_combat = c.effects
        theirs = EVENTS_OF[b.side_of[c.attacker]]
        for i, e in enumerate(c.effects):
            if e not in theirs or e not in NEXT_COMBAT:
                return Breach(
                    f"combat.effects[{i}]", "RKS-9.1.1", f"{e} is not the attacker's event"
                )
        if c.refight and c.effects and s.variant.is_("effect_duration", "first_round"):
            return Breach("combat.effects", "RKS-8.7.4", "the event lasted one round only")
        if c.cause != "combat" and c.effects:
            return Breach("combat.effects", "RKS-9.2.2", "a bombardment is no combat")
    most = 1 if s.variant.is_("effect_stacking", "once") else 2
    counts = Counter((*s.effects, *in_combat))
    for e, n in counts.items():
        if n > most:
            return Breach("effects", "RKS-9.1.1", f"{n} cards of {e} (there are {most})")
    return None
