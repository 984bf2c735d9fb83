"""Components, the data facts, set-up and the deal (RKS-1.1.1 to RKS-3.6.1)."""

from __future__ import annotations

import typing
from fractions import Fraction
from pathlib import Path

import pytest

from kernel.errors import IllegalAction, InvalidInput
from kernel.game import CHANCE
from specs.rattenkrieg.data.loader import DATA_FILE
from specs.rattenkrieg.io.wire import Card
from specs.rattenkrieg.rules.actions import Draw, Place
from specs.rattenkrieg.rules.cards import DECK, event_of, is_black, is_face, number
from specs.rattenkrieg.rules.state import GE, SU, Phase, Stage
from tests.rattenkrieg.positions import (
    ARROWS,
    CATALOGUE,
    GAME,
    GREAR,
    MK,
    SREAR,
    TW,
    B,
    active,
    legal,
    run,
)

STANDARD = GAME.presets()["standard"]


def setup_done(seed_cards: bool = True) -> object:
    """The position after the Rifles are placed in data order and every card is dealt."""
    s = GAME.initial_state(STANDARD)
    while s.stage == Stage.PLACE:
        s = GAME.apply(s, legal(s)[0])
    while GAME.to_move(s) == CHANCE:
        s = GAME.apply(s, GAME.chance_outcomes(s)[0][0])
    return s


def test_rks_1_1_1_two_players_german_and_soviet() -> None:
    """RKS-1.1.1: one player is the German Army, the other the Soviet Army."""
    assert GAME.sides == (GE, SU)
    assert {B.side_of[u.id] for u in B.data.units} == {GE, SU}


def test_data_facts_all_hold_for_the_shipped_data() -> None:
    """RKS-2.1.1, RKS-2.1.2, RKS-2.1.3, RKS-2.3.1, RKS-3.1.1, RKS-3.1.2, RKS-3.1.3, RKS-3.2.1,
    RKS-3.3.1, RKS-3.4.2, RKS-3.5.1, RKS-3.5.2, RKS-6.1.1, RKS-6.2.1, RKS-8.12.1: every fact the
    text states about the components holds for the data."""
    results = GAME.data_facts()
    assert results and all(r.ok for r in results), [r for r in results if not r.ok]
    clauses = {r.clause for r in results}
    assert {"RKS-2.1.2", "RKS-3.1.1", "RKS-3.5.2", "RKS-3.3.1", "RKS-3.2.1"} <= clauses


@pytest.mark.parametrize(
    ("old", "new", "clause"),
    [
        (
            'id = "16Pz"\nname = "16th Panzer Division"\nside = "GE"\ntype = "panzer"\n'
            "strength = 7\narrives = 2",
            'id = "16Pz"\nname = "16th Panzer Division"\nside = "GE"\n'
            'type = "panzer"\nstrength = 7\narrives = 3',
            "RKS-6.1.1",
        ),
        (
            'kind = "city"\nsource = "provisional"\nprovisional = ["id", "name", "kind"]\n'
            'note = "The southern',
            'kind = "normal"\nsource = "provisional"\nprovisional = '
            '["id", "name", "kind"]\nnote = "The southern',
            "RKS-3.1.1",
        ),
        (
            '["soviet-rear", "city-centre"],',
            '["soviet-rear", "city-centre"], ["soviet-rear", "grain-elevator"],',
            "RKS-3.5.2",
        ),
        ("arrives = 3", "arrives = 4", "RKS-6.2.1"),
        ("steps = 1\narrives = 2", "steps = 2\narrives = 2", "RKS-3.3.1"),
        ('setup = "tractor-works"', 'setup = "red-october"', "RKS-3.1.3"),
    ],
)
def test_a_transcription_that_breaks_a_stated_fact_is_named_by_clause(
    tmp_path: Path, old: str, new: str, clause: str
) -> None:
    """RKS-6.1.1 (16Pz on Turn 2), RKS-3.1.1 (one Rifle per Normal Area), RKS-3.5.2 (three
    arrow Areas), RKS-6.2.1, RKS-3.3.1 (100J has one step), RKS-3.1.3: a data file that breaks
    a fact fails that fact; the provisional records are listed with their notes."""
    text = DATA_FILE.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "map.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    failed = {r.clause for r in GAME.data_facts(path) if not r.ok}
    assert failed == {clause}
    assert all(p.note for _, p in GAME.provisional(path))


def test_rks_2_1_1_to_2_1_3_the_map_regions_and_areas() -> None:
    """RKS-2.1.1: German Rear, Russian Rear and Stalingrad; RKS-2.1.2: 12 Areas; RKS-2.1.3:
    Normal (grey) and City (red) Areas; RKS-3.5.2: the Soviet Rear touches exactly 3."""
    assert B.is_rear(GREAR) and B.is_rear(SREAR)
    assert len(B.stalingrad) == 12
    assert {B.areas[a].kind for a in B.stalingrad} == {"normal", "city"}
    assert set(B.adjacent[SREAR]) == set(ARROWS) and len(ARROWS) == 3
    assert TW in B.stalingrad and MK in B.stalingrad


def test_rks_2_2_1_no_stacking_limit() -> None:
    """RKS-2.2.1: any number of units may be in one Area: a sixth German unit moves in."""
    crowd = {u: "orlovka" for u in ("14Pz", "24Pz", "29Mot", "71", "295")}
    s = active("389", {**crowd, "389": GREAR}, control={"orlovka": GE})
    s = run(s, *[a for a in legal(s) if getattr(a, "to", None) == "orlovka"][:1])
    assert sum(1 for _ in B.units_in(s, "orlovka")) == 6


def test_rks_2_3_1_every_unit_has_a_name_and_strength() -> None:
    """RKS-2.3.1: name and combat strength printed on each unit."""
    assert all(u.name and u.strength >= 1 for u in B.data.units)


def test_rks_2_4_1_a_deck_of_52_without_jokers() -> None:
    """RKS-2.4.1: 52 cards; spades and clubs black; J, Q, K face cards with no number; the Ace
    is 1 by the standard reading of AMB-RKS-4. Anything else is not a card."""
    assert len(DECK) == 52
    assert is_black("7S") and is_black("7C") and not is_black("7D") and not is_black("7H")
    assert is_face("KH") and not is_face("10H")
    assert number("QS", STANDARD) is None and number("10H", STANDARD) == 10
    assert number("AS", STANDARD) == 1
    assert number("AS", CATALOGUE.variant("standard", {"ace": "fourteen"})) == 14
    assert number("AS", CATALOGUE.variant("standard", {"ace": "no_number"})) is None
    assert set(typing.get_args(Card)) == DECK  # the wire's closed set of cards
    with pytest.raises(InvalidInput) as err:
        GAME.action_from_json({"type": "pay", "card": "1S"})
    assert err.value.field == "action.card" and "RKS-2.4.1" in err.value.clauses
    assert event_of(GE, "5S") is None


def test_rks_3_1_1_the_soviet_player_places_one_rifle_on_every_normal_area() -> None:
    """RKS-3.1.1: the game starts with the Soviet player placing the Rifles one by one, one per
    Normal Area; a City Area gets none."""
    s = GAME.initial_state(STANDARD)
    assert GAME.to_move(s) == SU and s.stage.value == "place"
    first = B.normal_areas[0]
    assert {a.area for a in legal(s) if isinstance(a, Place)} == {first}
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, Place("Rifle-1", B.normal_areas[1]))
    assert err.value.clauses == ("RKS-3.1.1",)
    while s.stage == Stage.PLACE:
        s = GAME.apply(s, legal(s)[-1])
    rifles = {B.unit(s, r).area for r in B.rifles}
    assert rifles == set(B.normal_areas) and len(B.rifles) == len(B.normal_areas)


def test_rks_3_1_2_3_1_3_3_2_1_the_other_set_up_placements() -> None:
    """RKS-3.1.2: 13Gds in the Russian Rear; RKS-3.1.3: the T-34 in Tractor Works; RKS-3.2.1:
    six German units, not 16Pz or 100J, in the German Rear; RKS-3.6.1: all 12 Areas Soviet."""
    s = GAME.initial_state(STANDARD)
    assert B.unit(s, "13Gds").area == SREAR
    assert B.unit(s, "T-34").area == TW
    germans = {u.id for u in s.units if B.side_of[u.id] == GE and u.area == GREAR}
    assert len(germans) == 6 and not germans & {"16Pz", "100J"}
    assert B.unit(s, "16Pz").area is None and B.unit(s, "39Gds").area is None
    assert set(s.control) == {SU}


def test_rks_3_3_1_to_3_4_2_the_deal_of_steps_and_hands() -> None:
    """RKS-3.3.1: steps by type (Panzer 4, Motorized 3, Guards 3, Infantry 2, Rifle 1, T-34 0);
    RKS-3.3.4: a unit's steps are its step cards; RKS-3.4.1: 4 cards to the Soviet hand, 3 to
    the German; RKS-3.4.2: the rest is the deck. Each card is dealt by a chance step with
    probability 1/len(deck)."""
    s = GAME.initial_state(STANDARD)
    while s.stage == Stage.PLACE:
        s = GAME.apply(s, legal(s)[0])
    assert GAME.to_move(s) == CHANCE
    outcomes = GAME.chance_outcomes(s)
    assert len(outcomes) == 52 and {p for _, p in outcomes} == {Fraction(1, 52)}
    dealt = 0
    while GAME.to_move(s) == CHANCE:
        outcomes = GAME.chance_outcomes(s)
        assert {p for _, p in outcomes} == {Fraction(1, len(s.deck))}
        s = GAME.apply(s, outcomes[-1][0])
        dealt += 1
    want = {"panzer": 4, "motorized": 3, "guards": 3, "infantry": 2, "rifle": 1, "tank": 0}
    for u in s.units:
        if u.area is not None:
            assert len(u.steps) == want[B.specs[u.id].type], u.id
    assert len(s.hand_su) == 4 and len(s.hand_ge) == 3
    assert len(s.deck) == 52 - dealt
    assert s.phase == Phase.PLAYER_TURNS and GAME.to_move(s) == GE


def test_rks_3_3_2_a_dealt_step_stays_with_its_unit() -> None:
    """RKS-3.3.2: the card dealt to a unit is recorded as that unit's step and moves with it."""
    s = GAME.initial_state(STANDARD)
    while s.stage == Stage.PLACE:
        s = GAME.apply(s, legal(s)[0])
    first = s.draws[0].who
    s = GAME.apply(s, Draw("QH"))
    assert "QH" in B.unit(s, first).steps
    assert all("QH" not in u.steps for u in s.units if u.id != first)
