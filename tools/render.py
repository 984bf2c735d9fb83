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
are listed beside the map.
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

from kernel.scene import Piece, Scene

R = 30.0  # hex radius
H = math.sqrt(3) * R
MARGIN = 20.0
PANEL = 64.0  # height of the title and panel lines above the map
NOTE_WIDTH = 420.0
HIGHLIGHT = "#d0008f"
LOOP = "#1f6feb"  # the arrows of an endless loop
TRACK_BOX = 30.0  # a box of the turn track
TERRAIN = {
    "clear": "#f4efdc",
    "hill": "#c9a77c",
    "woods": "#9fc48a",
    "marsh": "#b8d6d0",
    "sea": "#d6e8f7",
}
EDGE_STYLE = {
    "river": ("#2f6fb5", 5.0),
    "fixed": ("#5b4636", 7.0),
    "pontoon": ("#8b6f47", 7.0),
    "blown": ("#999999", 7.0),
    "road": ("#8a5a2b", 3.0),
}
# Japanese unit and place names need a CJK face: the stack names common ones before the
# generic family, so a viewer without them still draws the Latin text
FONTS = (
    "'Noto Sans', 'Noto Sans CJK JP', 'Noto Sans JP', 'Hiragino Sans', 'Yu Gothic', "
    "Meiryo, 'Source Han Sans', sans-serif"
)
BORDER = "border-"  # edge kinds "border-<svg colour>": a range border along the hexside


def _t(x: float, y: float, text: str, size: int = 11, **attrs: str) -> str:
    extra = "".join(f' {k.replace("_", "-")}="{v}"' for k, v in attrs.items())
    return f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}"{extra}>{escape(text)}</text>'


def _wrap(text: str, width: int) -> list[str]:
    """`text` in lines of at most about `width` characters, broken at spaces."""
    rows = [""]
    for word in text.split(" "):
        if rows[-1] and len(rows[-1]) + 1 + len(word) > width:
            rows.append("")
        rows[-1] = f"{rows[-1]} {word}" if rows[-1] else word
    return rows


def _defs() -> str:
    return (
        "<defs>"
        '<pattern id="provisional" width="8" height="8" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><line x1="0" y1="0" x2="0" y2="8" '
        'stroke="#888" stroke-width="1" stroke-opacity="0.35"/></pattern>'
        '<marker id="arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" '
        f'markerHeight="5" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="{LOOP}"/></marker>'
        "</defs>"
    )


def _hex_centre(col: int, row: int, c0: int, r0: int) -> tuple[float, float]:
    x = MARGIN + R + 1.5 * R * (col - c0)
    y = PANEL + MARGIN + H / 2 + H * (row - r0) + (H / 2 if col % 2 == 0 else 0.0)
    return x, y


def _polygon(x: float, y: float) -> str:
    points = " ".join(
        f"{x + R * math.cos(math.radians(a)):.1f},{y + R * math.sin(math.radians(a)):.1f}"
        for a in range(0, 360, 60)
    )
    return points


def _marker(p: Piece, x: float, y: float, colour: str) -> list[str]:
    """A tag at the foot of a hex (note "marker"): a map marking, not a counter."""
    text = _t(
        x,
        y + H / 2 - 2,
        p.label,
        11,
        text_anchor="middle",
        font_weight="bold",
        fill=colour,
        stroke="white",
        stroke_width="2",
        paint_order="stroke",
    )
    return [f'<g data-piece="{escape(p.id)}">{text}<title>{escape(p.id)}</title></g>']


def _badge(x: float, y: float, count: int) -> str:
    """The number of counters in a stack, on the top counter's corner."""
    return (
        f'<g><circle cx="{x + 16:.1f}" cy="{y - 16:.1f}" r="7" fill="#222"/>'
        + _t(x + 16, y - 13, str(count), 9, text_anchor="middle", fill="white", font_weight="bold")
        + "</g>"
    )


def _counter(p: Piece, x: float, y: float, colour: str, marked: bool) -> list[str]:
    if p.label == "flag":
        return [
            f'<path d="M{x - 12:.1f},{y + 12:.1f} v-18 l10,4 l-10,4" fill="{colour}" '
            f'stroke="#333" data-piece="{escape(p.id)}"/>'
        ]
    # values the text does not give: a dashed counter, the values in italics; given: bold
    dash = ' stroke-dasharray="3,2"' if p.provisional else ""
    stroke = f'stroke="{HIGHLIGHT}" stroke-width="3"' if marked else 'stroke="#222"'
    values = (
        _t(x, y + 6, p.values, 8, text_anchor="middle", font_style="italic")
        if p.provisional
        else _t(x, y + 6, p.values, 8, text_anchor="middle", font_weight="bold")
    )
    out = [
        f'<g data-piece="{escape(p.id)}"><rect x="{x - 17:.1f}" y="{y - 17:.1f}" width="34" '
        f'height="34" rx="3" fill="{colour}" {stroke}{dash}/>',
        _t(x, y - 5, p.label[:6], 9, text_anchor="middle", font_weight="bold"),
        values,
        _t(x, y + 15, p.steps, 7, text_anchor="middle"),
        f"<title>{escape(p.id)}: {escape(p.label)} {escape(p.values)} steps {escape(p.steps)}"
        f"{' (provisional values)' if p.provisional else ''}</title></g>",
    ]
    return out


Places = dict[str, tuple[float, float]]
"""Where each cell or region is drawn (its centre), for arrows between them."""


def _hex_map(scene: Scene, colours: dict[str, str]) -> tuple[list[str], float, float, Places]:
    c0 = min(c.col for c in scene.cells)
    r0 = min(c.row for c in scene.cells)
    centre = {c.name: _hex_centre(c.col, c.row, c0, r0) for c in scene.cells}
    out = []
    numbers: list[str] = []
    for c in scene.cells:
        x, y = centre[c.name]
        fill = TERRAIN.get(c.terrain, "#eeeeee")
        marked = c.name in scene.highlights
        stroke = f'stroke="{HIGHLIGHT}" stroke-width="4"' if marked else 'stroke="#777"'
        out.append(
            f'<polygon points="{_polygon(x, y)}" fill="{fill}" {stroke} data-hex="{c.name}" '
            f'data-cell="{c.name}"/>'
        )
        if c.provisional:  # the hatching is part of the cell: a click on it names the cell
            out.append(
                f'<polygon points="{_polygon(x, y)}" fill="url(#provisional)" '
                f'data-cell="{c.name}"/>'
            )
        numbers.append(  # drawn last, over any counter, so a stack never hides its hex
            _t(
                x,
                y - H / 2 + 9,
                c.name,
                8,
                text_anchor="middle",
                fill="#444",
                stroke="white",
                stroke_width="2.5",
                paint_order="stroke",
            )
        )
    for e in scene.edges:
        if e.a not in centre or e.b not in centre:
            continue
        (ax, ay), (bx, by) = centre[e.a], centre[e.b]
        mx, my = (ax + bx) / 2, (ay + by) / 2
        dx, dy = bx - ax, by - ay
        n = math.hypot(dx, dy)
        px, py = -dy / n * R / 2, dx / n * R / 2
        border = e.kind.startswith(BORDER)
        default = (e.kind[len(BORDER) :], 3.0) if border else ("#000", 3.0)
        colour, width = EDGE_STYLE.get(e.kind, default)
        # butt ends when dashed: round caps would close the gaps of a thick dashed line
        dash = ' stroke-dasharray="6,5"' if e.provisional else ""
        cap = "butt" if e.provisional else "round"
        if border:  # along the hexside, a little inside cell a
            ix, iy = -dx / n * 2.5, -dy / n * 2.5
            out.append(
                f'<line x1="{mx - px + ix:.1f}" y1="{my - py + iy:.1f}" x2="{mx + px + ix:.1f}" '
                f'y2="{my + py + iy:.1f}" stroke="{colour}" stroke-width="{width}" '
                f'stroke-linecap="round" data-edge="{e.a}/{e.b}"/>'
            )
        elif e.kind == "road":
            out.append(
                f'<line x1="{ax:.1f}" y1="{ay:.1f}" x2="{bx:.1f}" y2="{by:.1f}" '
                f'stroke="{colour}" stroke-width="{width}" stroke-linecap="{cap}"{dash} '
                f'data-edge="{e.a}/{e.b}"><title>road</title></line>'
            )
        elif e.kind == "river":
            out.append(
                f'<line x1="{mx - px:.1f}" y1="{my - py:.1f}" x2="{mx + px:.1f}" '
                f'y2="{my + py:.1f}" stroke="{colour}" stroke-width="{width}" '
                f'stroke-linecap="{cap}"{dash} data-edge="{e.a}/{e.b}"><title>river'
                f"{' (placed provisionally)' if e.provisional else ''}</title></line>"
            )
        else:  # a bridge crosses the hexside
            qx, qy = dx / n * R / 3, dy / n * R / 3
            out.append(
                f'<line x1="{mx - qx:.1f}" y1="{my - qy:.1f}" x2="{mx + qx:.1f}" '
                f'y2="{my + qy:.1f}" stroke="{colour}" stroke-width="{width}"{dash} '
                f'data-edge="{e.a}/{e.b}"><title>{escape(e.kind)} bridge</title></line>'
            )
    by_place: dict[str, list[Piece]] = {}
    for p in scene.pieces:
        if p.where is not None:
            by_place.setdefault(p.where, []).append(p)
    for place, pieces in by_place.items():
        if place not in centre:
            continue
        x, y = centre[place]
        markers = [p for p in pieces if p.note == "marker"]
        stack = [p for p in pieces if p.note != "marker"]
        for i, p in enumerate(sorted(stack, key=lambda q: q.label == "flag")):
            colour = colours.get(p.side, "#ccc")
            marked = p.id in scene.highlights
            out.extend(_counter(p, x + 4 * i, y + 4 * i, colour, marked))
        counters = [p for p in stack if p.label != "flag"]
        if len(counters) > 1:
            last = len(counters) - 1
            out.append(_badge(x + 4 * last, y + 4 * last, len(counters)))
        for p in markers:
            out.extend(_marker(p, x, y, colours.get(p.side, "#333")))
    out.extend(numbers)
    width = max(x for x, _ in centre.values()) + R + MARGIN
    height = max(y for _, y in centre.values()) + H / 2 + MARGIN
    return out, width, height, centre


def _area_map(scene: Scene, colours: dict[str, str]) -> tuple[list[str], float, float, Places]:
    w, h = 760.0, 560.0
    pos = {
        r.name: (MARGIN + 70 + r.x * (w - 140), PANEL + MARGIN + 40 + r.y * (h - 80))
        for r in scene.regions
    }
    out = []
    for a, b in scene.links:
        if a in pos and b in pos:
            (ax, ay), (bx, by) = pos[a], pos[b]
            out.append(
                f'<line x1="{ax:.1f}" y1="{ay:.1f}" x2="{bx:.1f}" y2="{by:.1f}" '
                'stroke="#999" stroke-width="2"/>'
            )
    units: dict[str, list[Piece]] = {}
    for p in scene.pieces:
        if p.where is not None:
            units.setdefault(p.where, []).append(p)
    for r in scene.regions:
        x, y = pos[r.name]
        fill = "#f3d6d6" if r.kind.lower() == "city" else "#eeeeee"
        edge = colours.get(r.control or "", "#777")
        marked = r.name in scene.highlights or (r.id != "" and r.id in scene.highlights)
        stroke = (
            f'stroke="{HIGHLIGHT}" stroke-width="4"'
            if marked
            else f'stroke="{edge}" stroke-width="2"'
        )
        dash = ' stroke-dasharray="5,3"' if r.provisional else ""
        here = units.get(r.name, [])
        box_h = 30 + 12 * len(here)
        out.append(
            f'<rect x="{x - 66:.1f}" y="{y - 20:.1f}" width="132" height="{box_h}" rx="8" '
            f'fill="{fill}" {stroke}{dash} data-area="{escape(r.name)}" '
            f'data-cell="{escape(r.id or r.name)}"/>'
        )
        control = f" [{r.control}]" if r.control else ""
        out.append(_t(x, y - 6, f"{r.name}{control}", 10, text_anchor="middle", font_weight="bold"))
        for i, p in enumerate(here):
            marked = p.id in scene.highlights
            colour = HIGHLIGHT if marked else colours.get(p.side, "#333")
            weight = "bold" if marked else "normal"
            values = f"{p.values}?" if p.provisional else p.values
            text = f"{p.label} {values} {p.steps} {p.note}".strip()
            out.append(
                _t(x - 60, y + 8 + 12 * i, text, 9, fill=colour, font_weight=weight).replace(
                    "<text ", f'<text data-piece="{escape(p.id)}" ', 1
                )
            )
    return out, w + MARGIN * 2, h + PANEL + MARGIN * 2, pos


def _track(scene: Scene, x0: float, y0: float) -> tuple[list[str], float]:
    """The turn track (one box a turn, the turn now filled, notes under their boxes) and the
    score lines under it (points, victory, hands and deck); with the height they take."""
    out: list[str] = []
    y = y0
    if scene.turns:
        out.append(_t(x0, y + 15, "Turn", 11, font_weight="bold"))
        notes = dict(scene.track_notes)
        for i in range(1, scene.turns + 1):
            x = x0 + 36 + (i - 1) * (TRACK_BOX + 4)
            now = i == scene.turn
            out.append(
                f'<rect x="{x:.1f}" y="{y:.1f}" width="{TRACK_BOX:.0f}" height="22" rx="3" '
                f'fill="{HIGHLIGHT if now else "#fff"}" stroke="#444" data-turn="{i}"/>'
            )
            out.append(
                _t(
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
                out.append(_t(x + TRACK_BOX / 2, y + 33, notes[i], 8, text_anchor="middle"))
        y += 40 if notes else 28
    for line in scene.scores:
        y += 15
        out.append(_t(x0, y, line, 11, data_score="1"))
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
            + _t(cx, cy + 3.5, str(i), 9, text_anchor="middle", fill="white", font_weight="bold")
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
        body, width, height, places = _hex_map(scene, colours)
    else:
        body, width, height, places = _area_map(scene, colours)
    body.extend(_arrows(scene, places))
    track, track_h = _track(scene, MARGIN, height)
    body.extend(track)
    height += track_h + (10 if track_h else 0)
    off = [p for p in scene.pieces if p.where is None]
    more = scene.panel[2:]  # panel lines beyond the two under the title
    marks = _legend(scene, colours)
    notes = [
        (_wrap(h, 60), [w for line in lines for w in _wrap(line, 76)]) for h, lines in scene.notes
    ]
    notes_h = 16 * (
        sum(len(h) + len(lines) + 1 for h, lines in notes) + len(off) + len(more) + len(marks) + 9
    )
    total_w = width + NOTE_WIDTH
    total_h = max(height + 40, PANEL + notes_h)
    head = [
        _t(MARGIN, 22, scene.title, 16, font_weight="bold"),
        *(_t(MARGIN, 40 + 14 * i, line, 11) for i, line in enumerate(scene.panel[:2])),
    ]
    side = [_t(width + 14, PANEL + 10 + 14 * i, line, 10) for i, line in enumerate(more)]
    y0 = PANEL + 10 + (14 * len(more) + 12 if more else 0)
    side.append(_t(width + 10, y0, "Off the map", 12, font_weight="bold"))
    y = y0 + 16
    for p in off:
        side.append(
            _t(width + 14, y, f"{p.label} ({p.side}) {p.values} {p.steps} {p.note}", 10).replace(
                "<text ", f'<text data-piece="{escape(p.id)}" ', 1
            )
        )
        y += 14
    y += 10
    side.append(_t(width + 10, y, "Legend", 12, font_weight="bold"))
    y += 6
    for swatch, text in marks:
        y += 16
        side.append(swatch.format(x=width + 14, y=y - 10))
        side.append(_t(width + 34, y, text, 10))
    y += 6
    for heading, lines in notes:
        y += 10
        for part in heading:
            side.append(_t(width + 10, y, part, 12, font_weight="bold", fill=HIGHLIGHT))
            y += 16
        for line in lines:
            side.append(_t(width + 14, y, line, 10))
            y += 14
    words = f"Provisional (not in the rules text): {scene.provisional_note}".split(" ")
    rows: list[str] = [""]
    for word in words:
        if len(rows[-1]) + len(word) > 150:
            rows.append("")
        rows[-1] = f"{rows[-1]} {word}".strip()
    total_h += 12 * (len(rows) - 1)
    legend = "".join(
        _t(MARGIN, total_h - 12 * (len(rows) - i), row, 9, fill="#666")
        for i, row in enumerate(rows)
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{total_w:.0f}" height="{total_h:.0f}" '
        f'viewBox="0 0 {total_w:.0f} {total_h:.0f}" font-family="{FONTS}">'
        f"{_defs()}"
        f'<rect width="100%" height="100%" fill="white"/>'
        + "".join(head + body + side)
        + legend
        + "</svg>\n"
    )
