"""A game log may start from a position of its own (`start`, issue 14, item 5): what a witness
shrunk to a set-up with fewer units needs to be replayable. `wargame play --replay` replays
such a log from its start, refuses a bad start as input naming `start` (exit 2, never a
traceback), and replays a log without one as before.

On Nomonhan: one seeded game of 24 actions, split after its 8th. Well under 2 s in all.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from tools import game_logs, playlog
from tools.cli import commands as cli
from tools.registry import get_game

GAME = get_game("nomonhan")
VARIANT = GAME.catalogue.variant(None)
SPLIT, STEPS = 8, 24


def _game() -> tuple[dict[str, Any], dict[str, Any]]:
    """A seeded game's log, and the same game as an external log of its actions after the
    first SPLIT, starting from where those lead."""
    played = playlog.play_narrated(GAME, VARIANT, 3, None, max_steps=STEPS)
    assert len(played.actions) == STEPS
    state = GAME.initial_state(VARIANT)
    for action in played.actions[:SPLIT]:
        state = GAME.apply(state, action)
    full = game_logs.make_log(GAME, VARIANT, 3, played)
    later = game_logs.GameLog(
        GAME.name,
        VARIANT,
        game_logs.LogAgent.external(),
        full.actions[SPLIT:],
        full.final_state,
        full.result,
        full.stop,
        GAME.state_to_json(state),
    )
    return full.to_json(), later.to_json()


def _run(capsys: pytest.CaptureFixture[str], tmp_path: Path, data: Any, *flags: str) -> Any:
    path = tmp_path / "log.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code = cli.main(["play", "nomonhan", "--replay", str(path), *flags])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


def test_a_log_with_a_start_replays_from_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    full, later = _game()
    assert "start" not in full and later["start"]["units"]
    code, out, err = _run(capsys, tmp_path, later)
    assert code == 0, err
    assert "play starts from the log's own position (its start), not the set-up" in out
    assert game_logs.read_log(GAME, later).to_json() == later  # written as read
    # the same actions from the set-up are not the game: the start is what makes it one
    without = {k: v for k, v in later.items() if k != "start"}
    assert _run(capsys, tmp_path, without, "--quiet")[0] != 0


def test_a_log_without_a_start_still_replays(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    full, _ = _game()
    code, out, err = _run(capsys, tmp_path, full)
    assert code == 0, err
    assert "its start" not in out and "Traceback" not in err


def test_a_bad_start_is_refused_as_input_naming_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    _, later = _game()
    off = copy.deepcopy(later)
    off["start"]["units"][0]["hex"] = None  # an at-start unit on no hex (NOM-3.1)
    other = copy.deepcopy(later)
    # a valid position, but of another variant than the log's (a tie is a draw, NOM-4.4)
    other["start"]["variant"] = GAME.catalogue.variant(None, {"tie": "draw"}).to_json()
    for data, field in (
        (off, "start"),
        ({**later, "start": 5}, "start"),
        ({**later, "start": {"format": "x"}}, "start"),
        (other, "start.variant"),
    ):
        code, _, err = _run(capsys, tmp_path, data, "--quiet")
        assert code == 2, err
        obj = json.loads(err)
        assert obj["field"].startswith(field) and obj["message"].startswith("start")
    assert json.loads(_run(capsys, tmp_path, other, "--quiet")[2])["field"] == "start.variant"
    assert json.loads(_run(capsys, tmp_path, off, "--quiet")[2])["field"].startswith("start.")
