"""A Player Turn: designating a unit, recruiting or passing (RKS-7.1.1, RKS-7.5.1, RKS-5.1.2),
and the acting unit's movement (RKS-7.2.1 to RKS-7.3.2, RKS-8.12.4) and the end of its action
(RKS-7.4.1).

Each action kind has a `*_problem` function naming the clause it would break; legal-action
generation and `apply` both use it.
"""

from __future__ import annotations

import attrs

from specs.rattenkrieg.rules.board import Board
from specs.rattenkrieg.rules.combat import start_combat
from specs.rattenkrieg.rules.control import friendly, settle
from specs.rattenkrieg.rules.pile import can_draw, discard
from specs.rattenkrieg.rules.sequence import end_player_turn, queue_draws
from specs.rattenkrieg.rules.sources import combat_cards, may_operate, payment_cards
from specs.rattenkrieg.rules.state import GE, SU, DrawFor, PendingMove, RKState, Stage, other
from specs.rattenkrieg.rules.units import spend_step

Problem = tuple[str, str]


# --- the Player Turn ------------------------------------------------------------------------------


def designate_problem(b: Board, s: RKState, unit: str) -> Problem | None:
    """A face-up friendly unit on the map may be designated (RKS-7.1.1, RKS-7.4.2)."""
    u = b.unit(s, unit)
    if b.side_of[unit] != s.player:
        return "RKS-7.1.1", f"{unit} is not a {s.player} unit"
    if u.area is None:
        return "RKS-7.1.1", f"{unit} is not on the map"
    if u.flipped:
        return "RKS-7.4.2", f"{unit} is flipped and may not act again this turn"
    if b.is_tank(unit) and s.variant.is_("t34_acts", "no"):
        return "RKS-8.12.4", "the T-34 only moves with another unit (AMB-RKS-15)"
    return None


def designate(b: Board, s: RKState, unit: str) -> RKState:
    return attrs.evolve(s, stage=Stage.ACTIVE, acting=unit, acted=False, effects=())


def recruit_problem(b: Board, s: RKState, unit: str) -> Problem | None:
    """A face-up unit in its own Rear gains a step, up to its original number (RKS-7.5.1 to
    RKS-7.5.3); isolation does not prevent it (RKS-7.5.4); by the optional rule only the Soviets
    recruit (RKS-7.5.5)."""
    side = s.player
    u = b.unit(s, unit)
    if side == GE and s.variant.is_("recruiting", "soviet_only"):
        return "RKS-7.5.5", "by the optional rule only the Soviet Army recruits"
    if b.side_of[unit] != side:
        return "RKS-7.5.1", f"{unit} is not a {side} unit"
    if s.recruited:
        return "RKS-7.5.1", "one recruit per Player Turn (AMB-RKS-18)"
    if u.area != b.rear[side]:
        return "RKS-7.5.1", f"{unit} is not in the {b.name(b.rear[side])}"
    if u.flipped:
        return "RKS-7.5.2", f"{unit} is flipped and may not recruit"
    if len(u.steps) >= b.specs[unit].steps:
        return "RKS-7.5.3", f"{unit} already has its original {b.specs[unit].steps} steps"
    if not can_draw(s):
        return "RKS-3.4.3", "no card is left to draw"
    return None


def recruit(b: Board, s: RKState, unit: str) -> RKState:
    """The unit is flipped without acting and draws one step from the deck (RKS-7.5.1)."""
    s = b.update(s, unit, flipped=True)
    return queue_draws(b, s, [DrawFor("steps", unit)])


def can_designate(b: Board, s: RKState) -> bool:
    return any(designate_problem(b, s, u.id) is None for u in s.units)


def pass_problem(b: Board, s: RKState) -> Problem | None:
    """Passing is designating no unit (AMB-RKS-1 c); by reading (b) a player passes so only when
    no unit can be designated."""
    if s.variant.is_("pass_rule", "idle_activation") and can_designate(b, s):
        return "RKS-7.4.1", "a unit can be designated; it passes by doing nothing (AMB-RKS-1 b)"
    return None


def pass_turn(b: Board, s: RKState) -> RKState:
    return end_player_turn(b, s, True)  # RKS-5.1.2


# --- movement -----------------------------------------------------------------------------------


def entry(b: Board, s: RKState, side: str, area: str) -> str:
    """What entering `area` costs: "free" into a friendly-controlled Area or the own Rear
    (RKS-7.2.1), "combat" where enemy units are (RKS-7.3.2), else "pay" (RKS-7.3.1)."""
    if friendly(b, s, side, area) or area == b.rear[side]:
        return "free"  # RKS-7.2.1: into a friendly Area at no cost, as often as wished
    if any(True for _ in b.units_in(s, area, other(side))):
        return "combat"
    return "pay"


def payments_for(s: RKState, escort: str | None) -> int:
    """One card, or one each when the T-34 moving along pays too (AMB-RKS-15 iv)."""
    each = escort is not None and s.variant.is_("t34_escort", "flipped_paid_each")
    return 2 if each else 1


def move_problem(b: Board, s: RKState, to: str, escort: str | None) -> Problem | None:
    assert s.acting is not None
    side = s.player
    u = b.unit(s, s.acting)
    assert u.area is not None
    if u.isolated:
        return "RKS-8.10.3", f"isolated {s.acting} may not move"
    if to not in b.adjacent[u.area]:
        return "RKS-7.2.1", f"{b.name(to)} is not adjacent to {b.name(u.area)}"
    if to == b.enemy_rear(side):
        return "RKS-3.5.1", "no unit may enter the enemy Rear"
    if side == SU and to == b.rear[SU] and s.variant.is_("soviet_rear_entry", "one_way"):
        # RKS-3.5.2 (option soviet_rear_entry=one_way; allowed: adjacency goes both ways)
        return "RKS-3.5.2", "the arrows lead out of the Soviet Rear: no unit moves back in"
    if not may_operate(b, s):
        return "RKS-7.1.3", "the acting unit may operate only as far as there is a card (AMB-RKS-3)"
    if escort is not None:
        e = b.unit(s, escort)
        if side != SU or not b.is_tank(escort) or escort == s.acting or e.area != u.area:
            return "RKS-8.12.4", f"{escort} is not a T-34 in the moving unit's Area"
        if e.flipped:
            return "RKS-8.12.4", "only a face-up T-34 moves along"
        if e.isolated:
            return "RKS-8.10.3", f"isolated {escort} may not move"
    kind = entry(b, s, side, to)
    if kind == "pay":
        need = payments_for(s, escort)
        hand = len(s.hand(side))
        if len(payment_cards(b, s)) < need or (need == 2 and hand < 1):
            return "RKS-7.3.1", f"entering {b.name(to)} costs a card, and there is none to pay"
    if (
        kind == "combat"
        and not combat_cards(b, s, s.acting)
        and s.variant.is_("cardless_entry", "refused")
    ):  # RKS-8.4.1, RKS-7.3.2 (option cardless_entry=refused; combat_follows: the stuck attacker)
        return "RKS-8.4.1", f"entering {b.name(to)} means combat, and there is no card to fight"
    return None


def move(b: Board, s: RKState, to: str, escort: str | None) -> RKState:
    """Into any number of units (no stacking limit, RKS-2.2.1): free, for a card, or a combat."""
    kind = entry(b, s, s.player, to)
    if kind == "pay":
        pending = PendingMove(to, escort, payments_for(s, escort))
        return attrs.evolve(s, stage=Stage.PAY, pending=pending)
    s = _arrive(b, s, to, escort)
    if kind == "combat":
        return start_combat(b, s)  # RKS-7.3.2, RKS-8.1.2
    return s


def _arrive(b: Board, s: RKState, to: str, escort: str | None) -> RKState:
    assert s.acting is not None
    s = b.update(s, s.acting, area=to)
    if escort is not None:  # RKS-8.12.4; flipped by one reading of AMB-RKS-15 (iv)
        flipped = s.variant.is_("t34_escort", "flipped_paid_each")
        s = b.update(s, escort, area=to, flipped=flipped or b.unit(s, escort).flipped)
    return attrs.evolve(settle(b, s), stage=Stage.ACTIVE, acted=True, pending=None)


def pay_problem(b: Board, s: RKState, card: str) -> Problem | None:
    """The card comes from the hand or the acting unit's steps (RKS-7.3.1); a T-34 moving along
    pays from the hand (AMB-RKS-15 iv), so the mover leaves it a hand card."""
    p = s.pending
    assert p is not None and s.acting is not None
    escort_pays = p.payments == 1 and payments_for(s, p.escort) == 2
    hand = s.hand(s.player)
    if card not in {c for c, _ in payment_cards(b, s)}:
        return "RKS-7.3.1", f"{card} is neither in the hand nor a step of {s.acting}"
    if escort_pays and card not in hand:
        return "RKS-7.3.1", "the T-34 pays with a hand card"
    if p.payments == 2 and card in hand and len(hand) < 2:
        return "RKS-7.3.1", "keep a hand card for the T-34's payment"
    return None


def pay(b: Board, s: RKState, card: str) -> RKState:
    p, acting = s.pending, s.acting
    assert p is not None and acting is not None
    side = s.player
    if card in s.hand(side):
        s = discard(s.with_hand(side, s.hand(side) - {card}), (card,))
    else:
        s = spend_step(b, s, acting, card)
    if p.payments > 1:
        return attrs.evolve(s, pending=attrs.evolve(p, payments=p.payments - 1))
    return _arrive(b, s, p.to, p.escort)


# --- combat as an operation ---------------------------------------------------------------------


def attack_problem(b: Board, s: RKState) -> Problem | None:
    """Combat against enemy units in the acting unit's Area (RKS-7.1.2, AMB-RKS-21)."""
    assert s.acting is not None
    area = b.unit(s, s.acting).area
    assert area is not None
    if s.stage == Stage.ACTIVE:
        if s.variant.is_("voluntary_combat", "entry_only"):
            return "RKS-8.1.2", "combat comes only from entering an enemy Area (AMB-RKS-21 b)"
        if not may_operate(b, s):
            return "RKS-7.1.3", "the acting unit may operate only as far as there is a card"
    if not any(True for _ in b.units_in(s, area, other(s.player))):
        return "RKS-8.1.1", f"no enemy unit is in {b.name(area)}"
    if not combat_cards(b, s, s.acting):
        return "RKS-8.4.1", "there is no card to declare an attack with"
    return None


def end_problem(b: Board, s: RKState) -> Problem | None:
    return None  # RKS-7.4.1: the player may always stop
