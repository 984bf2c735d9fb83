"""Cards and chance: the deck is the unseen cards, every draw a chance step with exact
probability, the discards become the deck when it is used up, and replay is exact
(RKS-3.4.3, RKS-2.4.1)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from kernel.errors import IllegalAction
from kernel.playout import play, replay
from specs.rattenkrieg.formal.properties import cards_accounted
from specs.rattenkrieg.rules.actions import Draw, Recruit
from specs.rattenkrieg.rules.cards import DECK
from specs.rattenkrieg.rules.state import SU
from tests.rattenkrieg.positions import GAME, SREAR, draw, position, run, unit


def test_rks_3_4_3_the_discards_become_the_deck_when_it_is_used_up() -> None:
    """RKS-3.4.3: when the last card of the deck is drawn, the discards at that point form the
    new deck; the next draw is one of them, each with probability 1/len."""
    rest = sorted(DECK - {"2S", "3S"})
    keep, discards = rest[0], rest[1:]
    s = position({"13Gds": (SREAR, ["2S", "3S"])}, discards=discards, player=SU)
    assert s.deck == {keep}
    s = run(s, Recruit("13Gds"))
    assert GAME.chance_outcomes(s) == [(Draw(keep), Fraction(1))]
    s = draw(s, keep)
    assert keep in unit(s, "13Gds").steps
    assert s.deck == frozenset(discards) and not s.discards  # the reshuffle
    assert cards_accounted(s)


def test_rks_3_4_3_a_draw_offers_only_cards_of_the_deck() -> None:
    """RKS-3.4.3: a card that is not in the deck cannot be drawn."""
    s = position({"13Gds": (SREAR, ["2S"])}, hands={SU: ["3S"]}, player=SU)
    s = run(s, Recruit("13Gds"))
    outcomes = GAME.chance_outcomes(s)
    assert {a.card for a, _ in outcomes} == set(s.deck)  # type: ignore[union-attr]
    assert sum(p for _, p in outcomes) == 1
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, Draw("3S"))
    assert err.value.clauses == ("RKS-3.4.3",)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_replay_from_the_action_log_is_exact(seed: int) -> None:
    """RKS-3.4.3, RKS-2.4.1: no hidden randomness: the chance actions name their cards, so the
    log replays to the same final state."""
    start = GAME.initial_state(GAME.presets()["standard"])
    result = play(GAME, start, random.Random(seed))
    assert replay(GAME, start, list(result.actions)) == result.final
    assert cards_accounted(result.final)
