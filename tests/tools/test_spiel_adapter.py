"""The generic OpenSpiel adapter (tools/spiel/adapter.py) on a hidden-information game: the
perfect-recall information state built one line per step equals the one replayed from the
start, on the played state, on its clones and on a state read back from its serialization."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")
spiel = pytest.importorskip("tools.spiel")

NAME = "python_wargame_shumshu_draft"


def _step(state: object, rng: random.Random) -> None:
    if state.is_chance_node():  # type: ignore[attr-defined]
        ids, probs = zip(*state.chance_outcomes(), strict=True)  # type: ignore[attr-defined]
        state.apply_action(rng.choices(ids, probs)[0])  # type: ignore[attr-defined]
    else:
        state.apply_action(rng.choice(state.legal_actions()))  # type: ignore[attr-defined]


@pytest.mark.parametrize("seed", [1, 2])
def test_information_state_one_line_per_step_equals_the_replay(seed: int) -> None:
    game = pyspiel.load_game(NAME)
    rng = random.Random(seed)
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal() and steps < 60:
        asked_every = steps % 3 != 2  # sometimes skipped: then the lines are rebuilt
        if asked_every:
            lines = [state.information_state_string(p) for p in range(game.num_players())]
            fresh = game.deserialize_state(state.serialize())  # no lines: replays the game
            replayed = [fresh.information_state_string(p) for p in range(game.num_players())]
            assert lines == replayed
            clone = state.clone()
            _step(clone, random.Random(seed * 100 + steps))
            twin = game.deserialize_state(clone.serialize())
            assert [clone.information_state_string(p) for p in range(2)] == [
                twin.information_state_string(p) for p in range(2)
            ]
            # the clone's step did not reach the original's lines
            assert [state.information_state_string(p) for p in range(2)] == lines
        _step(state, rng)
        steps += 1
    assert steps > 20
