"""The Rattenkrieg Game: the kernel contract over the pure rules modules."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from kernel.data import FactResult, Provenance, check_facts
from kernel.errors import IllegalAction, ImpossiblePosition
from kernel.game import CHANCE, Outcome, WireTypes
from kernel.playout import Agent, observing, random_policy
from kernel.scene import Scene
from kernel.variants import Catalogue, Variant
from specs.rattenkrieg.data.facts import facts
from specs.rattenkrieg.data.loader import DATA_FILE, RKData, load_data
from specs.rattenkrieg.data.variants import CATALOGUE
from specs.rattenkrieg.formal import position as validate
from specs.rattenkrieg.io import codec
from specs.rattenkrieg.io import narration as describe
from specs.rattenkrieg.io import observation as observe
from specs.rattenkrieg.io import picture as scene
from specs.rattenkrieg.io import wire as rk_wire
from specs.rattenkrieg.rules import activation, combat, damage, eventcards, legal, sequence
from specs.rattenkrieg.rules.actions import (
    Accept,
    Action,
    Attack,
    Defend,
    Designate,
    Discard,
    Draw,
    End,
    Event,
    Isolate,
    LoseStep,
    Move,
    Pass,
    Pay,
    Pick,
    Place,
    Play,
    Recruit,
    Retreat,
    Sacrifice,
    Stand,
    action_from_json,
    action_to_json,
)
from specs.rattenkrieg.rules.board import Board
from specs.rattenkrieg.rules.cards import sort_cards
from specs.rattenkrieg.rules.control import settle
from specs.rattenkrieg.rules.pile import draw_outcomes
from specs.rattenkrieg.rules.state import Phase, RKState, Stage
from specs.rattenkrieg.rules.units import eliminate


class Rattenkrieg:
    """Rattenkrieg Stalingrad (CMJ 2008 / Banner of War 2017), English rules text."""

    name: str = "rattenkrieg"
    title: str = "Rattenkrieg Stalingrad"
    sides: tuple[str, ...] = ("GE", "SU")  # the German and the Soviet player (RKS-1.1.1)
    catalogue: Catalogue = CATALOGUE
    nontermination_clauses: tuple[str, ...] = ("RKS-7.2.1", "RKS-7.1.3", "RKS-5.1.2")
    perfect_information: bool = False
    """A unit may move between friendly-controlled Areas endlessly (RKS-7.2.1)."""
    wire: WireTypes = WireTypes(
        state=rk_wire.StateRecord,
        action=rk_wire.ActionRecord,
        observation=rk_wire.ObservationRecord,
    )
    """The wire records the codec decodes with and the published schemas come from."""

    def __init__(self, data_file: Path = DATA_FILE) -> None:
        self.data = load_data(data_file)
        self.board = Board(self.data)

    # --- setup --------------------------------------------------------------------------------
    def presets(self) -> Mapping[str, Variant]:
        return {name: CATALOGUE.preset(name) for name in CATALOGUE.presets}

    def initial_state(self, variant: Variant) -> RKState:
        """Set-up (RKS-3.1.1 to RKS-3.6.1): the Soviet player first places the Rifles; the deal
        of steps and hands follows as chance steps (RKS-3.3.1, RKS-3.4.1)."""
        return sequence.initial_state(self.board, variant)

    # --- who moves, and what may they do -------------------------------------------------------
    def to_move(self, state: RKState) -> str | None:
        if state.stage == Stage.OVER:
            return None
        if state.stage in (Stage.DRAW, Stage.PICK):
            return CHANCE
        return legal.side_to_move(self.board, state)

    def legal_actions(self, state: RKState) -> Sequence[Action]:
        """The legal actions, in a stable order. The Recruiting Phase discard, a choice among
        all subsets of the hand (RKS-10.1.1), is a lazy sequence counted without listing."""
        if state.stage in (Stage.OVER, Stage.DRAW, Stage.PICK):
            return []
        b = self.board
        if state.stage == Stage.DISCARD:
            return legal.discard_choices(b, state)
        return [a for a in legal.candidates(b, state) if legal.problem(b, state, a) is None]

    def chance_outcomes(self, state: RKState) -> Sequence[tuple[Action, Fraction]]:
        """A draw is any card of the deck with equal probability (RKS-3.4.3); a pick any of the
        known cards (RKS-9.6.1, AMB-RKS-7 iii)."""
        if state.stage == Stage.DRAW:
            return [(Draw(c), p) for c, p in draw_outcomes(state)]
        if state.stage == Stage.PICK:
            pool = self._pick_pool(state)
            return [(Pick(c), Fraction(1, len(pool))) for c in sort_cards(pool)]
        return []

    def _pick_pool(self, state: RKState) -> frozenset[str]:
        assert state.pick is not None
        if state.pick.kind == "sniper":
            return state.hand(state.pick.who)
        return self.board.unit(state, state.pick.who).steps

    # --- transitions -------------------------------------------------------------------------
    def apply(self, state: RKState, action: Action) -> RKState:
        """The next state; raises IllegalAction with the clauses the action breaks."""
        b = self.board
        if state.stage == Stage.OVER:
            clause = state.result.clause if state.result else "RKS-4.1.1"
            raise IllegalAction("the game is over", clauses=(clause,))
        legal.check_ids(b, action)
        if state.stage in (Stage.DRAW, Stage.PICK):
            return self._chance(state, action)
        if isinstance(action, Draw | Pick):
            raise IllegalAction(
                f"a {type(action).__name__.lower()} is a chance step, and a player decides now "
                f"({legal.STAGE_CLAUSE[state.stage]})",
                clauses=(legal.STAGE_CLAUSE[state.stage],),
            )
        found = legal.problem(b, state, action)
        if found is not None:
            clause, message = found
            raise IllegalAction(f"{message} ({clause})", clauses=(clause,))
        return settle(b, self._transition(state, action))  # RKS-3.6.2, RKS-8.10.6

    def _chance(self, state: RKState, action: Action) -> RKState:
        b = self.board
        if action not in {a for a, _ in self.chance_outcomes(state)}:
            clause = "RKS-3.4.3" if state.stage == Stage.DRAW else "RKS-9.6.1"
            raise IllegalAction(
                f"{action_to_json(action)} is not a possible outcome now: only a card of the "
                f"deck is drawn, only a known card is picked ({clause})",
                clauses=(clause,),
            )
        if isinstance(action, Draw):
            if state.draws[0].kind in ("bombardment", "air_support"):
                return settle(b, eventcards.bombardment_draw(b, state, action.card))
            return sequence.deal_card(b, state, action.card)
        assert isinstance(action, Pick) and state.pick is not None
        if state.pick.kind == "sniper":
            return eventcards.sniper_pick(b, state, action.card)
        return settle(b, damage.picked_step(b, state, action.card))

    def _transition(self, state: RKState, action: Action) -> RKState:
        b = self.board
        match action:
            case Place(unit, area):
                return sequence.place(b, state, unit, area)
            case Designate(unit):
                return activation.designate(b, state, unit)
            case Recruit(unit):
                return activation.recruit(b, state, unit)
            case Pass():
                return activation.pass_turn(b, state)
            case Event(card, target):
                return eventcards.play_event(b, state, card, target)
            case Move(to, escort):
                return activation.move(b, state, to, escort)
            case Pay(card):
                return activation.pay(b, state, card)
            case Attack():
                return combat.start_combat(b, state)
            case End():
                return sequence.end_activation(b, state)
            case Defend(unit):
                return combat.choose_defender(b, state, unit)
            case Play(card, support):
                return combat.play(b, state, card, support)
            case Accept():
                return combat.accept(b, state)
            case Stand():
                return combat.stand(b, state)
            case Retreat(_, to) if state.stage == Stage.CONTINUE:
                return damage.continue_retreat(b, state, to)
            case Retreat() | Isolate() if state.stage == Stage.ISOLATION:
                return damage.apply_isolation(b, state, action)
            case Retreat() | LoseStep() | Sacrifice():
                return damage.apply_damage(b, state, action)
            case Discard(cards, refill, draw):
                return sequence.discard_hand(b, state, cards, refill, draw)
        raise IllegalAction(
            f"{action_to_json(action)} is not allowed now ({legal.STAGE_CLAUSE[state.stage]})",
            clauses=(legal.STAGE_CLAUSE[state.stage],),
        )

    # --- results and information --------------------------------------------------------------
    def outcome(self, state: RKState) -> Outcome | None:
        return state.result

    def observe(self, state: RKState, side: str) -> dict[str, Any]:
        """What `side` may know: its own hand and steps, the opponent's card counts, the public
        cards, face-down cards as face down (RKS-3.3.3, RKS-3.4.1, RKS-8.4.1)."""
        return observe.observe(self, state, side)

    def check_position(self, state: RKState) -> None:
        """Refuse a position no play could reach, naming the field, the clause and the
        invariant (`validate.check_position`)."""
        validate.check_position(self, state)

    def without_unit(self, state: RKState, unit: str) -> RKState | None:
        """`state` with `unit` eliminated as damage eliminates it (`kernel.game.UnitRemoval`):
        off the map, its step cards discarded (AMB-RKS-7 iv) so that every card stays in one
        place (RKS-P-CARDS), the turn recorded for the T-34's return (RKS-6.3.1), and control
        following the units left (RKS-3.6.2). None when the unit is not on the map, during
        set-up (RKS-3.1.2, RKS-3.2.1: every unit stands where it starts, RKS-P-SETUP), when a
        record of the turn under way names it (the acting unit, a combat, damage, a pending
        move, a draw or a pick: RKS-7.1.1, RKS-8.2.2), or when the position check refuses the
        result."""
        b = self.board
        if unit not in b.side_of or b.unit(state, unit).area is None:
            return None
        if state.phase == Phase.SETUP:
            return None  # RKS-P-SETUP: no unit leaves the map during set-up
        named = {state.acting, *(d.who for d in state.draws)}
        if state.combat is not None:
            c = state.combat
            named.update((c.attacker, c.defender, c.support, *c.staying))
        if state.damage is not None:
            named.add(state.damage.unit)
        if state.pending is not None:
            named.add(state.pending.escort)
        if state.pick is not None:
            named.add(state.pick.who)
        if unit in named:
            return None  # RKS-7.1.1, RKS-8.2.2: the turn under way needs it
        out = settle(b, eliminate(b, state, unit))  # RKS-8.9.2, AMB-RKS-7 iv, RKS-3.6.2
        try:
            self.check_position(out)
        except ImpossiblePosition:
            return None
        return out

    def no_action_clauses(self, state: RKState) -> tuple[str, ...]:
        return (legal.STAGE_CLAUSE.get(state.stage, "RKS-5.1.1"),)

    def playout_agents(self) -> dict[str, Agent[RKState, Action]]:
        """Agents for `wargame play`: each chooses from its own observation only, never the
        state (RKS-3.3.3)."""
        return {side: observing(random_policy, side) for side in self.sides}

    # --- data --------------------------------------------------------------------------------
    def _data(self, data_file: Path | None) -> RKData:
        return self.data if data_file is None else load_data(data_file)

    def data_facts(self, data_file: Path | None = None) -> list[FactResult]:
        """Check the text's facts against the data (this game's, or another file's)."""
        return check_facts(facts(self._data(data_file)))

    def provisional(self, data_file: Path | None = None) -> list[tuple[str, Provenance]]:
        """Every data record with values the text does not give, and how they were chosen."""
        return [(n, p) for n, p in self._data(data_file).records if p.is_provisional]

    # --- codec -------------------------------------------------------------------------------
    def state_to_json(self, state: RKState) -> dict[str, Any]:
        return codec.state_to_json(self, state)

    def state_from_json(self, data: Any) -> RKState:
        return codec.state_from_json(self, data)

    def action_to_json(self, action: Action) -> dict[str, Any]:
        return action_to_json(action)

    def action_from_json(self, data: Any) -> Action:
        return action_from_json(data)

    def describe(self, state: RKState, action: Action) -> str:
        return describe.describe(self, state, action)

    def headline(self, state: RKState) -> str:
        return describe.headline(self, state)

    def scene(self, state: RKState, side: str | None = None) -> Scene:
        """The position as a picture (kernel.scene), for `wargame render`; with `side`, as that
        side may see it (RKS-3.3.3, RKS-3.4.1, RKS-8.4.1, RKS-8.5.2): its own cards by name,
        the opponent's as counts or face down."""
        return scene.scene(self, state, self.headline(state), side)

    def events(self, before: RKState, action: Action, after: RKState) -> list[str]:
        return describe.events(self, before, action, after)
