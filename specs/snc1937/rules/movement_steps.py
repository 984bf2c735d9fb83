"""Movement in the sequence of play (SNC-9.0.x, SNC-7.2.x): which moves a position offers, one
hex of a move, and its end.

A move is made one hex at a time (`Move`), by one unit or (stack_movement=stacks) a hex's whole
movable stack, until it stops (`Done`) or has nowhere left to go; another group moves only once
it is over (SNC-9.0.10). The step costs and EZOC sets are `movement.py`'s (through the cached
views of `tables.py`); the Japanese overruns a move may make are `overrun_steps.py`'s.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from typing import overload

import attrs

from kernel.hexes import Hex
from specs.snc1937.rules import control, overrun_steps
from specs.snc1937.rules.actions import Action, Done, Move
from specs.snc1937.rules.state import CH, FULL_MP, JP, Phase, SNCState, other
from specs.snc1937.rules.tables import (
    Tables,
    arrive,
    locations,
    move_ezoc,
    put,
    side_hexes,
    stacks,
    zoc_of,
)
from specs.snc1937.rules.top_unit import tops


class MoveList(Sequence[Action]):
    """The moves of a Move phase, listed lazily: each group with its destinations, then the
    `tail` actions; only the chosen move is built (a Chinese Move phase has thousands)."""

    def __init__(
        self, groups: list[tuple[tuple[str, ...], tuple[Hex, ...]]], tail: tuple[Action, ...]
    ) -> None:
        self.groups = groups
        self.tail = tail
        self.starts: list[int] = []
        n = 0
        for _, dests in groups:
            self.starts.append(n)
            n += len(dests)
        self.moves = n

    def __len__(self) -> int:
        return self.moves + len(self.tail)

    @overload
    def __getitem__(self, i: int) -> Action: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[Action]: ...

    def __getitem__(self, i: int | slice) -> Action | Sequence[Action]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        if i >= self.moves:
            return self.tail[i - self.moves]
        k = bisect.bisect_right(self.starts, i) - 1
        units, dests = self.groups[k]
        return Move(units, dests[i - self.starts[k]])


# --- where a group may go ------------------------------------------------------------------------


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


def move_starts(
    t: Tables, s: SNCState, near_jp_ok: bool, units_filter: frozenset[str] | None
) -> list[tuple[tuple[str, ...], tuple[Hex, ...]]]:
    """Every group that may begin a move (any number may, SNC-9.0.8), with its first hexes:
    each movable unit alone, and
    under stack_movement=stacks the whole movable stack of a hex together (AMB-SNC-44)."""
    out: list[tuple[tuple[str, ...], tuple[Hex, ...]]] = []
    stacks_too = s.variant.is_("stack_movement", "stacks")
    for h, us in sorted(stacks(s.where).items()):
        mine = tuple(
            u
            for u in us
            if t.spec[u].side == s.side  # SNC-9.0.6: never in the opponent's phase
            and not t.spec[u].is_static  # SNC-2.2.1.8, SNC-9.1.1: static units never move
            and u not in s.done  # SNC-9.0.10: a unit that has moved moves no more
            and (units_filter is None or u in units_filter)
        )
        if not mine:
            continue
        # SNC-9.0.1, SNC-9.0.2, SNC-2.2.1.9: a mobile unit's move has MF 8
        dests = tuple(step_choices(t, s, h, FULL_MP, near_jp_ok=near_jp_ok))
        if not dests:
            continue
        out.extend(((u,), dests) for u in mine)  # SNC-9.0.8: any number of units may move
        if stacks_too and len(mine) > 1:
            out.append((mine, dests))
    return out


# --- what a mover may do -------------------------------------------------------------------------


def move_actions(
    t: Tables, s: SNCState, near_jp_ok: bool, only: frozenset[str] | None
) -> Sequence[Action]:
    """A move under way goes on one hex at a time or stops (`Done`); otherwise any group
    may begin one (SNC-9.0.10: one unit or stack's move at a time)."""
    overruns = overrun_steps.actions(t, s)  # SNC-9.6.1, SNC-9.6.2
    if s.moving:  # SNC-9.0.10: the move under way goes on or ends before another
        moves: list[Action] = []
        if s.overrun_next == "":  # after an overrun only another one (SNC-9.6.7, 9.6.8)
            here = locations(s.where)[s.moving[0]]
            steps = step_choices(t, s, here, s.mp, near_jp_ok=near_jp_ok)
            moves = [Move(s.moving, h) for h in steps]
        return [*moves, *overruns, Done()]
    tail: tuple[Action, ...] = (*overruns, *tops(t, s), Done()) if s.phase != Phase.REINF else ()
    return MoveList(move_starts(t, s, near_jp_ok, only), tail)


def move_ok(t: Tables, s: SNCState, m: Move) -> bool:
    """Only the phasing side's units move (SNC-9.0.6), in his Move phase or as a
    method-(a) reinforcement (SNC-9.0.5, SNC-8.2.2, SNC-8.2.7): `m in move_actions(...)`,
    checked on its own start hex rather than by listing every move."""
    loc = locations(s.where)
    if not m.units or len(set(m.units)) != len(m.units) or any(u not in loc for u in m.units):
        return False
    start = loc[m.units[0]]
    if s.phase in (Phase.OPS1, Phase.OPS2):
        if s.ops_kind() != "move":
            return False
        allowed = None
        near_ok = True
    elif s.phase == Phase.REINF and s.side == CH:
        allowed = s.movable
        near_ok = False
    else:
        return False
    if s.moving:
        if s.overrun_next:
            return False  # SNC-9.6.7, SNC-9.6.8: another overrun or stop
        return tuple(m.units) == s.moving and m.to in step_choices(
            t, s, start, s.mp, near_jp_ok=near_ok
        )
    if not _may_start_together(t, s, m.units, start, allowed):
        return False
    return m.to in step_choices(t, s, start, FULL_MP, near_jp_ok=near_ok)


def _may_start_together(
    t: Tables, s: SNCState, units: tuple[str, ...], start: Hex, allowed: frozenset[str] | None
) -> bool:
    """`units` may begin a move from `start`: the phasing side's, mobile, not yet moved (and
    among the `allowed` reinforcements), one unit alone or, under stack_movement=stacks, the
    hex's whole movable stack (SNC-9.0.6, SNC-9.0.8, SNC-9.0.10; AMB-SNC-44)."""
    loc = locations(s.where)
    for u in units:
        spec = t.spec[u]
        if loc[u] != start or spec.side != s.side or spec.is_static or u in s.done:
            return False
        if allowed is not None and u not in allowed:
            return False
    if len(units) > 1:
        mine = tuple(
            u
            for u in stacks(s.where)[start]
            if t.spec[u].side == s.side
            and not t.spec[u].is_static
            and u not in s.done
            and (allowed is None or u in allowed)
        )
        if not s.variant.is_("stack_movement", "stacks") or tuple(units) != mine:
            return False
    return True


# --- the move --------------------------------------------------------------------------------


def move(t: Tables, s: SNCState, units: tuple[str, ...], to: Hex) -> SNCState:
    """One hex of a move (SNC-9.0.1 to SNC-9.0.4, SNC-9.0.10); control passes in every
    hex entered or only where the move ends (control_transit, SNC-3.2.2). A move with
    nowhere left to go ends by itself."""
    here = locations(s.where)[units[0]]
    mp = s.mp if s.moving else FULL_MP  # SNC-9.0.1, SNC-9.0.2: MF 8 a move
    mp -= step_cost(t, s, here, to)  # SNC-9.0.4, SNC-9.3.2: the hex's cost
    s = put(s, dict.fromkeys(units, to), moving=units, mp=mp)
    if control.takes_in_transit(s.variant):
        s = arrive(t, s, s.side, [to], "move")
    near_ok = s.phase != Phase.REINF
    if not step_choices(t, s, to, mp, near_jp_ok=near_ok) and not overrun_steps.actions(t, s):
        return stop(t, s)
    return s


def stop(t: Tables, s: SNCState) -> SNCState:
    """The move under way ends: its units have moved this phase (SNC-9.0.10); a
    reinforcement's limited move is used up (SNC-8.2.2)."""
    moved = frozenset(s.moving)
    to = locations(s.where)[s.moving[0]]
    s = attrs.evolve(
        s,
        moving=(),
        mp=0,  # SNC-9.0.7, SNC-9.0.9: MP left unspent are lost, never saved or passed on
        done=s.done | moved,  # SNC-9.0.10: a unit that has moved moves no more
        movable=s.movable - moved,  # SNC-8.2.2: a reinforcement's move is used up
        overrun_next="",
        overrun_target=None,
    )
    if not control.takes_in_transit(s.variant):
        s = arrive(t, s, s.side, [to], "move")
    return s
