"""The order of play: set-up and the deal, the turns and their phases, the Player Turn loop,
the Recruiting Phase, the T-34's return and victory (RKS-3.x, RKS-4.1.1, RKS-5.1.x, RKS-6.x,
RKS-10.x).

Each function takes a state at a boundary of the sequence and returns the state where the next
decision (or chance step) is due.
"""

from __future__ import annotations

import attrs

from kernel.game import Outcome
from kernel.variants import Variant
from specs.rattenkrieg.rules.board import Board
from specs.rattenkrieg.rules.cards import DECK
from specs.rattenkrieg.rules.control import controller, occupies, settle
from specs.rattenkrieg.rules.pile import discard, refresh_deck
from specs.rattenkrieg.rules.state import GE, SU, DrawFor, Phase, RKState, Stage, Unit, other

LAST_TURN = 6  # RKS-4.1.1, RKS-4.1.2
START_HAND = {GE: 3, SU: 4}  # RKS-3.4.1
REFILL = 3  # RKS-10.1.2
REFILL_KURGAN = 4  # RKS-10.2.1


# --- set-up ------------------------------------------------------------------------------------


def initial_state(b: Board, variant: Variant) -> RKState:
    """The Soviet units on the map (RKS-3.1.2, RKS-3.1.3), the Germans in their Rear (RKS-3.2.1),
    every Stalingrad Area Soviet (RKS-3.6.1), all 52 cards in the deck; the Soviet player then
    places the Rifles (RKS-3.1.1)."""
    # RKS-3.1.2, RKS-3.1.3, RKS-3.2.1: 13Gds, the T-34 and six Germans at their set-up Areas
    units = tuple(Unit(spec.id, area=spec.setup) for spec in b.data.units)
    s = RKState(
        variant=variant,
        turn=1,
        phase=Phase.SETUP,
        stage=Stage.PLACE,
        player=SU,
        units=units,
        control=tuple(SU for _ in b.stalingrad),  # RKS-3.6.1: every Area starts Soviet
        deck=DECK,
    )
    return s if rifle_to_place(b, s) else start_deal(b, s)


def rifle_to_place(b: Board, s: RKState) -> str | None:
    """The next Normal Area without a Rifle while Rifles remain to be placed (RKS-3.1.1)."""
    if not any(b.unit(s, r).area is None for r in b.rifles):
        return None
    held = {b.unit(s, r).area for r in b.rifles}
    return next((a for a in b.normal_areas if a not in held), None)


def place(b: Board, s: RKState, unit_id: str, area: str) -> RKState:
    """One Rifle on one Normal Area (RKS-3.1.1); when all are placed, the deal begins."""
    s = b.update(s, unit_id, area=area)  # RKS-3.1.1: a Rifle on the next Normal Area
    return s if rifle_to_place(b, s) else start_deal(b, s)


def start_deal(b: Board, s: RKState) -> RKState:
    """The deal of set-up (`deal_queue`); what is left is the deck (RKS-3.4.2)."""
    return queue_draws(b, attrs.evolve(s, phase=Phase.SETUP), deal_queue(b, s))


def deal_queue(b: Board, s: RKState) -> list[DrawFor]:
    """The draws of set-up, in order: steps to every unit on the map (RKS-3.3.1), then 4 cards
    to the Soviet and 3 to the German hand (RKS-3.4.1)."""
    # RKS-3.3.1: each unit on the map is dealt its steps
    draws = [
        DrawFor("steps", u.id) for u in s.units if u.area is not None for _ in range(steps(b, u.id))
    ]
    # RKS-3.4.1: then 4 cards to the Soviet hand and 3 to the German one
    return draws + [DrawFor("hand", side) for side in (SU, GE) for _ in range(START_HAND[side])]


def arrival_queue(b: Board, turn: int) -> list[DrawFor]:
    """The draws of a Reinforcement Phase, in order: each unit arriving this turn is dealt its
    steps (RKS-6.1.2, RKS-6.2.2)."""
    return [
        DrawFor("steps", spec.id)
        for spec in b.data.units
        if spec.arrives == turn
        for _ in range(spec.steps)
    ]


def steps(b: Board, unit_id: str) -> int:
    """The unit's steps at full strength (RKS-3.3.1; none for the T-34, RKS-8.12.1)."""
    return b.specs[unit_id].steps


# --- draws -------------------------------------------------------------------------------------


def queue_draws(b: Board, s: RKState, draws: list[DrawFor]) -> RKState:
    """Cards to be drawn one by one, each a chance step (RKS-3.4.3)."""
    return next_draw(b, attrs.evolve(s, draws=s.draws + tuple(draws), stage=Stage.DRAW))


def next_draw(b: Board, s: RKState) -> RKState:
    """The next queued draw, after a reshuffle if the deck is used up (RKS-3.4.3). A draw that no
    card can satisfy (every card held or out of play) is dropped."""
    s = refresh_deck(s)
    if s.draws and not s.deck:
        s = attrs.evolve(s, draws=())
    if s.draws:
        return attrs.evolve(s, stage=Stage.DRAW)
    return after_draws(b, s)


def deal_card(b: Board, s: RKState, card: str) -> RKState:
    """The drawn card goes to a unit's steps or a hand; then the next draw, or play goes on."""
    head = s.draws[0]
    s = attrs.evolve(s, deck=s.deck - {card}, draws=s.draws[1:])
    if head.kind == "steps":
        u = b.unit(s, head.who)
        s = b.with_unit(s, attrs.evolve(u, steps=u.steps | {card}))
    else:
        s = s.with_hand(head.who, s.hand(head.who) | {card})
    return next_draw(b, s)


def after_draws(b: Board, s: RKState) -> RKState:
    if s.phase in (Phase.SETUP, Phase.REINFORCEMENT):
        return start_player_turns(s)
    if s.phase == Phase.RECRUITING:
        return after_refill(b, s)
    return after_recruit(b, s)


# --- the Player Turn loop (RKS-5.1.2) ----------------------------------------------------------


def start_player_turns(s: RKState) -> RKState:
    """The German Player Turn comes first (RKS-5.1.3)."""
    # RKS-5.1.3: the German Player Turn opens every turn's Player Turns
    return attrs.evolve(
        s, phase=Phase.PLAYER_TURNS, stage=Stage.PLAYER_TURN, player=GE, passes=0, draws=()
    )


def end_player_turn(b: Board, s: RKState, passed: bool) -> RKState:
    """Player Turns alternate until both players pass in succession; then the Recruiting Phase
    (RKS-5.1.2)."""
    passes = s.passes + 1 if passed else 0
    s = attrs.evolve(
        s,
        acting=None,
        acted=False,
        recruited=False,
        effects=(),
        pending=None,
        combat=None,
        damage=None,
        passes=passes,
    )
    if passes >= 2:
        return start_recruiting_phase(b, s)
    return attrs.evolve(s, stage=Stage.PLAYER_TURN, player=other(s.player))


def activation_is_pass(s: RKState) -> bool:
    """Whether the activation now ending counts as a pass (AMB-RKS-1)."""
    reading = s.variant.reading("pass_rule")
    if reading == "every_turn":
        return True
    if reading == "idle_activation":
        return not s.acted
    return False


def end_activation(b: Board, s: RKState) -> RKState:
    """The acting unit is flipped and its activation is over (RKS-7.4.1, RKS-8.11.1)."""
    if s.acting is not None and b.unit(s, s.acting).area is not None:
        s = b.update(s, s.acting, flipped=True)
    return end_player_turn(b, settle(b, s), activation_is_pass(s))


def after_recruit(b: Board, s: RKState) -> RKState:
    """A recruit is the player's Player Turn and not a pass, or (AMB-RKS-18 b) the player goes
    on to designate a unit or pass."""
    if s.variant.is_("recruit_turn", "extra"):
        return attrs.evolve(s, stage=Stage.PLAYER_TURN, recruited=True)
    return end_player_turn(b, s, s.variant.is_("pass_rule", "every_turn"))


# --- Recruiting Phase (RKS-10.1.1 to RKS-10.3.1) ------------------------------------------------


def recruiting_order(s: RKState) -> tuple[str, str]:
    return (GE, SU) if s.variant.is_("recruiting_order", "german_first") else (SU, GE)


def start_recruiting_phase(b: Board, s: RKState) -> RKState:
    # RKS-5.1.1 (4): the Recruiting Phase follows the Player Turns
    return attrs.evolve(
        s, phase=Phase.RECRUITING, stage=Stage.DISCARD, player=recruiting_order(s)[0], passes=0
    )


def refill_target(b: Board, s: RKState, side: str) -> int:
    """3 cards, or 4 for the side occupying Mamayev Kurgan (RKS-10.1.2, RKS-10.2.1)."""
    if occupies(b, s, side):  # RKS-10.2.1: the occupier of Mamayev Kurgan draws up to 4
        return REFILL_KURGAN
    return REFILL  # RKS-10.1.2


def discard_hand(
    b: Board, s: RKState, cards: frozenset[str], refill: bool = True, draw: int | None = None
) -> RKState:
    """Discard any hand cards (RKS-10.1.1), then, if the player wants, draw up to the target
    (RKS-10.1.2: he "may supply the hand"), or `draw` cards of it (`refill_amount=partial`)."""
    side = s.player
    s = discard(s.with_hand(side, s.hand(side) - cards), cards)
    missing = refill_target(b, s, side) - len(s.hand(side)) if refill else 0
    if draw is not None:  # RKS-10.1.2 (option refill_amount=partial: fewer than the target)
        missing = draw
    return queue_draws(b, s, [DrawFor("hand", side)] * max(0, missing))


def after_refill(b: Board, s: RKState) -> RKState:
    first, second = recruiting_order(s)
    if s.player == first:
        return attrs.evolve(s, stage=Stage.DISCARD, player=second)
    s = attrs.evolve(s, units=tuple(attrs.evolve(u, flipped=False) for u in s.units))  # RKS-10.3.1
    s = revive(b, s, "recruiting_phase")
    return end_turn(b, s)


# --- turns ----------------------------------------------------------------------------------------


def end_turn(b: Board, s: RKState) -> RKState:
    """After Turn 6 the game is decided (RKS-4.1.1); otherwise the next turn begins."""
    if s.turn >= LAST_TURN:
        return victory(b, s)
    return start_turn(b, s, s.turn + 1)


def start_turn(b: Board, s: RKState, turn: int) -> RKState:
    """The Reinforcement Phase (Turns 2 and 3, RKS-5.1.1): the units due enter their Rear
    (RKS-6.1.1, RKS-6.2.1) and are dealt their steps (RKS-6.1.2, RKS-6.2.2); the T-34 may
    return (RKS-6.3.1, AMB-RKS-14)."""
    # RKS-5.1.1 (1): a new turn opens with its Reinforcement Phase (arrivals on Turns 2, 3)
    s = attrs.evolve(s, turn=turn, phase=Phase.REINFORCEMENT, stage=Stage.DRAW, passes=0)
    flipped = s.variant.is_("arrival_state", "flipped")  # AMB-RKS-25
    arriving = [spec for spec in b.data.units if spec.arrives == turn]
    # RKS-6.1.1, RKS-6.2.1: the units due enter their Rear; their steps (RKS-6.1.2,
    # RKS-6.2.2) are the draws queued below
    for spec in arriving:
        s = b.update(s, spec.id, area=b.rear[spec.side], flipped=flipped)
    draws = arrival_queue(b, turn)
    if s.variant.is_("t34_revival", "every_turn") or (
        arriving and s.variant.is_("t34_revival", "reinforcement_phases")
    ):
        s = revive(b, s, s.variant.reading("t34_revival"))
    return queue_draws(b, settle(b, s), draws)


def revive(b: Board, s: RKState, when: str) -> RKState:
    """The T-34 returns to Tractor Works if the Soviets control it and it was eliminated in the
    previous turn (RKS-6.3.1), checked when AMB-RKS-14's reading says; it arrives face up or
    flipped by AMB-RKS-25."""
    if not s.variant.is_("t34_revival", when):
        return s
    for spec in b.data.units:
        lost = s.eliminated_in(spec.id)
        if spec.revives_in is None or lost is None:
            continue
        window = (
            lost == s.turn - 1
            if s.variant.is_("t34_revival_window", "previous_turn")
            else lost < s.turn
        )
        # RKS-6.3.1: lost in the window and Tractor Works Soviet: the T-34 returns there
        if window and controller(b, s, spec.revives_in) == spec.side:
            s = b.update(
                s,
                spec.id,
                area=spec.revives_in,
                flipped=s.variant.is_("arrival_state", "flipped"),
            )
            s = attrs.evolve(s, eliminated=tuple(e for e in s.eliminated if e[0] != spec.id))
    return s


def victory(b: Board, s: RKState) -> RKState:
    """The German wins if he controls all three Areas joined to the Soviet Rear at the end of
    Turn 6, else the Soviet (RKS-4.1.1)."""
    held = [a for a in b.arrows if controller(b, s, a) == GE]
    names = ", ".join(b.name(a) for a in b.arrows)
    if len(held) == len(b.arrows):
        outcome = Outcome(GE, clause="RKS-4.1.1", reason=f"the Germans control {names}")
    else:
        lacking = ", ".join(b.name(a) for a in b.arrows if a not in held)
        outcome = Outcome(
            SU, clause="RKS-4.1.1", reason=f"at the end of Turn {s.turn} the Germans lack {lacking}"
        )
    return attrs.evolve(s, phase=Phase.OVER, stage=Stage.OVER, result=outcome, draws=())
