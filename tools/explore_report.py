"""`wargame explore`: run the ambiguity explorer and the gap search, print a table, and write
the report (`--report DIR`: index.html, results.json, one SVG and two replayable logs per
witness, `wargame play GAME --replay DIR/<name>-a.json` reaching the witness position)."""

from __future__ import annotations

import html
import json
import time
from pathlib import Path
from typing import Any

from kernel.codec import dump_json
from kernel.errors import InvalidInput, WargameError
from kernel.roles import AssembledGame
from kernel.scene import Scene
from solvers.checking.explore import (
    Finding,
    Witness,
    differential,
    reading_variant,
    rebind,
    start_state,
)
from solvers.checking.gaps import (
    PLAY_SECONDS,
    STUCK_SECONDS,
    UNREACHED_SECONDS,
    Gap,
    Unreached,
    model_stuck,
    no_action_and_endless,
    seeded_play,
    settle_unreached,
    stuck_readings,
    unreached_clauses,
)
from solvers.checking.shrink import shrink_finding
from tools.playlog import narrate, position_log, write_log
from tools.progress import Progress
from tools.render import render_svg
from tools.verify import spec_verification


def explore(
    game: AssembledGame[Any, Any],
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
    total = len(options) + 1 + (len(game.presets()) + 1 if option is None else 0)
    tell: Progress = progress or (lambda done, total, now: None)
    for i, o in enumerate(options):
        tell(i, total, o.name)
        found = differential(game, o, preset=preset, budget=budget, models=models)
        # a pair equivalent only because its rule is off there: also under the other presets
        others = {p for f in found if f.moot for p in cat.presets if p != f.preset}
        for p in sorted(others):
            found.extend(differential(game, o, preset=p, budget=budget, models=models))
        findings.extend(found)
    # each witness shrunk to the shortest log that still shows its difference (a count of
    # replays bounds it, not time); the gap search looks past the witnesses as found too
    shrunk = [shrink_finding(game, f) for f in findings]
    changed = [s for f, s in zip(findings, shrunk, strict=True) if s is not f]
    gaps: list[Gap] = stuck_readings(game, findings + changed)
    findings = shrunk
    # a search aimed at stuck positions: Z3 over the model of each preset (all options) or of
    # each reading of the one option asked, within the run's slack
    under: list[tuple[str, tuple[str, str] | None]] = [(p, None) for p in game.presets()]
    if option is not None:
        first = preset or next(iter(cat.presets))
        under = [(first, (o.name, r.name)) for o in options for r in o.readings]
    tell(len(options), total, "stuck positions on the model")
    gaps.extend(model_stuck(game, models, under, budget=STUCK_SECONDS / len(under)))
    unreached: list[Unreached] = []
    if option is None:

        def games() -> None:
            """The gap search's play, then seeded random play: clause reach is measured over
            both (`solvers.checking.reach`)."""
            start, n = time.perf_counter(), len(game.presets())
            for j, name in enumerate(game.presets()):
                tell(len(options) + 1 + j, total, f"gaps under {name}")
                share = start + PLAY_SECONDS * (j + 1) / (2 * n)  # half of it for the gaps
                found = no_action_and_endless(
                    game, name, games=8, max_steps=2000, restarts=2, deadline=share
                )
                gaps.extend(found)
            seeded_play(game, 20, deadline=start + PLAY_SECONDS)()

        dead = unreached_clauses(game, games)
        tell(total - 1, total, "clauses no play reached")
        unreached = settle_unreached(game, dead, models, budget, total_budget=UNREACHED_SECONDS)
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


def _describe(
    game: AssembledGame[Any, Any], state: Any, values: tuple[str, ...]
) -> tuple[str, ...]:
    lines = []
    for text in values[:14]:
        body, _, p = text.partition(" p=")  # a chance outcome carries its probability
        try:
            action = game.action_from_json(json.loads(body))
            lines.append(game.describe(state, action) + (f" (probability {p})" if p else ""))
        except (ValueError, WargameError):  # other non-actions: as they are
            lines.append(text[:110])
    if len(values) > 14:
        lines.append(f"... and {len(values) - 14} more")
    return tuple(lines) or ("(none)",)


def _states(game: AssembledGame[Any, Any], f: Finding) -> tuple[Any, Any]:
    """The witness position under reading A and under reading B."""
    assert f.witness is not None
    a = game.state_from_json(f.witness.state)
    vb = reading_variant(game.catalogue, f.preset, f.option, f.reading_b)
    return a, rebind(game, a, vb)


def _listed(items: list[str], most: int = 6) -> str:
    """Items joined in words, the first `most` of them."""
    shown = items[:most]
    more = f"; and {len(items) - most} more" if len(items) > most else ""
    return "; ".join(shown) + more


def _field_diffs(label: str, x: dict[str, Any], y: dict[str, Any], ra: str, rb: str) -> list[str]:
    """One line per field whose value differs between the readings' records."""
    return [
        f"{label}{field}: {_value(x.get(field))} under {ra}, {_value(y.get(field))} under {rb}"
        for field in sorted(set(x) | set(y))
        if x.get(field) != y.get(field)
    ]


def _value(x: Any) -> str:
    text = dump_json(x)
    return text if len(text) <= 60 else f"{text[:57]}..."


def _changes(game: AssembledGame[Any, Any], a: Any, b: Any, ra: str, rb: str) -> list[str]:
    """How two positions differ, field by field in words: per unit (by id) for lists of
    units, what one has and the other lacks for lists of names, both values otherwise."""
    ja, jb = game.state_to_json(a), game.state_to_json(b)
    out: list[str] = []
    for k in sorted(set(ja) | set(jb)):
        x, y = ja.get(k), jb.get(k)
        if k == "variant" or x == y:
            continue
        if isinstance(x, list) and isinstance(y, list):
            if all(isinstance(i, dict) and "id" in i for i in x + y):
                xs = {i["id"]: i for i in x}
                ys = {i["id"]: i for i in y}
                for uid in sorted(set(xs) | set(ys)):
                    out += _field_diffs(f"{uid} ", xs.get(uid, {}), ys.get(uid, {}), ra, rb)
                continue
            if all(not isinstance(i, (dict, list)) for i in x + y):
                only_x = [str(i) for i in x if i not in y]
                only_y = [str(i) for i in y if i not in x]
                out.append(
                    f"{k}: {', '.join(only_x) or 'nothing'} only under {ra}; "
                    f"{', '.join(only_y) or 'nothing'} only under {rb}"
                )
                continue
        if isinstance(x, dict) and isinstance(y, dict):
            out += _field_diffs(f"{k}.", x, y, ra, rb)
            continue
        if x is None or y is None:
            shown = "set" if isinstance(x or y, (dict, list)) else _value(x if y is None else y)
            x_said, y_said = (shown, "none") if y is None else ("none", shown)
            out.append(f"{k}: {x_said} under {ra}, {y_said} under {rb}")
            continue
        out.append(f"{k}: {_value(x)} under {ra}, {_value(y)} under {rb}")
    return out


def _ended(outcome: Any) -> str:
    if outcome is None:
        return "the game goes on"
    who = outcome.winner or "nobody"
    return f"the game is over, {who} wins ({outcome.clause}: {outcome.reason})"


def _next(
    game: AssembledGame[Any, Any], state: Any, other: Any, text: str, ra: str, rb: str
) -> str:
    """What happens when the side to move takes an action only reading `ra` allows: its
    events there, and why reading `rb` refuses it."""
    try:
        action = game.action_from_json(json.loads(text))
        after = game.apply(state, action)
    except (ValueError, WargameError):
        return ""
    said = game.describe(state, action)
    events = game.events(state, action, after)
    then = "; ".join(events) if events else "no event"
    then += f"; {_ended(game.outcome(after))}"
    why = ""
    try:
        game.apply(other, action)
    except WargameError as exc:
        missing = [c for c in exc.clauses if c not in exc.message]
        cited = f" ({', '.join(missing)})" if missing else ""
        why = f" Under {rb} the rules refuse it: {exc.message}{cited}."
    return f"What happens next: if “{said}” is played under {ra}: {then}.{why}"


def _setup_changes(game: AssembledGame[Any, Any], f: Finding) -> list[str]:
    """How the two readings' set-ups differ, in words."""
    cat = game.catalogue
    va = reading_variant(cat, f.preset, f.option, f.reading_a)
    vb = reading_variant(cat, f.preset, f.option, f.reading_b)
    a, b = game.initial_state(va), game.initial_state(vb)
    return _changes(game, a, b, f.reading_a, f.reading_b) or ["(no field differs)"]


def account(game: AssembledGame[Any, Any], f: Finding) -> list[str]:
    """In plain words: where the two readings part, what each allows or does there, and what
    happens next (from the finding's witness); no lines without a witness."""
    w = f.witness
    if w is None:
        return []
    d = w.difference
    ra, rb = f.reading_a, f.reading_b
    if d.kind == "setup":
        return [
            "The two readings set the game up differently, before any action: "
            f"{_listed(_setup_changes(game, f), 8)}."
        ]
    a, b = _states(game, f)
    side = game.to_move(a)
    n = len(w.log)
    origin = _origin(w.start, w.start_after, w.removed)
    where = f"After {n} action{'s' if n != 1 else ''} from {origin}" if n else f"At {origin}"
    if d.kind == "actions":
        out = [f"{where}, {side} is to move, and the readings allow different actions."]
        for reading, only, here in ((ra, d.only_a, a), (rb, d.only_b, b)):
            if only:
                allowed = list(_describe(game, here, only))
                out.append(f"Only under {reading}, {side} may play: {_listed(allowed)}.")
            else:
                out.append(f"Under {reading}, nothing is allowed that the other refuses.")
        for reading, other_name, only, here, other in (
            (ra, rb, d.only_a, a, b),
            (rb, ra, d.only_b, b, a),
        ):
            if only:
                following = _next(game, here, other, only[0], reading, other_name)
                if following:
                    out.append(following)
                break
        return out
    if d.kind == "result_of_action":
        try:
            action = game.action_from_json(json.loads(d.only_a[0]))
            na, nb = game.apply(a, action), game.apply(b, action)
        except (ValueError, IndexError, WargameError):
            return [f"{where}: {d.detail}."]
        said = game.describe(a, action)
        out = [
            f"{where}, {side} is to move; the action “{said}” is allowed by both readings but "
            "leads to different positions."
        ]
        for reading, before, after in ((ra, a, na), (rb, b, nb)):
            events = game.events(before, action, after)
            then = "; ".join(events) if events else "no event"
            out.append(f"Under {reading}: {then}; {_ended(game.outcome(after))}.")
        changes = _changes(game, na, nb, ra, rb)
        if changes:
            out.append(f"The positions then differ in: {_listed(changes, 8)}.")
        return out
    if d.kind == "to_move":
        return [
            f"{where}, a different side is to move: {d.only_a[0]} under {ra}, "
            f"{d.only_b[0]} under {rb}."
        ]
    if d.kind == "outcome":
        return [
            f"{where}, the result differs: under {ra}, {_ended(game.outcome(a))}; "
            f"under {rb}, {_ended(game.outcome(b))}."
        ]
    if d.kind == "chance":
        out = [f"{where}, chance decides, and the outcomes or their odds differ."]
        for reading, only, here in ((ra, d.only_a, a), (rb, d.only_b, b)):
            if only:
                shown = _listed(list(_describe(game, here, only[:2])), 2)
                more = f" (and {len(only) - 2} more)" if len(only) > 2 else ""
                out.append(
                    f"Under {reading}, {len(only)} outcome(s) the other reading does not give "
                    f"so{more}, such as: {shown}."
                )
        return out
    return [f"{where}: {d.detail}."]


def _picture(game: AssembledGame[Any, Any], f: Finding) -> Scene | None:
    draw = getattr(game, "scene", None)
    if draw is None or f.witness is None:
        return None
    w = f.witness
    d = w.difference
    a, b = _states(game, f)
    scene: Scene = draw(a)
    notes: tuple[tuple[str, tuple[str, ...]], ...]
    if d.kind == "actions":
        notes = (
            (f"Only under {f.reading_a}:", _describe(game, a, d.only_a)),
            (f"Only under {f.reading_b}:", _describe(game, b, d.only_b)),
        )
    elif d.kind == "setup":
        notes = (("The set-ups differ:", tuple(_setup_changes(game, f)[:12])),)
    elif d.kind == "result_of_action" and d.only_a:
        said = _describe(game, a, d.only_a[:1])[0]
        notes = ((f"Both readings allow {said}; then", ()),)
        try:
            action = game.action_from_json(json.loads(d.only_a[0]))
            for reading, here in ((f.reading_a, a), (f.reading_b, b)):
                events = tuple(game.events(here, action, game.apply(here, action)))
                notes += ((f"under {reading}:", events or ("no event",)),)
        except (ValueError, WargameError):
            pass
    else:
        most = 3 if d.kind == "chance" else 14
        notes = tuple(
            (
                f"Under {reading}:",
                _describe(game, here, only[:most])
                + ((f"... and {len(only) - most} more",) if len(only) > most else ()),
            )
            for reading, only, here in ((f.reading_a, d.only_a, a), (f.reading_b, d.only_b, b))
        )
    return scene.with_witness(frozenset(_ids(d.only_a) | _ids(d.only_b)), notes)


def _narrative(
    game: AssembledGame[Any, Any], variant: Any, log: tuple[Any, ...], start: Any = None
) -> str:
    """The readable play log of `log` (what `wargame play` prints) from the set-up or from
    `start` (a state JSON of `variant`), as HTML."""
    if not log:
        return "<p>No action: the set-up itself.</p>"
    lines = narrate(game, variant, log, start)
    return f"<pre class='playlog'>{html.escape(chr(10).join(lines))}</pre>"


def _json_log(log: tuple[Any, ...], files: list[str]) -> str:
    """The actions as JSON, folded away, with the log files to download."""
    links = ", ".join(f'<a href="{html.escape(n)}" download>{html.escape(n)}</a>' for n in files)
    return (
        f"<details class='json'><summary>The actions as JSON (download: {links})</summary>"
        f"<pre>{html.escape(chr(10).join(dump_json(a) for a in log))}</pre></details>"
    )


def _loop(game: AssembledGame[Any, Any], g: Gap, scene: Scene, draw: Any) -> Scene:
    """The picture of an endless loop: its actions beside the map, and each move in it (a
    piece whose place changes) as a numbered arrow. The loop is the stretch of the log from
    the first time the gap's final position was reached."""
    state = start_state(game, g.variant(game), g.start)
    states = [state]
    for data in g.log:
        state = game.apply(state, game.action_from_json(data))
        states.append(state)
    keys = [dump_json({**game.state_to_json(s), "variant": None}) for s in states]
    start = keys.index(keys[-1])
    if start == len(g.log):
        return scene
    arrows: list[tuple[str, str, str]] = []
    lines: list[str] = []
    moved: set[str] = set()
    for i in range(start, len(g.log)):
        before, after = states[i], states[i + 1]
        said = game.describe(before, game.action_from_json(g.log[i]))
        was = {p.id: p.where for p in draw(before).pieces}
        now = {p.id: p.where for p in draw(after).pieces}
        marks = []
        for pid, where in was.items():
            to = now.get(pid)
            if where is not None and to is not None and where != to:
                arrows.append((where, to, f"{pid}: {said}"))
                marks.append(f"({len(arrows)})")
                moved.add(pid)
        lines.append(f"{i + 1}. {said} {' '.join(marks)}".rstrip())
    heading = f"The loop: actions {start + 1} to {len(g.log)} repeat for ever"
    return scene.with_witness(frozenset(moved), ((heading, tuple(lines)),)).with_arrows(
        tuple(arrows)
    )


def _reached(game: AssembledGame[Any, Any], variant: Any, w: Witness) -> Any:
    """The witness position under `variant`: its log replayed from its start under that
    reading. (Reading A's position read under B is not B's when the readings set the game up
    differently, and a log file must replay to the position it records.)"""
    state = start_state(game, variant, w.start)
    for data in w.log:
        state = game.apply(state, game.action_from_json(data))
    return state


def _start_json(game: AssembledGame[Any, Any], variant: Any, start: Any) -> Any:
    """A witness's start read under `variant` as state JSON (None: the preset's set-up)."""
    return None if start is None else game.state_to_json(start_state(game, variant, start))


def _origin(start: Any, after: int, removed: tuple[str, ...]) -> str:
    """Where a log starts, in plain words: the set-up, the set-up without the units a shrink
    took off it ("the set-up without JP-3, JP-7"), or the position that many actions into
    play without them (where the rules take no unit out at the set-up)."""
    if start is None:
        return "the set-up"
    without = f" without {', '.join(removed)}" if removed else ""
    if after:
        return f"the position {after} action{'s' if after != 1 else ''} into play{without}"
    return f"the set-up{without}" if removed else "a position of its own (its start)"


def _setup_words(start: Any, after: int, removed: tuple[str, ...]) -> str:
    """`_origin` as the report's sentence ends it ("The log starts from ...")."""
    return "from the set-up itself" if start is None else f"from {_origin(start, after, removed)}"


def _shrunk(w: Witness) -> bool:
    """Whether a shrink made the witness's log shorter (not only its set-up smaller)."""
    return w.shrunk_from is not None and w.shrunk_from != len(w.log)


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
            f"<td>{len(w.log) if w is not None else '-'}"
            f"{f' (shrunk from {w.shrunk_from})' if w is not None and _shrunk(w) else ''}</td>"
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
    game: AssembledGame[Any, Any],
    out: Path,
    findings: list[Finding],
    gaps: list[Gap],
    unreached: list[Unreached],
) -> Path:
    """The report in `out`: index.html, results.json, pictures and replayable logs."""
    report(game, out, findings, gaps, unreached)
    return out / "index.html"


def report(
    game: AssembledGame[Any, Any],
    out: Path | None,
    findings: list[Finding],
    gaps: list[Gap],
    unreached: list[Unreached],
) -> dict[str, Any]:
    """The content of results.json; with `out`, every file of the report written there."""
    files = _Files(out)
    results: dict[str, Any] = {"game": game.name, "options": [], "gaps": [], "unreached": []}
    sections = []
    for f in findings:
        entry, section = _finding_part(game, files, f)
        results["options"].append(entry)
        sections.append(section)
    for i, g in enumerate(gaps):
        entry, section = _gap_part(game, files, g, i)
        results["gaps"].append(entry)
        sections.append(section)
    rows = []
    for i, u in enumerate(unreached):
        entry, row = _unreached_part(game, files, u, i)
        results["unreached"].append(entry)
        rows.append(row)
    if rows:
        sections.append(_unreached_section(rows))
    files.text("results.json", dump_json(results) + "\n")
    files.text("index.html", _page(game, findings, gaps, unreached, sections))
    return results


def _finding_part(
    game: AssembledGame[Any, Any], files: _Files, f: Finding
) -> tuple[dict[str, Any], str]:
    """A reading pair's entry in results.json and its section of the page (with its witness's
    files written)."""
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
        entry["witness"], body = _witness_part(game, files, f, f.witness, slug)
    readings = next(o for o in game.catalogue.options if o.name == f.option).readings
    described = "".join(
        f"<li><b>{html.escape(r.name)}</b>: {html.escape(r.summary)} ({html.escape(r.source)})</li>"
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
        f"<ul>{described}</ul>{body}</section>"
    )
    return entry, section


def _witness_part(
    game: AssembledGame[Any, Any], files: _Files, f: Finding, w: Witness, slug: str
) -> tuple[dict[str, Any], str]:
    """A witness's entry in results.json and its part of the pair's section: the account, the
    picture, the play log and the replayable logs (one per reading), whose files it writes."""
    cat = game.catalogue
    logs = []
    for tag, reading in (("a", f.reading_a), ("b", f.reading_b)):
        variant = reading_variant(cat, f.preset, f.option, reading)
        final = game.state_to_json(_reached(game, variant, w))
        start = _start_json(game, variant, w.start)
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
    picture = _picture(game, f)
    img = ""
    if picture is not None:
        files.text(f"{slug}.svg", render_svg(picture))
        entry["picture"] = f"{slug}.svg"
        img = f'<img src="{html.escape(slug)}.svg" alt="witness position">'
    shrunk = f", shrunk from {w.shrunk_from}" if _shrunk(w) else ""
    variant_a = reading_variant(cat, f.preset, f.option, f.reading_a)
    body = (
        "<h3>What differs, and what happens next</h3>"
        + "".join(f"<p class='account'>{html.escape(line)}</p>" for line in said)
        + img
        + f"<h3>Play log to the witness (reading {html.escape(f.reading_a)}, "
        f"{len(w.log)} actions{shrunk}; {w.units} units on the map; found by "
        f"{html.escape(w.found_by)})</h3>" + f"<p class='setup'>The log starts "
        f"{html.escape(_setup_words(w.start, w.start_after, w.removed))}.</p>"
        + _narrative(game, variant_a, w.log, w.start)
        + f"<p>Replay: <code>wargame play {game.name} --replay "
        f"{html.escape(logs[0])}</code> (reading {html.escape(f.reading_a)}), "
        f"<code>{html.escape(logs[1])}</code> (reading {html.escape(f.reading_b)})</p>"
        + _json_log(w.log, logs)
    )
    return entry, body


def _gap_part(
    game: AssembledGame[Any, Any], files: _Files, g: Gap, i: int
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
            scene = _loop(game, g, scene, draw)
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
        f"{html.escape(_setup_words(g.start, g.start_after, g.removed))})</h3>"
        f"{_narrative(game, g.variant(game), g.log, g.start)}"
        f"{_json_log(g.log, [log_name] if log_name else [])}</section>"
    )
    return entry, section


def _unreached_part(
    game: AssembledGame[Any, Any], files: _Files, u: Unreached, i: int
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


def _unreached_section(rows: list[str]) -> str:
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


def _page(
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
