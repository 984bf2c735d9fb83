"""The maps of the SVG pictures (`tools.render`): hex maps by column and row, area maps by (x, y).

Each returns its SVG elements, its size, and where each cell or region is drawn (for arrows).
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

from kernel.scene import Piece, Scene
from tools.render_marks import (
    BORDER,
    EDGE_STYLE,
    HIGHLIGHT,
    MARGIN,
    PANEL,
    TERRAIN,
    H,
    Places,
    R,
    badge,
    counter,
    hex_centre,
    marker,
    polygon,
    t,
)


def hex_map(scene: Scene, colours: dict[str, str]) -> tuple[list[str], float, float, Places]:
    c0 = min(c.col for c in scene.cells)
    r0 = min(c.row for c in scene.cells)
    centre = {c.name: hex_centre(c.col, c.row, c0, r0) for c in scene.cells}
    out = []
    numbers: list[str] = []
    for c in scene.cells:
        x, y = centre[c.name]
        fill = TERRAIN.get(c.terrain, "#eeeeee")
        marked = c.name in scene.highlights
        stroke = f'stroke="{HIGHLIGHT}" stroke-width="4"' if marked else 'stroke="#777"'
        out.append(
            f'<polygon points="{polygon(x, y)}" fill="{fill}" {stroke} data-hex="{c.name}" '
            f'data-cell="{c.name}"/>'
        )
        if c.provisional:  # the hatching is part of the cell: a click on it names the cell
            out.append(
                f'<polygon points="{polygon(x, y)}" fill="url(#provisional)" data-cell="{c.name}"/>'
            )
        numbers.append(  # drawn last, over any counter, so a stack never hides its hex
            t(
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
            out.extend(counter(p, x + 4 * i, y + 4 * i, colour, marked))
        counters = [p for p in stack if p.label != "flag"]
        if len(counters) > 1:
            last = len(counters) - 1
            out.append(badge(x + 4 * last, y + 4 * last, len(counters)))
        for p in markers:
            out.extend(marker(p, x, y, colours.get(p.side, "#333")))
    out.extend(numbers)
    width = max(x for x, _ in centre.values()) + R + MARGIN
    height = max(y for _, y in centre.values()) + H / 2 + MARGIN
    return out, width, height, centre


def area_map(scene: Scene, colours: dict[str, str]) -> tuple[list[str], float, float, Places]:
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
        out.append(t(x, y - 6, f"{r.name}{control}", 10, text_anchor="middle", font_weight="bold"))
        for i, p in enumerate(here):
            marked = p.id in scene.highlights
            colour = HIGHLIGHT if marked else colours.get(p.side, "#333")
            weight = "bold" if marked else "normal"
            values = f"{p.values}?" if p.provisional else p.values
            text = f"{p.label} {values} {p.steps} {p.note}".strip()
            out.append(
                t(x - 60, y + 8 + 12 * i, text, 9, fill=colour, font_weight=weight).replace(
                    "<text ", f'<text data-piece="{escape(p.id)}" ', 1
                )
            )
    return out, w + MARGIN * 2, h + PANEL + MARGIN * 2, pos
