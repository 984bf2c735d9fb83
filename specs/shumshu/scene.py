"""Shumshu as a picture: the island from the data file (mountains, swamps, rivers, roads, hex 33
and the star hexes), the units, and a panel with the turn, the landing capabilities, the Ki-43
and the artillery ranges. Face-down Japanese pieces are drawn face down ("?"), as the Russians
see them (SHU-COMBAT.5), so a picture can be shown to either player."""

from __future__ import annotations

import itertools

from kernel.hexes import hex_name
from kernel.scene import Cell, Edge, Piece, Scene
from specs.shumshu.board import Board
from specs.shumshu.describe import headline
from specs.shumshu.state import Loc, ShumshuState
from specs.shumshu.units import hidden
from specs.shumshu.variants import CATALOGUE

SIDES = (("JP", "#d9a441"), ("RU", "#c0392b"), ("map", "#ffffff"))
_TERRAIN = {"mountain": "hill", "swamp": "marsh"}  # the renderer's names for the colours


def scene(b: Board, s: ShumshuState) -> Scene:
    data = b.data
    cells = tuple(
        Cell(hex_name(h), h.col, h.row, _TERRAIN.get(b.terrain(h), "clear"), True) for h in b.hexes
    )
    edges = [Edge(hex_name(x.a), hex_name(x.b), "river", True) for x in sorted(data.rivers)]
    for path in data.roads:
        edges.extend(
            Edge(hex_name(x), hex_name(y), "road", True) for x, y in itertools.pairwise(path)
        )
    pieces = []
    for p in s.units:
        spec = b.unit(p.id)
        if p.loc is not Loc.MAP or p.hex is None:
            continue
        where = hex_name(p.hex)
        if hidden(b, p):
            pieces.append(Piece(f"hidden-{where}", where, spec.side, "?"))
            continue
        pieces.append(
            Piece(
                p.id,
                where,
                spec.side,
                p.id,
                f"{spec.attack}-{spec.defence}",
                "D" if p.disrupted else "",
                "disrupted" if p.disrupted else "",
                bool(spec.provenance.provisional),
            )
        )
    marks = {data.hex33: "hex 33", data.one_star: "1-star", data.two_star: "2-star"}
    for h, label in marks.items():
        pieces.append(Piece(f"mark-{label}", hex_name(h), "map", label, provisional=True))
    panel = [
        *headline(s).splitlines(),
        f"landing capabilities {s.ships}/3 · Ki-43 {'flying' if s.air else 'shot down'}"
        + (f" · beachhead {s.beachhead}" if s.beachhead else ""),
        "red range (Paramushir): " + " ".join(hex_name(h) for h in sorted(data.red)),
        "black range (Kamchatka): " + " ".join(hex_name(h) for h in sorted(data.black)),
    ]
    if s.result is not None:
        panel.append(f"result: {s.result.winner} ({s.result.clause})")
    provisional = [
        name for name, prov in data.records if prov.is_provisional and not name.startswith("unit ")
    ]
    provisional.append("the units' factors and arrivals")
    return Scene(
        title=f"Postcard Shumshu, August 1945 · {CATALOGUE.name_of(s.variant)}",
        panel=tuple(panel),
        cells=cells,
        edges=tuple(edges),
        pieces=tuple(pieces),
        sides=SIDES,
        provisional_note="provisional (not in the rules text): " + ", ".join(provisional),
    )
