"""The SNC rules of play: the kernel contract (`kernel.game.Game`) over the sequence of play,
all but what a side is shown (`observe`, added by the dispatcher `specs.snc1937.game.SNC`).

`SNCRules` reads the stage a state is at (its phase and step) and calls the pure functions of
the rules modules: the game turn and its stacking checks in `sequence.py`, each kind of step in
its topic module (`movement_steps.py`, `overrun_steps.py`, `combat_steps.py`,
`support_steps.py`, `reinforcement_steps.py`, `top_unit.py`). An action out of place or breaking
a rule is refused with `IllegalAction` naming the clause (`refusals.py`). Dice are chance
actions with probability 1/6. The roles besides the rules (codec, narration, picture, position
check, data check) are built from the rules object by the package
(`specs/snc1937/__init__.py`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path

from kernel.errors import InvalidInput
from kernel.game import CHANCE, Outcome
from kernel.variants import Catalogue, Variant
from specs.snc1937.data.loader import DATA_DIR, load_data
from specs.snc1937.data.variants import CATALOGUE
from specs.snc1937.rules import (
    combat_choices,
    combat_steps,
    movement_steps,
    overrun_steps,
    reinforcement_steps,
    sequence,
    support_steps,
    top_unit,
)
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
from specs.snc1937.rules.refusals import STEP_CLAUSE, illegal, refusal
from specs.snc1937.rules.state import CH, JP, Order, Phase, SNCState, Step, evolve, other
from specs.snc1937.rules.tables import Tables

DIE = tuple(range(1, 7))
DIE_OUTCOMES = tuple((Roll(f), Fraction(1, 6)) for f in DIE)
"""A die's faces, each at 1/6 (SNC-10.5.0.1): made once, as every chance step offers them."""


class SNCRules:
    """Shanghai-Nanking Campaign 1937 (Strategy & Tactics 329, 2021): the rules of play."""

    name: str = "snc1937"
    title: str = "Shanghai-Nanking Campaign 1937"
    sides: tuple[str, ...] = (CH, JP)
    """One player commands every Chinese unit, the other every Japanese one (SNC-1.2.1,
    SNC-3.0.1)."""
    catalogue: Catalogue = CATALOGUE
    nontermination_clauses: tuple[str, ...] = ("SNC-5.2.2",)
    perfect_information: bool = False
    """Play ends after GT 12 at the latest (SNC-5.2.2); each phase ends by `Done`."""

    def __init__(self, data_dir: Path = DATA_DIR) -> None:
        self.data = load_data(data_dir)
        self.tables = Tables(self.data)
        self.board = self.tables.board
        self._listed: tuple[SNCState, Sequence[Action]] | None = None
        """The last state listed and its listing, for `apply`'s check on the same state."""
        self._mover: tuple[SNCState, str | None] | None = None

    # --- setup --------------------------------------------------------------------------------
    def presets(self) -> Mapping[str, Variant]:
        return {name: CATALOGUE.preset(name) for name in CATALOGUE.presets}

    def initial_state(self, variant: Variant) -> SNCState:
        """Set-up per SNC-3.1.1 to SNC-3.1.5 and section 13; GT 1 opens with the Chinese
        phase-order declaration (SNC-5.1.1, SNC-5.3.1)."""
        return sequence.initial_state(self.tables, variant)

    # --- who moves, and what may they do --------------------------------------------------------
    def to_move(self, s: SNCState) -> str | None:
        """Who decides at `s`; kept for the last state asked, since play asks it of one
        state several times (the player, `legal_actions`, `apply`)."""
        mover = self._mover  # read once: another thread may ask meanwhile
        if mover is not None and mover[0] is s:  # kept alive with it: no other state has its id
            return mover[1]
        side = self._to_move(s)
        self._mover = (s, side)
        return side

    def _to_move(self, s: SNCState) -> str | None:
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
                return sequence.stack_chooser(self.tables, s)[0]
        return s.side

    def legal_actions(self, s: SNCState) -> Sequence[Action]:
        """The listing, kept for the state it lists (one state), so that `apply` after
        `legal_actions` on the same state object checks membership without listing again; a
        plain list is kept as a tuple, since the caller may change the list it is given."""
        listing = self._listing(s)
        self._listed = (s, tuple(listing) if type(listing) is list else listing)
        return listing

    def _listing(self, s: SNCState) -> Sequence[Action]:
        if self.to_move(s) in (None, CHANCE):
            return []
        t = self.tables
        c = s.combat
        match s.step:
            case Step.MAIN:
                return self._main_actions(s)
            case Step.GROUP:  # SNC-9.0.10, SNC-9.6.2: a group formed unit by unit
                return movement_steps.group_actions(t, s)
            case Step.JOIN if overrun_steps.declaring(s):
                # SNC-9.6.2: the overrun group, one unit at a time from its start hex
                group: list[Action] = [Join(u) for u in overrun_steps.join_choices(t, s)]
                return [*group, Strike()] if overrun_steps.may_strike(t, s) else group
            case Step.JOIN:
                assert c is not None
                joins: list[Action] = [Join(u) for u in combat_choices.join_choices(t, s)]
                return [*joins, Strike()] if combat_choices.may_strike(t, s, c) else joins
            case Step.SUPPORT_A | Step.SUPPORT_D:
                assert c is not None
                defending = s.step == Step.SUPPORT_D
                kinds = support_steps.support_kinds(t, s, c, defending)
                return [*(Support(k) for k in kinds), Done()]
            case Step.AIR_ASK | Step.AIR_DEFENCE:
                return [Intercept(True), Intercept(False)]
            case Step.LOSS_D:
                return [Loss(u) for u in combat_choices.defender_loss_choices(t, s)]
            case Step.LOSS_A:
                return [Loss(u) for u in combat_choices.attacker_loss_choices(t, s)]
            case Step.RETREAT:
                return [Retreat(u, h) for u, h in combat_choices.retreat_choices(t, s)]
            case Step.ADVANCE:
                # SNC-10.5.3.5: advance is optional, decided now (Done declines it)
                return [*(Advance(u) for u in combat_choices.advancers(t, s)), Done()]
            case Step.ADVANCE_ON:
                return [*combat_choices.advance_on_choices(t, s), Done()]
            case Step.STACK:
                return [Eliminate(u) for u in sequence.cull_choices(t, s)]
            case Step.REPLACE:
                # SNC-8.3.4: flip reduced units back, up to the steps left (Done stops)
                return [*(Replace(u) for u in reinforcement_steps.replace_choices(t, s)), Done()]
            case Step.INTERDICT:
                return [Remove(u) for u in reinforcement_steps.interdiction_choices(t, s)]
        return []

    def _main_actions(self, s: SNCState) -> Sequence[Action]:
        t = self.tables
        if s.phase == Phase.DECLARE:
            return [Declare(o) for o in Order]  # SNC-5.3.1: the phase order comes first
        if s.phase in (Phase.OPS1, Phase.OPS2):
            if s.ops_kind() == "move":  # SNC-5.3.2, SNC-9.0.5: a Move phase
                return movement_steps.move_actions(t, s, True, None)
            # SNC-5.3.2, SNC-10.0.1: attacks only in a Fight phase; SNC-10.0.2: each voluntary
            targets = combat_choices.attack_targets(t, s)
            return [*(Attack(h) for h in targets), *top_unit.tops(t, s), Done()]
        if s.phase == Phase.REINF:
            # SNC-5.3.5, SNC-8.4.0.2: reinforcements arrive in this phase, after the First Ops
            return reinforcement_steps.reinforcement_actions(t, s)
        return []

    def chance_outcomes(self, s: SNCState) -> Sequence[tuple[Action, Fraction]]:
        if self.to_move(s) != CHANCE:
            return []
        return list(DIE_OUTCOMES)

    # --- transitions --------------------------------------------------------------------------
    def apply(self, s: SNCState, action: Action) -> SNCState:
        """The next state; IllegalAction names the clause an action breaks."""
        if self.to_move(s) is None:
            clause = s.result.clause if s.result else "SNC-5.2.2"
            raise illegal("the game is over", clause)
        self._known(action)
        self._check(s, action)  # on the state as given, whose listing a player just asked
        if s.checked:  # the last step's stacking check; this step records only its own
            s = evolve(s, checked=())  # (no rule reads `checked`: the listing is the same)
        return sequence.settle(self.tables, s, action, self._transition(s, action))

    def _transition(self, s: SNCState, action: Action) -> SNCState:
        """The step `action` takes, once it is known to be legal (`_check`)."""
        t = self.tables
        match action:
            case Declare(order):
                return sequence.declare(t, s, order)
            case Move(units, to):
                return movement_steps.move(t, s, units, to)
            case Overrun():
                return overrun_steps.start(t, s, action)
            case Attack(target):
                return combat_steps.attack(s, target)
            case Join(unit) if s.step in (Step.MAIN, Step.GROUP):
                return movement_steps.join_group(t, s, unit)  # SNC-9.0.10, SNC-9.6.2
            case Join(unit):
                return combat_steps.join(s, unit)
            case Strike() if overrun_steps.declaring(s):
                return overrun_steps.strike(t, s)  # SNC-9.6.1, SNC-9.6.3
            case Strike():
                return combat_steps.strike(s)
            case Support(kind):
                return support_steps.support(s, kind)
            case Intercept(yes):
                return support_steps.intercept(s, yes)
            case Roll(face):
                return self._roll(s, face)
            case Loss(unit):
                return combat_steps.loss(t, s, unit)
            case Retreat(unit, to):
                return combat_steps.retreat_unit(t, s, unit, to)
            case Advance(unit):
                return combat_steps.advance_unit(t, s, unit)
            case AdvanceOn(unit, to):
                return combat_steps.advance_on(t, s, unit, to)
            case Done():
                return self._done(s)
            case Top(unit):
                return top_unit.put_on_top(s, unit)
            case Eliminate(unit):
                return sequence.cull(t, s, unit)
            case Replace(unit):
                return reinforcement_steps.replace(t, s, unit)
            case Remove(unit):
                return reinforcement_steps.remove(t, s, unit)
            case Place(unit, h, rail):
                return reinforcement_steps.place(t, s, unit, h, rail)
            case Land(units, h):
                return reinforcement_steps.land(t, s, units, h)
            case Delay(unit):
                return reinforcement_steps.delay(s, unit)
        raise refusal(s, action)

    def _check(self, s: SNCState, action: Action) -> None:
        """Refuse an action out of place: a die when none is due (an eliminated elite unit's
        return die before anything else, SNC-8.1.2), a decision when a die is, or one the
        listing leaves out."""
        chance = self.to_move(s) == CHANCE
        if s.elite and not (isinstance(action, Roll) and action.face in DIE):
            raise illegal("the eliminated elite unit's return die comes first", "SNC-8.1.2")
        if chance != isinstance(action, Roll):
            clause = STEP_CLAUSE[s.step]
            raise illegal("a die roll is a chance action, taken only when a die is due", clause)
        if isinstance(action, Roll) and action.face not in DIE:
            raise illegal("a die shows 1 to 6", "SNC-10.5.0.1")
        if not chance and not self._is_legal(s, action):
            t = self.tables
            raise (
                overrun_steps.why_not(t, s, action)
                or movement_steps.why_not(t, s, action)
                or refusal(s, action)
            )

    def _roll(self, s: SNCState, face: int) -> SNCState:
        """The die due at this step (SNC-8.1.2, SNC-11.3.2, SNC-11.2.1, SNC-10.5.0.1)."""
        t = self.tables
        if s.elite:
            return reinforcement_steps.elite_return(s, face)
        match s.step:
            case Step.AIR_ROLL:
                return support_steps.air_roll(s, face)
            case Step.INTERDICT_ROLL:
                return reinforcement_steps.interdiction_roll(t, s, face)
        return combat_steps.roll(t, s, face)

    def _done(self, s: SNCState) -> SNCState:
        """`Done` ends what the step is doing: the advance, the 10th Army's second hex, the
        fire support, the replacements, the move under way; otherwise the phase."""
        t = self.tables
        match s.step:
            case Step.ADVANCE:
                return combat_steps.end_advance(t, s)
            case Step.ADVANCE_ON:
                return combat_steps.landing_stack(t, s)
            case Step.SUPPORT_A:
                return support_steps.end_attacker_support(t, s)
            case Step.SUPPORT_D:
                return support_steps.end_defender_support(s)
            case Step.REPLACE:
                return reinforcement_steps.end_replacements(s)
            case Step.MAIN if s.moving:
                return movement_steps.stop(t, s)
        if s.phase in (Phase.OPS1, Phase.OPS2):
            return sequence.end_ops(t, s)
        if s.phase == Phase.REINF:
            return sequence.end_reinforcements(t, s)
        raise refusal(s, Done())

    def _is_legal(self, s: SNCState, action: Action) -> bool:
        """Legality is the listing's (`legal_actions`); a move is checked on its own start
        hex, an overrun on its own target, a group's join on its own, rather than by listing
        every move; any other action against the listing of this very state if it was the
        last listed (a player lists, then applies), else a fresh one. An action that listing
        offers is legal at once: a player applies what it was just offered."""
        listed = self._listed_for(s)
        if listed is not None and action in listed:
            return True
        t = self.tables
        if isinstance(action, Move) and s.step in (Step.MAIN, Step.GROUP):
            return movement_steps.move_ok(t, s, action)
        if isinstance(action, Join) and s.step in (Step.MAIN, Step.GROUP):
            return action in movement_steps.group_joins(t, s)  # SNC-9.0.10, SNC-9.6.2
        if isinstance(action, Overrun):
            return overrun_steps.is_legal(t, s, action)
        if isinstance(action, Top):
            return action in top_unit.tops(t, s)
        return listed is None and action in self._listing(s)

    def _listed_for(self, s: SNCState) -> Sequence[Action] | None:
        """The kept listing if it is this very state's (kept alive with it, so no other state
        has its id), else None."""
        listed = self._listed  # read once: another thread may list meanwhile
        return listed[1] if listed is not None and listed[0] is s else None

    def _known(self, action: Action) -> None:
        """Unknown unit ids are input errors naming the field."""
        unit, units = getattr(action, "unit", None), getattr(action, "units", None)
        fields = [("action.unit", unit)] if isinstance(unit, str) else []
        if isinstance(units, tuple):
            fields.extend((f"action.units[{i}]", u) for i, u in enumerate(units))
        for field, u in fields:
            if u not in self.tables.spec:
                raise InvalidInput(f"unknown unit {u!r}", field=field)

    # --- results and information --------------------------------------------------------------
    def outcome(self, s: SNCState) -> Outcome | None:
        return s.result

    def no_action_clauses(self, s: SNCState) -> tuple[str, ...]:
        return (STEP_CLAUSE[s.step],)
