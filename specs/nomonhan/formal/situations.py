"""Where two readings of a Nomonhan option answer differently: each option's situation as a
distance over a state (`reading_situations`, offered to the ambiguity explorer by the game:
`game.Nomonhan`, `solvers.checking.situations`).

A distance is 0 at a position where the readings' inputs differ, so that the next step (an
action, or the dice) may show the difference; elsewhere it counts the situation's conditions
still missing, nearest first, so that a best-first search from played positions closes in on
it. Every condition is the rules' own predicate over the state (contact and ZOC, hills, the
pontoon, the combats declared), never a position written by hand.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from kernel.hexes import Hex, hex_distance
from specs.nomonhan.rules.board import Board, carries_zoc
from specs.nomonhan.rules.state import Combat, NomonhanState, Stage

Distance = Callable[[NomonhanState], int]

FAR = 4
"""Hexes counted toward the pontoon at most."""


def _touching(b: Board, s: NomonhanState, x: str, ys: tuple[str, ...]) -> bool:
    """Unit `x` is next to one of `ys` with ZOC between them: in contact (NOM-9.6)."""
    hx = s.unit(x).hex
    if hx is None:
        return False
    return any(
        (hy := s.unit(y).hex) is not None
        and hy in b.neighbors(hx)
        and carries_zoc(b, s.variant, s.demolished, hx, hy)
        for y in ys
    )


def _hill_mix(b: Board, s: NomonhanState, c: Combat) -> bool:
    """The combat's defenders on the map stand some on a hill and some not (NOM-9.15,
    AMB-NOM-12): an attack against a hill by one reading only."""
    on_hill = {b.is_hill(h) for d in c.defenders if (h := s.unit(d).hex) is not None}
    return on_hill == {True, False}


def _contacts(b: Board, s: NomonhanState) -> list[set[bool]]:
    """For each unit of the phasing side, whether the enemy units in contact with it (NOM-9.6)
    stand on a hill: {True, False} where it touches both kinds."""
    side = s.phasing
    enemy = [u for u in s.units if u.hex is not None and b.side_of[u.id] != side]
    out = []
    for u in s.units:
        if u.hex is None or b.side_of[u.id] != side:
            continue
        out.append(
            {
                b.is_hill(e.hex)
                for e in enemy
                if e.hex is not None and _touching(b, s, u.id, (e.id,))
            }
        )
    return out


def _to_hill(b: Board, s: NomonhanState) -> int:
    """Hexes between the nearest two enemies one of which stands on a hill, at most `FAR`."""
    placed = [(u.hex, b.side_of[u.id]) for u in s.units if u.hex is not None]
    return min(
        [FAR]
        + [
            hex_distance(h, e)
            for h, side in placed
            for e, other_side in placed
            if other_side != side and b.is_hill(e)
        ]
    )


def hill_defenders(b: Board) -> Distance:
    """hill_defenders (AMB-NOM-12; NOM-9.15): the readings part when a combat's defenders
    stand some on a hill and some not: an attack against a hill (only a 6 hits) by
    `any_on_hill`, not by `all_on_hill`. 0: such a combat about to be rolled (the dice's odds
    differ, NOM-9.9); 1: declared; 2: a unit of the phasing side in contact with both kinds
    of enemy unit; 3: in contact with one on a hill; else 3 and the hexes between the nearest
    enemies one of which is on a hill."""

    def distance(s: NomonhanState) -> int:
        if s.current is not None and s.stage == Stage.ROLL and _hill_mix(b, s, s.current.combat):
            return 0
        if any(_hill_mix(b, s, c) for c in s.pending):
            return 1
        kinds = _contacts(b, s)
        if any(k == {True, False} for k in kinds):
            return 2
        if any(True in k for k in kinds):
            return 3
        return 3 + _to_hill(b, s)

    return distance


def _to_pontoon(b: Board, s: NomonhanState) -> int:
    """Hexes from the nearest Japanese unit to a hex of the pontoon bridge (NOM-OPT.4), at
    most `FAR`."""
    pontoon = b.map.pontoon
    if pontoon is None:
        return FAR
    ends: tuple[Hex, Hex] = (pontoon.a, pontoon.b)
    hexes = [u.hex for u in s.units if u.hex is not None and b.side_of[u.id] == "JP"]
    return min([FAR, *(hex_distance(h, e) for h in hexes for e in ends)])


def demolition(b: Board) -> Distance:
    """demolition (NOM-OPT.1 to NOM-OPT.5; the optional rule of the JA text, `optional_ja`,
    against none, `off`): the readings part at the start of a Japanese Movement Phase with a
    Japanese unit reduced and one in a hex of the pontoon bridge, the bridge still standing:
    the Japanese may blow it by one reading only. 0 there; else one for each condition
    missing (the phase, its start, a reduced unit) and the hexes to the pontoon."""

    def distance(s: NomonhanState) -> int:
        if s.demolished:
            return 4 + FAR
        reduced = any(
            b.side_of[u.id] == "JP" and 0 < u.steps < b.data.unit(u.id).full_steps for u in s.units
        )
        phase = s.stage == Stage.MOVE and s.phasing == "JP"
        return (not phase) + (not (phase and not s.moved)) + (not reduced) + _to_pontoon(b, s)

    return distance


def reading_situations(b: Board) -> Mapping[str, Distance]:
    """The option -> distance mapping the explorer asks for
    (`solvers.checking.situations`), each bound to the game's board."""
    return {
        "hill_defenders": hill_defenders(b),
        "demolition": demolition(b),
    }
