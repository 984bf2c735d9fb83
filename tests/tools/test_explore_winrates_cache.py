"""Win rates of the differing pairs from the study database (issue 33, item 4): a report without
`--win-rates` reads the games already stored and plays none; a pair with none stored says why
and the command that plays them; the preset's own games are played once for every option's
pairs; `--only-win-rates` plays the pairs without the pair search."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs
import pytest

from kernel.errors import InvalidInput
from solvers.checking.differences import Finding
from tests.tools.test_explore_winrates import SEEDS, Inline, _differing
from tools import explore_report, explore_winrates
from tools.cli import commands as cli
from tools.cli import play_verbs
from tools.explore_report import report
from tools.explore_winrates import (
    Pair,
    cached_win_rates,
    differing_pairs,
    pair_of,
    plans_of,
    with_win_rates,
)
from tools.explore_winrates_text import rate_cell, said
from tools.registry import get_game
from tools.study import engine
from tools.study.plan import BASE
from tools.study.store import Store

NOMONHAN = get_game("nomonhan")


def _tie(f: Finding) -> Finding:
    """A second differing pair under the same preset, of another option (NOM-4.4: ja reads a
    points tie as a Soviet win, the other reading as a draw)."""
    return attrs.evolve(f, option="tie", reading_a="soviet", reading_b="draw")


def _rows(db: Path) -> int:
    with Store(db) as store:
        return int(store._db.execute("SELECT COUNT(*) FROM results").fetchone()[0])


def test_a_second_report_reads_the_stored_games_and_plays_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The plain report (no --win-rates) shows what --win-rates stored, the same numbers, and
    starts no game: neither the engine nor an agent is reachable."""
    f = _differing()
    db = tmp_path / "study.sqlite"
    [played] = with_win_rates(NOMONHAN, [f], SEEDS, db, engine=Inline())
    rows = _rows(db)
    assert rows == 2 * SEEDS

    def refuse(*args: Any, **kwargs: Any) -> int:
        raise AssertionError("a cached report played a game")

    monkeypatch.setattr(explore_winrates, "execute_all", refuse)
    monkeypatch.setattr(engine, "check_agents", refuse)  # nor is an agent built (MCTS's extra)
    [read] = cached_win_rates(NOMONHAN, [f], db)
    assert _rows(db) == rows
    assert played.win_rate is not None and read.win_rate is not None
    assert read.win_rate["computed"] and read.win_rate["paired_games"] == SEEDS
    assert "played_now" not in read.win_rate
    assert read.win_rate == {k: v for k, v in played.win_rate.items() if k != "played_now"}


def test_a_pair_without_stored_games_says_why_and_the_command_that_plays_them(
    tmp_path: Path,
) -> None:
    """No database: the reason names it and the database is not created; a database without
    the pair's games: the reason says so; both give the exact command for the pair."""
    f = _differing()
    db = tmp_path / "study.sqlite"
    want = (
        f"`wargame explore nomonhan {f.option} --preset {f.preset} --win-rates "
        f"{explore_winrates.SUGGESTED_GAMES} --only-win-rates --db {db}` plays them"
    )
    [absent] = cached_win_rates(NOMONHAN, [f], db)
    assert absent.win_rate is not None and absent.win_rate["computed"] is False
    assert absent.win_rate["reason"] == f"no study database at {db}: {want}"
    assert not db.exists()
    with_win_rates(NOMONHAN, [_tie(f)], SEEDS, db, engine=Inline())  # another pair's games
    [other] = cached_win_rates(NOMONHAN, [f], db)
    assert other.win_rate is not None and other.win_rate["computed"] is False
    assert other.win_rate["reason"] == f"no greedy games of both readings in {db}: {want}"


def test_every_differing_pair_gets_the_field_and_the_column(tmp_path: Path) -> None:
    """results.json carries `win_rate` for each differing pair (numbers, or the reason), the
    table's column a cell for each; a pair that does not differ has neither."""
    f = _differing()
    db = tmp_path / "study.sqlite"
    with_win_rates(NOMONHAN, [f], SEEDS, db, engine=Inline())
    unknown = attrs.evolve(f, option="scoring", verdict="unknown", witness=None)
    findings = cached_win_rates(NOMONHAN, [f, _tie(f), unknown], db)
    results: dict[str, Any] = report(NOMONHAN, tmp_path / "r", findings, [], [])
    computed, missing, other = results["options"]
    assert computed["win_rate"]["computed"] is True
    assert (
        missing["win_rate"]["computed"] is False
        and "--only-win-rates" in (missing["win_rate"]["reason"])
    )
    assert "win_rate" not in other
    cells = [rate_cell(g) for g in findings]
    assert cells[0].endswith(f"{SEEDS} games") and cells[1] == "not computed" and cells[2] == "-"


def test_the_presets_own_games_are_played_once_for_every_options_pairs(tmp_path: Path) -> None:
    """Two options' pairs under one preset: their reading A is the preset itself, one study,
    so 3 x SEEDS games are played, not 4 x SEEDS; the same pair twice plays nothing more."""
    f = _differing()
    db = tmp_path / "study.sqlite"
    a, b = with_win_rates(NOMONHAN, [f, _tie(f)], SEEDS, db, engine=Inline())
    assert _rows(db) == 3 * SEEDS
    assert a.win_rate is not None and b.win_rate is not None
    assert a.win_rate["study_keys"][0] == b.win_rate["study_keys"][0]
    assert a.win_rate["played_now"] == b.win_rate["played_now"] == 2 * SEEDS
    [again] = with_win_rates(NOMONHAN, [f, f], SEEDS, db, engine=Inline())[:1]
    assert again.win_rate is not None and again.win_rate["played_now"] == 0
    assert _rows(db) == 3 * SEEDS


class Counted(Inline):
    """An engine that counts its sessions (a process pool would start its workers in each)."""

    sessions = 0

    def __enter__(self) -> Counted:
        self.sessions += 1
        return self


def test_one_engine_session_plays_every_study_of_the_run(tmp_path: Path) -> None:
    """Three studies (the preset, and each option read the other way): the workers start
    once, not once a study."""
    f = _differing()
    counted = Counted()
    with_win_rates(NOMONHAN, [f, _tie(f)], 2, tmp_path / "s.sqlite", engine=counted)
    assert counted.sessions == 1
    assert _rows(tmp_path / "s.sqlite") == 3 * 2


def test_the_cached_numbers_use_the_seeds_both_readings_have(tmp_path: Path) -> None:
    """Reading A stored on seeds 0..3, reading B on 0..1: the report pairs seeds 0 and 1."""
    f = _differing()
    db = tmp_path / "study.sqlite"
    plan_a, plan_b = plans_of(NOMONHAN, pair_of(f), 4)
    from tools.study.runner import execute

    with Store(db) as store:
        execute(plan_a, store, Inline())
        execute(attrs.evolve(plan_b, games=2), store, Inline())
    [g] = cached_win_rates(NOMONHAN, [f], db)
    assert g.win_rate is not None and g.win_rate["paired_games"] == g.win_rate["games"] == 2
    with Store(db) as store:
        assert store.count(plan_a.key, BASE) == 4


def test_mcts_games_stored_for_a_pair_show_beside_the_greedy_ones(tmp_path: Path) -> None:
    """`--win-rate-agent mcts` files MCTS's games under their own studies; a later report reads
    them beside the greedy numbers (or beside the reason the greedy ones are missing)."""
    f = _differing()
    db = tmp_path / "study.sqlite"
    [g] = with_win_rates(NOMONHAN, [f], 2, db, engine=Inline(), agent="mcts")
    assert g.win_rate is not None and g.win_rate["computed"] is False
    assert "--win-rate-agent" not in g.win_rate["reason"]  # the greedy games are what lacks
    mcts = g.win_rate["mcts"]
    assert mcts["agent"] == "mcts against mcts" and mcts["paired_games"] == 2
    assert mcts["played_now"] == 4 and _rows(db) == 4
    with_win_rates(NOMONHAN, [f], 2, db, engine=Inline())
    [both] = cached_win_rates(NOMONHAN, [f], db)
    assert both.win_rate is not None and both.win_rate["agent"] == "greedy against greedy"
    assert both.win_rate["mcts"] == {k: v for k, v in mcts.items() if k != "played_now"}
    assert "mcts against mcts, 2 paired games" in said(both.win_rate)
    assert "; mcts " in rate_cell(both)


def _results_json(tmp_path: Path, f: Finding) -> Path:
    """A report's results.json with one differing pair and one equivalent one."""
    out = tmp_path / "earlier"
    report(NOMONHAN, out, [f, attrs.evolve(_tie(f), verdict="equivalent", witness=None)], [], [])
    return out


def test_only_win_rates_from_a_report_plays_its_differing_pairs_without_the_search(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    f = _differing()
    earlier = _results_json(tmp_path, f)
    monkeypatch.setattr(play_verbs, "LocalEngine", lambda workers: Inline())
    monkeypatch.setattr(explore_report, "explore", None)  # no search may run
    db = tmp_path / "study.sqlite"
    args = ["explore", "nomonhan", "--win-rates", str(SEEDS), "--only-win-rates"]
    assert cli.main([*args, "--from", str(earlier), "--db", str(db), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    [row] = out["pairs"]
    assert (row["option"], row["reading_a"], row["reading_b"]) == (
        f.option,
        f.reading_a,
        f.reading_b,
    )
    assert row["win_rate"]["paired_games"] == SEEDS and row["win_rate"]["played_now"] == 2 * SEEDS
    assert _rows(db) == 2 * SEEDS


def test_the_pairs_of_a_report_are_read_strictly() -> None:
    f = _differing()
    doc = {"game": "nomonhan", "options": [{"verdict": "differ", "preset": "ja"}]}
    with pytest.raises(InvalidInput) as err:
        differing_pairs(NOMONHAN, doc, None, None)
    assert err.value.field == "--from"
    with pytest.raises(InvalidInput):
        differing_pairs(NOMONHAN, {"game": "shumshu", "options": []}, None, None)
    entry = {"verdict": "differ", "preset": f.preset, "option": f.option, "readings": ["a", "b"]}
    assert differing_pairs(NOMONHAN, {"game": "nomonhan", "options": [entry]}, None, None) == [
        Pair(f.preset, f.option, "a", "b")
    ]


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        (["--only-win-rates"], "--only-win-rates"),
        (["--only-win-rates", "--win-rates", "2", "--report", "x"], "--report"),
        (["--from", "x"], "--from"),
        (["--only-win-rates", "--win-rates", "2", "--preset", "xx"], "--preset"),
        (["nope", "--only-win-rates", "--win-rates", "2"], "OPTION"),
        (["--workers", "0"], "--workers"),
    ],
)
def test_the_win_rate_flags_are_refused_naming_the_field_before_any_search(
    extra: list[str], field: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["explore", "nomonhan", *extra]) == 2
    assert json.loads(capsys.readouterr().err)["field"] == field
