"""Rattenkrieg's `without_unit` hook (`kernel.game.UnitRemoval`, issue 14, item 5): a unit
taken out of play is eliminated as damage eliminates one
(`specs.rattenkrieg.rules.units.eliminate`):
off the map, its step cards discarded (AMB-RKS-7 iv), the turn recorded (RKS-6.3.1), so the 52
cards stay accounted for (RKS-P-CARDS) and the position check accepts the result. During
set-up no unit leaves the map (RKS-3.1.2, RKS-3.2.1, RKS-P-SETUP): there the hook refuses.

The position after set-up is reached by the first legal choice and the first chance outcome
at each step (39 steps). Well under a second.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from kernel.game import CHANCE, UnitRemoval
from kernel.roles import AssembledGame
from specs.rattenkrieg.game import Rattenkrieg
from specs.rattenkrieg.rules.cards import DECK
from specs.rattenkrieg.rules.state import Phase, RKState, Stage
from tools.registry import get_game

GAME: AssembledGame[Any, Any] = get_game("rattenkrieg")
_HOOK = GAME.without_unit
assert _HOOK is not None
HOOK = _HOOK


def _typed(game: Rattenkrieg) -> UnitRemoval[RKState]:
    """Checked by mypy: the game implements the hook as `kernel.game` documents it."""
    return game


def _after_set_up(preset: str) -> Any:
    """The first position of Turn 1's Player Turns (RKS-5.1.2), set-up done."""
    s = GAME.initial_state(GAME.catalogue.preset(preset))
    steps = 0
    while s.phase == Phase.SETUP:
        chance = GAME.to_move(s) == CHANCE
        s = GAME.apply(s, GAME.chance_outcomes(s)[0][0] if chance else GAME.legal_actions(s)[0])
        steps += 1
    assert steps < 100 and s.phase == Phase.PLAYER_TURNS and s.stage == Stage.PLAYER_TURN
    return s


def _cards(s: Any) -> Counter[str]:
    """Every card where it lies outside a combat (none is under way here)."""
    places = [s.deck, s.discards, s.removed, s.hand_ge, s.hand_su, *(u.steps for u in s.units)]
    return Counter(c for p in places for c in p)


@pytest.mark.parametrize("preset", sorted(GAME.catalogue.presets))
def test_every_unit_on_the_map_after_set_up_is_eliminated_into_an_accepted_position(
    preset: str,
) -> None:
    state = _after_set_up(preset)
    on_map = [u for u in state.units if u.area is not None]
    assert len(on_map) >= 10
    for u in on_map:
        got = HOOK(state, u.id)
        assert got is not None, u.id
        gone = next(v for v in got.units if v.id == u.id)
        assert gone.area is None and not gone.steps and not gone.flipped
        assert got.eliminated == ((u.id, state.turn),)  # RKS-6.3.1: the turn is recorded
        assert u.steps <= got.discards | got.removed  # AMB-RKS-7 iv: its steps discarded
        assert _cards(got) == Counter(DECK)  # RKS-P-CARDS: each of the 52 cards once
        others = [v for v in got.units if v.id != u.id]
        assert others == [v for v in state.units if v.id != u.id]
        assert GAME.state_from_json(GAME.state_to_json(got)) == got


@pytest.mark.parametrize("preset", sorted(GAME.catalogue.presets))
def test_during_set_up_no_unit_can_be_taken_out(preset: str) -> None:
    """RKS-P-SETUP: at set-up every unit stands where it starts."""
    state = GAME.initial_state(GAME.catalogue.preset(preset))
    on_map = [u.id for u in state.units if u.area is not None]
    assert on_map and all(HOOK(state, uid) is None for uid in on_map)


def test_a_unit_off_the_map_unknown_or_acting_cannot_be_taken_out() -> None:
    state = _after_set_up("standard")
    waiting = next(u.id for u in state.units if u.area is None)  # a reinforcement to come
    assert HOOK(state, waiting) is None and HOOK(state, "no-such-unit") is None
    once = HOOK(state, "14Pz")
    assert once is not None and HOOK(once, "14Pz") is None  # eliminated already
    designate = next(
        a for a in GAME.legal_actions(state) if GAME.action_to_json(a)["type"] == "designate"
    )
    acting = GAME.apply(state, designate)
    assert acting.acting is not None and HOOK(acting, acting.acting) is None  # RKS-7.1.1


def test_the_registered_game_is_a_unit_removal() -> None:
    game = get_game("rattenkrieg")
    assert isinstance(game.rules, Rattenkrieg)
    assert callable(_typed(game.rules).without_unit)
    assert game.without_unit is not None
