"""The Shumshu Game: the kernel contract over the pure rules modules."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import attrs

from kernel.data import FactResult, Provenance, check_facts
from kernel.errors import IllegalAction, InvalidInput
from kernel.game import CHANCE, Outcome, WireTypes
from kernel.hexes import Hex
from kernel.playout import Agent, observing, random_policy
from kernel.scene import Scene
from kernel.variants import Catalogue, Variant
from solvers.queries import stacking
from specs.shumshu.data.facts import facts
from specs.shumshu.data.loader import DATA_FILE, ShumshuData, load_data
from specs.shumshu.data.variants import CATALOGUE
from specs.shumshu.formal import position
from specs.shumshu.io import codec
from specs.shumshu.io import narration as describe
from specs.shumshu.io import observation as observe
from specs.shumshu.io import picture as scene
from specs.shumshu.io import wire as shu_wire
from specs.shumshu.rules import combat, crt, landing
from specs.shumshu.rules import sequence as flow
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
from specs.shumshu.rules.combat_query import declaration_ok, explain, join_ok
from specs.shumshu.rules.declare import combats_of, declaration_problems, front, pairs_of
from specs.shumshu.rules.effects import eliminate, form
from specs.shumshu.rules.movement import destinations, move_problem
from specs.shumshu.rules.odds import outcome, worst_roll
from specs.shumshu.rules.state import JP, RU, Loc, Sail, ShumshuState, Stage, other
from specs.shumshu.rules.units import period, update

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


class Shumshu:
    """Postcard Shumshu, August 1945 (L. R. Coatney, rules draft of 14 June 2025)."""

    name: str = "shumshu"
    title: str = "Postcard Shumshu, August 1945"
    sides: tuple[str, ...] = (RU, JP)
    catalogue: Catalogue = CATALOGUE
    nontermination_clauses: tuple[str, ...] = ("SHU-SEQ.2", "SHU-WIN.3")
    perfect_information: bool = False
    """Every preset's game length is bounded (AMB-SHU-2), so play always ends."""
    wire: WireTypes = WireTypes(
        state=shu_wire.StateRecord,
        action=shu_wire.ActionRecord,
        observation=shu_wire.ObservationRecord,
    )
    """The wire records the codec decodes with and the published schemas come from."""

    def __init__(self, data_file: Path = DATA_FILE) -> None:
        self.data = load_data(data_file)
        self.board = Board(self.data)

    # --- setup --------------------------------------------------------------------------------
    def presets(self) -> Mapping[str, Variant]:
        return {name: CATALOGUE.preset(name) for name in CATALOGUE.presets}

    def initial_state(self, variant: Variant) -> ShumshuState:
        """Set-up (SHU-SETUP.1 to SHU-SETUP.3): the Japanese place their Shumshu pieces one
        by one, hidden; everything else waits off the map."""
        return flow.initial_state(self.board, variant)

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
                unit = flow.next_setup_piece(b, s)
                return [Place(unit, h) for h in b.hexes] if unit else []
            case Stage.FORM:
                return [*(Form(r) for r, _ in landing.formable(b, s)), Done()]
            case Stage.SAIL:
                acts: list[Action] = list(landing.sail_choices(b, s))
                if self._sail_done_ok(s):
                    acts.append(Done())
                return acts
            case Stage.AIR:
                return [Strike(True), Strike(False)]
            case Stage.REPLACE:
                return [*(Replace(u) for u in landing.replacements(b, s)), Done()]
            case Stage.REINFORCE:
                return [*(Reinforce(u, h) for u, h in landing.reinforcements(b, s)), Done()]
            case Stage.DECOY:
                return [ReturnDecoy(u, h) for u, h in landing.decoy_returns(b, s)]
            case Stage.MOVE:
                moves: list[Action] = [
                    Move(p.id, h)
                    for p in s.units
                    if p.loc is Loc.MAP and b.side_of[p.id] == s.side
                    for h in destinations(b, s, p.id)
                ]
                return [*moves, Done()]
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

    def _sail_done_ok(self, s: ShumshuState) -> bool:
        return s.sail is None or s.sail.hex is None or bool(s.sail.party)

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
        return flow.settle(self.board, self._transition(s, action))

    def _transition(self, s: ShumshuState, action: Action) -> ShumshuState:
        b = self.board
        stage = s.stage
        match action:
            case Place(unit, h) if stage == Stage.SETUP:
                return self._place(s, unit, h)
            case Form(r) if stage == Stage.FORM:
                where = dict(landing.formable(b, s))
                if r not in where:
                    raise _illegal(
                        f"{r} cannot form: its three battalions must be together and "
                        "undisrupted at the start of the turn",
                        "SHU-RGT.1",
                    )
                return flow.form_step(b, form(b, s, r, where[r]))
            case Done() if stage == Stage.FORM:
                return flow.sail_step(b, s)
            case LandAt() | Embark() if stage == Stage.SAIL:
                return self._sail(s, action)
            case Done() if stage == Stage.SAIL:
                if not self._sail_done_ok(s):
                    raise _illegal("a landing needs at least one battalion", "SHU-LAND.2")
                sail = attrs.evolve(s.sail, sailed=True) if s.sail is not None else None
                return flow.air_step(b, attrs.evolve(s, sail=sail))
            case Strike(yes) if stage == Stage.AIR:
                if yes:  # SHU-AIR.2: the Ki-43 rolls against Russian shipping
                    return attrs.evolve(s, stage=Stage.AIR_ROLL)
                return flow.landing_step(b, s)
            case AirRoll(face, sunk) if stage == Stage.AIR_ROLL:
                if (face, sunk) not in {(f, u) for f, u, _ in landing.air_outcomes(b, s)}:
                    raise _illegal(
                        "not a possible roll of the Ki-43: a die face, and a unit sunk only "
                        "on its best roll",
                        "SHU-AIR.2",
                    )
                return flow.landing_step(b, landing.apply_air(b, s, face, sunk))
            case Roll(face) if stage == Stage.ROLL:
                if not 1 <= face <= 6:
                    raise _illegal("a die shows 1 to 6", "SHU-CRT.1")
                return self._roll(s, face)
            case Replace(unit) if stage == Stage.REPLACE:
                if unit not in landing.replacements(b, s):
                    raise _illegal(
                        f"{unit} cannot be replaced: one eliminated infantry battalion per "
                        "turn, at the beachhead, after the reinforcements (AMB-SHU-9)",
                        "SHU-REPL.1",
                        "SHU-REPL.2",
                    )
                # SHU-REPL.1: an eliminated battalion back, one per turn
                s = update(s, [unit], loc=Loc.MAP, hex=s.beachhead, revealed=False)
                return flow.move_step(b, attrs.evolve(s, replaced=period(s)))
            case Done() if stage == Stage.REPLACE:
                return flow.move_step(b, s)
            case Reinforce(unit, h) if stage == Stage.REINFORCE:
                if (unit, h) not in landing.reinforcements(b, s):
                    raise _illegal(
                        f"{unit} cannot arrive at {h}: one unit from Paramushir to hex 33 on "
                        "the Japanese AM turn",
                        "SHU-REINF.2",
                        "SHU-REINF.1",
                    )
                s = update(s, [unit], loc=Loc.MAP, hex=h)  # SHU-REINF.2: one unit arrives
                if s.variant.is_("reinforcement_moves", "arrival_is_move"):
                    s = attrs.evolve(s, moved=s.moved | {unit})
                return flow.decoy_step(b, s)
            case Done() if stage == Stage.REINFORCE:
                return flow.decoy_step(b, s)
            case ReturnDecoy(unit, h) if stage == Stage.DECOY:
                if (unit, h) not in landing.decoy_returns(b, s):
                    raise _illegal(
                        f"{unit} cannot come back at {h} (AMB-SHU-21: the first decoy due, in "
                        "an empty hex reachable from hex 33)",
                        "SHU-COMBAT.6",
                    )
                s = update(s, [unit], loc=Loc.MAP, hex=h, recover=0, revealed=False)
                if s.variant.is_("decoy_return_moves", "return_is_move") and s.variant.is_(
                    "decoy_movement", "like_infantry"
                ):
                    s = attrs.evolve(s, moved=s.moved | {unit})
                return flow.decoy_step(b, s)
            case Move(unit, to) if stage == Stage.MOVE:
                found = move_problem(b, s, unit, to)
                if found is not None:
                    raise _illegal(f"{found[1]} ({found[0]})", found[0])
                s = update(s, [unit], hex=to)
                return attrs.evolve(s, moved=s.moved | {unit})
            case Done() if stage == Stage.MOVE:
                return flow.declare_step(b, s)
            case Join(unit, h) if stage == Stage.DECLARE:
                return self._join(s, unit, h)
            case Done() if stage == Stage.DECLARE:
                pairs = pairs_of(s.pending)
                if not declaration_ok(b, s, pairs):
                    raise self._declaration_error(s, pairs)
                return flow.pick_step(b, s)
            case Resolve(h) if stage == Stage.PICK:
                chosen = [c for c in s.pending if c.hex == h]
                allowed = [a.hex for a in self.legal_actions(s) if isinstance(a, Resolve)]
                if not chosen or h not in allowed:
                    raise _illegal(
                        f"no declared attack into {h} may be resolved now", "SHU-COMBAT.1"
                    )
                return flow.start_fight(b, s, chosen[0])
            case Defend(units) if stage == Stage.DEFENDERS:
                return self._defend(s, units)
            case Hold(yes) if stage == Stage.HOLD:
                assert s.fight is not None
                s = attrs.evolve(s, fight=attrs.evolve(s.fight, hold=yes))
                return flow.commit_step(b, s)
            case Commit(press, air, banzai) if stage == Stage.COMMIT:
                assert s.fight is not None
                if (press, air, banzai) not in combat.commit_choices(b, s, s.fight):
                    raise _illegal(
                        "not a choice open to this attacker: only the attacker presses; the "
                        "Ki-43 once per player-turn and Banzai! for Japanese attacks",
                        "SHU-PRESS.1",
                        "SHU-AIR.1",
                        "SHU-BANZAI.1",
                    )
                return flow.set_commit(b, s, press, air, banzai)
            case Retreat(unit, to) if stage == Stage.RETREAT:
                fight = s.fight
                assert fight is not None
                clause = "SHU-CRT.4" if fight.result == "DR" else "SHU-CRT.5"
                if unit != fight.retreating[0] or to not in combat.retreat_choices(b, s, fight):
                    raise _illegal(
                        f"{fight.retreating[0]} goes next, one hex into a hex of the island "
                        "free of enemy units",
                        clause,
                    )
                return flow.after_result(b, combat.apply_retreat(b, s, unit, to))
            case Advance(unit, to) if stage == Stage.ADVANCE:
                fight = s.fight
                assert fight is not None
                if unit not in fight.winners or to not in combat.advance_choices(b, s, fight, unit):
                    raise _illegal(
                        f"{unit} cannot advance into {to}: victors advance into the "
                        "defender's hex or an empty hex next to it",
                        "SHU-COMBAT.13",
                    )
                s = update(s, [unit], hex=to)  # SHU-COMBAT.13: a victor advances
                fight = attrs.evolve(fight, winners=tuple(w for w in fight.winners if w != unit))
                s = attrs.evolve(s, fight=fight)
                return flow.advance_step(b, s) if fight.winners else flow.fight_done(b, s)
            case Done() if stage == Stage.ADVANCE:
                return flow.fight_done(b, s)
        clause = STAGE_CLAUSE[stage]
        raise IllegalAction(
            f"a {describe.action_type(action)} action is not allowed now: the game is at "
            f"{describe.stage_text(s)} ({clause})",
            clauses=(clause,),
        )

    def _place(self, s: ShumshuState, unit: str, h: Hex) -> ShumshuState:
        b = self.board
        nxt = flow.next_setup_piece(b, s)
        if unit != nxt:
            raise _illegal(f"{nxt} is the next Japanese piece to set up", "SHU-SETUP.1")
        if not b.on_island(h):
            raise _illegal(f"{h} is not a hex of Shumshu", "SHU-SETUP.1")
        s = update(s, [unit], loc=Loc.MAP, hex=h)  # SHU-SETUP.1: placed on Shumshu, hidden
        if flow.next_setup_piece(b, s) is None:
            return flow.start_player_turn(b, s, RU)
        return s

    def _sail(self, s: ShumshuState, action: LandAt | Embark) -> ShumshuState:
        b = self.board
        if action not in landing.sail_choices(b, s):
            if isinstance(action, LandAt):
                raise _illegal(*self._land_at_problem(s, action.hex))
            raise _illegal(
                f"{action.unit} cannot embark: a Russian unit off-board, due by its turn, in "
                "data order, at most three landers (one per capability) or one delivery per "
                "capability to the beachhead on an AM turn",
                "SHU-LAND.2",
                "SHU-REINF.3",
            )
        if isinstance(action, LandAt):
            s = attrs.evolve(s, sail=Sail(action.hex))
        else:
            sail = landing.start_sail(s, None)
            s = attrs.evolve(s, sail=attrs.evolve(sail, party=(*sail.party, action.unit)))
        if landing.sail_choices(b, s):
            return s
        assert s.sail is not None
        return flow.air_step(b, attrs.evolve(s, sail=attrs.evolve(s.sail, sailed=True)))

    def _land_at_problem(self, s: ShumshuState, h: Hex) -> tuple[str, ...]:
        """Why no landing at `h` now: the message, then the clauses."""
        b = self.board
        if not b.is_coastal(h):
            return (f"{h} is not a coastal hex", "SHU-LAND.1")
        if b.in_red(h):
            return (f"{h} is within the Paramushir artillery's red-bordered range", "SHU-LAND.5")
        if s.ships <= 0:
            return ("no naval landing capability is left", "SHU-LAND.3")
        if s.sail is not None:
            return ("one landing per Russian turn, chosen before embarking", "SHU-LAND.1")
        if s.beachhead is not None and s.variant.is_("landings", "one_beachhead"):
            return (
                f"the beachhead {s.beachhead} holds: a new landing only once it is lost "
                "(AMB-SHU-7)",
                "SHU-LAND.10",
            )
        barred = landing.hex_barred(b, s, h)
        if barred is not None:
            return (barred[1], barred[0])
        return ("no Russian unit may sail this turn", "SHU-SETUP.3")

    def _roll(self, s: ShumshuState, face: int) -> ShumshuState:
        b = self.board
        fight = s.fight
        assert fight is not None
        fight = attrs.evolve(fight, face=face)
        s = attrs.evolve(s, fight=fight)
        if not fight.landing:
            reading = outcome(b, s, fight, face)
            return flow.after_result(b, combat.apply_result(b, s, fight, reading.result))
        lander = fight.attackers[0]
        worst = worst_roll(b, s, fight, face)
        if worst:  # SHU-LAND.3, SHU-LAND.4
            s = landing.lose_ship(eliminate(b, s, [lander]))
        if not fight.defenders:
            return flow.lander_done(b, s)
        result = outcome(b, s, fight, face).result
        if worst:
            if s.variant.is_("worst_roll_opposed", "crt_too") and result in crt.DEFENDER_RESULTS:
                return flow.after_result(b, combat.apply_result(b, s, fight, result))
            return flow.lander_done(b, attrs.evolve(s, fight=attrs.evolve(fight, result="lost")))
        if result == "AE":
            s = eliminate(b, s, [lander])
        return flow.after_result(b, combat.apply_result(b, s, fight, result))

    def _join(self, s: ShumshuState, unit: str, h: Hex) -> ShumshuState:
        b = self.board
        pairs = pairs_of(s.pending)
        if not join_ok(b, s, pairs, unit, h):
            raise self._declaration_error(s, (*pairs, (unit, h)), joining=unit)
        pending = combats_of(b, (*pairs, (unit, h)))
        if b.side_of[unit] == JP and s.variant.is_("reveal", "in_combat"):
            s = update(s, [unit], revealed=True)  # SHU-COMBAT.5: revealed once in combat
        return attrs.evolve(s, pending=pending)

    def _declaration_error(
        self, s: ShumshuState, pairs: Sequence[tuple[str, Hex]], joining: str | None = None
    ) -> IllegalAction:
        """Why a declaration (or a join) is refused: its broken rules by clause; a join that
        breaks nothing yet but cannot be completed says what completing it would break."""
        b = self.board
        problems = declaration_problems(b, s, pairs)
        f = front(b, s)
        if joining is not None and joining in f.attackers:
            joined = [a for a, _ in pairs if a != joining]
            rank = f.attackers.index(joining)
            later = [a for a in joined if a in f.attackers and f.attackers.index(a) > rank]
            if later:
                problems = [
                    (
                        "SHU-COMBAT.1",
                        f"units join attacks in data order: {joining} comes before {later[-1]}",
                    )
                ]
        if not problems:
            reasons = explain(b, s, pairs)
            problems = [(r.clauses[0], r.text) for r in reasons if r.clauses]
        if not problems:
            problems = [
                (
                    "SHU-COMBAT.4",
                    "no legal declaration includes this attack: the hexes next to its attackers "
                    "that must also be attacked cannot all be, within the hexside limits "
                    "(SHU-COMBAT.3)",
                )
            ]
        clauses = tuple(dict.fromkeys(c for c, _ in problems))
        return IllegalAction("; ".join(f"{m} ({c})" for c, m in problems), clauses=clauses)

    def _defend(self, s: ShumshuState, units: tuple[str, ...]) -> ShumshuState:
        b = self.board
        fight = s.fight
        assert fight is not None
        ordered = tuple(sorted(units, key=lambda u: b.order.get(u, len(b.order))))
        if ordered not in combat.defender_choices(b, s, fight.hex):
            problem, stack = combat.defence_problem(b, s, fight.hex)
            known = {u.id for u in stack}
            kept = set(ordered) & known
            reasons = (
                stacking.explain_choice(problem, stack, [u.id for u in stack if u.id not in kept])
                if kept == set(ordered)
                else []
            )
            text = "; ".join(str(r) for r in reasons) or (
                "the defenders are units of the attacked hex (decoys never defend, AMB-SHU-30)"
            )
            raise _illegal(text, "SHU-STACK.3")
        return flow.set_defenders(b, s, ordered)

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
        return observe.observe(self, s, side)

    def check_position(self, s: ShumshuState) -> None:
        """Refuse a position no play could reach, naming the field, the clause and the
        invariant (`position.check_position`)."""
        position.check_position(self.board, s)

    def no_action_clauses(self, s: ShumshuState) -> tuple[str, ...]:
        return (STAGE_CLAUSE[s.stage],)

    def playout_agents(self) -> dict[str, Agent[ShumshuState, Action]]:
        """Agents for `wargame play`: each decides from its own observation only."""
        return {side: observing(random_policy, side) for side in self.sides}

    # --- data --------------------------------------------------------------------------------
    def _data(self, data_file: Path | None) -> ShumshuData:
        return self.data if data_file is None else load_data(data_file)

    def data_facts(self, data_file: Path | None = None) -> list[FactResult]:
        """Check the text's facts against the data (this game's, or another file's)."""
        return check_facts(facts(self._data(data_file)))

    def provisional(self, data_file: Path | None = None) -> list[tuple[str, Provenance]]:
        """Every data record with values the text does not give, and how they were chosen."""
        return [(n, p) for n, p in self._data(data_file).records if p.is_provisional]

    # --- codec -------------------------------------------------------------------------------
    def state_to_json(self, s: ShumshuState) -> dict[str, Any]:
        return codec.state_to_json(self, s)

    def state_from_json(self, data: Any) -> ShumshuState:
        return codec.state_from_json(self, data)

    def action_to_json(self, action: Action) -> dict[str, Any]:
        return codec.action_to_json(action)

    def action_from_json(self, data: Any) -> Action:
        return codec.action_from_json(data)

    def describe(self, s: ShumshuState, action: Action) -> str:
        return describe.describe(self, s, action)

    def headline(self, s: ShumshuState) -> str:
        return describe.headline(s)

    def scene(self, s: ShumshuState, side: str | None = None) -> Scene:
        """The position as a picture (kernel.scene), for `wargame render`: as the Russians see
        it, which either player may be shown; with `side`, as that side may see it (the
        Japanese see their face-down pieces by name, SHU-COMBAT.5, SHU-SETUP.1, SHU-SETUP.2)."""
        return scene.scene(self, s, side)

    def events(self, before: ShumshuState, action: Action, after: ShumshuState) -> list[str]:
        return describe.events(self, before, action, after)


def _illegal(message: str, *clauses: str) -> IllegalAction:
    return IllegalAction(f"{message} ({', '.join(clauses)})", clauses=clauses)
