"""Rattenkrieg as a symbolic transition system: an over-approximating abstraction of the rules,
for proofs of some invariants of `specs.rattenkrieg.formal.properties` (`wargame verify
rattenkrieg`).

**Why an abstraction.** An exact model of Rattenkrieg (which card lies where and who has seen
it, a combat's table with its raises, the picks, every queued draw) would repeat the Python
rules in Z3. The properties proved here do not need it: each follows from what any one step
may do to a few counts, places, flags and records, whatever the step is.

**What is modelled.** Per unit: the Area it is in (0: off the map; the Areas numbered in data
order from 1, the two Rears first), how many step cards it holds (RKS-3.3.4), whether it is
flipped (RKS-7.4.1) or isolated (RKS-8.10.1), how often and in which Turn it is recorded
eliminated (RKS-8.9.2, RKS-6.3.1), and whether it acted in the step that led to the position
(was designated, recruited or moved along: a fact of that step's action, which the link reads
from it; none at set-up). Per card of the 52: in how many places it lies (the deck, the
discards, out of play, a hand, a unit's steps, the combat table:
`specs.rattenkrieg.formal.properties.card_places`), and whether it is face up, out of play
(discarded
or removed), removed, exposed, and a unit's step (RKS-3.3.3, AMB-RKS-7); and how many cards that
are none of the 52 lie in the places, and in the face-up, exposed, removed and discarded sets.
Per side: its hand size, and how many cards it has put on the combat table from its hand
(AMB-RKS-7 ii lets such a card go back). Globally: the Turn, the phase (RKS-5.1.1), whether the
Rifles are being placed (RKS-3.1.1), the result as its winner (0: none, 1: German, 2: Soviet, 3:
a draw) and whether its clause and wording are those RKS-4.1.1 gives in the position, whether
the Germans control each of the three arrow Areas (RKS-3.5.2), and who controls each Stalingrad
Area (0: none, 1: German, 2: Soviet; RKS-3.6.1). Of the records of where play stands: the stage
(`Stage` by number), the player and the acting unit (by number from 1), how many draws are
queued and whether they are the last ones of the set-up deal (`sequence.deal_queue` once every
Rifle is placed) or of the Turn's arrivals (`sequence.arrival_queue`) or all the player's
refill, the first draw's kind and target, the deck's size, the events in force (per lasting
event, how many of its cards are in force for the acting unit and in the combat), the combat
record's cause (none, a combat, a bombarded unit's remaining units: AMB-RKS-16), its attacker's
side and whether it refights a tie, its attacker, defender and T-34 support (units by number)
and Area, the damaged unit, whether its damage is a combat's or Air Force Support's, the
random pick's kind (a lost
step's, the Sniper's) and unit, the move waiting for its card (its Area, its T-34, the payments
due: RKS-7.3.1), whether passes are counted (RKS-5.1.2), and whether the acting unit has operated
(RKS-7.1.2) and a recruit was made this Player Turn (AMB-RKS-18 b); the combat's loser and which
remaining units stay (`specs.rattenkrieg.formal.symbolic_aftermath`); the combat's step, raiser,
raises, loser, staying units and isolation choice, and its attack, defence and first spent card
(side, origin, openness: `specs.rattenkrieg.formal.symbolic_combat`). Everything else (which card
is where, the spent cards after the first, the damage's other causes, the draws after the
first in the Player Turns, how many passes) is left out: a step may change the modelled values in
any way the step rules below allow, which is more than the rules allow (an over-approximation).
The step rules are the same under every reading but these, which follow the variant:
discard_faces (faces), played_step and used_steps (AMB-RKS-7 i, iv), event_source (General
Chuikov from the hand), contested_control (AMB-RKS-11: a contested Area keeps its controller or
has none), effect_stacking and effect_duration (AMB-RKS-20), t34_escort (AMB-RKS-15 iv: the
payments due), occupying (AMB-RKS-17: the refill target), refill_amount (a partial refill),
reattack_events (events before a re-attack), lost_step (AMB-RKS-7 iii: a random pick),
event_timing (the Sniper with no unit acting), recruiting_order (the second refiller),
recruit_turn (a recruit remembered) and arrival_state (units arriving flipped).

**The step rules** (one schema, `step`, whose choices are the next state; each conjunct cites
the clauses it stands for; the variables are named in `symbolic_state`, and each family of
rules below has a module of its own, the units' in `symbolic_units`, the cards' and the hands'
in `symbolic_cards`):

- nothing happens once the game has a result (RKS-4.1.2: the game ends with Turn 6);
- the step that gives the game its result ends Turn 6 and gives it to the German exactly when
  he controls the three arrow Areas after it, else to the Soviet, worded as RKS-4.1.1 words it;
- Turn 1's set-up and Player Turns are entered only from themselves, and the Turn never goes
  back (RKS-5.1.1: the phases of a turn come in order, and Turn 1 has no Reinforcement Phase);
- a unit that comes to an Area (moves, retreats, moves along, is placed, arrives or revives)
  never comes to the enemy Rear (RKS-3.5.1);
- a unit that acts in a step (is designated, recruits, or moves along with the acting unit) is
  face up before it (RKS-7.4.2, RKS-7.5.2, RKS-8.12.4, RKS-10.3.1, RKS-9.8.2: a flipped unit
  takes no action until turned face up in the Recruiting Phase or by General Chuikov);
- a unit gains step cards (the deal, a reinforcement's steps, a recruit, a step card back from
  the table) only up to its original number (RKS-3.3.1, RKS-6.1.2, RKS-6.2.2, RKS-7.5.3,
  RKS-8.12.1: the T-34 has none);
- a unit leaves the map only eliminated, recorded once in the Turn the step ends in; its
  record changes only so, or as it revives (which clears it), and keeps its Turn; it comes back
  only with its record cleared (RKS-8.9.2, RKS-6.3.1); leaving the map it sheds its steps and
  markers, and off it gains none (RKS-3.3.2); a reinforcement comes onto the map only from its
  Turn on, and is on it as its Turn comes (RKS-6.1.1, RKS-6.2.1); the placing of the Rifles
  ends only with every Rifle on the map, and is not taken up again (RKS-3.1.1);
- no card is made or lost: each of the 52 lies in as many places after a step as before, and no
  other card appears (RKS-2.4.1, RKS-3.4.2, RKS-3.4.3: a draw, discard, reshuffle, payment,
  declaration or loss moves a card from one place to one other);
- a card turns face up only as it lies out of play, and turns face down as it leaves it (the
  reshuffle); under discard_faces=face_up a card put out of play lies face up and stays so,
  under face_down no card turns face up (RKS-8.7.1, RKS-3.4.3); a card is exposed only as a
  unit's step under played_step=returned, and leaving the units' steps is no longer exposed
  (RKS-3.3.3); a card leaves the game only under used_steps=removed (RKS-3.4.3, AMB-RKS-7);
- a side's hand, with its hand cards on the combat table, grows only in set-up, up to what is
  dealt (RKS-3.4.1), or in the Recruiting Phase, up to 4 (RKS-10.1.2, RKS-10.2.1);
- every step ends with control as the units make it (the rules settle it after every action):
  a Stalingrad Area whose counted units (not isolated, RKS-3.6.3) are of one side only is that
  side's (RKS-3.6.2); an Area has no controller only under contested_control=uncontrolled, and
  then exactly when both sides' counted units are in it (RKS-3.6.1, AMB-RKS-11); and no unit
  on the map is isolated in a Rear or in an Area its side controls (RKS-8.10.6);
- under event_source=hand, in the Player Turn loop (one Turn, the Player Turns before and
  after) the face-up units on the map grow in number only by General Chuikov, by at most one
  for each card leaving the Soviet hand (RKS-9.8.2);
- the events in force (`symbolic_events`): a card comes into force one at a time, as an event of
  the player for his acting unit outside a combat (RKS-9.1.1, RKS-9.1.2), never the Assault Gun
  for a Panzer Division (RKS-9.4.1), not twice under effect_stacking=once and at most the two
  cards of each kind there are (RKS-9.7.1: this bound restates the property, since which card
  is where is not modelled); the player and the acting unit change only as the events end and
  no combat is open (RKS-7.1.1); a combat, opened by the player, takes in the "next combat"
  events and starts with its first round (RKS-9.5.1), a bombarded unit's record takes in none
  (RKS-9.2.2); while a record lasts its cause and attacker stay and no event joins it
  (RKS-8.2.2); a refought tie ends them under effect_duration=first_round (RKS-8.7.4);
- the move waiting for its card (`symbolic_pending`): it is made only as `activation.move_problem`
  allows (a restatement of those checks, RKS-7.3.1), and while it waits the only step is one
  payment, the last completing the move, the first of two leaving a hand card (RKS-7.1.2);
- set-up (`symbolic_setup`): it is entered only from itself (RKS-5.1.1); a placing step puts at
  most one Rifle, from off the map, on the first free Normal Area, moves no card and changes no
  control, and the deal is queued whole once no Rifle is left (RKS-3.1.1); a deal step gives
  the head of the queue one card and nothing else (RKS-3.3.1, RKS-3.4.1);
- the queued draws (`symbolic_draws`): a step ends in the draw stage only with a card in the deck
  (RKS-3.4.3: the reshuffle, or the draws dropped; a restatement); a Reinforcement Phase opens
  with its Turn's whole arrival queue, the arrivals holding no steps (RKS-6.1.2), and each of
  its draws deals the head one card (RKS-6.2.2); the Recruiting Phase's refill is queued up to
  the hand's target as `sequence.discard_hand` queues it (RKS-10.1.2, a restatement) and each
  draw gives the hand one card, changing nothing that decides the target (RKS-10.2.1); a draw
  of the Player Turns is queued only as a recruit or a bombardment may make it (RKS-7.5.1,
  RKS-9.2.1: a restatement of `recruit_problem` and `event_problem`) and resolved at once;
- the sequence of play (`symbolic_sequence`): where a step of
  each phase and stage leads, per the action kinds taken there (a placing, the set-up deal's
  draws, a Reinforcement Phase's draws, the start of a Player Turn, the acting unit's steps, a
  discard or refill of the Recruiting Phase; RKS-3.1.1, RKS-3.4.1, RKS-6.2.2, RKS-7.1.1,
  RKS-5.1.2, RKS-10.1.1); only the end of a Recruiting Phase changes the Turn, by one
  (RKS-5.1.1); set-up keeps the player (RKS-3.1.1); the end of Turn 6 gives the result and no
  other step does (RKS-4.1.1); a Move makes a waiting move as it enters the pay stage, a
  payment keeps it there or completes it back to the acting unit, nothing else touches it
  (RKS-7.3.1); a step that queues draws enters the draw stage with them, a draw stays there
  while draws are queued (`next_draw`), nothing else queues or takes one (RKS-3.4.3); a
  designation makes a unit of the player act, the acting unit changes only so or to none as
  the Player Turn ends, the player only with no unit acting, and none acts where a Player Turn
  starts or outside the Player Turns (RKS-7.1.1, RKS-5.1.2); a draw from the start of a Player
  Turn is a recruit's step, which ends the recruit, and a pick with no unit acting ends the
  Player Turn (RKS-7.5.1, RKS-9.6.1);
- who fights (`symbolic_combatants`): a combat record is opened for the acting unit, by the player,
  with no support (RKS-8.2.2: `start_combat`, or a bombarded unit's remaining units, AMB-RKS-16),
  in a Stalingrad Area (RKS-8.1.1: an attack is made where an enemy unit is, which no Rear holds);
  while it lasts its attacker and Area stay; a defender is chosen among the enemy units
  (RKS-8.2.3); only a Soviet T-34 supports (RKS-8.12.3);
- damage and the picks (`symbolic_picks`): damage is recorded for a unit on the map, which stays
  where it is while recorded (RKS-8.9.1), and bombardment or Air Force Support records none for a
  T-34, which it eliminates (RKS-8.12.1, AMB-RKS-16), and records it for a unit that fits as the
  event's target (RKS-9.2.1, RKS-9.3.1: a restatement at the recording step); while damage
  lasts a step (into a lost step's pick) the player, the acting unit, its Area and the damage's
  cause stay (RKS-8.9.1); a lost step is picked at random only under
  lost_step=random, from the damaged unit's steps (AMB-RKS-7 iii); the Sniper picks only for the
  Soviet, from a non-empty German hand, for the acting unit unless under
  event_timing=player_turn_too (RKS-9.6.1); a pick is resolved by the next step;
- the records of each stage (`symbolic_records`): a step that ends in a Reinforcement
  Phase or the game's end keeps the player, and enters them from the Recruiting Phase only by
  the second refiller's step (RKS-10.1.1); only a step within the Player Turns counts passes
  (RKS-5.1.2); a combat record is opened as play enters a combat's stages or its damage, lasts
  only in them, and play enters the combat's stages only with one (RKS-8.3.1); damage is made as
  play enters the damage stage, a combat's exactly with the combat, lasts a step only as a lost
  step is picked, and the damage stage's step leaves it (RKS-8.9.1); a pick is made as play
  enters the pick stage, which is entered only with one and left by the next step (RKS-9.6.1);
  a unit is designated on the map face up, and a step that keeps it acting neither flips it nor
  takes it off the map (RKS-7.4.2); the acting unit has operated as play enters a combat, damage,
  a draw or a pick, keeps that while it acts, and the flag goes with the acting unit (RKS-7.1.2);
  a recruit is remembered only under recruit_turn=extra, in the Player Turns, and bars another
  recruit's draw (RKS-7.5.1); set-up flips and isolates no unit (RKS-3.1.1), a Reinforcement
  Phase's draw flips none (RKS-6.2.2), and the Recruiting Phase ends with every unit face up but
  those arriving or reviving flipped under arrival_state=flipped (RKS-10.3.1, AMB-RKS-25);
- what is left to decide (`symbolic_aftermath.Aftermath.rules`, restatements of the checks the
  rules make as play enters each stage): a step ends in the damage stage only with damage that
  has a choice (RKS-8.9.2), in the remaining units' stage only with a first remaining unit that
  has a retreat (RKS-8.10.2), in the continuation only with an enemy left and an attacker that
  can fight or retreat (RKS-8.11.2);
- the combat's round, table and aftermath (`symbolic_combat_rules.record_rules`, its module
  docstring says which rules are restatements): a round begins with an empty table (RKS-8.3.1), a
  declaration puts one card of the side to move down, from the places RKS-8.4.1 allows, open as
  RKS-9.8.1 says, and passes the step and the raise on (RKS-8.6.2); damage, the continuation and the
  remaining units' decisions are entered with the record as the rules leave it (RKS-8.9.1,
  RKS-8.11.2, RKS-8.10.1), and a remaining unit's decision moves only a remaining unit.

**Why that is sound for the invariants.** Every concrete step, projected, must satisfy these
conjuncts: the refinement check (`solvers.checking.refinement`, direction (a)) verifies it on seeded
playouts of every preset, naming the clause of any conjunct a step breaks. Then every position
play reaches projects to a reachable model state (with the actors of the step that led to it),
every step of play to a model step, and an invariant proved over the model holds in it (each
formal statement in `specs.rattenkrieg.formal.verification` implies its property of the projected
position or step). The converse direction (b) does not hold and is not checked
(`exact = False`): the model has steps no action takes, so a counterexample found over it is
only a candidate.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from kernel.variants import Variant
from solvers.checking.abstraction import AbstractModel
from solvers.checking.system import Conjunct, Schema
from solvers.checking.terms import B, Frame, I, Ops
from specs.rattenkrieg.formal import (
    symbolic_cards,
    symbolic_combat,
    symbolic_combat_rules,
    symbolic_combatants,
    symbolic_draws,
    symbolic_events,
    symbolic_pending,
    symbolic_picks,
    symbolic_records,
    symbolic_sequence,
    symbolic_setup,
    symbolic_units,
)
from specs.rattenkrieg.formal.symbolic_aftermath import Aftermath
from specs.rattenkrieg.formal.symbolic_state import (
    ALIEN,
    CLAUSES,
    CONTROLLERS,
    LOOP_PART,
    NEXT,
    PLAYER_TURNS,
    SETUP,
    STRAY,
    WINNERS,
    at,
    ctl,
    flip,
    hand,
    held,
    iso,
    renamed,
    table,
    variables,
)
from specs.rattenkrieg.rules import sequence
from specs.rattenkrieg.rules.board import Board
from specs.rattenkrieg.rules.cards import DECK, sort_cards
from specs.rattenkrieg.rules.sequence import LAST_TURN
from specs.rattenkrieg.rules.state import GE, SIDES, SU, DrawFor


class StepSchema(Schema):
    """Any one action or chance outcome of the rules, as what it may do to the modelled counts
    and places (module docstring)."""

    name = "step"

    def __init__(self, model: Model) -> None:
        self.m = model
        self.choices = tuple(renamed(v) for v in model.variables)
        self.clauses = tuple(dict.fromkeys(c for group in CLAUSES.values() for c in group))

    def effect(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        return self.m.next_of(c)

    def guard(self, o: Ops[B, I], s: Frame[B, I], choice: Frame[B, I]) -> list[Conjunct[B]]:
        m = self.m
        n = m.next_of(choice)
        out: list[Conjunct[B]] = []

        def add(clause: str, text: str, make: Callable[[], B], about: str = "") -> None:
            out.append(Conjunct(clause, text, make, about=frozenset({about} if about else ())))

        add(
            "RKS-4.1.2",
            "nothing happens once the game has a result",
            lambda: o.eq(s.i("won"), 0),
        )
        add(
            "RKS-4.1.1",
            "the step that gives the result ends Turn 6 and gives it to the German exactly "
            "when he controls the three arrow Areas after it, else to the Soviet, worded as "
            "RKS-4.1.1 words it",
            lambda: o.implies(
                o.all([o.eq(s.i("won"), 0), o.not_(o.eq(n.i("won"), 0))]),
                o.all(
                    [
                        o.eq(n.i("turn"), LAST_TURN),
                        n.b("worded"),
                        o.eq(n.i("won"), o.ite(m.germans_hold(o, n), WINNERS[GE], WINNERS[SU])),
                    ]
                ),
            ),
        )
        add(
            "RKS-5.1.1",
            "Turn 1's set-up and Player Turns are entered only from themselves",
            lambda: o.implies(m.first_turn(o, n), m.first_turn(o, s)),
        )
        add("RKS-5.1.1", "the Turn never goes back", lambda: o.le(s.i("turn"), n.i("turn")))
        if m.chuikov_from_hand:
            add(
                "RKS-9.8.2",
                "in the Player Turn loop the face-up units on the map grow in number only by "
                "General Chuikov, by at most one for each card leaving the Soviet hand",
                lambda: symbolic_cards.chuikov_rule(m, o, s, n),
                LOOP_PART,
            )
        add(
            "RKS-3.1.1",
            "the placing of the Rifles, once over, is not taken up again",
            lambda: o.implies(o.not_(s.b("placing")), o.not_(n.b("placing"))),
        )
        for u in m.units:
            out.extend(symbolic_units.unit_rules(m, o, s, n, u))
        for a in m.stalingrad:
            add(
                "RKS-3.6.2",
                f"every step ends with {a}'s control as its counted units make it: theirs if "
                "of one side only (RKS-3.6.3: isolated ones do not count), none only if both "
                "sides' are there under contested_control=uncontrolled (AMB-RKS-11), else a "
                "side (RKS-3.6.1)",
                functools.partial(m.area_settled, o, n, a),
                a,
            )
        add(
            "RKS-2.4.1",
            "no card that is none of the 52 appears",
            lambda: o.all([o.eq(n.i(ALIEN), s.i(ALIEN)), o.eq(n.i(STRAY), s.i(STRAY))]),
        )
        for c in m.cards:
            out.extend(symbolic_cards.card_rules(m, o, s, n, c))
        for side in SIDES:
            out.extend(symbolic_cards.hand_rules(m, o, s, n, side))
        out.extend(symbolic_events.event_rules(m, o, s, n))
        out.extend(symbolic_pending.pending_rules(m, o, s, n))
        out.extend(symbolic_setup.setup_rules(m, o, s, n))
        out.extend(symbolic_draws.draw_rules(m, o, s, n))  # DRAWS
        out.extend(symbolic_sequence.sequence_rules(m, o, s, n))  # STAGES
        out.extend(symbolic_combatants.combat_rules(m, o, s, n))  # COMBATANTS
        out.extend(symbolic_picks.pick_rules(m, o, s, n))  # PICKS
        out.extend(symbolic_records.record_rules_of_stages(m, o, s, n))  # SEQUENCE
        out.extend(m.aftermath.rules(o, s, n))  # AFTERMATH
        out.extend(symbolic_combat_rules.record_rules(m, o, s, n))  # COMBAT
        return out


class Model(AbstractModel):
    """The abstraction's variables, its one schema and what it knows of each unit (its side,
    its original steps) and of the map (the Rears, the arrow Areas), read once from the map and
    counter set and the variant."""

    next_prefix = NEXT

    def __init__(self, board: Board, variant: Variant) -> None:
        super().__init__()
        self.name = "rattenkrieg-abstract"
        self.variant = variant
        self.board = board
        self._read_map(board)
        self._read_units(board)
        self._read_readings(variant)
        self._read_setup(board, variant)
        self.aftermath = Aftermath(self)  # AFTERMATH: reads COMBAT's loser and staying units
        # COMBAT's variables (the round, table, aftermath) after the others
        self.variables = (*variables(self), *symbolic_combat.variables(self))
        self.schemas = (StepSchema(self),)

    def _read_map(self, board: Board) -> None:
        """The Areas by number (in data order from 1, the Rears first), the arrow and the
        Stalingrad Areas, each Area's Stalingrad neighbours, each side's Rear, Mamayev Kurgan."""
        self.areas: dict[str, int] = {a.id: i + 1 for i, a in enumerate(board.data.areas)}
        self.arrows: tuple[str, ...] = board.arrows
        self.stalingrad: tuple[str, ...] = board.stalingrad
        self.adjacent = {
            self.areas[a]: tuple(self.areas[x] for x in board.adjacent[a] if x in self.stalingrad)
            for a in self.areas
        }
        self.own_rear = {side: self.areas[board.rear[side]] for side in SIDES}
        self.mk = board.mamayev_kurgan

    def _read_units(self, board: Board) -> None:
        """The units (by number from 1) and what the model knows of each, and the 52 cards."""
        self.units: tuple[str, ...] = tuple(u.id for u in board.data.units)
        self.unit_number = {u: i + 1 for i, u in enumerate(self.units)}
        self.side = {u: board.side_of[u] for u in self.units}
        self.enemy_rear = {u: self.areas[board.enemy_rear(self.side[u])] for u in self.units}
        self.most_steps = {u: board.specs[u].steps for u in self.units}
        self.arrives = {u: board.specs[u].arrives for u in self.units}
        self.rifles = frozenset(board.rifles)
        self.panzers = tuple(
            self.unit_number[u] for u in self.units if board.specs[u].type == "panzer"
        )
        self.tanks = tuple(u for u in self.units if board.is_tank(u))
        self.revives = frozenset(u for u in self.units if board.specs[u].revives_in is not None)
        self.cards: tuple[str, ...] = tuple(sort_cards(DECK))

    def _read_readings(self, variant: Variant) -> None:
        """The readings the step rules follow (the module docstring lists them)."""
        self.chuikov_from_hand = variant.is_("event_source", "hand")  # AMB-RKS-20 (i)
        self.uncontrolled = variant.is_("contested_control", "uncontrolled")  # AMB-RKS-11 (b)
        self.faces = variant.reading("discard_faces")
        self.returned = variant.is_("played_step", "returned")
        self.removing = variant.is_("used_steps", "removed")
        self.stacking_once = variant.is_("effect_stacking", "once")
        self.first_round = variant.is_("effect_duration", "first_round")
        self.reattack_events = variant.is_("reattack_events", "effects")
        self.random_step = variant.is_("lost_step", "random")  # AMB-RKS-7 (iii)
        self.turn_events = variant.is_("event_timing", "player_turn_too")  # AMB-RKS-20
        self.occupying = variant.reading("occupying")
        self.partial_refill = variant.is_("refill_amount", "partial")
        self.paid_each = variant.is_("t34_escort", "flipped_paid_each")
        self.recruit_extra = variant.is_("recruit_turn", "extra")  # AMB-RKS-18 (b)
        self.late = variant.is_("arrival_state", "flipped")  # AMB-RKS-25

    def _read_setup(self, board: Board, variant: Variant) -> None:
        """Where each unit starts, the Normal Areas the Rifles go to, the deal of set-up, each
        Turn's arrivals and the player last to refill."""
        self.setup_area = {u: self.area_number(board.specs[u].setup) for u in self.units}
        self.normal = tuple(self.areas[a] for a in board.normal_areas)
        if len(self.rifles) > len(self.normal):  # else set-up may stop with Rifles unplaced
            raise ValueError("more Rifles than Normal Areas")
        placed = sequence.initial_state(board, variant)
        for r, a in zip(board.rifles, board.normal_areas, strict=False):
            placed = board.update(placed, r, area=a)
        self.deal: tuple[DrawFor, ...] = tuple(sequence.deal_queue(board, placed))
        """The deal of set-up once every Rifle is placed (`sequence.deal_queue`)."""
        self.second = CONTROLLERS[sequence.recruiting_order(placed)[1]]
        """The player last to refill in the Recruiting Phase (RKS-10.1.1)."""
        self.arrivals = {
            t: tuple(sequence.arrival_queue(board, t)) for t in range(2, LAST_TURN + 1)
        }

    def germans_hold(self, o: Ops[B, I], f: Frame[B, I]) -> B:
        """The Germans control the three Areas joined to the Soviet Rear (RKS-3.5.2)."""
        return o.all(f.b(held(a)) for a in self.arrows)

    def present(self, o: Ops[B, I], f: Frame[B, I], area: str, side: str) -> B:
        """A unit of `side` that counts for control (not isolated, RKS-3.6.3) is in `area`."""
        where = self.areas[area]
        return o.any(
            [
                o.all([o.eq(f.i(at(u)), where), o.not_(f.b(iso(u)))])
                for u in self.units
                if self.side[u] == side
            ]
        )

    def area_settled(self, o: Ops[B, I], f: Frame[B, I], area: str) -> B:
        """RKS-3.6.1, RKS-3.6.2, RKS-3.6.3, AMB-RKS-11: `area`'s control is its counted units'
        side if they are of one side only; none only under contested_control=uncontrolled, and
        there exactly when both sides' counted units are in it."""
        ge, su = self.present(o, f, area, GE), self.present(o, f, area, SU)
        c = f.i(ctl(area))
        none = o.eq(c, CONTROLLERS[None])
        out = [
            o.implies(o.all([ge, o.not_(su)]), o.eq(c, CONTROLLERS[GE])),
            o.implies(o.all([su, o.not_(ge)]), o.eq(c, CONTROLLERS[SU])),
        ]
        if self.uncontrolled:
            out.append(o.implies(o.all([ge, su]), none))
        else:
            out.append(o.not_(none))
        return o.all(out)

    def isolation_settled(self, o: Ops[B, I], f: Frame[B, I], u: str) -> B:
        """RKS-8.10.6: `u`, isolated on the map, is in a Stalingrad Area its side does not
        control (not in a Rear)."""
        mine = CONTROLLERS[self.side[u]]
        return o.implies(
            f.b(iso(u)),
            o.all(
                [
                    o.implies(
                        o.eq(f.i(at(u)), where),
                        o.lit(False)
                        if a not in self.stalingrad
                        else o.not_(o.eq(f.i(ctl(a)), mine)),
                    )
                    for a, where in self.areas.items()
                ]
            ),
        )

    @staticmethod
    def marked(o: Ops[B, I], f: Frame[B, I], u: str) -> B:
        """`u` is flipped or isolated (RKS-7.4.1, RKS-8.10.1)."""
        return o.any([f.b(flip(u)), f.b(iso(u))])

    @staticmethod
    def face_up(o: Ops[B, I], f: Frame[B, I], u: str) -> B:
        """`u` is on the map face up."""
        return o.all([o.not_(o.eq(f.i(at(u)), 0)), o.not_(f.b(flip(u)))])

    def face_ups(self, o: Ops[B, I], f: Frame[B, I]) -> I:
        """How many units are on the map face up."""
        return o.count(self.face_up(o, f, u) for u in self.units)

    @staticmethod
    def in_the_loop(o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> B:
        """A step of the Player Turn loop: in the Player Turns before and after, in one Turn."""
        return o.all(
            [
                o.eq(s.i("phase"), PLAYER_TURNS),
                o.eq(n.i("phase"), PLAYER_TURNS),
                o.eq(s.i("turn"), n.i("turn")),
            ]
        )

    @staticmethod
    def first_turn(o: Ops[B, I], f: Frame[B, I]) -> B:
        """Turn 1 before its Recruiting Phase: set-up or the Player Turns."""
        phase = f.i("phase")
        return o.all([o.eq(f.i("turn"), 1), o.any([o.eq(phase, SETUP), o.eq(phase, PLAYER_TURNS)])])

    @staticmethod
    def held_cards(o: Ops[B, I], f: Frame[B, I], side: str) -> I:
        """A side's hand with its hand cards on the combat table."""
        return o.add([f.i(hand(side)), f.i(table(side))])

    def acting_is(self, o: Ops[B, I], f: Frame[B, I], what: Callable[[str], B]) -> B:
        """A unit acts, and `what` holds of it."""
        return o.any(o.all([o.eq(f.i("acting"), k), what(u)]) for u, k in self.unit_number.items())

    def area_number(self, area: str | None) -> int:
        """`area` by number (0: off the map)."""
        return 0 if area is None else self.areas[area]
