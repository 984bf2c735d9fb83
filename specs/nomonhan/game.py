"""The Nomonhan Game: the kernel contract over the pure rules modules.

It stands above the parts: the rules meet here what a side is shown (`observe`, the state
document). The other roles (codec, narration, picture, position check, data check) are
objects of their own, built from this one (`specs/nomonhan/__init__.py`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import attrs

from kernel.errors import IllegalAction, ImpossiblePosition, InvalidInput
from kernel.game import CHANCE, Outcome
from kernel.hexes import Hex
from kernel.variants import Catalogue, Variant
from specs.nomonhan.data.loader import DATA_FILE, load_data
from specs.nomonhan.data.variants import CATALOGUE
from specs.nomonhan.formal import moot_readings, position, situations
from specs.nomonhan.io import codec, narration
from specs.nomonhan.rules.actions import (
    Action,
    Advance,
    Declare,
    Demolish,
    EndAdvance,
    EndPhase,
    EndRoll,
    Enter,
    Loss,
    Move,
    Resolve,
    Roll,
)
from specs.nomonhan.rules.board import Board
from specs.nomonhan.rules.combat_query import declarations, explain_declaration, why_no_declaration
from specs.nomonhan.rules.declare import canonical
from specs.nomonhan.rules.movement import (
    apply_move,
    check,
    demolish_problem,
    end_phase_problem,
    enter_problem,
    entry_is_mandatory,
    legal_movement_actions,
    move_problem,
    try_move,
)
from specs.nomonhan.rules.resolve import (
    advance_choices,
    apply_advance,
    apply_loss,
    apply_roll,
    damage_chooser,
    loser_units,
    loss_choices,
    retreat_problem,
    start_combat,
)
from specs.nomonhan.rules.sequence import (
    after_combat,
    apply_end_roll,
    end_movement_phase,
    sudden_death_condition,
)
from specs.nomonhan.rules.state import NomonhanState, Phase, Stage, UnitState
from specs.nomonhan.rules.strength import full_steps, roll_outcomes


class Nomonhan:
    """Battle of Nomonhan (CMJ postcard game, 2012), EN and JA texts."""

    name: str = "nomonhan"
    title: str = "Battle of Nomonhan"
    sides: tuple[str, ...] = ("JP", "SU")
    catalogue: Catalogue = CATALOGUE
    nontermination_clauses: tuple[str, ...] = ("NOM-5.2", "NOM-6.2", "NOM-5.4", "NOM-5.5")
    perfect_information: bool = True

    def __init__(self, data_file: Path = DATA_FILE) -> None:
        self.data = load_data(data_file)
        self.board = Board(self.data)

    # --- setup --------------------------------------------------------------------------------
    def presets(self) -> Mapping[str, Variant]:
        return {name: CATALOGUE.preset(name) for name in CATALOGUE.presets}

    def initial_state(self, variant: Variant) -> NomonhanState:
        """Set-up (NOM-3.1 to NOM-3.4): at-start units on their hexes, reinforcements off map,
        Turn 1 with the Japanese initiative (NOM-6.1)."""
        # NOM-3.1, NOM-3.2: at-start units on their set-up hexes; NOM-3.4: GT units off map
        units = tuple(UnitState(s.id, s.setup, full_steps(variant, s)) for s in self.data.units)
        return NomonhanState(
            variant=variant,
            turn=1,  # NOM-3.3: the Turn marker in box 1, Japanese side up
            initiative="JP",  # NOM-6.1: Japan has the initiative in Turn 1
            phase=Phase.IP_MOVEMENT,
            stage=Stage.MOVE,
            units=units,
        )

    # --- who moves, and what may they do --------------------------------------------------------
    def to_move(self, state: NomonhanState) -> str | None:
        match state.stage:
            case Stage.OVER:
                return None
            case Stage.ROLL | Stage.END_ROLL:
                return CHANCE
            case Stage.DAMAGE:
                return damage_chooser(state)
            case Stage.ADVANCE:
                res = state.current
                assert res is not None and res.loser is not None
                return "SU" if res.loser == "JP" else "JP"
        return state.phasing

    def legal_actions(self, state: NomonhanState) -> Sequence[Action]:
        b = self.board
        match state.stage:
            case Stage.MOVE:
                acts: list[Action] = list(legal_movement_actions(b, state))
                if not entry_is_mandatory(b, state):
                    acts.append(EndPhase())
                return acts
            case Stage.DECLARE:
                return [Declare(d) for d in declarations(b, state)]  # Z3 (combat_query)
            case Stage.PICK:
                return [Resolve(i) for i in range(len(state.pending))]
            case Stage.DAMAGE:
                return [Loss(u, h) for u, h in loss_choices(b, state)]
            case Stage.ADVANCE:
                return [*(Advance(u, h) for u, h in advance_choices(b, state)), EndAdvance()]
        return []

    def chance_outcomes(self, state: NomonhanState) -> Sequence[tuple[Action, Fraction]]:
        if state.stage == Stage.ROLL:
            assert state.current is not None
            return [
                (Roll(a, d), p)
                for (a, d), p in roll_outcomes(self.board, state, state.current.combat)
            ]
        if state.stage == Stage.END_ROLL:
            return [(EndRoll(face), Fraction(1, 6)) for face in range(1, 7)]  # NOM-2.3
        return []

    # --- transitions -------------------------------------------------------------------------
    def apply(self, state: NomonhanState, action: Action) -> NomonhanState:
        """The next state; raises IllegalAction with the clauses the action breaks."""
        b = self.board
        stage = state.stage
        if stage is Stage.MOVE and type(action) is Move:
            # the common case: a legal Move (`move_problem` is None), from a per-state cache
            nxt = try_move(b, state, action.unit, action.to)
            if nxt is not None:
                return nxt
        if stage == Stage.OVER:
            raise IllegalAction(
                "the game is over", clauses=(state.result.clause,) if state.result else ()
            )
        self._known_units(action)
        match action:
            case Move(unit, to) if stage == Stage.MOVE:
                check(move_problem(b, state, action))
                return apply_move(b, state, unit, to)
            case Enter(unit, _, to) if stage == Stage.MOVE:
                check(enter_problem(b, state, action))
                return apply_move(b, state, unit, to)
            case Demolish() if stage == Stage.MOVE:
                check(demolish_problem(b, state))
                return attrs.evolve(state, demolished=True)
            case EndPhase() if stage == Stage.MOVE:
                problem = end_phase_problem(b, state)
                if problem is not None:
                    raise IllegalAction(problem[1], clauses=(problem[0],))
                return end_movement_phase(b, state)
            case Declare(combats) if stage == Stage.DECLARE:
                combats = canonical(b, state, combats)
                if combats not in declarations(b, state):  # cached; explain refusals only
                    reasons = explain_declaration(b, state, combats)
                    raise IllegalAction(
                        "; ".join(map(str, reasons)) or "not a legal declaration (NOM-9.8)",
                        clauses=tuple(dict.fromkeys(c for r in reasons for c in r.clauses))
                        or ("NOM-9.8",),
                    )
                state = attrs.evolve(
                    state,  # NOM-9.19: the Artillery is flipped when it supports (below)
                    pending=combats,  # NOM-9.8: all combats fixed, then resolved one by one
                    artillery_used=state.artillery_used or any(c.support for c in combats),
                )
                return after_combat(b, state)
            case Resolve(index) if stage == Stage.PICK:
                if not 0 <= index < len(state.pending):
                    raise IllegalAction(
                        f"there is no pending combat {index} (NOM-9.8)", clauses=("NOM-9.8",)
                    )
                return start_combat(b, state, index)
            case Roll(a, d) if stage == Stage.ROLL:
                if action not in {act for act, _ in self.chance_outcomes(state)}:
                    raise IllegalAction(
                        f"{a} and {d} hits cannot be rolled with these dice (NOM-9.9)",
                        clauses=("NOM-9.9",),
                    )
                return apply_roll(b, state, a, d)
            case Loss(unit, to) if stage == Stage.DAMAGE:
                if (unit, to) not in loss_choices(b, state):
                    message, clauses = self._loss_problem(state, unit, to)
                    raise IllegalAction(message, clauses=clauses)
                return apply_loss(b, state, unit, to)
            case Advance(unit, to) if stage == Stage.ADVANCE:
                if (unit, to) not in advance_choices(b, state):
                    raise IllegalAction(
                        f"{unit} cannot advance into {to}: one hex into a vacant hex, crossing "
                        "as in movement, participants only by reading (NOM-9.30, NOM-9.32, "
                        "NOM-9.33)",
                        clauses=("NOM-9.30", "NOM-9.32", "NOM-9.33"),
                    )
                return apply_advance(b, state, unit, to)
            case EndAdvance() if stage == Stage.ADVANCE:
                return after_combat(b, attrs.evolve(state, current=None))
            case EndRoll(face) if stage == Stage.END_ROLL:
                if not 1 <= face <= 6:
                    raise IllegalAction("a die shows 1 to 6 (NOM-2.3)", clauses=("NOM-2.3",))
                return apply_end_roll(b, state, face)
        raise IllegalAction(
            f"a {codec.action_type(action)} action is not allowed now: the game is at "
            f"{narration.stage_text(state)} ({_STAGE_CLAUSE[stage]})",
            clauses=(_STAGE_CLAUSE[stage],),
        )

    def _known_units(self, action: Action) -> None:
        """Unknown unit ids are input errors naming the JSON path, not rule violations."""
        ids: list[tuple[str, str]] = []
        if isinstance(action, Move | Enter | Loss | Advance):
            ids.append(("action.unit", action.unit))
        if isinstance(action, Declare):
            for i, c in enumerate(action.combats):
                for role in ("attackers", "defenders"):
                    units = c.attackers if role == "attackers" else c.defenders
                    ids.extend((f"action.combats[{i}].{role}[{k}]", u) for k, u in enumerate(units))
        for field, unit in ids:
            if unit not in self.board.side_of:
                raise InvalidInput(f"unknown unit {unit!r}", field=field)

    def _loss_problem(
        self, state: NomonhanState, unit: str, to: Hex | None
    ) -> tuple[str, tuple[str, ...]]:
        if unit not in loser_units(state):
            return (
                f"{unit} is not a unit of the losing side in this combat (NOM-9.24)",
                ("NOM-9.24",),
            )
        if (unit, None) not in loss_choices(self.board, state):
            return (
                f"the damage falls on the Soviet Artillery, not on {unit} (NOM-9.28, "
                "artillery_shielding=any_damage_ends, AMB-NOM-15)",
                ("NOM-9.28",),
            )
        assert to is not None
        problem = retreat_problem(self.board, state, unit, to)
        clause, message = problem or ("NOM-9.24", f"{unit} cannot retreat into {to}")
        return f"{message} ({clause})", (clause,)

    def outcome(self, state: NomonhanState) -> Outcome | None:
        return state.result

    def observe(self, state: NomonhanState, side: str) -> dict[str, Any]:
        """Nomonhan has no hidden information: every side sees the whole state, and its
        observation is the state document (`wire.Observation`)."""
        return codec.state_to_json(self, state)

    def without_unit(self, state: NomonhanState, unit: str) -> NomonhanState | None:
        """`state` with `unit` eliminated as combat eliminates it (`kernel.game.UnitRemoval`):
        off the map with no step left (NOM-9.24; NOM-3.1, NOM-3.2: an off-map unit that is no
        waiting reinforcement is eliminated), no longer among this phase's movers. None when
        the unit is not on the map, takes part in a combat declared or under way (NOM-9.8: its
        record names it), or its elimination ends the game (NOM-4.1, NOM-4.2), or the position
        check refuses the result."""
        if unit not in self.board.side_of or state.unit(unit).hex is None:
            return None
        named = {u for c in state.pending for u in (*c.attackers, *c.defenders)}
        if state.current is not None:
            c = state.current.combat
            named.update(c.attackers, c.defenders, (u for u, _ in state.current.start_hexes))
        if unit in named:
            return None  # NOM-9.8: a declared combat keeps its participants
        units = tuple(UnitState(u.id, None, 0) if u.id == unit else u for u in state.units)
        out = attrs.evolve(state, units=units, moved=state.moved - {unit})
        if sudden_death_condition(self.board, out) is not None:
            return None  # NOM-4.1, NOM-4.2: the game would end there
        try:
            position.check_position(self.board, out)
        except ImpossiblePosition:
            return None
        return out

    def no_action_clauses(self, state: NomonhanState) -> tuple[str, ...]:
        """The clauses whose obligations collide where the side to move has no legal action:
        in a Combat Phase, the minimal unsat core of the declaration's encoding (who must
        attack, who must be attacked, one combat each, the grouping); elsewhere the sequence
        of play (NOM-5.1)."""
        if state.stage == Stage.DECLARE:
            return why_no_declaration(self.board, state) or ("NOM-9.2", "NOM-9.3")
        return ("NOM-5.1",)

    def reading_proofs(self) -> Mapping[str, moot_readings.Proof]:
        """Proofs that two readings of an option cannot differ, by option, for the
        ambiguity explorer (`formal.moot_readings`: artillery_self_support,
        demolition_effect, disturbed_combats)."""
        return moot_readings.reading_proofs(self)

    def reading_situations(self) -> Mapping[str, situations.Distance]:
        """Where two readings of an option answer differently, by option, as a distance over a
        state for the ambiguity explorer to steer play by (`formal.situations`)."""
        return situations.reading_situations(self.board)


_STAGE_CLAUSE = {
    Stage.MOVE: "NOM-8.1",
    Stage.DECLARE: "NOM-9.8",
    Stage.PICK: "NOM-9.8",
    Stage.ROLL: "NOM-9.9",
    Stage.DAMAGE: "NOM-9.24",
    Stage.ADVANCE: "NOM-9.29",
    Stage.END_ROLL: "NOM-5.4",
    Stage.OVER: "NOM-4.3",
}
