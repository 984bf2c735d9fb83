"""`wargame play GAME --agent A --against B [--simulations N]`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tools.cli import commands as cli


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def error_of(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    code, _, err = run(capsys, *argv)
    assert code == 2, err
    assert "Traceback" not in err
    obj = json.loads(err)
    assert isinstance(obj, dict)
    return obj


def test_bots_play_a_narrated_game_and_say_who_played_which_side(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    log = tmp_path / "game.json"
    argv = ("play", "nomonhan", "--agent", "greedy", "--against", "mcts", "--simulations", "4")
    code, out, err = run(capsys, *argv, "--seed", "2", "--max-steps", "150", "--log", str(log))
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "Battle of Nomonhan (nomonhan) · variant ja · seed 2"
    assert lines[1] == "agents: JP greedy, SU mcts"
    assert lines[2] == "== Turn 1 · initiative JP =="
    assert lines[-1].startswith(("result: ", "play did not end"))
    again = run(capsys, *argv, "--seed", "2", "--max-steps", "150")
    assert again[1] == out  # seeded: the same game
    assert json.loads(log.read_text())["agent"] == {"name": "external", "seed": None}
    code, replayed, err = run(capsys, "play", "nomonhan", "--replay", str(log))
    assert code == 0, err
    assert replayed.splitlines()[2:] == lines[2:]  # the same actions, checked for legality


def test_default_agents_keep_the_random_game(capsys: pytest.CaptureFixture[str]) -> None:
    """Without --agent/--against the game is today's seeded random game; naming random for
    both plays that same game and adds only the line saying who played."""
    code, plain, _ = run(capsys, "play", "nomonhan", "--seed", "3", "--quiet")
    assert code == 0
    assert plain.splitlines()[0].endswith("· seed 3") and len(plain.splitlines()) == 2
    code, named, _ = run(capsys, "play", "nomonhan", "--seed", "3", "--quiet", "--agent", "random")
    assert code == 0
    lines = named.splitlines()
    assert lines[1] == "agents: JP random, SU random"
    assert [lines[0], lines[2]] == plain.splitlines()


def test_bad_agent_names_are_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    for flag in ("--agent", "--against"):
        err = error_of(capsys, "play", "nomonhan", flag, "alphazero")
        assert err["field"] == flag
        assert "alphazero" in err["message"] and "mcts" in err["message"]
    err = error_of(capsys, "play", "nomonhan", "--agent", "mcts", "--simulations", "0")
    assert err["field"] == "--simulations"


def test_replay_refuses_agents(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    log = tmp_path / "g.json"
    assert run(capsys, "play", "nomonhan", "--max-steps", "5", "--log", str(log))[0] == 0
    err = error_of(capsys, "play", "nomonhan", "--replay", str(log), "--agent", "greedy")
    assert err["field"] == "--replay"
