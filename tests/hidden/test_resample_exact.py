"""Resampling exact (issue 31, item 4): a state drawn from one side's observation alone has
exactly that observation, at every step of seeded games of every hidden-information game, and
the same legal actions when that side is to move. What the rules make public (a Rattenkrieg
combat's cause, AMB-RKS-16, and the step cards both players have seen, AMB-RKS-7; an SNC
stacking check's culls and where it leads, SNC-6.0.4) is observed, so it is copied, never
guessed."""

from __future__ import annotations

import random
from typing import Any

import pytest

from kernel.game import CHANCE
from specs.rattenkrieg.rules.actions import Retreat
from specs.rattenkrieg.rules.state import GE, SU, Stage
from tests.hidden.twins import RKS, SHU, SNC
from tests.rattenkrieg.positions import GREAR, run
from tools.registry import get_package
from tools.testing.histories import play_history, states

RKS_RETURNED = RKS.catalogue.variant(
    "standard", {"played_step": "returned", "bombard_isolation": "yes"}
)
"""A Rattenkrieg reading where step cards come back seen (AMB-RKS-7) and a bombardment may open a
combat record (AMB-RKS-16)."""


def _resampler(name: str) -> Any:
    part = get_package(name).resampler
    assert part is not None
    return part()


def _draws_keep_the_view(game: Any, variant: Any, seed: int, steps: int, sides: Any) -> int:
    """Every state of a seeded game: the draw's observation is the real one, and its legal
    actions too for the side to move. Returns the draws checked."""
    resample = _resampler(game.name)
    h = play_history(game, variant, random.Random(seed), steps)
    rng = random.Random(seed)
    checked = 0
    for s in states(game, h):
        for side in sides:
            seen = game.observe(s, side)
            drawn = resample(game.rules, seen, side, rng)
            assert game.observe(drawn, side) == seen, (side, checked)
            if game.to_move(s) == side:
                assert list(game.legal_actions(drawn)) == list(game.legal_actions(s))
            checked += 1
    return checked


@pytest.mark.parametrize("seed", [1, 2])
def test_rks_resampled_states_have_the_observation_at_every_step(seed: int) -> None:
    """RKS-3.3.3, RKS-3.4.1, RKS-8.4.1, AMB-RKS-7: both sides, every step of a seeded game under
    `played_step=returned`, where the seen step cards matter."""
    assert _draws_keep_the_view(RKS, RKS_RETURNED, seed, 200, (GE, SU)) > 300


def test_rks_exposed_cards_are_observed_not_guessed() -> None:
    """AMB-RKS-7 (`played_step=returned`): which of a side's step cards the opponent has seen
    is public; the draw keeps exactly those, where a guess would pick any subset."""
    resample = _resampler("rattenkrieg")
    h = play_history(RKS, RKS_RETURNED, random.Random(1), 200)
    seen = [s for s in states(RKS, h) if s.exposed]
    assert seen
    for s in seen[:20]:
        for side in (GE, SU):
            for k in range(3):
                drawn = resample(RKS.rules, RKS.observe(s, side), side, random.Random(k))
                assert drawn.exposed == s.exposed


def test_amb_rks_16_a_bombardment_record_keeps_its_cause() -> None:
    """AMB-RKS-16 (`bombard_isolation=yes`), RKS-8.10.1: 71, bombarded, retreats out of
    Gorodishche and leaves 295 to retreat or be isolated; the record says "bombardment", both
    sides see it, and every draw keeps it (the old draw picked any cause the check allowed)."""
    from tests.rattenkrieg.test_events import _bombard_beside

    s = run(_bombard_beside(bombard_isolation="yes"), Retreat("71", GREAR))
    assert s.stage == Stage.ISOLATION and s.combat is not None
    assert s.combat.cause == "bombardment"
    resample = _resampler("rattenkrieg")
    for side in (GE, SU):
        seen = RKS.observe(s, side)
        assert seen["combat"]["cause"] == "bombardment"
        for k in range(8):
            drawn = resample(RKS.rules, seen, side, random.Random(k))
            assert drawn.combat is not None and drawn.combat.cause == "bombardment"
            assert RKS.observe(drawn, side) == seen


@pytest.mark.parametrize("seed", [1, 2])
def test_shu_resampled_states_have_the_observation_at_every_step(seed: int) -> None:
    """SHU-SETUP.1, SHU-COMBAT.5, SHU-COMBAT.6: both sides (the Japanese see everything, the
    Russians the face-down pieces as counts), every step of a seeded game."""
    assert _draws_keep_the_view(SHU, SHU.presets()["draft"], seed, 120, ("RU", "JP")) > 150


@pytest.mark.parametrize(("seed", "preset"), [(7, "standard"), (8, "standard"), (2, "printed")])
def test_snc_resampled_states_have_the_observation_at_every_step(seed: int, preset: str) -> None:
    """SNC-6.3.1, SNC-6.0.4: both sides, every step of a seeded game (seeds 7 and 8 reach a
    stacking check at the end of a phase, `after_stack`)."""
    assert _draws_keep_the_view(SNC, SNC.presets()[preset], seed, 100, ("CH", "JP")) > 150


def test_snc_6_0_4_a_stacking_check_under_way_is_drawn_as_it_is() -> None:
    """SNC-6.0.4: where a stacking check leads once over (after a combat or at a phase's end)
    and the units culled so far are public: every draw keeps them."""
    resample = _resampler("snc1937")
    found = 0
    for seed in (7, 8):
        h = play_history(SNC, SNC.presets()["standard"], random.Random(seed), 100)
        for s in states(SNC, h):
            if s.step.value != "stack":
                continue
            for side in ("CH", "JP"):
                seen = SNC.observe(s, side)
                assert seen["after_stack"] == s.after_stack != ""
                drawn = resample(SNC.rules, seen, side, random.Random(seed))
                assert (drawn.after_stack, drawn.culled) == (s.after_stack, s.culled)
                found += 1
    assert found


def test_the_chance_side_draws_nothing() -> None:
    """A draw is asked for a side, never for chance: the checks above skip no state."""
    assert CHANCE not in (*RKS.sides, *SHU.sides, *SNC.sides)
