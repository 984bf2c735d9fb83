"""The parts of an explore report: each reading pair's, gap's and unreached clause's entry in
results.json and section of index.html, with the files (pictures, replayable logs) each
writes. What each shows of a witness (picture, narrated log, loop) is `tools.explore_witness`."""

from __future__ import annotations

import html
import time
from pathlib import Path
from typing import Any

from kernel.errors import InvalidInput
from kernel.roles import AssembledGame
from solvers.checking.differences import Finding, Witness
from solvers.checking.explore import reading_variant
from solvers.checking.gaps import Gap
from solvers.checking.unreached import Unreached
from tools.explore_account import account
from tools.explore_winrates import not_computed
from tools.explore_winrates_text import UNASKED, rate_cell, said
from tools.explore_witness import (
    json_log,
    loop,
    narrative,
    reached,
    setup_words,
    start_json,
    was_shrunk,
    witness_picture,
)
from tools.game_logs import write_log
from tools.playlog import position_log
from tools.render import render_svg


class Files:
    """Where the report's files go: a directory, or nowhere when only the JSON is wanted (the
    entries name the same files either way, so `--json` prints exactly `results.json`)."""

    def __init__(self, out: Path | None) -> None:
        self.out = out
        if out is not None:
            try:
                out.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise InvalidInput(
                    f"cannot write {out}: {exc.strerror}", field="--report"
                ) from None

    def text(self, name: str, text: str) -> None:
        if self.out is not None:
            (self.out / name).write_text(text, encoding="utf-8")

    def log(self, name: str, log: Any) -> None:
        if self.out is not None:
            write_log(self.out / name, log, argument="--report")


def finding_part(
    game: AssembledGame[Any, Any], files: Files, f: Finding
) -> tuple[dict[str, Any], str]:
    """A reading pair's entry in results.json and its section of the page (with its witness's
    files written)."""
    slug = slug_of(f)
    entry: dict[str, Any] = {
        "option": f.option,
        "clauses": list(f.clauses),
        "ambiguity": f.ambiguity,
        "preset": f.preset,
        "readings": [f.reading_a, f.reading_b],
        "verdict": f.verdict,
        "detail": f.detail,
        "limit": f.limit,
        "z3_depth": f.z3_depth,
        "moot": f.moot,
        "seconds": round(f.seconds, 3),
    }
    rates = ""
    if f.verdict == "differ":
        entry["win_rate"] = f.win_rate or not_computed(UNASKED)
        rates = f"<p class='winrate'><b>Who wins</b>: {html.escape(said(entry['win_rate']))}</p>"
    body = ""
    if f.witness is not None:
        entry["witness"], body = _witness_part(game, files, f, f.witness, slug)
    readings = next(o for o in game.catalogue.options if o.name == f.option).readings
    described = "".join(
        f"<li><b>{html.escape(r.name)}</b>: {html.escape(r.summary)} ({html.escape(r.source)})"
        f"{' — not implemented: ' + html.escape(r.unplayed) if r.unplayed else ''}</li>"
        for r in readings
    )
    section = (
        f'<section id="{html.escape(slug)}"><h2>{html.escape(f.option)}: '
        f"{html.escape(f.reading_a)} / {html.escape(f.reading_b)} — {f.verdict}</h2>"
        f"<p>Clauses {html.escape(', '.join(f.clauses))}"
        f"{' · ' + html.escape(f.ambiguity) if f.ambiguity else ''} · preset "
        f"{html.escape(f.preset)} · {f.seconds:.2f} s"
        f"{' · limits hit: ' + html.escape(f.limit) if f.limit else ''} · "
        f"{html.escape(f.detail)}</p>"
        f"<ul>{described}</ul>{rates}{body}</section>"
    )
    return entry, section


def _witness_part(
    game: AssembledGame[Any, Any], files: Files, f: Finding, w: Witness, slug: str
) -> tuple[dict[str, Any], str]:
    """A witness's entry in results.json and its part of the pair's section: the account, the
    picture, the play log and the replayable logs (one per reading), whose files it writes."""
    cat = game.catalogue
    logs = []
    for tag, reading in (("a", f.reading_a), ("b", f.reading_b)):
        variant = reading_variant(cat, f.preset, f.option, reading)
        final = game.state_to_json(reached(game, variant, w))
        start = start_json(game, variant, w.start)
        log = position_log(game, variant, w.log, final, start)
        files.log(f"{slug}-{tag}.json", log)
        logs.append(f"{slug}-{tag}.json")
    said = account(game, f)
    entry: dict[str, Any] = {
        "actions": len(w.log),
        "shrunk_from": w.shrunk_from,
        "units": w.units,
        "found_by": w.found_by,
        "account": said,
        "difference": {
            "kind": w.difference.kind,
            "detail": w.difference.detail,
            "only_a": list(w.difference.only_a),
            "only_b": list(w.difference.only_b),
        },
        "logs": logs,
        "log": list(w.log),  # the actions as JSON, as in the log files
        # where the log starts (reading A's state JSON; null: the preset's set-up),
        # and the units a shrink took off the set-up for it
        "start": w.start,
        "start_after": w.start_after,  # actions of play before it (0: the set-up)
        "removed_units": list(w.removed),
    }
    picture = witness_picture(game, f)
    img = ""
    if picture is not None:
        files.text(f"{slug}.svg", render_svg(picture))
        entry["picture"] = f"{slug}.svg"
        img = f'<img src="{html.escape(slug)}.svg" alt="witness position">'
    shrunk = f", shrunk from {w.shrunk_from}" if was_shrunk(w) else ""
    variant_a = reading_variant(cat, f.preset, f.option, f.reading_a)
    body = (
        "<h3>What differs, and what happens next</h3>"
        + "".join(f"<p class='account'>{html.escape(line)}</p>" for line in said)
        + img
        + f"<h3>Play log to the witness (reading {html.escape(f.reading_a)}, "
        f"{len(w.log)} actions{shrunk}; {w.units} units on the map; found by "
        f"{html.escape(w.found_by)})</h3>" + f"<p class='setup'>The log starts "
        f"{html.escape(setup_words(w.start, w.start_after, w.removed))}.</p>"
        + narrative(game, variant_a, w.log, w.start)
        + f"<p>Replay: <code>wargame play {game.name} --replay "
        f"{html.escape(logs[0])}</code> (reading {html.escape(f.reading_a)}), "
        f"<code>{html.escape(logs[1])}</code> (reading {html.escape(f.reading_b)})</p>"
        + json_log(w.log, logs)
    )
    return entry, body


def gap_part(
    game: AssembledGame[Any, Any], files: Files, g: Gap, i: int
) -> tuple[dict[str, Any], str]:
    """The `i`-th gap's entry in results.json and its section of the page (with its log and
    picture written)."""
    name = f"gap-{g.kind}-{g.preset}-{i}"
    log_name = ""
    if g.state is not None:
        variant = g.variant(game)
        log = position_log(game, variant, g.log, g.state, g.start)
        files.log(f"{name}.json", log)
        log_name = f"{name}.json"
    img = ""
    draw = getattr(game, "scene", None)
    if draw is not None and g.state is not None:
        scene = draw(game.state_from_json(g.state))
        if g.kind == "endless":
            scene = loop(game, g, scene, draw)
        files.text(f"{name}.svg", render_svg(scene))
        img = f'<img src="{name}.svg" alt="gap position">'
    entry = {
        "kind": g.kind,
        "preset": g.preset,
        "reading": None if g.reading is None else list(g.reading),
        "clauses": list(g.clauses),
        "message": g.message,
        "actions": len(g.log),
        "log": log_name,
        "start": g.start,  # null: the preset's set-up
        "start_after": g.start_after,
        "removed_units": list(g.removed),
    }
    section = (
        f'<section id="{name}"><h2>Candidate gap: {html.escape(g.kind)} under '
        f"{html.escape(g.under)}</h2><p>{html.escape(g.message)}</p><p>Clauses "
        f"{html.escape(', '.join(g.clauses))}; {len(g.log)} actions; replay "
        f"<code>wargame play {game.name} --replay {html.escape(log_name)}</code></p>"
        f"{img}<h3>Play log ({len(g.log)} actions, "
        f"{html.escape(setup_words(g.start, g.start_after, g.removed))})</h3>"
        f"{narrative(game, g.variant(game), g.log, g.start)}"
        f"{json_log(g.log, [log_name] if log_name else [])}</section>"
    )
    return entry, section


def unreached_part(
    game: AssembledGame[Any, Any], files: Files, u: Unreached, i: int
) -> tuple[dict[str, Any], str]:
    """The `i`-th unreached clause's entry in results.json and its row of the page's table
    (with the log to where it takes effect written, when Z3 found one)."""
    entry: dict[str, Any] = {
        "clause": u.clause,
        "preset": u.preset,
        "verdict": u.verdict,
        "detail": u.detail,
        "limit": u.limit,
        "seconds": round(u.seconds, 3),
    }
    cell = ""
    if u.state is not None:
        name = f"reach-{u.clause}-{u.preset}-{i}"
        log = position_log(game, game.presets()[u.preset], u.log, u.state)
        files.log(f"{name}.json", log)
        entry["log"] = f"{name}.json"
        cell = (
            f"{len(u.log)} actions: <code>wargame play {game.name} --replay "
            f"{html.escape(name)}.json</code>"
        )
    row = (
        f"<tr><td>{html.escape(u.clause)}</td><td>{html.escape(u.preset)}</td>"
        f"<td>{html.escape(u.verdict)}</td><td>{html.escape(u.limit or '-')}</td>"
        f"<td>{html.escape(u.detail)}</td><td>{cell}</td></tr>"
    )
    return entry, row


def unreached_section(rows: list[str]) -> str:
    """The page's section on the clauses no play reached, with its table's `rows`."""
    return (
        "<section><h2>Clauses no play reached</h2><p>Cited only in the docstrings of code "
        "that no seeded playout entered, then put to Z3 over the symbolic model: "
        "<b>reached</b> (a log to a position where the clause takes effect: play was not "
        "varied enough), <b>never</b> (proved: its precondition holds in no reachable "
        "position, a candidate gap), or <b>candidate</b> (nothing settled: the limit hit "
        "says why).</p><table><tr><th>clause</th><th>preset</th><th>verdict</th>"
        "<th>limit hit</th><th>detail</th>"
        f"<th>witness</th></tr>{''.join(rows)}</table></section>"
    )


def page(
    game: AssembledGame[Any, Any],
    findings: list[Finding],
    gaps: list[Gap],
    unreached: list[Unreached],
    sections: list[str],
) -> str:
    """index.html: the counts, the summary table, then each section."""
    return (
        "<!doctype html><html><head><meta charset='utf-8'>"
        f"<title>{html.escape(game.title)}: where the rules text is ambiguous</title>"
        "<style>body{font-family:sans-serif;max-width:1400px;margin:2em auto}"
        "section{border-top:1px solid #ccc;padding:1em 0}img{max-width:100%}"
        "pre.playlog{max-height:32em;overflow:auto;background:#f7f6f0;padding:.6em;"
        "border:1px solid #ddd;font-size:90%}p.account{margin:.3em 0 .3em 1em}"
        "table{border-collapse:collapse}td,th{padding:1px 8px;text-align:left}"
        "tr:nth-child(even){background:#f4f4f4}</style>"
        f"</head><body><h1>{html.escape(game.title)}: readings and gaps</h1>"
        f"<p>{len(findings)} reading pairs, {len(gaps)} candidate gaps, {len(unreached)} "
        f"clauses no play reached. Generated {time.strftime('%Y-%m-%d')}.</p>"
        f"{summary_table(findings, gaps)}{''.join(sections)}</body></html>\n"
    )


def slug_of(f: Finding) -> str:
    return f"{f.option}--{f.reading_a}--{f.reading_b}".replace("/", "_")


def summary_table(findings: list[Finding], gaps: list[Gap]) -> str:
    """The table a rules editor reads first: one row per reading pair and per gap, linked to
    its section."""
    rows = []
    for f in findings:
        w = f.witness
        rows.append(
            f'<tr><td><a href="#{html.escape(slug_of(f))}">{html.escape(f.option)}</a></td>'
            f"<td>{html.escape(f.reading_a)} / {html.escape(f.reading_b)}</td>"
            f"<td>{html.escape(f.preset)}</td>"
            f"<td>{html.escape(f.verdict)}{' (moot under this preset)' if f.moot else ''}</td>"
            f"<td>{html.escape(w.found_by if w is not None else f.limit or '-')}</td>"
            f"<td>{len(w.log) if w is not None else '-'}"
            f"{f' (shrunk from {w.shrunk_from})' if w is not None and was_shrunk(w) else ''}</td>"
            f"<td>{f.z3_depth if f.z3_depth >= 0 else '-'}</td>"
            f"<td>{html.escape(rate_cell(f))}</td></tr>"
        )
    for i, g in enumerate(gaps):
        name = f"gap-{g.kind}-{g.preset}-{i}"
        rows.append(
            f'<tr><td><a href="#{html.escape(name)}">gap: {html.escape(g.kind)}</a></td>'
            f"<td>{html.escape('='.join(g.reading) if g.reading else '-')}</td>"
            f"<td>{html.escape(g.preset)}</td><td>candidate gap</td><td>play</td>"
            f"<td>{len(g.log)}</td><td>-</td><td>-</td></tr>"
        )
    return (
        "<section id='summary'><h2>Summary</h2><table><tr><th>option</th><th>readings</th>"
        "<th>preset</th><th>verdict</th><th>how found (or limit hit)</th>"
        "<th>witness actions</th><th>Z3 depth searched</th>"
        "<th>win rate, reading B less A (95% interval)</th></tr>"
        f"{''.join(rows)}</table></section>"
    )
