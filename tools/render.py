"""SVG pictures of positions (`wargame render`): a `kernel.scene.Scene` drawn as a file.

Hex maps use flat-topped hexes in columns, even columns half a hex lower (the printed CCRR
numbering of kernel/hexes.py). Area maps place each region at its (x, y). Provisional data is
drawn dashed and hatched, with a legend; highlights (a witness's differing units and hexes) get
a thick outline; notes (each reading's legal actions) are listed beside the map.

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


def _defs() -> str:
    return (
        "<defs>"
        '<pattern id="provisional" width="8" height="8" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><line x1="0" y1="0" x2="0" y2="8" '
        'stroke="#888" stroke-width="1" stroke-opacity="0.35"/></pattern>'
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
    dash = ' stroke-dasharray="3,2"' if p.provisional else ""
    stroke = f'stroke="{HIGHLIGHT}" stroke-width="3"' if marked else 'stroke="#222"'
    out = [
        f'<g data-piece="{escape(p.id)}"><rect x="{x - 17:.1f}" y="{y - 17:.1f}" width="34" '
        f'height="34" rx="3" fill="{colour}" {stroke}{dash}/>',
        _t(x, y - 5, p.label[:6], 9, text_anchor="middle", font_weight="bold"),
        _t(x, y + 6, p.values, 8, text_anchor="middle"),
        _t(x, y + 15, p.steps, 7, text_anchor="middle"),
        f"<title>{escape(p.id)}: {escape(p.label)} {escape(p.values)} steps {escape(p.steps)}"
        f"{' (provisional values)' if p.provisional else ''}</title></g>",
    ]
    return out


def _hex_map(scene: Scene, colours: dict[str, str]) -> tuple[list[str], float, float]:
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
            f'<polygon points="{_polygon(x, y)}" fill="{fill}" {stroke} data-hex="{c.name}"/>'
        )
        if c.provisional:
            out.append(f'<polygon points="{_polygon(x, y)}" fill="url(#provisional)"/>')
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
        dash = ' stroke-dasharray="6,4"' if e.provisional else ""
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
                f'stroke="{colour}" stroke-width="{width}" stroke-linecap="round"{dash} '
                f'data-edge="{e.a}/{e.b}"><title>road</title></line>'
            )
        elif e.kind == "river":
            out.append(
                f'<line x1="{mx - px:.1f}" y1="{my - py:.1f}" x2="{mx + px:.1f}" '
                f'y2="{my + py:.1f}" stroke="{colour}" stroke-width="{width}" '
                f'stroke-linecap="round"{dash} data-edge="{e.a}/{e.b}"/>'
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
    return out, width, height


def _area_map(scene: Scene, colours: dict[str, str]) -> tuple[list[str], float, float]:
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
        marked = r.name in scene.highlights
        stroke = f'stroke="{HIGHLIGHT}" stroke-width="4"' if marked else f'stroke="{edge}"'
        dash = ' stroke-dasharray="5,3"' if r.provisional else ""
        here = units.get(r.name, [])
        box_h = 30 + 12 * len(here)
        out.append(
            f'<rect x="{x - 66:.1f}" y="{y - 20:.1f}" width="132" height="{box_h}" rx="8" '
            f'fill="{fill}" {stroke} stroke-width="2"{dash} data-area="{escape(r.name)}"/>'
        )
        control = f" [{r.control}]" if r.control else ""
        out.append(_t(x, y - 6, f"{r.name}{control}", 10, text_anchor="middle", font_weight="bold"))
        for i, p in enumerate(here):
            colour = colours.get(p.side, "#333")
            weight = "bold" if p.id in scene.highlights else "normal"
            text = f"{p.label} {p.values} {p.steps} {p.note}".strip()
            out.append(
                _t(x - 60, y + 8 + 12 * i, text, 9, fill=colour, font_weight=weight).replace(
                    "<text ", f'<text data-piece="{escape(p.id)}" ', 1
                )
            )
    return out, w + MARGIN * 2, h + PANEL + MARGIN * 2


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
    if any(p.provisional for p in scene.pieces) or any(c.provisional for c in scene.cells):
        out.append(
            (box("#fff", ' stroke="#222" stroke-dasharray="3,2"'), "dashed: provisional values")
        )
    if any(c.provisional for c in scene.cells):
        out.append((box("url(#provisional)", ' stroke="#777"'), "hatched: provisional terrain"))
    if scene.highlights:
        out.append(
            (box("#fff", f' stroke="{HIGHLIGHT}" stroke-width="3"'), "where readings differ")
        )
    return out


def render_svg(scene: Scene) -> str:
    """The whole picture as an SVG document."""
    colours = dict(scene.sides)
    if scene.cells:
        body, width, height = _hex_map(scene, colours)
    else:
        body, width, height = _area_map(scene, colours)
    off = [p for p in scene.pieces if p.where is None]
    more = scene.panel[2:]  # panel lines beyond the two under the title
    marks = _legend(scene, colours)
    notes_h = 16 * (
        sum(len(lines) + 2 for _, lines in scene.notes) + len(off) + len(more) + len(marks) + 9
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
    for heading, lines in scene.notes:
        y += 10
        side.append(_t(width + 10, y, heading, 12, font_weight="bold", fill=HIGHLIGHT))
        y += 16
        for line in lines:
            side.append(_t(width + 14, y, line, 10))
            y += 14
    words = f"Hatched or dashed: {scene.provisional_note}".split(" ")
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
