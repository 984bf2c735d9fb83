"""One hex of a move (SNC-9.0.x, SNC-7.2.x): the hexes a moving group may enter next, what
entering one costs, and the group after it enters.

Split from `movement_steps` (which moves a position offers, the groups formed unit by unit, a
move's end) so that both the moves offered and the groups' search toward an overrun read one
definition of a step. Step costs and EZOC sets are `movement.py`'s (via `tables.py`).
"""

from __future__ import annotations

from collections.abc import Callable

from kernel.hexes import Hex
from kernel.variants import Variant
from specs.snc1937.rules import control
from specs.snc1937.rules.memo import identity_memo
from specs.snc1937.rules.state import FULL_MP, JP, SNCState, Step, other
from specs.snc1937.rules.tables import (
    Tables,
    arrive,
    move_ezoc,
    put,
    side_hexes,
    stacks,
    zoc_of_where,
)


def step_choices(t: Tables, s: SNCState, here: Hex, mp: int, *, near_jp_ok: bool) -> list[Hex]:
    """The hexes the moving group of `s` (no move under way: the side's units in `here`) may
    enter next from `here` with `mp` half-MP left (`group_step_choices`). The answer for the
    last state asked is kept: a move's step asks it of the state it made (does the move go
    on?), and the listing of that same state asks it again."""
    last = _last_steps[0]  # read once: another thread may ask meanwhile
    if last is not None and last[0] is s and last[1] is t and last[2] == (here, mp, near_jp_ok):
        return list(last[3])
    found = group_step_choices(t, s, s.moving or None, here, mp, near_jp_ok=near_jp_ok)
    _last_steps[0] = (s, t, (here, mp, near_jp_ok), tuple(found))  # keeps `s` alive: its id
    return found


_last_steps: list[tuple[SNCState, Tables, tuple[Hex, int, bool], tuple[Hex, ...]] | None] = [None]


def group_step_choices(
    t: Tables, s: SNCState, units: tuple[str, ...] | None, here: Hex, mp: int, *, near_jp_ok: bool
) -> list[Hex]:
    """The hexes the group `units` (None: the side's units in `here`) may enter next from
    `here` with `mp` half-MP left (SNC-9.0.1 to SNC-9.0.12, SNC-7.2.1 to SNC-7.2.3): never an
    enemy hex, never beyond its MP; a group that entered an EZOC has stopped; one that starts
    in an EZOC leaves it only into a hex free of EZOC. `near_jp_ok=False` keeps a method-(a)
    Chinese reinforcement away from Japanese units (SNC-8.2.3)."""
    side = s.side
    first = mp == FULL_MP
    enemy_zoc, blocked, steps = _position(t, s.where, s.variant, side, near_jp_ok)
    # SNC-7.2.1 to SNC-7.2.3 and SNC-7.1.5 for the moving group (ngl_zoc_entry), via
    # movement.movement_ezoc; its start-exit set is the enemy ZOC of the whole position, so a
    # first step out of a hex outside it needs no more (and the common case stays cached)
    stop: frozenset[Hex] = frozenset()
    exiting = first and here in enemy_zoc
    if exiting or not first:
        if units is None:
            units = tuple(u for u in stacks(s.where)[here] if t.spec[u].side == side)
        stop, at_start = move_ezoc(t, s, units, here)
        exiting = first and here in at_start
    if not first and here in stop:
        return []  # SNC-7.2.1
    out = []
    for n, cost in steps[here]:  # SNC-9.0.3: hex to adjacent hex
        if cost > mp or n in blocked:
            continue  # SNC-9.0.11: short of the hex's full cost (or an enemy hex)
        if exiting and n in stop:
            continue  # SNC-7.2.3
        out.append(n)
    return out


def first_steps(t: Tables, s: SNCState, near_jp_ok: bool) -> Callable[[Hex], tuple[Hex, ...]]:
    """`step_choices` of a group's first step from a hex with no move under way (SNC-9.0.1,
    SNC-9.0.3, SNC-9.0.11, SNC-9.0.12), the position's tables looked up once for every hex
    asked: from a hex outside the enemy ZOC no EZOC set is read (SNC-7.2.3 binds only a group
    leaving an EZOC), so its hexes are those it can pay for that are not enemy hexes."""
    enemy_zoc, blocked, steps = _position(t, s.where, s.variant, s.side, near_jp_ok)

    def choices(here: Hex) -> tuple[Hex, ...]:
        if s.moving or here in enemy_zoc:
            return tuple(step_choices(t, s, here, FULL_MP, near_jp_ok=near_jp_ok))
        return tuple([n for n, cost in steps[here] if cost <= FULL_MP and n not in blocked])

    return choices


@identity_memo
def _position(
    t: Tables, where: tuple[tuple[str, Hex], ...], v: Variant, side: str, near_jp_ok: bool
) -> tuple[frozenset[Hex], frozenset[Hex], dict[Hex, tuple[tuple[Hex, int], ...]]]:
    """What every step of `side`'s moves in a position reads: the enemy ZOC, the hexes it may
    not enter and its step costs. SNC-9.0.12, SNC-6.0.1: no enemy hex; SNC-8.2.3: a
    method-(a) arrival (`near_jp_ok=False`) never moves next to a Japanese unit."""
    enemy = other(side)
    blocked = side_hexes(where, t, enemy)
    if not near_jp_ok:
        nb = t.board.neighbors
        blocked = blocked | frozenset(n for h in side_hexes(where, t, JP) for n in nb(h))
    return zoc_of_where(t, where, v, enemy), blocked, t.steps(v, side)


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
