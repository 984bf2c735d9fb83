"""Seeded random SNC games end with a result naming its clause (SNC-5.2.2, SNC-4.1.1,
SNC-4.1.2, SNC-4.2.1, SNC-4.3.1, SNC-4.3.3), every state they pass through is a legal position
and survives the JSON codec, and so does every action."""

from __future__ import annotations

import random

import pytest

from kernel.playout import play
from kernel.roles import AssembledGame
from specs.snc1937 import PACKAGE
from specs.snc1937.data.variants import CATALOGUE
from specs.snc1937.rules.actions import Action
from specs.snc1937.rules.state import SNCState
from tests.snc1937.assembled import rules_of

GAME: AssembledGame[SNCState, Action] = PACKAGE.assemble()
RULES = rules_of(GAME)
END_CLAUSES = {"SNC-4.1.1", "SNC-4.1.2", "SNC-4.2.1", "SNC-4.3.1", "SNC-4.3.3"}
OTHER_READINGS = {
    "reinforcement_delay": "mandatory",
    "stacking_check": "global",
    "japanese_stack": "division_plus_one",
    "loss_order": "strongest_first",
    "chinese_air": "once_per_phase",
    "fire_support_refresh": "first_phase_only",
    "stack_movement": "units_only",
    "sudden_defeat_timing": "end_of_phase",
    "control_entry": "movement_and_advance",
    "snlf9_arrival": "landing",
}


def _round_trip(before: SNCState, action: Action, after: SNCState) -> None:
    GAME.check_position(after)
    assert GAME.action_from_json(GAME.action_to_json(action)) == action
    if len(after.where) % 7 == 0 or after.result is not None:
        assert GAME.state_from_json(GAME.state_to_json(after)) == after


@pytest.mark.parametrize(("seed", "options"), [(0, {}), (1, {}), (2, OTHER_READINGS)])
def test_snc_5_2_2_seeded_games_end_with_a_clause(seed: int, options: dict[str, str]) -> None:
    """SNC-5.2.2, SNC-5.0.1: a random game ends by sudden death, a Victory Check or after GT
    12, never by a step limit or a position without a legal action."""
    s = GAME.initial_state(CATALOGUE.variant("standard", options))
    out = play(
        GAME, s, random.Random(seed), RULES.playout_agents(), max_steps=20000,
        on_step=_round_trip,
    )  # fmt: skip
    assert out.stop == "ended", out.report()
    assert out.outcome is not None and out.outcome.clause in END_CLAUSES
    assert out.final.turn <= 12


@pytest.mark.parametrize("seed", [0, 1, 3])
def test_snc_8_4_1_2_no_step_leaves_a_seeded_game_where_it_was(seed: int) -> None:
    """No position of a game comes back (`Playout.lasso`): every legal step changes the game,
    or play could repeat it for ever. Seed 3 once offered a 10th Army unit a second hex of
    advance it then did not enter (SNC-8.4.1.2), leaving the state as it was."""
    s = GAME.initial_state(CATALOGUE.variant("standard", {}))
    out = play(GAME, s, random.Random(seed), RULES.playout_agents(), max_steps=20000)
    assert out.stop == "ended" and out.lasso is None, out.report()
