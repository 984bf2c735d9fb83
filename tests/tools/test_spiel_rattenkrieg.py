"""Rattenkrieg as OpenSpiel games (specs/rattenkrieg/spiel.py): OpenSpiel's own random
simulation checks, and what the adapter promises (the discard built card by card from the
kernel's lazy `DiscardChoices`, chance probabilities, clone and serialize, the GameType,
observations built from `observe` that leak nothing hidden)."""

from __future__ import annotations

import io
import json
import pickle
import random
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import attrs
import pytest

from tests.sizes import size

pyspiel = pytest.importorskip("pyspiel")
og = pytest.importorskip("tools.spiel")
ad = pytest.importorskip("tools.spiel.adapter")
from kernel.game import CHANCE  # noqa: E402
from specs.rattenkrieg import spiel as spiel_rk  # noqa: E402
from specs.rattenkrieg.game import Rattenkrieg  # noqa: E402
from specs.rattenkrieg.io.tensor import CARDS  # noqa: E402
from specs.rattenkrieg.rules import actions as A  # noqa: E402
from specs.rattenkrieg.rules.actions import Discard  # noqa: E402
from specs.rattenkrieg.rules.legal import DiscardChoices  # noqa: E402
from specs.rattenkrieg.rules.state import Pick as KPick  # noqa: E402
from specs.rattenkrieg.rules.state import Stage  # noqa: E402
from tests.tools.spiel_helpers import random_step, sequences_from  # noqa: E402

PRESETS = sorted(Rattenkrieg().presets())
NAMES = [f"python_wargame_rattenkrieg_{p}" for p in PRESETS]
GAMES = size(1, 4)
"""Whole seeded games per preset walked by the exact-legality check (tests.sizes)."""
SIM_CAP = size(16, spiel_rk.MAX_GAME_LENGTH)
"""The decisions of OpenSpiel's random simulation check: the set-up and the first Player Turns
in `make test`, whole games in `make bench` (tests.sizes; see `test_random_sim`)."""


def _kernel(name: str) -> Any:
    return ad._spec(name).game


def _codec(name: str) -> spiel_rk.RattenkriegCodec:
    codec = ad._spec(name).codec
    assert isinstance(codec, spiel_rk.RattenkriegCodec)
    return codec


def _play(name: str, seed: int, params: dict[str, int] | None = None) -> Iterator[Any]:
    """Every state of a seeded random game, the first included (one object, updated)."""
    state = pyspiel.load_game(name, params or {}).new_initial_state()
    rng = random.Random(seed)
    yield state
    while not state.is_terminal():
        random_step(state, rng)
        yield state


def _first(name: str, seed: int, want: Any) -> Any:
    """A clone of the first state of a seeded game where `want(state)` holds."""
    for state in _play(name, seed):
        if want(state):
            return state.clone()
    raise AssertionError(f"no such state in game {seed}")


def test_registered() -> None:
    assert set(NAMES) <= set(pyspiel.registered_names())
    assert set(NAMES) <= set(og.GAMES)
    assert len(NAMES) == 2  # standard, soviet_recruiting


@pytest.mark.parametrize("name", NAMES)
def test_random_sim(name: str) -> None:
    """OpenSpiel's checks (legal ids sorted and in range, action strings unique, clone,
    serialize round trip, observations, information states, returns) along a random game, cut
    at `SIM_CAP` decisions: a whole game (some 400 decisions and 300 draws, with information
    states asked at every step) costs more than the rest of this file together."""
    game = pyspiel.load_game(name, {"max_game_length": SIM_CAP})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("name", NAMES)
def test_truncated_at_a_small_cap(name: str) -> None:
    """A small cap ends the game there, reported as a truncation with no winner."""
    *_, state = _play(name, 3, {"max_game_length": 40})
    assert state.get_game().max_game_length() == 40
    assert state.end_reason() == "cap" and state.is_truncated() and state.is_terminal()
    assert state.returns() == [0.0, 0.0]
    assert _kernel(name).to_move(state.kernel_state) is not None  # the rules go on
    assert "TRUNCATED (cap, 40/40 decisions)" in str(state)


@pytest.mark.parametrize("name", NAMES)
def test_game_type(name: str) -> None:
    game = pyspiel.load_game(name)
    t = game.get_type()
    assert t.short_name == name
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert not _kernel(name).perfect_information
    assert t.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert t.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert (t.min_num_players, t.max_num_players) == (2, 2)
    assert t.provides_information_state_string and not t.provides_information_state_tensor
    assert t.provides_observation_string and t.provides_observation_tensor
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    assert game.max_game_length() == spiel_rk.MAX_GAME_LENGTH
    assert ad._spec(name).variant == Rattenkrieg().presets()[name.rsplit("_rattenkrieg_")[1]]


def test_id_ranges_come_from_the_data() -> None:
    """The id ranges are counted from the counters, Areas and cards, not from play."""
    codec = _codec(NAMES[0])
    board = _kernel(NAMES[0]).rules.board
    u, a, c = len(board.data.units), len(board.areas), 52
    assert (u, a) == (17, 14)
    want = u * a + 2 * u + 1 + a * (1 + u) + c + 1 + c * (1 + u) + 1 + u + 2 * c + 2
    want += u * a + u * (c + 1) + 2 * u + c + 2 + 4
    assert codec.num_distinct_actions == want == 2869
    assert codec.max_chance_outcomes == 2 * c
    for name in NAMES:
        game = pyspiel.load_game(name)
        assert game.num_distinct_actions() == want
        assert game.max_chance_outcomes() == 104
        assert game.observation_tensor_size() == codec.observation_size
    strings = [codec.token_string(i) for i in range(want)]
    assert len(set(strings)) == want
    chance = [codec.chance_string(i) for i in range(2 * c)]
    assert len(set(chance)) == 2 * c
    with pytest.raises(ValueError):
        codec.token_string(want)


@pytest.mark.parametrize("name", NAMES)
def test_sequences_build_exactly_the_legal_actions(name: str) -> None:
    """Along whole seeded games, at every player node: the id sequences the adapter offers
    are exactly the tokens of the kernel's legal actions (one-to-one, in range, with unique
    strings), each reaching the state the kernel's `apply` gives; discards are their cards
    in ascending order then one commit; chance outcomes are the kernel's Fractions."""
    kgame, codec = _kernel(name), _codec(name)
    stages: set[Stage] = set()
    kinds: set[str] = set()
    discards = multi = chance = 0
    for seed in range(2, 2 + GAMES):  # seed 2: a 3-card and a 4-card hand at a discard
        for state in _play(name, seed):
            if state.is_terminal():
                assert state.end_reason() == "rules"
                break
            ks = state.kernel_state
            if state.is_chance_node():
                kernel = kgame.chance_outcomes(ks)
                assert kgame.to_move(ks) == CHANCE
                assert sum(p for _, p in kernel) == Fraction(1)
                outs = state.chance_outcomes()
                assert outs == sorted((codec.chance_id(a), float(p)) for a, p in kernel)
                assert len({i for i, _ in outs}) == len(outs)
                assert all(0 <= i < codec.max_chance_outcomes for i, _ in outs)
                chance += 1
                continue
            if state.prefix:
                continue
            stages.add(ks.stage)
            legal = list(kgame.legal_actions(ks))
            want = {codec.tokens(a): a for a in legal}
            assert len(want) == len(legal)  # the encoding is one-to-one
            kinds.update(type(a).__name__ for a in legal)
            built = sequences_from(state)
            assert set(built) == set(want)
            for seq, reached in built.items():
                assert all(0 <= t < codec.num_distinct_actions for t in seq)
                assert reached == kgame.apply(ks, want[seq])
                if isinstance(want[seq], Discard):
                    assert list(seq[:-1]) == sorted(seq[:-1])
                    assert all(codec.sub_first <= t < codec.commit_first for t in seq[:-1])
                    assert seq[-1] >= codec.commit_first
                    discards += 1
                    multi += len(seq) > 2
                else:
                    assert len(seq) == 1 and seq[0] < codec.sub_first
            strings = [state.action_to_string(a) for a in state.legal_actions()]
            assert len(set(strings)) == len(strings)
    assert {Stage.PLACE, Stage.PLAYER_TURN, Stage.ACTIVE, Stage.COMBAT, Stage.DISCARD} <= stages
    assert discards > 0 and multi > 0 and chance > 0
    assert kinds >= {
        "Place", "Designate", "Recruit", "Pass", "Move", "Pay", "Attack", "Event", "End",
        "Defend", "Play", "Accept", "Stand", "Retreat", "LoseStep", "Isolate", "Discard",
    }  # fmt: skip


def _every_atomic_action(board: Any) -> list[Any]:
    """Every player action but the discard that the data allows, legal somewhere or not
    (the T-34 as escort and support, random step losses, every target)."""
    units, areas, cards = list(board.specs), list(board.areas), CARDS
    opt: list[str | None] = [None, *units]
    return [
        *(A.Place(u, a) for u in units for a in areas),
        *(A.Designate(u) for u in units),
        *(A.Recruit(u) for u in units),
        A.Pass(),
        *(A.Move(a, e) for a in areas for e in opt),
        *(A.Pay(c) for c in cards),
        A.Attack(),
        *(A.Event(c, t) for c in cards for t in opt),
        A.End(),
        *(A.Defend(u) for u in units),
        *(A.Play(c, s) for c in cards for s in (False, True)),
        A.Accept(),
        A.Stand(),
        *(A.Retreat(u, a) for u in units for a in areas),
        *(A.LoseStep(u, c) for u in units for c in [*cards, None]),
        *(A.Sacrifice(u) for u in units),
        *(A.Isolate(u) for u in units),
    ]


def test_every_action_has_its_own_id() -> None:
    """The ids are one-to-one: every atomic action the data allows has one id below the
    discard's, all of them used; the discard's card ids and commits (refill, none, partial
    refills) fill the rest; draws and picks of each card have their own chance ids."""
    codec = _codec(NAMES[0])
    actions = _every_atomic_action(_kernel(NAMES[0]).rules.board)
    ids = [codec.tokens(a) for a in actions]
    assert all(len(t) == 1 for t in ids)
    assert sorted(t[0] for t in ids) == list(range(codec.sub_first))
    for a in actions:
        assert codec.token_string(codec.tokens(a)[0]).split()[0] in type(a).__name__.lower()
    cards = [codec.tokens(A.Discard(frozenset({c})))[0] for c in CARDS]
    commits = [
        codec.tokens(A.Discard(frozenset(), r, d))[0]
        for r, d in [(True, None), (False, None), (True, 1), (True, 2), (True, 3), (True, 4)]
    ]
    assert cards + commits == list(range(codec.sub_first, codec.num_distinct_actions))
    chance = [codec.chance_id(k(c)) for k in (A.Draw, A.Pick) for c in CARDS]
    assert chance == list(range(codec.max_chance_outcomes))
    with pytest.raises(TypeError):
        codec.tokens(A.Draw("AS"))
    with pytest.raises(ValueError):
        codec.tokens(A.Discard(frozenset(), False, 2))


def test_pick_probabilities() -> None:
    """A Sniper's pick from the German hand (RKS-9.6.1): each card with the kernel's
    Fraction, by its pick id."""
    name = NAMES[0]
    kgame = _kernel(name)
    state = _first(name, 2, lambda s: len(s.kernel_state.hand_ge) >= 3 and not s.prefix)
    ks = attrs.evolve(state.kernel_state, stage=Stage.PICK, pick=KPick("sniper", "GE"))
    picking = _with_kernel(state, ks)
    assert picking.is_chance_node()
    kernel = kgame.chance_outcomes(ks)
    assert {a for a, _ in kernel} == {A.Pick(c) for c in ks.hand_ge}
    assert sum(p for _, p in kernel) == Fraction(1)
    outs = picking.chance_outcomes()
    assert outs == sorted((52 + CARDS.index(a.card), float(p)) for a, p in kernel)
    assert {picking.action_to_string(i) for i, _ in outs} == {f"pick {c}" for c in ks.hand_ge}


def _walk_tree(tree: Any) -> dict[tuple[int, ...], Any]:
    out: dict[tuple[int, ...], Any] = {}

    def walk(prefix: tuple[int, ...]) -> None:
        for i in tree.next_ids(prefix):
            seq = (*prefix, i)
            action = tree.action_at(seq)
            if action is None:
                walk(seq)
            else:
                assert not tree.next_ids(seq)  # prefix-free
                out[seq] = action

    walk(())
    return out


@pytest.mark.parametrize(
    ("hand", "target", "keep", "partial"),
    [
        (["AS", "5C", "KD", "QH"], 3, None, False),
        (["AS", "5C", "KD", "QH"], 4, None, True),
        (["2S", "3S", "JC", "4D", "9H", "10H"], 3, 3, True),
        ([], 3, None, False),
    ],
)
def test_discard_tree_builds_exactly_the_discard_choices(
    hand: list[str], target: int, keep: int | None, partial: bool
) -> None:
    """The lazy tree over `DiscardChoices` (refills, none, partial refills, a hard limit that
    forces a discard) builds each legal discard once, and nothing else."""
    codec = _codec(NAMES[0])
    choices = DiscardChoices(hand, target, keep, partial)
    built = _walk_tree(spiel_rk.DiscardTree(codec, choices))
    want = {codec.tokens(a): a for a in choices}
    assert len(want) == len(choices)
    assert built == want
    assert spiel_rk.DiscardTree(codec, choices).next_ids((codec.base["pass"],)) == []


def test_discard_tree_is_lazy() -> None:
    """A 40-card hand has 2^40 discards: the tree walks one of them without listing them."""
    codec = _codec(NAMES[0])
    hand = list(CARDS[:40])
    tree = spiel_rk.DiscardTree(codec, DiscardChoices(hand, 3, None))
    prefix: tuple[int, ...] = ()
    for _ in range(3):
        prefix = (*prefix, tree.next_ids(prefix)[0])  # the next card of the hand
    assert tree.action_at(prefix) is None
    ids = tree.next_ids(prefix)
    assert ids[-1] == codec.base["commit_refill"]  # 37 cards left: no refill to decline
    assert len(ids) == 37 + 1  # any later card, or the commit
    prefix = (*prefix, ids[-1])
    action = tree.action_at(prefix)
    assert action == Discard(frozenset(hand[:3]), True)
    assert codec.tokens(action) == prefix


class _Loads(pickle.Unpickler):
    """An unpickler that records every global (class or function) a pickle loads."""

    def __init__(self, data: bytes) -> None:
        super().__init__(io.BytesIO(data))
        self.names: set[str] = set()

    def find_class(self, module: str, name: str) -> Any:
        self.names.add(f"{module} {name}")
        return super().find_class(module, name)


def _pickled_globals(obj: Any) -> set[str]:
    """The "module name" of every global a pickle of `obj` loads."""
    loads = _Loads(pickle.dumps(obj))
    loads.load()
    return loads.names


def test_clone_and_serialize() -> None:
    """Clone and serialize round trips at every step of a game up to its first discard with
    a pending prefix; the serialized state is the kernel's JSON plus the prefix, and holds
    no solver object."""
    name = NAMES[1]
    kgame = _kernel(name)
    game = pyspiel.load_game(name)
    with_prefix = 0
    for state in _play(name, 2):
        if state.is_terminal() or (with_prefix and not state.prefix):
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
        assert {"_node", "_prefix", "_decisions", "_cap"} <= set(vars(state))
        # only the adapter's own records and plain values: no solver object, no kernel class;
        # the pickle reads the kernel state back through its JSON
        assert {type(v).__module__ for v in vars(state).values()} <= {
            "builtins",
            "tools.spiel.adapter",
        }
        loads = _pickled_globals(vars(state))
        assert "tools.spiel.adapter _node_from_json" in loads
        assert all(g.startswith("tools.spiel.adapter ") for g in loads)
        doc = json.loads(state.serialize_json())
        assert kgame.state_from_json(doc["state"]) == state.kernel_state
        assert tuple(doc["prefix"]) == state.prefix
        with_prefix += bool(state.prefix)
    assert with_prefix > 0


def _with_kernel(state: Any, kernel_state: Any) -> Any:
    """A clone of `state` holding another kernel state."""
    copy = state.clone()
    copy._node = ad._Node(copy._node.key, kernel_state)
    return copy


def _views(state: Any, player: int) -> tuple[str, list[float]]:
    return state.observation_string(player), state.observation_tensor(player)


def _check_hidden(name: str, a: Any, b: Any, blind: int) -> None:
    """`a` and `b` differ only in what `blind` may not see: equal observations for it, and
    different ones (strings and tensors) for the other side."""
    kgame = _kernel(name)
    sides = kgame.sides
    assert a.kernel_state != b.kernel_state
    assert kgame.observe(a.kernel_state, sides[blind]) == kgame.observe(
        b.kernel_state, sides[blind]
    )
    assert _views(a, blind) == _views(b, blind)
    seer = 1 - blind
    assert kgame.observe(a.kernel_state, sides[seer]) != kgame.observe(b.kernel_state, sides[seer])
    assert a.observation_string(seer) != b.observation_string(seer)
    assert a.observation_tensor(seer) != b.observation_tensor(seer)


def test_no_leak_of_hands_and_steps() -> None:
    """A card of the German hand, and one of a German unit's steps, swapped with a card of the
    deck: the Soviet observation (string and tensor) is unchanged, the German one changes."""
    name = NAMES[1]
    state = _first(name, 2, lambda s: s.kernel_state.stage == Stage.PLAYER_TURN)
    ks = state.kernel_state
    board = _kernel(name).rules.board
    deck = sorted(ks.deck)
    mine, new = sorted(ks.hand_ge)[0], deck[0]
    swapped = attrs.evolve(ks, hand_ge=ks.hand_ge - {mine} | {new}, deck=ks.deck - {new} | {mine})
    _check_hidden(name, state, _with_kernel(state, swapped), blind=1)
    unit = next(u for u in ks.units if board.side_of[u.id] == "GE" and u.steps)
    step, new = sorted(unit.steps)[0], deck[1]
    changed = board.update(ks, unit.id, steps=unit.steps - {step} | {new})
    changed = attrs.evolve(changed, deck=ks.deck - {new} | {step})
    _check_hidden(name, state, _with_kernel(state, changed), blind=1)


def test_no_leak_of_face_down_combat_cards() -> None:
    """The card the attacker put face down (RKS-8.4.1), swapped with a deck card: the
    defender's observation is unchanged, the attacker's changes."""
    name = NAMES[0]
    kgame = _kernel(name)

    def attack_down(s: Any) -> bool:
        c = s.kernel_state.combat
        return c is not None and c.attack is not None and not c.attack.open and not s.prefix

    state = None
    for seed in range(6):
        try:
            state = _first(name, seed, attack_down)
            break
        except AssertionError:
            continue
    assert state is not None
    ks = state.kernel_state
    c = ks.combat
    new = sorted(ks.deck)[0]
    moved = attrs.evolve(
        ks,
        combat=attrs.evolve(c, attack=attrs.evolve(c.attack, card=new)),
        deck=ks.deck - {new} | {c.attack.card},
    )
    attacker = kgame.sides.index(c.attack.side)
    _check_hidden(name, state, _with_kernel(state, moved), blind=1 - attacker)


def test_pending_discard_is_seen_by_its_chooser_only() -> None:
    """Cards chosen so far in a discard are the chooser's: in its observation (string and
    tensor), not in the other side's."""
    name = NAMES[0]
    codec = _codec(name)
    state = _first(name, 2, lambda s: s.kernel_state.stage == Stage.DISCARD and not s.prefix)
    card = next(i for i in state.legal_actions() if i < codec.commit_first)
    after = state.clone()
    after.apply_action(card)
    assert after.prefix == (card,)
    me = after.current_player()
    assert (me, after.kernel_state) == (state.current_player(), state.kernel_state)
    assert _views(after, 1 - me) == _views(state, 1 - me)
    assert json.loads(after.observation_string(me))["prefix"] == [card]
    assert after.observation_tensor(me) != state.observation_tensor(me)


@pytest.mark.parametrize("name", NAMES)
def test_observations_come_from_observe(name: str) -> None:
    """Along a game: the observation string is `observe` and the visible prefix; one tensor
    never stands for two observations, so the tensor changes when the observation does."""
    kgame = _kernel(name)
    codec = _codec(name)
    seen: dict[tuple[float, ...], str] = {}
    for state in _play(name, 4):
        if len(seen) > 400 or state.is_terminal():
            break
        for player, side in enumerate(kgame.sides):
            text = state.observation_string(player)
            mine = state.current_player() == player
            want = {
                "observation": kgame.observe(state.kernel_state, side),
                "prefix": list(state.prefix) if mine else [],
            }
            assert json.loads(text) == want
            tensor = state.observation_tensor(player)
            assert len(tensor) == codec.observation_size
            assert seen.setdefault(tuple(tensor), text) == text
    assert len(seen) > 300
