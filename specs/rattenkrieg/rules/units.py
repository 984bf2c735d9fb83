"""Changes to one unit that several rules share: losing a step card, and elimination."""

from __future__ import annotations

import attrs

from specs.rattenkrieg.rules.board import Board
from specs.rattenkrieg.rules.pile import discard
from specs.rattenkrieg.rules.state import RKState


def eliminate(b: Board, s: RKState, unit_id: str) -> RKState:
    """Remove a unit from the map; its remaining step cards are discarded (AMB-RKS-7 iv), and the
    turn is recorded for the T-34's return (RKS-6.3.1)."""
    u = b.unit(s, unit_id)
    s = discard(s, u.steps, steps=True)
    s = b.with_unit(s, attrs.evolve(u, area=None, steps=frozenset(), flipped=False, isolated=False))
    return attrs.evolve(s, eliminated=tuple(sorted((*s.eliminated, (unit_id, s.turn)))))


def lose_step(b: Board, s: RKState, unit_id: str, card: str) -> RKState:
    """One step card leaves the unit for the discard pile (RKS-8.9.1, AMB-RKS-7 iii/iv); losing
    the last one eliminates the unit by one reading of the `zero_steps` option."""
    u = b.unit(s, unit_id)
    s = discard(b.update(s, unit_id, steps=u.steps - {card}), (card,), steps=True)
    if len(u.steps) == 1 and s.variant.is_("zero_steps", "last_step_eliminates"):
        return eliminate(b, s, unit_id)
    return s


def spend_step(b: Board, s: RKState, unit_id: str, card: str, *, revealed: bool = False) -> RKState:
    """A step card used as a payment or an event (RKS-7.3.1, AMB-RKS-20 i): a step lost, not
    damage, so it never eliminates the unit. An event card is shown (`revealed`), a payment
    is not."""
    u = b.unit(s, unit_id)
    s = b.update(s, unit_id, steps=u.steps - {card})
    return discard(s, (card,), steps=True, revealed=revealed)
