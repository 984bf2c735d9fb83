"""The drawing vocabulary of the SVG pictures (`tools.render`): sizes, colours, text, counters.

Shared by the map drawings (`tools.render_maps`) and the parts drawn around the map.
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

from kernel.scene import Piece

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


def t(x: float, y: float, text: str, size: int = 11, **attrs: str) -> str:
    extra = "".join(f' {k.replace("_", "-")}="{v}"' for k, v in attrs.items())
    return f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}"{extra}>{escape(text)}</text>'


def wrap(text: str, width: int) -> list[str]:
    """`text` in lines of at most about `width` characters, broken at spaces."""
    rows = [""]
    for word in text.split(" "):
        if rows[-1] and len(rows[-1]) + 1 + len(word) > width:
            rows.append("")
        rows[-1] = f"{rows[-1]} {word}" if rows[-1] else word
    return rows


def defs() -> str:
    return (
        "<defs>"
        '<pattern id="provisional" width="8" height="8" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><line x1="0" y1="0" x2="0" y2="8" '
        'stroke="#888" stroke-width="1" stroke-opacity="0.35"/></pattern>'
        '<marker id="arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" '
        f'markerHeight="5" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="{LOOP}"/></marker>'
        "</defs>"
    )


def hex_centre(col: int, row: int, c0: int, r0: int) -> tuple[float, float]:
    x = MARGIN + R + 1.5 * R * (col - c0)
    y = PANEL + MARGIN + H / 2 + H * (row - r0) + (H / 2 if col % 2 == 0 else 0.0)
    return x, y


def polygon(x: float, y: float) -> str:
    points = " ".join(
        f"{x + R * math.cos(math.radians(a)):.1f},{y + R * math.sin(math.radians(a)):.1f}"
        for a in range(0, 360, 60)
    )
    return points


def marker(p: Piece, x: float, y: float, colour: str) -> list[str]:
    """A tag at the foot of a hex (note "marker"): a map marking, not a counter."""
    text = t(
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


def badge(x: float, y: float, count: int) -> str:
    """The number of counters in a stack, on the top counter's corner."""
    return (
        f'<g><circle cx="{x + 16:.1f}" cy="{y - 16:.1f}" r="7" fill="#222"/>'
        + t(x + 16, y - 13, str(count), 9, text_anchor="middle", fill="white", font_weight="bold")
        + "</g>"
    )


def counter(p: Piece, x: float, y: float, colour: str, marked: bool) -> list[str]:
    if p.label == "flag":
        return [
            f'<path d="M{x - 12:.1f},{y + 12:.1f} v-18 l10,4 l-10,4" fill="{colour}" '
            f'stroke="#333" data-piece="{escape(p.id)}"/>'
        ]
    # values the text does not give: a dashed counter, the values in italics; given: bold
    dash = ' stroke-dasharray="3,2"' if p.provisional else ""
    stroke = f'stroke="{HIGHLIGHT}" stroke-width="3"' if marked else 'stroke="#222"'
    values = (
        t(x, y + 6, p.values, 8, text_anchor="middle", font_style="italic")
        if p.provisional
        else t(x, y + 6, p.values, 8, text_anchor="middle", font_weight="bold")
    )
    out = [
        f'<g data-piece="{escape(p.id)}"><rect x="{x - 17:.1f}" y="{y - 17:.1f}" width="34" '
        f'height="34" rx="3" fill="{colour}" {stroke}{dash}/>',
        t(x, y - 5, p.label[:6], 9, text_anchor="middle", font_weight="bold"),
        values,
        t(x, y + 15, p.steps, 7, text_anchor="middle"),
        f"<title>{escape(p.id)}: {escape(p.label)} {escape(p.values)} steps {escape(p.steps)}"
        f"{' (provisional values)' if p.provisional else ''}</title></g>",
    ]
    return out


Places = dict[str, tuple[float, float]]
"""Where each cell or region is drawn (its centre), for arrows between them."""
