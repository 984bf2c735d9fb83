"""Questions about the pieces of a position: who is where, who may act, who is hidden.

One place answers them so that movement, declarations, landings and the observation cannot
disagree about, say, whether a decoy counts as a unit (AMB-SHU-30: it does, for stacking and
must-attack, and never defends).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping

import attrs

from kernel.hexes import Hex
from specs.shumshu.rules.board import Board
from specs.shumshu.rules.state import JP, Loc, Piece, ShumshuState, other


def pieces_in(s: ShumshuState, h: Hex) -> list[Piece]:
    return [p for p in s.units if p.loc is Loc.MAP and p.hex == h]


def holder(b: Board, s: ShumshuState, h: Hex) -> str | None:
    """The side with pieces in `h` (only one side may be there, SHU-STACK.1): the side of
    its first piece in data order, read from `hex_sides`."""
    return hex_sides(b, s).get(h)


def hex_sides(b: Board, s: ShumshuState) -> Mapping[Hex, str]:
    """The side holding each occupied hex, in one pass (SHU-STACK.1); kept for the last
    positions asked, since every unit's destinations ask it of the same one (issue 34)."""
    return _hex_sides(b, s)


@functools.lru_cache(maxsize=64)
def _hex_sides(b: Board, s: ShumshuState) -> dict[Hex, str]:
    # built from the last piece to the first, so that a hex's first piece in data order
    # names its side, as a search through the pieces would find it
    return {
        p.hex: b.side_of[p.id] for p in reversed(s.units) if p.loc is Loc.MAP and p.hex is not None
    }


def real_in(b: Board, s: ShumshuState, h: Hex) -> list[Piece]:
    """The units in `h` that are not decoys: the ones that can defend (AMB-SHU-30)."""
    return [p for p in pieces_in(s, h) if not b.unit(p.id).is_decoy]


def side_pieces(b: Board, s: ShumshuState, side: str) -> list[Piece]:
    return [p for p in s.units if p.loc is Loc.MAP and b.side_of[p.id] == side]


def obliging(b: Board, s: ShumshuState, p: Piece) -> bool:
    """Must be attacked when next to an attacking unit (SHU-COMBAT.4, SHU-RGT.4): an
    undisrupted Japanese piece (a decoy too, AMB-SHU-30), or a Russian regiment (undisrupted
    under `rgt_obligation=undisrupted`)."""
    spec = b.unit(p.id)
    if spec.side == JP:
        return not p.disrupted  # SHU-COMBAT.4; SHU-DISRUPT.5: a disrupted one is not obliged
    if not spec.is_regiment:
        return False
    return not p.disrupted or s.variant.is_("rgt_obligation", "any")


def obliged_hexes(b: Board, s: ShumshuState, attacker_side: str) -> frozenset[Hex]:
    """Enemy hexes holding a piece that must be attacked if an attacker is next to it."""
    return frozenset(
        p.hex
        for p in s.units
        if p.loc is Loc.MAP
        and p.hex is not None
        and b.side_of[p.id] == other(attacker_side)
        and obliging(b, s, p)
    )


def hidden(b: Board, p: Piece) -> bool:
    """A Japanese piece the Russians cannot identify: face down until revealed or disrupted
    (SHU-COMBAT.5), decoys included; off-map pieces on Paramushir too, and an eliminated unit
    that left face down (`eliminated_face=as_it_was`)."""
    if b.side_of[p.id] != JP:
        return False
    if p.loc is Loc.MAP:
        return not (p.revealed or p.disrupted)
    if p.loc is Loc.GONE:
        return not p.revealed
    return p.loc is Loc.POOL


def battalion_like_move(b: Board, unit_id: str) -> bool:
    """Moves as a battalion (road bonus +1): every battalion-sized unit but a tank, and
    decoys, which move like infantry battalions (AMB-SHU-30)."""
    spec = b.unit(unit_id)
    return spec.is_decoy or (spec.is_battalion and not spec.is_tank)


def evolve_pieces(s: ShumshuState, changes: dict[str, Piece]) -> ShumshuState:
    """The state with some pieces replaced (by id)."""
    if not changes:
        return s
    return attrs.evolve(s, units=tuple(changes.get(p.id, p) for p in s.units))


def update(s: ShumshuState, ids: Iterable[str], **fields: object) -> ShumshuState:
    """The state with the same fields changed on several pieces."""
    return attrs.evolve(s, units=changed(s, ids, **fields))


def changed(s: ShumshuState, ids: Iterable[str], **fields: object) -> tuple[Piece, ...]:
    """The pieces of `s` with the same fields changed on those of `ids`."""
    wanted = set(ids)
    return tuple(
        attrs.evolve(p, **fields) if p.id in wanted else p  # type: ignore[arg-type]
        for p in s.units
    )


def period(s: ShumshuState, turn: int | None = None) -> int:
    """The game turn a "per turn" limit counts by: the half-day, or the day (AMB-SHU-2)."""
    t = s.turn if turn is None else turn
    return t if s.variant.is_("turn_structure", "half_day") else (t + 1) // 2


def next_period_start(s: ShumshuState) -> int:
    """The first half-day of the next period ("next turn", SHU-COMBAT.6, SHU-DISRUPT.4)."""
    if s.variant.is_("turn_structure", "half_day"):
        return s.turn + 1
    return 2 * ((s.turn + 1) // 2) + 1
