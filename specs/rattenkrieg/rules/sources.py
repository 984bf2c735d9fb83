"""Which cards a side may use, and for what: combat cards (RKS-8.4.1, RKS-8.5.2, RKS-8.10.4,
RKS-8.12.2), payments (RKS-7.3.1), events (RKS-9.1.3, AMB-RKS-20), and whether the acting unit
may still operate at all (RKS-7.1.3, AMB-RKS-3).
"""

from __future__ import annotations

from specs.rattenkrieg.rules.board import Board
from specs.rattenkrieg.rules.cards import is_face, sort_cards
from specs.rattenkrieg.rules.state import HAND, RKState


def combat_cards(b: Board, s: RKState, unit_id: str) -> list[tuple[str, str]]:
    """(card, origin) pairs a unit's side may put down for it: hand cards unless the unit is
    isolated (RKS-8.10.4), and the unit's own step cards; the T-34 has none (RKS-8.12.1), so it
    fights with the hand only (RKS-8.12.2)."""
    u = b.unit(s, unit_id)
    side = b.side_of[unit_id]
    steps = [(c, unit_id) for c in sort_cards(u.steps)]
    if u.isolated:  # RKS-8.10.4: an isolated unit fights with its own steps only
        return steps
    return [(c, HAND) for c in sort_cards(s.hand(side))] + steps


def payment_cards(b: Board, s: RKState) -> list[tuple[str, str]]:
    """Cards that pay for entering an empty enemy Area: a hand card or a step of the acting unit
    (RKS-7.3.1)."""
    assert s.acting is not None
    hand = [(c, HAND) for c in sort_cards(s.hand(s.player))]
    return hand + [(c, s.acting) for c in sort_cards(b.unit(s, s.acting).steps)]


def event_cards(b: Board, s: RKState) -> list[tuple[str, str]]:
    """Face cards the player may play as events: from the hand, and by one reading of AMB-RKS-20
    (i) the acting unit's face-card steps (RKS-9.1.3)."""
    out = [(c, HAND) for c in sort_cards(s.hand(s.player)) if is_face(c)]
    if s.acting is not None and s.variant.is_("event_source", "hand_or_step"):
        out += [(c, s.acting) for c in sort_cards(b.unit(s, s.acting).steps) if is_face(c)]
    return out


def may_operate(b: Board, s: RKState) -> bool:
    """Whether the acting unit may start another operation "as far as there is a card"
    (RKS-7.1.3), by AMB-RKS-3's reading: always (each operation pays its own card), with a hand
    card, or with a hand card or a step card of the acting unit."""
    reading = s.variant.reading("card_needed")
    if reading == "per_operation":
        return True
    if s.hand(s.player):
        return True
    return reading == "hand_or_step" and s.acting is not None and bool(b.unit(s, s.acting).steps)
