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
from kernel.playout import decision_positions
from specs.rattenkrieg.rules.actions import (
    Accept,
    Action,
    Draw,
    Event,
    LoseStep,
    Move,
    Pay,
    Play,
    Stand,
)
from specs.rattenkrieg.rules.cards import DECK
from specs.rattenkrieg.rules.state import GE, SU, RKState, Stage, other
from tests.rattenkrieg.hidden import resample
from tests.rattenkrieg.positions import CATALOGUE, GAME, GREAR, B, active, run
from tools.cli import commands as cli

OPTIONS = [(o.name, [r.name for r in o.readings]) for o in CATALOGUE.options]


def test_rks_3_3_3_and_3_4_1_a_side_sees_its_own_cards_only() -> None:
    """RKS-3.3.3: each player sees only his own units' step cards; RKS-3.4.1: hands are hidden;
    the opponent's counts, the face-up discards (`discard_faces`) and the deck size are
    public, the deck is not."""
    s = active(
        "71",
        {"71": (GREAR, ["2C", "3C"]), "Rifle-2": ("orlovka", ["4H"])},
        hands={GE: ["5C"], SU: ["6H", "7H"]},
        discards=["8S", "9S"],
        face_up=frozenset({"8S"}),
    )
    ge, su = GAME.observe(s, GE), GAME.observe(s, SU)
    assert ge["hand"] == ["5C"] and su["hand"] == ["6H", "7H"]
    assert ge["hand_counts"] == su["hand_counts"] == {"GE": 1, "SU": 2}
    by_id = {u["id"]: u for u in ge["units"]}
    assert by_id["71"]["cards"] == ["2C", "3C"] and by_id["Rifle-2"]["cards"] == []
    assert by_id["Rifle-2"]["steps"] == 1
    assert ge["discards"] == ["8S"] and ge["discard_count"] == 2
    assert ge["deck_count"] == len(s.deck)
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
    start = GAME.initial_state(CATALOGUE.variant("standard", choices))
    return decision_positions(GAME, start, random.Random(seed), steps)


variants = st.fixed_dictionaries({name: st.sampled_from(readings) for name, readings in OPTIONS})
# Every reading but the one under which discards lie face up for both players to see.
hiding = st.fixed_dictionaries(
    {
        name: st.sampled_from([r for r in readings if (name, r) != ("discard_faces", "face_up")])
        for name, readings in OPTIONS
    }
)


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


# --- what an action may show (RKS-8.5.1, RKS-8.7.1: cards are revealed only at judgement) ------


def judged(before: RKState, action: Action, after: RKState) -> bool:
    """Whether `action` ended the raising in a judgement, which reveals both cards (RKS-8.7.1):
    a Play or Stand after which the table is cleared."""
    if before.stage != Stage.COMBAT or not isinstance(action, Play | Stand):
        return False
    c = after.combat
    return c is None or (c.attack is None and c.defence is None)


def shows_own_side(s: RKState, action: Action, rng: random.Random) -> bool:
    """Whether the side to move's own `action` shows it anything of the cards it cannot see:
    its observation after the action differs between `s` and a resampling of what it cannot
    see. A judgement is left out: it reveals the cards by the rules."""
    side = GAME.to_move(s)
    assert side in (GE, SU)
    after = GAME.apply(s, action)
    if judged(s, action, after):
        return False
    view = GAME.observe(after, side)
    return any(
        GAME.observe(GAME.apply(resample(s, side, rng), action), side) != view for _ in range(2)
    )


def visible(s: RKState, side: str) -> set[str]:
    """The cards `side`'s observation names."""
    text = json.dumps(GAME.observe(s, side))
    return {c for c in DECK if f'"{c}"' in text}


def own(s: RKState, side: str) -> set[str]:
    """The cards `side` holds or put down itself: its hand, its units' steps, its table cards."""
    out = set(s.hand(side))
    for u in s.units:
        if B.side_of[u.id] == side:
            out |= u.steps
    if s.combat is not None:
        c = s.combat
        out |= {p.card for p in (c.attack, c.defence, *c.spent) if p is not None and p.side == side}
    return out


def revealed(before: RKState, action: Action, after: RKState) -> set[str]:
    """The cards the rules show both players in this step: the cards judged (RKS-8.7.1), an
    event card played (RKS-9.1.3), a card drawn for a bombardment (RKS-9.2.2), a card placed
    face up under General Chuikov (RKS-9.8.1)."""
    out: set[str] = set()
    if judged(before, action, after):
        c = before.combat
        assert c is not None
        out |= {p.card for p in (c.attack, c.defence) if p is not None}
        if isinstance(action, Play):
            out.add(action.card)
    if isinstance(action, Event):
        out.add(action.card)
    if isinstance(action, Draw) and before.draws[0].kind in ("bombardment", "air_support"):
        out.add(action.card)
    if isinstance(action, Play) and after.combat is not None:
        c = after.combat
        out |= {p.card for p in (c.attack, c.defence) if p is not None and p.open}
    return out


def newly_shown(before: RKState, action: Action, after: RKState) -> dict[str, set[str]]:
    """For each side, the cards it sees after the step and did not before, that are neither
    its own nor shown by the rules."""
    allowed = revealed(before, action, after)
    return {
        side: visible(after, side) - visible(before, side) - own(after, side) - allowed
        for side in (GE, SU)
    }


def _steps(seed: int, choices: dict[str, str], steps: int) -> list[tuple[RKState, Action]]:
    """Every step, chance included, of a random playout of a variant."""
    rng = random.Random(seed)
    s = GAME.initial_state(CATALOGUE.variant("standard", choices))
    out = []
    for _ in range(steps):
        side = GAME.to_move(s)
        if side is None:
            break
        if side == CHANCE:
            action = sample(GAME.chance_outcomes(s), rng)
        else:
            action = rng.choice(GAME.legal_actions(s))
        out.append((s, action))
        s = GAME.apply(s, action)
    return out


@pytest.mark.parametrize("preset", sorted(CATALOGUE.presets))
def test_rks_8_5_1_no_preset_reveals_an_uncontested_face_down_card(preset: str) -> None:
    """RKS-8.5.1, RKS-8.7.1: the defender who accepts the damage never learns the attacker's
    face-down card (the `discard_faces` reading of every preset): it leaves the table face
    down (or goes back unseen); the pile grows by one card the defender cannot name. Under
    `discard_faces=face_up` it would lie face up, and the checks below catch that."""
    assert CATALOGUE.presets[preset]["discard_faces"] != "face_up"
    for reading, leaks in ((CATALOGUE.presets[preset]["discard_faces"], False), ("face_up", True)):
        s = active(
            "71",
            {"71": (GREAR, ["2C"]), "Rifle-2": ("orlovka", ["4H"])},
            hands={GE: ["5C"]},
            options={**CATALOGUE.presets[preset], "discard_faces": reading},
        )
        s = run(s, Move("orlovka"), Play("5C"))
        before = GAME.observe(s, SU)["discard_count"]
        after = run(s, Accept())
        seen = GAME.observe(after, SU)
        assert ("5C" in seen["discards"]) is leaks
        assert seen["discard_count"] == before + 1 and "5C" in after.discards
        assert bool(newly_shown(s, Accept(), after)[SU]) is leaks
        assert shows_own_side(s, Accept(), random.Random(1)) is leaks


@pytest.mark.parametrize(
    ("reading", "public"), [("revealed_only", False), ("face_down", False), ("face_up", True)]
)
def test_rks_7_3_1_and_8_9_1_paid_and_lost_steps_follow_the_reading(
    reading: str, public: bool
) -> None:
    """RKS-7.3.1, RKS-8.9.1, RKS-3.3.3: a step card paid for a move or lost as damage is never
    shown to the opponent by the rules, so it goes face down unless every discard is face up
    (`discard_faces`, found here)."""
    s = active(
        "71",
        {"71": (GREAR, ["2C", "3C"]), "Rifle-2": ("gumrak", ["4H"])},
        control={"orlovka": SU},
        options={"discard_faces": reading},
    )
    paid = run(s, Move("orlovka"), Pay("2C"))
    assert ("2C" in GAME.observe(paid, SU)["discards"]) is public
    assert bool(newly_shown(run(s, Move("orlovka")), Pay("2C"), paid)[SU]) is public
    hit = active(
        "Rifle-2",
        {"71": ("orlovka", ["2C", "3C"]), "Rifle-2": ("gorodishche", ["4H"])},
        hands={SU: ["KS"]},
        control={"orlovka": GE},
        options={"discard_faces": reading},
    )
    s = run(hit, Event("KS", "71"))
    s = GAME.apply(s, Draw("9D"))  # 9 hits strength 3: the target is damaged (RKS-9.2.2)
    assert s.stage == Stage.DAMAGE
    lost = run(s, LoseStep("71", "3C"))
    assert "3C" in lost.discards and ("3C" in GAME.observe(lost, SU)["discards"]) is public
    assert {"KS", "9D"} <= set(GAME.observe(lost, GE)["discards"]) or reading == "face_down"


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**31), choices=hiding, data=st.data())
def test_no_action_shows_the_side_to_move_a_card_the_rules_keep_hidden(
    seed: int, choices: dict[str, str], data: st.DataObject
) -> None:
    """RKS-3.3.3, RKS-8.5.1, RKS-8.7.1: what the side to move sees after its own action depends
    only on what it saw before (the resampling test, carried across the action): no accepted
    damage, payment, step loss or discard shows it an opponent's card. Judgements reveal by
    the rules and are left out. Every reading but `discard_faces=face_up`."""
    rng = random.Random(data.draw(st.integers(0, 2**31)))
    positions = _positions(seed, choices, 600)
    for s in positions[:: max(1, len(positions) // 30)]:
        for action in rng.sample(list(GAME.legal_actions(s)), min(4, len(GAME.legal_actions(s)))):
            assert not shows_own_side(s, action, rng), (GAME.action_to_json(action), s.stage)


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**31), choices=hiding)
def test_every_card_a_side_comes_to_see_is_its_own_or_shown_by_the_rules(
    seed: int, choices: dict[str, str]
) -> None:
    """RKS-3.3.3, RKS-3.4.1, RKS-8.7.1, RKS-9.1.3, RKS-9.2.2: along a random game, each card a
    side's observation newly names is its own (in its hand, on its units, put down by it) or
    one the rules showed both players in that step. Every reading but
    `discard_faces=face_up`."""
    for before, action in _steps(seed, choices, 1500):
        after = GAME.apply(before, action)
        leaked = newly_shown(before, action, after)
        assert not any(leaked.values()), (GAME.action_to_json(action), before.stage, leaked)
