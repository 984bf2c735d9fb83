"""Playouts: results, planted gaps, and play that can go on without end, on a toy game."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from kernel.playout import CycleWatch, Lasso, play, replay
from kernel.roles import AssembledGame
from tests.toy import PACKAGE as TOY_PACKAGE
from tests.toy.rules.actions import Pass, ToyAction
from tests.toy.rules.state import ToyState
from tools.testing.conformance import check_playout, check_step

TOY = TOY_PACKAGE.assemble()


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


def test_a_sampled_playout_checks_every_kth_position_and_seeds_cover_them_all(
    monkeypatch: Any,
) -> None:
    """`check_playout(..., every=k)` checks positions seed % k, seed % k + k, ... (plus the
    final one), so seeds 0..k-1 of one game together check each position."""
    import tools.testing.conformance as conformance

    preset = TOY.presets()["plain"]
    checked: list[ToyState] = []
    monkeypatch.setattr(conformance, "check_step", lambda game, state: checked.append(state))
    for seed in range(3):
        checked.clear()
        conformance.check_playout(TOY, preset, seed, max_steps=200, every=3)
        sampled = checked[:-1]  # the final position is always checked
        full = _positions(TOY, preset, seed)
        assert len(full) >= 6 and sampled == full[seed % 3 :: 3]


def _positions(game: AssembledGame[Any, Any], preset: Any, seed: int) -> list[ToyState]:
    seen: list[ToyState] = []
    play(
        game,
        game.initial_state(preset),
        random.Random(seed),
        max_steps=200,
        on_step=lambda before, action, after: seen.append(before),
    )
    return seen


def test_a_stride_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="every"):
        check_playout(TOY, TOY.presets()["plain"], 0, every=0)


class _Colliding:
    """A position whose hash says nothing: every one collides with every other."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __hash__(self) -> int:
        return 7

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Colliding) and other.n == self.n


def _watched(line: list[int], recent: int) -> tuple[Lasso | None, Lasso | None, list[int]]:
    """The lasso a watch keeping `recent` positions finds on `line` just before its first
    repeat and once past it, and the steps it recalled."""
    recalled: list[int] = []

    def recall(step: int) -> _Colliding:
        recalled.append(step)
        return _Colliding(line[step])

    watch = CycleWatch(_Colliding(line[0]), recall)
    watch.RECENT = recent
    for n in line[1:-2]:
        watch.see(_Colliding(n))
    before = watch.lasso
    for n in line[-2:]:
        watch.see(_Colliding(n))
    return before, watch.lasso, recalled


@pytest.mark.parametrize("recent", [1, CycleWatch.RECENT])
def test_a_watch_keeping_hashes_only_tells_a_collision_from_a_repeat(recent: int) -> None:
    """With `recall`, positions sharing a hash are compared, with the few kept or recalled:
    a collision is no lasso, the first true repeat is, with the steps of its first visit and
    its return, as a watch keeping every position finds it."""
    line = [0, 1, 2, 3, 1, 2]
    before, found, recalled = _watched(line, recent)
    assert before is None
    assert found is not None and (found.start, found.end) == (1, 4)
    assert bool(recalled) == (recent == 1)  # only positions no longer kept are replayed
    plain = CycleWatch(_Colliding(line[0]))
    for n in line[1:]:
        plain.see(_Colliding(n))
    assert plain.lasso == found


class _StandingStill:
    """The toy game with a planted bug: every action leaves the state as it was."""

    def __getattr__(self, name: str) -> Any:
        return getattr(TOY, name)

    def apply(self, state: ToyState, action: ToyAction) -> ToyState:
        return state


def test_the_conformance_step_refuses_a_legal_action_that_changes_nothing() -> None:
    """A legal step that leaves the game as it was lets play go on for ever (as SNC's 10th
    Army advance into a Japanese-held hex once did, SNC-8.4.1.2): `check_step` names it."""
    start = TOY.initial_state(TOY.presets()["plain"])
    check_step(TOY, start)
    with pytest.raises(AssertionError, match="leaves the state as it was"):
        check_step(_StandingStill(), start)  # type: ignore[arg-type]
