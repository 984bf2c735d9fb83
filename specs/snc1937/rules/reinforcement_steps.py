"""The Reinforcement Phase in the sequence of play (SNC-8.x, SNC-11.2.x): Japanese air
interdiction of the Chinese arrivals, Japanese replacements, the arrivals themselves, and the
return of eliminated Chinese elite units.

The Chinese place each due unit at a listed hex or (from GT 3) a railroad hex (SNC-8.2.x), and
method-(a) arrivals may then move; the Japanese land each group of the GT at a landing hex,
with a landing combat against Chinese units there (SNC-8.4.x: the combat is `combat_steps.py`'s).
Where a unit may arrive is `loc.py`'s. How the phase opens and ends is `sequence.py`'s.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from kernel.choices import Chain, Mapped
from kernel.hexes import Hex
from kernel.variants import Variant
from specs.snc1937.rules import combat_choices, loc, rail_places
from specs.snc1937.rules.actions import Action, Delay, Done, Land, Place, Replace
from specs.snc1937.rules.memo import identity_memo
from specs.snc1937.rules.movement_steps import MoveList, move_actions, move_starts
from specs.snc1937.rules.state import CH, JP, Combat, SNCState, Step, evolve
from specs.snc1937.rules.tables import Tables, arrive, locations, put, stacks, trt_without
from specs.snc1937.rules.top_unit import tops
from specs.snc1937.rules.zoc import hexes_of_side


def due(s: SNCState, side: str, t: Tables) -> list[str]:
    """Reinforcements of `side` in this GT's box or earlier (SNC-5.4.1, SNC-8.0.4)."""
    return list(_due(s.trt, s.turn, side, t))


@identity_memo  # asked several times a step; the TRT changes only as units arrive
def _due(trt: tuple[tuple[str, int], ...], turn: int, side: str, t: Tables) -> tuple[str, ...]:
    return tuple(u for u, gt in trt if gt <= turn and t.spec[u].side == side)  # SNC-8.0.4


def arrivals(t: Tables, s: SNCState) -> list[str]:
    """This GT's arriving Chinese reinforcements, delayed ones included, elite returns not
    (AMB-SNC-30 (iii))."""
    return [u for u in due(s, CH, t) if u not in s.reduced]


# --- what the phasing player may do --------------------------------------------------------------


def reinforcement_actions(t: Tables, s: SNCState) -> Sequence[Action]:
    """The phase's actions: each due unit's arrivals, or its delay (SNC-8.0.2: unit by unit,
    under reinforcement_delay=delayable or when it has nowhere to arrive); the moves of
    method-(a) Chinese arrivals; Japanese replacements under replacement_timing=any_time; the
    end of the phase once every due unit is placed or delayed (SNC-5.4.1). Listed lazily
    (`kernel.choices`): a Chinese unit's arrivals are built only when read, and membership is
    answered from its hexes, so `apply` checks a `Place` without building the rest."""
    out: list[Action] = []
    parts: list[Sequence[Action]] = [out]
    delayable = s.variant.is_("reinforcement_delay", "delayable")
    if s.side == CH:
        if s.moving:
            return move_actions(t, s, False, s.movable)  # SNC-8.2.2, SNC-8.2.3
        for unit in due(s, CH, t):  # in any order: no rule orders them
            places = chinese_places(t, s, unit)
            parts.append(_places(unit, places))
            if delayable or not places:
                parts.append((Delay(unit),))  # SNC-8.0.2: unit by unit
        if s.movable:  # SNC-8.2.2, SNC-8.2.7: method-(a) arrivals may move, either order
            parts.append(MoveList(move_starts(t, s, False, s.movable), ()))
        out = []
        parts.append(out)
    else:
        if s.variant.is_("replacement_timing", "any_time"):
            out.extend(Replace(u) for u in replace_choices(t, s))
        for group in landing_groups(t, s):  # any group next (landing_split)
            if snlf_placed(t, s, group):
                landings: list[Action] = [Place(group[0], h) for h in snlf_hexes(t, s, group[0])]
            elif waits_whole(t, s, group):
                landings = []  # SNC-8.4.1.1: part of the line waits, so all of it waits
            else:
                # SNC-8.4.0.1: Japanese reinforcements arrive by amphibious landing
                landings = [Land(group, h) for h in landing_hexes(t, s, group)]
            out.extend(landings)
            if delayable or not landings:
                out.extend(Delay(u) for u in group)  # SNC-8.0.2: unit by unit
    if not s.moving:
        out.extend(tops(t, s))
    if not due(s, s.side, t):
        out.append(Done())  # SNC-5.4.1: only once every due unit is placed (or delayed)
    return Chain(parts)


def _places(unit: str, places: Sequence[tuple[Hex, bool]]) -> Mapped[tuple[Hex, bool], Action]:
    """`Place(unit, h, rail)` for each arrival, built when read."""
    return Mapped(functools.partial(_place_action, unit), places, functools.partial(_back, unit))


def _place_action(unit: str, place: tuple[Hex, bool]) -> Action:
    return Place(unit, place[0], place[1])


def _back(unit: str, action: object) -> tuple[Hex, bool] | None:
    if isinstance(action, Place) and action.unit == unit:
        return (action.hex, action.rail)
    return None


# --- Japanese air interdiction (SNC-11.2.x) ------------------------------------------------------


def interdiction_target(t: Tables, s: SNCState) -> int:
    """The CF total the Chinese must remove for the die (SNC-11.2.2; AMB-SNC-30): the least
    total of at least the roll (or, under at_most_roll, the greatest of at most the roll); all
    of them when they total less."""
    cfs = [t.cf(u, s.reduced) for u in arrivals(t, s)]
    sums = _subset_sums(tuple(cfs))
    if s.variant.is_("interdiction_removal", "at_most_roll"):
        return max(x for x in sums if x <= s.roll)
    above = [x for x in sums if x >= s.roll]
    return min(above) if above else sum(cfs)


@functools.lru_cache(maxsize=1024)
def _subset_sums(cfs: tuple[int, ...]) -> frozenset[int]:
    """Every total of some of `cfs` (SNC-11.2.2), kept by value: the interdiction's choices
    ask it of the same CF lists at every step of the removal."""
    return frozenset(plain_subset_sums(cfs))


def plain_subset_sums(cfs: tuple[int, ...]) -> set[int]:
    """`_subset_sums` worked out afresh."""
    sums = {0}
    for c in cfs:
        sums |= {x + c for x in sums}
    return sums


def interdiction_choices(t: Tables, s: SNCState) -> list[str]:
    """Arrivals whose removal keeps the rest of the CF still due (`s.roll`) reachable
    exactly (SNC-11.2.2; AMB-SNC-30)."""
    units = arrivals(t, s)
    need = s.roll
    cfs = [t.cf(u, s.reduced) for u in units]  # each unit's CF read once
    out = []
    for i, u in enumerate(units):
        c = cfs[i]
        rest = tuple(cf for j, cf in enumerate(cfs) if units[j] != u)
        if c <= need and (need - c) in _subset_sums(rest):
            out.append(u)
    return out


def interdiction_roll(t: Tables, s: SNCState, face: int) -> SNCState:
    """The interdiction die: the CF the Chinese must remove from this GT's arrivals
    (SNC-11.2.1, SNC-11.2.2)."""
    # SNC-11.2.2: the CF to remove from this GT's reinforcements for the roll
    need = interdiction_target(t, evolve(s, roll=face))
    s = evolve(s, roll=need)
    if need <= 0 or not interdiction_choices(t, s):
        return evolve(s, step=Step.MAIN, roll=0)
    return evolve(s, step=Step.INTERDICT)


def remove(t: Tables, s: SNCState, unit: str) -> SNCState:
    """An interdicted arrival is removed (SNC-11.2.2), out for the rest of the game
    (SNC-11.2.3)."""
    need = s.roll - t.cf(unit, s.reduced)  # SNC-11.2.2: CF off this GT's arrivals
    s = evolve(  # SNC-11.2.3: out for the rest of the game
        s, roll=need, dead=s.dead | {unit}, trt=trt_without(s, [unit])
    )
    if need <= 0 or not interdiction_choices(t, s):
        return evolve(s, step=Step.MAIN, roll=0)
    return s


# --- Japanese replacements (SNC-8.3.x) -----------------------------------------------------------


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
    ok = _with_loc(t, s.where, s.variant, tuple(candidates))
    return [u for u in candidates if u in ok]


def _with_loc(
    t: Tables, where: tuple[tuple[str, Hex], ...], v: Variant, units: tuple[str, ...]
) -> frozenset[str]:
    """`loc.japanese_loc_units` (SNC-8.3.5, SNC-8.3.8), each LoC net cached by position: a
    LoC search costs milliseconds, and the listing, the check of a `Replace` and the steps
    after it ask for the same nets (a replacement moves no unit, so the nets stay)."""
    return loc.units_in_nets(
        t.data, locations(where), units, lambda snlf: _loc_net(t, where, v, snlf)
    )


@functools.lru_cache(maxsize=256)
def _loc_net(
    t: Tables, where: tuple[tuple[str, Hex], ...], v: Variant, snlf: bool
) -> frozenset[Hex]:
    """`loc.japanese_loc_hexes` of a position: every hex with a Japanese LoC (SNC-8.3.5), for
    an SNLF unit toward its own ends (SNC-8.3.8)."""
    return loc.japanese_loc_hexes(t.board, t.data, v, stacks(where), snlf=snlf)


def replace(t: Tables, s: SNCState, unit: str) -> SNCState:
    """A reduced Japanese unit regains its step (SNC-2.2.1.14, SNC-8.3.4)."""
    # SNC-2.2.1.14, SNC-8.3.4: the unit's full side again, one replacement step spent
    s = evolve(s, reduced=s.reduced - {unit}, replacements=s.replacements - 1)
    if replace_choices(t, s) or s.step == Step.MAIN:
        return s
    return end_replacements(s)


def end_replacements(s: SNCState) -> SNCState:
    """The replacements are over; the steps left are lost (SNC-8.3.4)."""
    return evolve(s, step=Step.MAIN, replacements=0)


# --- Chinese arrivals (SNC-8.1.x, SNC-8.2.x) -----------------------------------------------------


def chinese_places(t: Tables, s: SNCState, unit: str) -> list[tuple[Hex, bool]]:
    """Where a Chinese reinforcement may arrive, with whether by rail: a returning elite unit
    in or next to Nanking (`loc.elite_return_hexes`: SNC-8.1.4); any other at its listed hexes
    (`loc.reinforcement_hexes`: method (a), SNC-8.2.1, SNC-8.2.2), then from GT 3 at a
    railroad hex (`loc.rail_reinforcement_hexes`: method (b), SNC-8.2.4, SNC-8.2.5,
    SNC-9.5.2.x; chinese_rail, AMB-SNC-21)."""
    if unit in s.reduced:  # an elite unit coming back (SNC-8.1.4)
        return [(h, False) for h in elite_places(t, s)]
    # SNC-8.2.1, SNC-8.2.2: the listed hexes; SNC-8.2.4, SNC-9.5.2.1: method (b), a railroad
    # hex (none before GT 3); both the same for every unit of a position, so cached by it
    listed = _listed_places(t, s.where, t.record[unit].hexes)
    return [*listed, *rail_places.rail_places(t, s.where, s.variant, s.turn)]


@identity_memo  # over the cache by value: no hashing of the position
@functools.lru_cache(maxsize=1024)
def _listed_places(
    t: Tables, where: tuple[tuple[str, Hex], ...], listed: tuple[Hex, ...]
) -> tuple[tuple[Hex, bool], ...]:
    ok = loc.reinforcement_hexes(t.board, t.data, stacks(where), listed)
    return tuple((h, False) for h in listed if h in ok)


def elite_places(t: Tables, s: SNCState) -> tuple[Hex, ...]:
    """Where a returning elite unit may be placed (SNC-8.1.4): in or next to Nanking, never
    next to a Japanese unit under elite_return_ban=applies (`loc.elite_return_hexes`,
    SNC-8.2.1); under exempt any of those hexes a unit may enter and no Japanese unit holds
    (SNC-0.0.1, SNC-6.0.1; found here)."""
    st = stacks(s.where)
    if s.variant.is_("elite_return_ban", "applies"):
        return loc.elite_return_hexes(t.board, t.data, st)
    nanking = loc.place(t.board, "Nanking")
    japanese = hexes_of_side(t.data, st, JP)
    ring = (nanking, *t.board.neighbors(nanking))
    return tuple(h for h in ring if t.board.enterable(h) and h not in japanese)


def place(t: Tables, s: SNCState, unit: str, h: Hex, rail: bool) -> SNCState:
    """A Chinese reinforcement arrives (SNC-8.2.2, SNC-8.2.4; method (a) units may then
    move, SNC-8.2.6; a returning elite unit only under elite_return_move=moves, SNC-8.1.4)
    or SNLF 9 is placed (AMB-SNC-35)."""
    s = evolve(s, trt=trt_without(s, [unit]), arrived=s.arrived | {unit})
    s = put(s, {unit: h})
    s = arrive(t, s, t.spec[unit].side, [h], "placement")
    elite = unit in s.reduced  # a returning elite unit (SNC-8.1.4)
    moves = not elite or s.variant.is_("elite_return_move", "moves")  # found here
    if t.spec[unit].side == CH and not rail and moves:
        s = evolve(s, movable=s.movable | {unit})  # SNC-8.2.2: method (a) may move
    # SNC-8.2.6: a unit placed by rail (method (b)) is not made movable this phase
    return s


def delay(s: SNCState, unit: str) -> SNCState:
    """A due reinforcement waits for the next GT (SNC-8.0.2; AMB-SNC-6)."""
    return evolve(s, trt=tuple(sorted((*trt_without(s, [unit]), (unit, s.turn + 1)))))


def elite_return(s: SNCState, face: int) -> SNCState:
    """An eliminated elite unit returns `face` GTs later, reduced; beyond GT 12 it is
    gone (SNC-8.1.2, SNC-8.1.3)."""
    unit, rest = s.elite[0], s.elite[1:]
    box = s.turn + face
    if box > 12:
        return evolve(s, elite=rest, dead=s.dead | {unit})  # SNC-8.1.3: gone for good
    return evolve(
        s,
        elite=rest,
        reduced=s.reduced | {unit},
        trt=tuple(sorted((*s.trt, (unit, box)))),
    )


# --- Japanese landings (SNC-8.4.x; AMB-SNC-35, AMB-SNC-43) ---------------------------------------


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


def waits_whole(t: Tables, s: SNCState, group: tuple[str, ...]) -> bool:
    """Under tenth_army_delay=whole_line, a line sent to one landing location (SNC-8.4.1.1,
    SNC-8.4.2.1) one of whose units was delayed this GT (SNC-8.0.2: it waits in a later box)
    may not land the rest: the line lands whole, at one location (found here)."""
    record = t.record[group[0]]
    if record.restriction is None or not record.restriction.one_location:
        return False
    if not s.variant.is_("tenth_army_delay", "whole_line"):
        return False
    return any(gt > s.turn and t.record.get(u) is record for u, gt in s.trt)


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
    if s.variant.is_("landing_defended_once", "applies"):
        # SNC-10.0.8: not against Chinese units a landing of this phase attacked already
        st = stacks(s.where)
        hexes = [h for h in hexes if not (h in s.attacked and h in st and _chinese(t, st[h]))]
    return [h for h in hexes if b.enterable(h)]


def _chinese(t: Tables, units: tuple[str, ...]) -> bool:
    return any(t.spec[u].side == CH for u in units)


def snlf_placed(t: Tables, s: SNCState, group: tuple[str, ...]) -> bool:
    """SNLF 9 (GT 1, 3512 or 3611) is placed there under snlf9_arrival=placed, or lands
    like any reinforcement under snlf9_arrival=landing (AMB-SNC-35)."""
    record = t.record[group[0]]
    first = record.gt == 1 and not record.any_landing
    return first and s.variant.is_("snlf9_arrival", "placed")


def snlf_hexes(t: Tables, s: SNCState, unit: str) -> list[Hex]:
    """Where SNLF 9 may be placed: its listed hexes free of Chinese units (AMB-SNC-35)."""
    record = t.record[unit]
    st = stacks(s.where)
    return [h for h in record.hexes if not (st.get(h) and t.spec[st[h][0]].side == CH)]


def land(t: Tables, s: SNCState, units: tuple[str, ...], h: Hex) -> SNCState:
    """An amphibious landing (SNC-8.4.0.1 to SNC-8.4.0.11), whatever the phase order
    (SNC-8.4.0.10): against Chinese units there, a landing combat; into an empty hex, the
    units are placed (AMB-SNC-12 (i)), and under tenth_army_unopposed=unopposed_too the 10th
    Army may then make its second hex (SNC-8.4.1.2) as after a landing combat."""
    here = stacks(s.where).get(h, ())
    if here and t.spec[here[0]].side == CH:
        # SNC-8.4.0.4, SNC-8.4.0.10: a landing attack on the hex, whatever the phase order
        combat = Combat(target=h, attackers=units, landing=True, defenders=here)
        s = evolve(s, attacked=s.attacked | {h})  # SNC-10.0.8: its defenders
        if s.variant.is_("landing_is_attack", "counts"):  # AMB-SNC-12, SNC-10.0.7
            s = evolve(s, done=s.done | frozenset(units))
        return evolve(s, combat=combat, step=Step.SUPPORT_A)  # SNC-8.4.0.6: markers
    s = evolve(s, trt=trt_without(s, units), arrived=s.arrived | frozenset(units))
    s = put(s, dict.fromkeys(units, h))
    s = arrive(t, s, JP, [h], "placement")  # SNC-8.4.0.11: placed
    if s.variant.is_("tenth_army_unopposed", "unopposed_too"):
        # found here: the 10th Army's second hex after a landing without combat (SNC-8.4.1.2)
        opened = evolve(s, combat=Combat(target=h, attackers=units, landing=True))
        if combat_choices.advance_on_choices(t, opened):
            return evolve(opened, step=Step.ADVANCE_ON)
    return s
