"""The mutation suite (issue 11), run on every registered game: real positions, actions and logs
from seeded playouts of every preset, mutated field by field, must each be refused naming a
field or clauses, or mean exactly what they say and be a position play can go on from.

The hypothesis runs are derandomized, so each run tries the same mutants; `MAX_EXAMPLES`
sizes them to keep tests/conformance within a few minutes on two cores. The fuzz campaign
(`make fuzz`, tools/testing/fuzz.py) runs the same engine at scale through the command.
"""

from __future__ import annotations

import functools
from typing import Any

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from tests.sizes import size
from tools.registry import game_names, get_game
from tools.testing.conformance_corpus import Corpus, build_corpus
from tools.testing.conformance_mutants import (
    check_action_mutant,
    check_closure,
    check_log_mutant,
    check_state_mutant,
)
from tools.testing.fuzz_inputs import playlog_codec
from tools.testing.mutation import ListChooser, mutate

GAMES = game_names()
MAX_EXAMPLES = {"states": 400, "actions": 400, "logs": 100}
"""Mutants tried per game and kind of document."""
CLOSURE_POSITIONS = {"snc1937": size(8, 30)}
"""Positions of the corpus (evenly spread) given the full closure check: 80, or fewer for SNC,
whose positions have about fifty successors each, every one checked in full (8 in
`make test`, 30 at full size)."""


def _settings(examples: int) -> settings:
    return settings(
        max_examples=examples,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )


@functools.cache
def corpus(name: str) -> Corpus[Any, Any]:
    game = get_game(name)
    return build_corpus(game, seeds=(0, 1), logs=playlog_codec(game))


CHOICES = st.lists(st.integers(0, 2**20), max_size=24)


@pytest.mark.parametrize("game_name", GAMES)
def test_game_declares_its_wire_types_and_position_check(game_name: str) -> None:
    """The Game contract of issue 11: wire types to decode with and publish, and a position
    check that `state_from_json` runs."""
    game = get_game(game_name)
    assert hasattr(game, "wire"), f"{game_name} declares no wire types"
    assert callable(getattr(game, "check_position", None)), f"{game_name}: no check_position"


@pytest.mark.parametrize("game_name", GAMES)
def test_positions_the_rules_reach_pass_the_check_and_lead_to_such_positions(
    game_name: str,
) -> None:
    """Closure on real play: every sampled position of seeded playouts passes the position
    check, and so does every successor by each of its legal actions or chance outcomes."""
    c = corpus(game_name)
    stride = max(1, len(c.states) // CLOSURE_POSITIONS.get(game_name, 80))
    for state in c.states[::stride]:
        check_closure(c.game, state, what="position of a seeded playout")


@pytest.mark.parametrize("game_name", GAMES)
@_settings(MAX_EXAMPLES["states"])
@given(index=st.integers(0, 10**6), choices=CHOICES)
def test_mutated_states_are_refused_or_read_exactly(
    game_name: str, index: int, choices: list[int]
) -> None:
    c = corpus(game_name)
    doc = c.state_docs[index % len(c.state_docs)]
    mutant = mutate(doc, c.state_pool, ListChooser(choices))
    note(mutant.describe())
    check_state_mutant(c.game, mutant)


@pytest.mark.parametrize("game_name", GAMES)
@_settings(MAX_EXAMPLES["actions"])
@given(index=st.integers(0, 10**6), choices=CHOICES)
def test_mutated_actions_are_refused_or_read_exactly(
    game_name: str, index: int, choices: list[int]
) -> None:
    c = corpus(game_name)
    at, action = c.moves[index % len(c.moves)]
    mutant = mutate(action, c.action_pool, ListChooser(choices))
    note(mutant.describe())
    check_action_mutant(c.game, c.states[at], mutant)


@pytest.mark.parametrize("game_name", GAMES)
@_settings(MAX_EXAMPLES["logs"])
@given(index=st.integers(0, 10**6), choices=CHOICES)
def test_mutated_logs_are_refused_or_replay_exactly(
    game_name: str, index: int, choices: list[int]
) -> None:
    c = corpus(game_name)
    log = c.logs[index % len(c.logs)]
    mutant = mutate(log, c.log_pool, ListChooser(choices))
    note(mutant.describe())
    check_log_mutant(c.game, mutant, playlog_codec(c.game))
