"""Which readings change who wins (issue 33, item 4): for a differing reading pair, the paired
difference in win rate between its readings over the same seeds, greedy against greedy,
computed by the study engine and cached in its database; results.json carries the field for
every differing pair, with the reason when it was not computed."""

from __future__ import annotations

from collections.abc import Generator, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

import attrs
import pytest

from solvers.checking.differences import Finding
from solvers.checking.explore import differential, reading_variant
from tools.agents import make_agent
from tools.agents.match import play_match
from tools.cli import commands as cli
from tools.explore_report import report
from tools.explore_winrates import with_win_rates
from tools.explore_winrates_text import UNASKED
from tools.registry import get_game
from tools.study.engine import Done, Task, play_task

NOMONHAN = get_game("nomonhan")
SEEDS = 3


class Inline:
    """The study engine's tasks played in this process (a pool's start-up would cost more than
    these few games)."""

    name = "inline"
    workers = 1

    def __enter__(self) -> Inline:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        return None

    def run(self, tasks: Sequence[Task]) -> Generator[Done, None, None]:
        for task in tasks:
            yield play_task(task)


def _differing() -> Finding:
    """NOM-9.12: damage_allocation's readings differ (guided play's witness)."""
    option = next(o for o in NOMONHAN.catalogue.options if o.name == "damage_allocation")
    [f] = differential(NOMONHAN, option, budget=None, games=12)
    assert f.verdict == "differ"
    return f


def _winners(f: Finding, reading: str) -> list[str | None]:
    """Who wins each seed's greedy game under the reading, played here without the study."""
    variant = reading_variant(NOMONHAN.catalogue, f.preset, f.option, reading)
    out = []
    for seed in range(SEEDS):
        players = {s: make_agent("greedy", NOMONHAN, s, simulations=None) for s in NOMONHAN.sides}
        out.append(play_match(NOMONHAN, variant, players, seed).winner)
    return out


def test_a_differing_pair_gets_the_paired_win_rate_difference_and_a_second_run_plays_none(
    tmp_path: Path,
) -> None:
    """The rates per side are those of the greedy games over the same seeds under each
    reading; the difference is B less A with an interval around it; the second run reads the
    database and plays no game."""
    f = _differing()
    db = tmp_path / "study.sqlite"
    [g] = with_win_rates(NOMONHAN, [f], SEEDS, db, engine=Inline())
    rate = g.win_rate
    assert rate is not None and rate["computed"] and rate["paired_games"] == SEEDS
    assert rate["played_now"] == 2 * SEEDS
    wa, wb = _winners(f, f.reading_a), _winners(f, f.reading_b)
    for side in NOMONHAN.sides:
        o = rate["outcomes"][side]
        assert o["rate_a"] == wa.count(side) / SEEDS
        assert o["rate_b"] == wb.count(side) / SEEDS
        assert o["difference"] == pytest.approx(o["rate_b"] - o["rate_a"])
        assert o["low"] <= o["difference"] <= o["high"]
    assert rate["changed_games"] == sum(1 for x, y in zip(wa, wb, strict=True) if x != y)
    [again] = with_win_rates(NOMONHAN, [f], SEEDS, db, engine=Inline())
    assert again.win_rate is not None and again.win_rate["played_now"] == 0
    assert {k: v for k, v in again.win_rate.items() if k != "played_now"} == {
        k: v for k, v in rate.items() if k != "played_now"
    }


def test_results_json_has_the_field_for_every_differing_pair_with_the_reason_when_absent(
    tmp_path: Path,
) -> None:
    """Not asked for: the field says so; past the time given: it says that; a pair that does
    not differ has none."""
    f = _differing()
    unknown = attrs.evolve(f, verdict="unknown", witness=None)
    late = with_win_rates(NOMONHAN, [f, unknown], SEEDS, tmp_path / "s.sqlite", deadline=0.0)
    results: dict[str, Any] = report(NOMONHAN, tmp_path / "r", [f, *late], [], [])
    plain, spent, other = results["options"]
    assert plain["win_rate"] == {"computed": False, "reason": UNASKED}
    assert spent["win_rate"]["computed"] is False and "ran out" in spent["win_rate"]["reason"]
    assert "win_rate" not in other
    page = (tmp_path / "r" / "index.html").read_text(encoding="utf-8")
    assert page.count("Who wins") == 2 and "win rate, reading B less A" in page


def test_the_page_shows_the_computed_difference_for_the_pair(tmp_path: Path) -> None:
    """A designer reads on the page, beside the witness, what the study found."""
    f = _differing()
    [g] = with_win_rates(NOMONHAN, [f], SEEDS, tmp_path / "s.sqlite", engine=Inline())
    report(NOMONHAN, tmp_path / "r", [g], [], [])
    page = (tmp_path / "r" / "index.html").read_text(encoding="utf-8")
    assert f"greedy against greedy, {SEEDS} paired games" in page
    assert "95% interval" in page


def test_the_cli_refuses_a_negative_count_of_games_before_exploring(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli.main(["explore", "nomonhan", "--win-rates", "-1"]) == 2
    assert "--win-rates" in capsys.readouterr().err
