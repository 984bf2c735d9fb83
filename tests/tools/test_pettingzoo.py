"""PettingZoo (issue 16, item 2): every game registered with OpenSpiel, as an AEC environment
through Shimmy's OpenSpiel wrapper, passes PettingZoo's own `api_test`; its action masks are
exactly the legal action ids of the side to move, along whole random games."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")
shimmy = pytest.importorskip("shimmy")
api = pytest.importorskip("pettingzoo.test")

from tests.sizes import cases, size  # noqa: E402
from tools import spiel  # noqa: E402  (after the skips: it imports pyspiel)
from tools.registry import game_names  # noqa: E402

NAMES = spiel.GAMES
FIRST = [next(n for n in NAMES if n.startswith(f"python_wargame_{g}_")) for g in game_names()]
"""One preset per game (the first registered); `make bench` runs PettingZoo's test on each."""
API_TESTED: list[str] = cases(FIRST, [n for n in NAMES if n not in FIRST])


@pytest.mark.parametrize("name", API_TESTED)
def test_the_aec_environment_passes_pettingzoos_api_test(name: str) -> None:
    env = shimmy.OpenSpielCompatibilityV0(env=pyspiel.load_game(name), render_mode=None)
    api.api_test(env, num_cycles=300)


@pytest.mark.parametrize("name", NAMES)
def test_action_masks_are_the_legal_actions_of_the_side_to_move(name: str) -> None:
    env = shimmy.OpenSpielCompatibilityV0(env=pyspiel.load_game(name), render_mode=None)
    rng = random.Random(4)
    for seed in range(size(1, 2)):
        env.reset(seed=seed)
        steps = 0
        for agent in env.agent_iter(max_iter=size(600, 3000)):
            _obs, _reward, terminated, truncated, info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            mask = info["action_mask"]
            legal = env.game_state.legal_actions()
            assert sorted(int(i) for i in mask.nonzero()[0]) == sorted(legal), agent
            env.step(rng.choice(legal))
            steps += 1
        assert steps > 10
