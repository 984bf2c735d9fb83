"""What every step of play looks up and changes, over the pure rules modules.

The rules live in the pure modules, which take the data, the board, the variant and the stacks
and return values: ZOC (`zoc.py`), movement (`movement.py`), odds (`odds.py`), losses
(`losses.py`), control (`control.py`) and the rest. This module adapts an `SNCState` to them:
`Tables` holds what the rules look up per data set; the views of a position (`stacks`,
`locations`, the hexes and ZOC of a side) are cached by position; `battle` and `crt` read the
combat under way; `put`, `trt_without`, `arrive`, `eliminate` and `take_step` are the changes
the steps of play (`sequence.py` and the `*_steps.py` modules) make to a position.
"""

from __future__ import annotations

import bisect
import functools
import operator
from bisect import bisect_left
from collections.abc import Iterable, Mapping
from typing import Any

from kernel.hexes import Hex
from kernel.variants import Variant
from specs.snc1937.data.counters import UnitSpec
from specs.snc1937.data.loader import SNCData
from specs.snc1937.data.setup_data import Reinforcement
from specs.snc1937.rules import control, losses, movement, odds, position_views, zoc
from specs.snc1937.rules.board import Board
from specs.snc1937.rules.memo import identity_memo, peek
from specs.snc1937.rules.odds import Odds
from specs.snc1937.rules.position_views import Where as Where
from specs.snc1937.rules.position_views import locations as locations
from specs.snc1937.rules.position_views import made_from
from specs.snc1937.rules.position_views import stacks as stacks
from specs.snc1937.rules.state import CH, JP, Combat, SNCState, evolve, other


class Tables:
    """What the rules look up per data set, built once (the Board, unit specs, reinforcement
    records by unit, marker holdings, the Japanese garrison pool, the landing hexes)."""

    def __init__(self, data: SNCData) -> None:
        self.data = data
        self.board = Board(data)
        self.spec: dict[str, UnitSpec] = {u.id: u for u in data.units}
        self.order: dict[str, int] = {u.id: i for i, u in enumerate(data.units)}
        self.record: dict[str, Reinforcement] = {
            u: r for r in data.setup.reinforcements for u in r.units
        }
        self.jp_garrisons = tuple(u.id for u in data.units if u.side == JP and u.is_static)
        self.landings = tuple(sorted(data.map.landings))
        # each mobile unit's side: static units never move (SNC-2.2.1.8, SNC-9.1.1)
        self.mobile_side = {u.id: u.side for u in data.units if not u.is_static}
        self.side_of = {u.id: u.side for u in data.units}

        # looked up by the variant's identity: hashing a Variant on every step cost more
        self.steps = identity_memo(self._steps)

    @functools.cache  # noqa: B019 - one Tables per data set, kept for the process
    def _steps(self, v: Variant, side: str) -> dict[Hex, tuple[tuple[Hex, int], ...]]:
        """Each hex's neighbours a unit of `side` may enter, with the cost in half-MP: the step
        costs of `movement.py` (SNC-9.3.2 to SNC-9.5.1.2; chinese_roads, road_and_creek),
        rescaled from its ticks."""
        ticks, scale = movement.side_steps(self.board, self.data, v, side)
        if 2 % scale:
            raise AssertionError(f"step costs finer than 1/2 MP ({scale} ticks per MP)")
        k = 2 // scale
        return {h: tuple((n, c * k) for n, c in row) for h, row in ticks.items()}

    def cf(self, unit: str, reduced: frozenset[str]) -> int:
        """The unit's current combat factor (SNC-2.2.1.x): its reduced side once reduced."""
        spec = self.spec[unit]
        if unit in reduced and spec.reduced is not None:
            return spec.reduced
        return spec.cf

    def two_step(self, unit: str, reduced: frozenset[str], v: Variant) -> bool:
        """Still showing the front of a two-step counter (static_steps, AMB-SNC-33)."""
        return losses.printed_steps(self.spec[unit], v) == 2 and unit not in reduced  # SNC-2.2.1.11

    def markers(self, side: str, kind: str, turn: int) -> int:
        """Markers of a kind the side holds in GT `turn` (SNC-3.1.3, SNC-8.5.1)."""
        return sum(  # SNC-3.1.3: at-start markers from GT 1; SNC-8.5.1: the rest from their GT
            m.count
            for m in self.data.setup.markers
            if m.side == side and m.kind == kind and (m.gt is None or m.gt <= turn)
        )


# --- views of a position -------------------------------------------------------------------------


# The views of a position (`stacks`, `locations`: `position_views.py`) are cached by position;
# the bench's cold runs empty their caches here by these names.
_stacks = position_views._stacks
_locations = position_views._locations


def side_of_hex(t: Tables, s: SNCState, h: Hex) -> str | None:
    units = stacks(s.where).get(h)
    return t.spec[units[0]].side if units else None


Sides = tuple[frozenset[Hex], frozenset[Hex], frozenset[Hex], frozenset[Hex]]


@identity_memo
def _hexes_by_side(where: Where, t: Tables) -> Sides:
    """The hexes whose first unit is Chinese, Japanese (`side_hexes`), and those holding any
    Chinese, any Japanese unit (what `zoc.zoc_hexes` reads); the same pairs unless a hex
    mixes both sides, which play never makes (SNC-9.0.12) but a made-up position may. A
    position `put` made from one whose sides are known is worked out from those
    (`_moved_sides`)."""
    made = made_from(where)
    if made is not None:
        before = peek(_hexes_by_side, made[1], t)
        if before is not None:
            after = _moved_sides(where, t, made[1], made[2], before)
            if after is not None:
                return after
    return _all_sides(where, t)


def _moved_sides(
    where: Where, t: Tables, old: Where, moves: Mapping[str, Hex | None], before: Sides
) -> Sides | None:
    """`_all_sides` of `where`, made from `old` by `moves`, from the sides of `old`
    (`before`): only the hexes units left or entered can change. None when a hex holds both
    sides, before or after (the full reading then decides)."""
    ch, jp, any_ch, any_jp = before
    if ch is not any_ch or jp is not any_jp:
        return None  # `old` mixes sides somewhere
    was = locations(old)
    touched = {h for h in moves.values() if h is not None}
    for u in moves:
        h = was.get(u)
        if h is not None:
            touched.add(h)
    st = stacks(where)
    side = t.side_of
    now_ch: set[Hex] = set()
    now_jp: set[Hex] = set()
    for h in touched:
        us = st.get(h)
        if not us:
            continue
        first = side[us[0]] == CH
        for u in us:
            if (side[u] == CH) != first:
                return None  # a hex of both sides
        (now_ch if first else now_jp).add(h)
    if now_ch != touched & ch:
        ch = frozenset((ch - touched) | now_ch)
    if now_jp != touched & jp:
        jp = frozenset((jp - touched) | now_jp)
    return ch, jp, ch, jp


def _all_sides(where: Where, t: Tables) -> Sides:
    ch: set[Hex] = set()
    jp: set[Hex] = set()
    side = t.side_of
    for u, h in where:
        (ch if side[u] == CH else jp).add(h)
    any_ch, any_jp = frozenset(ch), frozenset(jp)
    if not any_ch & any_jp:
        return any_ch, any_jp, any_ch, any_jp
    st = stacks(where)  # a hex of both sides: its first unit says whose it is
    first_ch = frozenset(h for h, us in st.items() if side[us[0]] == CH)
    return first_ch, frozenset(st) - first_ch, any_ch, any_jp


def side_hexes(where: tuple[tuple[str, Hex], ...], t: Tables, side: str) -> frozenset[Hex]:
    """The hexes whose units are `side`'s (a hex holds one side's units only, SNC-9.0.12;
    read from its first unit)."""
    ch, jp, _, _ = _hexes_by_side(where, t)
    return ch if side == CH else jp if side == JP else frozenset()


def occupied_by(
    where: tuple[tuple[str, Hex], ...], t: Tables
) -> tuple[frozenset[Hex], frozenset[Hex]]:
    """The hexes holding any Chinese unit, and any Japanese one."""
    _, _, ch, jp = _hexes_by_side(where, t)
    return ch, jp


@identity_memo
def _movers(
    t: Tables, where: tuple[tuple[str, Hex], ...], done: frozenset[str], side: str
) -> dict[Hex, tuple[str, ...]]:
    out: list[tuple[Hex, tuple[str, ...]]] = []
    mobile = t.mobile_side.get
    for h, us in stacks(where).items():
        if len(us) == 1:  # most hexes hold one unit: its own tuple serves
            if mobile(us[0]) == side and us[0] not in done:
                out.append((h, us))
            continue
        mine = tuple([u for u in us if mobile(u) == side and u not in done])
        if mine:
            out.append((h, mine))
    out.sort(key=_first)  # in hex order
    return dict(out)


def movers(t: Tables, s: SNCState) -> dict[Hex, tuple[str, ...]]:
    """Hex by hex, in hex order, the phasing side's units that may start a move now: mobile
    (SNC-2.2.1.8, SNC-9.1.1: static units never move), not yet moved this phase (SNC-9.0.10),
    in the stack's order (shared: never change the dict returned)."""
    return _movers(t, s.where, s.done, s.side)


@identity_memo
def zoc_of_where(
    t: Tables, where: tuple[tuple[str, Hex], ...], v: Variant, side: str
) -> frozenset[Hex]:
    """The hexes in the ZOC of `side`'s units in the position `where` (`zoc_of`):
    `zoc.zoc_hexes` from the cached hexes each side occupies (no cache by value: the union
    underneath is cached by its sources, and hashing the position would cost more)."""
    return zoc.zoc_from(t.board, v, *occupied_by(where, t), side)


_zoc = zoc_of_where


def zoc_of(t: Tables, s: SNCState, side: str) -> frozenset[Hex]:
    """The hexes in the ZOC of `side`'s units (SNC-7.0.1 to SNC-7.1.5, through `zoc.py`;
    city_zoc, AMB-SNC-18)."""
    return _zoc(t, s.where, s.variant, side)


@identity_memo
def _move_ezoc(
    t: Tables, where: tuple[tuple[str, Hex], ...], v: Variant, units: tuple[str, ...], here: Hex
) -> tuple[frozenset[Hex], frozenset[Hex]]:
    """`movement.movement_ezoc` for a group of one side's units (as every mover is,
    SNC-9.0.6) from the cached hexes of each side: the enemy's hexes do not
    change as the group leaves its own (SNC-7.2.2: only enemy units project the EZOC), so for
    a Chinese group both sets are the Japanese ZOC; for a Japanese group only SNC-7.1.5's
    shield changes: its start hex stops shielding once the group leaves it empty, and under
    ngl_zoc_entry=occupied_on_entry every hex within the Naval Gunfire Line shields."""
    side = t.spec[units[0]].side
    at_start = _zoc(t, where, v, other(side))
    if side != JP:
        return at_start, at_start
    chinese, japanese = occupied_by(where, t)
    if all(u in units or t.side_of[u] == CH for u in stacks(where).get(here, ())):
        japanese = japanese - {here}  # no Japanese unit left behind
    if v.is_("ngl_zoc_entry", "occupied_on_entry"):
        japanese = japanese | zoc.ngl_hexes(t.board)
    stop = zoc.zoc_from(t.board, v, chinese, japanese, CH)
    return stop, at_start


def move_ezoc(
    t: Tables, s: SNCState, units: tuple[str, ...], here: Hex
) -> tuple[frozenset[Hex], frozenset[Hex]]:
    """The EZOC hexes that stop the moving group `units` in `here`, and those it starts in
    (`movement.movement_ezoc`: SNC-7.2.1 to SNC-7.2.3, SNC-7.1.5; ngl_zoc_entry)."""
    return _move_ezoc(t, s.where, s.variant, units, here)


# --- the combat under way (SNC-10.3.x, SNC-10.4.x, SNC-10.5.0.1) ---------------------------------


def battle(t: Tables, s: SNCState, c: Combat) -> Odds:
    """The combat's odds through `odds.py` (SNC-10.3.x, SNC-10.4.x, SNC-8.4.0.5,
    SNC-11.1.2): the attackers' markers net of aborted air (SNC-11.3.2), the defender's; an
    overrun's extra 1L (SNC-9.6.5)."""
    st = stacks(s.where)
    defenders = st.get(c.target) or c.defenders
    a_markers = len(c.support_a) - c.aborted
    d_markers = len(c.support_d)
    if c.landing:
        return odds.landing_odds(
            t.data, t.board, s.variant, c.target, c.attackers, defenders, s.reduced,
            attacker_markers=a_markers, defender_markers=d_markers,
        )  # fmt: skip
    loc = locations(s.where)
    return odds.battle_odds(
        t.data, t.board, s.variant, c.target, {u: loc[u] for u in c.attackers},
        {**st, c.target: defenders}, s.reduced, overrun=c.overrun,
        attacker_markers=a_markers, defender_markers=d_markers,
    )  # fmt: skip


def odds_column(t: Tables, s: SNCState, c: Combat) -> str:
    """The final CRT column label (SNC-10.3.1.1; AMB-SNC-2)."""
    return odds.column_label(battle(t, s, c).column)


def crt(t: Tables, s: SNCState, c: Combat, face: int) -> tuple[int, int]:
    """Steps lost (attacker, defender) for the die (SNC-10.5.0.1, SNC-10.5.1.1; the 5:1
    errata per crt_5to1_six, SNC-0.0.4)."""
    return odds.crt_result(t.data, s.variant, battle(t, s, c).column, face)


# --- changes to a position -----------------------------------------------------------------------


def put(s: SNCState, moves: Mapping[str, Hex | None], **changes: Any) -> SNCState:
    """Units placed on (a hex) or taken off (None) the map, with other `changes`; a unit off
    the map is on top of nothing. The pairs of the units that stay are reused, not rebuilt:
    a pair holds a `Hex`, which the cyclic collector tracks for ever, so rebuilding every pair
    on every change filled the collector's old generation (issue 34)."""
    kept = _without(s.where, moves)
    for u, h in moves.items():
        if h is not None:
            bisect.insort(kept, (u, h), key=_unit_of)  # `where` stays sorted by unit
    where = tuple(kept)
    position_views.record(where, s.where, dict(moves))
    gone = {u for u, h in moves.items() if h is None}
    if gone & set(s.on_top):
        changes["on_top"] = tuple(u for u in s.on_top if u not in gone)
        changes["topped"] = s.topped - gone
    return evolve(s, where=where, **changes)


_unit_of = operator.itemgetter(0)


def _without(where: Where, units: Iterable[str]) -> list[tuple[str, Hex]]:
    """The pairs of `where` but those of `units`, found by bisection (`where` is sorted by
    unit); a position not so sorted (made up by hand) is filtered pair by pair."""
    kept = list(where)
    for u in units:
        i = bisect_left(kept, u, key=_unit_of)
        if i < len(kept) and kept[i][0] == u:
            del kept[i]
        elif any(p[0] == u for p in kept):
            return [p for p in where if p[0] not in set(units)]
    return kept


def _first(pair: tuple[Hex, tuple[str, ...]]) -> Hex:
    return pair[0]


def trt_without(s: SNCState, units: Iterable[str]) -> tuple[tuple[str, int], ...]:
    gone = set(units)
    return tuple(p for p in s.trt if p[0] not in gone)


def arrive(t: Tables, s: SNCState, side: str, hexes: Iterable[Hex], how: str) -> SNCState:
    """Units of `side` came to be in `hexes` by `how` (`control.ARRIVALS`): control passes if
    that counts as entering (`control.after_arrival`: SNC-3.2.2; control_entry, AMB-SNC-16),
    and a Japanese unit entering a city brings a garrison (`control.garrison_to_place`:
    SNC-9.1.3; AMB-SNC-37)."""
    hexes = tuple(hexes)
    held = control.after_arrival(s.jp_control, side, hexes, how, s.variant)
    if held is not s.jp_control and held != s.jp_control:
        s = evolve(s, jp_control=held)
    if side == JP and control.garrison_on_arrival(how, s.variant):
        for h in hexes:
            g = control.garrison_to_place(t.board, t.data, stacks(s.where), s.dead, h)
            if g is not None:
                s = put(s, {g: h})
    return s


def eliminate(t: Tables, s: SNCState, units: Iterable[str]) -> SNCState:
    """Units go to the dead pile; a Chinese elite unit waits for its return die (SNC-8.1.2)."""
    units = list(units)
    s = put(s, {u: None for u in units})
    elite = tuple(u for u in units if t.spec[u].arm == "elite")
    dead = frozenset(u for u in units if u not in elite)
    return evolve(
        s,
        dead=s.dead | dead,  # SNC-2.2.1.13: the dead pile; SNC-8.3.3: never to return
        elite=s.elite + elite,
        trt=trt_without(s, units),
        reduced=s.reduced - dead,
    )


def take_step(t: Tables, s: SNCState, unit: str) -> SNCState:
    """One step off a unit: a full two-step unit flips, anything else is eliminated
    (SNC-2.2.1.12, SNC-2.2.1.13) and never returns (SNC-8.3.3, SNC-8.0.3) unless an elite
    Chinese unit (SNC-8.1.2)."""
    if t.two_step(unit, s.reduced, s.variant):  # SNC-2.2.1.12: a full two-step unit flips
        return evolve(s, reduced=s.reduced | {unit})
    # SNC-2.2.1.13: any other is eliminated; SNC-8.0.3: only a step loss takes it off
    return eliminate(t, s, [unit])


def leave_move(s: SNCState, unit: str) -> SNCState:
    """`unit` drops out of the move under way (eliminated in its overrun, or culled); the move
    has no MP left once its last unit is gone."""
    rest = tuple(u for u in s.moving if u != unit)
    return evolve(s, moving=rest, mp=s.mp if rest else 0)
