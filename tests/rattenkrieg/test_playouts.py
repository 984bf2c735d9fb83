"""Random play under random variants with the properties checked after every step; the stateful
game loop; the evidence for the `ends` property (RKS-5.1.2, RKS-7.2.1)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from kernel.game import CHANCE
from kernel.playout import default_agents, observing, play
from kernel.properties import violated
from specs.rattenkrieg.formal.properties import loop_measure, properties
from specs.rattenkrieg.rules.actions import Action, Designate, End, Move, Pass, Recruit
from specs.rattenkrieg.rules.control import friendly
from specs.rattenkrieg.rules.state import GE, Phase, RKState, Stage
from tests.rattenkrieg.positions import CATALOGUE, GAME, GREAR, B, position
from tools.playlog import play_narrated

PROPERTIES = properties(B)
BY_ID = {p.id: p for p in PROPERTIES}
OPTIONS = [(o.name, [r.name for r in o.readings]) for o in CATALOGUE.options]
variants = st.fixed_dictionaries({name: st.sampled_from(readings) for name, readings in OPTIONS})


def expected_to_break(choices: Mapping[str, str]) -> set[str]:
    """The step property RKS-P-LOOP fails when Chuikov's flip can be paid with a step card."""
    return {"RKS-P-LOOP"} if choices.get("event_source") == "hand_or_step" else set()


def test_the_properties_are_declared_with_verdicts_per_preset() -> None:
    """RKS-2.4.1, RKS-7.5.3, RKS-7.4.2, RKS-3.6.2, RKS-5.1.2: every property has clauses, a
    statement and a verdict for every preset; `ends` is expected to fail (RKS-7.2.1)."""
    ids = set(BY_ID)
    assert {"RKS-P-CARDS", "RKS-P-STEPS", "RKS-P-FLIPPED", "RKS-P-CONTROL", "RKS-P-ENDS"} <= ids
    for p in PROPERTIES:
        assert p.clauses and p.statement and set(p.expected) == set(GAME.presets())
    assert set(BY_ID["RKS-P-ENDS"].expected.values()) == {"fails"}
    assert BY_ID["RKS-P-ENDS"].kind == "ends"


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**31), choices=variants)
def test_random_playouts_keep_the_properties_after_every_step(
    seed: int, choices: dict[str, str]
) -> None:
    """RKS-2.4.1 (cards), RKS-7.5.3 (steps), RKS-7.4.2 (flipped units idle), RKS-3.6.2
    (control), RKS-3.5.1 (Rears), RKS-5.1.2 (the loop measure) after every step of a random
    game under a random variant; every game ends with a result naming RKS-4.1.1."""
    allowed = expected_to_break(choices)
    broken: set[str] = set()

    def on_step(before: Any, action: Any, after: Any) -> None:
        broken.update(p.id for p in violated(PROPERTIES, before, action, after))

    start = GAME.initial_state(CATALOGUE.variant("standard", choices))
    result = play(GAME, start, random.Random(seed), on_step=on_step, max_steps=20_000)
    assert broken <= allowed, broken
    assert result.stop == "ended" and result.outcome is not None
    assert result.outcome.clause == "RKS-4.1.1"


def test_rks_5_1_2_non_pass_player_turns_are_bounded_by_the_loop_measure() -> None:
    """RKS-5.1.2, RKS-7.4.1, RKS-7.5.1: in each Player Turn loop, the designations and recruits
    are at most the face-up units plus hand cards at its start (RKS-P-LOOP)."""
    for seed in range(6):
        bound: int | None = None
        used = 0

        def on_step(before: RKState, action: Action, after: RKState) -> None:
            nonlocal bound, used
            if after.phase == Phase.PLAYER_TURNS and before.phase != Phase.PLAYER_TURNS:
                bound, used = loop_measure(after), 0
            if isinstance(action, Designate | Recruit):
                used += 1
                assert bound is not None and used <= bound

        play(
            GAME,
            GAME.initial_state(GAME.presets()["standard"]),
            random.Random(seed),
            on_step=on_step,
        )


def shuttle(game: Any, state: RKState, legal: Sequence[Action], rng: random.Random) -> Action:
    """Designates a unit and moves it back and forth between friendly Areas for ever."""
    if state.stage == Stage.PLAYER_TURN:
        return next((a for a in legal if isinstance(a, Designate)), Pass())
    free = [
        a
        for a in legal
        if isinstance(a, Move) and a.escort is None and friendly(B, state, state.player, a.to)
    ]
    return free[0] if free else (End() if End() in legal else legal[0])


def test_rks_p_ends_fails_a_unit_may_move_endlessly() -> None:
    """RKS-7.2.1, RKS-5.1.2: a unit "may move endlessly" between friendly-controlled Areas, so
    the Player Turn loop need not end: the playout finds a repeated position (a lasso) and
    reports it with the clauses."""
    s = position({"71": (GREAR, ["2C"]), "13Gds": "soviet-rear"}, control={"orlovka": GE})
    result = play(GAME, s, random.Random(0), {"GE": shuttle, "SU": shuttle}, max_steps=60)
    assert result.stop == "step_limit" and result.lasso is not None
    assert result.lasso.end - result.lasso.start == 2
    report = result.report()
    assert "RKS-7.2.1" in report and "without end" in report


def test_play_uses_agents_that_see_only_their_observation() -> None:
    """RKS-3.3.3: without explicit agents a Rattenkrieg playout uses observing agents, whose
    policy gets the side's observation and the legal actions, never the state."""
    agents = default_agents(GAME.rules)
    assert agents is not None and set(agents) == set(GAME.sides)
    seen: list[Mapping[str, Any]] = []

    def policy(
        observation: Mapping[str, Any], legal: Sequence[Action], rng: random.Random
    ) -> Action:
        seen.append(observation)
        return legal[0]

    s = position({"71": (GREAR, ["2C"]), "13Gds": "soviet-rear"}, hands={"SU": ["3H"]})
    agent = observing(policy, GE)
    agent(GAME, s, list(GAME.legal_actions(s)), random.Random(0))
    assert dict(seen[0]) == GAME.observe(s, GE) and seen[0]["hand"] == []


class RattenkriegPlay(RuleBasedStateMachine):
    """Stateful test of the game loop: one rule takes any legal action or chance outcome."""

    def __init__(self) -> None:
        super().__init__()
        self.state = GAME.initial_state(GAME.presets()["standard"])
        self.choices: dict[str, str] = {}

    @initialize(choices=variants)
    def setup(self, choices: dict[str, str]) -> None:
        self.choices = choices
        self.state = GAME.initial_state(CATALOGUE.variant("standard", choices))

    @rule(data=st.data())
    def act(self, data: st.DataObject) -> None:
        side = GAME.to_move(self.state)
        if side is None:
            return
        if side == CHANCE:
            options = [a for a, _ in GAME.chance_outcomes(self.state)]
        else:
            options = list(GAME.legal_actions(self.state))
        assert options, "the side to move always has an action (RKS-5.1.2)"
        action = data.draw(st.sampled_from(options))
        before = self.state
        self.state = GAME.apply(before, action)
        broken = {p.id for p in violated(PROPERTIES, before, action, self.state)}
        assert broken <= expected_to_break(self.choices), broken

    @invariant()
    def codec_round_trip(self) -> None:
        assert GAME.state_from_json(GAME.state_to_json(self.state)) == self.state

    @invariant()
    def sequence_is_in_order(self) -> None:
        """RKS-5.1.1: the Reinforcement Phase is only dealing; RKS-3.1.1: only the Soviet
        places; RKS-4.1.2: there is no Turn 7."""
        s = self.state
        if s.phase == Phase.REINFORCEMENT:
            assert GAME.to_move(s) == CHANCE
        if s.stage == Stage.PLACE:
            assert GAME.to_move(s) == "SU"
        assert 1 <= s.turn <= 6


RattenkriegPlay.TestCase.settings = settings(
    max_examples=15, stateful_step_count=150, deadline=None
)
test_rattenkrieg_stateful = RattenkriegPlay.TestCase


@pytest.mark.parametrize("seed", [3])
def test_the_log_is_readable(seed: int) -> None:
    """The log names operations, revealed cards at judgement, damage, control changes and the
    result with its clause (RKS-8.7.1, RKS-3.6.2, RKS-4.1.1)."""
    lines: list[str] = []
    play_narrated(GAME, GAME.presets()["standard"], seed, lines.append)
    text = "\n".join(lines)
    for needle in ("designates", "judgement:", "controlled (RKS-3.6.2)", "RKS-4.1.1", "Turn 6"):
        assert needle in text
