"""`wargame study` arguments: refusals exit 2 with one JSON object naming the field; the plan
and its key; the table and the report; matplotlib and Ray stay out unless asked for."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tools.agents.match import MatchResult
from tools.study import fingerprint, report
from tools.study.command import main
from tools.study.fingerprint import code_fingerprint
from tools.study.plan import make_plan
from tools.study.runner import summary
from tools.study.store import Store


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["chess"], "game"),
        (["nomonhan", "--preset", "xx"], "--preset"),
        (["nomonhan", "--option", "nope=x"], "variant.options.nope"),
        (["nomonhan", "--option", "tie=maybe"], "variant.options.tie"),
        (["nomonhan", "--option", "tie"], "--option"),
        (["nomonhan", "--compare", "nope"], "--compare"),
        (["nomonhan", "--compare", "tie", "--option", "tie=draw"], "--compare"),
        (["nomonhan", "--agent", "oracle"], "--agent"),
        (["nomonhan", "--against", "oracle"], "--against"),
        (["nomonhan", "--games", "0"], "--games"),
        (["nomonhan", "--seed-start", "-1"], "--seed-start"),
        (["nomonhan", "--workers", "0"], "--workers"),
        (["nomonhan", "--address", "127.0.0.1:6379"], "--address"),
        (["nomonhan", "--engine", "spark"], "arguments"),
    ],
)
def test_refusals_name_the_field(
    args: list[str], field: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*args, "--db", str(tmp_path / "s.sqlite")]) == 2
    err = json.loads(capsys.readouterr().err)
    assert err["field"] == field


def test_the_key_is_the_identity_not_the_seeds() -> None:
    plan = make_plan("nomonhan", compare="tie")
    assert plan.readings == ("soviet", "draw")  # ja reads a tie as a Soviet win (NOM-4.4)
    assert make_plan("nomonhan", preset="en", compare="tie").readings == ("draw", "soviet")
    assert plan.key == make_plan("nomonhan", compare="tie", games=7, seed_start=3).key
    keys = {
        plan.key,
        make_plan("nomonhan").key,
        make_plan("nomonhan", preset="en", compare="tie").key,
        make_plan("nomonhan", compare="tie", against="greedy").key,
        make_plan("nomonhan", options=["scoring=own_remaining"], compare="tie").key,
        make_plan("nomonhan", compare="tie", max_steps=500).key,
    }
    assert len(keys) == 6
    fixed = make_plan("nomonhan", compare="tie", code="0" * 16)
    assert fixed.key == "68028048a39cff7d5667"  # stable across runs and machines
    assert make_plan("nomonhan", compare="tie", code="1" * 16).key != fixed.key


def test_the_key_changes_with_the_code_that_plays_the_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Games stored by other rules are never read as this code's: the plan's key holds a
    fingerprint of the kernel, the solvers, the agents and the game's package, the same for
    the same files and another when one of them changes."""
    assert make_plan("nomonhan").code == code_fingerprint("nomonhan") != ""
    rules = tmp_path / "specs" / "toy" / "rules.py"
    rules.parent.mkdir(parents=True)
    rules.write_text("RANGE = 2\n")
    (tmp_path / "kernel").mkdir()
    (tmp_path / "kernel" / "game.py").write_text("X = 1\n")
    monkeypatch.setattr(fingerprint, "ROOT", tmp_path)
    first = fingerprint.code_fingerprint.__wrapped__("toy")
    assert fingerprint.code_fingerprint.__wrapped__("toy") == first
    rules.write_text("RANGE = 3\n")
    second = fingerprint.code_fingerprint.__wrapped__("toy")
    assert second != first
    (tmp_path / "kernel" / "game.py").write_text("X = 2\n")
    assert fingerprint.code_fingerprint.__wrapped__("toy") not in {first, second}


def _fake_summary(tmp_path: Path) -> tuple[dict[str, object], dict[str, list[int]]]:
    plan = make_plan("nomonhan", compare="tie", games=4)
    base = [
        MatchResult(s, "ended", "SU" if s % 2 else "JP", "NOM-5.4", 50 + s, 40) for s in range(4)
    ]
    other = [*base[:3], MatchResult(3, "ended", None, "NOM-5.4", 53, 40)]
    with Store(tmp_path / "f.sqlite") as store:
        store.register(plan)
        store.add(plan.key, "soviet", base)
        store.add(plan.key, "draw", other)
        numbers = summary(plan, store)
    return numbers, {"soviet": [r.steps for r in base], "draw": [r.steps for r in other]}


def test_table_and_html_report(tmp_path: Path) -> None:
    from tools.study.plots import write_plots

    numbers, lengths = _fake_summary(tmp_path)
    text = report.table(numbers)
    assert "ja with tie=draw" in text and "McNemar" in text
    assert "50.0% [15.0%, 85.0%]" in text  # 2 of 4 JP wins, Wilson
    assert "-25.0 pp" in text  # one Soviet win of four becomes a draw
    out = tmp_path / "report"
    pictures = write_plots(numbers, lengths, out)
    assert sorted(pictures) == ["lengths.png", "lengths.svg", "win-rates.png", "win-rates.svg"]
    for name in pictures:
        data = (out / name).read_bytes()
        assert data.startswith(b"\x89PNG") if name.endswith(".png") else b"<svg" in data
    index = report.write_report(numbers, pictures, out)
    page = index.read_text()
    assert page.count("<table>") == 2 and 'src="win-rates.svg"' in page
    assert json.loads((out / "summary.json").read_text()) == numbers


def test_study_modules_import_neither_matplotlib_nor_ray() -> None:
    code = (
        "import sys, tools.study.command, tools.study.runner, tools.study.report;"
        "print(sorted(m for m in ('matplotlib', 'ray') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_add_parser_wires_study_into_a_command(tmp_path: Path) -> None:
    """`add_parser` adds `study` to a parent command's subcommands, running `command.run`."""
    import argparse

    from tools.study import command

    parent = argparse.ArgumentParser(prog="wargame")
    command.add_parser(parent.add_subparsers(dest="command"))
    args = parent.parse_args(["study", "nomonhan", "--compare", "tie", "--games", "3"])
    assert args.run is command.run
    assert (args.game, args.compare, args.games, args.engine, args.workers) == (
        "nomonhan",
        "tie",
        3,
        "local",
        2,
    )
