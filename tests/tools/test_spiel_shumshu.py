"""Shumshu as OpenSpiel games (specs/shumshu/spiel.py): OpenSpiel's own random simulation
checks, and what the adapter promises for an imperfect-information game (defences built from
sub-decisions, chance probabilities, clone and serialize, the GameType, observations built
from `observe` that leak no face-down piece)."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")
og = pytest.importorskip("tools.spiel")
ad = pytest.importorskip("tools.spiel.adapter")
from kernel.game import CHANCE  # noqa: E402
from specs.shumshu import spiel as spiel_shumshu  # noqa: E402
from specs.shumshu.rules.actions import AirRoll, Defend  # noqa: E402
from specs.shumshu.rules.state import Stage  # noqa: E402
from tests.sizes import size  # noqa: E402
from tests.tools.spiel_helpers import random_step, sequences_from  # noqa: E402

NAME = "python_wargame_shumshu_draft"
JAPANESE_SHUMSHU = ("JP-IB1", "JP-IB2", "JP-IB3", "JP-TK1", "JP-DC1", "JP-DC2")
"""The pieces set up face down on Shumshu (SHU-SETUP.1)."""
DEFENCE_SEEDS = (214, 319, 329)
"""Seeds of `_random_step` play that reach a choice of defenders (SHU-STACK.3): a Japanese
attack on four Russian units, of which three defend. Random play rarely gets there. (Found
again when the set-up became free in order, SHU-SETUP.1, which changed every seeded game, and
when the Japanese declaration opened whenever they are in contact, SHU-SEQ.1.)"""


def _kernel() -> Any:
    return ad._spec(NAME).game


def _codec() -> Any:
    return ad._spec(NAME).codec


def _names() -> list[str]:
    return [f"python_wargame_shumshu_{p}" for p in sorted(_kernel().presets())]


def _play(seed: int, game: Any = None, until: Any = None) -> Any:
    """The state of seeded random play at its end, or at the first state `until` accepts."""
    game = game or pyspiel.load_game(NAME)
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal() and not (until is not None and until(state)):
        random_step(state, rng)
    return state


def _at_defence(state: Any) -> bool:
    return bool(state.kernel_state.stage == Stage.DEFENDERS and not state.prefix)


def test_registered() -> None:
    names = _names()
    assert names == [NAME]
    assert set(names) <= set(pyspiel.registered_names())
    assert set(names) <= set(og.GAMES)


@pytest.mark.parametrize("name", [NAME])
def test_random_sim(name: str) -> None:
    """OpenSpiel's checks over whole random games: legal ids sorted and in range, action
    strings unique, clone, serialize round trip, observations and returns in bounds."""
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=size(1, 10), serialize=True, verbose=False)


def test_legal_trees_are_kept_per_state() -> None:
    """The codec's kept legal trees: one per equal state, the kernel's legal actions."""
    kgame, codec = _kernel(), _codec()
    state = _play(7, until=lambda s: s.move_number() > 30 and not s.is_chance_node())
    ks = state.kernel_state
    copy = kgame.state_from_json(kgame.state_to_json(ks))
    assert copy == ks and copy is not ks
    tree = codec.legal_tree(kgame, ks)
    assert codec.legal_tree(kgame, copy) is tree
    assert tree.next_ids(()) == sorted({codec.tokens(a)[0] for a in kgame.legal_actions(ks)})
    assert len(codec._trees) <= codec.TREES


def test_random_sim_truncated() -> None:
    """A small cap: the games end there, reported as truncations, and still pass the checks."""
    game = pyspiel.load_game(NAME, {"max_game_length": 40})
    assert game.max_game_length() == 40
    pyspiel.random_sim_test(game, num_sims=size(1, 4), serialize=True, verbose=False)
    state = _play(3, game)
    assert state.end_reason() == "cap" and state.is_truncated()
    assert state.returns() == [0.0, 0.0]
    assert "TRUNCATED (cap, 40/40 decisions)" in str(state)


def test_game_type() -> None:
    game = pyspiel.load_game(NAME)
    t = game.get_type()
    assert t.short_name == NAME
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert not _kernel().perfect_information
    assert t.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert t.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert (t.min_num_players, t.max_num_players) == (2, 2)
    assert t.provides_information_state_string and not t.provides_information_state_tensor
    assert t.provides_observation_string and t.provides_observation_tensor
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    codec = _codec()
    units, hexes = len(codec.units), len(codec.hexes)
    assert (units, hexes) == (20, 25)
    # seven unit-and-hex kinds, three unit kinds and a defender, two hex kinds, strike, hold,
    # eight commits, done, and the defence's commit
    want = 7 * units * hexes + 4 * units + 2 * hexes + 2 + 2 + 8 + 1 + 1
    assert game.num_distinct_actions() == codec.num_distinct_actions == want == 3644
    assert game.max_chance_outcomes() == codec.max_chance_outcomes == 6 + 6 * (units + 1)
    assert game.observation_tensor_size() == codec.observation_size


def test_cap_is_the_rules_bound() -> None:
    """The cap is the bound from the rules (6 half-days of the draft preset, SHU-SEQ.2), far
    above what play reaches: every seeded game ends by the rules."""
    kgame = _kernel()
    variant = kgame.presets()["draft"]
    cap = spiel_shumshu.max_game_length(kgame.rules, variant)
    assert pyspiel.load_game(NAME).max_game_length() == cap == 3024
    longest = 0
    for seed in range(size(6, 60)):
        state = _play(seed)
        assert state.end_reason() == "rules"
        assert kgame.outcome(state.kernel_state) is not None
        decisions = sum(1 for item in state.full_history() if item.player >= 0)
        longest = max(longest, decisions)
    assert 0 < longest < cap // 10


def test_action_strings_unique_and_ids_in_range() -> None:
    codec = _codec()
    names = [codec.token_string(i) for i in range(codec.num_distinct_actions)]
    assert len(set(names)) == len(names)
    chances = [codec.chance_string(i) for i in range(codec.max_chance_outcomes)]
    assert len(set(chances)) == len(chances)
    with pytest.raises(ValueError):
        codec.token_string(codec.num_distinct_actions)


def _check_built(state: Any) -> int:
    """The sequences from `state` build exactly the kernel's legal actions, each to the state
    the kernel's `apply` gives; returns how many are compound."""
    kgame, codec = _kernel(), _codec()
    legal = kgame.legal_actions(state.kernel_state)
    want = {codec.tokens(a): a for a in legal}
    assert len(want) == len(legal)  # the encoding is one-to-one
    built = sequences_from(state)
    assert set(built) == set(want)
    for seq, reached in built.items():
        assert reached == kgame.apply(state.kernel_state, want[seq])
        assert all(0 <= t < codec.num_distinct_actions for t in seq)
        if len(seq) > 1:
            assert isinstance(want[seq], Defend)
            assert seq[-1] == codec.base["defend"]
            assert all(codec.sub_first <= t for t in seq)
    return sum(len(seq) > 1 for seq in built)


def test_sequences_build_exactly_the_legal_actions() -> None:
    """At every player node of seeded random games, the ids build exactly the kernel's legal
    actions; atomic ones are one id below the defence's sub-decisions."""
    codec = _codec()
    game = pyspiel.load_game(NAME)
    nodes = 0
    for seed in range(size(2, 20)):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if not state.is_chance_node() and not state.prefix:
                _check_built(state)
                if state.kernel_state.stage != Stage.DEFENDERS:
                    assert all(i < codec.sub_first for i in state.legal_actions())
                nodes += 1
            random_step(state, rng)
    assert nodes > 100


def test_defences_are_built_from_sub_decisions() -> None:
    """Where the defender chooses among several defences (SHU-STACK.3), each is its units in
    data order then `defend`, and no other sequence is offered."""
    compound = 0
    for seed in DEFENCE_SEEDS:
        state = _play(seed, until=_at_defence)
        assert _at_defence(state)
        legal = _kernel().legal_actions(state.kernel_state)
        assert len(legal) > 1 and all(isinstance(a, Defend) for a in legal)
        compound += _check_built(state)
        assert max(len(_codec().tokens(a)) for a in legal) == 4  # three defenders, commit
    assert compound >= 3 * len(DEFENCE_SEEDS)


def test_chance_probabilities() -> None:
    """Chance outcomes: the kernel's Fractions as floats, by id, summing to 1; the Ki-43's
    roll (SHU-AIR.2) included."""
    kgame, codec = _kernel(), _codec()
    game = pyspiel.load_game(NAME)
    seen, air = 0, 0
    for seed in range(size(4, 40)):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                kernel = kgame.chance_outcomes(state.kernel_state)
                assert kgame.to_move(state.kernel_state) == CHANCE
                assert sum(p for _, p in kernel) == Fraction(1)
                outs = state.chance_outcomes()
                assert outs == sorted((codec.chance_id(a), float(p)) for a, p in kernel)
                assert len({i for i, _ in outs}) == len(outs)
                assert sum(p for _, p in outs) == pytest.approx(1.0, abs=1e-12)
                assert all(0 <= i < codec.max_chance_outcomes for i, _ in outs)
                seen += 1
                air += isinstance(kernel[0][0], AirRoll)
            random_step(state, rng)
    assert seen > 0 and air > 0


def _copies(game: Any, state: Any) -> list[Any]:
    return [
        state.clone(),
        pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1],
        game.deserialize_state(state.serialize()),
    ]


def test_clone_and_serialize() -> None:
    """Clone and serialize round trips at every step of a game and within a defence; the
    serialized state is the kernel's JSON (hidden pieces included) plus the prefix."""
    game = pyspiel.load_game(NAME)
    kgame = _kernel()
    state = _play(DEFENCE_SEEDS[0], game, until=_at_defence)
    state.apply_action(state.legal_actions()[0])
    assert state.prefix
    checked = [state]
    rng = random.Random(5)
    walk = game.new_initial_state()
    for _ in range(size(60, 400)):
        if walk.is_terminal():
            break
        checked.append(walk.clone())
        random_step(walk, rng)
    for s in checked:
        for copy in _copies(game, s):
            assert str(copy) == str(s)
            assert copy.kernel_state == s.kernel_state
            assert copy.prefix == s.prefix
            assert copy.history() == s.history()
            assert copy.is_terminal() or copy.legal_actions() == s.legal_actions()
        assert set(vars(s)) == {"_node", "_prefix", "_decisions", "_cap", "_recall"}
        doc = json.loads(s.serialize_json())
        assert kgame.state_from_json(doc["state"]) == s.kernel_state
        assert tuple(doc["prefix"]) == s.prefix


def _setup(order: list[int]) -> Any:
    """The initial state after placing the Japanese pieces at the hexes `order` (hex indices,
    one per piece, SHU-SETUP.1)."""
    codec = _codec()
    state = pyspiel.load_game(NAME).new_initial_state()
    for k in order:
        unit = codec.token_string(state.legal_actions()[0]).split()[1]
        state.apply_action(codec.base["place"] + codec.unit_ix[unit] * len(codec.hexes) + k)
    return state


def test_no_leak_of_face_down_pieces() -> None:
    """Two set-ups with the Japanese pieces at the same hexes in another order (face down,
    SHU-COMBAT.5): the Russians' observations are equal, so are their observation strings,
    tensors and information states; the Japanese see the difference, and so do their strings
    and tensors."""
    ru, jp = 0, 1
    a, b = _setup([0, 5, 9, 12, 20, 24]), _setup([24, 20, 12, 9, 5, 0])
    kgame = _kernel()
    assert kgame.sides == ("RU", "JP")
    assert a.kernel_state != b.kernel_state
    assert a.current_player() == b.current_player() == ru
    assert kgame.observe(a.kernel_state, "RU") == kgame.observe(b.kernel_state, "RU")
    assert a.observation_string(ru) == b.observation_string(ru)
    assert a.observation_tensor(ru) == b.observation_tensor(ru)
    assert a.observation_string(jp) != b.observation_string(jp)
    assert a.observation_tensor(jp) != b.observation_tensor(jp)
    # the same Russian play keeps the two apart only where the Japanese pieces show
    for act in a.legal_actions()[:3]:
        x, y = a.clone(), b.clone()
        x.apply_action(act)
        y.apply_action(act)
        if kgame.observe(x.kernel_state, "RU") == kgame.observe(y.kernel_state, "RU"):
            assert x.observation_tensor(ru) == y.observation_tensor(ru)
    # a face-down piece's identity is nowhere in the Russians' strings, their information
    # state (perfect recall) included: it holds their observations, not the Japanese ids
    for text in (a.observation_string(ru), a.information_state_string(ru)):
        assert not any(unit in text for unit in JAPANESE_SHUMSHU)
    for text in (a.observation_string(jp), a.information_state_string(jp)):
        assert all(unit in text for unit in JAPANESE_SHUMSHU)
    assert a.information_state_string(jp) != b.information_state_string(jp)


def test_observation_from_observe_and_tensor_follows_it() -> None:
    """Along seeded games, each side's observation string is `observe` plus its own pending
    prefix, and its tensor changes whenever its observation does (so the tensor keeps what
    the observation says)."""
    kgame = _kernel()
    game = pyspiel.load_game(NAME)
    prefixed = 0
    states = [_play(DEFENCE_SEEDS[1], game, until=_at_defence)]
    states[0].apply_action(states[0].legal_actions()[0])
    for seed in range(size(2, 10)):
        rng = random.Random(seed)
        s = game.new_initial_state()
        while not s.is_terminal():
            states.append(s.clone())
            random_step(s, rng)
        states.append(s)
    seen: dict[int, dict[str, tuple[float, ...]]] = {0: {}, 1: {}}
    for s in states:
        mover = s.current_player()
        for player, side in enumerate(kgame.sides):
            obs = kgame.observe(s.kernel_state, side)
            prefix = list(s.prefix) if player == mover else []
            text = s.observation_string(player)
            assert json.loads(text) == {"observation": obs, "prefix": prefix}
            tensor = tuple(s.observation_tensor(player))
            assert seen[player].setdefault(text, tensor) == tensor
            prefixed += bool(s.prefix) and player != mover
            if s.prefix and player != mover:
                assert json.loads(text)["prefix"] == []
    for player in (0, 1):
        assert len(set(seen[player].values())) == len(seen[player]) > 50
    assert prefixed > 0
