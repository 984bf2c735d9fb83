"""A study's summary for people: the console table, and the HTML page (the same tables and the
plots) with summary.json beside it."""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _interval(s: dict[str, Any]) -> str:
    return f"{_pct(s['rate'])} [{_pct(s['low'])}, {_pct(s['high'])}]"


def _outcomes(summary: dict[str, Any]) -> list[str]:
    return [*summary["plan"]["sides"], "draw"]


def _agents(plan: dict[str, Any]) -> str:
    return ", ".join(f"{side}: {plan['agents'][side]}" for side in plan["sides"])


def _rate_of(reading: dict[str, Any], outcome: str) -> dict[str, Any]:
    stats: dict[str, Any] = reading["draw"] if outcome == "draw" else reading["wins"][outcome]
    return stats


def _p(p: float) -> str:
    return f"{p:.3g}" if p >= 0.001 else "<0.001"


def reading_rows(summary: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """The per-reading table: games, each outcome's rate with its interval, length, unfinished
    games, and the deciding clauses."""
    outcomes = _outcomes(summary)
    head = ["variant", "games", *[f"{o} wins" if o != "draw" else "draws" for o in outcomes]]
    head += ["length mean", "length median", "unfinished", "end clauses"]
    rows = []
    for r in summary["readings"]:
        unfinished = ", ".join(f"{k} {v}" for k, v in r["unfinished"].items()) or "0"
        clauses = ", ".join(f"{c or '?'} {k}" for c, k in r["clauses"].items())
        rows.append(
            [
                str(r["variant"]),
                str(r["games"]),
                *[_interval(_rate_of(r, o)) for o in outcomes],
                f"{r['length']['mean']:.1f}",
                f"{r['length']['median']:g}",
                unfinished,
                clauses,
            ]
        )
    return head, rows


def comparison_rows(summary: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """One row per compared reading and outcome: the paired difference, its interval, the
    discordant seeds and McNemar's p."""
    head = [
        "option",
        "base",
        "other",
        "outcome",
        "difference [95% CI]",
        "base only",
        "other only",
        "p (McNemar)",
        "significant",
    ]
    rows = []
    for c in summary["comparisons"]:
        for outcome, d in c["outcomes"].items():
            diff = (
                f"{100 * d['difference']:+.1f} pp [{100 * d['low']:+.1f}, {100 * d['high']:+.1f}]"
            )
            rows.append(
                [
                    c["option"],
                    c["base"],
                    c["other"],
                    outcome,
                    diff,
                    str(d["base_only"]),
                    str(d["other_only"]),
                    _p(d["p_value"]),
                    "yes" if d["significant"] else "no",
                ]
            )
    return head, rows


def _text_table(head: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(x) for x in col) for col in zip(head, *rows, strict=True)]
    lines = [
        "  ".join(x.ljust(w) for x, w in zip(row, widths, strict=True)).rstrip()
        for row in (head, *rows)
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def table(summary: dict[str, Any]) -> str:
    """The readable summary the command prints."""
    plan = summary["plan"]
    agents = _agents(plan)
    seeds = f"{plan['seed_start']}..{plan['seed_start'] + plan['games'] - 1}"
    parts = [
        f"study {plan['game']} ({plan['key']}): {agents}; seeds {seeds}",
        _text_table(*reading_rows(summary)),
    ]
    if summary["comparisons"]:
        parts.append("paired on the same seeds (Newcombe interval, exact McNemar test):")
        parts.append(_text_table(*comparison_rows(summary)))
    return "\n\n".join(parts)


def _html_table(head: list[str], rows: list[list[str]]) -> str:
    cells = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(x)}</td>" for x in row) + "</tr>" for row in rows
    )
    return f"<table><thead><tr>{cells}</tr></thead><tbody>{body}</tbody></table>"


STYLE = """
body { font-family: sans-serif; margin: 2em; max-width: 70em; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #bbb; padding: 0.3em 0.6em; text-align: left; }
th { background: #eee; }
img { max-width: 100%; margin: 1em 0; }
"""


def write_report(summary: dict[str, Any], pictures: list[str], out: Path) -> Path:
    """`out/index.html` and `out/summary.json` (the numbers `--json` prints)."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "summary.json").write_text(json.dumps(summary, indent=2, sort_keys=True) + "\n")
    plan = summary["plan"]
    agents = _agents(plan)
    title = f"Study of {plan['game']}"
    parts = [
        f"<h1>{html.escape(title)}</h1>",
        f"<p>Agents {html.escape(agents)}; seeds {plan['seed_start']} to "
        f"{plan['seed_start'] + plan['games'] - 1}; study key <code>{plan['key']}</code>. "
        "Rates are over all games, with 95% Wilson intervals.</p>",
        "<h2>Results per reading</h2>",
        _html_table(*reading_rows(summary)),
    ]
    if summary["comparisons"]:
        parts += [
            "<h2>Readings compared on the same seeds</h2>",
            "<p>Differences are other minus base, with Newcombe's interval for paired "
            "proportions; p is the exact McNemar test on the seeds whose result differs.</p>",
            _html_table(*comparison_rows(summary)),
        ]
    parts += [
        f'<img src="{html.escape(name)}" alt="{html.escape(name)}">'
        for name in pictures
        if name.endswith(".svg")
    ]
    page = (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title><style>{STYLE}</style></head>"
        f'<body>{"".join(parts)}<p>Summary data: <a href="summary.json">summary.json</a>.</p>'
        "</body></html>\n"
    )
    index = out / "index.html"
    index.write_text(page)
    return index
