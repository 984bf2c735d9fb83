"""SNC's `evaluate_state` (`specs/snc1937/bots/evaluation.py`), what the search scores a rollout's
end with: at every step of seeded games, under each preset and under the fogged readings of
SNC-6.3.1 (AMB-SNC-40), it equals `evaluate` of the side's observation for both sides; the
reduced units hidden beneath an enemy top (SNC-6.3.1) are met and left out, and a version that
reads them, or that forgets the stack a combat shows, is caught."""

from __future__ import annotations

import functools
import random
from typing import Any

import pytest

from specs.snc1937.bots import evaluation as ev
from specs.snc1937.rules.tables import locations, stacks
from tests.sizes import size
from tools.registry import get_game
from tools.testing.histories import play_history, states

FOGGED = {"fog_fire_support": "support_then_reveal", "attackers_seen": "tops_only"}
"""SNC-6.3.1 read so that a combat shows its target later (AMB-SNC-40)."""


@functools.cache
def _states() -> tuple[Any, ...]:
    """Every state of seeded random games under each preset and the fogged readings."""
    game = get_game("snc1937")
    variants = [*game.presets().values(), game.catalogue.variant(None, FOGGED)]
    out: list[Any] = []
    for k, variant in enumerate(variants):
        for seed in range(size(2, 6)):
            history = play_history(
                game, variant, random.Random(f"eval/{k}/{seed}"), size(700, 2000)
            )
            out.extend(states(game, history))
    return tuple(out)


def _mismatches() -> int:
    game = get_game("snc1937")
    rules: Any = game.rules
    return sum(
        ev.evaluate_state(rules, s, side) != ev.evaluate(game.observe(s, side), side)
        for s in _states()
        for side in game.sides
    )


def test_state_evaluation_equals_the_observed_one_at_every_step() -> None:
    """SNC-4.1.1 to SNC-4.3.3 as `evaluate` weighs them, read from the state: exactly the
    value of the side's observation (SNC-6.3.1), at every step, for both sides."""
    assert len(_states()) > size(2000, 8000)
    assert _mismatches() == 0


def _hidden_reduced(s: Any, side: str) -> bool:
    """A reduced enemy unit under the top of its stack, which `side` does not see reduced."""
    game = get_game("snc1937")
    seen = set(game.observe(s, side)["reduced"])
    return any(u not in seen and u in locations(s.where) for u in s.reduced)


def test_reduced_units_hidden_beneath_a_top_are_met() -> None:
    """SNC-6.3.1: the games pass through states where a side cannot see that an enemy unit is
    reduced, so the equality above covers what the state knows and the side does not."""
    game = get_game("snc1937")
    assert any(_hidden_reduced(s, side) for s in _states() for side in game.sides)


def test_reading_every_reduced_unit_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Sabotage: every reduced unit counted as if it were the top of its stack (what the side
    cannot see, SNC-6.3.1): some state's value differs from its observation's."""
    monkeypatch.setattr(ev, "_top", lambda t, s, u, h: True)
    assert _mismatches() > 0


def test_forgetting_the_shown_stack_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Sabotage: a combat shows no stack (SNC-6.3.1: the target is shown whole once its attack
    resolves): some state's value differs from its observation's."""
    shown = [s for s in _states() if ev._shown(s) is not None and _reduced_under(s)]
    assert shown
    monkeypatch.setattr(ev, "_shown", lambda s: None)
    assert _mismatches() > 0


def _reduced_under(s: Any) -> bool:
    """A reduced unit beneath the top of the stack a combat shows."""
    h = ev._shown(s)
    units = () if h is None else stacks(s.where).get(h, ())
    return len(units) > 1 and any(u in s.reduced for u in units)
