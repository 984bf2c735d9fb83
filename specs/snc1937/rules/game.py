"""The SNC Game: the kernel contract (`kernel.game.Game`) over the sequence of play of `flow.py`

Each transition names its clauses; an action out of place or breaking a rule is refused with
`IllegalAction` naming the clause. Dice are chance actions with probability 1/6.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any, overload

import attrs

from kernel.data import FactResult, Provenance, check_facts
from kernel.errors import IllegalAction, InvalidInput
from kernel.game import CHANCE, Outcome, WireTypes
from kernel.hexes import Hex, hex_name
from kernel.playout import Agent, observing, random_policy
from kernel.scene import Scene
from kernel.variants import Catalogue, Variant
from specs.snc1937.data.facts import facts
from specs.snc1937.data.loader import DATA_DIR, SNCData, load_data
from specs.snc1937.data.variants import CATALOGUE
from specs.snc1937.formal import position
from specs.snc1937.io import codec, picture
from specs.snc1937.io import observation as observe
from specs.snc1937.io import wire as snc_wire
from specs.snc1937.rules import advance, control, retreat, stacking, stacking_query
from specs.snc1937.rules import overrun_steps as overrun_flow
from specs.snc1937.rules import sequence as flow
from specs.snc1937.rules.actions import (
    Action,
    Advance,
    AdvanceOn,
    Attack,
    Declare,
    Delay,
    Done,
    Eliminate,
    Intercept,
    Join,
    Land,
    Loss,
    Move,
    Overrun,
    Place,
    Remove,
    Replace,
    Retreat,
    Roll,
    Strike,
    Support,
    Top,
)
from specs.snc1937.rules.odds import column_label as odds_label
from specs.snc1937.rules.sequence import Tables, stacks
from specs.snc1937.rules.state import CH, JP, Combat, Order, Phase, SNCState, Step, other

DIE = tuple(range(1, 7))

STEP_CLAUSE = {
    Step.MAIN: "SNC-5.0.2",
    Step.JOIN: "SNC-10.0.5",
    Step.SUPPORT_A: "SNC-11.1.1",
    Step.AIR_ASK: "SNC-11.3.1",
    Step.AIR_ROLL: "SNC-11.3.2",
    Step.SUPPORT_D: "SNC-11.1.4",
    Step.ROLL: "SNC-10.5.0.1",
    Step.LOSS_D: "SNC-10.5.2.1",
    Step.RETREAT: "SNC-8.4.0.9",
    Step.LOSS_A: "SNC-10.5.2.1",
    Step.ADVANCE: "SNC-10.5.3.5",
    Step.STACK: "SNC-6.0.4",
    Step.ELITE_ROLL: "SNC-8.1.2",
    Step.REPLACE: "SNC-8.3.4",
    Step.AIR_DEFENCE: "SNC-11.3.3",
    Step.INTERDICT_ROLL: "SNC-11.2.1",
    Step.INTERDICT: "SNC-11.2.2",
    Step.REINF_MOVE: "SNC-8.2.2",
    Step.ADVANCE_ON: "SNC-8.4.1.2",
}


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


def _illegal(message: str, *clauses: str) -> IllegalAction:
    return IllegalAction(f"{message} ({', '.join(clauses)})", clauses=clauses)


class SNC:
    """Shanghai-Nanking Campaign 1937 (Strategy & Tactics 329, 2021)."""

    name: str = "snc1937"
    title: str = "Shanghai-Nanking Campaign 1937"
    sides: tuple[str, ...] = (CH, JP)
    """One player commands every Chinese unit, the other every Japanese one (SNC-1.2.1,
    SNC-3.0.1)."""
    catalogue: Catalogue = CATALOGUE
    nontermination_clauses: tuple[str, ...] = ("SNC-5.2.2",)
    perfect_information: bool = False
    """Play ends after GT 12 at the latest (SNC-5.2.2); each phase ends by `Done`."""
    wire: WireTypes = WireTypes(
        state=snc_wire.StateRecord,
        action=snc_wire.ActionRecord,
        observation=snc_wire.ObservationRecord,
    )

    def __init__(self, data_dir: Path = DATA_DIR) -> None:
        self.data = load_data(data_dir)
        self.tables = Tables(self.data)
        self.board = self.tables.board

    # --- setup --------------------------------------------------------------------------------
    def presets(self) -> Mapping[str, Variant]:
        return {name: CATALOGUE.preset(name) for name in CATALOGUE.presets}

    def initial_state(self, variant: Variant) -> SNCState:
        """Set-up per SNC-3.1.1 to SNC-3.1.5 and section 13; GT 1 opens with the Chinese
        phase-order declaration (SNC-5.1.1, SNC-5.3.1)."""
        return flow.initial_state(self.tables, variant)

    # --- who moves ----------------------------------------------------------------------------
    def to_move(self, s: SNCState) -> str | None:
        if s.result is not None or s.phase == Phase.OVER:
            return None  # SNC-5.2.2: the game is over
        if s.elite:
            return CHANCE  # SNC-8.1.2
        match s.step:
            case Step.ROLL | Step.AIR_ROLL | Step.INTERDICT_ROLL:
                return CHANCE
            case Step.AIR_ASK | Step.AIR_DEFENCE | Step.INTERDICT | Step.RETREAT:
                return CH
            case Step.SUPPORT_D | Step.LOSS_D:
                return other(s.side)  # SNC-10.0.3: the non-phasing player defends
            case Step.STACK:
                return flow.stack_chooser(self.tables, s)[0]
        return s.side

    def legal_actions(self, s: SNCState) -> Sequence[Action]:
        if self.to_move(s) in (None, CHANCE):
            return []
        t = self.tables
        c = s.combat
        match s.step:
            case Step.MAIN:
                return self._main_actions(s)
            case Step.JOIN:
                assert c is not None
                joins: list[Action] = [Join(u) for u in flow.join_choices(t, s)]
                return [*joins, Strike()] if flow.may_strike(t, s, c) else joins
            case Step.SUPPORT_A:
                assert c is not None
                return [*(Support(k) for k in flow.support_kinds(t, s, c, False)), Done()]
            case Step.SUPPORT_D:
                assert c is not None
                return [*(Support(k) for k in flow.support_kinds(t, s, c, True)), Done()]
            case Step.AIR_ASK | Step.AIR_DEFENCE:
                return [Intercept(True), Intercept(False)]
            case Step.LOSS_D:
                assert c is not None
                here = stacks(s.where).get(c.target, ())
                return [Loss(u) for u in flow.loss_choices(t, s.variant, here, s.reduced)]
            case Step.LOSS_A:
                return [Loss(u) for u in flow.loss_choices(t, s.variant, self._alive(s), s.reduced)]
            case Step.RETREAT:
                assert c is not None
                unit = self._retreater(s)
                origin = c.second or c.target
                return [Retreat(unit, h) for h in self._retreat_hexes(s, origin)]
            case Step.ADVANCE:
                if c is not None and c.landing:
                    return [*(Advance(u) for u in self._ashore_choices(s)), Done()]
                # SNC-10.5.3.5: advance is optional, decided now (Done declines it)
                return [*(Advance(u) for u in flow.advance_choices(t, s)), Done()]
            case Step.ADVANCE_ON:
                return [*self._advance_on_choices(s), Done()]
            case Step.STACK:
                return [Eliminate(u) for u in self._cull_choices(s)]
            case Step.REPLACE:
                # SNC-8.3.4: flip reduced units back, up to the steps left (Done stops)
                return [*(Replace(u) for u in flow.replace_choices(t, s)), Done()]
            case Step.INTERDICT:
                return [Remove(u) for u in flow.interdiction_choices(t, s)]
        return []

    def _main_actions(self, s: SNCState) -> Sequence[Action]:
        t = self.tables
        if s.phase == Phase.DECLARE:
            return [Declare(o) for o in Order]  # SNC-5.3.1: the phase order comes first
        if s.phase in (Phase.OPS1, Phase.OPS2):
            if s.ops_kind() == "move":
                return self._move_actions(s, True, None)  # SNC-5.3.2, SNC-9.0.5: a Move phase
            # SNC-5.3.2, SNC-10.0.1: attacks only in a Fight phase; SNC-10.0.2: each voluntary
            return [*(Attack(h) for h in flow.attack_targets(t, s)), *self._tops(s), Done()]
        if s.phase == Phase.REINF:
            # SNC-5.3.5, SNC-8.4.0.2: reinforcements arrive in this phase, after the First Ops
            return self._reinforcement_actions(s)
        return []

    def _tops(self, s: SNCState) -> list[Top]:
        """The units the phasing player may put on top of his stacks, between his moves,
        attacks and placements (SNC-6.3.1; AMB-SNC-40: the owner chooses the top unit). Each
        unit goes on top at most once a phase (`topped`): the order of a stack is otherwise
        insignificant (SNC-6.4.1), and without the limit play could go on for ever."""
        if s.moving or s.step != Step.MAIN or s.phase not in (Phase.OPS1, Phase.OPS2, Phase.REINF):
            return []
        t = self.tables
        out: list[Top] = []
        for _, units in sorted(stacks(s.where).items()):
            if len(units) > 1 and t.spec[units[0]].side == s.side:
                below = flow.top_first(t, s, units)[1:]
                out.extend(Top(u) for u in below if u not in s.topped)
        return out

    def _reinforcement_actions(self, s: SNCState) -> Sequence[Action]:
        t = self.tables
        out: list[Action] = []
        delayable = s.variant.is_("reinforcement_delay", "delayable")
        if s.side == CH:
            for unit in flow.due(s, CH, t):  # in any order: no rule orders them
                places = flow.chinese_places(t, s, unit)
                out.extend(Place(unit, h, rail) for h, rail in places)
                if delayable or not places:
                    out.append(Delay(unit))  # SNC-8.0.2: unit by unit
            if s.moving:
                return self._move_actions(s, False, s.movable)  # SNC-8.2.2, SNC-8.2.3
            if s.movable:  # SNC-8.2.2, SNC-8.2.7: method-(a) arrivals may move, either order
                out.extend(MoveList(flow.move_starts(t, s, False, s.movable), ()))
        else:
            if s.variant.is_("replacement_timing", "any_time"):
                out.extend(Replace(u) for u in flow.replace_choices(t, s))
            for group in flow.landing_groups(t, s):  # any group next (landing_split)
                if self._snlf_placed(s, group):
                    arrivals: list[Action] = [
                        Place(group[0], h) for h in self._snlf_hexes(s, group[0])
                    ]
                else:
                    # SNC-8.4.0.1: Japanese reinforcements arrive by amphibious landing
                    arrivals = [Land(group, h) for h in flow.landing_hexes(t, s, group)]
                out.extend(arrivals)
                if delayable or not arrivals:
                    out.extend(Delay(u) for u in group)  # SNC-8.0.2: unit by unit
        if not s.moving:
            out.extend(self._tops(s))
        if not flow.due(s, s.side, t):
            out.append(Done())  # SNC-5.4.1: only once every due unit is placed (or delayed)
        return out

    def _move_actions(
        self, s: SNCState, near_jp_ok: bool, only: frozenset[str] | None
    ) -> Sequence[Action]:
        """A move under way goes on one hex at a time or stops (`Done`); otherwise any group
        may begin one (SNC-9.0.10: one unit or stack's move at a time)."""
        t = self.tables
        overruns = overrun_flow.actions(t, s)  # SNC-9.6.1, SNC-9.6.2
        if s.moving:  # SNC-9.0.10: the move under way goes on or ends before another
            moves: list[Action] = []
            if s.overrun_next == "":  # after an overrun only another one (SNC-9.6.7, 9.6.8)
                here = flow.locations(s.where)[s.moving[0]]
                steps = flow.step_choices(t, s, here, s.mp, near_jp_ok=near_jp_ok)
                moves = [Move(s.moving, h) for h in steps]
            return [*moves, *overruns, Done()]
        tail: tuple[Action, ...] = (
            (*overruns, *self._tops(s), Done()) if s.phase != Phase.REINF else ()
        )
        return MoveList(flow.move_starts(t, s, near_jp_ok, only), tail)

    def _snlf_placed(self, s: SNCState, group: tuple[str, ...]) -> bool:
        """SNLF 9 (GT 1, 3512 or 3611) is placed there under snlf9_arrival=placed, or lands
        like any reinforcement under snlf9_arrival=landing (AMB-SNC-35)."""
        record = self.tables.record[group[0]]
        first = record.gt == 1 and not record.any_landing
        return first and s.variant.is_("snlf9_arrival", "placed")

    def _snlf_hexes(self, s: SNCState, unit: str) -> list[Hex]:
        record = self.tables.record[unit]
        st = stacks(s.where)
        return [
            h for h in record.hexes if not (st.get(h) and self.tables.spec[st[h][0]].side == CH)
        ]

    def chance_outcomes(self, s: SNCState) -> Sequence[tuple[Action, Fraction]]:
        if self.to_move(s) != CHANCE:
            return []
        return [(Roll(f), Fraction(1, 6)) for f in DIE]

    # --- transitions --------------------------------------------------------------------------
    def apply(self, s: SNCState, action: Action) -> SNCState:
        """The next state; IllegalAction names the clause an action breaks."""
        if self.to_move(s) is None:
            clause = s.result.clause if s.result else "SNC-5.2.2"
            raise _illegal("the game is over", clause)
        self._known(action)
        if s.checked:  # the last step's stacking check; this step records only its own
            s = attrs.evolve(s, checked=())
        before = s
        s = self._settle(self._transition(s, action), before, action)
        if s.topped and (s.phase, s.side) != (before.phase, before.side):
            # a new phase, the end of the game included: Top afresh (AMB-SNC-40)
            s = attrs.evolve(s, topped=frozenset())
        return s

    def _settle(self, s: SNCState, before: SNCState, action: Action) -> SNCState:
        """Sudden death is checked after every action (SNC-4.1.1, SNC-4.1.2, SNC-4.2.1), with
        the hexes Chinese units just moved or advanced into (AMB-SNC-14)."""
        if s.result is not None:
            return attrs.evolve(s, phase=Phase.OVER, step=Step.MAIN, combat=None)
        entered: set[Hex] = set()
        if isinstance(action, (Move, Advance)):
            old = flow.locations(before.where)
            spec = self.tables.spec
            entered = {h for u, h in s.where if spec[u].side == CH and old.get(u) != h}
        found = flow.sudden_death(self.tables, s, entered=entered)
        if found is not None:
            return attrs.evolve(s, phase=Phase.OVER, step=Step.MAIN, combat=None, result=found)
        return s

    def _transition(self, s: SNCState, action: Action) -> SNCState:
        t = self.tables
        if s.elite:
            if not isinstance(action, Roll) or action.face not in DIE:
                raise _illegal("the eliminated elite unit's return die comes first", "SNC-8.1.2")
            return self._elite_roll(s, action.face)
        chance = self.to_move(s) == CHANCE
        if chance != isinstance(action, Roll):
            clause = STEP_CLAUSE[s.step]
            raise _illegal("a die roll is a chance action, taken only when a die is due", clause)
        if isinstance(action, Roll) and action.face not in DIE:
            raise _illegal("a die shows 1 to 6", "SNC-10.5.0.1")
        if not chance and not self._is_legal(s, action):
            raise self._refusal(s, action)
        match action:
            case Declare(order):
                return flow.declare(t, s, order)
            case Move(units, to):
                return self._move(s, units, to)
            case Overrun():
                return overrun_flow.start(t, s, action)
            case Attack(target):
                # SNC-10.0.5, SNC-10.1.2: one hex, one attack at a time, in any order
                combat = Combat(target=target, defenders=stacks(s.where)[target])
                return attrs.evolve(s, combat=combat, step=Step.JOIN)
            case Join(unit):
                assert s.combat is not None
                # SNC-10.0.5: any number of adjacent attackers, from any hexes
                c = attrs.evolve(s.combat, attackers=(*s.combat.attackers, unit))
                return attrs.evolve(s, combat=c)
            case Strike():
                assert s.combat is not None
                c = s.combat
                s = attrs.evolve(
                    s,
                    done=s.done | frozenset(c.attackers),  # SNC-10.0.7: they attack once
                    attacked=s.attacked | {c.target},  # SNC-10.0.8: attacked once a phase
                    combat=attrs.evolve(c, defenders=stacks(s.where)[c.target]),  # SNC-10.0.4
                )
                return attrs.evolve(s, step=Step.SUPPORT_A)  # SNC-6.3.1: revealed now
            case Support(kind):
                return self._support(s, kind)
            case Intercept(yes):
                if not yes:
                    step = Step.SUPPORT_A if s.step == Step.AIR_ASK else Step.INTERDICT_ROLL
                    return attrs.evolve(s, step=step)
                # SNC-11.3.1, SNC-11.3.3: the Chinese roll to intercept
                return attrs.evolve(s, step=Step.AIR_ROLL, ch_air_used=True)
            case Roll(face):
                return self._roll(s, face)
            case Loss(unit):
                return self._loss(s, unit)
            case Retreat(unit, to):
                s = flow.put(s, {unit: to})
                s = flow.arrive(t, s, CH, [to], "retreat")
                return self._retreats(s)
            case Advance(unit) if s.combat is not None and s.combat.landing:
                s = self._ashore(s, (unit,))
                return s if self._ashore_choices(s) else self._ashore_done(s)
            case Done() if s.step == Step.ADVANCE and s.combat is not None and s.combat.landing:
                return self._ashore_done(s)
            case AdvanceOn(unit, to):
                return self._advance_on(s, unit, to)
            case Done() if s.step == Step.ADVANCE_ON:
                return self._landing_stack(s)
            case Advance(unit):
                assert s.combat is not None
                target = s.combat.target
                s = flow.put(s, {unit: target})  # SNC-10.5.3.1: into the emptied hex
                s = flow.arrive(t, s, s.side, [target], "advance")
                if flow.advance_choices(t, s):
                    return s
                return flow.after_combat(t, s)
            case Done() if s.moving and s.step == Step.MAIN:
                return self._stop(s)
            case Done() if s.step == Step.ADVANCE:
                return flow.after_combat(t, s)
            case Done() if s.step == Step.SUPPORT_A:
                return self._after_support_a(s)
            case Done() if s.step == Step.SUPPORT_D:
                return attrs.evolve(s, step=Step.ROLL)
            case Done() if s.step == Step.REPLACE:
                return attrs.evolve(s, step=Step.MAIN, replacements=0)
            case Done() if s.phase in (Phase.OPS1, Phase.OPS2):
                return flow.end_ops(t, s)
            case Done() if s.phase == Phase.REINF:
                return self._end_reinforcements(s)
            case Top(unit):
                on_top = (unit, *(u for u in s.on_top if u != unit))
                return attrs.evolve(s, on_top=on_top, topped=s.topped | {unit})
            case Eliminate(unit):
                culled = (*s.culled, (unit, flow.locations(s.where)[unit]))
                s = attrs.evolve(flow.eliminate(t, s, [unit]), culled=culled)
                if unit in s.moving:  # a culled unit of a move under way (SNC-6.0.4)
                    rest = tuple(u for u in s.moving if u != unit)
                    s = attrs.evolve(s, moving=rest, mp=s.mp if rest else 0)
                return flow.finish_stack(t, s)
            case Replace(unit):  # a reduced Japanese unit regains its step (SNC-2.2.1.14)
                s = attrs.evolve(s, reduced=s.reduced - {unit}, replacements=s.replacements - 1)
                if flow.replace_choices(t, s) or s.step == Step.MAIN:
                    return s
                return attrs.evolve(s, step=Step.MAIN, replacements=0)
            case Remove(unit):
                need = s.roll - t.cf(unit, s.reduced)  # SNC-11.2.2: CF off this GT's arrivals
                s = attrs.evolve(  # SNC-11.2.3: out for the rest of the game
                    s, roll=need, dead=s.dead | {unit}, trt=flow.trt_without(s, [unit])
                )
                if need <= 0 or not flow.interdiction_choices(t, s):
                    return attrs.evolve(s, step=Step.MAIN, roll=0)
                return s
            case Place(unit, h, rail):
                return self._place(s, unit, h, rail)
            case Land(units, h):
                return self._land(s, units, h)
            case Delay(unit):
                return attrs.evolve(
                    s, trt=tuple(sorted((*flow.trt_without(s, [unit]), (unit, s.turn + 1))))
                )
        raise self._refusal(s, action)

    def _is_legal(self, s: SNCState, action: Action) -> bool:
        """Legality is the listing's (`legal_actions`); a move is checked on its own start
        hex rather than by listing every move."""
        if isinstance(action, Move) and s.step == Step.MAIN:
            return self._move_ok(s, action)
        if isinstance(action, Overrun):
            return overrun_flow.is_legal(self.tables, s, action)
        if isinstance(action, Top):
            return action in self._tops(s)
        return action in self.legal_actions(s)

    def _move_ok(self, s: SNCState, m: Move) -> bool:
        """Only the phasing side's units move (SNC-9.0.6), in his Move phase or as a
        method-(a) reinforcement (SNC-9.0.5, SNC-8.2.2, SNC-8.2.7)."""
        t = self.tables
        loc = flow.locations(s.where)
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
            return tuple(m.units) == s.moving and m.to in flow.step_choices(
                t, s, start, s.mp, near_jp_ok=near_ok
            )
        here = flow.stacks(s.where)[start]
        for u in m.units:
            spec = t.spec[u]
            if loc[u] != start or spec.side != s.side or spec.is_static or u in s.done:
                return False
            if allowed is not None and u not in allowed:
                return False
        if len(m.units) > 1:
            mine = tuple(
                u
                for u in here
                if t.spec[u].side == s.side
                and not t.spec[u].is_static
                and u not in s.done
                and (allowed is None or u in allowed)
            )
            if not s.variant.is_("stack_movement", "stacks") or tuple(m.units) != mine:
                return False
        return m.to in flow.step_choices(t, s, start, 2 * flow.MF_MOBILE, near_jp_ok=near_ok)

    def _refusal(self, s: SNCState, action: Action) -> IllegalAction:
        clause = STEP_CLAUSE[s.step]
        if s.phase == Phase.DECLARE:
            return _illegal(
                f"{s.side} first declares his phase order for this player turn", "SNC-5.3.1"
            )
        match action:
            case Move():
                if s.phase in (Phase.OPS1, Phase.OPS2) and s.ops_kind() != "move":
                    return _illegal("no movement in a Fight phase", "SNC-5.3.2", "SNC-9.0.5")
                return _illegal(
                    f"{', '.join(action.units)} cannot move to {action.to}: units of one hex, "
                    "not yet moved, within their 8 MP, stopping on entering an EZOC, never "
                    "into an enemy hex",
                    "SNC-9.0.1",
                    "SNC-7.2.1",
                    "SNC-9.0.12",
                )
            case Overrun():
                return _illegal(
                    f"{', '.join(action.units)} cannot overrun {action.target}: Japanese units "
                    "that started their move in one hex and moved together, in a Move phase, "
                    "against an adjacent Chinese hex that is no city or town, with the MP for "
                    "it (entering plus 1)",
                    "SNC-9.6.1",
                    "SNC-9.6.2",
                )
            case Attack():
                if s.phase in (Phase.OPS1, Phase.OPS2) and s.ops_kind() != "fight":
                    return _illegal("no attack in a Move phase", "SNC-5.3.2", "SNC-10.0.1")
                return _illegal(
                    f"{action.target} cannot be attacked: an enemy hex next to a unit that has "
                    "not attacked, not yet attacked this phase",
                    "SNC-10.0.1",
                    "SNC-10.0.8",
                )
            case Join():
                return _illegal(
                    f"{action.unit} cannot join: a non-static unit next to the target that has "
                    "not attacked this phase",
                    "SNC-10.0.7",
                    "SNC-10.2.1",
                )
            case Place():
                return _illegal(
                    f"{action.unit} cannot arrive at {action.hex}: its listed hex or (from GT 3) "
                    "a railroad hex with a LoC, never next to a Japanese unit",
                    "SNC-8.2.1",
                    "SNC-8.2.4",
                )
            case Land():
                return _illegal(
                    "a landing takes this GT's next group, whole, to one of its landing hexes",
                    "SNC-8.4.0.3",
                    "SNC-8.4.1.1",
                )
            case Delay():
                return _illegal(
                    "reinforcements must arrive this GT (reinforcement_delay=mandatory)",
                    "SNC-5.4.1",
                    "SNC-8.0.2",
                )
            case Done() if s.phase == Phase.REINF:
                return _illegal(
                    "reinforcements due this GT must be placed or delayed first", "SNC-5.4.1"
                )
            case Loss():
                return _illegal(
                    f"{action.unit} cannot take this step: two-step units first, then the "
                    "strongest; Japanese garrisons last",
                    "SNC-10.5.2.1",
                    "SNC-10.5.2.2",
                    "SNC-10.5.2.3",
                )
            case Replace():
                return _illegal(
                    f"{action.unit} cannot be rebuilt: a reduced unit with a LoC to a landing "
                    "hex, two steps per GT from GT 3",
                    "SNC-8.3.1",
                    "SNC-8.3.5",
                )
            case Support():
                return _illegal(
                    f"no {action.kind} marker may be added: one per category per combat, if "
                    "one is left",
                    "SNC-11.1.3",
                    "SNC-11.1.5",
                )
        return _illegal(
            f"a {type(action).__name__} action is not allowed now ({s.phase.value}, "
            f"{s.step.value})",
            clause,
        )

    # --- the pieces of the sequence -------------------------------------------------------------
    def _move(self, s: SNCState, units: tuple[str, ...], to: Hex) -> SNCState:
        """One hex of a move (SNC-9.0.1 to SNC-9.0.4, SNC-9.0.10); control passes in every
        hex entered or only where the move ends (control_transit, SNC-3.2.2). A move with
        nowhere left to go ends by itself."""
        t = self.tables
        here = flow.locations(s.where)[units[0]]
        mp = s.mp if s.moving else 2 * flow.MF_MOBILE  # SNC-9.0.1, SNC-9.0.2: MF 8 a move
        mp -= flow.step_cost(t, s, here, to)  # SNC-9.0.4, SNC-9.3.2: the hex's cost
        s = flow.put(s, dict.fromkeys(units, to), moving=units, mp=mp)
        if control.takes_in_transit(s.variant):
            s = flow.arrive(t, s, s.side, [to], "move")
        near_ok = s.phase != Phase.REINF
        if not flow.step_choices(t, s, to, mp, near_jp_ok=near_ok) and not overrun_flow.actions(
            t, s
        ):
            return self._stop(s)
        return s

    def _stop(self, s: SNCState) -> SNCState:
        """The move under way ends: its units have moved this phase (SNC-9.0.10); a
        reinforcement's limited move is used up (SNC-8.2.2)."""
        moved = frozenset(s.moving)
        to = flow.locations(s.where)[s.moving[0]]
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
            s = flow.arrive(self.tables, s, s.side, [to], "move")
        return s

    def _support(self, s: SNCState, kind: str) -> SNCState:
        """A fire support marker (SNC-11.1.1 to SNC-11.1.5); a Japanese air marker lets the
        Chinese try to intercept (SNC-11.3.1; AMB-SNC-31)."""
        c = s.combat
        assert c is not None
        if s.step == Step.SUPPORT_D:
            c = attrs.evolve(c, support_d=(*c.support_d, kind))
            used = tuple(sorted((*s.used, f"{other(s.side)}:{kind}")))
            return attrs.evolve(s, combat=c, used=used, step=Step.ROLL)
        c = attrs.evolve(c, support_a=(*c.support_a, kind))
        used = tuple(sorted((*s.used, f"{s.side}:{kind}")))
        s = attrs.evolve(s, combat=c, used=used)
        if s.side == JP and s.phase == Phase.OPS1:
            s = attrs.evolve(s, jp_support_ops1=True)  # SNC-8.5.2
        if kind == "air" and self._ch_air_ready(s):
            return attrs.evolve(s, step=Step.AIR_ASK)  # SNC-11.3.1: the Chinese may intercept
        return s

    def _ch_air_ready(self, s: SNCState) -> bool:
        return s.ch_air and not (s.ch_air_used and s.variant.is_("chinese_air", "once_per_phase"))

    def _after_support_a(self, s: SNCState) -> SNCState:
        c = s.combat
        assert c is not None
        if flow.support_kinds(self.tables, s, c, True):
            return attrs.evolve(s, step=Step.SUPPORT_D)  # SNC-11.1.1, SNC-11.1.4: then defender
        return attrs.evolve(s, step=Step.ROLL)

    def _roll(self, s: SNCState, face: int) -> SNCState:
        t = self.tables
        if s.step == Step.AIR_ROLL:
            if face == 1:
                s = attrs.evolve(s, ch_air=False)  # SNC-11.3.2, SNC-11.3.3
            if s.combat is not None:
                if face == 6:
                    s = attrs.evolve(s, combat=attrs.evolve(s.combat, aborted=s.combat.aborted + 1))
                return attrs.evolve(s, step=Step.SUPPORT_A)
            if face == 6:
                return attrs.evolve(s, step=Step.MAIN)  # interdiction disrupted (SNC-11.3.3)
            return attrs.evolve(s, step=Step.INTERDICT_ROLL)  # SNC-11.2.1: then interdiction
        if s.step == Step.INTERDICT_ROLL:
            # SNC-11.2.2: the CF to remove from this GT's reinforcements for the roll
            need = flow.interdiction_target(t, attrs.evolve(s, roll=face))
            s = attrs.evolve(s, roll=need)
            if need <= 0 or not flow.interdiction_choices(t, s):
                return attrs.evolve(s, step=Step.MAIN, roll=0)
            return attrs.evolve(s, step=Step.INTERDICT)
        c = s.combat
        assert c is not None
        lost_a, lost_d = flow.crt(t, s, c, face)  # SNC-10.5.0.1: the die, the final column
        # SNC-10.5.1.1: step losses only, the attacker's and the defender's
        c = attrs.evolve(c, face=face, loss_a=lost_a, loss_d=lost_d, won=lost_a < lost_d)
        return self._losses_d(attrs.evolve(s, combat=c))

    def _alive(self, s: SNCState) -> list[str]:
        """The attackers still in play (on the map, or at sea for a landing)."""
        c = s.combat
        assert c is not None
        loc = flow.locations(s.where)
        at_sea = {u for u, _ in s.trt}
        return [u for u in c.attackers if u in loc or (c.landing and u in at_sea)]

    def _losses_d(self, s: SNCState) -> SNCState:
        """Defender losses first (SNC-10.5.1.1; in a landing, SNC-8.4.0.7)."""
        c = s.combat
        assert c is not None
        if c.loss_d > 0 and stacks(s.where).get(c.target):
            return attrs.evolve(s, step=Step.LOSS_D)
        return self._after_losses_d(s)

    def _after_losses_d(self, s: SNCState) -> SNCState:
        c = s.combat
        assert c is not None
        s = attrs.evolve(s, combat=attrs.evolve(c, loss_d=0))
        if c.landing and stacks(s.where).get(c.target):
            # SNC-8.4.0.9: garrison steps are eliminated, the rest retreat, one more step
            here = stacks(s.where)[c.target]
            garrisons = [u for u in here if self.tables.spec[u].is_static]
            s = flow.eliminate(self.tables, s, garrisons)
            s = attrs.evolve(s, combat=attrs.evolve(c, loss_d=0, loss_a=c.loss_a + 1))
            return self._retreats(s)
        return self._losses_a(s)

    def _retreater(self, s: SNCState) -> str:
        """The next Chinese unit to retreat from the landing hex (SNC-8.4.0.9) or from the hex
        a 10th Army unit advances into (SNC-8.4.1.3): the first with somewhere to go."""
        c = s.combat
        assert c is not None
        origin = c.second or c.target
        here = stacks(s.where).get(origin, ())
        return here[0]

    def _retreat_hexes(self, s: SNCState, origin: Hex) -> tuple[Hex, ...]:
        """Where the Chinese units in `origin` may retreat one hex (`retreat.retreat_hexes`:
        SNC-8.4.0.9, SNC-8.4.1.3, SNC-9.4.6, SNC-9.0.12; retreat_into_ezoc, AMB-SNC-11)."""
        t = self.tables
        return retreat.retreat_hexes(t.board, t.data, s.variant, stacks(s.where), CH, origin)

    def _retreats(self, s: SNCState) -> SNCState:
        """Each Chinese unit retreats one hex (SNC-8.4.0.9, SNC-8.4.1.3); one with nowhere to
        go is eliminated, or stays under retreat_blocked=stays (AMB-SNC-11)."""
        t = self.tables
        c = s.combat
        assert c is not None
        origin = c.second or c.target
        while here := stacks(s.where).get(origin, ()):
            if self._retreat_hexes(s, origin):
                return attrs.evolve(s, step=Step.RETREAT)
            if s.variant.is_("retreat_blocked", "stays"):
                break
            s = flow.eliminate(t, s, [here[0]])
        if c.second is not None:
            return self._advance_on_done(s)
        return self._losses_a(s)

    # --- a landing's survivors come ashore (SNC-8.4.0.8, SNC-8.4.1.2; AMB-SNC-11, AMB-SNC-12)

    def _ashore(self, s: SNCState, units: tuple[str, ...]) -> SNCState:
        c = s.combat
        assert c is not None
        s = attrs.evolve(s, trt=flow.trt_without(s, units))
        s = flow.put(s, dict.fromkeys(units, c.target))
        if units:
            s = flow.arrive(self.tables, s, JP, [c.target], "advance")
        return attrs.evolve(s, arrived=s.arrived | frozenset(units))

    def _ashore_choices(self, s: SNCState) -> list[str]:
        """Under landing_unpaid_losses=attackers_stay_at_sea, the survivors still at sea that
        fit in the landing hex (SNC-6.2.x), one at a time, the owner's choice (AMB-SNC-12)."""
        c = s.combat
        assert c is not None
        here = stacks(s.where).get(c.target, ())
        if here and self.tables.spec[here[0]].side == CH:
            return []  # Chinese stayed (retreat_blocked=stays): no one lands
        at_sea = [u for u in self._alive(s) if u not in flow.locations(s.where)]
        fits = stacking.within_limits
        return [u for u in at_sea if fits((*here, u), self.tables.data, s.variant)]

    def _ashore_done(self, s: SNCState) -> SNCState:
        """The survivors left at sea land in a later GT (AMB-SNC-12 attackers_stay_at_sea;
        also when Chinese units stayed in the hex, AMB-SNC-11 stays); SNC-8.0.2's box."""
        c = s.combat
        assert c is not None
        loc = flow.locations(s.where)
        at_sea = [u for u in self._alive(s) if u not in loc]
        if at_sea:
            later = flow.trt_without(s, at_sea)
            s = attrs.evolve(s, trt=tuple(sorted((*later, *((u, s.turn + 1) for u in at_sea)))))
        return self._landed(s)

    def _landed(self, s: SNCState) -> SNCState:
        """The landing is over: 10th Army units may make a second hex of advance
        (SNC-8.4.1.2), then the landing's stacking check (AMB-SNC-8 (c))."""
        if self._advance_on_choices(s):
            return attrs.evolve(s, step=Step.ADVANCE_ON)
        return self._landing_stack(s)

    def _tenth_army(self, unit: str) -> bool:
        """A unit of the reinforcement line whose units advance two hexes (SNC-8.4.1.1,
        SNC-8.4.1.2: the GT 7 10th Army)."""
        record = self.tables.record.get(unit)
        restriction = None if record is None else record.restriction
        return restriction is not None and restriction.advance_hexes == 2

    def _advance_on_choices(self, s: SNCState) -> list[AdvanceOn]:
        """10th Army units in the landing hex after its combat, each into an adjacent hex free
        of Chinese units where it may stack, or, when every such hex holds Chinese units, an
        adjacent Chinese-held coastal hex (SNC-8.4.1.2, SNC-8.4.1.3, SNC-10.5.3.2)."""
        c = s.combat
        if c is None or not c.landing:
            return []
        st = stacks(s.where)
        movers = [u for u in st.get(c.target, ()) if self._tenth_army(u)]
        if not movers:
            return []
        out = []
        data = self.tables.data
        for second in advance.tenth_army_second_hexes(data, self.board, c.target, st):
            there = () if second.chinese_retreat else st.get(second.hex, ())
            for u in movers:
                if stacking.within_limits((*there, u), data, s.variant):
                    out.append(AdvanceOn(u, second.hex))
        return out

    def _advance_on(self, s: SNCState, unit: str, to: Hex) -> SNCState:
        """A 10th Army unit's second hex (SNC-8.4.1.2); into a Chinese-held coastal hex the
        Chinese first retreat one hex (SNC-8.4.1.3)."""
        c = s.combat
        assert c is not None
        s = attrs.evolve(s, combat=attrs.evolve(c, second=to, second_unit=unit))
        if stacks(s.where).get(to):
            here = stacks(s.where)[to]
            if self.tables.spec[here[0]].side == CH:
                return self._retreats(s)  # SNC-8.4.1.3: the Chinese there retreat one hex
        return self._advance_on_done(s)

    def _advance_on_done(self, s: SNCState) -> SNCState:
        c = s.combat
        assert c is not None and c.second is not None and c.second_unit is not None
        to, unit = c.second, c.second_unit
        s = attrs.evolve(s, combat=attrs.evolve(c, second=None, second_unit=None))
        if not stacks(s.where).get(to):  # emptied (not under retreat_blocked=stays)
            s = flow.put(s, {unit: to})
            s = flow.arrive(self.tables, s, JP, [to], "advance")
        return self._landed(s)

    def _losses_a(self, s: SNCState) -> SNCState:
        c = s.combat
        assert c is not None
        if c.loss_a > 0 and self._alive(s):
            return attrs.evolve(s, step=Step.LOSS_A)
        return self._after_losses(s)

    def _after_losses(self, s: SNCState) -> SNCState:
        """Losses over (the rest cannot be absorbed, SNC-10.5.1.3): a landing's survivors
        come ashore (SNC-8.4.0.8, SNC-8.4.0.9); otherwise the advance (SNC-10.5.3.1)."""
        t = self.tables
        c = s.combat
        assert c is not None
        if c.landing:
            if s.variant.is_("landing_unpaid_losses", "attackers_stay_at_sea"):
                if self._ashore_choices(s):
                    return attrs.evolve(s, step=Step.ADVANCE)  # one at a time (AMB-SNC-12)
                return self._ashore_done(s)
            here = stacks(s.where).get(c.target, ())
            if here and t.spec[here[0]].side == CH:
                return self._ashore_done(s)  # they stayed (retreat_blocked=stays)
            return self._landed(self._ashore(s, tuple(self._alive(s))))
        if c.overrun:
            s, stop = overrun_flow.finish(t, s)  # SNC-9.6.6 to SNC-9.6.8
            if stop:
                s = self._stop(s)
            return flow.after_combat(t, s)
        if flow.advance_choices(t, s):
            return attrs.evolve(s, step=Step.ADVANCE)
        return flow.after_combat(t, s)

    def _cull_choices(self, s: SNCState) -> list[str]:
        """The units the owner may eliminate next from his over-stacked hexes (SNC-6.0.4): those
        of some legal choice (`overstack_cull`: no unit needlessly, or the fewest) that holds
        every unit he has culled there in this check; the choices come from the solver layer
        (`stacking_query.compliance_choices`)."""
        _, bad = flow.stack_chooser(self.tables, s)
        st = stacks(s.where)
        out: list[str] = []
        for h in bad:
            prior = tuple(sorted(u for u, x in s.culled if x == h))
            allowed = stacking_query.cull_next(hex_name(h), st[h], prior, self.data, s.variant)
            out.extend(u for u in st[h] if u in allowed)
        return out

    def _landing_stack(self, s: SNCState) -> SNCState:
        """After a landing: its hexes are checked only under checked_on_placement
        (AMB-SNC-8 (c))."""
        if s.variant.is_("reinforcement_stacking", "checked_on_placement"):
            return flow.after_combat(self.tables, s)
        return attrs.evolve(s, combat=None, step=Step.MAIN)

    def _loss(self, s: SNCState, unit: str) -> SNCState:
        t = self.tables
        c = s.combat
        assert c is not None
        s = flow.take_step(t, s, unit)
        if unit in s.moving and unit in s.dead | frozenset(s.elite):  # an overrunner lost
            rest = tuple(u for u in s.moving if u != unit)
            s = attrs.evolve(s, moving=rest, mp=s.mp if rest else 0)
        if s.step == Step.LOSS_D:
            c = attrs.evolve(c, loss_d=c.loss_d - 1)
            s = attrs.evolve(s, combat=c)
            return self._losses_d(s)
        c = attrs.evolve(c, loss_a=c.loss_a - 1)
        return self._losses_a(attrs.evolve(s, combat=c))

    def _elite_roll(self, s: SNCState, face: int) -> SNCState:
        """An eliminated elite unit returns `face` GTs later, reduced; beyond GT 12 it is
        gone (SNC-8.1.2, SNC-8.1.3)."""
        unit, rest = s.elite[0], s.elite[1:]
        box = s.turn + face
        if box > 12:
            return attrs.evolve(s, elite=rest, dead=s.dead | {unit})  # SNC-8.1.3: gone for good
        return attrs.evolve(
            s,
            elite=rest,
            reduced=s.reduced | {unit},
            trt=tuple(sorted((*s.trt, (unit, box)))),
        )

    def _place(self, s: SNCState, unit: str, h: Hex, rail: bool) -> SNCState:
        """A Chinese reinforcement arrives (SNC-8.2.2, SNC-8.2.4; method (a) units may then
        move, SNC-8.2.6) or SNLF 9 is placed (AMB-SNC-35)."""
        t = self.tables
        s = attrs.evolve(s, trt=flow.trt_without(s, [unit]), arrived=s.arrived | {unit})
        s = flow.put(s, {unit: h})
        s = flow.arrive(t, s, t.spec[unit].side, [h], "placement")
        if t.spec[unit].side == CH and not rail and unit not in s.reduced:
            s = attrs.evolve(s, movable=s.movable | {unit})  # SNC-8.2.2: method (a) may move
        return s

    def _land(self, s: SNCState, units: tuple[str, ...], h: Hex) -> SNCState:
        """An amphibious landing (SNC-8.4.0.1 to SNC-8.4.0.11), whatever the phase order
        (SNC-8.4.0.10): against Chinese units there,
        a landing combat; into an empty hex, the units are placed (AMB-SNC-12 (i))."""
        t = self.tables
        here = stacks(s.where).get(h, ())
        if here and t.spec[here[0]].side == CH:
            # SNC-8.4.0.4, SNC-8.4.0.10: a landing attack on the hex, whatever the phase order
            combat = Combat(target=h, attackers=units, landing=True, defenders=here)
            if s.variant.is_("landing_is_attack", "counts"):  # AMB-SNC-12, SNC-10.0.7
                s = attrs.evolve(s, done=s.done | frozenset(units))
            return attrs.evolve(s, combat=combat, step=Step.SUPPORT_A)  # SNC-8.4.0.6: markers
        s = attrs.evolve(s, trt=flow.trt_without(s, units), arrived=s.arrived | frozenset(units))
        s = flow.put(s, dict.fromkeys(units, h))
        return flow.arrive(t, s, JP, [h], "placement")  # SNC-8.4.0.11: placed

    def _end_reinforcements(self, s: SNCState) -> SNCState:
        t = self.tables
        if s.variant.is_("reinforcement_stacking", "checked_on_placement"):
            hexes = sorted({h for u, h in s.where if u in s.arrived})
            s = attrs.evolve(s, checked=tuple(hexes))  # AMB-SNC-8 (c): the arrivals' hexes
            bad = flow.overstacked_hexes(t, s, hexes, s.side)
            if bad:
                return attrs.evolve(s, step=Step.STACK, stack_hexes=tuple(bad), after_stack="phase")
        return flow.next_phase(t, s)

    def _known(self, action: Action) -> None:
        """Unknown unit ids are input errors naming the field."""
        units: list[tuple[str, str]] = []
        for name in ("unit",):
            value = getattr(action, name, None)
            if isinstance(value, str):
                units.append((f"action.{name}", value))
        for name in ("units",):
            values = getattr(action, name, None)
            if isinstance(values, tuple):
                units.extend((f"action.{name}[{i}]", u) for i, u in enumerate(values))
        for field, unit in units:
            if unit not in self.tables.spec:
                raise InvalidInput(f"unknown unit {unit!r}", field=field)

    # --- results and information --------------------------------------------------------------
    def outcome(self, s: SNCState) -> Outcome | None:
        return s.result

    def observe(self, s: SNCState, side: str) -> dict[str, Any]:
        """What `side` may know (SNC-6.3.1): only the top unit of each enemy stack."""
        return observe.observe(self, s, side)

    def check_position(self, s: SNCState) -> None:
        position.check_position(self.tables, s)

    def no_action_clauses(self, s: SNCState) -> tuple[str, ...]:
        return (STEP_CLAUSE[s.step],)

    def playout_agents(self) -> dict[str, Agent[SNCState, Action]]:
        """Agents for `wargame play`: each decides from its own observation only."""
        return {side: observing(random_policy, side) for side in self.sides}

    # --- data --------------------------------------------------------------------------------
    def _data(self, data_file: Path | None) -> SNCData:
        """The shipped data, or with one part replaced: SNC's data is five files, and a file
        given alone (`wargame data check snc1937 --file F`) replaces the part its `format` line
        names (a directory: all five read from there)."""
        if data_file is None:
            return self.data
        if data_file.is_dir():
            return load_data(data_file)
        return load_data(replace=[data_file])

    def data_facts(self, data_file: Path | None = None) -> list[FactResult]:
        return check_facts(facts(self._data(data_file)))

    def provisional(self, data_file: Path | None = None) -> list[tuple[str, Provenance]]:
        return self._data(data_file).provisional()

    # --- codec -------------------------------------------------------------------------------
    def state_to_json(self, s: SNCState) -> dict[str, Any]:
        return codec.state_to_json(self, s)

    def state_from_json(self, data: Any) -> SNCState:
        return codec.state_from_json(self, data)

    def action_to_json(self, action: Action) -> dict[str, Any]:
        return codec.action_to_json(action)

    def action_from_json(self, data: Any) -> Action:
        return codec.action_from_json(self, data)

    def describe(self, s: SNCState, action: Action) -> str:
        side = self.to_move(s) or ""
        return f"{side}: {codec.action_text(action)}"

    def headline(self, s: SNCState) -> str:
        lines = [f"GT {s.turn}", f"{s.side} player turn", f"{s.phase.value}"]
        return "\n".join(lines)

    def events(self, before: SNCState, action: Action, after: SNCState) -> list[str]:
        out = []
        c = before.combat
        if isinstance(action, Roll) and before.step == Step.ROLL and c is not None:
            out.append(self._combat_line(before, c, action.face))
        gone = after.dead - before.dead
        if gone:
            out.append(f"eliminated: {', '.join(sorted(gone))} (SNC-2.2.1.13)")
        if after.result is not None and before.result is None:
            out.append(f"game over: {after.result.reason} ({after.result.clause})")
        return out

    def _combat_line(self, s: SNCState, c: Combat, face: int) -> str:
        """The battle as the players work it out: strengths, odds, each shift with its clause,
        the final column, the die and the steps lost (SNC-10.3.x, SNC-10.4.x, SNC-10.5.x)."""
        found = flow.battle(self.tables, s, c)
        kind = "landing" if c.landing else "overrun" if c.overrun else "attack"
        shifts = ", ".join(
            f"{'+' if x.columns > 0 else ''}{x.columns} {x.why} ({x.clause})" for x in found.shifts
        )
        lost_a, lost_d = flow.crt(self.tables, s, c, face)
        return (
            f"{kind} on {c.target}: {found.attack}:{found.defence}, "
            f"{odds_label(found.base)}{'; ' + shifts if shifts else ''}; final {found.label}; "
            f"die {face}: attacker loses {lost_a}, defender {lost_d} (SNC-10.5.0.1)"
        )

    # --- picture -----------------------------------------------------------------------------
    def scene(self, s: SNCState, side: str | None = None) -> Scene:
        """The position as a picture (kernel.scene), for `wargame render`; with `side`, as that
        side may see it (SNC-6.3.1)."""
        return picture.scene(self, s, side)
