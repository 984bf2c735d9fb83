"""Rattenkrieg as a picture: the area map, control, the units in each Area and off the map.

The printed map's layout is not in the text, so the Areas are laid out from the adjacency
alone: columns by distance from the German Rear (so the Volga side and the Soviet Rear end up on
the right), rows in data order. The whole layout is therefore provisional, and drawn so. The
picture is the referee's view of a full state: step counts are shown, never the cards.
"""

from __future__ import annotations

from kernel.scene import Piece, Region, Scene
from specs.rattenkrieg.board import Board
from specs.rattenkrieg.control import controller
from specs.rattenkrieg.state import GE, SU, RKState
from specs.rattenkrieg.variants import CATALOGUE

SIDES = ((GE, "#555555"), (SU, "#c0392b"))


def _layout(board: Board) -> dict[str, tuple[float, float]]:
    start = next(a.id for a in board.data.areas if a.kind == "rear" and a.side == GE)
    depth = {start: 0}
    frontier = [start]
    while frontier:
        nxt = []
        for a in frontier:
            for b in board.adjacent[a]:
                if b not in depth:
                    depth[b] = depth[a] + 1
                    nxt.append(b)
        frontier = nxt
    for a in board.areas:
        depth.setdefault(a, max(depth.values()) + 1)
    columns: dict[int, list[str]] = {}
    for a in board.areas:  # data order within a column
        columns.setdefault(depth[a], []).append(a)
    last = max(columns) or 1
    out = {}
    for d, ids in columns.items():
        for i, a in enumerate(ids):
            out[a] = (d / last, (i + 0.5) / len(ids))
    return out


def scene(board: Board, state: RKState, headline: str) -> Scene:
    place = _layout(board)
    regions = tuple(
        Region(
            a.name,
            a.kind,
            *place[a.id],
            controller(board, state, a.id) if a.kind != "rear" else a.side,
            True,  # the layout is drawn from the adjacency: provisional (module docstring)
        )
        for a in board.data.areas
    )
    name = {a.id: a.name for a in board.data.areas}
    links = tuple((name[a], name[b]) for a, b in board.data.borders + board.data.arrows)
    specs = {u.id: u for u in board.data.units}
    pieces = []
    for u in state.units:
        spec = specs[u.id]
        notes = [n for n, on in (("flipped", u.flipped), ("isolated", u.isolated)) if on]
        if u.area is None:
            notes.append(f"arrives turn {spec.arrives}" if spec.arrives else "not on the map")
        pieces.append(
            Piece(
                u.id,
                name[u.area] if u.area is not None else None,
                spec.side,
                u.id,
                str(spec.strength),
                f"{len(u.steps)} step(s)",
                ", ".join(notes),
                bool(spec.provenance.provisional),
            )
        )
    provisional = [n for n, p in board.data.records if p.provisional]
    return Scene(
        title=f"Rattenkrieg Stalingrad · {CATALOGUE.name_of(state.variant)}",
        panel=tuple(headline.splitlines()),
        regions=regions,
        links=links,
        pieces=tuple(pieces),
        sides=SIDES,
        provisional_note="the area layout, and " + ", ".join(provisional),
    )
