"""A Rattenkrieg witness shrinks to fewer units although its set-up can lose none (issue 14,
item 5): the rules take no unit out during set-up (RKS-3.1.2, RKS-3.2.1), so the shrink takes
units off the first position of the witness's own play where the game's `without_unit` hook
can (RKS-6.3.1, AMB-RKS-7 iv), and the log starts there; the report says so and its log files
replay from that start.

The witness: whether the defender may play a step card that cannot hit (AMB-RKS-8, RKS-8.5.3)
read as allowed or prohibited, found along the first legal choice and first chance
outcome of each step, three actions after set-up. A few seconds.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs
import pytest

from kernel.game import CHANCE
from kernel.roles import AssembledGame
from solvers.checking.differences import Finding, start_state
from solvers.checking.explore import reading_variant
from solvers.checking.shrink import shrink
from solvers.checking.side_by_side import along
from solvers.checking.witness_replay import replay
from tools.cli import commands as cli
from tools.explore_report import write_report
from tools.registry import get_game

GAME: AssembledGame[Any, Any] = get_game("rattenkrieg")
OPTION, A, B, PRESET = "step_bluff", "allowed", "prohibited", "standard"


def _first_moves(limit: int) -> list[Any]:
    """The first legal choice (first chance outcome) at each step, from the set-up."""
    s = GAME.initial_state(reading_variant(GAME.catalogue, PRESET, OPTION, A))
    out = []
    for _ in range(limit):
        if GAME.to_move(s) is None:
            break
        chance = GAME.to_move(s) == CHANCE
        action = GAME.chance_outcomes(s)[0][0] if chance else GAME.legal_actions(s)[0]
        out.append(action)
        s = GAME.apply(s, action)
    return out


def _finding() -> Finding:
    va = reading_variant(GAME.catalogue, PRESET, OPTION, A)
    vb = reading_variant(GAME.catalogue, PRESET, OPTION, B)
    w = along(GAME, va, vb, _first_moves(60), "guided play")
    assert w is not None, "the readings never part along this play"
    clauses = next(o for o in GAME.catalogue.options if o.name == OPTION).clauses
    return Finding(OPTION, clauses, None, A, B, PRESET, "differ", w, "", 0.0)


@pytest.fixture(scope="module")
def shrunk() -> tuple[Finding, Any]:
    f = _finding()
    assert f.witness is not None
    va = reading_variant(GAME.catalogue, PRESET, OPTION, A)
    vb = reading_variant(GAME.catalogue, PRESET, OPTION, B)
    w, _ = shrink(GAME, va, vb, f.witness)
    return f, w


def test_rks_3_1_2_a_witness_loses_units_taken_off_after_set_up(
    shrunk: tuple[Finding, Any],
) -> None:
    f, w = shrunk
    assert f.witness is not None and f.witness.start is None
    assert w.start is not None and w.start_after > 0  # not the set-up: the rules refuse there
    assert w.removed and len(w.removed) == len(set(w.removed))
    va = reading_variant(GAME.catalogue, PRESET, OPTION, A)
    vb = reading_variant(GAME.catalogue, PRESET, OPTION, B)
    start = start_state(GAME, va, w.start)
    units = {u["id"]: u for u in GAME.state_to_json(start)["units"]}
    for unit in w.removed:  # each is off the map at the start
        assert units[unit].get("area") is None, unit
    again = replay(GAME, va, vb, w.log, w.difference, w.start)
    assert again is not None and again.difference.kind == w.difference.kind
    assert len(w.log) + w.start_after <= len(f.witness.log)


def test_rks_3_1_2_the_report_says_where_the_log_starts_and_its_logs_replay(
    shrunk: tuple[Finding, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f, w = shrunk
    write_report(GAME, tmp_path, [attrs.evolve(f, witness=w)], [], [])
    page = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert f"from the position {w.start_after} actions into play without " in page
    [entry] = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))["options"]
    assert entry["witness"]["start_after"] == w.start_after
    assert entry["witness"]["removed_units"] == list(w.removed)
    for name in entry["witness"]["logs"]:
        code = cli.main(["play", "rattenkrieg", "--replay", str(tmp_path / name), "--quiet"])
        capsys.readouterr()
        assert code == 0, name
