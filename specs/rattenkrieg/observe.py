"""What one side may know (RKS-3.3.3, RKS-3.4.1, RKS-8.4.1, RKS-8.5.2): its own hand and step
cards, the opponent's card counts, every public card, and face-down cards as face down.

The deck's content is never shown, nor the opponent's hand or steps (except step cards both
players saw returned to a unit, AMB-RKS-7). A side's legal actions depend only on this view.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from specs.rattenkrieg.cards import sort_cards
from specs.rattenkrieg.codec import public_fields
from specs.rattenkrieg.state import Placed, RKState

if TYPE_CHECKING:
    from specs.rattenkrieg.rules import Rattenkrieg

FACE_DOWN = "face-down"


def _placed(p: Placed | None, side: str) -> dict[str, Any] | None:
    if p is None:
        return None
    seen = p.side == side or p.open
    return {
        "side": p.side,
        "card": p.card if seen else FACE_DOWN,
        "origin": p.origin,
        "open": p.open,
    }


def observe(game: Rattenkrieg, s: RKState, side: str) -> dict[str, Any]:
    b = game.board
    units = []
    for u in s.units:
        own = b.side_of[u.id] == side
        entry: dict[str, Any] = {
            "id": u.id,
            "area": u.area,
            "steps": len(u.steps),
            "flipped": u.flipped,
            "isolated": u.isolated,
        }
        entry["cards"] = sort_cards(u.steps if own else u.steps & s.exposed)
        units.append(entry)
    c = s.combat
    combat = None
    if c is not None:
        combat = {
            "area": c.area,
            "attacker": c.attacker,
            "defender": c.defender,
            "step": c.step.value,
            "attack": _placed(c.attack, side),
            "defence": _placed(c.defence, side),
            "spent": [_placed(p, side) for p in c.spent],
            "support": c.support,
            "raiser": c.raiser,
            "raises": c.raises,
            "effects": list(c.effects),
            "refight": c.refight,
            "loser": c.loser,
            "isolation": c.isolation,
            "staying": list(c.staying),
        }
    return {
        **public_fields(game, s),
        "game": game.name,
        "side": side,
        "to_move": game.to_move(s),
        "units": units,
        "hand": sort_cards(s.hand(side)),
        "hand_counts": {"GE": len(s.hand_ge), "SU": len(s.hand_su)},
        "deck_count": len(s.deck),
        "combat": combat,
    }
