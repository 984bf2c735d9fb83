"""The 52 playing cards (RKS-2.4.1): ids, colours, numbers, and what a face card means as an
event for each side (RKS-9.1.1, RKS-9.1.2).

A card is its rank followed by its suit letter: "AS", "10H", "QD". Cards are distinct, so a
pile is a frozenset and a draw from the deck is one of its cards with equal probability.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import pairwise

from kernel.variants import Variant

SUITS = ("S", "C", "D", "H")  # spades, clubs, diamonds, hearts
BLACK = frozenset({"S", "C"})  # RKS-2.4.1: spades and clubs are black, the others red
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
FACES = frozenset({"J", "Q", "K"})
DECK: frozenset[str] = frozenset(r + s for s in SUITS for r in RANKS)  # no joker (RKS-2.4.1)
_ORDER = {r + s: (i, j) for i, s in enumerate(SUITS) for j, r in enumerate(RANKS)}

MAX_HAND = 4
"""RKS-3.4.1 (4 Soviet cards at set-up), RKS-10.1.2 and RKS-10.2.1 (refill to 3, or 4 with
Mamayev Kurgan): no hand ever holds more (hands only grow by those deals and refills)."""


def rank(card: str) -> str:
    return card[:-1]


def suit(card: str) -> str:
    return card[-1]


def is_black(card: str) -> bool:
    return card[-1] in BLACK


def is_face(card: str) -> bool:
    return rank(card) in FACES


def sort_cards(cards: Iterable[str]) -> list[str]:
    """Cards in a stable reading order (by suit, then rank), for JSON and logs."""
    if not cards:
        return []
    return sorted(cards, key=_ORDER.__getitem__)


def in_order(cards: Sequence[str]) -> bool:
    """Whether cards are distinct and listed in the reading order of `sort_cards`, the one
    order a pile is written in (so a position has one JSON text)."""
    return all(_ORDER[a] < _ORDER[b] for a, b in pairwise(cards))


def number(card: str, variant: Variant) -> int | None:
    """The card's number in judgement (RKS-8.7.1) and bombardment (RKS-9.2.2); None when it
    has none. Face cards have no number and never hit (RKS-8.4.2); the Ace is AMB-RKS-4."""
    r = rank(card)
    if r in FACES:  # RKS-8.4.2: a face card has no number, a bluff that never hits
        return None
    if r == "A":
        return {"one": 1, "fourteen": 14}.get(variant.reading("ace"))
    return int(r)


# Event meanings by side, suit colour and rank (RKS-9.1.1, RKS-9.1.2).
_GERMAN = {("black", "J"): "air_support", ("black", "Q"): "assault_gun", ("black", "K"): "engineer"}
_SOVIET = {("red", "J"): "sniper", ("red", "Q"): "molotov", ("red", "K"): "chuikov"}


def event_of(side: str, card: str) -> str | None:
    """What a face card does when `side` plays it as an event: German black J/Q/K are Air Force
    Support, Assault Gun, Combat Engineer and red ones Bombardment (RKS-9.1.1); Soviet red J/Q/K
    are Sniper, Molotov Cocktail, General Chuikov and black ones Bombardment (RKS-9.1.2)."""
    if not is_face(card):
        return None
    colour = "black" if is_black(card) else "red"
    table = _GERMAN if side == "GE" else _SOVIET
    return table.get((colour, rank(card)), "bombardment")
