"""Moving cards between the deck, the discard pile, hands and steps (RKS-3.4.2, RKS-3.4.3).

The deck is the set of cards nobody has seen, in no order: drawing is choosing one of them with
equal probability (a chance action), and a reshuffle is only the discard pile becoming the deck.

Which discarded cards both players see is the `discard_faces` option (found here: the text
never says discards lie face up, and cards are revealed only at judgement, RKS-8.7.1): every
card (`face_up`), none (`face_down`), or only those the rules show to both players, the cards
judged, events played and bombardment draws (`revealed_only`).
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

import attrs

from specs.rattenkrieg.rules.cards import sort_cards
from specs.rattenkrieg.rules.state import RKState


def can_draw(s: RKState) -> bool:
    """A card can be drawn: the deck has one, or the discards can become the deck (RKS-3.4.3)."""
    return bool(s.deck or s.discards)


def refresh_deck(s: RKState) -> RKState:
    """When the deck is used up, the discard pile at that point becomes the new deck, shuffled
    face down (RKS-3.4.3)."""
    if s.deck or not s.discards:
        return s
    return attrs.evolve(s, deck=s.discards, discards=frozenset(), face_up=s.face_up - s.discards)


def draw_outcomes(s: RKState) -> list[tuple[str, Fraction]]:
    """Each card of the deck with probability 1/len(deck): the deck is unordered."""
    p = Fraction(1, len(s.deck))
    return [(c, p) for c in sort_cards(s.deck)]


def shows(s: RKState, revealed: bool) -> bool:
    """Whether cards discarded now lie face up, by the `discard_faces` reading: `revealed` says
    the rules have just shown them to both players (RKS-8.7.1, RKS-9.1.3, RKS-9.2.2)."""
    reading = s.variant.reading("discard_faces")
    return reading == "face_up" or (revealed and reading == "revealed_only")


def discard(
    s: RKState, cards: Iterable[str], *, steps: bool = False, revealed: bool = False
) -> RKState:
    """Cards to the discard pile, face up or down by `discard_faces` (`revealed`: the rules
    have just shown them to both players); step cards leave the game instead by one reading of
    AMB-RKS-7 (iv) (`used_steps=removed`), face up or down the same way."""
    cards = frozenset(cards)
    if not cards:
        return s
    face_up = s.face_up | cards if shows(s, revealed) else s.face_up
    if steps and s.variant.is_("used_steps", "removed"):
        return attrs.evolve(s, removed=s.removed | cards, face_up=face_up)
    return attrs.evolve(s, discards=s.discards | cards, face_up=face_up)
