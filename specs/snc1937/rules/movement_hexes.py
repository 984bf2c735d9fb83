"""One hex of a move (SNC-9.0.x, SNC-7.2.x): the hexes a moving group may enter next, what
entering one costs, and the group after it enters.

Split from `movement_steps` (which moves a position offers, the groups formed unit by unit, a
move's end) so that both the moves offered and the groups' search toward an overrun read one
definition of a step. Step costs and EZOC sets are `movement.py`'s (via `tables.py`).
"""

from __future__ import annotations

from kernel.hexes import Hex
from specs.snc1937.rules import control
from specs.snc1937.rules.state import FULL_MP, JP, SNCState, Step, other
from specs.snc1937.rules.tables import (
    Tables,
    arrive,
    move_ezoc,
    put,
    side_hexes,
    stacks,
    zoc_of,
)


def step_choices(t: Tables, s: SNCState, here: Hex, mp: int, *, near_jp_ok: bool) -> list[Hex]:
    """The hexes the moving group may enter next from `here` with `mp` half-MP left
    (SNC-9.0.1 to SNC-9.0.12, SNC-7.2.1 to SNC-7.2.3): never an enemy hex, never beyond its
    MP; a group that entered an EZOC has stopped; one that starts in an EZOC leaves it only
    into a hex free of EZOC. `near_jp_ok=False` keeps a method-(a) Chinese reinforcement away
    from Japanese units (SNC-8.2.3)."""
    side = s.side
    first = mp == FULL_MP
    units = s.moving or tuple(u for u in stacks(s.where)[here] if t.spec[u].side == side)
    # SNC-7.2.1 to SNC-7.2.3 and SNC-7.1.5 for the moving group (ngl_zoc_entry), via
    # movement.movement_ezoc; its start-exit set is the enemy ZOC of the whole position, so a
    # first step out of a hex outside it needs no more (and the common case stays cached)
    stop: frozenset[Hex] = frozenset()
    exiting = first and here in zoc_of(t, s, other(side))
    if exiting or not first:
        stop, at_start = move_ezoc(t, s, units, here)
        exiting = first and here in at_start
    if not first and here in stop:
        return []  # SNC-7.2.1
    blocked = side_hexes(s.where, t, other(side))  # SNC-9.0.12, SNC-6.0.1: no enemy hex
    if not near_jp_ok:  # SNC-8.2.3: a method-(a) arrival never moves next to a Japanese unit
        nb = t.board.neighbors
        blocked = blocked | frozenset(n for h in side_hexes(s.where, t, JP) for n in nb(h))
    out = []
    for n, cost in t.steps(s.variant, side)[here]:  # SNC-9.0.3: hex to adjacent hex
        if cost > mp or n in blocked:
            continue  # SNC-9.0.11: short of the hex's full cost (or an enemy hex)
        if exiting and n in stop:
            continue  # SNC-7.2.3
        out.append(n)
    return out


def step_cost(t: Tables, s: SNCState, here: Hex, to: Hex) -> int:
    return dict(t.steps(s.variant, s.side)[here])[to]


def entered(t: Tables, s: SNCState, here: Hex, to: Hex) -> SNCState:
    """The moving group of `s` after entering `to` from `here` (SNC-9.0.1 to SNC-9.0.4); control
    passes in every hex entered or only where the move ends (control_transit, SNC-3.2.2)."""
    mp = s.mp if s.moving else FULL_MP  # SNC-9.0.1, SNC-9.0.2: MF 8 a move
    mp -= step_cost(t, s, here, to)  # SNC-9.0.4, SNC-9.3.2: the hex's cost
    s = put(s, dict.fromkeys(s.moving, to), mp=mp, step=Step.MAIN)
    if control.takes_in_transit(s.variant):
        s = arrive(t, s, s.side, [to], "move")
    return s
