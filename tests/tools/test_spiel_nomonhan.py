"""Nomonhan as OpenSpiel games (specs/nomonhan/spiel.py): OpenSpiel's own random
simulation checks, and what the adapter promises (the decomposition of declarations, chance
probabilities, clone and serialize, the GameType, observations built from `observe`)."""

from __future__ import annotations

import itertools
import json
import random
from fractions import Fraction
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")
og = pytest.importorskip("tools.spiel")
ad = pytest.importorskip("tools.spiel.adapter")
from kernel.game import CHANCE  # noqa: E402
from specs.nomonhan import spiel as spiel_nomonhan  # noqa: E402
from specs.nomonhan.rules.state import Stage  # noqa: E402
from tests.tools.spiel_helpers import pickled_globals, random_step, sequences_from  # noqa: E402

NAMES = ("python_wargame_nomonhan_ja", "python_wargame_nomonhan_en")


def _kernel(name: str) -> Any:
    return ad._spec(name).game


def test_registered() -> None:
    assert set(NAMES) <= set(pyspiel.registered_names())
    assert set(NAMES) <= set(og.GAMES)


@pytest.mark.parametrize("name", NAMES)
def test_random_sim(name: str) -> None:
    """OpenSpiel's checks over whole random games: legal ids sorted and in range, action
    strings unique, clone, serialize round trip, observations and returns in bounds."""
    pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("name", NAMES)
def test_random_sim_truncated(name: str) -> None:
    """A small cap: the games end there, reported as truncations, and still pass the checks."""
    game = pyspiel.load_game(name, {"max_game_length": 30})
    assert game.max_game_length() == 30
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    state = game.new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal():
        random_step(state, rng)
    assert state.end_reason() == "cap" and state.is_truncated()
    assert state.returns() == [0.0, 0.0]
    assert "TRUNCATED (cap, 30/30 decisions)" in str(state)


@pytest.mark.parametrize("name", NAMES)
def test_game_type(name: str) -> None:
    game = pyspiel.load_game(name)
    t = game.get_type()
    assert t.short_name == name
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert _kernel(name).perfect_information
    assert t.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert t.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert (t.min_num_players, t.max_num_players) == (2, 2)
    assert t.provides_information_state_string and not t.provides_information_state_tensor
    assert t.provides_observation_string and t.provides_observation_tensor
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    assert game.max_game_length() == spiel_nomonhan.MAX_GAME_LENGTH
    codec = ad._spec(name).codec
    assert game.num_distinct_actions() == codec.num_distinct_actions == 3282
    assert game.max_chance_outcomes() == codec.max_chance_outcomes == 262


def _playout_states(name: str, seeds: range, want: Stage) -> list[Any]:
    """Clones of the OpenSpiel states of seeded random games where the kernel is at `want`
    with no sub-decision pending (at most one per game, after some play)."""
    game = pyspiel.load_game(name)
    found = []
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.kernel_state.stage == want and not state.prefix and steps > 20:
                found.append(state.clone())
                break
            random_step(state, rng)
            steps += 1
    return found


@pytest.mark.parametrize("name", NAMES)
def test_declarations_built_exactly(name: str) -> None:
    """At Combat Phases of seeded games, the sub-decisions build exactly the legal
    declarations, each to the state the kernel's `apply` gives."""
    kgame = _kernel(name)
    codec = ad._spec(name).codec
    states = _playout_states(name, range(8), Stage.DECLARE)
    assert len(states) >= 4
    compound = 0
    for state in states:
        legal = kgame.legal_actions(state.kernel_state)
        built = sequences_from(state)
        want = {codec.tokens(a): a for a in legal}
        assert len(want) == len(legal)  # the encoding is one-to-one
        assert set(built) == set(want)
        for seq, reached in built.items():
            assert reached == kgame.apply(state.kernel_state, want[seq])
            assert seq[-1] == codec.base["commit"]
            assert all(codec.sub_first <= t < codec.num_distinct_actions for t in seq)
            compound += len(seq) > 1
    assert compound > 0


@pytest.mark.parametrize("name", NAMES)
def test_atomic_actions(name: str) -> None:
    """Elsewhere every legal action is one id, distinct, in range, below the sub-decisions."""
    kgame = _kernel(name)
    codec = ad._spec(name).codec
    game = pyspiel.load_game(name)
    rng = random.Random(11)
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal() and checked < 300:
        if not state.is_chance_node() and state.kernel_state.stage != Stage.DECLARE:
            legal = kgame.legal_actions(state.kernel_state)
            ids = sorted(codec.tokens(a)[0] for a in legal)
            assert all(len(codec.tokens(a)) == 1 for a in legal)
            assert ids == state.legal_actions() and len(set(ids)) == len(ids)
            assert all(0 <= i < codec.sub_first for i in ids)
            checked += 1
        random_step(state, rng)


@pytest.mark.parametrize("name", NAMES)
def test_chance_probabilities(name: str) -> None:
    """Chance outcomes: the kernel's Fractions as floats, by id, summing to 1."""
    kgame = _kernel(name)
    codec = ad._spec(name).codec
    game = pyspiel.load_game(name)
    seen = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                kernel = kgame.chance_outcomes(state.kernel_state)
                assert kgame.to_move(state.kernel_state) == CHANCE
                assert sum(p for _, p in kernel) == Fraction(1)
                outs = state.chance_outcomes()
                assert outs == sorted((codec.chance_id(a), float(p)) for a, p in kernel)
                assert sum(p for _, p in outs) == pytest.approx(1.0, abs=1e-12)
                assert all(0 <= i < codec.max_chance_outcomes for i, _ in outs)
                seen += 1
            random_step(state, rng)
    assert seen > 0


@pytest.mark.parametrize("name", NAMES)
def test_clone_and_serialize(name: str) -> None:
    """Clone and serialize round trips, at every step of a game (declaration prefixes
    included); the serialized state is the kernel's JSON plus the prefix, nothing else."""
    game = pyspiel.load_game(name)
    kgame = _kernel(name)
    rng = random.Random(5)
    state = game.new_initial_state()
    with_prefix = 0
    for _ in range(400):
        if state.is_terminal():
            break
        for copy in (
            state.clone(),
            pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1],
            game.deserialize_state(state.serialize()),
        ):
            assert str(copy) == str(state)
            assert copy.kernel_state == state.kernel_state
            assert copy.prefix == state.prefix
            assert copy.history() == state.history()
            assert copy.legal_actions() == state.legal_actions()
        assert set(vars(state)) == {"_node", "_prefix", "_decisions", "_cap", "_recall"}
        # the pickle names no kernel class: the kernel's JSON reader, through the node, and
        # the information-state lines' holder, which pickles empty
        assert pickled_globals(vars(state)) == {
            "tools.spiel.adapter _node_from_json",
            "tools.spiel.adapter _Recall",
        }
        doc = json.loads(state.serialize_json())
        assert kgame.state_from_json(doc["state"]) == state.kernel_state
        assert tuple(doc["prefix"]) == state.prefix
        with_prefix += bool(state.prefix)
        random_step(state, rng)
    assert with_prefix > 0


def _after(state: Any, ids: tuple[int, ...]) -> Any:
    """A clone of `state` after `ids`, or None when one of them is not legal there."""
    s = state.clone()
    for i in ids:
        if s.is_terminal() or i not in s.legal_actions():
            return None
        s.apply_action(i)
    return s


@pytest.mark.parametrize("name", NAMES)
def test_observation_from_observe(name: str) -> None:
    """Two move orders to one position: equal `observe`, so equal observation strings and
    tensors for each side; the information states (perfect recall) differ."""
    game = pyspiel.load_game(name)
    kgame = _kernel(name)
    start = game.new_initial_state()
    codec = ad._spec(name).codec
    moves = [a for a in start.legal_actions() if a < codec.base["enter"]]
    a = b = start
    for m1, m2 in itertools.combinations(moves, 2):
        if m1 // len(codec.hexes) == m2 // len(codec.hexes):
            continue  # one unit
        a, b = _after(start, (m1, m2)), _after(start, (m2, m1))
        if a is not None and b is not None and a.kernel_state == b.kernel_state:
            break
    assert a is not None and b is not None
    assert a.kernel_state == b.kernel_state and a.history() != b.history()
    for player, side in enumerate(kgame.sides):
        assert kgame.observe(a.kernel_state, side) == kgame.observe(b.kernel_state, side)
        assert a.observation_string(player) == b.observation_string(player)
        assert a.observation_tensor(player) == b.observation_tensor(player)
        assert a.information_state_string(player) != b.information_state_string(player)
        obs = json.loads(a.observation_string(player))
        assert obs == {"observation": kgame.observe(a.kernel_state, side), "prefix": []}
