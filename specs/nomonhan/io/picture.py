"""Nomonhan as a picture: the hex map from the data file, units with values and steps, the
turn/phase panel, the turn track and the points, and which parts are provisional (the data
file's provenance, field by field: a counter's values are marked when its printed values are
not in the texts; a hex only when its own terrain record is provisional, the grid's extent
and the default terrain being said once in the note)."""

from __future__ import annotations

from kernel.data import Provenance
from kernel.hexes import hex_name
from kernel.scene import Cell, Edge, Piece, Scene
from specs.nomonhan.data.variants import CATALOGUE
from specs.nomonhan.io.narration import headline
from specs.nomonhan.rules.board import Board
from specs.nomonhan.rules.rules_object import NomonhanRules
from specs.nomonhan.rules.sequence import points
from specs.nomonhan.rules.state import NomonhanState, Stage
from specs.nomonhan.rules.strength import full_steps

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
            m.is_provisional(h),  # its own record only: the grid and default are in the note
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
                _values_provisional(spec.provenance),
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
    provisional = [_said(name, p) for name, p in data.map.provenance if p.is_provisional]
    provisional += [_said(u.id, u.provenance) for u in data.units if u.provenance.is_provisional]
    if data.turn_track.is_provisional:
        provisional.append(_said("turn track", data.turn_track))
    guessed = "?" if "end_roll" in data.turn_track.provisional else ""
    track = tuple(
        (turn, f"{min(faces)}-{max(faces)}{guessed}")
        for turn, faces in sorted(data.end_roll.items())
        if faces
    )
    score = points(board, state)
    counted = (
        "steps eliminated of the enemy"
        if state.variant.is_("scoring", "enemy_eliminated")
        else "own steps on the map"
    )
    return Scene(
        title=f"Battle of Nomonhan · {CATALOGUE.name_of(state.variant)}",
        panel=tuple(panel),
        cells=cells,
        edges=tuple(edges),
        pieces=tuple(pieces),
        sides=SIDES,
        provisional_note=", ".join(provisional),
        turn=state.turn,
        turns=data.turn_boxes,
        track_notes=track,
        scores=(
            f"Points: JP {score['JP']} · SU {score['SU']} ({counted}, tanks x2; NOM-4.5)",
            "Under a box of the track: the die rolls that end the game at the end of that "
            "turn (NOM-5.5)",
        ),
    )


VALUES = ("printed", "ma", "reduced")
"""A counter's values, as the data file's unit records name them."""


def _values_provisional(p: Provenance) -> bool:
    return p.source == "provisional" or any(f in VALUES for f in p.provisional)


def _said(name: str, p: Provenance) -> str:
    """A provisional record and the fields of it the texts do not give."""
    fields = f" ({', '.join(p.provisional)})" if p.provisional else ""
    return f"{name}{fields}"


class NomonhanPicture:
    """The picture role (`kernel.roles.Picture`) of the rules it is built from. Nomonhan has
    no hidden information: every side sees the whole position, so `side` changes nothing."""

    def __init__(self, rules: NomonhanRules) -> None:
        self.rules = rules

    def scene(self, state: NomonhanState, side: str | None = None) -> Scene:
        """The position as a picture (kernel.scene), for `wargame render`."""
        return scene(self.rules.board, state)
