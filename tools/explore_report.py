"""`wargame explore`: run the ambiguity explorer and the gap search, print a table, and write
the report (`--report DIR`: index.html, results.json, one SVG and two replayable logs per
witness, `wargame play GAME --replay DIR/<name>-a.json` reaching the witness position)."""

from __future__ import annotations

import html
import json
import random
import time
from pathlib import Path
from typing import Any

from kernel.codec import dump_json
from kernel.errors import InvalidInput, WargameError
from kernel.game import Game
from kernel.playout import play, random_agent
from kernel.scene import Scene
from solvers.explore import Finding, differential, reading_variant, rebind
from solvers.gaps import (
    Gap,
    Unreached,
    no_action_and_endless,
    settle_unreached,
    stuck_readings,
    unreached_clauses,
)
from tools.playlog import position_log, write_log
from tools.progress import Progress
from tools.render import render_svg
from tools.verify import spec_verification


def explore(
    game: Game[Any, Any],
    option: str | None,
    preset: str | None,
    budget: float,
    progress: Progress | None = None,
) -> tuple[list[Finding], list[Gap], list[Unreached]]:
    """Every reading pair of the options asked (a moot pair again under the other presets),
    then, for all options, the gap search and the clauses no play reached. `progress` hears
    (steps done, steps in all, what runs now) before each step."""
    cat = game.catalogue
    options = [o for o in cat.options if option is None or o.name == option]
    if not options:
        known = ", ".join(o.name for o in cat.options)
        raise InvalidInput(f"unknown option {option!r} (options: {known})", field="OPTION")
    if preset is not None and preset not in cat.presets:
        raise InvalidInput(f"unknown preset {preset!r}", field="--preset")
    spec = spec_verification(game)
    models = None if spec is None else spec.symbolic_model
    findings: list[Finding] = []
    total = len(options) + (len(game.presets()) + 1 if option is None else 0)
    tell: Progress = progress or (lambda done, total, now: None)
    for i, o in enumerate(options):
        tell(i, total, o.name)
        found = differential(game, o, preset=preset, budget=budget, models=models)
        findings.extend(found)
        # a pair equivalent only because its rule is off there: also under the other presets
        others = {p for f in found if f.moot for p in cat.presets if p != f.preset}
        for p in sorted(others):
            findings.extend(differential(game, o, preset=p, budget=budget, models=models))
    gaps: list[Gap] = stuck_readings(game, findings)
    unreached: list[Unreached] = []
    if option is None:
        for j, name in enumerate(game.presets()):
            tell(len(options) + j, total, f"gaps under {name}")
            gaps.extend(no_action_and_endless(game, name, games=8, max_steps=2000))

        def games() -> None:
            for name in game.presets():
                initial = game.initial_state(game.presets()[name])
                for seed in range(20):
                    play(
                        game, initial, random.Random(seed), dict.fromkeys(game.sides, random_agent)
                    )

        tell(total - 1, total, "clauses no play reached")
        unreached = settle_unreached(game, unreached_clauses(game, games), models, budget)
    tell(total, total, "done")
    return findings, gaps, unreached


def table(findings: list[Finding], gaps: list[Gap], unreached: list[Unreached]) -> str:
    """One line per reading pair (with the limits its searches hit), gap and unreached clause."""
    lines = [
        f"{'option':<26}{'readings':<40}{'verdict':<12}{'log':>5}{'s':>7}  "
        f"{'limits hit':<28}found by"
    ]
    for f in findings:
        w = f.witness
        lines.append(
            f"{f.option:<26}{f.reading_a + ' / ' + f.reading_b:<40}{f.verdict:<12}"
            f"{len(w.log) if w else '-':>5}{f.seconds:>7.2f}  {f.limit or '-':<28}"
            f"{w.found_by if w else f.detail[:60]}"
        )
    for g in gaps:
        lines.append(f"gap {g.kind} under {g.under}: {g.message[:90]} ({', '.join(g.clauses)})")
    for u in unreached:
        hit = f" (limit hit: {u.limit})" if u.limit else ""
        lines.append(
            f"no play reached {u.clause} under {u.preset}: {u.verdict}{hit}, {u.detail[:90]}"
        )
    return "\n".join(lines)


def _slug(f: Finding) -> str:
    return f"{f.option}--{f.reading_a}--{f.reading_b}".replace("/", "_")


def _ids(values: tuple[str, ...]) -> set[str]:
    """Strings inside the differing actions' JSON: unit ids and hex numbers to highlight."""
    out: set[str] = set()
    for text in values:
        try:
            data = json.loads(text.split(" p=")[0])
        except ValueError:
            continue
        stack = [data]
        while stack:
            x = stack.pop()
            if isinstance(x, dict):
                stack.extend(x.values())
            elif isinstance(x, list):
                stack.extend(x)
            elif isinstance(x, str):
                out.add(x)
    return out


def _describe(game: Game[Any, Any], state: Any, values: tuple[str, ...]) -> tuple[str, ...]:
    lines = []
    for text in values[:14]:
        try:
            action = game.action_from_json(json.loads(text))
            lines.append(game.describe(state, action))
        except (ValueError, WargameError):  # chance lines and other non-actions: as they are
            lines.append(text[:110])
    if len(values) > 14:
        lines.append(f"... and {len(values) - 14} more")
    return tuple(lines) or ("(none)",)


def _picture(game: Game[Any, Any], f: Finding) -> Scene | None:
    draw = getattr(game, "scene", None)
    if draw is None or f.witness is None:
        return None
    w = f.witness
    state = game.state_from_json(w.state)
    d = w.difference
    scene: Scene = draw(state)
    notes = (
        (f"{f.reading_a}: {d.detail}", _describe(game, state, d.only_a)),
        (f"{f.reading_b}:", _describe(game, state, d.only_b)),
    )
    return scene.with_witness(frozenset(_ids(d.only_a) | _ids(d.only_b)), notes)


class _Files:
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


def summary_table(findings: list[Finding], gaps: list[Gap]) -> str:
    """The table a rules editor reads first: one row per reading pair and per gap, linked to
    its section."""
    rows = []
    for f in findings:
        w = f.witness
        rows.append(
            f'<tr><td><a href="#{html.escape(_slug(f))}">{html.escape(f.option)}</a></td>'
            f"<td>{html.escape(f.reading_a)} / {html.escape(f.reading_b)}</td>"
            f"<td>{html.escape(f.preset)}</td>"
            f"<td>{html.escape(f.verdict)}{' (moot under this preset)' if f.moot else ''}</td>"
            f"<td>{html.escape(w.found_by if w is not None else f.limit or '-')}</td>"
            f"<td>{len(w.log) if w is not None else '-'}</td>"
            f"<td>{f.z3_depth if f.z3_depth >= 0 else '-'}</td></tr>"
        )
    for i, g in enumerate(gaps):
        name = f"gap-{g.kind}-{g.preset}-{i}"
        rows.append(
            f'<tr><td><a href="#{html.escape(name)}">gap: {html.escape(g.kind)}</a></td>'
            f"<td>{html.escape('='.join(g.reading) if g.reading else '-')}</td>"
            f"<td>{html.escape(g.preset)}</td><td>candidate gap</td><td>play</td>"
            f"<td>{len(g.log)}</td><td>-</td></tr>"
        )
    return (
        "<section id='summary'><h2>Summary</h2><table><tr><th>option</th><th>readings</th>"
        "<th>preset</th><th>verdict</th><th>how found (or limit hit)</th>"
        "<th>witness actions</th><th>Z3 depth searched</th></tr>"
        f"{''.join(rows)}</table></section>"
    )


def write_report(
    game: Game[Any, Any],
    out: Path,
    findings: list[Finding],
    gaps: list[Gap],
    unreached: list[Unreached],
) -> Path:
    """The report in `out`: index.html, results.json, pictures and replayable logs."""
    report(game, out, findings, gaps, unreached)
    return out / "index.html"


def report(
    game: Game[Any, Any],
    out: Path | None,
    findings: list[Finding],
    gaps: list[Gap],
    unreached: list[Unreached],
) -> dict[str, Any]:
    """The content of results.json; with `out`, every file of the report written there."""
    files = _Files(out)
    cat = game.catalogue
    results: dict[str, Any] = {"game": game.name, "options": [], "gaps": [], "unreached": []}
    sections = []
    for f in findings:
        slug = _slug(f)
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
        body = ""
        if f.witness is not None:
            w = f.witness
            logs = []
            for tag, reading in (("a", f.reading_a), ("b", f.reading_b)):
                variant = reading_variant(cat, f.preset, f.option, reading)
                final = game.state_to_json(rebind(game, game.state_from_json(w.state), variant))
                log = position_log(game, variant, w.log, final)
                files.log(f"{slug}-{tag}.json", log)
                logs.append(f"{slug}-{tag}.json")
            entry["witness"] = {
                "actions": len(w.log),
                "units": w.units,
                "found_by": w.found_by,
                "difference": {
                    "kind": w.difference.kind,
                    "detail": w.difference.detail,
                    "only_a": list(w.difference.only_a),
                    "only_b": list(w.difference.only_b),
                },
                "logs": logs,
            }
            picture = _picture(game, f)
            img = ""
            if picture is not None:
                files.text(f"{slug}.svg", render_svg(picture))
                entry["witness"]["picture"] = f"{slug}.svg"
                img = f'<img src="{html.escape(slug)}.svg" alt="witness position">'
            body = (
                f"<p>Witness after {len(w.log)} actions ({w.units} units on the map), found by "
                f"{html.escape(w.found_by)}: {html.escape(w.difference.detail)}</p>{img}"
                f"<p>Replay: <code>wargame play {game.name} --replay {html.escape(logs[0])}</code>"
                f" (reading {html.escape(f.reading_a)}), <code>{html.escape(logs[1])}</code>"
                f" (reading {html.escape(f.reading_b)})</p>"
                f"<details><summary>action log</summary><pre>"
                f"{html.escape(chr(10).join(dump_json(a) for a in w.log))}</pre></details>"
            )
        results["options"].append(entry)
        readings = next(o for o in cat.options if o.name == f.option).readings
        described = "".join(
            f"<li><b>{html.escape(r.name)}</b>: {html.escape(r.summary)} "
            f"({html.escape(r.source)})</li>"
            for r in readings
        )
        sections.append(
            f'<section id="{html.escape(slug)}"><h2>{html.escape(f.option)}: '
            f"{html.escape(f.reading_a)} / {html.escape(f.reading_b)} — {f.verdict}</h2>"
            f"<p>Clauses {html.escape(', '.join(f.clauses))}"
            f"{' · ' + html.escape(f.ambiguity) if f.ambiguity else ''} · preset "
            f"{html.escape(f.preset)} · {f.seconds:.2f} s"
            f"{' · limits hit: ' + html.escape(f.limit) if f.limit else ''} · "
            f"{html.escape(f.detail)}</p>"
            f"<ul>{described}</ul>{body}</section>"
        )
    for i, g in enumerate(gaps):
        name = f"gap-{g.kind}-{g.preset}-{i}"
        log_name = ""
        if g.state is not None:
            variant = g.variant(game)
            log = position_log(game, variant, g.log, g.state)
            files.log(f"{name}.json", log)
            log_name = f"{name}.json"
        img = ""
        draw = getattr(game, "scene", None)
        if draw is not None and g.state is not None:
            files.text(f"{name}.svg", render_svg(draw(game.state_from_json(g.state))))
            img = f'<img src="{name}.svg" alt="gap position">'
        results["gaps"].append(
            {
                "kind": g.kind,
                "preset": g.preset,
                "reading": None if g.reading is None else list(g.reading),
                "clauses": list(g.clauses),
                "message": g.message,
                "actions": len(g.log),
                "log": log_name,
            }
        )
        sections.append(
            f'<section id="{name}"><h2>Candidate gap: {html.escape(g.kind)} under '
            f"{html.escape(g.under)}</h2><p>{html.escape(g.message)}</p><p>Clauses "
            f"{html.escape(', '.join(g.clauses))}; {len(g.log)} actions; replay "
            f"<code>wargame play {game.name} --replay {html.escape(log_name)}</code></p>"
            f"{img}</section>"
        )
    rows = []
    for i, u in enumerate(unreached):
        entry = {
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
        results["unreached"].append(entry)
        rows.append(
            f"<tr><td>{html.escape(u.clause)}</td><td>{html.escape(u.preset)}</td>"
            f"<td>{html.escape(u.verdict)}</td><td>{html.escape(u.limit or '-')}</td>"
            f"<td>{html.escape(u.detail)}</td><td>{cell}</td></tr>"
        )
    if rows:
        sections.append(
            "<section><h2>Clauses no play reached</h2><p>Cited only in the docstrings of code "
            "that no seeded playout entered, then put to Z3 over the symbolic model: "
            "<b>reached</b> (a log to a position where the clause takes effect: play was not "
            "varied enough), <b>never</b> (proved: its precondition holds in no reachable "
            "position, a candidate gap), or <b>candidate</b> (nothing settled: the limit hit "
            "says why).</p><table><tr><th>clause</th><th>preset</th><th>verdict</th>"
            "<th>limit hit</th><th>detail</th>"
            f"<th>witness</th></tr>{''.join(rows)}</table></section>"
        )
    files.text("results.json", dump_json(results) + "\n")
    page = (
        "<!doctype html><html><head><meta charset='utf-8'>"
        f"<title>{html.escape(game.title)}: where the rules text is ambiguous</title>"
        "<style>body{font-family:sans-serif;max-width:1400px;margin:2em auto}"
        "section{border-top:1px solid #ccc;padding:1em 0}img{max-width:100%}</style>"
        f"</head><body><h1>{html.escape(game.title)}: readings and gaps</h1>"
        f"<p>{len(findings)} reading pairs, {len(gaps)} candidate gaps, {len(unreached)} "
        f"clauses no play reached. Generated {time.strftime('%Y-%m-%d')}.</p>"
        f"{summary_table(findings, gaps)}{''.join(sections)}</body></html>\n"
    )
    files.text("index.html", page)
    return results
