"""The step rules of Rattenkrieg's symbolic abstraction (`specs.rattenkrieg.formal.symbolic`):
its one schema, `StepSchema`, apart from the model's variables and what it reads of the map so
that each module keeps one job. The model's docstring says what is modelled and why the rules
are sound for the invariants.

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
- the records of each stage (`symbolic_record_rules`): a step that ends in a Reinforcement
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
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING

from solvers.checking.system import Conjunct, Schema
from solvers.checking.terms import B, Frame, I, Ops
from specs.rattenkrieg.formal import (
    symbolic_cards,
    symbolic_combat_rules,
    symbolic_combatants,
    symbolic_draws,
    symbolic_events,
    symbolic_pending,
    symbolic_picks,
    symbolic_record_rules,
    symbolic_sequence,
    symbolic_setup,
    symbolic_units,
)
from specs.rattenkrieg.formal.symbolic_state import (
    ALIEN,
    CLAUSES,
    LOOP_PART,
    STRAY,
    WINNERS,
    renamed,
)
from specs.rattenkrieg.rules.sequence import LAST_TURN
from specs.rattenkrieg.rules.state import GE, SIDES, SU

if TYPE_CHECKING:
    from specs.rattenkrieg.formal.symbolic import Model


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
        out.extend(symbolic_record_rules.record_rules_of_stages(m, o, s, n))  # SEQUENCE
        out.extend(m.aftermath.rules(o, s, n))  # AFTERMATH
        out.extend(symbolic_combat_rules.record_rules(m, o, s, n))  # COMBAT
        return out
