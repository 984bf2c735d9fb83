"""Playouts: results, planted gaps, and play that can go on without end, on a toy game."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from kernel.conformance import check_playout, check_step
from kernel.playout import play, replay
from tests.kernel.toy import Pass, Toy, ToyAction, ToyState

TOY = Toy()


def passer(game: Any, state: ToyState, legal: Sequence[ToyAction], rng: random.Random) -> ToyAction:
    return Pass()


def test_random_playout_ends_with_result_and_replays() -> None:
    start = TOY.initial_state(TOY.presets()["plain"])
    result = play(TOY, start, random.Random(1))
    assert result.stop == "ended" and result.outcome is not None
    assert "TOY-GOAL" in result.report()
    assert replay(TOY, start, list(result.actions)) == result.final


def test_endless_play_is_detected_and_reported_with_clauses() -> None:
    start = TOY.initial_state(TOY.presets()["plain"])
    result = play(TOY, start, random.Random(0), {"A": passer, "B": passer}, max_steps=50)
    assert result.stop == "step_limit"
    assert result.lasso is not None and (result.lasso.start, result.lasso.end) == (0, 2)
    report = result.report()
    assert "TOY-PASS" in report and "without end" in report


def test_planted_gap_stops_with_no_action_report() -> None:
    start = TOY.initial_state(TOY.presets()["gapped"])
    found = False
    for seed in range(30):
        result = play(TOY, start, random.Random(seed))
        if result.stop == "no_action":
            found = True
            assert result.final.total == 3 and "TOY-1" in result.report()
    assert found


def test_conformance_suite_accepts_the_toy_game() -> None:
    for preset in TOY.presets().values():
        check_step(TOY, TOY.initial_state(preset))
        for seed in range(5):
            check_playout(TOY, preset, seed, max_steps=200)
