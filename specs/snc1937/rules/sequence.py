"""The SNC's sequence of play (SNC-5.x): pure functions from a state (and an action's
arguments) to the next state, used by `rules.SNC`.

The rules themselves live in the pure modules, which take the data, the board, the variant and
the stacks and return values: ZOC (`zoc.py`), movement (`movement.py`), attacks
(`combat_query.py`), odds (`odds.py`), fire support (`fire_support.py`), losses (`losses.py`),
stacking (`stacking.py`), retreats (`retreat.py`), LoCs and placement (`loc.py`), control
(`control.py`) and victory (`victory.py`). The helpers here only adapt an `SNCState` to them
(position-keyed caches included) and keep what the sequence of play tracks: which markers are
used, which units have acted, whose step it is.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from kernel.game import Outcome
from kernel.hexes import Hex
from kernel.variants import Variant
from specs.snc1937.data.loader import Reinforcement, SNCData, UnitSpec
from specs.snc1937.rules import (
    advance,
    combat_query,
    control,
    fire_support,
    loc,
    losses,
    movement,
    odds,
    stacking,
    victory,
    zoc,
)
from specs.snc1937.rules.board import Board
from specs.snc1937.rules.odds import Odds
from specs.snc1937.rules.state import (
    CH,
    JP,
    Combat,
    Order,
    Phase,
    SNCState,
    Step,
    other,
)

MF_MOBILE = 8  # SNC-9.0.1
SUPPORT_ORDER = ("air", "artillery", "naval_gunfire", "amphibious")  # the listing's order


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

    @functools.cache  # noqa: B019 - one Tables per data set, kept for the process
    def steps(self, v: Variant, side: str) -> dict[Hex, tuple[tuple[Hex, int], ...]]:
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


# --- positions -----------------------------------------------------------------------------------


@functools.lru_cache(maxsize=8192)
def stacks(where: tuple[tuple[str, Hex], ...]) -> dict[Hex, tuple[str, ...]]:
    out: dict[Hex, list[str]] = {}
    for unit, h in where:
        out.setdefault(h, []).append(unit)
    return {h: tuple(us) for h, us in out.items()}


@functools.lru_cache(maxsize=8192)
def locations(where: tuple[tuple[str, Hex], ...]) -> dict[str, Hex]:
    return dict(where)


def side_of_hex(t: Tables, s: SNCState, h: Hex) -> str | None:
    units = stacks(s.where).get(h)
    return t.spec[units[0]].side if units else None


def put(s: SNCState, moves: Mapping[str, Hex | None], **changes: Any) -> SNCState:
    """Units placed on (a hex) or taken off (None) the map, with other `changes`; a unit off
    the map is on top of nothing."""
    where = {u: h for u, h in s.where if u not in moves}
    where.update({u: h for u, h in moves.items() if h is not None})
    gone = {u for u, h in moves.items() if h is None}
    if gone & set(s.on_top):
        changes["on_top"] = tuple(u for u in s.on_top if u not in gone)
        changes["topped"] = s.topped - gone
    return attrs.evolve(s, where=tuple(sorted(where.items())), **changes)


def top_first(t: Tables, s: SNCState, units: Iterable[str]) -> tuple[str, ...]:
    """A stack top unit first (SNC-6.3.1): the one its owner last put on top (AMB-SNC-40: the
    owner chooses), else the first in the data's order; the rest beneath in the data's
    order (their order is insignificant, SNC-6.4.1)."""
    ordered = sorted(units, key=t.order.__getitem__)  # SNC-6.4.1: any order will do, data's
    top = next((u for u in s.on_top if u in ordered), None)
    if top is None:
        return tuple(ordered)
    return (top, *(u for u in ordered if u != top))


def trt_without(s: SNCState, units: Iterable[str]) -> tuple[tuple[str, int], ...]:
    gone = set(units)
    return tuple(p for p in s.trt if p[0] not in gone)


# --- zones of control (SNC-7.x) ------------------------------------------------------------------


@functools.lru_cache(maxsize=8192)
def side_hexes(where: tuple[tuple[str, Hex], ...], t: Tables, side: str) -> frozenset[Hex]:
    return frozenset(h for h, us in stacks(where).items() if t.spec[us[0]].side == side)


@functools.lru_cache(maxsize=8192)
def _zoc(t: Tables, where: tuple[tuple[str, Hex], ...], v: Variant, side: str) -> frozenset[Hex]:
    return zoc.zoc_hexes(t.board, t.data, v, stacks(where), side)


def zoc_of(t: Tables, s: SNCState, side: str) -> frozenset[Hex]:
    """The hexes in the ZOC of `side`'s units (SNC-7.0.1 to SNC-7.1.5, through `zoc.py`;
    city_zoc, AMB-SNC-18)."""
    return _zoc(t, s.where, s.variant, side)


@functools.lru_cache(maxsize=8192)
def _move_ezoc(
    t: Tables, where: tuple[tuple[str, Hex], ...], v: Variant, units: tuple[str, ...], here: Hex
) -> tuple[frozenset[Hex], frozenset[Hex]]:
    return movement.movement_ezoc(t.board, t.data, v, stacks(where), units, here)


# --- stacking (SNC-6.x) --------------------------------------------------------------------------


def overstacked(t: Tables, v: Variant, units: tuple[str, ...]) -> bool:
    """Whether one side's units in a hex break the limit (SNC-6.2.1 to SNC-6.2.4, through
    `stacking.py`: static_de, japanese_stack, snlf_partial_division)."""
    return bool(units) and not stacking.within_limits(units, t.data, v)


def overstacked_hexes(t: Tables, s: SNCState, hexes: Iterable[Hex], side: str) -> list[Hex]:
    st = stacks(s.where)
    return [
        h
        for h in hexes
        if (us := st.get(h)) and t.spec[us[0]].side == side and overstacked(t, s.variant, us)
    ]


# --- combat (SNC-10.x, SNC-11.x) -----------------------------------------------------------------


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


def loss_choices(t: Tables, v: Variant, units: Iterable[str], reduced: frozenset[str]) -> list[str]:
    """Units that may take the next step loss: `losses.next_loss` (SNC-10.5.2.1 to
    SNC-10.5.2.3; loss_order and strength_measure, AMB-SNC-28)."""
    return list(losses.next_loss(t.data, v, units, reduced))


def eliminate(t: Tables, s: SNCState, units: Iterable[str]) -> SNCState:
    """Units go to the dead pile; a Chinese elite unit waits for its return die (SNC-8.1.2)."""
    units = list(units)
    s = put(s, {u: None for u in units})
    elite = tuple(u for u in units if t.spec[u].arm == "elite")
    dead = frozenset(u for u in units if u not in elite)
    return attrs.evolve(
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
        return attrs.evolve(s, reduced=s.reduced | {unit})
    return eliminate(t, s, [unit])  # SNC-2.2.1.13: any other is eliminated


def support_kinds(t: Tables, s: SNCState, c: Combat, defending: bool) -> list[str]:
    """Markers the side may add now: `fire_support.eligible_kinds` (SNC-11.0.1 to SNC-11.1.6,
    SNC-11.4.x; AMB-SNC-32) among those it still holds this phase (SNC-11.1.5, SNC-3.1.3;
    fire_support_refresh, AMB-SNC-7), none of the attacker's in a Second Operations Phase under
    first_phase_only, and after Japanese support in the First Operations Phase only amphibious
    support in the Reinforcement Phase (SNC-8.5.2, SNC-8.4.0.6). Listed air, artillery, naval
    gunfire, amphibious."""
    v = s.variant
    side = other(s.side) if defending else s.side
    used_now = c.support_d if defending else c.support_a
    available = [  # SNC-11.1.3: one of a kind per combat; SNC-11.1.5: set-aside ones are not held
        k
        for k in fire_support.KINDS
        if k not in used_now and t.markers(side, k, s.turn) > s.used.count(f"{side}:{k}")
    ]
    if not defending:
        if s.phase == Phase.OPS2 and v.is_("fire_support_refresh", "first_phase_only"):
            return []
        if side == JP and s.phase == Phase.REINF and s.jp_support_ops1:
            # SNC-8.4.0.6, SNC-11.1.6: a landing may still add the amphibious marker
            available = [k for k in available if k == fire_support.AMPHIBIOUS]  # SNC-8.5.2
    where = locations(s.where)
    found = fire_support.eligible_kinds(
        t.board, v, owner=side, attacking=not defending, target=c.target,
        attacker_hexes=frozenset(where[u] for u in c.attackers if u in where),
        landing=c.landing, available=available,
    )  # fmt: skip
    return sorted(found, key=SUPPORT_ORDER.index)


# --- control, garrisons and victory (SNC-3.2.x, SNC-9.1.3, SNC-4.x) ------------------------------


def arrive(t: Tables, s: SNCState, side: str, hexes: Iterable[Hex], how: str) -> SNCState:
    """Units of `side` came to be in `hexes` by `how` (`control.ARRIVALS`): control passes if
    that counts as entering (`control.after_arrival`: SNC-3.2.2; control_entry, AMB-SNC-16),
    and a Japanese unit entering a city brings a garrison (`control.garrison_to_place`:
    SNC-9.1.3; AMB-SNC-37)."""
    hexes = tuple(hexes)
    held = control.after_arrival(s.jp_control, side, hexes, how, s.variant)
    if held != s.jp_control:
        s = attrs.evolve(s, jp_control=held)
    if side == JP and control.takes_control(how, s.variant):
        for h in hexes:
            g = control.garrison_to_place(t.board, t.data, stacks(s.where), s.dead, h)
            if g is not None:
                s = put(s, {g: h})
    return s


def sudden_death(
    t: Tables, s: SNCState, *, end_of_phase: bool = False, entered: Iterable[Hex] = ()
) -> Outcome | None:
    """The Chinese sudden-death victory (`victory.sudden_victory`: SNC-4.1.1, SNC-4.1.2;
    `entered` are the hexes Chinese units just moved or advanced into, for
    gt8_adjacency=must_gain, AMB-SNC-14) and defeat (`victory.sudden_defeat`: SNC-4.2.1),
    the defeat looked at after each action or at phase ends per `sudden_defeat_timing`
    (AMB-SNC-15)."""
    st = stacks(s.where)
    won = victory.sudden_victory(t.board, t.data, st, s.jp_control, s.turn, s.variant, entered)
    if won is not None:
        return won
    if end_of_phase or s.variant.is_("sudden_defeat_timing", "after_each_action"):
        return victory.sudden_defeat(t.board, t.data, st, s.turn, s.variant)
    return None


def victory_check(t: Tables, s: SNCState) -> Outcome | None:
    """The Victory Check Phase (`victory.victory_check`: SNC-4.3.1 to SNC-4.3.3)."""
    return victory.victory_check(t.board, t.data, stacks(s.where), s.jp_control, s.turn, s.variant)


# --- the sequence of play (SNC-5.x) --------------------------------------------------------------


def initial_state(t: Tables, variant: Variant) -> SNCState:
    """Set-up (SNC-3.1.1 to SNC-3.1.5, SNC-13.x): at-start units on their hexes (SNC-3.1.4),
    the reinforcements in the TRT box of their GT (SNC-3.1.2, SNC-8.0.1); the Japanese control
    their two hexes (SNC-3.2.1)."""
    # SNC-3.1.4, SNC-3.1.5: the at-start units on their section 13 hexes
    where = {u: h for a in t.data.setup.at_start for u, h in a.place.items()}
    # SNC-3.1.2, SNC-8.0.1: each reinforcement in the TRT box of its GT
    trt = sorted((u, r.gt) for r in t.data.setup.reinforcements for u in r.units)
    jp = frozenset(h for u, h in where.items() if t.spec[u].side == JP)  # SNC-3.2.1
    return SNCState(
        variant=variant,
        turn=1,  # SNC-3.1.1: the Turn marker in box 1
        side=CH,
        phase=Phase.DECLARE,
        step=Step.MAIN,
        order=None,
        where=tuple(sorted(where.items())),
        trt=tuple(trt),
        dead=frozenset(),
        reduced=frozenset(),
        jp_control=jp,
    )


def _phase_reset(s: SNCState, refresh: bool) -> SNCState:
    used = () if refresh else s.used
    return attrs.evolve(
        s,
        step=Step.MAIN,
        done=frozenset(),
        attacked=frozenset(),
        ch_air_used=False,
        used=used,
        arrived=frozenset(),
        movable=frozenset(),
        replacements=0,
        overrun_next="",
        overrun_target=None,
        overrun_hexes=frozenset(),
    )


def declare(t: Tables, s: SNCState, order: Order) -> SNCState:
    """The phase-order declaration (SNC-5.3.1, SNC-5.3.3); markers come back at the start of
    the player turn (SNC-8.5.1; AMB-SNC-7)."""
    v = s.variant
    refresh = not v.is_("fire_support_refresh", "each_operations_phase")
    # SNC-5.3.1, SNC-5.3.3: one phase order for the player turn, for all his units
    s = attrs.evolve(s, order=order, phase=Phase.OPS1, jp_support_ops1=False)
    # SNC-8.5.1: the markers come back at the start of the player turn
    return _phase_reset(s, refresh or v.is_("fire_support_refresh", "each_operations_phase"))


def end_ops(t: Tables, s: SNCState) -> SNCState:
    """The end of an Operations Phase: a Move phase ends with the mover's stacking check
    (SNC-6.0.2 (a)); then the next phase. The check's hexes are recorded in `checked`."""
    if s.ops_kind() == "move":  # SNC-6.0.2 (a): the check at the end of a Move phase
        st = stacks(s.where)
        checked = stacking.hexes_to_check(st, t.data, s.variant, phasing=s.side)
        s = attrs.evolve(s, checked=checked)
        bad = stacking.overstacked(st, checked, t.data, s.variant)
        if bad:
            return attrs.evolve(s, step=Step.STACK, stack_hexes=tuple(bad), after_stack="phase")
    return next_phase(t, s)


def next_phase(t: Tables, s: SNCState) -> SNCState:
    """Move on in the sequence of play (SNC-5.1.1, SNC-5.2.1)."""
    if s.variant.is_("sudden_defeat_timing", "end_of_phase"):
        found = sudden_death(t, s, end_of_phase=True)
        if found is not None:
            return attrs.evolve(s, phase=Phase.OVER, step=Step.MAIN, result=found)
    s = attrs.evolve(s, stack_hexes=(), after_stack="", combat=None)
    if s.phase == Phase.OPS1:  # SNC-5.1.1: (A) First Operations, then (B) Reinforcement
        return start_reinforcements(t, attrs.evolve(s, phase=Phase.REINF, step=Step.MAIN))
    if s.phase == Phase.REINF:
        refresh = s.variant.is_("fire_support_refresh", "each_operations_phase")
        # this Reinforcement Phase's arrivals that acted in it (a unit of the First Operations
        # Phase is free again): Chinese that moved, Japanese that landed by combat
        # (landing_is_attack=counts)
        moved = s.done & s.arrived
        s = _phase_reset(attrs.evolve(s, phase=Phase.OPS2), refresh)
        if s.side == JP:
            if s.ops_kind() == "fight":
                s = attrs.evolve(s, done=moved)  # AMB-SNC-12: a landing was their attack
        elif s.ops_kind() == "move" and s.variant.is_(
            "reinforcement_actions", "second_phase_order"
        ):
            s = attrs.evolve(s, done=moved)  # AMB-SNC-38: moved once in the Reinforcement Phase
        return s
    if s.side == CH:  # SNC-5.1.1: the Chinese player turn (I), then the Japanese one (II)
        return attrs.evolve(s, side=JP, phase=Phase.DECLARE, step=Step.MAIN, order=None)
    found = victory_check(t, s)  # II.D Victory Check Phase
    if found is not None:  # SNC-5.2.2: the game ends (a Japanese win, or GT 12 is over)
        return attrs.evolve(s, phase=Phase.VICTORY, step=Step.MAIN, result=found)
    return attrs.evolve(
        s, turn=s.turn + 1, side=CH, phase=Phase.DECLARE, step=Step.MAIN, order=None
    )  # SNC-5.2.1


def due(s: SNCState, side: str, t: Tables) -> list[str]:
    """Reinforcements of `side` in this GT's box or earlier (SNC-5.4.1, SNC-8.0.4)."""
    return [u for u, gt in s.trt if gt <= s.turn and t.spec[u].side == side]  # SNC-8.0.4


def start_reinforcements(t: Tables, s: SNCState) -> SNCState:
    """The Reinforcement Phase opens: for the Chinese, from GT 3, air interdiction with
    Chinese air support first (SNC-11.2.1, SNC-11.3.3); for the Japanese, replacements first
    (SNC-8.3.1, SNC-8.3.4)."""
    if s.side == CH:
        if s.turn >= 3 and _arrivals(t, s):
            if s.ch_air and not (s.ch_air_used and s.variant.is_("chinese_air", "once_per_phase")):
                return attrs.evolve(s, step=Step.AIR_DEFENCE)  # SNC-11.3.3: Chinese air first
            return attrs.evolve(s, step=Step.INTERDICT_ROLL)  # SNC-11.2.1: from GT 3
        return s
    s = attrs.evolve(s, replacements=2 if s.turn >= 3 else 0)  # SNC-8.3.1: 2 steps from GT 3
    if s.variant.is_("replacement_timing", "any_time"):
        return s  # Replace among the phase's actions (AMB-SNC-20 (iii))
    if replace_choices(t, s):
        return attrs.evolve(s, step=Step.REPLACE)  # SNC-8.3.4: replacements come first
    return attrs.evolve(s, replacements=0)


def _arrivals(t: Tables, s: SNCState) -> list[str]:
    """This GT's arriving Chinese reinforcements, delayed ones included, elite returns not
    (AMB-SNC-30 (iii))."""
    return [u for u in due(s, CH, t) if u not in s.reduced]


# --- reinforcements (SNC-8.x) --------------------------------------------------------------------


def interdiction_target(t: Tables, s: SNCState) -> int:
    """The CF total the Chinese must remove for the die (SNC-11.2.2; AMB-SNC-30): the least
    total of at least the roll (or, under at_most_roll, the greatest of at most the roll); all
    of them when they total less."""
    cfs = [t.cf(u, s.reduced) for u in _arrivals(t, s)]
    sums = _subset_sums(tuple(cfs))
    if s.variant.is_("interdiction_removal", "at_most_roll"):
        return max(x for x in sums if x <= s.roll)
    above = [x for x in sums if x >= s.roll]
    return min(above) if above else sum(cfs)


def _subset_sums(cfs: tuple[int, ...]) -> set[int]:
    sums = {0}
    for c in cfs:
        sums |= {x + c for x in sums}
    return sums


def interdiction_choices(t: Tables, s: SNCState) -> list[str]:
    """Arrivals whose removal keeps the rest of the CF still due (`s.roll`) reachable
    exactly (SNC-11.2.2; AMB-SNC-30)."""
    units = _arrivals(t, s)
    need = s.roll
    out = []
    for u in units:
        c = t.cf(u, s.reduced)
        rest = tuple(t.cf(w, s.reduced) for w in units if w != u)
        if c <= need and (need - c) in _subset_sums(rest):
            out.append(u)
    return out


def chinese_places(t: Tables, s: SNCState, unit: str) -> list[tuple[Hex, bool]]:
    """Where a Chinese reinforcement may arrive, with whether by rail: a returning elite unit
    in or next to Nanking (`loc.elite_return_hexes`: SNC-8.1.4); any other at its listed hexes
    (`loc.reinforcement_hexes`: method (a), SNC-8.2.1, SNC-8.2.2), then from GT 3 at a
    railroad hex (`loc.rail_reinforcement_hexes`: method (b), SNC-8.2.4, SNC-8.2.5,
    SNC-9.5.2.x; chinese_rail, AMB-SNC-21)."""
    st = stacks(s.where)
    if unit in s.reduced:  # an elite unit coming back (SNC-8.1.4)
        return [(h, False) for h in loc.elite_return_hexes(t.board, t.data, st)]
    listed = t.record[unit].hexes
    ok = loc.reinforcement_hexes(t.board, t.data, st, listed)  # SNC-8.2.1, SNC-8.2.2
    out = [(h, False) for h in listed if h in ok]
    # SNC-8.2.4, SNC-9.5.2.1: method (b), a railroad hex (none before GT 3)
    out.extend((h, True) for h in sorted(_rail_hexes(t, s.where, s.variant, s.turn)))
    return out


@functools.lru_cache(maxsize=1024)
def _rail_hexes(
    t: Tables, where: tuple[tuple[str, Hex], ...], v: Variant, turn: int
) -> frozenset[Hex]:
    return loc.rail_reinforcement_hexes(t.board, t.data, v, stacks(where), turn)


def landing_hexes(t: Tables, s: SNCState, units: tuple[str, ...]) -> list[Hex]:
    """Where a Japanese group may land (SNC-8.4.0.3, SNC-8.4.1.1, SNC-8.4.2.1; AMB-SNC-43)."""
    record = t.record[units[0]]
    b = t.board
    if record.any_landing:  # SNC-8.4.2.1: any landing location on the map
        hexes = list(t.landings)
        if record.restriction is not None and record.restriction.east_of is not None:
            # SNC-8.4.1.1: the 10th Army lands in hex column 32xx or east of it
            edge = int(record.restriction.east_of[:2])
            if s.variant.is_("east_of_32xx", "columns"):
                hexes = [h for h in hexes if h.col >= edge]
            else:
                hexes = [h for h in hexes if h.row >= edge]
    else:  # SNC-8.4.0.3: at its designated landing hex
        hexes = list(record.hexes)
    return [h for h in hexes if b.enterable(h)]


def landing_groups(t: Tables, s: SNCState) -> list[tuple[str, ...]]:
    """This GT's Japanese arrivals as the groups that land together, any of them next: each
    section 13 line (SNC-13.x) whole under landing_split=whole_line or when the text sends it
    to one landing location (SNC-8.4.1.1, SNC-8.4.2.1); otherwise each formation of the line
    (a division's units, a brigade's, a lone detachment or battalion) on its own."""
    whole = s.variant.is_("landing_split", "whole_line")
    groups: dict[tuple[int, str], list[str]] = {}
    for u in due(s, JP, t):
        record = t.record[u]
        one = whole or (record.restriction is not None and record.restriction.one_location)
        spec = t.spec[u]
        formation = "" if one else spec.division or spec.brigade or u
        groups.setdefault((id(record), formation), []).append(u)
    return [tuple(g) for g in groups.values()]


def replace_choices(t: Tables, s: SNCState) -> list[str]:
    """Reduced Japanese units that may take a replacement step now (SNC-8.3.1 to SNC-8.3.4;
    replacement_targets, AMB-SNC-20): those with a LoC (`loc.japanese_loc_units`: SNC-8.3.5,
    SNC-8.3.8; japanese_loc, AMB-SNC-19)."""
    if s.replacements <= 0:
        return []
    regiments = s.variant.is_("replacement_targets", "regiments_only")
    candidates = [  # SNC-8.3.2: only reduced units are restored (the dead never, SNC-8.3.3)
        u
        for u in sorted(s.reduced)
        if t.spec[u].side == JP and not (regiments and t.spec[u].size != "III")
    ]
    if not candidates:
        return []
    ok = loc.japanese_loc_units(t.board, t.data, s.variant, stacks(s.where), candidates)
    return [u for u in candidates if u in ok]


# --- combat sequence helpers ---------------------------------------------------------------------


def _defended(s: SNCState) -> frozenset[str]:
    """The units attacked already this phase: those in the hexes attacked (SNC-10.0.8; no unit
    changes hex in a Fight phase but by advancing into an emptied hex)."""
    st = stacks(s.where)
    return frozenset(u for h in s.attacked for u in st.get(h, ()))


def attack_targets(t: Tables, s: SNCState) -> tuple[Hex, ...]:
    """Enemy hexes that may be attacked now (`combat_query.attack_targets`: SNC-10.0.1,
    SNC-10.0.7, SNC-10.0.8, SNC-10.2.1, SNC-10.4.1.8, SNC-10.4.1.9); units in `s.done` have
    attacked this phase (or landed, AMB-SNC-12)."""
    return combat_query.attack_targets(
        t.data, t.board, stacks(s.where), s.reduced, s.side,
        attacked=s.done, defended=_defended(s),
    )  # fmt: skip


def join_choices(t: Tables, s: SNCState) -> list[str]:
    """Units that may still join the attack being declared (`combat_query.contacts_by_target`:
    SNC-10.0.5, SNC-10.0.7, SNC-10.2.1, SNC-10.4.1.9), in the data's order."""
    c = s.combat
    assert c is not None
    found = combat_query.contacts_by_target(
        t.data, t.board, stacks(s.where), s.side,
        attacked=s.done, defended=_defended(s), only=c.target,
    ).get(c.target, ())  # fmt: skip
    return sorted((u for u in found if u not in c.attackers), key=t.order.__getitem__)


def may_strike(t: Tables, s: SNCState, c: Combat) -> bool:
    """The declared attackers may attack: at least one (SNC-10.0.5), with an adjusted strength
    above 0 (`combat_query.strong_enough`, SNC-10.4.1.8)."""
    st = stacks(s.where)
    return bool(c.attackers) and combat_query.strong_enough(
        t.data, t.board, st, s.reduced, c.target, c.attackers
    )


def advance_choices(t: Tables, s: SNCState) -> list[str]:
    """Surviving attackers that may advance next, one unit at a time, into the hex emptied by
    the battle, by `advance.may_advance` and `advance.survivors` (SNC-10.5.3.1,
    SNC-10.5.3.2, SNC-10.5.3.6, SNC-10.5.3.7); EZOC never stops an advance (SNC-7.2.4).
    Under advance_victors=fewer_losses only a winning attacker advances (AMB-SNC-29)."""
    c = s.combat
    assert c is not None
    if s.variant.is_("advance_victors", "fewer_losses") and not c.won:
        return []
    st = stacks(s.where)
    here = st.get(c.target, ())
    gone = frozenset(c.attackers) & frozenset(here)  # attackers that advanced already
    rest = tuple(u for u in here if u not in gone)
    before = {h: us for h, us in st.items() if h != c.target}
    if rest:
        before[c.target] = rest
    if not advance.may_advance(c.target, before):
        return []
    pool = advance.survivors(c.attackers, st)  # SNC-10.5.3.6, SNC-10.5.3.7
    return [
        u
        for u in c.attackers
        if u in pool and u not in gone and not overstacked(t, s.variant, (*here, u))
    ]  # SNC-10.5.3.2; no EZOC test: SNC-7.2.4, SNC-10.5.3.4


def combat_hexes(t: Tables, s: SNCState, c: Combat) -> list[Hex]:
    loc = locations(s.where)
    hexes = {c.target} | {loc[u] for u in c.attackers if u in loc}
    return sorted(hexes)


def after_combat(t: Tables, s: SNCState) -> SNCState:
    """The stacking check after each combat, both sides (SNC-6.0.2 (b), SNC-6.0.3;
    AMB-SNC-8); its hexes are recorded in `checked`."""
    c = s.combat
    assert c is not None
    st = stacks(s.where)
    fought = combat_hexes(t, s, c)
    # SNC-6.0.2 (b), SNC-6.0.3: after each combat, both players' units are checked
    checked = stacking.hexes_to_check(st, t.data, s.variant, phasing=s.side, after_combat=fought)
    s = attrs.evolve(s, checked=checked, combat=None)
    bad = stacking.overstacked(st, checked, t.data, s.variant)
    if bad:
        return attrs.evolve(s, step=Step.STACK, stack_hexes=bad, after_stack="main")
    return attrs.evolve(s, step=Step.MAIN)


def stack_chooser(t: Tables, s: SNCState) -> tuple[str, list[Hex]]:
    """Who culls next: the phasing side first, then the other (SNC-6.0.4)."""
    for side in (s.side, other(s.side)):
        bad = overstacked_hexes(t, s, s.stack_hexes, side)
        if bad:
            return side, bad
    return s.side, []


def finish_stack(t: Tables, s: SNCState) -> SNCState:
    _, bad = stack_chooser(t, s)
    if bad:
        return s
    after = s.after_stack
    s = attrs.evolve(s, stack_hexes=(), after_stack="", step=Step.MAIN, culled=())
    return next_phase(t, s) if after == "phase" else s


def step_choices(t: Tables, s: SNCState, here: Hex, mp: int, *, near_jp_ok: bool) -> list[Hex]:
    """The hexes the moving group may enter next from `here` with `mp` half-MP left
    (SNC-9.0.1 to SNC-9.0.12, SNC-7.2.1 to SNC-7.2.3): never an enemy hex, never beyond its
    MP; a group that entered an EZOC has stopped; one that starts in an EZOC leaves it only
    into a hex free of EZOC. `near_jp_ok=False` keeps a method-(a) Chinese reinforcement away
    from Japanese units (SNC-8.2.3)."""
    side = s.side
    first = mp == 2 * MF_MOBILE
    units = s.moving or tuple(u for u in stacks(s.where)[here] if t.spec[u].side == side)
    # SNC-7.2.1 to SNC-7.2.3 and SNC-7.1.5 for the moving group (ngl_zoc_entry), via
    # movement.movement_ezoc; its start-exit set is the enemy ZOC of the whole position, so a
    # first step out of a hex outside it needs no more (and the common case stays cached)
    stop: frozenset[Hex] = frozenset()
    exiting = first and here in _zoc(t, s.where, s.variant, other(side))
    if exiting or not first:
        stop, at_start = _move_ezoc(t, s.where, s.variant, units, here)
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
        dests = tuple(step_choices(t, s, h, 2 * MF_MOBILE, near_jp_ok=near_jp_ok))
        if not dests:
            continue
        out.extend(((u,), dests) for u in mine)  # SNC-9.0.8: any number of units may move
        if stacks_too and len(mine) > 1:
            out.append((mine, dests))
    return out
