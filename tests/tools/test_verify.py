"""`wargame verify`: the table, the JSON, the witnesses and the exit codes (run in-process, one
worker, with one or two properties so the suite stays quick; `make test` runs it in full)."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import attrs
import pytest

from solvers.checking import prover
from specs.nomonhan.formal import properties as props
from specs.nomonhan.formal import verification
from tools import verify_command
from tools.cli import commands as cli

PARITY = "NOM-P-INITIATIVE-PARITY"
ENDS = "NOM-P-ENDS"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(["verify", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_nom_6_5_proved_table_and_exit_0(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "nomonhan", "--preset", "ja", "--property", PARITY, "--jobs", "1")
    assert code == 0, out + err
    header, row = out.splitlines()[:2]
    assert header.split()[:5] == ["property", "clauses", "preset", "expected", "verdict"]
    assert row.split()[:5] == [PARITY, "NOM-6.5,NOM-6.1,NOM-6.4", "ja", "holds", "proved"]
    assert "1 verdicts, all as expected" in out
    assert "verify:" not in err  # no progress lines where standard error is no terminal


def test_nom_5_2_json_shape_and_replayable_witness(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, _ = run(
        capsys,
        "nomonhan",
        "--preset",
        "en",
        "--property",
        ENDS,
        "--json",
        "--witnesses",
        str(tmp_path),
        "--jobs",
        "1",
    )
    assert code == 0
    data = json.loads(out)
    assert set(data) == {"ok", "seconds", "results", "refinement", "without_properties"}
    assert data["ok"] is True and data["refinement"] == []  # skipped for one property
    (result,) = data["results"]
    assert {
        "game",
        "preset",
        "property",
        "clauses",
        "statement",
        "expected",
        "verdict",
        "ok",
        "method",
        "detail",
        "seconds",
        "witness",
    } == set(result)
    assert (result["property"], result["expected"], result["verdict"]) == (ENDS, "fails", "refuted")
    path = Path(result["witness"]["path"])
    assert path.parent == tmp_path and path.is_file()
    assert result["witness"]["log"]["stop"] == "step_limit"
    code, replayed, _ = (
        cli.main(["play", "nomonhan", "--replay", str(path)]),
        *capsys.readouterr(),
    )
    assert code == 0
    assert "repeats step 2, so play can go on without end" in replayed


def test_verdict_differing_from_the_expected_one_exits_1(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    wrong = tuple(
        attrs.evolve(p, expected={"ja": "fails", "en": "fails"}) if p.id == PARITY else p
        for p in props.properties()
    )
    monkeypatch.setattr(props, "properties", lambda: wrong)
    code, out, _ = run(capsys, "nomonhan", "--preset", "ja", "--property", PARITY, "--jobs", "1")
    assert code == 1
    assert "proved !" in out and "1 not as expected" in out


def test_unknown_is_never_printed_as_proved_and_exits_1(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(prover, "check", functools.partial(prover.check, rlimit=1))
    code, out, _ = run(
        capsys, "nomonhan", "--preset", "ja", "--property", PARITY, "--json", "--jobs", "1"
    )
    assert code == 1
    (result,) = json.loads(out)["results"]
    assert result["verdict"] == "unknown" and result["ok"] is False
    assert "rlimit=1" in result["detail"]


def test_without_a_symbolic_model_properties_are_tested_not_proved(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(verification, "symbolic_model", lambda variant: None)
    code, out, _ = run(
        capsys,
        "nomonhan",
        "--preset",
        "ja",
        "--property",
        PARITY,
        "--property",
        ENDS,
        "--json",
        "--jobs",
        "1",
    )
    results = {r["property"]: r for r in json.loads(out)["results"]}
    assert results[PARITY]["verdict"] == "tested"
    assert "not a proof" in results[PARITY]["detail"]
    assert results[ENDS]["verdict"] == "unknown"  # random playouts do not find the lasso
    assert code == 1


def test_bad_input_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["nosuchgame"], ["nomonhan", "--preset", "xx"], ["nomonhan", "--property", "X"]):
        code, _, err = run(capsys, *argv)
        assert code == 2
        error: dict[str, Any] = json.loads(err)
        assert error["error"] == "invalid_input"


def test_one_property_under_two_presets_goes_to_both_workers() -> None:
    """Dealing: a property's runs under SNC's two presets cost alike, so they are dealt side by
    side and, with two workers (every other task), land on different workers; Nomonhan's
    property expected to fail is dealt first."""
    tasks = [
        ("snc1937", preset, what)
        for preset in ("printed", "standard")
        for what in ("SNC-P-ONE-SIDE", "SNC-P-ENDS", "SNC-P-STEPS", "refinement")
    ]
    order = verify_command._dealing_order(tasks)
    assert sorted(order) == list(range(len(tasks)))
    dealt = [tasks[i] for i in order]
    for what in ("SNC-P-ONE-SIDE", "refinement"):
        workers = {k % 2 for k, t in enumerate(dealt) if t[2] == what}
        assert workers == {0, 1}, what
    nom = [("nomonhan", "ja", "NOM-P-STAGE-RECORDS"), ("nomonhan", "ja", "NOM-P-ENDS")]
    assert nom[verify_command._dealing_order(nom)[0]][2] == "NOM-P-ENDS"


def test_the_workers_shares_are_fixed_and_even(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`wargame verify`'s workers each take a fixed share (so witnesses repeat), the costliest
    tasks first to the least loaded: with the hints, no worker has much more than half."""
    tasks = [("g", "p", f"T{i}") for i in range(6)]
    costs = tmp_path / "costs.json"
    costs.write_text(json.dumps({"g p T0": 50, "g p T1": 40, "g p T2": 30, "g p T3": 20}))
    monkeypatch.setattr(verify_command, "COSTS", costs)
    shares = verify_command._shares(tasks, 2)
    assert shares == verify_command._shares(tasks, 2)
    assert sorted(i for s in shares for i in s) == list(range(6))
    assert shares == [[0, 3, 4], [1, 2, 5]]  # 50+20+2 and 40+30+2
