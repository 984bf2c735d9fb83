"""What one side may know (RKS-3.3.3, RKS-3.4.1, RKS-8.4.1, RKS-8.5.2): its own hand and step
cards, the opponent's card counts, the public cards, and face-down cards as face down.

The deck's content is never shown, nor the opponent's hand or steps (except step cards both
players saw returned to a unit, AMB-RKS-7, listed in `exposed` whoever owns them). A combat's
cause is shown (AMB-RKS-16: the bombardment or air support that opened it was played openly).
Of the discard pile and the cards out of play, a side sees the sizes, and only the cards lying
face up by the `discard_faces` option: all of them, none, or those the rules revealed to both
players (at judgement, RKS-8.7.1; an event played; a bombardment's draw). A side's legal
actions depend only on this view.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from specs.rattenkrieg.io.codec import public_fields
from specs.rattenkrieg.io.wire import card, card_list, json_data
from specs.rattenkrieg.io.wire_observation import (
    HandCounts,
    ObservationRecord,
    ObservedCombat,
    ObservedPlaced,
    ObservedUnit,
)
from specs.rattenkrieg.rules.state import Placed, RKState

if TYPE_CHECKING:
    from specs.rattenkrieg.rules.play import RattenkriegRules

FACE_DOWN: Final = "face-down"


def _placed(p: Placed | None, side: str) -> ObservedPlaced | None:
    if p is None:
        return None
    seen = p.side == side or p.open
    return ObservedPlaced(
        side=p.side,  # type: ignore[arg-type]
        card=card(p.card) if seen else FACE_DOWN,
        origin=p.origin,
        open=p.open,
    )


def observation(game: RattenkriegRules, s: RKState, side: str) -> ObservationRecord:
    """The observation as a wire record (`wire_observation.ObservationRecord`)."""
    b = game.board
    units = [
        ObservedUnit(
            id=u.id,
            area=u.area,
            steps=len(u.steps),
            flipped=u.flipped,
            isolated=u.isolated,
            cards=card_list(u.steps if b.side_of[u.id] == side else u.steps & s.exposed),
        )
        for u in s.units
    ]
    c = s.combat
    combat = None
    if c is not None:
        combat = ObservedCombat(
            area=c.area,
            attacker=c.attacker,
            defender=c.defender,
            step=c.step.value,
            attack=_placed(c.attack, side),
            defence=_placed(c.defence, side),
            spent=[p for x in c.spent if (p := _placed(x, side)) is not None],
            support=c.support,
            raiser=c.raiser,  # type: ignore[arg-type]
            raises=c.raises,
            effects=list(c.effects),  # type: ignore[arg-type]
            refight=c.refight,
            loser=c.loser,  # type: ignore[arg-type]
            isolation=c.isolation,  # type: ignore[arg-type]
            staying=list(c.staying),
            cause=c.cause,  # type: ignore[arg-type]  # AMB-RKS-16: public
        )
    to_move = game.to_move(s)
    return ObservationRecord(
        **public_fields(game, s),
        discards=card_list(s.discards & s.face_up),
        discard_count=len(s.discards),
        removed=card_list(s.removed & s.face_up),
        removed_count=len(s.removed),
        game="rattenkrieg",
        side=side,  # type: ignore[arg-type]
        to_move=to_move,  # type: ignore[arg-type]
        units=units,
        hand=card_list(s.hand(side)),
        hand_counts=HandCounts(GE=len(s.hand_ge), SU=len(s.hand_su)),
        deck_count=len(s.deck),
        combat=combat,
        exposed=card_list(s.exposed),  # AMB-RKS-7: seen by both players
    )


def observe(game: RattenkriegRules, s: RKState, side: str) -> dict[str, Any]:
    data: dict[str, Any] = json_data(observation(game, s, side))
    return data
