"""Rattenkrieg's invariants of the cards (RKS-P-CARDS, RKS-P-STEPS, RKS-P-HAND, RKS-P-FACES):
each of the 52 in one place, the units' steps and the hands within their maxima, and the faces
of the discards, the exposed and the removed cards as the readings make them.
"""

from __future__ import annotations

from collections.abc import Iterable

from specs.rattenkrieg.formal.breach import Breach
from specs.rattenkrieg.formal.invariants_combat import on_table
from specs.rattenkrieg.rules import sequence
from specs.rattenkrieg.rules.board import Board
from specs.rattenkrieg.rules.cards import DECK, MAX_HAND, sort_cards
from specs.rattenkrieg.rules.state import GE, SU, Phase, RKState


def cards(b: Board, s: RKState) -> Breach | None:
    """Each of the 52 cards lies in exactly one place, and no other card lies anywhere
    (RKS-2.4.1, RKS-3.4.2, RKS-3.4.3)."""
    places: list[tuple[str, Iterable[str]]] = [
        ("deck", s.deck),
        ("discards", s.discards),
        ("removed", s.removed),
        ("hands.GE", s.hand_ge),
        ("hands.SU", s.hand_su),
        *((f"units[{i}].steps", u.steps) for i, u in enumerate(s.units)),
    ]
    if s.combat is not None:
        places.append(("combat", [p.card for p in on_table(s.combat)]))
    seen: dict[str, str] = {}
    for field, pile in places:
        for card in pile:
            if card not in DECK:
                return Breach(field, "RKS-2.4.1", f"{card!r} is not one of the 52 cards")
            if card in seen:
                return Breach(field, "RKS-2.4.1", f"{card} is both in {seen[card]} and here")
            seen[card] = field
    if len(seen) != len(DECK):
        lost = sort_cards(DECK - set(seen))
        return Breach("deck", "RKS-2.4.1", f"cards are missing: {lost}")
    return None


def steps(b: Board, s: RKState) -> Breach | None:
    """No unit has more steps than at set-up (RKS-3.3.1, RKS-7.5.3, RKS-8.12.1)."""
    for i, u in enumerate(s.units):
        most = b.specs[u.id].steps
        if len(u.steps) > most:
            clause = "RKS-8.12.1" if b.is_tank(u.id) else "RKS-7.5.3"
            return Breach(
                f"units[{i}].steps",
                clause,
                f"{u.id} has {len(u.steps)} steps, more than its original {most}",
            )
    return None


def hands(b: Board, s: RKState) -> Breach | None:
    """No hand holds more than 4 cards, nor before the first Recruiting Phase more than was
    dealt (RKS-3.4.1, RKS-10.1.2, RKS-10.2.1)."""
    first_turn = s.turn == 1 and s.phase in (Phase.SETUP, Phase.PLAYER_TURNS)
    for side in (GE, SU):
        n = len(s.hand(side))
        if n > MAX_HAND:
            return Breach(
                f"hands.{side}",
                "RKS-10.2.1",
                f"{n} cards: no hand holds more than {MAX_HAND} (RKS-3.4.1, RKS-10.1.2)",
            )
        if first_turn and n > sequence.START_HAND[side]:
            return Breach(
                f"hands.{side}",
                "RKS-3.4.1",
                f"{n} cards before the first Recruiting Phase: {side} was dealt "
                f"{sequence.START_HAND[side]} and hands do not grow in Player Turns",
            )
    return None


def faces(b: Board, s: RKState) -> Breach | None:
    """The face-up cards are out of play, all or none of them as `discard_faces` says; exposed
    and removed cards exist only by the readings of AMB-RKS-7 that make them (RKS-3.3.3,
    RKS-3.4.3, RKS-8.7.1)."""
    out_of_play = s.discards | s.removed
    if not s.face_up <= out_of_play:
        return Breach(
            "face_up",
            "RKS-3.4.3",
            f"{sort_cards(s.face_up - out_of_play)} lie face up but are not discarded",
        )
    reading = s.variant.reading("discard_faces")
    if reading == "face_up" and s.face_up != out_of_play:
        return Breach("face_up", "RKS-3.4.3", "every discard lies face up (discard_faces)")
    if reading == "face_down" and s.face_up:
        return Breach("face_up", "RKS-3.3.3", "every discard lies face down (discard_faces)")
    on_units = frozenset(c for u in s.units for c in u.steps)
    if not s.exposed <= on_units:
        return Breach("exposed", "RKS-3.3.3", "only step cards can be exposed")
    if s.exposed and not s.variant.is_("played_step", "returned"):
        return Breach(
            "exposed",
            "RKS-3.3.3",
            "step cards are seen by both sides only when a judged step goes back "
            "(played_step=returned, AMB-RKS-7 i)",
        )
    if s.removed and not s.variant.is_("used_steps", "removed"):
        return Breach(
            "removed",
            "RKS-3.4.3",
            "cards leave the game only by used_steps=removed (AMB-RKS-7 iv)",
        )
    return None
