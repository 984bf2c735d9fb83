"""The rules of play of Rattenkrieg as one object: set-up, who moves, the legal actions, the
chance outcomes and the next state, over the pure rules modules.

It is the dispatcher (`specs.rattenkrieg.game.Rattenkrieg`) without what stands above the parts
(what a side is shown, the unit-removal hook that runs the position check, an action named by
its JSON form): the checks (`formal/`) step the rules with it, and the roles and bots, built
from the dispatcher, read it as this.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path

from kernel.errors import IllegalAction
from kernel.game import CHANCE, Outcome
from kernel.variants import Catalogue, Variant
from specs.rattenkrieg.data.loader import DATA_FILE, load_data
from specs.rattenkrieg.data.variants import CATALOGUE
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
)
from specs.rattenkrieg.rules.board import Board
from specs.rattenkrieg.rules.cards import sort_cards
from specs.rattenkrieg.rules.control import settle
from specs.rattenkrieg.rules.pile import draw_outcomes
from specs.rattenkrieg.rules.state import RKState, Stage


class RattenkriegRules:
    """The rules of play of Rattenkrieg Stalingrad (CMJ 2008 / Banner of War 2017), English
    rules text: set-up, who moves, what is legal, what chance may do, and the next state.

    The dispatcher (`specs.rattenkrieg.game.Rattenkrieg`) is this with what a side may see
    (`observe`) and the unit-removal hook; the checks below it (`formal/`) step the rules with
    this object, and the roles are built from it."""

    name: str = "rattenkrieg"
    title: str = "Rattenkrieg Stalingrad"
    sides: tuple[str, ...] = ("GE", "SU")  # the German and the Soviet player (RKS-1.1.1)
    catalogue: Catalogue = CATALOGUE
    nontermination_clauses: tuple[str, ...] = ("RKS-7.2.1", "RKS-7.1.3", "RKS-5.1.2")
    perfect_information: bool = False
    """A unit may move between friendly-controlled Areas endlessly (RKS-7.2.1)."""

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
                f"{self._shown(action)} is not a possible outcome now: only a card of the "
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
            f"{self._shown(action)} is not allowed now ({legal.STAGE_CLAUSE[state.stage]})",
            clauses=(legal.STAGE_CLAUSE[state.stage],),
        )

    # --- results ------------------------------------------------------------------------------
    def outcome(self, state: RKState) -> Outcome | None:
        return state.result

    def no_action_clauses(self, state: RKState) -> tuple[str, ...]:
        return (legal.STAGE_CLAUSE.get(state.stage, "RKS-5.1.1"),)

    def _shown(self, action: Action) -> str:
        """How a refused action is named in its message: here as its fields; the dispatcher
        names it by its JSON form (`specs.rattenkrieg.game.Rattenkrieg._shown`)."""
        return repr(action)
