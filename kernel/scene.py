"""A picture of a position as plain data: what a renderer draws, with no drawing in it.

A game turns a state into a `Scene` (its `scene` method): a hex map (cells, hexside features)
or an area map (regions, links), the pieces on it and off it, a panel of turn/phase lines, and
what is provisional. Tools draw it (`tools/render.py` writes SVG). A witness adds highlights and
side notes, e.g. each reading's legal actions beside the map; an endless loop adds arrows for
its moves. Provisional marks what the rules text does not give (a data file's `provisional`
fields): a cell whose own terrain record is provisional, a piece whose printed values are; a
map-wide assumption (the grid's extent, a default terrain) is said once in
`provisional_note`, not drawn on every hex.
"""

from __future__ import annotations

import attrs


@attrs.frozen
class Cell:
    """One hex: its printed number, offset coordinates and terrain."""

    name: str
    col: int
    row: int
    terrain: str = "clear"
    provisional: bool = False


@attrs.frozen
class Edge:
    """A feature on the hexside between cells `a` and `b` (river, bridge, ...)."""

    a: str
    b: str
    kind: str
    provisional: bool = False


@attrs.frozen
class Region:
    """One area of an area map, at (x, y) in a unit square, with who controls it."""

    name: str
    kind: str
    x: float
    y: float
    control: str | None = None
    provisional: bool = False
    id: str = ""  # the rules' own name for it, if not `name` (what a witness's actions cite)


@attrs.frozen
class Piece:
    """A unit or marker: where it is (a cell or region name; None when off the map), its side,
    a short label, its values (e.g. "4-3") and its steps as text; `provisional` when its
    values are not given by the rules text (the data file lists them as provisional)."""

    id: str
    where: str | None
    side: str
    label: str
    values: str = ""
    steps: str = ""
    note: str = ""
    provisional: bool = False


@attrs.frozen
class Scene:
    title: str
    panel: tuple[str, ...] = ()
    cells: tuple[Cell, ...] = ()
    edges: tuple[Edge, ...] = ()
    regions: tuple[Region, ...] = ()
    links: tuple[tuple[str, str], ...] = ()
    pieces: tuple[Piece, ...] = ()
    sides: tuple[tuple[str, str], ...] = ()  # side -> colour
    provisional_note: str = ""
    highlights: frozenset[str] = frozenset()  # cell, region or piece ids to mark
    notes: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (heading, lines) beside the map
    turn: int = 0  # the turn now, marked on the turn track (0: no track)
    turns: int = 0  # the boxes of the turn track
    track_notes: tuple[tuple[int, str], ...] = ()  # (box, words), e.g. an end-of-turn die
    scores: tuple[str, ...] = ()  # points, victory, hands and deck: lines under the track
    # moves drawn as numbered arrows (from, to: cell or region names; label), e.g. a loop
    arrows: tuple[tuple[str, str, str], ...] = ()

    def with_witness(
        self, highlights: frozenset[str], notes: tuple[tuple[str, tuple[str, ...]], ...]
    ) -> Scene:
        return attrs.evolve(self, highlights=self.highlights | highlights, notes=notes)

    def with_arrows(self, arrows: tuple[tuple[str, str, str], ...]) -> Scene:
        return attrs.evolve(self, arrows=self.arrows + arrows)
