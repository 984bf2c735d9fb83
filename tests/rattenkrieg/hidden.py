"""Resampling what one side cannot see, consistently with what it sees (for no-leak tests)."""

from __future__ import annotations

import random

import attrs

from specs.rattenkrieg.rules.state import Combat, Placed, RKState, other
from tests.rattenkrieg.positions import B


def resample(s: RKState, side: str, rng: random.Random) -> RKState:
    """Shuffle every card `side` cannot see among the places that hold hidden cards, keeping
    how many cards each place holds: the opponent's hand and (unexposed) steps, the opponent's
    face-down cards on the table, the deck, and the face-down cards of the discard pile and of
    the cards out of play (`discard_faces`)."""
    opp = other(side)
    hidden_discards = s.discards - s.face_up
    hidden_removed = s.removed - s.face_up
    pool: list[str] = [*s.hand(opp), *s.deck, *hidden_discards, *hidden_removed]
    for u in s.units:
        if B.side_of[u.id] == opp:
            pool += list(u.steps - s.exposed)
    c = s.combat
    table: list[Placed] = []
    if c is not None:
        table = [p for p in (c.attack, c.defence, *c.spent) if p is not None]
        pool += [p.card for p in table if p.side == opp and not p.open]
    rng.shuffle(pool)

    def take(n: int) -> frozenset[str]:
        out = frozenset(pool[:n])
        del pool[:n]
        return out

    s = s.with_hand(opp, take(len(s.hand(opp))))
    units = []
    for u in s.units:
        if B.side_of[u.id] == opp:
            kept = u.steps & s.exposed
            units.append(attrs.evolve(u, steps=kept | take(len(u.steps - kept))))
        else:
            units.append(u)
    s = attrs.evolve(s, units=tuple(units))
    if c is not None:

        def swap(p: Placed | None) -> Placed | None:
            if p is None or p.side != opp or p.open:
                return p
            return attrs.evolve(p, card=take(1).__iter__().__next__())

        new: Combat = attrs.evolve(
            c,
            attack=swap(c.attack),
            defence=swap(c.defence),
            spent=tuple(q for p in c.spent if (q := swap(p)) is not None),
        )
        s = attrs.evolve(s, combat=new)
    deck = take(len(s.deck))
    discards = (s.discards & s.face_up) | take(len(hidden_discards))
    removed = (s.removed & s.face_up) | take(len(hidden_removed))
    assert not pool
    return attrs.evolve(s, deck=deck, discards=discards, removed=removed)
