"""Rattenkrieg's invariants of set-up and the queued draws (RKS-P-SETUP, RKS-P-DRAWS): the units
placed and the cards dealt in order, and every queued draw one the rules make at that point,
a bombardment's or Air Force Support's aimed at a target the event may strike.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from specs.rattenkrieg.formal.breach import Breach
from specs.rattenkrieg.rules import sequence
from specs.rattenkrieg.rules.board import Board
from specs.rattenkrieg.rules.state import GE, SU, Phase, RKState, Stage


def set_up(b: Board, s: RKState) -> Breach | None:
    """Set-up as RKS-3.1.1 to RKS-3.4.2 lay it out: the units where they start, the Rifles
    placed one by one on the Normal Areas, the cards dealt in order."""
    if s.phase != Phase.SETUP:
        return None
    if s.eliminated or s.discards or s.removed or s.exposed or s.face_up:
        return Breach("discards", "RKS-3.4.2", "at set-up every card is dealt or in the deck")
    for i, area in enumerate(b.stalingrad):
        if s.control[i] != SU:
            return Breach(f"control.{area}", "RKS-3.6.1", "the Soviets control every Area")
    held: list[str] = []
    for i, u in enumerate(s.units):
        spec = b.specs[u.id]
        if spec.type == "rifle":
            if u.area is not None:
                held.append(u.area)
        elif u.area != spec.setup:
            return Breach(f"units[{i}].area", "RKS-3.2.1", f"{u.id} starts in {spec.setup}")
    placed = sorted(held, key=lambda a: b.normal_areas.index(a) if a in b.normal_areas else -1)
    if placed != list(b.normal_areas[: len(held)]):
        return Breach("units", "RKS-3.1.1", "Rifles go one by one on the Normal Areas")
    if s.stage == Stage.PLACE:
        if sequence.rifle_to_place(b, s) is None:
            return Breach("stage", "RKS-3.1.1", "no Rifle is left to place")
        if any(u.steps for u in s.units) or s.hand_ge or s.hand_su:
            return Breach("units", "RKS-3.3.1", "steps and hands are dealt after placing")
        return None
    if sequence.rifle_to_place(b, s) is not None:
        return Breach("stage", "RKS-3.1.1", "the deal follows the placing of every Rifle")
    return _dealt(b, s, sequence.deal_queue(b, s), sequence.START_HAND)


def _dealt(b: Board, s: RKState, queue: list[Any], hands: dict[str, int]) -> Breach | None:
    """The queued draws are what remains of `queue`, and what was dealt is its start
    (RKS-3.3.1, RKS-3.4.1, RKS-6.1.2)."""
    rest = list(s.draws)
    if rest != queue[len(queue) - len(rest) :]:
        return Breach("draws", "RKS-3.3.1", "the cards are dealt in order (RKS-3.3.1)")
    waiting = Counter((d.kind, d.who) for d in rest)
    full = Counter((d.kind, d.who) for d in queue)
    for i, u in enumerate(s.units):
        want = full[("steps", u.id)]
        if want and len(u.steps) + waiting[("steps", u.id)] != want:
            return Breach(f"units[{i}].steps", "RKS-3.3.1", f"{u.id} is dealt {want} steps")
    for side, n in hands.items():
        if len(s.hand(side)) + waiting[("hand", side)] != n:
            return Breach(f"hands.{side}", "RKS-3.4.1", f"{side} is dealt {n} cards")
    return None


def draws_fit(b: Board, s: RKState) -> Breach | None:
    """Each queued draw is one the rules make at this point (RKS-3.3.1, RKS-6.1.2,
    RKS-6.2.2, RKS-7.5.1, RKS-9.2.2, RKS-9.3.1, RKS-10.1.2)."""
    if s.stage != Stage.DRAW:
        return None
    if not s.deck:
        return Breach("deck", "RKS-3.4.3", "a draw from an empty deck")
    if s.phase == Phase.REINFORCEMENT:
        return _dealt(b, s, sequence.arrival_queue(b, s.turn), {})
    if s.phase == Phase.RECRUITING:
        target = sequence.refill_target(b, s, s.player)
        if any(d.kind != "hand" or d.who != s.player for d in s.draws):
            return Breach("draws", "RKS-10.1.2", "the player refills his own hand")
        filled = len(s.hand(s.player)) + len(s.draws)
        # RKS-10.1.2 (option refill_amount=partial: fewer cards than the target)
        if filled != target and not (filled < target and s.variant.is_("refill_amount", "partial")):
            return Breach("draws", "RKS-10.1.2", f"the hand is filled up to {target}")
        return None
    if s.phase != Phase.PLAYER_TURNS:
        return None
    if len(s.draws) != 1:
        return Breach("draws", "RKS-3.4.3", "in the Player Turns one card is drawn at a time")
    d = s.draws[0]
    if d.kind == "hand":
        return Breach("draws", "RKS-10.1.2", "hands are filled only in the Recruiting Phase")
    if b.side_of.get(d.who) is None:
        return Breach("draws[0].who", "RKS-3.4.3", f"{d.who} is not a unit")
    u = b.unit(s, d.who)
    if d.kind == "steps":
        spec = b.specs[d.who]
        if (
            b.side_of[d.who] != s.player
            or u.area != b.rear[s.player]
            or not u.flipped
            or len(u.steps) >= spec.steps
        ):
            return Breach(
                "draws[0].who",
                "RKS-7.5.1",
                "a recruit is a flipped unit of the player in his Rear, below its steps",
            )
        return None
    return event_target(b, s, d.kind, d.who, "draws[0].who")


def event_target(b: Board, s: RKState, kind: str, target: str, field: str) -> Breach | None:
    """A bombardment's or Air Force Support's target, where the event found it (RKS-9.2.1,
    RKS-9.2.4, RKS-9.2.5, RKS-9.3.1)."""
    clause = "RKS-9.2.1" if kind == "bombardment" else "RKS-9.3.1"
    if s.acting is None:
        return Breach("acting", clause, "a bombardment is the acting unit's event")
    here = b.unit(s, s.acting).area
    t = b.unit(s, target)
    if kind == "air_support" and s.player != GE:
        return Breach(field, "RKS-9.3.1", "Air Force Support is a German event")
    if b.side_of[target] == s.player or t.area is None or here is None:
        return Breach(field, clause, f"{target} is not an enemy unit on the map")
    if t.area != here and t.area not in b.adjacent[here]:
        return Breach(field, clause, f"{target} is neither in the acting unit's Area nor next")
    if t.area == b.enemy_rear(s.player):
        return Breach(field, "RKS-9.2.4", "units in the enemy Rear are not bombarded")
    if kind == "bombardment" and s.player == GE and b.is_tank(target):
        return Breach(field, "RKS-9.2.5", "the Germans do not bombard the T-34")
    return None
