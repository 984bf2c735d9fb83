"""The resamplers of the hidden-information games (`tools.agents.resampling`): from one side's
observation alone they draw a state with exactly that observation that the position check
accepts, and they draw, rather than copy the real state back."""

from __future__ import annotations

import functools
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernel.chance import sample
from kernel.game import CHANCE, Game
from tests.sizes import size
from tools.agents.resampling import resampler
from tools.registry import get_game

HIDDEN_GAMES = ("rattenkrieg", "shumshu", "snc1937")
STEPS = size(120, 1500)
EVERY = size(8, 3)
SEEDS = size(2, 6)


def positions(
    game: Game[Any, Any], steps: int, every: int, seeds: int, variants: list[Any] | None = None
) -> list[Any]:
    """States met by seeded random play under each preset, one in `every` steps."""
    out = []
    for variant in variants or list(game.presets().values()):
        for seed in range(seeds):
            rng = random.Random(f"resample/{seed}")
            s = game.initial_state(variant)
            for i in range(steps):
                side = game.to_move(s)
                if side is None:
                    break
                if i % every == 0:
                    out.append(s)
                if side == CHANCE:
                    action = sample(game.chance_outcomes(s), rng)
                else:
                    legal = game.legal_actions(s)
                    if not legal:
                        break
                    action = legal[rng.randrange(len(legal))]
                s = game.apply(s, action)
    return out


@functools.cache
def cached_positions(name: str) -> list[Any]:
    return positions(get_game(name), STEPS, EVERY, SEEDS)


@pytest.mark.parametrize("name", HIDDEN_GAMES)
def test_resample_has_the_observation_and_passes_the_check(name: str) -> None:
    game = get_game(name)
    draw = resampler(game)
    found = cached_positions(name)
    assert len(found) >= 10
    for i, s in enumerate(found):
        for side in game.sides:
            o = game.observe(s, side)
            r = draw(o, side, random.Random(i))
            assert game.observe(r, side) == o
            game.check_position(r)


@pytest.mark.parametrize("name", HIDDEN_GAMES)
def test_resample_draws_the_hidden_part(name: str) -> None:
    """Over a few seeds the draw differs from the real state, and the draws differ from each
    other, for each side that has something hidden from it."""
    game = get_game(name)
    draw = resampler(game)
    for side in game.sides:
        if name == "shumshu" and side == "JP":
            continue  # the Japanese see everything (below)
        differs = varied = 0
        for i, s in enumerate(cached_positions(name)):
            o = game.observe(s, side)
            draws = {draw(o, side, random.Random(f"{i}/{k}")) for k in range(3)}
            differs += any(r != s for r in draws)
            varied += len(draws) > 1
        assert differs > 0, side
        assert varied > 0, side


def test_shumshu_japanese_draw_is_the_state() -> None:
    """Nothing is hidden from the Japanese (SHU-COMBAT.5): their draw is the real state."""
    game = get_game("shumshu")
    draw = resampler(game)
    for i, s in enumerate(cached_positions("shumshu")):
        assert draw(game.observe(s, "JP"), "JP", random.Random(i)) == s


def test_rattenkrieg_deals_only_unseen_cards() -> None:
    """The opponent's hand and the deck are drawn from the cards the side has not seen
    (RKS-3.3.3, RKS-3.4.1): its own hand and steps stay as they are."""
    game = get_game("rattenkrieg")
    draw = resampler(game)
    side_of = game.rules.board.side_of  # type: ignore[attr-defined]
    for i, s in enumerate(cached_positions("rattenkrieg")):
        for side in game.sides:
            r = draw(game.observe(s, side), side, random.Random(i))
            assert r.hand(side) == s.hand(side)
            opponent = "SU" if side == "GE" else "GE"
            assert len(r.hand(opponent)) == len(s.hand(opponent))
            assert len(r.deck) == len(s.deck)
            for ur, us in zip(r.units, s.units, strict=True):
                if side_of[us.id] == side:
                    assert ur.steps == us.steps
                else:
                    assert len(ur.steps) == len(us.steps)
                    assert ur.steps & s.exposed == us.steps & s.exposed  # RKS-3.3.3


def test_no_resampler_for_perfect_information() -> None:
    with pytest.raises(ValueError, match="hides nothing"):
        resampler(get_game("nomonhan"))


@pytest.mark.parametrize("name", HIDDEN_GAMES)
@settings(max_examples=size(8, 60), deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1))
def test_resample_over_seeds(name: str, seed: int) -> None:
    game = get_game(name)
    found = cached_positions(name)
    s = found[seed % len(found)]
    side = game.sides[(seed >> 8) % len(game.sides)]
    o = game.observe(s, side)
    r = resampler(game)(o, side, random.Random(seed))
    assert game.observe(r, side) == o
    game.check_position(r)


def test_rattenkrieg_exposed_steps_and_face_down_piles() -> None:
    """Under readings the presets do not take: step cards returned and seen by both sides
    (AMB-RKS-7 i), discards face down or face up, steps removed (AMB-RKS-7 iv)."""
    game = get_game("rattenkrieg")
    draw = resampler(game)
    variants = [
        game.catalogue.variant("standard", {"played_step": "returned", "discard_faces": "face_up"}),
        game.catalogue.variant("standard", {"used_steps": "removed", "discard_faces": "face_down"}),
    ]
    found = positions(game, size(200, 800), size(5, 2), 1, variants)
    drawn_exposed = 0
    for i, s in enumerate(found):
        for side in game.sides:
            o = game.observe(s, side)
            r = draw(o, side, random.Random(i))
            assert game.observe(r, side) == o
            game.check_position(r)
            assert r.exposed == s.exposed  # AMB-RKS-7: seen by both, observed, never guessed
            drawn_exposed += bool(r.exposed)
    assert drawn_exposed > 0
