"""The fuzz campaign (tools/testing/fuzz.py): a small deterministic run over every game finds no
internal error and no impossible position accepted; and the campaign does find bugs planted
into a game or into the command, so these tests can fail. `make fuzz` runs it at full size."""

from __future__ import annotations

import argparse
import json
from typing import Any

import attrs
import pytest

from kernel.errors import WargameError
from tests.conformance.strict_toy import StrictToy
from tests.toy import PACKAGE as TOY_PACKAGE
from tests.toy.doubles import assembled
from tests.toy.rules.state import ToyState
from tools import registry
from tools.cli import position_verbs
from tools.registry import game_names
from tools.testing import fuzz, fuzz_campaign, fuzz_inputs
from tools.testing.fuzz_report import Report

SMALL = 200
"""Inputs per game in the unit test's run (`make fuzz` runs 20000)."""


SMALLER = {"snc1937": 60}
"""Games whose inputs cost most (SNC's positions are large) get fewer here; `make fuzz` runs
the same number for every game."""


@pytest.mark.parametrize("name", game_names())
def test_a_small_campaign_over_every_game_finds_no_internal_error_or_impossible_position(
    name: str,
) -> None:
    count = SMALLER.get(name, SMALL)
    report = fuzz.run_campaign([name], count, seed=11)
    for stats in report.stats:
        failures = stats.to_json()["failures"]
        assert failures["internal_error"] == 0, report.text()
        assert failures["traceback"] == 0, report.text()
        assert failures["impossible_accepted"] == 0, report.text()
        assert stats.calls > count // 2, f"{stats.game}: too few calls"


@pytest.fixture
def toy_registry(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Register a game of the test's choosing as the only game, for the command and the tool."""

    def register(whole: Any) -> None:
        package = attrs.evolve(TOY_PACKAGE, rules=lambda: whole)
        monkeypatch.setattr(registry, "_games", lambda: {"toy": assembled(whole)})
        monkeypatch.setattr(registry, "_packages", lambda: {"toy": package})

    return register


def campaign(verbs: list[str], count: int = 150) -> Report:
    return fuzz.run_campaign(["toy"], count, seed=3, verbs=verbs)


def test_a_strict_game_gives_the_campaign_nothing_to_report(toy_registry: Any) -> None:
    toy_registry(StrictToy())
    report = campaign(["legal", "legal --side", "apply", "new"], 300)
    assert not report.failed, report.text()
    stats = report.stats[0]
    assert stats.exits["0"] > 0 and stats.exits["2"] > 0, stats.exits


class SkipsThePositionCheck(StrictToy):
    """Planted: the codec no longer runs the position check (a total of 99 is read)."""

    def state_from_json(self, data: Any) -> ToyState:
        check = self.check_position
        self.check_position = lambda state: None  # type: ignore[method-assign]
        try:
            return super().state_from_json(data)
        finally:
            self.check_position = check  # type: ignore[method-assign]


def test_the_campaign_finds_impossible_positions_a_game_accepts(toy_registry: Any) -> None:
    toy_registry(SkipsThePositionCheck())
    report = campaign(["legal"])
    assert report.failed
    assert report.stats[0].counts["impossible_accepted"] > 0, report.text()
    group = next(f for f in report.findings if f.category == "impossible_accepted")
    reproducer = group.call.reproducer()
    assert "argv: wargame legal toy {STATE.json}" in reproducer
    assert "STATE.json: {" in reproducer and "fails the position check" in group.message


def test_the_campaign_finds_a_verb_that_crashes(
    toy_registry: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    toy_registry(StrictToy())

    def broken(args: argparse.Namespace) -> int:
        raise RuntimeError("planted")

    monkeypatch.setattr(position_verbs, "_legal", broken)
    report = campaign(["legal"], 40)
    assert report.failed
    stats = report.stats[0]
    assert stats.counts["internal_error"] == stats.calls == 40
    text = report.text()
    assert "[internal_error] x40" in text and "RuntimeError: planted" in text
    assert json.loads(json.dumps(report.to_json()))["failed"] is True


def test_the_campaign_reports_calls_over_the_time_limit(toy_registry: Any) -> None:
    toy_registry(StrictToy())
    report = fuzz.run_campaign(
        ["toy"], 5, seed=0, verbs=["new"], limits=fuzz_campaign.Limits(seconds=0.0)
    )
    assert report.stats[0].counts["over_limit"] == 5
    assert report.failed


def test_data_files_round_trip_through_the_campaigns_toml_writer() -> None:
    """The TOML-level mutations start from the shipped files, written back unchanged."""
    import tomllib

    for name in game_names():
        game = registry.get_game(name)
        for path in fuzz_inputs.data_files(game):
            doc = tomllib.loads(path.read_text(encoding="utf-8"))
            assert tomllib.loads(fuzz_inputs.toml_text(doc)) == doc
            try:
                game.data_facts(path)
            except WargameError as exc:  # pragma: no cover - the shipped data is valid
                raise AssertionError(exc) from exc


def test_the_campaign_makes_impossible_positions_and_finds_one_the_check_lets_through(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The campaign's state inputs include positions put out of their domain on purpose
    (`tools.testing.mutation_positions`); with the Shumshu checks of those domains taken out
    of the position check, it reports them accepted, and with them in, it reports none."""
    from specs.shumshu.formal import position

    kept = fuzz.run_campaign(["shumshu"], 120, seed=5, verbs=["legal"])
    assert not [f for f in kept.findings if f.category == "impossible_accepted"], kept.text()
    weakened = tuple(
        inv
        for inv in position.INVARIANTS
        if inv.id not in ("SHU-I-SETUP", "SHU-I-ARRIVALS", "SHU-I-DECOY-FACE")
    )
    monkeypatch.setattr(position, "INVARIANTS", weakened)
    report = fuzz.run_campaign(["shumshu"], 120, seed=5, verbs=["legal"])
    found = [f for f in report.findings if f.category == "impossible_accepted"]
    assert found and all("domain" in f.signature for f in found), report.text()
    assert any(e.op == fuzz_campaign.IMPOSSIBLE for f in found for e in f.call.edits)
