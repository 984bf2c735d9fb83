"""Forced sub-decisions in the OpenSpiel adapter (tools/spiel/adapter.py, `WargameState.step`):
a perfect-information game takes a sub-decision with one option together with the choice
before it and never asks it; a hidden-information game asks every one, since how many steps a
side takes shows in the other side's information state (issue 31)."""

from __future__ import annotations

import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")
ad = pytest.importorskip("tools.spiel.adapter")
from tests.tools.spiel_helpers import random_step  # noqa: E402

NOMONHAN = ("python_wargame_nomonhan_en", "python_wargame_nomonhan_ja")


def _decisions(name: str, seeds: range) -> list[Any]:
    """Clones of every player decision of seeded random games."""
    game = pyspiel.load_game(name)
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if not state.is_chance_node():
                out.append(state.clone())
            random_step(state, rng)
    return out


@pytest.mark.parametrize("name", NOMONHAN)
def test_a_perfect_information_game_never_asks_a_forced_sub_decision(name: str) -> None:
    """Every sub-decision asked has two options or more; the forced ones are taken with the
    choice before them, so some choice goes further than one id: a pending prefix longer
    than the choices made, or a kernel action whose `tokens` are longer than the choices."""
    codec = ad._spec(name).codec
    taken = 0
    for state in _decisions(name, range(3)):
        ids = state.legal_actions()
        assert ids
        if state.prefix:
            assert len(ids) >= 2, (state.prefix, ids)
        for a in ids:
            prefix, full = state.step(a)
            made = len(state.prefix) + 1
            if full is None:
                assert prefix[:made] == (*state.prefix, a)
                assert state._node.legal().next_ids(prefix)  # a choice left there
                taken += len(prefix) > made
            else:
                tokens = codec.tokens(full)
                assert tokens[:made] == (*state.prefix, a)
                taken += len(tokens) > made
    assert taken > 0


@pytest.mark.parametrize("name", NOMONHAN)
def test_a_forced_sub_decision_is_applied_as_its_choice_says(name: str) -> None:
    """Applying a choice gives the state `step` announces: the prefix it makes, or the
    kernel state its action leads to, the forced ids after it included."""
    kgame = ad._spec(name).game
    for state in _decisions(name, range(2)):
        for a in state.legal_actions():
            prefix, full = state.step(a)
            child = state.clone()
            child.apply_action(a)
            if full is None:
                assert child.prefix == prefix and child.kernel_state is state.kernel_state
            else:
                assert child.prefix == () and child.kernel_state == kgame.apply(
                    state.kernel_state, full
                )


def test_a_hidden_information_game_asks_forced_sub_decisions() -> None:
    """SNC hides the units under a stack's top: a sub-decision with one option is still a
    step of its own, the prefix one id longer after it."""
    asked = 0
    for state in _decisions("python_wargame_snc1937_standard", range(1)):
        ids = state.legal_actions()
        if state.prefix and len(ids) == 1:
            prefix, _ = state.step(ids[0])
            assert prefix == (*state.prefix, ids[0])
            asked += 1
    assert asked > 0
