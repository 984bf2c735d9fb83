"""`wargame explore --json` prints exactly the report's results.json, and the report opens
with a summary table linked to each finding (a rules editor reads it first)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from solvers.explore import Finding
from tools import cli, explore_report
from tools.registry import get_game


def _explore(capsys: pytest.CaptureFixture[str], *extra: str) -> Any:
    code = cli.main(["explore", "nomonhan", "combat_grouping", "--budget", "1", "--json", *extra])
    out, _ = capsys.readouterr()
    assert code == 0
    return json.loads(out)


def _timeless(doc: Any) -> Any:
    """The document without its timings, which differ from run to run."""
    if isinstance(doc, dict):
        return {k: _timeless(v) for k, v in doc.items() if k != "seconds"}
    if isinstance(doc, list):
        return [_timeless(v) for v in doc]
    return doc


def test_json_is_results_json_and_the_report_opens_with_its_summary(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    printed = _explore(capsys, "--report", str(tmp_path))
    written = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    assert printed == written
    assert {"game", "options", "gaps", "unreached"} <= set(printed)
    [entry] = [e for e in printed["options"] if e["option"] == "combat_grouping"]
    for name in entry.get("witness", {}).get("logs", []):
        assert (tmp_path / name).is_file()  # every file the document names was written
    page = (tmp_path / "index.html").read_text(encoding="utf-8")
    summary = page.index("id='summary'")
    first = page.index("<section id=", summary + 1)
    assert summary < first
    assert 'href="#combat_grouping' in page[summary:first]
    assert entry["verdict"] in page[summary:first]


def test_json_without_a_report_writes_nothing_and_names_the_same_files(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    alone = _explore(capsys)
    assert list(tmp_path.iterdir()) == []
    with_report = _explore(capsys, "--report", str(tmp_path / "r"))
    assert _timeless(alone).keys() == _timeless(with_report).keys()
    assert [e["option"] for e in alone["options"]] == [e["option"] for e in with_report["options"]]


def test_a_moot_pair_is_explored_again_under_the_other_presets(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """AMB-NOM-17: a pair equivalent only because its rule is off under the preset asked
    (`Finding.moot`) is explored under every other preset as well, and the summary says
    "moot under this preset"."""
    calls: list[str | None] = []

    def fake(game: Any, option: Any, *, preset: str | None, **kw: Any) -> list[Finding]:
        calls.append(preset)
        under = preset or "ja"
        return [
            Finding(
                option.name,
                option.clauses,
                option.ambiguity,
                "a",
                "b",
                under,
                "equivalent",
                None,
                "proved",
                0.0,
                moot=under == "ja",
            )
        ]

    monkeypatch.setattr(explore_report, "differential", fake)
    monkeypatch.setattr(explore_report, "stuck_readings", lambda game, findings: [])
    game = get_game("nomonhan")
    findings, _, _ = explore_report.explore(game, "demolition_effect", "ja", 1.0)
    assert calls == ["ja", "en"]
    assert [(f.preset, f.moot) for f in findings] == [("ja", True), ("en", False)]
    page = explore_report.summary_table(findings, [])
    assert page.count("moot under this preset") == 1
