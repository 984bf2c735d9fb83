"""What a reading pair's witness claims, checked again from its log: the check every test of the
explorer makes of a `Finding` that says `differ`; and the explorer run those tests make to see
what the search toward a game's situation finds alone (`situation_only`).

The log is replayed from where it starts (the preset's set-up, or the shrunk start it records)
under both readings: every action must be legal under both and keep them in the same position,
the end must be the witness's state, and the difference claimed must be there: a different
set-up, an action that leads the readings to different positions, or the same difference
(`solvers.checking.differences.compare`: kind and what each reading alone allows).

Pure: no test framework (it raises AssertionError), bounded by the log's length.
"""

from __future__ import annotations

import json
from typing import Any

from kernel.roles import AssembledGame
from solvers.checking.corpus import Corpus
from solvers.checking.differences import Finding, compare, same_position, start_state
from solvers.checking.explore import differential
from solvers.checking.readings import reading_variant


def situation_only(
    game: AssembledGame[Any, Any],
    option: str,
    corpus: Corpus,
    nodes: int,
    only: tuple[str, str] | None = None,
) -> Finding:
    """The explorer's one finding on `option` (the pair `only`, or its first) by counts only,
    with every search off but the one toward the game's situation (`nodes` positions from
    `corpus`): what that search settles by itself."""
    [f] = differential(
        game,
        game.catalogue.option(option),
        budget=None,
        games=0,
        exhaustive_cap=1,
        corpus=corpus,
        corpus_positions=0,
        steer_nodes=0,
        situation_nodes=nodes,
        only=only,
    )
    return f


def assert_witness_holds(game: AssembledGame[Any, Any], f: Finding) -> None:
    """The finding's witness replays and shows its difference (module docstring)."""
    w = f.witness
    assert w is not None, f"{f.option}: no witness ({f.verdict})"
    cat = game.catalogue
    va = reading_variant(cat, f.preset, f.option, f.reading_a)
    vb = reading_variant(cat, f.preset, f.option, f.reading_b)
    a, b = start_state(game, va, w.start), start_state(game, vb, w.start)
    d = w.difference
    if d.kind == "setup":
        assert not w.log and not same_position(game, a, b)
        return
    for step, data in enumerate(w.log):
        assert same_position(game, a, b), f"{f.option}: the readings part before action {step}"
        action = game.action_from_json(data)
        a, b = game.apply(a, action), game.apply(b, action)  # raises if illegal under either
    assert same_position(game, a, b), f"{f.option}: the log ends where the readings part"
    assert game.state_to_json(a) == w.state
    if d.kind == "result_of_action":
        action = game.action_from_json(json.loads(d.only_a[0]))
        assert not same_position(game, game.apply(a, action), game.apply(b, action))
        return
    found = compare(game, a, b)
    assert found is not None, f"{f.option}: no difference at the witness"
    assert (found.kind, found.only_a, found.only_b) == (d.kind, d.only_a, d.only_b)
