"""Random play under every preset with the game's invariants checked after every step.

Invariants (issue: kernel foundation): no two units in a hex (NOM-8.6), no unit off the map
(NOM-2.4), no unit moved across a river without a bridge (NOM-8.4), steps never grow
(NOM-9.24), odd turns Japanese and even turns Soviet (NOM-6.5). Every playout ends, or the
tool reports that play can go on without end, naming the clauses.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from kernel.chance import sample
from kernel.game import CHANCE
from kernel.hexes import Hex
from kernel.playout import play
from specs.nomonhan.rules.actions import Action, Declare, EndAdvance, EndPhase, Loss
from specs.nomonhan.rules.board import BLOWN, RIVER
from specs.nomonhan.rules.state import NomonhanState
from tests.nomonhan.positions import GAME

PRESETS = sorted(GAME.presets())


def _bank(start: Hex, demolished: bool) -> set[Hex]:
    """Hexes reachable from `start` without crossing a river without a bridge."""
    seen = {start}
    todo = deque([start])
    while todo:
        h = todo.popleft()
        for n in GAME.rules.board.neighbors(h):
            if n not in seen and GAME.rules.board.hexside_kind(h, n, demolished) not in (
                RIVER,
                BLOWN,
            ):
                seen.add(n)
                todo.append(n)
    return seen


def check_invariants(before: NomonhanState | None, after: NomonhanState) -> None:
    on_map = [u.hex for u in after.units if u.hex is not None]
    assert len(on_map) == len(set(on_map)), "NOM-8.6: two units share a hex"
    assert all(GAME.rules.board.on_map(h) for h in on_map), "NOM-2.4: a unit is off the map"
    assert after.initiative == ("JP" if after.turn % 2 else "SU"), "NOM-6.5"
    if before is None:
        return
    for old, new in zip(before.units, after.units, strict=True):
        assert new.steps <= old.steps, f"NOM-9.24: {new.id} gained steps"
        if old.hex is not None and new.hex is not None and old.hex != new.hex:
            assert new.hex in _bank(old.hex, before.demolished), (
                f"NOM-8.4: {new.id} crossed a river without a bridge {old.hex}->{new.hex}"
            )


def _step(state: NomonhanState, rng: random.Random) -> tuple[Action, NomonhanState]:
    if GAME.to_move(state) == CHANCE:
        action = sample(GAME.chance_outcomes(state), rng)
    else:
        action = rng.choice(list(GAME.legal_actions(state)))
    return action, GAME.apply(state, action)


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=15)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_playouts_keep_invariants_and_end(preset: str, seed: int) -> None:
    rng = random.Random(seed)

    def on_step(before: Any, action: Any, after: Any) -> None:
        check_invariants(before, after)

    start = GAME.initial_state(GAME.presets()[preset])
    check_invariants(None, start)
    result = play(GAME, start, rng, on_step=on_step, max_steps=5000)
    assert result.stop in ("ended", "step_limit", "no_action")
    if result.stop == "ended":
        assert result.outcome is not None and result.outcome.clause.startswith("NOM-")
    else:
        assert set(result.clauses) & {"NOM-5.2", "NOM-9.2", "NOM-9.3"}


def passive(game: Any, state: NomonhanState, legal: Sequence[Action], rng: random.Random) -> Action:
    """Never moves, never attacks when it need not: the laziest legal play."""
    for wanted in (EndPhase(), Declare(()), EndAdvance()):
        if wanted in legal:
            return wanted
    losses = [a for a in legal if isinstance(a, Loss)]
    return losses[0] if losses else legal[0]


@pytest.mark.parametrize("preset", PRESETS)
def test_nom_5_2_passive_play_never_ends_and_is_reported(preset: str) -> None:
    """NOM-5.2: with no initiative change a turn repeats its cycle for ever. Two passive
    players never fight, so the position repeats; the playout reports it, naming NOM-5.2."""
    start = GAME.initial_state(GAME.presets()[preset])
    result = play(GAME, start, random.Random(0), {"JP": passive, "SU": passive}, max_steps=200)
    assert result.stop == "step_limit"
    assert result.lasso is not None
    assert result.final.turn == 1
    report = result.report()
    assert "NOM-5.2" in report and "without end" in report


class NomonhanPlay(RuleBasedStateMachine):
    """Stateful test: one rule draws any legal action (or a chance outcome)."""

    def __init__(self) -> None:
        super().__init__()
        self.state = GAME.initial_state(GAME.presets()["ja"])

    @initialize(preset=st.sampled_from(PRESETS))
    def setup(self, preset: str) -> None:
        self.state = GAME.initial_state(GAME.presets()[preset])

    @rule(data=st.data())
    def act(self, data: st.DataObject) -> None:
        if GAME.to_move(self.state) is None:
            return
        if GAME.to_move(self.state) == CHANCE:
            outcomes = list(GAME.chance_outcomes(self.state))
            action = data.draw(st.sampled_from([a for a, _ in outcomes]))
        else:
            legal = list(GAME.legal_actions(self.state))
            if not legal:
                return
            action = data.draw(st.sampled_from(legal))
        before = self.state
        self.state = GAME.apply(before, action)
        check_invariants(before, self.state)

    @invariant()
    def codec_round_trip(self) -> None:
        assert GAME.state_from_json(GAME.state_to_json(self.state)) == self.state


NomonhanPlay.TestCase.settings = settings(max_examples=20, stateful_step_count=120, deadline=None)
test_nomonhan_stateful = NomonhanPlay.TestCase
