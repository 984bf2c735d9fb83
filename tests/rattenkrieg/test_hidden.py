"""Hidden information: what each side sees, and that the side to move's legal actions depend
on nothing else (RKS-3.3.3, RKS-3.4.1, RKS-8.4.1, RKS-8.5.2, RKS-9.8.1)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernel.chance import sample
from kernel.game import CHANCE
from specs.rattenkrieg.actions import Move, Play
from specs.rattenkrieg.cards import DECK
from specs.rattenkrieg.state import GE, SU, RKState, other
from tests.rattenkrieg.hidden import resample
from tests.rattenkrieg.positions import CATALOGUE, GAME, GREAR, active, run
from tools import cli

OPTIONS = [(o.name, [r.name for r in o.readings]) for o in CATALOGUE.options]


def test_rks_3_3_3_and_3_4_1_a_side_sees_its_own_cards_only() -> None:
    """RKS-3.3.3: each player sees only his own units' step cards; RKS-3.4.1: hands are hidden;
    the opponent's counts, the discards and the deck size are public, the deck is not."""
    s = active(
        "71",
        {"71": (GREAR, ["2C", "3C"]), "Rifle-2": ("orlovka", ["4H"])},
        hands={GE: ["5C"], SU: ["6H", "7H"]},
        discards=["8S"],
    )
    ge, su = GAME.observe(s, GE), GAME.observe(s, SU)
    assert ge["hand"] == ["5C"] and su["hand"] == ["6H", "7H"]
    assert ge["hand_counts"] == su["hand_counts"] == {"GE": 1, "SU": 2}
    by_id = {u["id"]: u for u in ge["units"]}
    assert by_id["71"]["cards"] == ["2C", "3C"] and by_id["Rifle-2"]["cards"] == []
    assert by_id["Rifle-2"]["steps"] == 1
    assert ge["discards"] == ["8S"] and ge["deck_count"] == len(s.deck)
    assert "deck" not in ge and not set(json.dumps(ge).split('"')) & {"6H", "7H", "4H"}


def test_rks_8_4_1_a_card_put_down_is_face_down_for_the_opponent() -> None:
    """RKS-8.4.1, RKS-8.5.2: the attacker's card lies face down: the defender sees that a card
    came from the hand, not which."""
    s = active("71", {"71": (GREAR, ["2C"]), "Rifle-2": ("orlovka", ["4H"])}, hands={GE: ["5C"]})
    s = run(s, Move("orlovka"), Play("5C"))
    seen = GAME.observe(s, SU)["combat"]["attack"]
    assert seen == {"side": GE, "card": "face-down", "origin": "hand", "open": False}
    assert GAME.observe(s, GE)["combat"]["attack"]["card"] == "5C"


def _positions(seed: int, choices: dict[str, str], steps: int) -> list[RKState]:
    """Decision positions met along a random playout of a variant."""
    rng = random.Random(seed)
    s = GAME.initial_state(CATALOGUE.variant("standard", choices))
    out = []
    for _ in range(steps):
        side = GAME.to_move(s)
        if side is None:
            break
        if side == CHANCE:
            s = GAME.apply(s, sample(GAME.chance_outcomes(s), rng))
            continue
        out.append(s)
        s = GAME.apply(s, rng.choice(list(GAME.legal_actions(s))))
    return out


variants = st.fixed_dictionaries({name: st.sampled_from(readings) for name, readings in OPTIONS})


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**31), choices=variants, data=st.data())
def test_legal_actions_are_a_function_of_the_observation(
    seed: int, choices: dict[str, str], data: st.DataObject
) -> None:
    """RKS-3.3.3, RKS-3.4.1, RKS-8.4.1: resampling everything the side to move cannot see (the
    opponent's hand, steps and face-down cards, and the deck), consistently with what it sees,
    changes neither its observation nor its legal actions."""
    changed = 0
    positions = _positions(seed, choices, 700)
    for s in positions[:: max(1, len(positions) // 40)]:
        side = GAME.to_move(s)
        assert side in (GE, SU)
        rng = random.Random(data.draw(st.integers(0, 2**31)))
        view, legal = GAME.observe(s, side), list(GAME.legal_actions(s))
        for _ in range(2):
            t = resample(s, side, rng)
            changed += t != s
            assert GAME.to_move(t) == side
            assert GAME.observe(t, side) == view
            assert list(GAME.legal_actions(t)) == legal
            assert GAME.state_from_json(GAME.state_to_json(t)) == t  # still a legal position
    assert changed  # the resampling did move hidden cards


def _visible(state: dict[str, object], side: str) -> set[str]:
    s = GAME.state_from_json(state)
    view = GAME.observe(s, side)
    text = json.dumps(view)
    return {c for c in DECK if f'"{c}"' in text}


def test_cli_legal_prints_nothing_the_side_may_not_see(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """RKS-3.3.3: `wargame legal rattenkrieg STATE --side S` names only cards S may see, and
    nothing when S is not to move."""
    for seed in range(3):
        for s in _positions(seed, {}, 400)[::25]:
            side = GAME.to_move(s)
            assert side in (GE, SU)
            state = GAME.state_to_json(s)
            path = tmp_path / "state.json"
            path.write_text(json.dumps(state), encoding="utf-8")
            for asking in (side, other(side)):
                assert cli.main(["legal", "rattenkrieg", str(path), "--side", asking]) == 0
                out = capsys.readouterr().out
                cards = set(re.findall(r'"card": "([0-9AJQK]+[SCDH])"', out))
                cards |= {c for c in DECK if f'"{c}"' in out}
                assert cards <= _visible(state, asking), (asking, cards - _visible(state, asking))
                if asking != side:
                    assert json.loads(out)["actions"] == []
