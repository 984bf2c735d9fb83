"""The win-rate field of a differing pair in words: on the report's page, in its summary
table's column, and in the table `--only-win-rates` prints (`tools.explore_winrates`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from solvers.checking.differences import Finding
from tools.explore_winrates import ALSO, Pair, not_computed


def said(win_rate: dict[str, Any] | None) -> str:
    """The win-rate field in words, for the page: the greedy agent's numbers (or why they
    are missing), then MCTS's where the database held them."""
    if not win_rate:
        return ""
    if not win_rate.get("computed"):
        text = f"win rates not computed: {win_rate.get('reason', '')}"
    else:
        text = _numbers(win_rate)
    if ALSO in win_rate:
        text += f". {_numbers(win_rate[ALSO])}"
    return text


def _numbers(rate: dict[str, Any]) -> str:
    parts = [
        f"{name} {o['rate_a']:.0%} → {o['rate_b']:.0%} "
        f"({_pp(o['difference'])}, 95% interval {_pp(o['low'])} to {_pp(o['high'])})"
        for name, o in rate["outcomes"].items()
    ]
    return (
        f"{rate['agent']}, {rate['paired_games']} paired games "
        f"({rate['changed_games']} with another result): " + "; ".join(parts)
    )


UNASKED = "not looked up (wargame explore GAME --win-rates GAMES computes them)"


def rate_cell(f: Finding) -> str:
    """A differing pair's win-rate change for the summary table: the first side's."""
    if f.verdict != "differ":
        return "-"
    return cell(f.win_rate or not_computed(UNASKED))


def cell(rate: dict[str, Any]) -> str:
    """A win-rate field in a table cell: the first side's change and its interval, greedy
    (and MCTS's where stored)."""
    text = "not computed" if not rate.get("computed") else _short(rate)
    if ALSO in rate:
        text += f"; {ALSO} {_short(rate[ALSO])}"
    return text


def _short(rate: dict[str, Any]) -> str:
    side, o = next(iter(rate["outcomes"].items()))
    return (
        f"{side} {_pp(o['difference'])} ({_pp(o['low'])} to {_pp(o['high'])}), "
        f"{rate['paired_games']} games"
    )


def table(pairs: Sequence[Pair], rates: Sequence[dict[str, Any]]) -> str:
    """One line per pair: the option, its readings, the preset and the change in who wins."""
    rows = [("option", "readings A / B", "preset", "win rate, B less A (first side)")]
    rows += [
        (p.option, f"{p.reading_a} / {p.reading_b}", p.preset, cell(r))
        for p, r in zip(pairs, rates, strict=True)
    ]
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    return "\n".join(
        "  ".join(c.ljust(w) for c, w in zip(r[:3], widths, strict=True)) + "  " + r[3]
        for r in rows
    )


def _pp(x: float) -> str:
    """A signed change in percent, "+0%" for what rounds to nothing (never "-0%")."""
    text = f"{x:+.0%}"
    return "+0%" if text == "-0%" else text
