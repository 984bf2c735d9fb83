"""Nomonhan as a picture: the hex map from the data file, units with values and steps, the
turn/phase panel, and which parts are provisional (the data file's provenance)."""

from __future__ import annotations

from kernel.hexes import hex_name
from kernel.scene import Cell, Edge, Piece, Scene
from specs.nomonhan.board import Board
from specs.nomonhan.describe import headline
from specs.nomonhan.state import NomonhanState, Stage
from specs.nomonhan.strength import full_steps
from specs.nomonhan.variants import CATALOGUE

SIDES = (("JP", "#d9a441"), ("SU", "#c0392b"))


def scene(board: Board, state: NomonhanState) -> Scene:
    data = board.data
    m = data.map
    cells = tuple(
        Cell(
            hex_name(h),
            h.col,
            h.row,
            m.terrain.get(h, "clear"),
            m.is_provisional(h, default="terrain") or m.is_provisional(h, default="grid"),
        )
        for h in sorted(m.hexes)
    )
    edges: list[Edge] = []
    for side in sorted(m.rivers):
        edges.append(Edge(hex_name(side.a), hex_name(side.b), "river", m.is_provisional(side)))
    for side, kind in sorted(m.bridges.items()):
        shown = "blown" if kind == "pontoon" and state.demolished else kind
        edges.append(Edge(hex_name(side.a), hex_name(side.b), shown, m.is_provisional(side)))
    pieces = []
    for u in state.units:
        spec = data.unit(u.id)
        full = full_steps(state.variant, spec)
        values = spec.printed if u.steps >= full or spec.reduced is None else spec.reduced
        where = hex_name(u.hex) if u.hex is not None else None
        note = ""
        if where is None:
            note = "eliminated" if u.steps == 0 else f"arrives turn {spec.gt}" if spec.gt else ""
        pieces.append(
            Piece(
                u.id,
                where,
                spec.side,
                spec.label or spec.name,
                "-".join(map(str, values)) + f" ({spec.ma})",
                f"{u.steps}/{full}",
                note,
                bool(spec.provenance.provisional),
            )
        )
    for owner, hexes in sorted(m.flags.items()):
        for h in hexes:
            pieces.append(Piece(f"flag-{owner}", hex_name(h), owner, "flag", note="entry hex"))
    panel = [*headline(state).splitlines()]
    if state.pending:
        panel.append(f"{len(state.pending)} combat(s) pending")
    if state.stage == Stage.OVER and state.result is not None:
        panel.append(f"result: {state.result.winner or 'draw'} ({state.result.clause})")
    provisional = [name for name, p in data.map.provenance if p.provisional]
    provisional += [u.id for u in data.units if u.provenance.provisional]
    return Scene(
        title=f"Battle of Nomonhan · {CATALOGUE.name_of(state.variant)}",
        panel=tuple(panel),
        cells=cells,
        edges=tuple(edges),
        pieces=tuple(pieces),
        sides=SIDES,
        provisional_note="provisional (not in the rules texts): " + ", ".join(provisional),
    )
