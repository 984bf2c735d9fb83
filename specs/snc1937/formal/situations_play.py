"""SNC's situations outside the CRT (`formal.situations`): the sudden-death defeat, Chinese air
support, the fire support markers held, what counts as entering a hex, and a landing's
retreat.
"""

from __future__ import annotations

from typing import Any

from kernel.errors import WargameError
from kernel.hexes import Hex
from specs.snc1937.formal.situations_common import FAR, OPS, Situation, before_die, other_readings
from specs.snc1937.rules.actions import Land, Move, Place, Retreat
from specs.snc1937.rules.combat_choices import mobile, retreat_hexes
from specs.snc1937.rules.fire_support import NAVAL, naval_defence_hex
from specs.snc1937.rules.losses import steps_left
from specs.snc1937.rules.reinforcement_steps import replace_choices
from specs.snc1937.rules.stacking import within_limits
from specs.snc1937.rules.state import CH, JP, Combat, Order, Phase, SNCState, Step, evolve
from specs.snc1937.rules.support_steps import support_kinds
from specs.snc1937.rules.tables import crt, stacks
from specs.snc1937.rules.victory import LAST_DEFEAT_GT, shanghai_ring
from specs.snc1937.rules.zoc import hexes_of_side

REPLACEMENTS_FROM = 3  # SNC-8.3.1: two replacement steps a GT from GT 3
LANDING_STEPS = frozenset(
    {Step.SUPPORT_A, Step.AIR_ASK, Step.AIR_ROLL, Step.SUPPORT_D, Step.ROLL, Step.LOSS_D}
)
"""A landing combat's steps before its Chinese survivors retreat (SNC-8.4.0.7)."""


def _ring_units(rules: Any, s: SNCState) -> tuple[list[str], list[str]]:
    """The mobile and the static Chinese units in 3512 or next to it (SNC-4.2.1)."""
    st = stacks(s.where)
    units = [u for h in shanghai_ring(rules.board) for u in st.get(h, ())]
    chinese = [u for u in units if rules.data.unit(u).side == CH]
    static = [u for u in chinese if rules.data.unit(u).is_static]
    return [u for u in chinese if u not in static], static


def _defeat_open(s: SNCState) -> bool:
    """Whether the sudden-death defeat may still come (GT 1 to 5, the game not over,
    SNC-4.2.1)."""
    return s.result is None and 1 <= s.turn <= LAST_DEFEAT_GT


def _leaving(s: SNCState, unit: str) -> bool:
    """Whether `unit` is moving, or defending in the combat under way: the next actions may
    take it away while the move or combat is still under way."""
    c = s.combat
    return unit in s.moving or (c is not None and dict(s.where).get(unit) == c.target)


def defeat_timing(rules: Any) -> Situation:
    """sudden_defeat_timing (AMB-SNC-15; SNC-4.2.1): 0 where one counted Chinese unit is left
    in or next to 3512 on GT 1 to 5 and it is moving or defending in the combat under way
    (the next actions may take it away: after_each_action ends the game at once,
    after_each_move once the move or combat is over, end_of_phase at the phase's end); two
    more per other such unit, one more while it is neither."""

    def distance(s: SNCState) -> int:
        if not _defeat_open(s):
            return FAR + 6
        mobile, static = _ring_units(rules, s)
        counted = mobile + ([] if s.variant.is_("sudden_death_units", "mobile_only") else static)
        if not counted:
            return 1
        return 2 * (len(counted) - 1) + (0 if _leaving(s, counted[0]) else 1)

    return distance


def static_only(rules: Any) -> Situation:
    """sudden_death_units (found here; SNC-4.2.1, SNC-4.1.2): 0 where, on GT 1 to 5, a static
    Chinese unit is in or next to 3512 and no mobile one, or one that is moving or defending
    in the combat under way (the defeat then comes under mobile_only, not under any_unit);
    two more per other mobile unit there, one more while the last is neither, three more with
    no static unit there."""

    def distance(s: SNCState) -> int:
        if not _defeat_open(s):
            return FAR + 6
        mobile, static = _ring_units(rules, s)
        away = 0 if not mobile or (len(mobile) == 1 and _leaving(s, mobile[0])) else 1
        return 2 * max(0, len(mobile) - 1) + away + (0 if static else 3)

    return distance


def second_interception(rules: Any) -> Situation:
    """chinese_air (AMB-SNC-31; SNC-11.3.1, SNC-11.3.2): 0 at a Japanese battle before its
    die where the Japanese may add an air marker while the Chinese air support, still in
    being, has already flown this phase (unlimited asks the Chinese again, once_per_phase
    does not); two more while it has not flown, one more with no air marker to add."""

    def distance(s: SNCState) -> int:
        if s.side != JP or not s.ch_air or s.phase not in OPS:
            return FAR + 6
        c = before_die(s)
        air = (
            c is not None
            and s.step == Step.SUPPORT_A
            and "air" in support_kinds(rules.tables, s, c, False)
        )
        return (0 if s.ch_air_used else 2) + (0 if air else 1)

    return distance


def defence_markers(rules: Any) -> Situation:
    """marker_arrival (found here; SNC-8.5.1, SNC-11.1.4): 0 at a Chinese battle before its
    die where the Japanese defender's naval gunfire differs between holding this GT's markers
    and last GT's. Only a Chinese Operations Phase of a GT whose naval gunfire count differs
    from the last GT's can show it (GT 1 and 2 in the shipped data, SNC-13.27, SNC-13.28);
    there the distance is 1 plus the markers the Japanese must still set aside in defence in
    this phase (SNC-11.1.5) before the count matters, one more unless a battle is under way on
    a hex naval gunfire may defend (SNC-11.4.3), while the eligible Japanese hexes not yet
    attacked (SNC-10.0.8) beside a Chinese unit are enough for those battles. Elsewhere (a
    phase with too few such hexes left, the Japanese player turn before it, the Chinese phases
    that open its GT) FAR plus the battles wanting in the next phase that may show it (the
    Japanese move into those hexes)."""

    t = rules.tables

    def held(turn: int) -> int:
        """The naval gunfire markers the Japanese hold under either reading in the Chinese
        player turn of GT `turn`: the fewer of its count and the last GT's."""
        count: int = min(t.markers(JP, NAVAL, g) for g in (turn - 1, turn))
        return count

    def differs(turn: int) -> bool:
        before: int = t.markers(JP, NAVAL, turn - 1)
        now: int = t.markers(JP, NAVAL, turn)
        return before != now

    def open_targets(s: SNCState, fresh: bool = False) -> int:
        """The Japanese hexes naval gunfire may defend beside a Chinese unit, not attacked
        this phase (`fresh`: in a phase to come, none attacked yet)."""
        st = stacks(s.where)
        chinese = hexes_of_side(t.data, st, CH)
        return sum(
            1
            for h in hexes_of_side(t.data, st, JP)
            if (fresh or h not in s.attacked)
            and naval_defence_hex(t.board, s.variant, h)
            and any(n in chinese for n in t.board.neighbors(h))
        )

    def ahead(s: SNCState, turn: int) -> int:
        """FAR plus the battles wanting in a phase to come of GT `turn`'s Chinese turn."""
        return FAR + min(5, max(0, held(turn) + 1 - open_targets(s, fresh=True)))

    def distance(s: SNCState) -> int:
        coming = s.turn + 1 if s.side == JP else s.turn  # the next Chinese player turn's GT
        if s.result is not None or not differs(coming):
            return FAR + 6
        if s.side != CH or s.phase not in OPS:
            return FAR + 6 if s.side == CH and s.order == Order.MOVE_MOVE else ahead(s, coming)
        if s.ops_kind() != "fight":  # a Move phase: the Fight phase, if any, is the second
            return ahead(s, coming) if s.order == Order.MOVE_FIGHT else FAR + 6
        c = before_die(s)
        if c is not None:
            mine = support_kinds(t, s, c, True)
            others = other_readings(s.variant, "marker_arrival")
            if any(support_kinds(t, evolve(s, variant=v), c, True) != mine for v in others):
                return 0
        owed = max(0, held(s.turn) - s.used.count(f"JP:{NAVAL}"))
        here = (  # a battle whose defender has not yet added naval gunfire
            c is not None
            and NAVAL not in c.support_d
            and naval_defence_hex(t.board, s.variant, c.target)
        )
        if owed + (0 if here else 1) > open_targets(s):  # too few battles left this phase
            later = s.phase == Phase.OPS1 and s.order == Order.FIGHT_FIGHT  # a fresh phase
            return ahead(s, s.turn) if later else FAR + 6
        return 1 + owed + (0 if here else 1)

    return distance


def _placer(rules: Any, s: SNCState, action: Any) -> tuple[str, Hex] | None:
    """The side and hex of an arrival other than movement or advance: a placement, an
    unopposed landing into an empty hex, a retreat (`control.ARRIVALS`; None: none)."""
    if isinstance(action, Place):
        return rules.data.unit(action.unit).side, action.hex
    if isinstance(action, Land) and not stacks(s.where).get(action.hex):
        return JP, action.hex
    if isinstance(action, Retreat):
        return rules.data.unit(action.unit).side, action.to
    return None


def arrival_elsewhere(rules: Any) -> Situation:
    """control_entry (AMB-SNC-16; SNC-3.2.2, SNC-8.4.0.11): 0 where a unit may be placed, land
    unopposed or retreat into a hex its side does not control (control passes under
    any_arrival, not under movement_and_advance); 1 in a Reinforcement Phase or a retreat
    with none such, 2 elsewhere."""

    def distance(s: SNCState) -> int:
        if s.phase != Phase.REINF and s.step != Step.RETREAT:
            return 2
        side = rules.to_move(s)
        if side not in (CH, JP):
            return 1
        for action in rules.legal_actions(s):
            found = _placer(rules, s, action)
            if found is not None and (found[1] in s.jp_control) != (found[0] == JP):
                return 0
        return 1

    return distance


def _landing_under_way(s: SNCState) -> Combat | None:
    """A landing combat before its Chinese survivors retreat (SNC-8.4.0.4 to SNC-8.4.0.9)."""
    c = s.combat
    return c if c is not None and c.landing and s.step in LANDING_STEPS else None


def _lands_on_chinese(rules: Any, s: SNCState) -> bool:
    """Whether the Japanese may land now on a Chinese-held hex (SNC-8.4.0.4)."""
    if s.side != JP or s.phase != Phase.REINF or rules.to_move(s) != JP:
        return False
    st = stacks(s.where)
    return any(
        isinstance(a, Land) and any(rules.data.unit(u).side == CH for u in st.get(a.hex, ()))
        for a in rules.legal_actions(s)
    )


def _survive(rules: Any, s: SNCState, c: Combat, here: tuple[str, ...]) -> bool:
    """Whether some Chinese defender may outlive the combat's losses: more steps in the hex
    than the losses still owed, or than the fewest some die face gives (SNC-10.5.1.1)."""
    steps = sum(steps_left(rules.data.unit(u), s.reduced, s.variant) for u in here)
    if s.step == Step.LOSS_D:
        return steps > c.loss_d
    try:
        fewest = min(crt(rules.tables, s, c, face)[1] for face in range(1, 7))
    except WargameError:
        return False
    return steps > fewest


def landing_retreat(rules: Any, option: str) -> Situation:
    """retreat_into_ezoc and retreat_blocked (AMB-SNC-11; SNC-8.4.0.9): 0 at a landing combat
    under way, the die or the losses still to come, where some Chinese defender may outlive
    them, a mobile one among them (garrisons are eliminated), and the readings answer their
    retreat differently (a retreat hex in a Japanese ZOC; no hex to retreat into); 2 at
    another landing combat, 3 where the
    Japanese may land on a Chinese-held hex; farther elsewhere."""

    def parts(s: SNCState, c: Combat) -> bool:
        t = rules.tables
        here = stacks(s.where).get(c.target, ())
        if not here or rules.data.unit(here[0]).side != CH or not _survive(rules, s, c, here):
            return False
        if not mobile(t, here):  # SNC-8.4.0.9: garrisons are eliminated, only the rest retreat
            return False
        if option == "retreat_blocked":
            return not retreat_hexes(t, s, c.target)
        mine = retreat_hexes(t, s, c.target)
        return any(
            retreat_hexes(t, evolve(s, variant=v), c.target) != mine
            for v in other_readings(s.variant, option)
        )

    def distance(s: SNCState) -> int:
        c = _landing_under_way(s)
        if c is not None:
            return 0 if parts(s, c) else 2
        return 3 if _lands_on_chinese(rules, s) else FAR + 6

    return distance


def replacements_due(rules: Any) -> Situation:
    """replacement_timing (AMB-SNC-20; SNC-8.3.1, SNC-8.3.4): 0 at the end of a Japanese First
    Operations Phase from GT 3 while a reduced Japanese unit with a LoC may take a replacement
    step (`reinforcement_steps.replace_choices`): the Reinforcement Phase then opens with them
    (first_step) or lists them among its actions (any_time); 1 elsewhere from GT 3 while a
    Japanese unit is reduced, 2 with none (or none with a LoC at the phase's end), 3 before
    GT 3."""

    def distance(s: SNCState) -> int:
        if s.result is not None or s.turn < REPLACEMENTS_FROM:
            return 3
        if not any(rules.data.unit(u).side == JP for u in s.reduced):
            return 2
        if not (s.side == JP and s.phase == Phase.OPS1 and s.step == Step.MAIN):
            return 1  # the LoC (the costly part) is asked only where the phase may end
        return 0 if replace_choices(rules.tables, evolve(s, replacements=2)) else 2

    return distance


def support_differs(rules: Any, option: str) -> Situation:
    """An option read in which fire support markers a side may add (estuary_is_yangtze,
    fire_support_refresh, landing_fire_support; SNC-11.1.x, SNC-11.4.x, SNC-8.5.2): 0 where
    the attacker or the defender adds markers to a battle (SNC-11.1.1) and those he may add
    (`support_steps.support_kinds`) differ under another reading of the option; 1 at another
    battle before its die, 2 in an Operations or Reinforcement Phase, 3 elsewhere."""

    def kinds(s: SNCState, c: Combat) -> tuple[list[str], list[str]]:
        t = rules.tables
        return support_kinds(t, s, c, False), support_kinds(t, s, c, True)

    def distance(s: SNCState) -> int:
        c = before_die(s)
        if c is None:
            return 2 if s.phase in (*OPS, Phase.REINF) and s.result is None else 3
        if s.step not in (Step.SUPPORT_A, Step.SUPPORT_D):
            return 1  # the markers are added at these steps only
        mine = kinds(s, c)
        others = other_readings(s.variant, option)
        return 0 if any(kinds(evolve(s, variant=v), c) != mine for v in others) else 1

    return distance


def transit(rules: Any) -> Situation:
    """control_transit (found here; SNC-3.2.2): 0 where a unit may move on into a hex its side
    does not control (every_hex_entered takes it at once, where_move_ends only if the move
    ends there); 1 elsewhere in an Operations Phase of movement, 2 outside one."""

    def distance(s: SNCState) -> int:
        if s.result is not None or s.phase not in OPS or s.step not in (Step.MAIN, Step.GROUP):
            return 2
        if s.ops_kind() != "move":
            return 2
        for action in rules.legal_actions(s):
            if isinstance(action, Move):
                side = rules.data.unit(action.units[0]).side
                if (action.to in s.jp_control) != (side == JP):
                    return 0
        return 1

    return distance


def japanese_stacks(rules: Any) -> Situation:
    """japanese_stack (AMB-SNC-9; SNC-6.2.1, SNC-6.2.2): 0 where a Japanese move, landing or
    placement would make a stack the readings judge differently (any five units, or one
    division and one other unit: `stacking.within_limits`); 1 elsewhere in a Japanese
    Operations or Reinforcement Phase, 2 outside one."""

    def distance(s: SNCState) -> int:
        if s.result is not None or s.side != JP or s.phase not in (*OPS, Phase.REINF):
            return 2
        if rules.to_move(s) != JP:
            return 1
        st = stacks(s.where)
        others = other_readings(s.variant, "japanese_stack")
        for action in rules.legal_actions(s):
            if isinstance(action, Move | Land):
                units, to = action.units, (action.to if isinstance(action, Move) else action.hex)
            elif isinstance(action, Place):
                units, to = (action.unit,), action.hex
            else:
                continue
            stack = (*(u for u in st.get(to, ()) if u not in units), *units)
            mine = within_limits(stack, rules.data, s.variant)
            if any(within_limits(stack, rules.data, v) != mine for v in others):
                return 0
        return 1

    return distance
