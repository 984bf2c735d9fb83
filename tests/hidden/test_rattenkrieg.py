"""Rattenkrieg's hidden cards over whole games (RKS-3.3.3, RKS-3.4.1, RKS-8.4.1, RKS-8.5.2;
AMB-RKS-7): two games whose deals differ only by a card of one hand and a card of the deck,
each played as the same choices with the other card, show the other side the same view, log
line and OpenSpiel strings and tensor after every step while both cards stay hidden from it.

The games are played under the presets' `discard_faces=revealed_only` (RKS-8.7.1: only the
judged cards are shown, the cards replaced by raises lie face down, and a side's log names only
what it may see) and under `face_up`, where every discard is open. Not under `face_down`:
there a card shown at judgement, played as an event or drawn for a bombardment is remembered,
not shown, and `rks_hidden_card`, a test of one state, cannot tell such a card from one never
seen, so it would blame the pair for what the rules show; the side's judgement line under
`face_down` is held by tests/rattenkrieg/test_play_log_raises.py."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from specs.rattenkrieg.rules.state import GE, SU, RKState
from tests.hidden.twins import RKS, rks_hidden_card, rks_pairs
from tools.testing.histories import compare, play_history, states, swap, twin

STANDARD = RKS.presets()["standard"]
FACE_UP = RKS.catalogue.variant("standard", {"discard_faces": "face_up"})
STEPS = 150


def _check(seed: int, side: str, pairs: int, game: Any = RKS, variant: Any = STANDARD) -> list[Any]:
    return [
        compare(game, side, history, other, hidden, spiel=variant)
        for history, other, hidden in rks_pairs(seed, side, STEPS, pairs, variant)
    ]


FACES = {"revealed_only": STANDARD, "face_up": FACE_UP}


@pytest.mark.parametrize("faces", sorted(FACES))
@pytest.mark.parametrize(("seed", "side"), [(1, SU), (2, GE), (3, SU), (4, GE), (4, SU)])
def test_rks_3_3_3_a_card_swapped_between_hand_and_deck_changes_nothing_the_other_side_sees(
    seed: int, side: str, faces: str
) -> None:
    """RKS-3.3.3, RKS-3.4.1, RKS-8.4.1: the hand is secret, the deck unseen and a card put in
    combat face down: swapping a card the opponent held with one of the deck leaves every view,
    log line and OpenSpiel string and tensor of `side` the same, step by step, whichever
    discards lie face up (`discard_faces`)."""
    reports = _check(seed, side, 3, variant=FACES[faces])
    assert reports, "no pair of hidden cards in this game"
    for r in reports:
        assert r.leak is None, str(r.leak)
    assert max(r.compared for r in reports) > 20  # the pair is compared over many steps


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(min_value=10, max_value=10_000),
    st.sampled_from([GE, SU]),
    st.sampled_from(sorted(FACES)),
)
def test_rks_3_3_3_no_seeded_game_leaks_a_hidden_card(seed: int, side: str, faces: str) -> None:
    """RKS-3.3.3, RKS-3.4.1: the same over games hypothesis chooses."""
    for r in _check(seed, side, 1, variant=FACES[faces]):
        assert r.leak is None, str(r.leak)


def test_rks_8_6_1_the_cards_replaced_by_raises_stay_hidden_in_the_standard_preset() -> None:
    """RKS-8.6.1, RKS-8.7.1, `discard_faces=revealed_only` (a leak the harness found): only the
    two judged cards are revealed; a German card replaced by a raise goes face down, so the
    judgement line of the Soviet's own step counts it and does not name it."""
    for r in _check(4, SU, 3, variant=STANDARD):
        assert r.leak is None, str(r.leak)


def _deck_in_the_log(game: Any) -> Any:
    """A planted leak: every log line also lists the deck, which nobody may see (RKS-3.4.1)."""
    leaky = copy.copy(game)
    describe = game.describe

    def told(s: RKState, a: Any) -> str:
        return f"{describe(s, a)} [deck: {' '.join(sorted(s.deck))}]"

    leaky.describe = told
    return leaky


def test_rks_3_4_1_a_planted_leak_of_the_deck_in_the_log_is_caught() -> None:
    """RKS-3.4.1 (planted weakness): a narration that lists the deck in every line tells the
    reader of its own lines which card the opponent drew; the harness finds it in the log."""
    found = [r.leak for r in _check(1, SU, 3, _deck_in_the_log(RKS)) if r.leak is not None]
    assert found and all(d.part == "log" for d in found)


def test_rks_a_twin_that_reveals_a_card_is_cut_where_the_card_is_shown() -> None:
    """The comparison stops once a swapped card is no longer hidden from the side (here the
    first card drawn into its own hand), so the pair is never blamed for what the rules show."""
    h = play_history(RKS, FACE_UP, random.Random(5), 80)
    seq = states(RKS, h)
    mine = next(
        (c for s in seq for c in sorted(s.hand(SU)) if rks_hidden_card(seq[0], SU, c)), None
    )
    assert mine is not None
    other = next(c for c in sorted(seq[0].deck) if c != mine)
    r = compare(RKS, SU, h, twin(h, swap(mine, other)), lambda s: rks_hidden_card(s, SU, mine))
    assert r.leak is None and r.reason in ("shown", "refused")
    assert r.compared <= next(i for i, s in enumerate(seq) if mine in s.hand(SU))
