"""Perft regression against the stored table, and the benchmark entry point runs.

No timing is asserted: the speeds depend on the machine, the counts do not.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from bench import games as bench
from kernel.game import CHANCE
from kernel.playout import play
from tools.perft import branches, divide, perft, perft_naive
from tools.registry import game_names, get_game

GAME = get_game("nomonhan")
PRESETS = ("ja", "en")


def initial(preset: str) -> Any:
    return GAME.initial_state(GAME.presets()[preset])


@pytest.fixture(scope="module")
def expected() -> dict[str, dict[int, int]]:
    return bench.load_expected()


def test_stored_table_covers_both_presets_to_depth_4(expected: dict[str, dict[int, int]]) -> None:
    for preset in PRESETS:
        assert sorted(expected[preset]) == [1, 2, 3, 4]
    doc = json.loads(bench.PERFT_DATA.read_text(encoding="utf-8"))
    assert "chance outcome" in doc["convention"]


@pytest.mark.parametrize("preset", PRESETS)
def test_depth_1_is_the_legal_action_count(
    preset: str, expected: dict[str, dict[int, int]]
) -> None:
    state = initial(preset)
    assert expected[preset][1] == len(GAME.legal_actions(state))


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_perft_matches_stored_counts(
    preset: str, depth: int, expected: dict[str, dict[int, int]]
) -> None:
    assert perft(GAME, initial(preset), depth) == expected[preset][depth]


@pytest.mark.parametrize("preset", PRESETS)
def test_memoized_perft_equals_naive_at_depth_2(preset: str) -> None:
    state = initial(preset)
    assert perft(GAME, state, 2) == perft_naive(GAME, state, 2)


def test_divide_sums_to_perft() -> None:
    state = initial("ja")
    rows = divide(GAME, state, 2)
    assert [a for a, _ in rows] == list(GAME.legal_actions(state))
    assert sum(n for _, n in rows) == perft(GAME, state, 2)


def test_depth_0_and_terminal_conventions() -> None:
    state = initial("ja")
    assert perft(GAME, state, 0) == 1
    with pytest.raises(ValueError):
        perft(GAME, state, -1)
    # Each chance outcome is one branch, whatever its probability.
    roll = _first_state(state, lambda s: GAME.to_move(s) == CHANCE)
    assert perft(GAME, roll, 1) == len(GAME.chance_outcomes(roll)) > 1
    # A finished game has no leaves below it.
    over = _first_state(state, lambda s: GAME.to_move(s) is None)
    assert branches(GAME, over) == ()
    assert perft(GAME, over, 1) == 0
    assert perft(GAME, over, 0) == 1


def _first_state(start: Any, wanted: Any) -> Any:
    """The first state of a seeded random playout that satisfies `wanted`."""
    found: list[Any] = []

    def note(_: Any, __: Any, nxt: Any) -> None:
        if not found and wanted(nxt):
            found.append(nxt)

    play(GAME, start, random.Random(1), on_step=note)
    assert found, "the seeded playout never reached the wanted kind of state"
    return found[0]


def test_bench_main_runs_with_tiny_parameters(tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    argv = ["--quick", "--games", "2", "--positions", "20", "--depth", "2", "--json", str(out)]
    assert bench.main([*argv, "--game", "nomonhan"]) == 0
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["ok"] is True
    assert [r["preset"] for r in doc["results"]] == list(GAME.presets())
    for r in doc["results"]:
        assert r["game"] == "nomonhan"
        assert [p["count"] for p in r["perft"]] == [p["expected"] for p in r["perft"]]
        assert r["json_round_trip_failures"] == 0


@pytest.mark.parametrize("game", ["rattenkrieg", "shumshu"])
def test_bench_reports_the_games_without_a_perft_table(
    game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every game is benchmarked: playout steps/s and legal-action queries/s per preset; perft
    only where a stored table exists."""
    out = tmp_path / "bench.json"
    argv = ["--games", "2", "--positions", "20", "--depth", "2", "--game", game]
    assert bench.main([*argv, "--json", str(out)]) == 0
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert [r["preset"] for r in doc["results"]] == list(get_game(game).presets())
    for r in doc["results"]:
        assert r["game"] == game and r["perft"] == []
        assert r["steps_per_s"] > 0 and r["legal_actions_per_s"] > 0
        assert r["json_round_trip_failures"] == 0
    printed = capsys.readouterr().out
    assert f"{game}: seed 0" in printed and "legal_actions queries/s" in printed


def test_every_game_is_benchmarked_by_default(tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    argv = ["--games", "1", "--positions", "5", "--depth", "1", "--json", str(out)]
    assert bench.main(argv) == 0
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert {r["game"] for r in doc["results"]} == set(game_names())


def test_bench_reports_a_regression(tmp_path: Path) -> None:
    data = json.loads(bench.PERFT_DATA.read_text(encoding="utf-8"))
    data["perft"]["ja"]["1"] += 1
    wrong = tmp_path / "perft.json"
    wrong.write_text(json.dumps(data), encoding="utf-8")
    argv = ["--games", "1", "--positions", "5", "--depth", "1", "--preset", "ja"]  # Nomonhan's
    assert bench.main([*argv, "--perft-data", str(wrong)]) == 1
