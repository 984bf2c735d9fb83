"""The OpenSpiel adapter's fast paths against a plain reference (issue 34).

The adapter keeps the side to move on its node and asks the legal tree for the end of play
instead of recomputing both at every `is_terminal` and `current_player`; `table_tree` keeps each
action's token sequence per codec. Here, along seeded games of every registered game with a
codec, the end reason and the player equal a fresh computation from the kernel, and every
table tree equals one built from `codec.tokens` directly; a memo holding a wrong sequence is
told apart by the same comparison.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")
og = pytest.importorskip("tools.spiel")
ad = pytest.importorskip("tools.spiel.adapter")
from kernel import spiel_codec  # noqa: E402
from kernel.game import CHANCE  # noqa: E402
from tests.tools.spiel_helpers import random_step  # noqa: E402

STEPS = 150  # OpenSpiel steps of each seeded game (a count, not a time)
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
