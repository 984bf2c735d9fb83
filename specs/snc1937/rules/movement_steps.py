"""Movement in the sequence of play (SNC-9.0.x, SNC-7.2.x): which moves a position offers, one
hex of a move, and its end.

A move is made one hex at a time (`Move`), by one unit or (stack_movement=stacks) a hex's whole
movable stack, until it stops (`Done`) or has nowhere left to go; another group moves only once
it is over (SNC-9.0.10). Any group of one hex's units is formed as an attack's attackers are:
`Join(unit)` opens it (`Step.GROUP`), more `Join`s grow it, `Move(group, to)` makes its first
hex. Under stacks any group may; under units_only ("except in overruns") only a Japanese group
going "together to the overrun hex" (SNC-9.6.2): into hexes from which an overrun can still be
reached, and not stopping before it (`overrun_next="owed"`). Where a group may step next is
`movement_hexes.py`'s; step costs and EZOC sets are `movement.py`'s (via `tables.py`); the
overruns are `overrun_steps.py`'s.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator, Sequence
from typing import get_args, overload

from kernel.choices import LazySequence
from kernel.errors import IllegalAction
from kernel.hexes import Hex
from specs.snc1937.rules import control, overrun_steps
from specs.snc1937.rules.actions import Action, Done, Join, Move
from specs.snc1937.rules.movement_hexes import (
    entered,
    first_steps,
    group_step_choices,
    step_choices,
)
from specs.snc1937.rules.refusals import illegal
from specs.snc1937.rules.state import CH, FULL_MP, JP, Phase, SNCState, Step, evolve
from specs.snc1937.rules.tables import (
    Tables,
    arrive,
    locations,
    movers,
    put,
    stacks,
)
from specs.snc1937.rules.top_unit import tops

_ACTION_KINDS = frozenset(get_args(Action))


class MoveList(LazySequence[Action]):
    """The moves of a Move phase, listed lazily: each group with its destinations, then the
    `tail` actions; only the chosen move is built (a Chinese Move phase has thousands). A
    move under way is one group: its next hexes (SNC-9.0.10)."""

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

    def __iter__(self) -> Iterator[Action]:
        """The actions in `__getitem__`'s order, without a look-up by index for each."""
        for units, dests in self.groups:
            for to in dests:
                yield Move(units, to)
        yield from self.tail

    def __contains__(self, x: object) -> bool:
        """Membership without building every move: a `Move` is looked for among the groups
        with its units, anything else in the tail (an action of another kind never equals a
        move); an object of no action kind by the plain scan."""
        if type(x) is Move:
            units, to = x.units, x.to
            if any(g == units and to in dests for g, dests in self.groups):
                return True
            return x in self.tail
        if type(x) in _ACTION_KINDS:
            return x in self.tail
        return super().__contains__(x)

    @overload
    def __getitem__(self, i: int) -> Action: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[Action]: ...

    def __getitem__(self, i: int | slice) -> Action | Sequence[Action]:
        if isinstance(i, slice):
            start, stop, step = i.indices(len(self))
            if step == 1 and start >= self.moves:  # the tail only (what a codec encodes)
                return list(self.tail[start - self.moves : stop - self.moves])
            return [self[j] for j in range(start, stop, step)]
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


def move_starts(
    t: Tables, s: SNCState, near_jp_ok: bool, units_filter: frozenset[str] | None
) -> list[tuple[tuple[str, ...], tuple[Hex, ...]]]:
    """Every group that may begin a move (any number may, SNC-9.0.8), with its first hexes:
    each movable unit alone, and
    under stack_movement=stacks the whole movable stack of a hex together (AMB-SNC-44)."""
    out: list[tuple[tuple[str, ...], tuple[Hex, ...]]] = []
    stacks_too = s.variant.is_("stack_movement", "stacks")
    first = first_steps(t, s, near_jp_ok)
    # SNC-9.0.6: never in the opponent's phase; SNC-2.2.1.8, SNC-9.1.1: static units never
    # move; SNC-9.0.10: a unit that has moved moves no more
    for h, mine in movers(t, s).items():
        if units_filter is not None:
            mine = tuple(u for u in mine if u in units_filter)
            if not mine:
                continue
        # SNC-9.0.1, SNC-9.0.2, SNC-2.2.1.9: a mobile unit's move has MF 8
        dests = first(h)
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
    may begin one (SNC-9.0.10: one unit or stack's move at a time), or be formed unit by unit
    (`group_joins`)."""
    overruns = overrun_steps.actions(t, s)  # SNC-9.6.1, SNC-9.6.2
    if s.moving:  # SNC-9.0.10: the move under way goes on or ends before another
        groups: list[tuple[tuple[str, ...], tuple[Hex, ...]]] = []
        if s.overrun_next in ("", "owed"):  # after an overrun only another (SNC-9.6.7, 9.6.8)
            here = locations(s.where)[s.moving[0]]
            steps = tuple(group_steps(t, s, here, near_jp_ok=near_jp_ok))
            groups = [(s.moving, steps)] if steps else []
        owed = s.overrun_next == "owed"  # SNC-9.6.2: it moved together to overrun
        return MoveList(groups, tuple(overruns) if owed else (*overruns, Done()))
    if s.phase == Phase.REINF:
        return MoveList(move_starts(t, s, near_jp_ok, only), ())
    tail: tuple[Action, ...] = (*overruns, *group_joins(t, s), *tops(t, s), Done())
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
    if s.step == Step.GROUP:  # the formed group's first hex (SNC-9.0.10, SNC-9.6.2)
        return tuple(m.units) == s.moving and m in group_actions(t, s)
    if s.moving:
        if s.overrun_next not in ("", "owed"):
            return False  # SNC-9.6.7, SNC-9.6.8: another overrun or stop
        return tuple(m.units) == s.moving and m.to in group_steps(t, s, start, near_jp_ok=near_ok)
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
    """One hex of a move (SNC-9.0.1 to SNC-9.0.4, SNC-9.0.10). A group formed to move together
    under units_only owes an overrun (SNC-9.6.2). A move with nowhere left to go ends by
    itself."""
    here = locations(s.where)[units[0]]
    formed = s.step == Step.GROUP
    if not s.moving:
        s = evolve(s, moving=units, mp=FULL_MP)
    s = entered(t, s, here, to)
    if formed and s.variant.is_("stack_movement", "units_only"):
        s = evolve(s, overrun_next="owed")  # SNC-9.6.2, AMB-SNC-44 (b)
    near_ok = s.phase != Phase.REINF
    if not step_choices(t, s, to, s.mp, near_jp_ok=near_ok) and not overrun_steps.actions(t, s):
        return stop(t, s)
    return s


# --- groups formed unit by unit (SNC-9.0.10, SNC-9.6.2; AMB-SNC-44) ---------------------------


def _overrun_ahead(t: Tables, s: SNCState, best: dict[Hex, int]) -> bool:
    """The moving group of `s` can still reach an overrun, now or after more hexes together
    (SNC-9.6.1, SNC-9.6.2): a search over the hexes it may enter, each kept with the most MP
    it was reached with (`best`), so it ends within the 8 MP's reach."""
    here = locations(s.where)[s.moving[0]]
    if overrun_steps.targets(t, s, s.moving, here, s.mp):
        return True
    for n in step_choices(t, s, here, s.mp, near_jp_ok=True):
        nxt = entered(t, s, here, n)
        if best.get(n, -1) >= nxt.mp:
            continue
        best[n] = nxt.mp
        if _overrun_ahead(t, nxt, best):
            return True
    return False


def _to_overrun(s: SNCState) -> bool:
    """Under units_only a group of several units moves together only to overrun (SNC-9.6.2;
    AMB-SNC-44 (b)): formed and not yet moved, or moved and owing it."""
    units_only = s.variant.is_("stack_movement", "units_only")
    return s.overrun_next == "owed" or (s.step == Step.GROUP and units_only)


def group_steps(t: Tables, s: SNCState, here: Hex, *, near_jp_ok: bool = True) -> list[Hex]:
    """The hexes the moving (or formed) group of `s` may enter next (`step_choices`); one going
    to overrun only those from which an overrun can still be reached (SNC-9.6.2)."""
    steps = step_choices(t, s, here, s.mp, near_jp_ok=near_jp_ok)
    if not _to_overrun(s):
        return steps
    return [n for n in steps if _overrun_ahead(t, entered(t, s, here, n), {})]


def _may_form(t: Tables, s: SNCState, units: tuple[str, ...], here: Hex) -> bool:
    """`units` of `here` have a first hex together (under units_only, toward an overrun; only
    the Japanese overrun, SNC-9.6.1)."""
    units_only = s.variant.is_("stack_movement", "units_only")
    if s.side != JP and units_only:
        return False
    if units_only or s.overrun_next == "owed":  # toward an overrun: the group's own search
        g = evolve(s, moving=units, mp=FULL_MP, step=Step.GROUP)
        return bool(group_steps(t, g, here))
    return bool(group_step_choices(t, s, units, here, FULL_MP, near_jp_ok=True))


def group_joins(t: Tables, s: SNCState) -> list[Join]:
    """The units that may open a group (a Move phase, no move under way) or join the one being
    formed: any unit of its hex that may start a move, in any order, as an attack's attackers
    join; only where the hex's movable units all together have a first hex, so that a group
    being formed can always be completed (at worst by all of them)."""
    if s.phase not in (Phase.OPS1, Phase.OPS2) or s.ops_kind() != "move" or s.combat:
        return []
    # SNC-9.0.6, SNC-9.1.1, SNC-9.0.10: the units of a hex that may start a move now
    mobile = movers(t, s)
    if s.step == Step.GROUP:
        here = locations(s.where)[s.moving[0]]
        groups = [(here, mobile.get(here, ()))]
    elif s.step == Step.MAIN and not s.moving:
        groups = list(mobile.items())
    else:
        return []
    out: list[Join] = []
    for here, mine in groups:
        if len(mine) > 1 and _may_form(t, s, mine, here):
            out.extend(Join(u) for u in mine if u not in s.moving)
    return out


def group_actions(t: Tables, s: SNCState) -> list[Action]:
    """`Step.GROUP`: a unit joins, or the group of two or more makes its first hex together (one
    unit moves by itself, SNC-9.0.10, SNC-9.6.2)."""
    here = locations(s.where)[s.moving[0]]
    moves = [Move(s.moving, h) for h in group_steps(t, s, here)] if len(s.moving) > 1 else []
    return [*group_joins(t, s), *moves]


def join_group(t: Tables, s: SNCState, unit: str) -> SNCState:
    """`Join(unit)` in a Move phase opens the group or adds to it (SNC-9.0.10, SNC-9.6.2)."""
    return evolve(s, moving=(*s.moving, unit), mp=FULL_MP, step=Step.GROUP)


def why_not(t: Tables, s: SNCState, action: Action) -> IllegalAction | None:
    """The rule a refused step of a group moving together breaks; None for the others."""
    moving = s.phase in (Phase.OPS1, Phase.OPS2) and s.ops_kind() == "move"
    if isinstance(action, Join) and s.step in (Step.MAIN, Step.GROUP) and moving:
        return illegal(
            f"{action.unit} may not join a group moving together: a unit of the group's hex "
            "not yet moved, in a Move phase; under stack_movement=units_only only a Japanese "
            "group going to overrun",
            "SNC-9.0.10",
            "SNC-9.6.2",
        )
    m = action
    if isinstance(m, Move) and m.units == s.moving and len(m.units) > 1 and _to_overrun(s):
        here = locations(s.where)[s.moving[0]]
        raw = step_choices(t, s, here, s.mp, near_jp_ok=True)
        if m.to in raw and m.to not in group_steps(t, s, here):
            return illegal(
                f"from {m.to} no overrun can be reached: under stack_movement=units_only "
                "a group moves together only to the hex it overruns from",
                "SNC-9.6.2",
            )
    if s.step == Step.GROUP:
        return illegal(
            "the group is being formed: Join a unit, or Move the group (two units or more) "
            "to its first hex",
            "SNC-9.0.10",
            "SNC-9.6.2",
        )
    if isinstance(action, Done) and s.moving and s.overrun_next == "owed":
        return illegal(
            "the group moved together to overrun (stack_movement=units_only): it overruns "
            "before it stops",
            "SNC-9.6.2",
        )
    return None


def stop(t: Tables, s: SNCState) -> SNCState:
    """The move under way ends: its units have moved this phase (SNC-9.0.10); a
    reinforcement's limited move is used up (SNC-8.2.2)."""
    moved = frozenset(s.moving)
    to = locations(s.where)[s.moving[0]]
    s = evolve(
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
    if s.side == JP and control.garrison_at_stop(s.variant):
        g = control.garrison_to_place(t.board, t.data, stacks(s.where), s.dead, to)
        if g is not None:
            s = put(s, {g: to})  # SNC-9.1.3: the group occupies the city its move ends in
    return s
