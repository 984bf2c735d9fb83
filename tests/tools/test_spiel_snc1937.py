"""The SNC as OpenSpiel games (specs/snc1937/spiel.py): OpenSpiel's own random simulation
checks (under a cap: a whole game is ~1000 decisions), the decomposition of compound actions
into sub-decisions, chance probabilities, clone and serialize, the GameType, and observations
built from `observe` alone (SNC-6.3.1 hides the stacks beneath an enemy top unit)."""

from __future__ import annotations

import io
import json
import pickle
import random
from fractions import Fraction
from typing import Any

import attrs
import pytest

from tests.sizes import size

pyspiel = pytest.importorskip("pyspiel")
og = pytest.importorskip("tools.spiel")
ad = pytest.importorskip("tools.spiel.adapter")
from kernel.game import CHANCE  # noqa: E402
from specs.snc1937 import spiel as spiel_snc  # noqa: E402
from specs.snc1937.rules.sequence import stacks  # noqa: E402
from specs.snc1937.rules.state import CH, JP  # noqa: E402
from tests.tools.spiel_helpers import random_step  # noqa: E402

NAMES = ("python_wargame_snc1937_printed", "python_wargame_snc1937_standard")
SIM_CAP = size(60, 400)
"""The cap for `random_sim_test` (its checks at every step of a whole game, ~1000 decisions
and more, would take minutes)."""
PLAY = size(250, 3000)
"""Player decisions of the seeded random games the other checks walk."""


def _kernel(name: str) -> Any:
    return ad._spec(name).game


def _codec(name: str) -> Any:
    return ad._spec(name).codec


def _playout(name: str, seed: int, decisions: int) -> list[Any]:
    """Clones of every state of a seeded random game, up to `decisions` player decisions."""
    game = pyspiel.load_game(name, {"max_game_length": decisions})
    rng = random.Random(seed)
    state = game.new_initial_state()
    out = [state.clone()]
    while not state.is_terminal():
        random_step(state, rng)
        out.append(state.clone())
    return out


def test_registered() -> None:
    assert set(NAMES) <= set(pyspiel.registered_names())
    assert set(NAMES) <= set(og.GAMES)
    assert {f"python_wargame_snc1937_{p}" for p in _kernel(NAMES[0]).presets()} == set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_random_sim(name: str) -> None:
    """OpenSpiel's checks over a random game (capped): legal ids sorted and in range, action
    strings unique, clone, serialize round trip, observations and returns in bounds."""
    game = pyspiel.load_game(name, {"max_game_length": SIM_CAP})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("name", NAMES)
def test_truncated_at_the_cap(name: str) -> None:
    """A small cap ends the game there, as a truncation with returns 0."""
    game = pyspiel.load_game(name, {"max_game_length": 30})
    assert game.max_game_length() == 30
    state = game.new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal():
        random_step(state, rng)
    assert state.end_reason() == "cap" and state.is_truncated()
    assert _kernel(name).outcome(state.kernel_state) is None  # the rules have not ended it
    assert state.returns() == [0.0, 0.0]
    assert "TRUNCATED (cap, 30/30 decisions)" in str(state)


@pytest.mark.parametrize("name", NAMES)
def test_game_type(name: str) -> None:
    game = pyspiel.load_game(name)
    kgame = _kernel(name)
    t = game.get_type()
    assert t.short_name == name
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert not kgame.perfect_information
    assert t.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert t.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert (t.min_num_players, t.max_num_players) == (2, 2)
    assert t.provides_information_state_string and not t.provides_information_state_tensor
    assert t.provides_observation_string and t.provides_observation_tensor
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    assert game.max_game_length() == spiel_snc.MAX_GAME_LENGTH
    # the fixed ranges, from the data: 151 units, 1050 hexes
    u, h = len(kgame.rules.data.units), len(kgame.rules.board.map.hexes)
    assert (u, h) == (151, 1050)
    codec = _codec(name)
    assert game.num_distinct_actions() == codec.num_distinct_actions == 12 + 14 * u + 4 * h
    assert game.max_chance_outcomes() == codec.max_chance_outcomes == 6
    assert game.observation_tensor_size() == codec.observation_size


def test_action_strings_unique() -> None:
    codec = _codec(NAMES[0])
    names = [codec.token_string(i) for i in range(codec.num_distinct_actions)]
    assert len(set(names)) == len(names)
    chance = [codec.chance_string(i) for i in range(codec.max_chance_outcomes)]
    assert len(set(chance)) == len(chance)
    with pytest.raises(ValueError):
        codec.token_string(codec.num_distinct_actions)


def _walk(state: Any, codec: Any) -> set[tuple[int, ...]]:
    """Every id sequence the legal ids allow from `state` (no pending prefix): a sequence ends
    at an atomic or commit id, else the state is cloned and it is applied (a sub-decision
    that keeps a prefix pending)."""
    out: set[tuple[int, ...]] = set()

    def walk(s: Any, path: tuple[int, ...]) -> None:
        ids = s.legal_actions()
        assert ids and ids == sorted(ids)
        for a in ids:
            assert 0 <= a < codec.num_distinct_actions
            if a < codec.sub_first or a >= codec.commit_first:
                out.add((*path, a))
            else:
                child = s.clone()
                child.apply_action(a)
                assert child.prefix == (*path, a)  # a sub-decision never completes an action
                walk(child, (*path, a))

    walk(state, ())
    return out


@pytest.mark.parametrize("name", NAMES)
def test_sequences_build_exactly_the_legal_actions(name: str) -> None:
    """At player nodes of seeded random games, the sequences of legal ids are exactly the
    kernel's legal actions' tokens (no more, no fewer, one each); a sample of them, applied
    through OpenSpiel, reaches the state the kernel's `apply` gives."""
    kgame = _kernel(name)
    codec = _codec(name)
    rng = random.Random(7)
    checked = compound = grouped = 0
    for seed in range(size(2, 8)):
        for k, state in enumerate(_playout(name, seed, PLAY)):
            if state.is_terminal() or state.is_chance_node() or state.prefix or k % 3:
                continue
            legal = kgame.legal_actions(state.kernel_state)
            want = {codec.tokens(a): a for a in legal}
            assert len(want) == len(legal)  # the encoding is one-to-one
            built = _walk(state, codec)
            assert built == set(want)
            for seq in rng.sample(sorted(built), min(2, len(built))):
                s = state.clone()
                for i in seq:
                    s.apply_action(i)
                assert s.prefix == ()
                assert s.kernel_state == kgame.apply(state.kernel_state, want[seq])
            checked += 1
            compound += any(len(seq) > 1 for seq in built)
            grouped += any(len(seq) > 2 for seq in built)
    assert checked >= 20 and compound > 0 and grouped > 0


def test_every_action_kind_encodes() -> None:
    """Every kind of kernel action has ids in range, decoded back by the legal tree."""
    from kernel.hexes import Hex
    from specs.snc1937.rules import actions as A
    from specs.snc1937.rules.state import Order

    codec = _codec(NAMES[0])
    u, h = codec.units[5], Hex(35, 12)
    samples = [
        A.Declare(Order.FIGHT_FIGHT), A.Move((u,), h), A.Move((u, codec.units[6]), h),
        A.Overrun(h), A.Attack(h), A.Join(u), A.Strike(), A.Support("amphibious"),
        A.Intercept(True), A.Intercept(False), A.Loss(u), A.Retreat(u, h), A.Advance(u),
        A.AdvanceOn(u, h), A.Place(u, h), A.Place(u, h, True), A.Land((u,), h), A.Delay(u),
        A.Replace(u), A.Remove(u), A.Eliminate(u), A.Top(u), A.Done(),
    ]  # fmt: skip
    seqs = [codec.tokens(a) for a in samples]
    assert len(set(seqs)) == len(seqs)
    for seq in seqs:
        assert all(0 <= i < codec.num_distinct_actions for i in seq)
        atomic = len(seq) == 1 and seq[0] < codec.sub_first
        assert atomic or (codec.commit_first <= seq[-1] and len(seq) > 1)
        assert all(codec.sub_first <= i < codec.commit_first for i in seq[:-1])
    assert codec.chance_id(A.Roll(6)) == 5
    with pytest.raises(TypeError):
        codec.tokens(A.Roll(1))


@pytest.mark.parametrize("name", NAMES)
def test_chance_probabilities(name: str) -> None:
    """Chance outcomes: the kernel's Fractions as floats, by id, summing to 1."""
    kgame = _kernel(name)
    codec = _codec(name)
    seen = 0
    for state in _playout(name, 1, PLAY):
        if state.is_chance_node():
            kernel = kgame.chance_outcomes(state.kernel_state)
            assert kgame.to_move(state.kernel_state) == CHANCE
            assert sum(p for _, p in kernel) == Fraction(1)
            assert all(p == Fraction(1, 6) for _, p in kernel)
            outs = state.chance_outcomes()
            assert outs == sorted((codec.chance_id(a), float(p)) for a, p in kernel)
            assert sum(p for _, p in outs) == pytest.approx(1.0, abs=1e-12)
            assert [i for i, _ in outs] == list(range(codec.max_chance_outcomes))
            seen += 1
    assert seen > 0


def _pickled_globals(obj: Any) -> set[str]:
    """ "module name" of every global (class or function) that reading a pickle of `obj` back
    loads."""
    names: set[str] = set()

    class Recorder(pickle.Unpickler):
        def find_class(self, module: str, name: str) -> Any:
            names.add(f"{module} {name}")
            return super().find_class(module, name)

    Recorder(io.BytesIO(pickle.dumps(obj))).load()
    return names


@pytest.mark.parametrize("name", NAMES)
def test_clone_and_serialize(name: str) -> None:
    """Clone and serialize round trips along a game (sub-decision prefixes included); the
    serialized state is the kernel's JSON plus the prefix, no solver object."""
    game = pyspiel.load_game(name)
    kgame = _kernel(name)
    with_prefix = 0
    for k, state in enumerate(_playout(name, 2, size(80, 1000))):
        if k % 2 and not state.prefix:
            continue
        for copy in (
            state.clone(),
            pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1],
            game.deserialize_state(state.serialize()),
        ):
            assert copy.kernel_state == state.kernel_state
            assert copy.prefix == state.prefix
            assert copy.legal_actions() == state.legal_actions()
        assert {"_node", "_prefix", "_decisions", "_cap"} <= set(vars(state))
        # the pickle names only the adapter's own helpers (the kernel state goes as its JSON,
        # through `_node_from_json`): no kernel, spec or solver class
        names = _pickled_globals(vars(state))
        assert "tools.spiel.adapter _node_from_json" in names
        assert all(n.startswith("tools.spiel.adapter ") for n in names), names
        doc = json.loads(state.serialize_json())
        assert kgame.state_from_json(doc["state"]) == state.kernel_state
        assert tuple(doc["prefix"]) == state.prefix
        with_prefix += bool(state.prefix)
    assert with_prefix > 0


def _with(state: Any, kernel_state: Any) -> Any:
    """A clone of `state` holding another kernel state (the same pending prefix)."""
    copy = state.clone()
    copy._node = ad._Node(copy._node.key, kernel_state)
    return copy


def _hidden_variants(kgame: Any, s: Any, side: str) -> list[Any]:
    """Kernel states that differ from `s` only in what `side` may not see (SNC-6.3.1): an
    enemy unit beneath the top of its stack reduced or not, or two such units (of stacks of
    one size) swapped between their hexes. At most two of each kind."""
    view = kgame.observe(s, side)
    seen = {u for st in view["stacks"] for u in st["units"]}
    where = dict(s.where)
    hidden = [u for u, _ in s.where if u not in seen]
    st = stacks(s.where)
    flips = (attrs.evolve(s, reduced=s.reduced ^ {u}) for u in hidden)
    swaps = (
        attrs.evolve(s, where=tuple(sorted({**where, a: where[b], b: where[a]}.items())))
        for a in hidden
        for b in hidden
        if where[a] < where[b] and len(st[where[a]]) == len(st[where[b]])
    )
    out = []
    for kind in (flips, swaps):
        found = 0
        for tries, v in enumerate(kind):
            if found == 2 or tries == 20:
                break
            if kgame.observe(v, side) == view:
                out.append(v)
                found += 1
    return out


@pytest.mark.parametrize("name", NAMES)
def test_no_leak(name: str) -> None:
    """Two states with equal `observe` for a side give that side equal observation strings
    and tensors; the other side, who sees the difference, gets different ones."""
    kgame = _kernel(name)
    pairs = {CH: 0, JP: 0}
    for state in _playout(name, 0, size(150, 600))[::10]:
        if state.is_terminal():
            continue
        for player, side in enumerate(kgame.sides):
            for variant in _hidden_variants(kgame, state.kernel_state, side):
                other = _with(state, variant)
                assert other.kernel_state != state.kernel_state
                assert other.observation_string(player) == state.observation_string(player)
                assert other.observation_tensor(player) == state.observation_tensor(player)
                owner = 1 - player
                if kgame.observe(variant, kgame.sides[owner]) != kgame.observe(
                    state.kernel_state, kgame.sides[owner]
                ):
                    assert other.observation_string(owner) != state.observation_string(owner)
                    assert other.observation_tensor(owner) != state.observation_tensor(owner)
                pairs[side] += 1
    assert pairs[CH] > 0 and pairs[JP] > 0


@pytest.mark.parametrize("name", NAMES)
def test_observation_follows_observe(name: str) -> None:
    """Along a game: the observation string is `observe` and the visible prefix (the pending
    sub-decisions only to the side choosing them); the tensor changes exactly when these do."""
    kgame = _kernel(name)
    last: dict[int, tuple[str, list[float]]] = {}
    changed = hidden_prefix = 0
    for state in _playout(name, 4, size(150, 1000)):
        mover = state.current_player()
        for player, side in enumerate(kgame.sides):
            text = state.observation_string(player)
            tensor = state.observation_tensor(player)
            shown = list(state.prefix) if player == mover else []
            obs = {"observation": kgame.observe(state.kernel_state, side), "prefix": shown}
            assert text == json.dumps(obs, sort_keys=True)
            if player in last:
                assert (last[player][0] == text) == (last[player][1] == tensor)
                changed += last[player][0] != text
            last[player] = (text, tensor)
            hidden_prefix += bool(state.prefix) and player != mover
    assert changed > 0 and hidden_prefix > 0


def test_snc_9_0_10_a_group_formed_unit_by_unit_through_openspiel() -> None:
    """SNC-9.0.10, SNC-9.6.2: a group of two of three regiments is formed by join ids (one per
    unit, no subsets listed) and moves with the compound "move, with, to" sequence; at each step
    the sequences are exactly the kernel's legal actions, applying them gives the kernel's
    states, and the tensor's step field reads "group" while it is formed."""
    from specs.snc1937.rules import actions as A
    from specs.snc1937.rules.state import Order, Step
    from tests.snc1937.test_move_groups import H, position

    name = NAMES[1]
    kgame, codec = _kernel(name), _codec(name)
    s = position()
    assert kgame.to_move(s) == JP and s.order == Order.MOVE_MOVE
    state = _with(pyspiel.load_game(name).new_initial_state(), s)
    pair = ("JP-11D-1", "JP-11D-2")
    steps = [A.Join(pair[0]), A.Join(pair[1]), A.Move(pair, H("2806"))]
    for action in steps:
        legal = kgame.legal_actions(state.kernel_state)
        assert _walk(state, codec) == {codec.tokens(a) for a in legal}
        before = state.kernel_state
        for i in codec.tokens(action):
            state.apply_action(i)
        assert state.kernel_state == kgame.apply(before, action)
        tensor = state.observation_tensor(1)
        at = codec.offsets["step"] + spiel_snc.STEPS.index("group")
        assert (tensor[at] == 1) == (state.kernel_state.step == Step.GROUP)
    assert state.kernel_state.moving == pair and state.kernel_state.step == Step.MAIN
