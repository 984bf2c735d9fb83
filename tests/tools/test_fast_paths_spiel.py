"""The OpenSpiel adapter's fast paths against a plain reference (issue 34).

- The node keeps the side to move and the player (the end of play worked out once per kernel
  state): the end reason and the player equal a fresh computation from the kernel.
- The legal tree (`tools.spiel.tree.ChoiceTree`) is built from the kernel's lazy lists, with
  ids computed from their items (`part_groups`) or by action class (`atomic_ids`) instead of
  tokenising every built action: on the positions of seeded games of every game, its legal id
  lists (every prefix), id -> action (every whole sequence) and action -> id equal the plain
  table of `codec.tokens` over every legal action; an atomic action's id names the action
  (`token_string`, read from the id layout alone).
- `legal_actions` and `is_chance_node` answered from Python equal OpenSpiel's own (C++) ones.
- A sabotaged fast path (a group's ids shifted, an atomic id off by one) is caught by the same
  comparison; and `table_tree`'s token memo (`kernel.spiel_codec`) against `codec.tokens`.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import attrs
import pytest

from tests.sizes import size

pyspiel = pytest.importorskip("pyspiel")
og = pytest.importorskip("tools.spiel")
ad = pytest.importorskip("tools.spiel.adapter")
from kernel import spiel_codec  # noqa: E402
from kernel.game import CHANCE  # noqa: E402
from kernel.hexes import Hex, hex_name  # noqa: E402
from kernel.playout import play  # noqa: E402
from tests.tools.spiel_helpers import random_step  # noqa: E402

STEPS = 150  # OpenSpiel steps of each seeded game (a count, not a time)
KERNEL_STEPS = size(1500, 6000)
"""Kernel steps of each seeded game whose positions the trees are compared on."""
NAMES = sorted({spec.game.name: spec.short_name for spec in og.specs()}.values())


def fresh_end_reason(state: Any) -> str | None:
    """`WargameState.end_reason` computed plainly: the kernel's side to move, the cap, and the
    kernel's legal actions (none: a gap in the rules)."""
    game = ad._spec(state._node.key).game
    side = game.to_move(state.kernel_state)
    if side is None:
        return "rules"
    if state._decisions >= state._cap:
        return "cap"
    if side != CHANCE and not game.legal_actions(state.kernel_state):
        return "no_action"
    return None


def fresh_player(state: Any) -> int:
    game = ad._spec(state._node.key).game
    if fresh_end_reason(state) is not None:
        return int(pyspiel.PlayerId.TERMINAL)
    side = game.to_move(state.kernel_state)
    if side == CHANCE:
        return int(pyspiel.PlayerId.CHANCE)
    return int(game.sides.index(side))


def _states(name: str, seed: int) -> list[Any]:
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    rng = random.Random(seed)
    out = []
    for _ in range(STEPS):
        out.append(state.clone())
        if state.is_terminal():
            break
        random_step(state, rng)
    return out


@pytest.mark.parametrize("name", NAMES)
def test_end_reason_and_player_match_a_fresh_computation(name: str) -> None:
    for state in _states(name, 0):
        for _ in range(2):  # the first asking fills the node, the second reads it
            assert state.end_reason() == fresh_end_reason(state)
            assert state.current_player() == fresh_player(state)
            assert state.is_terminal() == (fresh_end_reason(state) is not None)


@pytest.mark.parametrize("name", NAMES)
def test_python_legal_actions_match_openspiel_own(name: str) -> None:
    """The Python `legal_actions` (any player, or none) and `is_chance_node` against
    OpenSpiel's C++ ones, which reach `_legal_actions` and `chance_outcomes`."""
    for state in _states(name, 2):
        assert state.is_chance_node() == pyspiel.State.is_chance_node(state)
        assert state.legal_actions() == pyspiel.State.legal_actions(state)
        for player in range(state.num_players()):
            assert state.legal_actions(player) == pyspiel.State.legal_actions(state, player)


# --- the legal trees against the plain table ----------------------------------------------------


def _positions(name: str, seed: int) -> Iterator[tuple[Any, Any]]:
    """(kernel state, its legal actions) where a side is to move, along a seeded kernel game."""
    spec = ad._spec(name)
    game = spec.game
    seen: list[Any] = []
    play(
        game,
        game.initial_state(spec.variant),
        random.Random(seed),
        max_steps=KERNEL_STEPS,
        on_step=lambda before, action, after: seen.append(before),
    )
    for state in seen:
        if game.to_move(state) not in (None, CHANCE):
            yield state, game.legal_actions(state)


def _walk(tree: Any, prefix: tuple[int, ...], out: dict[tuple[int, ...], list[int]]) -> None:
    """Every prefix the tree offers ids after, with those ids."""
    ids = tree.next_ids(prefix)
    out[prefix] = ids
    for i in ids:
        if tree.action_at((*prefix, i)) is None:
            _walk(tree, (*prefix, i), out)


def tree_differences(name: str, seed: int) -> tuple[int, int]:
    """(positions where the adapter's tree differs from the plain table, positions where
    the codec described a lazy part by groups)."""
    codec = ad._spec(name).codec
    bad = grouped = 0
    for _, legal in _positions(name, seed):
        table = {codec.tokens(a): a for a in legal}
        assert len(table) == len(legal), "two legal actions encode alike"
        tree = ad.legal_tree(codec, legal)
        walked: dict[tuple[int, ...], list[int]] = {}
        _walk(tree, (), walked)
        whole = {(*p, i) for p, ids in walked.items() for i in ids if (*p, i) not in walked}
        prefixes = {s[:k] for s in table for k in range(len(s))}
        same = (
            whole == set(table)
            and set(walked) == prefixes
            and all(ids == spiel_codec.next_tokens(list(table), p) for p, ids in walked.items())
            and all(tree.action_at(s) == a for s, a in table.items())
            and all(tree.action_at(p) is None for p in prefixes)
        )
        bad += not same
        parts = getattr(legal, "parts", (legal,))
        finder = getattr(codec, "part_groups", None)
        grouped += finder is not None and any(finder(p) is not None for p in parts)
    return bad, grouped


@pytest.mark.parametrize("name", NAMES)
def test_legal_trees_match_the_plain_table(name: str) -> None:
    bad, grouped = tree_differences(name, 3)
    assert bad == 0
    if "snc1937" in name or "shumshu" in name:
        assert grouped > 0  # the lazy parts were met: the group path was compared


def _field_names(value: Any) -> list[str]:
    """How an action's field shows in an id's name: a unit, card or area by its name, a hex by
    its printed number (other fields: by the id's block alone)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, Hex):
        return [hex_name(value)]
    return []


@pytest.mark.parametrize("name", NAMES)
def test_atomic_ids_name_their_action(name: str) -> None:
    """action -> id by class (`atomic_ids`) against the id layout read back (`token_string`,
    `ids.find`): the id's name shows the action's units, cards, areas and hexes, and each id
    block holds one action class only (an id in another kind's block would share it)."""
    codec = ad._spec(name).codec
    classes: dict[str, set[str]] = {}
    checked = 0
    for _, legal in _positions(name, 4):
        for action in list(legal)[:50]:
            encode = codec.atomic_ids.get(type(action))
            if encode is None:
                continue
            token = encode(action)
            assert codec.tokens(action) == (token,)
            label = codec.token_string(token)
            for value in attrs.astuple(action, recurse=False):
                for text in _field_names(value):
                    assert text in label, (action, label)
            classes.setdefault(codec.ids.find(token)[0], set()).add(type(action).__name__)
            checked += 1
    assert checked > 0
    assert all(len(kinds) == 1 for kinds in classes.values()), classes


# --- sabotage ---------------------------------------------------------------------------------


def test_shifted_group_ids_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A codec whose groups' ids are off by one (the action built would not be the one the id
    names) is told apart from the plain table."""
    name = next(n for n in NAMES if "shumshu" in n)
    codec = ad._spec(name).codec
    plain = codec.part_groups

    def shifted(part: Any) -> Any:
        found = plain(part)
        if found is None:
            return None
        groups, rest = found
        return [
            (p, items, lambda xs, f=f: [i + 1 for i in f(xs)], start)
            for p, items, f, start in groups
        ], rest

    monkeypatch.setattr(codec, "part_groups", shifted)
    with pytest.raises(AssertionError):
        assert tree_differences(name, 3)[0] == 0


def test_wrong_atomic_id_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """An atomic id off by one for one action class is told apart from the plain table."""
    name = next(n for n in NAMES if "nomonhan" in n)
    codec = ad._spec(name).codec
    from specs.nomonhan.rules.actions import Move

    table = dict(codec.atomic_ids)
    right = table[Move]
    table[Move] = lambda a: right(a) + 1
    monkeypatch.setattr(codec, "atomic_ids", table)
    plain_tokens = type(codec).tokens

    def tokens(action: Any) -> tuple[int, ...]:  # the reference keeps the right ids
        if type(action) is Move:
            return (right(action),)
        seq: tuple[int, ...] = plain_tokens(codec, action)
        return seq

    monkeypatch.setattr(codec, "tokens", tokens)
    assert tree_differences(name, 3)[0] > 0


@pytest.mark.parametrize("sabotage", ["lose_a_stack", "lose_a_head", None])
def test_lost_headed_groups_are_caught(
    monkeypatch: pytest.MonkeyPatch, sabotage: str | None
) -> None:
    """The SNC's Move phase groups are entered by their first unit (`HeadedGroups`): a walk that
    loses the groups of several units under a head (a stack's move, SNC-9.0.8), or a head
    itself, is told apart from the plain table; the real walk, patched the same way, is not."""
    from specs.snc1937 import spiel as snc_spiel

    name = next(n for n in NAMES if "snc1937" in n)
    starting_with, first_ids = snc_spiel._MoveGroups.starting_with, snc_spiel._MoveGroups.first_ids

    def fewer_groups(self: Any, token: int) -> list[tuple[Any, ...]]:
        groups = starting_with(self, token)
        return [g for g in groups if len(g[0]) == 1] if sabotage == "lose_a_stack" else groups

    def fewer_heads(self: Any) -> list[int]:
        heads = list(first_ids(self))
        return heads[1:] if sabotage == "lose_a_head" else heads

    monkeypatch.setattr(snc_spiel._MoveGroups, "starting_with", fewer_groups)
    monkeypatch.setattr(snc_spiel._MoveGroups, "first_ids", fewer_heads)
    assert (tree_differences(name, 3)[0] > 0) == (sabotage is not None)


# --- the token memo of `table_tree` (the codecs' own `legal_tree`, the service) --------------


def _plain_table(codec: Any, actions: Any) -> dict[tuple[int, ...], Any]:
    return {codec.tokens(a): a for a in actions}


def _table_differences(name: str) -> int:
    spec = ad._spec(name)
    bad = 0
    for state in _states(name, 1):
        kernel = state.kernel_state
        if spec.game.to_move(kernel) in (None, CHANCE):
            continue
        actions = spec.game.legal_actions(kernel)
        bad += spiel_codec.table_tree(spec.codec, actions).table != _plain_table(
            spec.codec, actions
        )
    return bad


@pytest.mark.parametrize("name", NAMES)
def test_table_trees_match_the_codec_tokens(name: str) -> None:
    assert _table_differences(name) == 0


def test_a_wrong_token_memo_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A memo that answers every action with the first action's sequence is told apart."""
    name = next(n for n in NAMES if "nomonhan" in n)
    spec = ad._spec(name)
    first = spec.game.legal_actions(spec.game.initial_state(spec.variant))[0]
    wrong: tuple[int, ...] = spec.codec.tokens(first)

    class Stuck(dict[Any, tuple[int, ...]]):
        def get(self, key: Any, default: Any = None) -> tuple[int, ...]:
            return wrong

    monkeypatch.setattr(spiel_codec, "_tokens_of", lambda codec: Stuck())
    with pytest.raises(AssertionError):  # two actions encode alike, or the tables differ
        assert _table_differences(name) == 0
