"""The Shumshu Game: the kernel contract over the pure rules modules.

It stands above the parts: where the rules meet what a side is shown (`observe`), and the
words an action refused at the wrong step is named with (`io.narration`). The roles besides
the rules (codec, narration, picture, position check, data check) are built from it by the
package (`specs/shumshu/__init__.py`)."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from kernel.choices import Chain, Mapped
from kernel.errors import IllegalAction, InvalidInput
from kernel.game import CHANCE, Outcome
from kernel.hexes import Hex
from kernel.playout import Agent, observing, random_policy
from kernel.variants import Catalogue, Variant
from specs.shumshu.data.loader import DATA_FILE, load_data
from specs.shumshu.data.variants import CATALOGUE
from specs.shumshu.formal import moot_readings, situations
from specs.shumshu.io import narration, observation
from specs.shumshu.rules import (
    combat,
    combat_decisions,
    ending,
    landing,
    sequence,
    setup,
    turn_decisions,
)
from specs.shumshu.rules.actions import (
    Action,
    Advance,
    AirRoll,
    Commit,
    Defend,
    Done,
    Embark,
    Form,
    Hold,
    Join,
    LandAt,
    Move,
    Place,
    Reinforce,
    Replace,
    Resolve,
    Retreat,
    ReturnDecoy,
    Roll,
    Strike,
)
from specs.shumshu.rules.board import Board
from specs.shumshu.rules.combat_query import declaration_ok, join_ok
from specs.shumshu.rules.declare import front, pairs_of
from specs.shumshu.rules.movement import moves_of
from specs.shumshu.rules.state import JP, RU, ShumshuState, Stage, other

STAGE_CLAUSE = {
    Stage.SETUP: "SHU-SETUP.1",
    Stage.FORM: "SHU-RGT.1",
    Stage.SAIL: "SHU-LAND.1",
    Stage.AIR: "SHU-AIR.2",
    Stage.AIR_ROLL: "SHU-AIR.2",
    Stage.REPLACE: "SHU-REPL.1",
    Stage.REINFORCE: "SHU-REINF.2",
    Stage.DECOY: "SHU-COMBAT.6",
    Stage.MOVE: "SHU-MOVE.1",
    Stage.DECLARE: "SHU-COMBAT.1",
    Stage.PICK: "SHU-COMBAT.1",
    Stage.DEFENDERS: "SHU-STACK.3",
    Stage.HOLD: "SHU-LAND.8",
    Stage.COMMIT: "SHU-PRESS.1",
    Stage.ROLL: "SHU-CRT.1",
    Stage.RETREAT: "SHU-CRT.4",
    Stage.ADVANCE: "SHU-COMBAT.13",
    Stage.OVER: "SHU-WIN.3",
}


def _placings(unit: str, hexes: Sequence[Hex]) -> Mapped[Hex, Action]:
    """`Place(unit, h)` for every hex, built when read (SHU-SETUP.1)."""
    return Mapped(functools.partial(Place, unit), hexes, functools.partial(_placed_hex, unit))


def _placed_hex(unit: str, action: object) -> Hex | None:
    return action.hex if isinstance(action, Place) and action.unit == unit else None


def _moves(unit: str, hexes: Sequence[Hex]) -> Mapped[Hex, Action]:
    """`Move(unit, h)` for each destination, built when read (SHU-MOVE.1)."""
    return Mapped(functools.partial(Move, unit), hexes, functools.partial(_moved_to, unit))


def _moved_to(unit: str, action: object) -> Hex | None:
    return action.to if isinstance(action, Move) and action.unit == unit else None


class Shumshu:
    """Postcard Shumshu, August 1945 (L. R. Coatney, rules draft of 14 June 2025)."""

    name: str = "shumshu"
    title: str = "Postcard Shumshu, August 1945"
    sides: tuple[str, ...] = (RU, JP)
    catalogue: Catalogue = CATALOGUE
    nontermination_clauses: tuple[str, ...] = ("SHU-SEQ.2", "SHU-WIN.3")
    perfect_information: bool = False
    """Every preset's game length is bounded (AMB-SHU-2), so play always ends."""

    def __init__(self, data_file: Path = DATA_FILE) -> None:
        self.data = load_data(data_file)
        self.board = Board(self.data)

    # --- setup --------------------------------------------------------------------------------
    def presets(self) -> Mapping[str, Variant]:
        return {name: CATALOGUE.preset(name) for name in CATALOGUE.presets}

    def initial_state(self, variant: Variant) -> ShumshuState:
        """Set-up (SHU-SETUP.1 to SHU-SETUP.3): the Japanese place their Shumshu pieces one
        by one, hidden, in the order they choose (`setup.place_piece`); everything else
        waits off the map."""
        return setup.initial_state(self.board, variant)

    # --- who moves, and what may they do --------------------------------------------------------
    def to_move(self, s: ShumshuState) -> str | None:
        b = self.board
        match s.stage:
            case Stage.OVER:
                return None
            case Stage.ROLL | Stage.AIR_ROLL:
                return CHANCE
            case Stage.SETUP | Stage.AIR | Stage.REINFORCE | Stage.DECOY:
                return JP
            case Stage.FORM | Stage.SAIL | Stage.REPLACE:
                return RU
            case Stage.DEFENDERS | Stage.HOLD:
                assert s.fight is not None
                return other(b.side_of[s.fight.attackers[0]])
            case Stage.RETREAT:
                assert s.fight is not None
                return combat.retreat_chooser(b, s.fight)
        return s.side

    def legal_actions(self, s: ShumshuState) -> Sequence[Action]:
        b = self.board
        fight = s.fight
        match s.stage:
            case Stage.SETUP:
                # SHU-SETUP.1: any piece still waiting, in the order the Japanese choose (each
                # piece's placings built only when read: there are hundreds)
                return Chain(_placings(u, b.hexes) for u in setup.setup_waiting(b, s))
            case Stage.FORM:
                return [*(Form(r) for r, _ in landing.formable(b, s)), Done()]
            case Stage.SAIL:
                acts: list[Action] = list(landing.sail_choices(b, s))
                if landing.sail_done_ok(s):
                    acts.append(Done())
                return acts
            case Stage.AIR:
                return [Strike(True), Strike(False)]
            case Stage.REPLACE:
                return [*(Replace(u) for u in landing.replacements(b, s)), Done()]
            case Stage.REINFORCE:
                return [*(Reinforce(u, h) for u, h in landing.reinforcements(b, s)), Done()]
            case Stage.DECOY:
                back: list[Action] = [ReturnDecoy(u, h) for u, h in landing.decoy_returns(b, s)]
                return [*back, Done()] if landing.decoy_may_wait(s) else back
            case Stage.MOVE:
                # SHU-MOVE.1: each unit's moves built only when read (a rollout reads one)
                moves: list[Sequence[Action]] = [
                    _moves(unit, hexes) for unit, hexes in moves_of(b, s).items()
                ]
                return Chain([*moves, (Done(),)])
            case Stage.DECLARE:
                return self._declare_actions(s)
            case Stage.PICK:
                return [Resolve(c.hex) for c in s.pending]
            case Stage.DEFENDERS:
                assert fight is not None
                return [Defend(d) for d in combat.defender_choices(b, s, fight.hex)]
            case Stage.HOLD:
                return [Hold(True), Hold(False)]
            case Stage.COMMIT:
                assert fight is not None
                return [Commit(*c) for c in combat.commit_choices(b, s, fight)]
            case Stage.RETREAT:
                assert fight is not None
                unit = fight.retreating[0]
                return [Retreat(unit, h) for h in combat.retreat_choices(b, s, fight)]
            case Stage.ADVANCE:
                assert fight is not None
                return [
                    *(
                        Advance(u, h)
                        for u in fight.winners
                        for h in combat.advance_choices(b, s, fight, u)
                    ),
                    Done(),
                ]
        return []

    def _declare_actions(self, s: ShumshuState) -> list[Action]:
        b = self.board
        f = front(b, s)
        pairs = pairs_of(s.pending)
        joined = {a for a, _ in pairs}
        last = max((f.attackers.index(a) for a in joined), default=-1)
        out: list[Action] = [
            Join(a, t)
            for a in f.attackers[last + 1 :]
            for t in f.contacts[a]
            if join_ok(b, s, pairs, a, t)
        ]
        if declaration_ok(b, s, pairs):
            out.append(Done())
        return out

    def chance_outcomes(self, s: ShumshuState) -> Sequence[tuple[Action, Fraction]]:
        if s.stage == Stage.ROLL:
            return [(Roll(face), Fraction(1, 6)) for face in range(1, 7)]  # SHU-CRT.1
        if s.stage == Stage.AIR_ROLL:
            return [
                (AirRoll(face, sunk), p) for face, sunk, p in landing.air_outcomes(self.board, s)
            ]
        return []

    # --- transitions -------------------------------------------------------------------------
    def apply(self, s: ShumshuState, action: Action) -> ShumshuState:
        """The next state; raises IllegalAction with the clauses the action breaks."""
        if s.stage == Stage.OVER:
            clause = s.result.clause if s.result else "SHU-WIN.3"
            raise IllegalAction("the game is over", clauses=(clause,))
        self._known(action)
        return ending.settle(self.board, self._transition(s, action))

    def _transition(self, s: ShumshuState, action: Action) -> ShumshuState:
        """The action's decision at the current step (`setup`, `turn_decisions`,
        `combat_decisions`, or a `Done` going on to the next step of `sequence`), which checks
        it against the step's clauses and goes on; an action of another step is refused naming
        this one."""
        b = self.board
        stage = s.stage
        match action:
            case Place(unit, h) if stage == Stage.SETUP:
                return setup.place_piece(b, s, unit, h)
            case Form(regiment) if stage == Stage.FORM:
                return turn_decisions.form_regiment(b, s, regiment)
            case Done() if stage == Stage.FORM:
                return sequence.sail_step(b, s)
            case LandAt() | Embark() if stage == Stage.SAIL:
                return turn_decisions.choose_sail(b, s, action)
            case Done() if stage == Stage.SAIL:
                return turn_decisions.sail_done(b, s)
            case Strike(yes) if stage == Stage.AIR:
                return turn_decisions.strike(b, s, yes)
            case AirRoll(face, sunk) if stage == Stage.AIR_ROLL:
                return turn_decisions.air_roll(b, s, face, sunk)
            case Roll(face) if stage == Stage.ROLL:
                return combat_decisions.roll(b, s, face)
            case Replace(unit) if stage == Stage.REPLACE:
                return turn_decisions.replace_unit(b, s, unit)
            case Done() if stage == Stage.REPLACE:
                return sequence.move_step(b, s)
            case Reinforce(unit, h) if stage == Stage.REINFORCE:
                return turn_decisions.reinforce(b, s, unit, h)
            case Done() if stage == Stage.REINFORCE:
                return sequence.decoy_step(b, s)
            case ReturnDecoy(unit, h) if stage == Stage.DECOY:
                return turn_decisions.return_decoy(b, s, unit, h)
            case Done() if stage == Stage.DECOY:
                return turn_decisions.decoy_done(b, s)
            case Move(unit, to) if stage == Stage.MOVE:
                return turn_decisions.move_unit(b, s, unit, to)
            case Done() if stage == Stage.MOVE:
                return sequence.declare_step(b, s)
            case Join(unit, h) if stage == Stage.DECLARE:
                return combat_decisions.join_attack(b, s, unit, h)
            case Done() if stage == Stage.DECLARE:
                return combat_decisions.declaration_done(b, s)
            case Resolve(h) if stage == Stage.PICK:
                return combat_decisions.resolve_attack(b, s, h)
            case Defend(units) if stage == Stage.DEFENDERS:
                return combat_decisions.defend(b, s, units)
            case Hold(yes) if stage == Stage.HOLD:
                return combat_decisions.hold(b, s, yes)
            case Commit(press, air, banzai) if stage == Stage.COMMIT:
                return combat_decisions.commit(b, s, press, air, banzai)
            case Retreat(unit, to) if stage == Stage.RETREAT:
                return combat_decisions.retreat(b, s, unit, to)
            case Advance(unit, to) if stage == Stage.ADVANCE:
                return combat_decisions.advance(b, s, unit, to)
            case Done() if stage == Stage.ADVANCE:
                return sequence.fight_done(b, s)
        clause = STAGE_CLAUSE[stage]
        raise IllegalAction(
            f"a {narration.action_type(action)} action is not allowed now: the game is at "
            f"{narration.stage_text(s)} ({clause})",
            clauses=(clause,),
        )

    def _known(self, action: Action) -> None:
        """Unknown unit ids are input errors naming the field, not rule violations."""
        fields: list[tuple[str, str]] = []
        for name in ("unit", "regiment", "sunk"):
            value = getattr(action, name, None)
            if isinstance(value, str):
                fields.append((f"action.{name}", value))
        if isinstance(action, Defend):
            fields.extend((f"action.units[{i}]", u) for i, u in enumerate(action.units))
        for field, unit in fields:
            if not self.data.has_unit(unit):
                raise InvalidInput(f"unknown unit {unit!r}", field=field)

    # --- results and information --------------------------------------------------------------
    def outcome(self, s: ShumshuState) -> Outcome | None:
        return s.result

    def observe(self, s: ShumshuState, side: str) -> dict[str, Any]:
        """What `side` may know: the Russians never see the identity of a face-down Japanese
        piece (undisrupted, unrevealed, decoys included) (SHU-COMBAT.5, SHU-COMBAT.6)."""
        return observation.observe(self, s, side)

    def no_action_clauses(self, s: ShumshuState) -> tuple[str, ...]:
        return (STAGE_CLAUSE[s.stage],)

    def reading_proofs(self) -> Mapping[str, moot_readings.Proof]:
        """Proofs that two readings of an option cannot differ, by option, for the
        ambiguity explorer (`formal.moot_readings`: could_move, ship_load,
        worst_roll_opposed)."""
        return moot_readings.reading_proofs(self)

    def reading_situations(self) -> Mapping[str, situations.Distance]:
        """Each option's situation as a distance over a position, 0 where its readings part,
        for the ambiguity explorer's steered play (`formal.situations`)."""
        return situations.reading_situations(self)

    def playout_agents(self) -> dict[str, Agent[ShumshuState, Action]]:
        """Agents for `wargame play`: each decides from its own observation only."""
        return {side: observing(random_policy, side) for side in self.sides}
