"""Which readings change who wins: for every reading pair the explorer found to differ, the
paired difference in win rate between the two readings over the same seeds, greedy against
greedy, with its 95% interval (`tools.study`: its plans, engine and results store).

Run outside the pairs' search budget (`wargame explore --win-rates GAMES`), and cached in the
study's database: the games are filed under the plan's key, so a second report plays none.
A differing pair whose numbers were not computed says why (`not_computed`).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

from kernel.roles import AssembledGame
from solvers.checking.differences import Finding
from tools.study.engine import Engine, LocalEngine
from tools.study.plan import make_plan
from tools.study.runner import execute, summary
from tools.study.store import Store

AGENT = "greedy"
DB = "wargame-study.sqlite"  # the study command's default database


def not_computed(reason: str) -> dict[str, Any]:
    """The win-rate field of a differing pair whose numbers were not computed."""
    return {"computed": False, "reason": reason}


def with_win_rates(
    game: AssembledGame[Any, Any],
    findings: Sequence[Finding],
    games: int,
    db: Path | str = DB,
    *,
    engine: Engine | None = None,
    deadline: float | None = None,
) -> list[Finding]:
    """The findings, each differing pair with its `win_rate`: `games` seeds (0 to games - 1)
    per reading, both sides played by the greedy agent, on `engine` (a local process pool of
    one worker by default); a pair whose study would start past `deadline` (a
    `time.perf_counter()` value) gets the reason instead. Pairs that do not differ are left
    as they are."""
    out: list[Finding] = []
    done: dict[tuple[str, str], dict[str, Any]] = {}
    with Store(Path(db)) as store:
        for f in findings:
            if f.verdict != "differ":
                out.append(f)
                continue
            key = (f.preset, f.option)
            if key not in done:
                late = deadline is not None and time.perf_counter() > deadline
                done[key] = (
                    {"late": True}
                    if late
                    else _study(game, f, games, store, engine or LocalEngine(1))
                )
            out.append(attrs.evolve(f, win_rate=_entry(done[key], f, games)))
    return out


def _study(
    game: AssembledGame[Any, Any], f: Finding, games: int, store: Store, engine: Engine
) -> dict[str, Any]:
    """The study of every reading of the pair's option under its preset (played where the
    store lacks them), summarised."""
    plan = make_plan(
        game.name, preset=f.preset, agent=AGENT, against=AGENT, games=games, compare=f.option
    )
    played = execute(plan, store, engine)
    return {"summary": summary(plan, store), "played": played, "key": plan.key}


def _entry(study: dict[str, Any], f: Finding, games: int) -> dict[str, Any]:
    """The pair's win-rate field from its option's study: per side (and draws), the rate under
    each reading, the paired difference (reading B less reading A) and its interval."""
    if study.get("late"):
        return not_computed("the time given to win-rate studies ran out before this pair's")
    numbers = study["summary"]
    found = [
        c for c in numbers["comparisons"] if c["base"] == f.reading_a and c["other"] == f.reading_b
    ]
    if not found:
        return not_computed(f"the study's base reading is not {f.reading_a}")
    c = found[0]
    return {
        "computed": True,
        "agent": f"{AGENT} against {AGENT}",
        "games": games,
        "paired_games": c["paired_games"],
        "changed_games": c["changed_games"],
        "outcomes": {
            name: {
                "rate_a": o["base_rate"],
                "rate_b": o["other_rate"],
                "difference": o["difference"],
                "low": o["low"],
                "high": o["high"],
                "p_value": o["p_value"],
            }
            for name, o in c["outcomes"].items()
        },
        "study_key": study["key"],
        "played_now": study["played"],
    }


def said(win_rate: dict[str, Any] | None) -> str:
    """The win-rate field in words, for the page and the table."""
    if not win_rate:
        return ""
    if not win_rate.get("computed"):
        return f"win rates not computed: {win_rate.get('reason', '')}"
    parts = [
        f"{name} {o['rate_a']:.0%} → {o['rate_b']:.0%} "
        f"({o['difference']:+.0%}, 95% interval {o['low']:+.0%} to {o['high']:+.0%})"
        for name, o in win_rate["outcomes"].items()
    ]
    return (
        f"{win_rate['agent']}, {win_rate['paired_games']} paired games "
        f"({win_rate['changed_games']} with another result): " + "; ".join(parts)
    )


UNASKED = "not asked for (wargame explore --win-rates GAMES computes them)"


def rate_cell(f: Finding) -> str:
    """A differing pair's win-rate change for the summary table: the first side's."""
    if f.verdict != "differ":
        return "-"
    rate = f.win_rate or not_computed(UNASKED)
    if not rate.get("computed"):
        return "not computed"
    side, o = next(iter(rate["outcomes"].items()))
    return f"{side} {o['difference']:+.0%} ({o['low']:+.0%} to {o['high']:+.0%})"
