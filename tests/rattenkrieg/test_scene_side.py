"""A side's picture (`scene(state, side=...)`, `wargame render --side`) shows only what that
side may see (RKS-3.3.3, RKS-3.4.1, RKS-8.4.1, RKS-8.5.2): resampling every card it cannot see
leaves the SVG byte for byte the same, while its own cards are drawn by name."""

from __future__ import annotations

import json
import random
import re
from functools import cache
from pathlib import Path

import pytest

from kernel.playout import decision_positions
from specs.rattenkrieg.rules.actions import Move, Play
from specs.rattenkrieg.rules.state import GE, SU, RKState, other
from tests.rattenkrieg.hidden import resample
from tests.rattenkrieg.positions import CATALOGUE, GAME, GREAR, B, active, run
from tools.cli import commands as cli
from tools.render import render_svg

PRESETS = sorted(CATALOGUE.presets)


@cache
def _positions(preset: str, seed: int) -> tuple[RKState, ...]:
    """Decision positions met at every third step of a seeded random playout of a preset."""
    start = GAME.initial_state(CATALOGUE.preset(preset))
    return tuple(
        decision_positions(GAME, start, random.Random(seed), 900, lambda i, _s: i % 3 == 0)
    )


def _picture(s: RKState, side: str | None) -> str:
    assert GAME.scene is not None
    return render_svg(GAME.scene(s, side=side))


def _names(svg: str, card: str) -> bool:
    """Whether the picture names `card` as a word ("5C", not the "5C" of "15C")."""
    return re.search(rf"(?<![0-9A-Za-z#&]){card}(?![0-9A-Za-z])", svg) is not None


def _own_steps(s: RKState, side: str) -> set[str]:
    return {c for u in s.units if B.side_of[u.id] == side for c in u.steps}


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("side", [GE, SU])
def test_rks_3_3_3_a_side_picture_is_the_same_whatever_it_cannot_see(
    preset: str, side: str
) -> None:
    """RKS-3.3.3, RKS-3.4.1, RKS-8.4.1, RKS-8.5.2: shuffling every card `side` cannot see (the
    opponent's hand, steps and face-down table cards, the deck, the face-down discards and
    cards out of play) leaves its picture byte for byte the same."""
    changed = 0
    for seed in range(3):
        rng = random.Random(f"{preset}/{side}/{seed}")
        for s in _positions(preset, seed):
            picture = _picture(s, side)
            t = resample(s, side, rng)
            changed += t != s
            assert _picture(t, side) == picture, (preset, seed, s.stage)
    assert changed  # the resampling did move hidden cards


@pytest.mark.parametrize("preset", PRESETS)
def test_rks_3_3_3_a_side_picture_shows_only_its_own_cards(preset: str) -> None:
    """RKS-3.3.3, RKS-3.4.1: a side's picture names every card of its hand and of its units'
    steps, and no card of the opponent's hand (which no other place may show: each card is in
    one place)."""
    shown = 0
    for s in _positions(preset, 0)[::3]:
        for side in (GE, SU):
            svg = _picture(s, side)
            for card in s.hand(side) | _own_steps(s, side):
                assert _names(svg, card), (side, card)
                shown += 1
            for card in s.hand(other(side)):
                assert not _names(svg, card), (side, card)
    assert shown


def test_rks_3_4_1_the_referee_picture_shows_no_card() -> None:
    """RKS-3.3.3, RKS-3.4.1: the picture without a side names no card of a hand or of a
    unit's steps (as before: counts only)."""
    for s in _positions("standard", 1)[::4]:
        svg = _picture(s, None)
        for side in (GE, SU):
            for card in s.hand(side) | _own_steps(s, side):
                assert not _names(svg, card), card


def test_rks_8_4_1_the_attack_card_is_face_down_in_the_defender_picture() -> None:
    """RKS-8.4.1: the attacker's card lies face down: the attacker's picture names it, the
    defender's shows a face-down card, whichever card it is."""
    s = active("71", {"71": (GREAR, ["2C"]), "Rifle-2": ("orlovka", ["4H"])}, hands={GE: ["5C"]})
    s = run(s, Move("orlovka"), Play("5C"))
    ge, su = _picture(s, GE), _picture(s, SU)
    assert _names(ge, "5C") and "attack GE 5C from the hand" in ge
    assert not _names(su, "5C") and "attack GE face down from the hand" in su
    assert _names(su, "4H") and not _names(ge, "4H")  # RKS-3.3.3: each side's own steps
    assert su == _picture(resample(s, SU, random.Random(3)), SU)


@pytest.mark.parametrize("side", [GE, SU])
def test_rks_3_3_3_cli_render_side_draws_the_side_picture(tmp_path: Path, side: str) -> None:
    """RKS-3.3.3: `wargame render rattenkrieg STATE -o OUT --side S` writes S's picture."""
    s = _positions("standard", 0)[10]
    path = tmp_path / "state.json"
    path.write_text(json.dumps(GAME.state_to_json(s)), encoding="utf-8")
    out = tmp_path / "out.svg"
    assert cli.main(["render", "rattenkrieg", str(path), "-o", str(out), "--side", side]) == 0
    assert out.read_text(encoding="utf-8") == _picture(s, side)
