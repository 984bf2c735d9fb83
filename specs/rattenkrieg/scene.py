"""Rattenkrieg as a picture: the area map, control, the units in each Area and off the map.

The printed map's layout is not in the text, so the Areas are laid out from the adjacency
alone: columns by distance from the German Rear (so the Volga side and the Soviet Rear end up on
the right), rows in data order. The whole layout is therefore provisional, which the note says
once; an Area is drawn dashed when its name is not in the text, a unit's strength marked when
its strength is not. The picture is the referee's view of a full state, yet it never shows a
card: step counts, the number of cards in each hand and in the deck, never their faces.
"""

from __future__ import annotations

from kernel.data import Provenance
from kernel.scene import Piece, Region, Scene
from specs.rattenkrieg.board import Board
from specs.rattenkrieg.control import controller
from specs.rattenkrieg.sequence import LAST_TURN
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
            _given_not(a.provenance, "name"),
            a.id,
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
                _given_not(spec.provenance, "strength"),
            )
        )
    provisional = [
        n + (f" ({', '.join(p.provisional)})" if p.provisional else "")
        for n, p in board.data.records
        if p.is_provisional
    ]
    held = [a for a in board.arrows if controller(board, state, a) == GE]
    scores = (
        f"Hands: {GE} {len(state.hand_ge)} cards, {SU} {len(state.hand_su)} cards (faces hidden)"
        f" · deck {len(state.deck)} cards · discards {len(state.discards)}",
        f"Victory (RKS-4.1.1): {GE} holds {len(held)} of the {len(board.arrows)} Areas joined "
        f"to the Soviet Rear" + (f" ({', '.join(board.name(a) for a in held)})" if held else ""),
    )
    return Scene(
        title=f"Rattenkrieg Stalingrad · {CATALOGUE.name_of(state.variant)}",
        panel=tuple(headline.splitlines()),
        regions=regions,
        links=links,
        pieces=tuple(pieces),
        sides=SIDES,
        provisional_note="the area layout (drawn from the adjacency), and "
        + ", ".join(provisional),
        turn=state.turn,
        turns=LAST_TURN,
        scores=scores,
    )


def _given_not(p: Provenance, field: str) -> bool:
    """Whether the text does not give this field of a record (its data file says so)."""
    return p.source == "provisional" or field in p.provisional
