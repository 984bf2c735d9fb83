"""What an explore report shows of one witness or gap: its picture, its play log narrated and as
JSON, an endless loop's moves as arrows, and where its log starts.

Kept apart from the report's parts (`tools.explore_pages`), which lay these out per entry.
"""

from __future__ import annotations

import html
import json
from typing import Any

from kernel.codec import dump_json
from kernel.errors import WargameError
from kernel.roles import AssembledGame
from kernel.scene import Scene
from solvers.checking.differences import Finding, Witness, start_state
from solvers.checking.gaps import Gap
from tools.explore_account import describe_values, ids_named, origin, setup_changes, states_of
from tools.playlog import narrate


def witness_picture(game: AssembledGame[Any, Any], f: Finding) -> Scene | None:
    draw = getattr(game, "scene", None)
    if draw is None or f.witness is None:
        return None
    w = f.witness
    d = w.difference
    a, b = states_of(game, f)
    scene: Scene = draw(a)
    notes: tuple[tuple[str, tuple[str, ...]], ...]
    if d.kind == "actions":
        notes = (
            (f"Only under {f.reading_a}:", describe_values(game, a, d.only_a)),
            (f"Only under {f.reading_b}:", describe_values(game, b, d.only_b)),
        )
    elif d.kind == "setup":
        notes = (("The set-ups differ:", tuple(setup_changes(game, f)[:12])),)
    elif d.kind == "result_of_action" and d.only_a:
        said = describe_values(game, a, d.only_a[:1])[0]
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
                describe_values(game, here, only[:most])
                + ((f"... and {len(only) - most} more",) if len(only) > most else ()),
            )
            for reading, only, here in ((f.reading_a, d.only_a, a), (f.reading_b, d.only_b, b))
        )
    return scene.with_witness(frozenset(ids_named(d.only_a) | ids_named(d.only_b)), notes)


def narrative(
    game: AssembledGame[Any, Any], variant: Any, log: tuple[Any, ...], start: Any = None
) -> str:
    """The readable play log of `log` (what `wargame play` prints) from the set-up or from
    `start` (a state JSON of `variant`), as HTML."""
    if not log:
        return "<p>No action: the set-up itself.</p>"
    lines = narrate(game, variant, log, start)
    return f"<pre class='playlog'>{html.escape(chr(10).join(lines))}</pre>"


def json_log(log: tuple[Any, ...], files: list[str]) -> str:
    """The actions as JSON, folded away, with the log files to download."""
    links = ", ".join(f'<a href="{html.escape(n)}" download>{html.escape(n)}</a>' for n in files)
    return (
        f"<details class='json'><summary>The actions as JSON (download: {links})</summary>"
        f"<pre>{html.escape(chr(10).join(dump_json(a) for a in log))}</pre></details>"
    )


def loop(game: AssembledGame[Any, Any], g: Gap, scene: Scene, draw: Any) -> Scene:
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


def reached(game: AssembledGame[Any, Any], variant: Any, w: Witness) -> Any:
    """The witness position under `variant`: its log replayed from its start under that
    reading. (Reading A's position read under B is not B's when the readings set the game up
    differently, and a log file must replay to the position it records.)"""
    state = start_state(game, variant, w.start)
    for data in w.log:
        state = game.apply(state, game.action_from_json(data))
    return state


def start_json(game: AssembledGame[Any, Any], variant: Any, start: Any) -> Any:
    """A witness's start read under `variant` as state JSON (None: the preset's set-up)."""
    return None if start is None else game.state_to_json(start_state(game, variant, start))


def setup_words(start: Any, after: int, removed: tuple[str, ...]) -> str:
    """`origin` as the report's sentence ends it ("The log starts from ...")."""
    return "from the set-up itself" if start is None else f"from {origin(start, after, removed)}"


def was_shrunk(w: Witness) -> bool:
    """Whether a shrink made the witness's log shorter (not only its set-up smaller)."""
    return w.shrunk_from is not None and w.shrunk_from != len(w.log)
