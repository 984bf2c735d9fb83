"""SVG pictures of positions (`wargame render`): a `kernel.scene.Scene` drawn as a file.

Hex maps use flat-topped hexes in columns, even columns half a hex lower (the printed CCRR
numbering of kernel/hexes.py). Area maps place each region at its (x, y). What the rules text
does not give is marked where it is, and only there: a counter whose values are provisional is
dashed with its values in italics (given values are bold), a hex whose own terrain is
provisional is hatched, a provisional river, bridge, road or Area dashed; map-wide assumptions
are listed once under the map. Highlights (a witness's differing units and hexes) get a thick
outline; notes (each reading's legal actions) are listed beside the map, the turn track (the
turn now filled) and the score lines (points, hands and deck) under it, and a loop's moves as
numbered arrows. The legend explains the marks the picture uses.

Conventions a scene may use: terrain "sea"; edge kind "road" (drawn from hex centre to hex
centre) and "border-<svg colour>" (a range border drawn along the hexside, inside cell `a`);
a piece labelled "flag" (a small flag) or with note "marker" (a tag at the foot of its hex, not
a counter). Stacks of two or more counters carry their count. Panel lines after the first two
are listed beside the map. The marks are drawn by `tools.render_marks`, the maps by
`tools.render_maps`; this module lays out the whole picture.
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

from kernel.scene import Scene
from tools.render_maps import area_map, hex_map
from tools.render_marks import (
    BORDER,
    EDGE_STYLE,
    FONTS,
    HIGHLIGHT,
    LOOP,
    MARGIN,
    NOTE_WIDTH,
    PANEL,
    TERRAIN,
    TRACK_BOX,
    Places,
    defs,
    t,
    wrap,
)


def _track(scene: Scene, x0: float, y0: float) -> tuple[list[str], float]:
    """The turn track (one box a turn, the turn now filled, notes under their boxes) and the
    score lines under it (points, victory, hands and deck); with the height they take."""
    out: list[str] = []
    y = y0
    if scene.turns:
        out.append(t(x0, y + 15, "Turn", 11, font_weight="bold"))
        notes = dict(scene.track_notes)
        for i in range(1, scene.turns + 1):
            x = x0 + 36 + (i - 1) * (TRACK_BOX + 4)
            now = i == scene.turn
            out.append(
                f'<rect x="{x:.1f}" y="{y:.1f}" width="{TRACK_BOX:.0f}" height="22" rx="3" '
                f'fill="{HIGHLIGHT if now else "#fff"}" stroke="#444" data-turn="{i}"/>'
            )
            out.append(
                t(
                    x + TRACK_BOX / 2,
                    y + 15,
                    str(i),
                    11,
                    text_anchor="middle",
                    font_weight="bold",
                    fill="white" if now else "#222",
                )
            )
            if i in notes:
                out.append(t(x + TRACK_BOX / 2, y + 33, notes[i], 8, text_anchor="middle"))
        y += 40 if notes else 28
    for line in scene.scores:
        y += 15
        out.append(t(x0, y, line, 11, data_score="1"))
    return out, y - y0


def _arrows(scene: Scene, places: Places) -> list[str]:
    """Each move of `scene.arrows` as a numbered arrow, bent to its left so that a move and
    the move back are both seen."""
    out = []
    for i, (a, b, label) in enumerate(scene.arrows, start=1):
        if a not in places or b not in places or a == b:
            continue
        (ax, ay), (bx, by) = places[a], places[b]
        dx, dy = bx - ax, by - ay
        n = math.hypot(dx, dy)
        cx, cy = (ax + bx) / 2 + dy / n * 16, (ay + by) / 2 - dx / n * 16
        sx, sy = ax + dx / n * 10, ay + dy / n * 10
        ex, ey = bx - dx / n * 12, by - dy / n * 12
        out.append(
            f'<path d="M{sx:.1f},{sy:.1f} Q{cx:.1f},{cy:.1f} {ex:.1f},{ey:.1f}" fill="none" '
            f'stroke="{LOOP}" stroke-width="3" stroke-opacity="0.85" marker-end="url(#arrow)" '
            f'data-arrow="{i}"><title>{i}. {escape(label)}</title></path>'
        )
        out.append(
            f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="7" fill="{LOOP}"/>'
            + t(cx, cy + 3.5, str(i), 9, text_anchor="middle", fill="white", font_weight="bold")
        )
    return out


def _legend(scene: Scene, colours: dict[str, str]) -> list[tuple[str, str]]:
    """What the picture's marks mean, for the marks this scene uses: a swatch (an SVG snippet
    with {x} and {y} for its top left) and its words."""

    def box(fill: str, extra: str = "") -> str:
        return '<rect x="{x}" y="{y}" width="14" height="12" fill="' + fill + '"' + extra + "/>"

    out = [(box(c, ' stroke="#222"'), f"{side}'s counters") for side, c in scene.sides]
    if any(p.where is not None and p.note != "marker" and p.label != "flag" for p in scene.pieces):
        out.append((box("#fff", ' stroke="#222"'), "counter: name, values, steps (lines 1-3)"))
        out.append((box("#222"), "a dark badge: the number of counters in the stack"))
    if any(p.label == "flag" for p in scene.pieces):
        out.append((box("#fff", ' stroke="#333"'), "a flag: where reinforcements enter"))
    terrains = sorted({c.terrain for c in scene.cells})
    out.extend((box(TERRAIN.get(t, "#eeeeee"), ' stroke="#777"'), f"{t} hex") for t in terrains)
    kinds = sorted({e.kind for e in scene.edges if not e.kind.startswith(BORDER)})
    for k in kinds:
        colour, _ = EDGE_STYLE.get(k, ("#000", 3.0))
        words = "road" if k == "road" else "river" if k == "river" else f"{k} bridge"
        out.append((box(colour), words))

    def sample(text: str, style: str) -> str:
        return '<text x="{x}" y="{y}" dy="10" font-size="9" ' + style + ">" + text + "</text>"

    counters = [p for p in scene.pieces if p.label != "flag" and p.note != "marker"]
    on_hexes = bool(scene.cells)
    if any(not p.provisional and p.values for p in counters):
        out.append((sample("4-3", 'font-weight="bold"'), "values given by the rules text"))
    if any(p.provisional for p in counters):
        shown = (
            sample("4-3", 'font-style="italic"')
            + box("none", ' stroke="#222" stroke-dasharray="3,2"')
            if on_hexes
            else sample("4-3?", 'font-style="italic"')
        )
        out.append((shown, "values not in the rules text (provisional)"))
    if any(c.provisional for c in scene.cells):
        out.append(
            (box("url(#provisional)", ' stroke="#777"'), "hatched: terrain not in the rules text")
        )
    if any(e.provisional for e in scene.edges):
        out.append(
            (
                box("none", ' stroke="#2f6fb5" stroke-width="2" stroke-dasharray="4,3"'),
                "dashed river or bridge: placed provisionally",
            )
        )
    if any(r.provisional for r in scene.regions):
        out.append(
            (
                box("#eee", ' stroke="#777" stroke-dasharray="4,2"'),
                "dashed Area: its name is not in the rules text",
            )
        )
    if scene.turns:
        out.append((box(HIGHLIGHT, ' stroke="#444"'), "turn track: the turn now"))
    if scene.arrows:
        out.append((box(LOOP), "numbered arrows: the moves of the loop, in order"))
    if scene.highlights:
        out.append(
            (box("#fff", f' stroke="{HIGHLIGHT}" stroke-width="3"'), "where readings differ")
        )
    return out


def render_svg(scene: Scene) -> str:
    """The whole picture as an SVG document."""
    colours = dict(scene.sides)
    if scene.cells:
        body, width, height, places = hex_map(scene, colours)
    else:
        body, width, height, places = area_map(scene, colours)
    body.extend(_arrows(scene, places))
    track, track_h = _track(scene, MARGIN, height)
    body.extend(track)
    height += track_h + (10 if track_h else 0)
    off = [p for p in scene.pieces if p.where is None]
    more = scene.panel[2:]  # panel lines beyond the two under the title
    marks = _legend(scene, colours)
    notes = [
        (wrap(h, 60), [w for line in lines for w in wrap(line, 76)]) for h, lines in scene.notes
    ]
    notes_h = 16 * (
        sum(len(h) + len(lines) + 1 for h, lines in notes) + len(off) + len(more) + len(marks) + 9
    )
    total_w = width + NOTE_WIDTH
    total_h = max(height + 40, PANEL + notes_h)
    head = [
        t(MARGIN, 22, scene.title, 16, font_weight="bold"),
        *(t(MARGIN, 40 + 14 * i, line, 11) for i, line in enumerate(scene.panel[:2])),
    ]
    side = [t(width + 14, PANEL + 10 + 14 * i, line, 10) for i, line in enumerate(more)]
    y0 = PANEL + 10 + (14 * len(more) + 12 if more else 0)
    side.append(t(width + 10, y0, "Off the map", 12, font_weight="bold"))
    y = y0 + 16
    for p in off:
        side.append(
            t(width + 14, y, f"{p.label} ({p.side}) {p.values} {p.steps} {p.note}", 10).replace(
                "<text ", f'<text data-piece="{escape(p.id)}" ', 1
            )
        )
        y += 14
    y += 10
    side.append(t(width + 10, y, "Legend", 12, font_weight="bold"))
    y += 6
    for swatch, text in marks:
        y += 16
        side.append(swatch.format(x=width + 14, y=y - 10))
        side.append(t(width + 34, y, text, 10))
    y += 6
    for heading, lines in notes:
        y += 10
        for part in heading:
            side.append(t(width + 10, y, part, 12, font_weight="bold", fill=HIGHLIGHT))
            y += 16
        for line in lines:
            side.append(t(width + 14, y, line, 10))
            y += 14
    words = f"Provisional (not in the rules text): {scene.provisional_note}".split(" ")
    rows: list[str] = [""]
    for word in words:
        if len(rows[-1]) + len(word) > 150:
            rows.append("")
        rows[-1] = f"{rows[-1]} {word}".strip()
    total_h += 12 * (len(rows) - 1)
    legend = "".join(
        t(MARGIN, total_h - 12 * (len(rows) - i), row, 9, fill="#666") for i, row in enumerate(rows)
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{total_w:.0f}" height="{total_h:.0f}" '
        f'viewBox="0 0 {total_w:.0f} {total_h:.0f}" font-family="{FONTS}">'
        f"{defs()}"
        f'<rect width="100%" height="100%" fill="white"/>'
        + "".join(head + body + side)
        + legend
        + "</svg>\n"
    )
