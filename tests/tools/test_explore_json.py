"""`wargame explore --json` prints exactly the report's results.json, and the report opens
with a summary table linked to each finding (a rules editor reads it first)."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import attrs
import pytest

from solvers.checking.differences import Finding
from tools import explore_pages, explore_report
from tools.cli import commands as cli
from tools.registry import get_game


def _explore(*extra: str) -> Any:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = cli.main(
            ["explore", "nomonhan", "combat_grouping", "--budget", "1", "--json", *extra]
        )
    assert code == 0
    return json.loads(out.getvalue())


@attrs.frozen
class Runs:
    """One exploration with a report and one without, in an empty working directory."""

    alone: Any
    left_behind: list[Path]  # what the run without a report wrote in its working directory
    printed: Any
    report: Path


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Runs:
    """Both runs once for the module: each explores for seconds."""
    cwd, report = tmp_path_factory.mktemp("cwd"), tmp_path_factory.mktemp("report")
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(cwd)
        alone = _explore()
        left = list(cwd.iterdir())
        printed = _explore("--report", str(report))
    return Runs(alone, left, printed, report)


def _timeless(doc: Any) -> Any:
    """The document without its timings, which differ from run to run."""
    if isinstance(doc, dict):
        return {k: _timeless(v) for k, v in doc.items() if k != "seconds"}
    if isinstance(doc, list):
        return [_timeless(v) for v in doc]
    return doc


def test_json_is_results_json_and_the_report_opens_with_its_summary(runs: Runs) -> None:
    printed, report = runs.printed, runs.report
    written = json.loads((report / "results.json").read_text(encoding="utf-8"))
    assert printed == written
    assert {"game", "options", "gaps", "unreached"} <= set(printed)
    [entry] = [e for e in printed["options"] if e["option"] == "combat_grouping"]
    for name in entry.get("witness", {}).get("logs", []):
        assert (report / name).is_file()  # every file the document names was written
    page = (report / "index.html").read_text(encoding="utf-8")
    summary = page.index("id='summary'")
    first = page.index("<section id=", summary + 1)
    assert summary < first
    assert 'href="#combat_grouping' in page[summary:first]
    assert entry["verdict"] in page[summary:first]


def test_json_without_a_report_writes_nothing_and_names_the_same_files(runs: Runs) -> None:
    assert runs.left_behind == []
    assert _timeless(runs.alone).keys() == _timeless(runs.printed).keys()
    assert [e["option"] for e in runs.alone["options"]] == [
        e["option"] for e in runs.printed["options"]
    ]


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
    page = explore_pages.summary_table(findings, [])
    assert page.count("moot under this preset") == 1
