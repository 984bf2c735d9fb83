"""A full Rattenkrieg state drawn from one side's observation alone, for searches that must not
see what their side may not (RKS-3.3.3, RKS-3.4.1, RKS-8.4.1, RKS-8.5.2).

What the observation hides is which card lies where among the cards the side has not seen: the
opponent's hand, the opponent's step cards not exposed (AMB-RKS-7), the face-down discarded and
removed cards (`discard_faces`), the deck (unordered: a draw is any of its cards, RKS-3.4.3) and
the opponent's face-down cards on the combat table. Those unseen cards are dealt to these places
by one uniform shuffle, so every placement the observation allows is equally likely.

Everything else is in the observation and is copied, so the draw is exact: which step cards
both players have seen (`exposed`, AMB-RKS-7) and a combat record's `cause` (AMB-RKS-16) are
public and observed. A drawn state is returned only if its observation is the one given.

What the side learnt earlier and no longer sees (cards it saw judged, the order of the draws)
is ignored: the draw is uniform given the current observation only.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import attrs

from kernel.errors import ImpossiblePosition
from specs.rattenkrieg.io.codec_decoding import state_from_json, state_from_record
from specs.rattenkrieg.io.observation import FACE_DOWN, observe
from specs.rattenkrieg.io.wire import StateRecord, decode
from specs.rattenkrieg.rules.cards import DECK, sort_cards
from specs.rattenkrieg.rules.state import GE, SU, RKState, other

if TYPE_CHECKING:
    from specs.rattenkrieg.rules.play import RattenkriegRules

_OBSERVATION_ONLY = (
    "game",
    "side",
    "to_move",
    "hand",
    "hand_counts",
    "deck_count",
    "discard_count",
    "removed_count",
    "units",
    "combat",
    "exposed",
)


def _placed_cards(combat: Mapping[str, Any] | None) -> list[Mapping[str, Any]]:
    if combat is None:
        return []
    return [p for p in (combat["attack"], combat["defence"], *combat["spent"]) if p is not None]


def resample(
    game: RattenkriegRules, observation: Mapping[str, Any], side: str, rng: random.Random
) -> RKState:
    """A state `side` cannot tell from the real one: `game.observe(result, side) ==
    observation`, and the position check accepts it."""
    drawn = state_from_json(game, _document(game, observation, side, rng))
    if observe(game, drawn, side) != observation:
        raise ImpossiblePosition("no state has this observation", field="observation")
    return drawn


def sampler(
    game: RattenkriegRules, observation: Mapping[str, Any], side: str
) -> Callable[[random.Random], RKState]:
    """`resample` for one observation, prepared once: the first state is the strict draw's;
    each later one takes the parts the observation fixes from it and the dealt cards from its
    own deal, so it is the state `resample` would return from the same generator, without the
    decoding or the checks (the deal is exact: the tests hold the two equal)."""
    first: list[RKState] = []
    hidden_on_table = any(p["card"] == FACE_DOWN for p in _placed_cards(observation["combat"]))

    def draw(rng: random.Random) -> RKState:
        if not first:
            first.append(resample(game, observation, side, rng))
            return first[0]
        data = _document(game, observation, side, rng)
        if hidden_on_table:  # a face-down card on the table: the combat record is drawn too
            return state_from_record(game, decode(data, StateRecord))
        base = first[0]
        units = tuple(
            attrs.evolve(u, steps=frozenset(d["steps"]))
            for u, d in zip(base.units, data["units"], strict=True)
        )
        hands = data["hands"]
        return attrs.evolve(
            base,
            units=units,
            deck=frozenset(data["deck"]),
            discards=frozenset(data["discards"]),
            removed=frozenset(data["removed"]),
            hand_ge=frozenset(hands[GE]),
            hand_su=frozenset(hands[SU]),
        )

    return draw


def _document(
    game: RattenkriegRules, observation: Mapping[str, Any], side: str, rng: random.Random
) -> dict[str, Any]:
    """One deal of the unseen cards, as a state document."""
    o = observation
    opp = other(side)
    combat = o["combat"]
    known: set[str] = set(o["hand"]) | set(o["discards"]) | set(o["removed"])
    for u in o["units"]:
        known |= set(u["cards"])
    known |= {p["card"] for p in _placed_cards(combat) if p["card"] != FACE_DOWN}
    pool = sort_cards(DECK - known)
    rng.shuffle(pool)

    def deal(n: int) -> list[str]:
        if n < 0 or n > len(pool):
            raise ImpossiblePosition(f"the observation asks for {n} unseen cards", field="deck")
        out = pool[len(pool) - n :]
        del pool[len(pool) - n :]
        return out

    hands = {side: list(o["hand"]), opp: deal(o["hand_counts"][opp])}
    units = []
    for u in o["units"]:
        cards = list(u["cards"])
        if game.board.side_of[u["id"]] != side:
            cards += deal(u["steps"] - len(cards))
        units.append(
            {
                "id": u["id"],
                "area": u["area"],
                "steps": sort_cards(cards),
                "flipped": u["flipped"],
                "isolated": u["isolated"],
            }
        )
    discards = [*o["discards"], *deal(o["discard_count"] - len(o["discards"]))]
    removed = [*o["removed"], *deal(o["removed_count"] - len(o["removed"]))]
    table = None
    if combat is not None:
        table = dict(combat)

        def placed(p: Mapping[str, Any] | None) -> dict[str, Any] | None:
            if p is None:
                return None
            card = p["card"] if p["card"] != FACE_DOWN else deal(1)[0]
            return {**p, "card": card}

        table["attack"] = placed(combat["attack"])
        table["defence"] = placed(combat["defence"])
        table["spent"] = [placed(p) for p in combat["spent"]]
    deck = deal(o["deck_count"])
    if pool:
        raise ImpossiblePosition(f"{len(pool)} cards have no place", field="deck")
    data = {k: v for k, v in o.items() if k not in _OBSERVATION_ONLY}
    data.update(
        format="wargame-kernel/state",
        version=1,
        game="rattenkrieg",
        units=units,
        deck=sort_cards(deck),
        discards=sort_cards(discards),
        removed=sort_cards(removed),
        face_up=sort_cards([*o["discards"], *o["removed"]]),
        hands={s: sort_cards(h) for s, h in hands.items()},
        exposed=sort_cards(o["exposed"]),  # AMB-RKS-7: seen by both, observed
        combat=table,  # its cause observed (AMB-RKS-16)
    )
    return data
