"""Moving cards between the deck, the discard pile, hands and steps (RKS-3.4.2, RKS-3.4.3).

The deck is the set of cards nobody has seen, in no order: drawing is choosing one of them with
equal probability (a chance action), and a reshuffle is only the discard pile becoming the deck.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

import attrs

from specs.rattenkrieg.cards import sort_cards
from specs.rattenkrieg.state import RKState


def can_draw(s: RKState) -> bool:
    """A card can be drawn: the deck has one, or the discards can become the deck (RKS-3.4.3)."""
    return bool(s.deck or s.discards)


def refresh_deck(s: RKState) -> RKState:
    """When the deck is used up, the discard pile at that point becomes the new deck (RKS-3.4.3)."""
    if s.deck or not s.discards:
        return s
    return attrs.evolve(s, deck=s.discards, discards=frozenset())


def draw_outcomes(s: RKState) -> list[tuple[str, Fraction]]:
    """Each card of the deck with probability 1/len(deck): the deck is unordered."""
    p = Fraction(1, len(s.deck))
    return [(c, p) for c in sort_cards(s.deck)]


def discard(s: RKState, cards: Iterable[str], *, steps: bool = False) -> RKState:
    """Cards to the discard pile; step cards leave the game instead by one reading of
    AMB-RKS-7 (iv) (`used_steps=removed`)."""
    cards = frozenset(cards)
    if not cards:
        return s
    if steps and s.variant.is_("used_steps", "removed"):
        return attrs.evolve(s, removed=s.removed | cards)
    return attrs.evolve(s, discards=s.discards | cards)
