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
the clauses it stands for):

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
- the events in force (`event_rules`): a card comes into force one at a time, as an event of
  the player for his acting unit outside a combat (RKS-9.1.1, RKS-9.1.2), never the Assault Gun
  for a Panzer Division (RKS-9.4.1), not twice under effect_stacking=once and at most the two
  cards of each kind there are (RKS-9.7.1: this bound restates the property, since which card
  is where is not modelled); the player and the acting unit change only as the events end and
  no combat is open (RKS-7.1.1); a combat, opened by the player, takes in the "next combat"
  events and starts with its first round (RKS-9.5.1), a bombarded unit's record takes in none
  (RKS-9.2.2); while a record lasts its cause and attacker stay and no event joins it
  (RKS-8.2.2); a refought tie ends them under effect_duration=first_round (RKS-8.7.4);
- the move waiting for its card (`pending_rules`): it is made only as `activation.move_problem`
  allows (a restatement of those checks, RKS-7.3.1), and while it waits the only step is one
  payment, the last completing the move, the first of two leaving a hand card (RKS-7.1.2);
- set-up (`setup_rules`): it is entered only from itself (RKS-5.1.1); a placing step puts at
  most one Rifle, from off the map, on the first free Normal Area, moves no card and changes no
  control, and the deal is queued whole once no Rifle is left (RKS-3.1.1); a deal step gives
  the head of the queue one card and nothing else (RKS-3.3.1, RKS-3.4.1);
- the queued draws (`draw_rules`): a step ends in the draw stage only with a card in the deck
  (RKS-3.4.3: the reshuffle, or the draws dropped; a restatement); a Reinforcement Phase opens
  with its Turn's whole arrival queue, the arrivals holding no steps (RKS-6.1.2), and each of
  its draws deals the head one card (RKS-6.2.2); the Recruiting Phase's refill is queued up to
  the hand's target as `sequence.discard_hand` queues it (RKS-10.1.2, a restatement) and each
  draw gives the hand one card, changing nothing that decides the target (RKS-10.2.1); a draw
  of the Player Turns is queued only as a recruit or a bombardment may make it (RKS-7.5.1,
  RKS-9.2.1: a restatement of `recruit_problem` and `event_problem`) and resolved at once;
- the sequence of play (`SEQUENCE_STEPS`, `sequence_rules`, `acting_rules`): where a step of
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
- who fights (`combat_rules`): a combat record is opened for the acting unit, by the player,
  with no support (RKS-8.2.2: `start_combat`, or a bombarded unit's remaining units, AMB-RKS-16),
  in a Stalingrad Area (RKS-8.1.1: an attack is made where an enemy unit is, which no Rear holds);
  while it lasts its attacker and Area stay; a defender is chosen among the enemy units
  (RKS-8.2.3); only a Soviet T-34 supports (RKS-8.12.3);
- damage and the picks (`pick_rules`): damage is recorded for a unit on the map, which stays
  where it is while recorded (RKS-8.9.1), and bombardment or Air Force Support records none for a
  T-34, which it eliminates (RKS-8.12.1, AMB-RKS-16), and records it for a unit that fits as the
  event's target (RKS-9.2.1, RKS-9.3.1: a restatement at the recording step); while damage
  lasts a step (into a lost step's pick) the player, the acting unit, its Area and the damage's
  cause stay (RKS-8.9.1); a lost step is picked at random only under
  lost_step=random, from the damaged unit's steps (AMB-RKS-7 iii); the Sniper picks only for the
  Soviet, from a non-empty German hand, for the acting unit unless under
  event_timing=player_turn_too (RKS-9.6.1); a pick is resolved by the next step;
- the records of each stage (`record_rules_of_stages`): a step that ends in a Reinforcement
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
- the combat's round, table and aftermath (`symbolic_combat.record_rules`, its module docstring
  says which rules are restatements): a round begins with an empty table (RKS-8.3.1), a
  declaration puts one card of the side to move down, from the places RKS-8.4.1 allows, open
  as RKS-9.8.1 says, and passes the step and the raise on (RKS-8.6.2); damage, the continuation
  and the remaining units' decisions are entered with the record as the rules leave it
  (RKS-8.9.1, RKS-8.11.2, RKS-8.10.1), and a remaining unit's decision moves only a remaining
  unit.

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
from solvers.checking.system import BoolVar, Conjunct, IntVar, Schema, Var
from solvers.checking.terms import B, Frame, I, Ops
from specs.rattenkrieg.formal import properties as props
from specs.rattenkrieg.io.wire import MAX_HAND
from specs.rattenkrieg.rules import sequence
from specs.rattenkrieg.rules.board import Board
from specs.rattenkrieg.rules.cards import DECK, sort_cards
from specs.rattenkrieg.rules.sequence import LAST_TURN, START_HAND
from specs.rattenkrieg.rules.state import GE, PLAYER_TURN_STAGES, SIDES, SU, DrawFor, Phase, Stage

NEXT = "next."
"""The prefix of the choices that give the next state (a choice named like a state variable
would be that variable to the solver)."""

PHASES: tuple[Phase, ...] = tuple(Phase)
"""The phases by number, in the order of `Phase`."""
SETUP, PLAYER_TURNS, RECRUITING = (
    PHASES.index(Phase.SETUP),
    PHASES.index(Phase.PLAYER_TURNS),
    PHASES.index(Phase.RECRUITING),
)
REINFORCEMENT = PHASES.index(Phase.REINFORCEMENT)
DRAW_KINDS: tuple[str, ...] = ("steps", "hand", "bombardment", "air_support")
"""The head draw's kind by number from 1 (0: no draw)."""
STAGES: tuple[Stage, ...] = tuple(Stage)
"""The stages by number, in the order of `Stage`."""
PLACE, DRAW = STAGES.index(Stage.PLACE), STAGES.index(Stage.DRAW)
CONTROLLERS: dict[str | None, int] = {None: 0, GE: 1, SU: 2}
"""An Area's controller by number (0: none, AMB-RKS-11 b)."""
WINNERS: dict[str | None, int] = {GE: 1, SU: 2, None: 3}
"""The result's winner by number (0: no result)."""
ALIEN = "alien"
LOOP_PART = "loop"
"""What the Player Turn loop's rule is `about` (a proof by parts assumes it with the hands')."""
STRAY = "stray"
FACE_KINDS = ("up", "out", "gone", "exp", "step")
"""Per card: face up, out of play (discarded or removed), removed, exposed, a unit's step."""
EVENT_SIDE: dict[str, str] = {"assault_gun": GE, "engineer": GE, "molotov": SU, "chuikov": SU}
"""The events that stay in force (`specs.rattenkrieg.rules.eventcards.LASTING`) and whose they are
(RKS-9.1.1, RKS-9.1.2)."""
OTHER_EVENT = "other"
"""Any other kind of effect in force (none ever is)."""
EVENT_KINDS: tuple[str, ...] = (*EVENT_SIDE, OTHER_EVENT)
FIGHTS: dict[str | None, int] = {None: 0, "combat": 1}
"""The combat record by number: 0 none, 1 a combat, 2 a bombarded unit's remaining units
(AMB-RKS-16: any other cause)."""
BOMBARDED = 2

STEP_PICK, SNIPER_PICK, STRAY_PICK = 1, 2, 3
"""A random pick by number (0: none): a lost step's (AMB-RKS-7 iii), the Sniper's from the German
hand (RKS-9.6.1), any other."""

OPERATED = frozenset(
    {Stage.COMBAT, Stage.CONTINUE, Stage.ISOLATION, Stage.DAMAGE, Stage.DRAW, Stage.PICK}
)
"""The stages by which the acting unit has operated (RKS-7.1.2, `properties.sequenced`)."""

Node = tuple[Phase, Stage]
PT_NODES: tuple[Node, ...] = tuple((Phase.PLAYER_TURNS, st) for st in PLAYER_TURN_STAGES)
"""The stages of the Player Turns (RKS-5.1.2, RKS-7.1.1 to RKS-9.8.2)."""
TURN_OPENS: tuple[Node, ...] = ((Phase.PLAYER_TURNS, Stage.PLAYER_TURN),)
TURN_DRAWS: tuple[Node, ...] = ((Phase.PLAYER_TURNS, Stage.DRAW), (Phase.PLAYER_TURNS, Stage.PICK))
RECRUITING_OPENS: Node = (Phase.RECRUITING, Stage.DISCARD)
SEQUENCE_STEPS: tuple[tuple[str, str, tuple[Node, ...], tuple[Node, ...]], ...] = (
    (
        "RKS-3.1.1",
        "placing a Rifle (`sequence.place`) leaves the next one to place, or with the last "
        "queues the deal of set-up (RKS-3.4.1, `start_deal`)",
        ((Phase.SETUP, Stage.PLACE),),
        ((Phase.SETUP, Stage.PLACE), (Phase.SETUP, Stage.DRAW)),
    ),
    (
        "RKS-3.4.1",
        "a draw of the set-up deal leaves the rest of the deal, or with the last opens Turn 1's "
        "Player Turns (`after_draws`, `start_player_turns`, RKS-5.1.3)",
        ((Phase.SETUP, Stage.DRAW),),
        ((Phase.SETUP, Stage.DRAW), *TURN_OPENS),
    ),
    (
        "RKS-6.2.2",
        "a draw of a Reinforcement Phase leaves the rest of the arrivals' steps, or with the "
        "last opens the Player Turns (`after_draws`, RKS-5.1.1)",
        ((Phase.REINFORCEMENT, Stage.DRAW),),
        ((Phase.REINFORCEMENT, Stage.DRAW), *TURN_OPENS),
    ),
    (
        "RKS-7.1.1",
        "from the start of a Player Turn: a designation goes to the acting unit's operations "
        "(`designate`), a recruit to its step's draw (RKS-7.5.1), an event under "
        "event_timing=player_turn_too to its draw or pick; else (a pass, or a recruit or event "
        "with nothing to draw or pick) the Player Turn ends: the next one starts or, after "
        "two passes in succession, the Recruiting Phase opens with its first discard "
        "(`end_player_turn`, `start_recruiting_phase`, RKS-5.1.2)",
        TURN_OPENS,
        (*TURN_OPENS, (Phase.PLAYER_TURNS, Stage.ACTIVE), *TURN_DRAWS, RECRUITING_OPENS),
    ),
    (
        "RKS-5.1.2",
        "a step of the acting unit (an event, move, payment, attack, combat declaration, "
        "damage, remaining unit's decision, continuation, draw or pick) ends in a stage of the "
        "Player Turns or, ending the second Player Turn in succession that passes, opens the "
        "Recruiting Phase with its first discard (`end_player_turn`, `start_recruiting_phase`)",
        PT_NODES[1:],
        (*PT_NODES, RECRUITING_OPENS),
    ),
    (
        "RKS-10.1.1",
        "a discard of the Recruiting Phase, or a draw of its refill, queues or takes the "
        "refill, hands the discard to the second player, or after the second player's refill "
        "ends the Turn: the next Turn opens with its Reinforcement Phase (its arrivals' draws) "
        "or, with no arrival, its Player Turns; after Turn 6 the game ends (`after_refill`, "
        "`end_turn`, `start_turn`, `victory`)",
        ((Phase.RECRUITING, Stage.DISCARD), (Phase.RECRUITING, Stage.DRAW)),
        (
            (Phase.RECRUITING, Stage.DISCARD),
            (Phase.RECRUITING, Stage.DRAW),
            (Phase.REINFORCEMENT, Stage.DRAW),
            *TURN_OPENS,
            (Phase.OVER, Stage.OVER),
        ),
    ),
)
"""Where a step from each phase and stage may lead (`Model.sequence_rules`), per stage and the
action kinds taken there, by `specs.rattenkrieg.rules.sequence`. The game over has no step
(RKS-4.1.2)."""


def renamed(v: Var) -> Var:
    return IntVar(NEXT + v.name, v.lo, v.hi) if isinstance(v, IntVar) else BoolVar(NEXT + v.name)


def at(u: str) -> str:
    return f"at.{u}"


def steps(u: str) -> str:
    return f"steps.{u}"


def card(c: str) -> str:
    return f"card.{c}"


def elim(u: str) -> str:
    return f"elim.{u}"


def eturn(u: str) -> str:
    return f"eturn.{u}"


def flip(u: str) -> str:
    return f"flip.{u}"


def iso(u: str) -> str:
    return f"iso.{u}"


def ctl(area: str) -> str:
    """Who controls Stalingrad Area `area` (`CONTROLLERS`)."""
    return f"ctl.{area}"


def acts(u: str) -> str:
    """`u` acted in the step that led to the position (is designated, recruits or moves along):
    a fact of the step's action, which the link reads from it."""
    return f"acts.{u}"


def face(kind: str, c: str) -> str:
    return f"{kind}.{c}"


def hand(side: str) -> str:
    return f"hand.{side}"


def table(side: str) -> str:
    return f"table.{side}"


def held(area: str) -> str:
    return f"ge.{area}"


def eff(kind: str) -> str:
    """How many cards of event `kind` are in force for the acting unit (`RKState.effects`)."""
    return f"eff.{kind}"


def ceff(kind: str) -> str:
    """How many cards of event `kind` are in force in the combat (`Combat.effects`)."""
    return f"ceff.{kind}"


CLAUSES: dict[str, tuple[str, ...]] = {
    "at": ("RKS-3.5.1",),
    "steps": ("RKS-3.3.1", "RKS-7.5.3", "RKS-8.12.1"),
    "card": ("RKS-2.4.1", "RKS-3.4.2", "RKS-3.4.3"),
    ALIEN: ("RKS-2.4.1",),
    STRAY: ("RKS-2.4.1",),
    "up": ("RKS-8.7.1", "RKS-3.4.3"),
    "out": ("RKS-3.4.3",),
    "gone": ("RKS-3.4.3",),
    "exp": ("RKS-3.3.3",),
    "step": ("RKS-3.3.3",),
    "hand": ("RKS-3.4.1", "RKS-10.1.2", "RKS-10.2.1"),
    "table": ("RKS-3.4.1", "RKS-10.1.2", "RKS-10.2.1"),
    "turn": ("RKS-5.1.1", "RKS-4.1.2"),
    "placing": ("RKS-3.1.1",),
    "elim": ("RKS-8.9.2", "RKS-6.3.1"),
    "eturn": ("RKS-8.9.2",),
    "flip": ("RKS-3.3.2", "RKS-9.8.2"),
    "iso": ("RKS-3.3.2", "RKS-8.10.6"),
    "ctl": ("RKS-3.6.1", "RKS-3.6.2", "RKS-3.6.3"),
    "acts": ("RKS-7.4.2", "RKS-7.5.2", "RKS-8.12.4", "RKS-10.3.1", "RKS-9.8.2"),
    "phase": ("RKS-5.1.1",),
    "won": ("RKS-4.1.1", "RKS-4.1.2"),
    "worded": ("RKS-4.1.1",),
    "ge": ("RKS-4.1.1", "RKS-3.6.2"),
    "player": ("RKS-7.1.1", "RKS-9.1.1"),
    "acting": ("RKS-7.1.1", "RKS-9.4.1"),
    "fight": ("RKS-9.5.1", "RKS-9.2.2", "RKS-8.2.2"),
    "attacker": ("RKS-9.5.1", "RKS-8.2.2"),
    "refight": ("RKS-8.7.4",),
    "eff": ("RKS-9.1.1", "RKS-9.4.1", "RKS-9.5.1", "RKS-9.7.1", "RKS-7.1.1"),
    "ceff": ("RKS-9.5.1", "RKS-9.2.2", "RKS-8.7.4", "RKS-8.2.2"),
    "stage": ("RKS-3.1.1", "RKS-3.3.1"),
    "ndraws": ("RKS-3.3.1", "RKS-3.4.1"),
    "dealing": ("RKS-3.3.1", "RKS-3.4.1"),
    "deck": ("RKS-3.4.3",),
    "dkind": ("RKS-7.5.1", "RKS-9.2.1"),
    "dwho": ("RKS-7.5.1", "RKS-9.2.1"),
    "arrivals": ("RKS-6.1.2", "RKS-6.2.2"),
    "refills": ("RKS-10.1.2",),
    "pending": ("RKS-7.3.1", "RKS-7.1.2"),
    "pto": ("RKS-7.3.1", "RKS-7.1.2"),
    "escort": ("RKS-8.12.4", "RKS-7.1.2"),
    "payments": ("RKS-7.3.1", "RKS-7.1.2"),
    "cunit": ("RKS-8.2.2",),
    "cdef": ("RKS-8.2.3",),
    "csup": ("RKS-8.12.3",),
    "carea": ("RKS-8.2.2",),
    "dunit": ("RKS-8.9.1",),
    "pick": ("RKS-8.9.1", "RKS-9.6.1"),
    "pwho": ("RKS-8.9.1",),
    "passes": ("RKS-5.1.2",),
    "acted": ("RKS-7.1.2",),
    "recruited": ("RKS-7.5.1",),
    "dcombat": ("RKS-8.9.1",),
    "dair": ("RKS-9.3.1",),
}
"""The clauses that say how each kind of variable changes (named when it differs)."""


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
                lambda: m.chuikov_rule(o, s, n),
                LOOP_PART,
            )
        add(
            "RKS-3.1.1",
            "the placing of the Rifles, once over, is not taken up again",
            lambda: o.implies(o.not_(s.b("placing")), o.not_(n.b("placing"))),
        )
        for u in m.units:
            out.extend(m.unit_rules(o, s, n, u))
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
            out.extend(m.card_rules(o, s, n, c))
        for side in SIDES:
            out.extend(m.hand_rules(o, s, n, side))
        out.extend(m.event_rules(o, s, n))
        out.extend(m.pending_rules(o, s, n))
        out.extend(m.setup_rules(o, s, n))
        out.extend(m.draw_rules(o, s, n))  # DRAWS
        out.extend(m.sequence_rules(o, s, n))  # STAGES
        out.extend(m.combat_rules(o, s, n))  # COMBATANTS
        out.extend(m.pick_rules(o, s, n))  # PICKS
        out.extend(m.record_rules_of_stages(o, s, n))  # SEQUENCE
        out.extend(m.aftermath.rules(o, s, n))  # AFTERMATH
        from specs.rattenkrieg.formal import symbolic_combat  # it imports this module

        out.extend(symbolic_combat.record_rules(m, o, s, n))  # COMBAT
        return out


class Model(AbstractModel):
    """The abstraction's variables, its one schema and what it knows of each unit (its side,
    its original steps) and of the map (the Rears, the arrow Areas)."""

    next_prefix = NEXT

    def __init__(self, board: Board, variant: Variant) -> None:
        super().__init__()
        self.name = "rattenkrieg-abstract"
        self.variant = variant
        self.board = board
        self.areas: dict[str, int] = {a.id: i + 1 for i, a in enumerate(board.data.areas)}
        self.units: tuple[str, ...] = tuple(u.id for u in board.data.units)
        self.side = {u: board.side_of[u] for u in self.units}
        self.enemy_rear = {u: self.areas[board.enemy_rear(self.side[u])] for u in self.units}
        self.most_steps = {u: board.specs[u].steps for u in self.units}
        self.arrives = {u: board.specs[u].arrives for u in self.units}
        self.rifles = frozenset(board.rifles)
        self.chuikov_from_hand = variant.is_("event_source", "hand")  # AMB-RKS-20 (i)
        self.cards: tuple[str, ...] = tuple(sort_cards(DECK))
        self.arrows: tuple[str, ...] = board.arrows
        self.stalingrad: tuple[str, ...] = board.stalingrad
        self.uncontrolled = variant.is_("contested_control", "uncontrolled")  # AMB-RKS-11 (b)
        variables: list[Var] = [
            IntVar("turn", 0, None),
            BoolVar("placing"),
            IntVar("phase", 0, len(PHASES) - 1),
            IntVar("won", 0, max(WINNERS.values())),
            BoolVar("worded"),
            *(BoolVar(held(a)) for a in self.arrows),
            *(IntVar(ctl(a), 0, max(CONTROLLERS.values())) for a in self.stalingrad),
        ]
        for side in SIDES:
            variables += [IntVar(hand(side), 0, None), IntVar(table(side), 0, None)]
        for u in self.units:
            variables += [IntVar(at(u), 0, len(self.areas)), IntVar(steps(u), 0, None)]
            variables += [IntVar(elim(u), 0, None), IntVar(eturn(u), 0, None)]
            variables += [BoolVar(flip(u)), BoolVar(iso(u)), BoolVar(acts(u))]
        variables += [IntVar(card(c), 0, None) for c in self.cards]
        variables += [IntVar(ALIEN, 0, None), IntVar(STRAY, 0, None)]
        variables += [BoolVar(face(k, c)) for c in self.cards for k in FACE_KINDS]
        self.faces = variant.reading("discard_faces")
        self.returned = variant.is_("played_step", "returned")
        self.removing = variant.is_("used_steps", "removed")
        self.unit_number = {u: i + 1 for i, u in enumerate(self.units)}
        self.panzers = tuple(
            self.unit_number[u] for u in self.units if board.specs[u].type == "panzer"
        )
        self.stacking_once = variant.is_("effect_stacking", "once")
        self.first_round = variant.is_("effect_duration", "first_round")
        self.reattack_events = variant.is_("reattack_events", "effects")
        variables += [
            IntVar("player", CONTROLLERS[GE], CONTROLLERS[SU]),
            IntVar("acting", 0, len(self.units)),
            IntVar("fight", 0, BOMBARDED),
            IntVar("attacker", 0, max(CONTROLLERS.values())),
            BoolVar("refight"),
            *(IntVar(eff(k), 0, None) for k in EVENT_KINDS),
            *(IntVar(ceff(k), 0, None) for k in EVENT_KINDS),
            BoolVar("pending"),
            IntVar("pto", 0, len(self.areas)),
            IntVar("escort", 0, len(self.units)),
            IntVar("payments", 0, None),
            IntVar("stage", 0, len(STAGES) - 1),
            IntVar("ndraws", 0, None),
            BoolVar("dealing"),
            # DRAWS: the deck's size, the head draw, and what the queue is
            IntVar("deck", 0, None),
            IntVar("dkind", 0, len(DRAW_KINDS)),
            IntVar("dwho", 0, len(self.units)),
            BoolVar("arrivals"),
            BoolVar("refills"),
            # COMBATANTS: the combat record's attacker, defender, T-34 support and Area
            IntVar("cunit", 0, len(self.units)),
            IntVar("cdef", 0, len(self.units)),
            IntVar("csup", 0, len(self.units)),
            IntVar("carea", 0, len(self.areas)),
            # PICKS: the damaged unit, the random pick's kind and its unit
            IntVar("dunit", 0, len(self.units)),
            IntVar("pick", 0, STRAY_PICK),
            IntVar("pwho", 0, len(self.units)),
            # SEQUENCE: the passes, the acting unit's flags, the damage's cause
            BoolVar("passes"),
            BoolVar("acted"),
            BoolVar("recruited"),
            BoolVar("dcombat"),
            # AFTERMATH: whether the damage is Air Force Support's
            BoolVar("dair"),
        ]
        self.random_step = variant.is_("lost_step", "random")  # AMB-RKS-7 (iii)
        self.turn_events = variant.is_("event_timing", "player_turn_too")  # AMB-RKS-20
        self.arrivals = {
            t: tuple(sequence.arrival_queue(board, t)) for t in range(2, LAST_TURN + 1)
        }
        self.mk = board.mamayev_kurgan
        self.occupying = variant.reading("occupying")
        self.partial_refill = variant.is_("refill_amount", "partial")
        self.own_rear = {side: self.areas[board.rear[side]] for side in SIDES}
        self.setup_area = {u: self.area_number(board.specs[u].setup) for u in self.units}
        self.normal = tuple(self.areas[a] for a in board.normal_areas)
        if len(self.rifles) > len(self.normal):  # else set-up may stop with Rifles unplaced
            raise ValueError("more Rifles than Normal Areas")
        placed = sequence.initial_state(board, variant)
        for r, a in zip(board.rifles, board.normal_areas, strict=False):
            placed = board.update(placed, r, area=a)
        self.deal: tuple[DrawFor, ...] = tuple(sequence.deal_queue(board, placed))
        """The deal of set-up once every Rifle is placed (`sequence.deal_queue`)."""
        self.tanks = tuple(u for u in self.units if board.is_tank(u))
        self.paid_each = variant.is_("t34_escort", "flipped_paid_each")
        self.second = CONTROLLERS[sequence.recruiting_order(placed)[1]]
        """The player last to refill in the Recruiting Phase (RKS-10.1.1)."""
        self.recruit_extra = variant.is_("recruit_turn", "extra")  # AMB-RKS-18 (b)
        self.late = variant.is_("arrival_state", "flipped")  # AMB-RKS-25
        self.revives = frozenset(u for u in self.units if board.specs[u].revives_in is not None)
        self.adjacent = {
            self.areas[a]: tuple(self.areas[x] for x in board.adjacent[a] if x in self.stalingrad)
            for a in self.areas
        }
        from specs.rattenkrieg.formal.symbolic_aftermath import Aftermath  # it imports this module

        self.aftermath = Aftermath(self)  # AFTERMATH: reads COMBAT's loser and staying units
        from specs.rattenkrieg.formal import symbolic_combat  # it imports this module

        variables += symbolic_combat.variables(self)  # COMBAT: the round, table, aftermath
        self.variables = tuple(variables)
        self.schemas = (StepSchema(self),)

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

    def chuikov_rule(self, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> B:
        """RKS-9.8.2 (event_source=hand): in the Player Turn loop the face-up units on the map
        grow in number only by General Chuikov, by at most one for each card leaving the Soviet
        hand (with its cards on the table)."""
        risen = o.sub(self.face_ups(o, n), self.face_ups(o, s))
        paid = o.sub(self.held_cards(o, s, SU), self.held_cards(o, n, SU))
        return o.implies(self.in_the_loop(o, s, n), o.le(risen, paid))

    @staticmethod
    def first_turn(o: Ops[B, I], f: Frame[B, I]) -> B:
        """Turn 1 before its Recruiting Phase: set-up or the Player Turns."""
        phase = f.i("phase")
        return o.all([o.eq(f.i("turn"), 1), o.any([o.eq(phase, SETUP), o.eq(phase, PLAYER_TURNS)])])

    @staticmethod
    def held_cards(o: Ops[B, I], f: Frame[B, I], side: str) -> I:
        """A side's hand with its hand cards on the combat table."""
        return o.add([f.i(hand(side)), f.i(table(side))])

    def hand_rules(
        self, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I], side: str
    ) -> list[Conjunct[B]]:
        """RKS-3.4.1, RKS-10.1.2, RKS-10.2.1: a hand (with its cards on the table) grows only in
        set-up up to what is dealt, or in the Recruiting Phase up to 4."""

        def grows() -> B:
            before, after = self.held_cards(o, s, side), self.held_cards(o, n, side)
            phase = s.i("phase")
            return o.implies(
                o.lt(before, after),
                o.any(
                    [
                        o.all([o.eq(phase, SETUP), o.le(after, START_HAND[side])]),
                        o.all([o.eq(phase, RECRUITING), o.le(after, MAX_HAND)]),
                    ]
                ),
            )

        text = (
            f"the {side} hand, with its cards on the combat table, grows only in set-up up to "
            f"{START_HAND[side]} (RKS-3.4.1) or in the Recruiting Phase up to {MAX_HAND} "
            "(RKS-10.2.1)"
        )
        return [Conjunct("RKS-10.1.2", text, grows, about=frozenset({side}))]

    def unit_rules(self, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I], u: str) -> list[Conjunct[B]]:
        """Where unit `u` may come (RKS-3.5.1), how many step cards it may gain (RKS-7.5.3), and
        that it acts only face up (RKS-7.4.2)."""
        here, there = s.i(at(u)), n.i(at(u))
        rear, most = self.enemy_rear[u], self.most_steps[u]
        about = frozenset({u})
        return [
            Conjunct(
                "RKS-3.5.1",
                f"{u} never comes to the enemy Rear",
                lambda: o.implies(o.not_(o.eq(there, here)), o.not_(o.eq(there, rear))),
                about=about,
            ),
            Conjunct(
                "RKS-7.5.3",
                f"{u} gains step cards only up to its original {most} (RKS-3.3.1, RKS-6.1.2, "
                "RKS-8.12.1)",
                lambda: o.implies(o.lt(s.i(steps(u)), n.i(steps(u))), o.le(n.i(steps(u)), most)),
                about=about,
            ),
            Conjunct(
                "RKS-7.4.2",
                f"{u} acts (is designated, recruits or moves along) only face up before the "
                "step (RKS-7.5.2, RKS-8.12.4, RKS-10.3.1, RKS-9.8.2)",
                lambda: o.implies(n.b(acts(u)), o.not_(s.b(flip(u)))),
                about=about,
            ),
            Conjunct(
                "RKS-8.10.6",
                f"every step ends with {u}, if isolated on the map, in a Stalingrad Area its "
                "side does not control",
                lambda: self.isolation_settled(o, n, u),
                about=about,
            ),
            *self.record_rules(o, s, n, u),
        ]

    def record_rules(
        self, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I], u: str
    ) -> list[Conjunct[B]]:
        """How unit `u` leaves the map and comes onto it, and its elimination record (RKS-8.9.2,
        RKS-6.3.1, RKS-6.1.1, RKS-6.2.1, RKS-3.3.2, RKS-3.1.1)."""
        here, there = s.i(at(u)), n.i(at(u))
        gone, gone2 = s.i(elim(u)), n.i(elim(u))
        leaves = o.all([o.not_(o.eq(here, 0)), o.eq(there, 0)])
        comes = o.all([o.eq(here, 0), o.not_(o.eq(there, 0))])
        about = frozenset({u})
        rules: list[tuple[str, str, Callable[[], B]]] = [
            (
                "RKS-8.9.2",
                f"{u} leaves the map only eliminated, recorded once in the Turn the step ends in",
                lambda: o.implies(
                    leaves,
                    o.all([o.eq(gone, 0), o.eq(gone2, 1), o.eq(n.i(eturn(u)), n.i("turn"))]),
                ),
            ),
            (
                "RKS-8.9.2",
                f"{u}'s elimination record changes only as it leaves the map, or as it revives "
                "(RKS-6.3.1), which clears it",
                lambda: o.implies(
                    o.not_(o.eq(gone2, gone)), o.any([leaves, o.all([comes, o.eq(gone2, 0)])])
                ),
            ),
            (
                "RKS-8.9.2",
                f"{u}'s elimination record keeps its Turn",
                lambda: o.implies(
                    o.all([o.eq(gone2, gone), o.not_(o.eq(gone, 0))]),
                    o.eq(n.i(eturn(u)), s.i(eturn(u))),
                ),
            ),
            (
                "RKS-6.3.1",
                f"{u} comes back onto the map only with its elimination record cleared",
                lambda: o.implies(comes, o.eq(gone2, 0)),
            ),
            (
                "RKS-3.3.2",
                f"{u} leaving the map sheds its steps and markers; off it, it gains none",
                lambda: o.implies(
                    o.eq(there, 0),
                    o.all(
                        [
                            o.implies(
                                o.not_(o.eq(here, 0)),
                                o.all([o.eq(n.i(steps(u)), 0), o.not_(self.marked(o, n, u))]),
                            ),
                            o.implies(
                                o.eq(here, 0),
                                o.all(
                                    [
                                        o.le(n.i(steps(u)), s.i(steps(u))),
                                        o.implies(n.b(flip(u)), s.b(flip(u))),
                                        o.implies(n.b(iso(u)), s.b(iso(u))),
                                    ]
                                ),
                            ),
                        ]
                    ),
                ),
            ),
        ]
        arrives = self.arrives[u]
        if arrives is not None:
            clause = "RKS-6.1.1" if self.side[u] == GE else "RKS-6.2.1"
            rules += [
                (
                    clause,
                    f"{u} comes onto the map only from Turn {arrives} on",
                    lambda: o.implies(comes, o.le(arrives, n.i("turn"))),
                ),
                (
                    clause,
                    f"{u} is on the map as Turn {arrives} comes",
                    lambda: o.implies(
                        o.all([o.lt(s.i("turn"), arrives), o.le(arrives, n.i("turn"))]),
                        o.not_(o.eq(there, 0)),
                    ),
                ),
            ]
        if u in self.rifles:
            rules.append(
                (
                    "RKS-3.1.1",
                    f"the placing of the Rifles ends only with {u} on the map",
                    lambda: o.implies(
                        o.all([s.b("placing"), o.not_(n.b("placing"))]), o.not_(o.eq(there, 0))
                    ),
                )
            )
        return [Conjunct(clause, text, make, about=about) for clause, text, make in rules]

    def card_rules(self, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I], c: str) -> list[Conjunct[B]]:
        """How many places hold card `c` (RKS-3.4.3), and how it turns face up or down, is
        exposed or leaves the game (RKS-3.3.3, RKS-3.4.3, RKS-8.7.1; the readings of
        discard_faces and AMB-RKS-7)."""
        up, out, gone, exp, step = (s.b(face(k, c)) for k in FACE_KINDS)
        up2, out2, gone2, exp2, step2 = (n.b(face(k, c)) for k in FACE_KINDS)
        about = frozenset({c})
        rules: list[tuple[str, str, Callable[[], B]]] = [
            (
                "RKS-3.4.3",
                f"{c} lies in as many places after the step as before (RKS-3.4.2)",
                lambda: o.eq(n.i(card(c)), s.i(card(c))),
            ),
            (
                "RKS-8.7.1",
                f"{c} turns face up only as it lies out of play (RKS-3.4.3)",
                lambda: o.implies(o.all([o.not_(up), up2]), out2),
            ),
            (
                "RKS-3.4.3",
                f"{c} leaving the discards (the reshuffle) turns face down",
                lambda: o.implies(o.all([out, o.not_(out2)]), o.not_(up2)),
            ),
            (
                "RKS-3.3.3",
                f"{c} leaving the units' steps is no longer exposed",
                lambda: o.implies(o.all([step, o.not_(step2)]), o.not_(exp2)),
            ),
            (
                "RKS-3.3.3",
                f"{c} is exposed only as a unit's step"
                + (" (played_step=returned, AMB-RKS-7 i)" if self.returned else ": never"),
                lambda: o.implies(o.all([o.not_(exp), exp2]), o.all([step2, o.lit(self.returned)])),
            ),
            (
                "RKS-3.4.3",
                f"{c} leaves the game only "
                + ("by used_steps=removed (AMB-RKS-7 iv)" if self.removing else "never"),
                lambda: o.implies(o.all([o.not_(gone), gone2]), o.lit(self.removing)),
            ),
        ]
        if self.faces == "face_up":
            rules += [
                (
                    "RKS-8.7.1",
                    f"{c} put out of play lies face up (discard_faces=face_up)",
                    lambda: o.implies(o.all([o.not_(out), out2]), up2),
                ),
                (
                    "RKS-8.7.1",
                    f"{c} stays face up while out of play (discard_faces=face_up)",
                    lambda: o.implies(o.all([out, out2, up]), up2),
                ),
            ]
        if self.faces == "face_down":
            rules.append(
                (
                    "RKS-8.7.1",
                    f"{c} never turns face up (discard_faces=face_down)",
                    lambda: o.implies(o.not_(up), o.not_(up2)),
                )
            )
        return [Conjunct(clause, text, make, about=about) for clause, text, make in rules]

    def event_rules(self, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> list[Conjunct[B]]:
        """What a step does to the events in force (RKS-9.1.1 to RKS-9.8.1): an event card
        played by the acting unit puts one card of its kind in force (`eventcards.play_event`),
        a designation or the end of a Player Turn ends them (`activation.designate`,
        `sequence.end_player_turn`), a combat takes the "next combat" ones in
        (`combat.start_combat`), a tie refought under effect_duration=first_round ends them
        (`combat.judge`)."""
        opens = o.all([o.eq(s.i("fight"), 0), o.not_(o.eq(n.i("fight"), 0))])
        lasts = o.all([o.not_(o.eq(s.i("fight"), 0)), o.not_(o.eq(n.i("fight"), 0))])
        fight = FIGHTS["combat"]
        none_after = o.all(o.eq(n.i(eff(k)), 0) for k in EVENT_KINDS)
        most = 1 if self.stacking_once else 2
        rules: list[tuple[str, str, Callable[[], B]]] = [
            (
                "RKS-7.1.1",
                "the player and the acting unit change only as the events in force end and no "
                "combat is open (a designation, the end of a Player Turn: RKS-9.4.1)",
                lambda: o.implies(
                    o.any(
                        [
                            o.not_(o.eq(n.i("player"), s.i("player"))),
                            o.not_(o.eq(n.i("acting"), s.i("acting"))),
                        ]
                    ),
                    o.all([none_after, o.eq(n.i("fight"), 0)]),
                ),
            ),
            (
                "RKS-9.1.1",
                "no effect other than the four lasting events ever comes into force, in or out "
                "of a combat",
                lambda: o.all(
                    [
                        o.le(n.i(eff(OTHER_EVENT)), s.i(eff(OTHER_EVENT))),
                        o.le(n.i(ceff(OTHER_EVENT)), s.i(ceff(OTHER_EVENT))),
                    ]
                ),
            ),
            (
                "RKS-9.5.1",
                "a combat is opened by the player (the acting unit attacks, RKS-8.2.2); it "
                "takes in the 'next combat' events in force, the Assault Gun staying with the "
                "unit (RKS-9.7.1, RKS-9.8.1), and starts with its first round",
                lambda: o.implies(
                    o.all([opens, o.eq(n.i("fight"), fight)]),
                    o.all(
                        [
                            o.eq(n.i("attacker"), s.i("player")),
                            o.not_(n.b("refight")),
                            o.eq(n.i(ceff("assault_gun")), 0),
                            *(
                                o.all([o.eq(n.i(ceff(k)), s.i(eff(k))), o.eq(n.i(eff(k)), 0)])
                                for k in EVENT_SIDE
                                if k != "assault_gun"
                            ),
                        ]
                    ),
                ),
            ),
            (
                "RKS-9.2.2",
                "the remaining units of a bombarded unit (AMB-RKS-16) decide with no events in "
                "their record",
                lambda: o.implies(
                    o.all([opens, o.eq(n.i("fight"), BOMBARDED)]),
                    o.all(o.eq(n.i(ceff(k)), 0) for k in EVENT_KINDS),
                ),
            ),
            (
                "RKS-8.2.2",
                "while a combat record lasts its cause and attacker stay, and no event joins it "
                "(a new combat of the same attacker takes in none: they passed into the first; "
                "under reattack_events=effects it takes in those played before it)",
                lambda: o.implies(
                    lasts,
                    o.all(
                        [
                            o.eq(n.i("fight"), s.i("fight")),
                            o.eq(n.i("attacker"), s.i("attacker")),
                            # RKS-8.11.2 (option reattack_events=effects): widened by s.eff
                            *(
                                o.le(
                                    n.i(ceff(k)),
                                    o.add([s.i(ceff(k)), s.i(eff(k))])
                                    if self.reattack_events
                                    else s.i(ceff(k)),
                                )
                                for k in EVENT_KINDS
                            ),
                        ]
                    ),
                ),
            ),
            (
                "RKS-9.5.1",
                "no combat record, no events in it (the projection's)",
                lambda: o.implies(
                    o.eq(n.i("fight"), 0), o.all(o.eq(n.i(ceff(k)), 0) for k in EVENT_KINDS)
                ),
            ),
        ]
        if self.first_round:
            rules.append(
                (
                    "RKS-8.7.4",
                    "a tie refought ends the combat's events (effect_duration=first_round)",
                    lambda: o.implies(
                        o.all([o.not_(s.b("refight")), n.b("refight")]),
                        o.all(o.eq(n.i(ceff(k)), 0) for k in EVENT_KINDS),
                    ),
                )
            )
        for k, side in EVENT_SIDE.items():
            grows = o.lt(s.i(eff(k)), n.i(eff(k)))
            rules += [
                (
                    "RKS-9.1.1",
                    f"{k} comes into force only as the acting unit's event, by its player "
                    f"({side}, RKS-9.1.2), outside a combat, and stays with it",
                    functools.partial(
                        lambda k, side, grows: o.implies(
                            grows,
                            o.all(
                                [
                                    o.eq(s.i("player"), CONTROLLERS[side]),
                                    o.eq(n.i("player"), CONTROLLERS[side]),
                                    # RKS-8.11.2 (option reattack_events=effects): also while
                                    # a combat record lasts, before the attack again
                                    o.eq(n.i("fight"), s.i("fight"))
                                    if self.reattack_events
                                    else o.all([o.eq(s.i("fight"), 0), o.eq(n.i("fight"), 0)]),
                                    o.not_(o.eq(n.i("acting"), 0)),
                                ]
                            ),
                        ),
                        k,
                        side,
                        grows,
                    ),
                ),
                (
                    "RKS-9.7.1",
                    f"{k} comes into force one card at a time"
                    + (
                        ", and not again while in force (effect_stacking=once)"
                        if self.stacking_once
                        else ", at most the two cards there are of it (a restatement: the "
                        "abstraction does not follow which card is where)"
                    ),
                    functools.partial(
                        lambda k, grows: o.implies(
                            grows,
                            o.all(
                                [
                                    o.eq(n.i(eff(k)), o.add([s.i(eff(k)), 1])),
                                    o.le(n.i(eff(k)), most),
                                ]
                            ),
                        ),
                        k,
                        grows,
                    ),
                ),
            ]
        rules.append(
            (
                "RKS-9.4.1",
                "the Assault Gun comes into force only for a unit that is no Panzer Division "
                "(refused, or played for nothing by assault_gun_on_panzer=no_effect)",
                lambda: o.implies(
                    o.lt(s.i(eff("assault_gun")), n.i(eff("assault_gun"))),
                    o.not_(o.among(n.i("acting"), [o.num(p) for p in self.panzers])),
                ),
            )
        )
        return [Conjunct(clause, text, make) for clause, text, make in rules]

    def acting_is(self, o: Ops[B, I], f: Frame[B, I], what: Callable[[str], B]) -> B:
        """A unit acts, and `what` holds of it."""
        return o.any(o.all([o.eq(f.i("acting"), k), what(u)]) for u, k in self.unit_number.items())

    def player_hand(self, o: Ops[B, I], f: Frame[B, I]) -> I:
        """How many cards the player holds."""
        return o.ite(o.eq(f.i("player"), CONTROLLERS[GE]), f.i(hand(GE)), f.i(hand(SU)))

    def payments_due(self, o: Ops[B, I], f: Frame[B, I]) -> I:
        """`activation.payments_for`: one card, two when a T-34 moving along pays its own
        (t34_escort=flipped_paid_each, AMB-RKS-15 iv)."""
        if not self.paid_each:
            return o.num(1)
        return o.ite(o.eq(f.i("escort"), 0), 1, 2)

    def pending_fits(self, o: Ops[B, I], f: Frame[B, I]) -> B:
        """`properties.pending_fits` over the model: a move waiting for its card is the
        player's acting unit's, not isolated (RKS-8.10.3), into an adjacent Stalingrad Area
        its side does not control and no enemy unit is in (RKS-7.2.1, RKS-7.3.1); a T-34
        moving along is a face-up, not isolated Soviet T-34 of the mover's Area (RKS-8.12.4);
        one or two payments are due, and there are cards to make them (`move_problem`,
        `pay_problem`: the T-34's payment is a hand card)."""
        pto, escort, due = f.i("pto"), f.i("escort"), self.payments_due(o, f)
        hand_now = self.player_hand(o, f)

        def mover(u: str) -> B:
            side = self.side[u]
            return o.all(
                [
                    o.eq(f.i("player"), CONTROLLERS[side]),
                    o.not_(f.b(iso(u))),
                    *(
                        o.implies(o.eq(f.i(at(u)), i), o.among(pto, [o.num(x) for x in near]))
                        for i, near in self.adjacent.items()
                    ),
                    o.not_(o.eq(f.i(at(u)), 0)),
                    *(o.not_(o.eq(f.i(at(v)), pto)) for v in self.units if self.side[v] != side),
                    o.implies(
                        o.not_(o.eq(escort, 0)),
                        o.any(
                            o.all(
                                [
                                    o.eq(escort, self.unit_number[t]),
                                    o.lit(t != u and side == SU),
                                    o.eq(f.i(at(t)), f.i(at(u))),
                                    o.not_(f.b(flip(t))),
                                    o.not_(f.b(iso(t))),
                                ]
                            )
                            for t in self.tanks
                        ),
                    ),
                    o.le(f.i("payments"), o.add([hand_now, f.i(steps(u))])),
                ]
            )

        return o.implies(
            f.b("pending"),
            o.all(
                [
                    self.acting_is(o, f, mover),
                    *(
                        o.implies(
                            o.eq(pto, self.areas[a]), o.not_(o.eq(f.i(ctl(a)), f.i("player")))
                        )
                        for a in self.stalingrad
                    ),
                    o.le(1, f.i("payments")),
                    o.le(f.i("payments"), due),
                    o.implies(o.eq(due, 2), o.le(1, hand_now)),
                ]
            ),
        )

    def pending_rules(self, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> list[Conjunct[B]]:
        """What a step does to a move waiting for its card (RKS-7.3.1): the Move action makes
        one only as `activation.move_problem` allows it (stated of the position it leaves,
        which the Move changes in nothing else: a restatement of those checks), and while it
        waits the only step is a payment (`activation.pay`): one card, the player's or the
        acting unit's step, the second of two leaving a hand card for the T-34's."""
        kept = [
            *(o.eq(n.i(v), s.i(v)) for v in ("pto", "escort", "acting", "player")),
            *(o.eq(n.i(at(u)), s.i(at(u))) for u in self.units),
            *(o.iff(n.b(flip(u)), s.b(flip(u))) for u in self.units),
            *(o.iff(n.b(iso(u)), s.b(iso(u))) for u in self.units),
            *(o.eq(n.i(ctl(a)), s.i(ctl(a))) for a in self.stalingrad),
        ]
        return [
            Conjunct(
                "RKS-7.3.1",
                "a move waits for its card only as `activation.move_problem` allows it: into "
                "an adjacent Area the mover's side does not control with no enemy unit in it, "
                "with its T-34 (RKS-8.12.4) and the cards to pay (a restatement)",
                lambda: o.implies(
                    o.all([o.not_(s.b("pending")), n.b("pending")]),
                    o.all(
                        [
                            self.pending_fits(o, n),
                            o.eq(n.i("payments"), self.payments_due(o, n)),
                        ]
                    ),
                ),
            ),
            Conjunct(
                "RKS-7.1.2",
                "while a move waits for its card the only step is a payment of one card: the "
                "units, control, the player and the move stay, the payments due fall by one "
                "(the last completes the move) and, as the first of two, it leaves a hand card "
                "for the T-34's",
                lambda: o.implies(
                    o.all([s.b("pending"), n.b("pending")]),
                    o.all(
                        [
                            *kept,
                            o.eq(n.i("payments"), o.sub(s.i("payments"), 1)),
                            o.le(1, n.i("payments")),
                            o.le(1, self.player_hand(o, n)),
                        ]
                    ),
                ),
            ),
        ]

    # --- set-up (RKS-3.1.1 to RKS-3.4.2) ---------------------------------------------------------

    def area_number(self, area: str | None) -> int:
        """`area` by number (0: off the map)."""
        return 0 if area is None else self.areas[area]

    def waiting(self, target: DrawFor, left: int) -> int:
        """How many of the last `left` draws of the deal go to `target`."""
        return self.deal[len(self.deal) - left :].count(target)

    def dealt_to(self, o: Ops[B, I], f: Frame[B, I], target: DrawFor) -> B:
        """`target` holds what the deal gives it but for the draws still queued (`ndraws` of
        them, the deal's last ones)."""
        want = self.deal.count(target)
        held = f.i(steps(target.who)) if target.kind == "steps" else f.i(hand(target.who))
        return o.case(
            f.i("ndraws"),
            lambda left: o.eq(held, want - self.waiting(target, left)),
            range(len(self.deal) + 1),
        )

    def rifle_due(self, o: Ops[B, I], f: Frame[B, I]) -> B:
        """`sequence.rifle_to_place`: a Rifle is off the map (with no more Rifles than Normal
        Areas, a Normal Area is free)."""
        return o.any(o.eq(f.i(at(r)), 0) for r in self.rifles)

    def rifles_held(self, o: Ops[B, I], f: Frame[B, I], where: int) -> I:
        return o.count(o.eq(f.i(at(r)), where) for r in self.rifles)

    def rifles_in_order(self, o: Ops[B, I], f: Frame[B, I]) -> B:
        """RKS-3.1.1: the Rifles on the map hold the first Normal Areas, one each."""
        held = [self.rifles_held(o, f, a) for a in self.normal]
        out = [o.le(h, 1) for h in held]
        out += [o.le(held[i + 1], held[i]) for i in range(len(held) - 1)]
        out += [
            o.any([o.eq(f.i(at(r)), 0), o.among(f.i(at(r)), [o.num(a) for a in self.normal])])
            for r in self.rifles
        ]
        return o.all(out)

    def set_up(self, o: Ops[B, I], f: Frame[B, I]) -> B:
        """`properties.set_up` over the model: in set-up nothing is eliminated, discarded,
        removed, exposed or face up, the Soviets control every Area, the units stand where
        they start and the Rifles on the first Normal Areas; while placing, a Rifle is still to
        place and nothing is dealt; then the deal is queued in order and each unit and hand
        holds what it was dealt so far; and set-up has no other stage."""
        stage = f.i("stage")
        targets = dict.fromkeys(self.deal)
        return o.implies(
            o.eq(f.i("phase"), SETUP),
            o.all(
                [
                    o.any([o.eq(stage, PLACE), o.eq(stage, DRAW)]),
                    o.eq(f.i(STRAY), 0),
                    *(o.eq(f.i(elim(u)), 0) for u in self.units),
                    *(
                        o.not_(f.b(face(k, c)))
                        for c in self.cards
                        for k in ("up", "out", "gone", "exp")
                    ),
                    *(o.eq(f.i(ctl(a)), CONTROLLERS[SU]) for a in self.stalingrad),
                    *(
                        o.eq(f.i(at(u)), self.setup_area[u])
                        for u in self.units
                        if u not in self.rifles
                    ),
                    self.rifles_in_order(o, f),
                    o.implies(
                        o.eq(stage, PLACE),
                        o.all(
                            [
                                self.rifle_due(o, f),
                                *(o.eq(f.i(steps(u)), 0) for u in self.units),
                                *(o.eq(f.i(hand(side)), 0) for side in SIDES),
                            ]
                        ),
                    ),
                    o.implies(
                        o.not_(o.eq(stage, PLACE)),
                        o.all(
                            [
                                o.not_(self.rifle_due(o, f)),
                                f.b("dealing"),
                                *(self.dealt_to(o, f, d) for d in targets),
                            ]
                        ),
                    ),
                ]
            ),
        )

    def setup_rules(self, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> list[Conjunct[B]]:
        """What the steps of set-up do (`sequence.place`, `sequence.deal_card`): a placing puts
        one Rifle on the first free Normal Area and moves no card; the deal gives the head of
        its queue one card; neither eliminates, discards or turns a card, nor changes control;
        and set-up is entered only from itself."""
        setup, stage = o.eq(s.i("phase"), SETUP), s.i("stage")
        kept = [
            *(o.eq(n.i(elim(u)), s.i(elim(u))) for u in self.units),
            *(
                o.iff(n.b(face(k, c)), s.b(face(k, c)))
                for c in self.cards
                for k in ("up", "out", "gone", "exp")
            ),
            *(o.eq(n.i(ctl(a)), s.i(ctl(a))) for a in self.stalingrad),
        ]
        free = [o.eq(self.rifles_held(o, s, a), 0) for a in self.normal]

        def placed(r: str) -> B:
            """`r`, if it moves, comes from off the map to the first free Normal Area."""
            first = [
                o.implies(
                    o.eq(n.i(at(r)), a),
                    o.all([free[i], *(o.not_(x) for x in free[:i])]),
                )
                for i, a in enumerate(self.normal)
            ]
            return o.implies(
                o.not_(o.eq(n.i(at(r)), s.i(at(r)))),
                o.all(
                    [
                        o.eq(s.i(at(r)), 0),
                        o.among(n.i(at(r)), [o.num(a) for a in self.normal]),
                        *first,
                    ]
                ),
            )

        def placing() -> B:
            moved = o.count(o.not_(o.eq(n.i(at(r)), s.i(at(r)))) for r in self.rifles)
            return o.implies(
                o.all([setup, o.eq(stage, PLACE)]),
                o.all(
                    [
                        *kept,
                        o.eq(n.i("phase"), SETUP),
                        *(o.eq(n.i(at(u)), s.i(at(u))) for u in self.units if u not in self.rifles),
                        *(o.eq(n.i(steps(u)), s.i(steps(u))) for u in self.units),
                        *(o.eq(n.i(hand(side)), s.i(hand(side))) for side in SIDES),
                        o.le(moved, 1),
                        *(placed(r) for r in self.rifles),
                        o.iff(o.eq(n.i("stage"), PLACE), self.rifle_due(o, n)),
                        o.implies(
                            o.not_(o.eq(n.i("stage"), PLACE)),
                            o.all(
                                [
                                    o.eq(n.i("stage"), DRAW),
                                    n.b("dealing"),
                                    o.eq(n.i("ndraws"), len(self.deal)),
                                ]
                            ),
                        ),
                    ]
                ),
            )

        def gains(held: str, target: DrawFor) -> B:
            """The variable `held` (`target`'s steps or hand) gains a card if it heads the
            queue."""
            heads = [
                o.num(left)
                for left in range(1, len(self.deal) + 1)
                if self.deal[len(self.deal) - left] == target
            ]
            return o.eq(n.i(held), o.add([s.i(held), o.ite(o.among(s.i("ndraws"), heads), 1, 0)]))

        def dealing() -> B:
            return o.implies(
                o.all([setup, o.eq(stage, DRAW)]),
                o.all(
                    [
                        *kept,
                        *(o.eq(n.i(at(u)), s.i(at(u))) for u in self.units),
                        *(gains(steps(u), DrawFor("steps", u)) for u in self.units),
                        *(gains(hand(side), DrawFor("hand", side)) for side in SIDES),
                        o.implies(
                            o.eq(n.i("phase"), SETUP),
                            o.all(
                                [
                                    o.eq(n.i("stage"), DRAW),
                                    n.b("dealing"),
                                    o.eq(n.i("ndraws"), o.sub(s.i("ndraws"), 1)),
                                ]
                            ),
                        ),
                    ]
                ),
            )

        return [
            Conjunct(
                "RKS-5.1.1",
                "set-up is entered only from set-up",
                lambda: o.implies(o.eq(n.i("phase"), SETUP), setup),
            ),
            Conjunct(
                "RKS-3.1.1",
                "a step of the placing puts at most one Rifle, from off the map, on the first "
                "Normal Area without one, and moves nothing else; the placing goes on while a "
                "Rifle is left, then the whole deal is queued (RKS-3.2.1, RKS-3.6.1)",
                placing,
            ),
            Conjunct(
                "RKS-3.3.1",
                "a step of the deal gives the head of its queue (a unit's steps, then the hands: "
                "RKS-3.4.1) one card and moves nothing else; set-up goes on with the rest of the "
                "queue",
                dealing,
            ),
        ]

    # --- the queued draws (RKS-3.4.3, RKS-6.1.2, RKS-6.2.2, RKS-7.5.1, RKS-9.2.2, RKS-10.1.2) -----

    def queue_dealt(self, o: Ops[B, I], f: Frame[B, I], queue: tuple[DrawFor, ...]) -> B:
        """Each target of `queue` holds what it gives but for the draws still queued (`ndraws`
        of them, its last ones)."""

        def held(left: int) -> B:
            rest = queue[len(queue) - left :]
            return o.all(
                o.eq(f.i(steps(d.who)), queue.count(d) - rest.count(d))
                if d.kind == "steps"
                else o.eq(f.i(hand(d.who)), queue.count(d) - rest.count(d))
                for d in dict.fromkeys(queue)
            )

        return o.case(f.i("ndraws"), held, range(len(queue) + 1))

    def occupies(self, o: Ops[B, I], f: Frame[B, I], side: str) -> B:
        """`control.occupies`: `side` occupies Mamayev Kurgan by the reading of occupying
        (AMB-RKS-17)."""
        if self.occupying == "controls":
            return o.eq(f.i(ctl(self.mk)), CONTROLLERS[side])
        if self.occupying == "present":
            return self.present(o, f, self.mk, side)
        where = self.areas[self.mk]
        here = {
            x: o.any(o.eq(f.i(at(u)), where) for u in self.units if self.side[u] == x)
            for x in SIDES
        }
        return o.all([here[side], *(o.not_(here[x]) for x in SIDES if x != side)])

    def refilled(self, o: Ops[B, I], f: Frame[B, I]) -> B:
        """`properties.draws_fit` in the Recruiting Phase: the draws refill the player's hand up
        to its target (3, or 4 for the occupier of Mamayev Kurgan: RKS-10.2.1), or below it
        under refill_amount=partial."""
        out = []
        for side in SIDES:
            target = o.ite(self.occupies(o, f, side), sequence.REFILL_KURGAN, sequence.REFILL)
            filled = o.add([f.i(hand(side)), f.i("ndraws")])
            fits = o.le(filled, target) if self.partial_refill else o.eq(filled, target)
            out.append(o.implies(o.eq(f.i("player"), CONTROLLERS[side]), fits))
        return o.all([f.b("refills"), *out])

    def struck(self, o: Ops[B, I], f: Frame[B, I], t: str, air: B) -> B:
        """`t` fits as a bombardment's target (Air Force Support's if `air`): an enemy unit on
        the map in the acting unit's Area or next to it, not in the player's enemy Rear, Air
        Force Support German, the T-34 never bombarded by the Germans (RKS-9.2.1, RKS-9.2.4,
        RKS-9.2.5, RKS-9.3.1)."""
        side = self.side[t]
        enemy = SU if side == GE else GE
        here: I = o.num(0)  # the acting unit's Area, 0 with none acting or off the map
        for u, k in self.unit_number.items():
            here = o.ite(o.eq(f.i("acting"), k), f.i(at(u)), here)
        near = o.any(
            o.all(
                [
                    o.eq(here, i),
                    o.among(f.i(at(t)), [o.num(i), *(o.num(x) for x in self.adjacent[i])]),
                ]
            )
            for i in self.adjacent
        )
        return o.all(
            [
                o.eq(f.i("player"), CONTROLLERS[enemy]),
                o.not_(o.eq(f.i(at(t)), 0)),
                o.not_(o.eq(f.i(at(t)), self.own_rear[side])),
                o.not_(o.eq(here, 0)),
                near,
                o.implies(air, o.lit(enemy == GE)),
                o.implies(o.not_(air), o.lit(not (enemy == GE and t in self.tanks))),
            ]
        )

    def bombarded_fits(self, o: Ops[B, I], f: Frame[B, I]) -> B:
        """Damage not a combat's is a bombardment's or Air Force Support's (`dair`), of no
        T-34 (eliminated: RKS-8.12.1) and of a unit that fits as its target (`struck`)."""
        bombarded = o.all([o.not_(o.eq(f.i("dunit"), 0)), o.not_(f.b("dcombat"))])
        return o.all(
            [
                o.implies(f.b("dair"), bombarded),
                *(
                    o.implies(
                        o.all([bombarded, o.eq(f.i("dunit"), k)]),
                        o.all([o.lit(u not in self.tanks), self.struck(o, f, u, f.b("dair"))]),
                    )
                    for u, k in self.unit_number.items()
                ),
            ]
        )

    def turn_draw_fits(self, o: Ops[B, I], f: Frame[B, I]) -> B:
        """`properties.draws_fit` in the Player Turns: one draw, a recruit's step (a flipped
        unit of the player in his Rear, below its steps: RKS-7.5.1) or a bombardment's or Air
        Force Support's card against an enemy unit on the map in the acting unit's Area or next
        to it, not in the player's enemy Rear, Air Force Support German, the T-34 never
        bombarded by the Germans (RKS-9.2.1, RKS-9.2.4, RKS-9.2.5, RKS-9.3.1)."""
        kind, who = f.i("dkind"), f.i("dwho")
        kinds = {k: DRAW_KINDS.index(k) + 1 for k in DRAW_KINDS}

        def recruit(u: str) -> B:
            side = self.side[u]
            if self.most_steps[u] == 0:
                return o.lit(False)
            return o.all(
                [
                    o.eq(f.i("player"), CONTROLLERS[side]),
                    o.eq(f.i(at(u)), self.own_rear[side]),
                    f.b(flip(u)),
                    o.lt(f.i(steps(u)), self.most_steps[u]),
                ]
            )

        def target(u: str) -> B:
            return self.struck(o, f, u, o.eq(kind, kinds["air_support"]))

        def aimed(make: Callable[[str], B]) -> B:
            return o.any(o.all([o.eq(who, k), make(u)]) for u, k in self.unit_number.items())

        return o.all(
            [
                o.eq(f.i("ndraws"), 1),
                o.implies(o.eq(kind, kinds["steps"]), aimed(recruit)),
                o.implies(
                    o.any([o.eq(kind, kinds["bombardment"]), o.eq(kind, kinds["air_support"])]),
                    aimed(target),
                ),
                o.any([o.eq(kind, kinds[k]) for k in ("steps", "bombardment", "air_support")]),
            ]
        )

    def arrivals_dealt(self, o: Ops[B, I], f: Frame[B, I]) -> B:
        """`properties.draws_fit` in a Reinforcement Phase: the draws are the last ones of the
        Turn's arrival queue, and each arriving unit holds its steps but for those
        (RKS-6.1.2, RKS-6.2.2)."""
        return o.all(
            [
                f.b("arrivals"),
                *(
                    o.implies(o.eq(f.i("turn"), t), self.queue_dealt(o, f, q))
                    for t, q in self.arrivals.items()
                ),
                o.implies(o.lt(f.i("turn"), 2), o.lit(False)),
                o.implies(o.lt(LAST_TURN, f.i("turn")), o.lit(False)),
            ]
        )

    def draws_fit(self, o: Ops[B, I], f: Frame[B, I]) -> B:
        """`properties.draws_fit` over the model: in the draw stage the deck has a card, and
        the draws are the phase's (`arrivals_dealt`, `refilled`, `turn_draw_fits`)."""
        phase = f.i("phase")
        return o.implies(
            o.eq(f.i("stage"), DRAW),
            o.all(
                [
                    o.le(1, f.i("deck")),
                    o.implies(o.eq(phase, REINFORCEMENT), self.arrivals_dealt(o, f)),
                    o.implies(o.eq(phase, RECRUITING), self.refilled(o, f)),
                    o.implies(o.eq(phase, PLAYER_TURNS), self.turn_draw_fits(o, f)),
                ]
            ),
        )

    def draw_rules(self, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> list[Conjunct[B]]:
        """What the steps do to the queued draws: a step ends in the draw stage only with a card
        in the deck; a Reinforcement Phase opens with its Turn's arrival queue, the arrivals
        holding no steps, and each of its draws deals the head one card; the Recruiting Phase's
        refill is queued as `sequence.discard_hand` queues it (a restatement) and each draw
        gives the hand one card, nothing else changing; a draw of the Player Turns is queued
        only as `activation.recruit_problem` or `eventcards.event_problem` allow it (a
        restatement) and resolved at once."""

        def at_draw(f: Frame[B, I], phase: int) -> B:
            return o.all([o.eq(f.i("phase"), phase), o.eq(f.i("stage"), DRAW)])

        def arrivals_open() -> B:
            opens = o.all([at_draw(n, REINFORCEMENT), o.not_(at_draw(s, REINFORCEMENT))])
            full = [
                o.implies(
                    o.eq(n.i("turn"), t),
                    o.all(
                        [
                            o.eq(n.i("ndraws"), len(q)),
                            *(o.eq(n.i(steps(d.who)), 0) for d in dict.fromkeys(q)),
                        ]
                    ),
                )
                for t, q in self.arrivals.items()
            ]
            turns = [o.num(x) for x in self.arrivals]
            return o.implies(opens, o.all([n.b("arrivals"), o.among(n.i("turn"), turns), *full]))

        def arrivals_deal() -> B:
            def deal(t: int, q: tuple[DrawFor, ...]) -> B:
                heads = {
                    d: [o.num(left) for left in range(1, len(q) + 1) if q[len(q) - left] == d]
                    for d in dict.fromkeys(q)
                }
                return o.implies(
                    o.eq(s.i("turn"), t),
                    o.all(
                        o.eq(
                            n.i(steps(d.who)),
                            o.add([s.i(steps(d.who)), o.ite(o.among(s.i("ndraws"), h), 1, 0)]),
                        )
                        for d, h in heads.items()
                    ),
                )

            return o.implies(
                at_draw(s, REINFORCEMENT),
                o.all(
                    [
                        *(deal(t, q) for t, q in self.arrivals.items()),
                        o.implies(
                            at_draw(n, REINFORCEMENT),
                            o.all(
                                [
                                    n.b("arrivals"),
                                    o.eq(n.i("turn"), s.i("turn")),
                                    o.eq(n.i("ndraws"), o.sub(s.i("ndraws"), 1)),
                                ]
                            ),
                        ),
                    ]
                ),
            )

        def refill_open() -> B:
            opens = o.all([at_draw(n, RECRUITING), o.not_(at_draw(s, RECRUITING))])
            return o.implies(opens, self.refilled(o, n))

        def refill_draw() -> B:
            kept = [
                o.eq(n.i("player"), s.i("player")),
                *(o.eq(n.i(at(u)), s.i(at(u))) for u in self.units),
                *(o.iff(n.b(iso(u)), s.b(iso(u))) for u in self.units),
                o.eq(n.i(ctl(self.mk)), s.i(ctl(self.mk))),
                *(
                    o.implies(
                        o.eq(s.i("player"), CONTROLLERS[side]),
                        o.eq(n.i(hand(side)), o.add([s.i(hand(side)), 1])),
                    )
                    for side in SIDES
                ),
                n.b("refills"),
                o.eq(n.i("ndraws"), o.sub(s.i("ndraws"), 1)),
            ]
            return o.implies(o.all([at_draw(s, RECRUITING), at_draw(n, RECRUITING)]), o.all(kept))

        def turn_draw() -> B:
            here, there = at_draw(s, PLAYER_TURNS), at_draw(n, PLAYER_TURNS)
            return o.all(
                [
                    o.implies(o.all([o.not_(here), there]), self.turn_draw_fits(o, n)),
                    o.implies(here, o.not_(there)),
                ]
            )

        return [
            Conjunct(
                "RKS-3.4.3",
                "a step ends in the draw stage only with a card in the deck (`next_draw` "
                "reshuffles the discards, or drops the draws; a bombardment needs a card: a "
                "restatement)",
                lambda: o.implies(o.eq(n.i("stage"), DRAW), o.le(1, n.i("deck"))),
            ),
            Conjunct(
                "RKS-6.1.2",
                "a Reinforcement Phase opens with its Turn's whole arrival queue, the arriving "
                "units holding no steps (RKS-6.2.2, `sequence.start_turn`)",
                arrivals_open,
            ),
            Conjunct(
                "RKS-6.2.2",
                "a draw of a Reinforcement Phase gives the head of its queue one card, and the "
                "phase goes on with the rest of the queue (RKS-6.1.2, `sequence.deal_card`)",
                arrivals_deal,
            ),
            Conjunct(
                "RKS-10.1.2",
                "the Recruiting Phase's refill is queued up to the hand's target (below it "
                "under refill_amount=partial: `sequence.discard_hand`, a restatement)",
                refill_open,
            ),
            Conjunct(
                "RKS-10.2.1",
                "a draw of the Recruiting Phase gives the player's hand one card and changes "
                "nothing that decides the target (the units, Mamayev Kurgan's control)",
                refill_draw,
            ),
            Conjunct(
                "RKS-7.5.1",
                "a draw of the Player Turns is queued only as a recruit or a bombardment may "
                "make it (`recruit_problem`, `event_problem`: a restatement, RKS-9.2.1) and "
                "resolved at once",
                turn_draw,
            ),
        ]

    # --- the sequence of play (RKS-5.1.1) --------------------------------------------------------

    def stage_is(self, o: Ops[B, I], f: Frame[B, I], nodes: tuple[tuple[Phase, Stage], ...]) -> B:
        """The position's phase and stage are one of `nodes`."""
        return o.any(
            o.all([o.eq(f.i("phase"), PHASES.index(p)), o.eq(f.i("stage"), STAGES.index(st))])
            for p, st in nodes
        )

    def sequence_rules(self, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> list[Conjunct[B]]:
        """Where each step of a phase and stage may lead (`SEQUENCE_STEPS`, per stage and
        action kind, `sequence`), which steps change the Turn, and the records a step makes or
        ends as it enters or leaves a stage: the result (`sequence.victory`), the move waiting
        for its card (`activation.move`, `activation.pay`), the queued draws
        (`sequence.queue_draws`, `sequence.next_draw`)."""
        out = [
            Conjunct(
                clause,
                text,
                functools.partial(
                    lambda fro, to: o.implies(self.stage_is(o, s, fro), self.stage_is(o, n, to)),
                    fro,
                    to,
                ),
            )
            for clause, text, fro, to in SEQUENCE_STEPS
        ]
        recruiting = o.eq(s.i("phase"), RECRUITING)
        next_turn = o.any([o.eq(n.i("phase"), REINFORCEMENT), o.eq(n.i("phase"), PLAYER_TURNS)])
        over, pay, draw = STAGES.index(Stage.OVER), STAGES.index(Stage.PAY), DRAW

        def enters(stage: int) -> B:
            return o.all([o.not_(o.eq(s.i("stage"), stage)), o.eq(n.i("stage"), stage)])

        def neither(stage: int) -> B:
            return o.all([o.not_(o.eq(s.i("stage"), stage)), o.not_(o.eq(n.i("stage"), stage))])

        out += [
            Conjunct(
                "RKS-5.1.1",
                "only the end of a Recruiting Phase changes the Turn, opening the next one "
                "(its Reinforcement Phase or its Player Turns) with the Turn one more "
                "(`sequence.end_turn`, `sequence.start_turn`)",
                lambda: o.implies(
                    o.not_(o.eq(n.i("turn"), s.i("turn"))),
                    o.all([recruiting, next_turn, o.eq(n.i("turn"), o.add([s.i("turn"), 1]))]),
                ),
            ),
            Conjunct(
                "RKS-3.1.1",
                "the steps of set-up (placing the Rifles, the deal) keep the player: the Soviet "
                "places first",
                lambda: o.implies(
                    o.all([o.eq(s.i("phase"), SETUP), o.eq(n.i("phase"), SETUP)]),
                    o.eq(n.i("player"), s.i("player")),
                ),
            ),
            *self.acting_rules(o, s, n),
            Conjunct(
                "RKS-4.1.1",
                "the end of Turn 6's Recruiting Phase ends the game with its result "
                "(`sequence.victory`), and no step that does not end it gives a result",
                lambda: o.all(
                    [
                        o.implies(enters(over), o.not_(o.eq(n.i("won"), 0))),
                        o.implies(neither(over), o.eq(n.i("won"), s.i("won"))),
                    ]
                ),
            ),
            Conjunct(
                "RKS-7.3.1",
                "a Move into an empty enemy Area waits for its card in the pay stage "
                "(`activation.move`); a payment leaves the move waiting there, or completes it "
                "and returns to the acting unit (`activation.pay`); no other step makes or "
                "ends a waiting move",
                lambda: o.all(
                    [
                        o.implies(enters(pay), n.b("pending")),
                        o.implies(
                            o.eq(s.i("stage"), pay),
                            o.any(
                                [
                                    o.all([o.eq(n.i("stage"), pay), n.b("pending")]),
                                    o.all(
                                        [
                                            o.eq(n.i("stage"), STAGES.index(Stage.ACTIVE)),
                                            o.not_(n.b("pending")),
                                        ]
                                    ),
                                ]
                            ),
                        ),
                        o.implies(neither(pay), o.iff(n.b("pending"), s.b("pending"))),
                    ]
                ),
            ),
            Conjunct(
                "RKS-3.4.3",
                "a step that queues draws enters the draw stage with them "
                "(`sequence.queue_draws`, a bombardment's `play_event`); a draw takes the head "
                "of the queue and play stays in the draw stage while draws are queued "
                "(`sequence.next_draw`: the queue dropped when no card is left), moving on "
                "with none; no other step queues or takes a draw",
                lambda: o.all(
                    [
                        o.implies(enters(draw), o.le(1, n.i("ndraws"))),
                        o.implies(
                            o.eq(s.i("stage"), draw),
                            o.iff(o.eq(n.i("stage"), draw), o.le(1, n.i("ndraws"))),
                        ),
                        o.implies(neither(draw), o.eq(n.i("ndraws"), s.i("ndraws"))),
                    ]
                ),
            ),
        ]
        return out

    def acting_rules(self, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> list[Conjunct[B]]:
        """Who acts (RKS-7.1.1): a designation makes the player's unit act, it acts until the
        Player Turn ends (`end_player_turn` clears it), a recruit and a pick with no unit
        acting end the Player Turn they are made in."""
        start, active = self.stage_is(o, s, TURN_OPENS), (Phase.PLAYER_TURNS, Stage.ACTIVE)
        ends = (*TURN_OPENS, RECRUITING_OPENS)
        turn_draw = ((Phase.PLAYER_TURNS, Stage.DRAW),)
        recruit = o.eq(n.i("dkind"), DRAW_KINDS.index("steps") + 1)
        designates = o.all([start, self.stage_is(o, n, (active,))])

        def own(u: str) -> B:
            return o.eq(n.i("player"), CONTROLLERS[self.side[u]])

        return [
            Conjunct(
                "RKS-7.1.1",
                "a step from the start of a Player Turn to the acting unit's operations is a "
                "designation: a unit of the player acts (`designate_problem`, `designate`)",
                lambda: o.implies(designates, self.acting_is(o, n, own)),
            ),
            Conjunct(
                "RKS-7.1.1",
                "the acting unit changes only by a designation, or to none as the Player Turn "
                "ends (the next one starts, or the Recruiting Phase: `end_player_turn`); the "
                "player changes only with no unit acting",
                lambda: o.all(
                    [
                        o.implies(
                            o.not_(o.eq(n.i("acting"), s.i("acting"))),
                            o.any(
                                [
                                    designates,
                                    o.all([o.eq(n.i("acting"), 0), self.stage_is(o, n, ends)]),
                                ]
                            ),
                        ),
                        o.implies(
                            o.not_(o.eq(n.i("player"), s.i("player"))), o.eq(n.i("acting"), 0)
                        ),
                    ]
                ),
            ),
            Conjunct(
                "RKS-5.1.2",
                "a step that starts a Player Turn, or leaves the Player Turns, leaves no unit "
                "acting (`end_player_turn`, `start_player_turns`)",
                lambda: o.implies(
                    o.any(
                        [self.stage_is(o, n, TURN_OPENS), o.not_(o.eq(n.i("phase"), PLAYER_TURNS))]
                    ),
                    o.eq(n.i("acting"), 0),
                ),
            ),
            Conjunct(
                "RKS-7.5.1",
                "a draw of the Player Turns is queued for a recruit's step exactly when it is "
                "made from the start of a Player Turn (a recruit, `recruit`; a bombardment or "
                "Air Force Support is the acting unit's, RKS-9.2.1), and the recruit's draw "
                "ends it: the player designates or passes next under recruit_turn=extra "
                "(AMB-RKS-18 b), else the Player Turn ends (`after_recruit`)",
                lambda: o.all(
                    [
                        o.implies(
                            o.all(
                                [
                                    self.stage_is(o, n, turn_draw),
                                    o.not_(self.stage_is(o, s, turn_draw)),
                                ]
                            ),
                            o.iff(start, recruit),
                        ),
                        o.implies(
                            o.all(
                                [
                                    self.stage_is(o, s, turn_draw),
                                    o.eq(s.i("dkind"), DRAW_KINDS.index("steps") + 1),
                                ]
                            ),
                            self.stage_is(o, n, ends),
                        ),
                    ]
                ),
            ),
            Conjunct(
                "RKS-9.6.1",
                "a pick with no unit acting (the Sniper's, played at the start of a Player Turn "
                "under event_timing=player_turn_too) ends the Player Turn (`after_event`)",
                lambda: o.implies(
                    o.all(
                        [
                            self.stage_is(o, s, ((Phase.PLAYER_TURNS, Stage.PICK),)),
                            o.eq(s.i("acting"), 0),
                        ]
                    ),
                    self.stage_is(o, n, ends),
                ),
            ),
        ]

    # --- who fights (RKS-8.2.2, RKS-8.2.3, RKS-8.12.3) --------------------------------------------

    def supporters(self, o: Ops[B, I]) -> list[I]:
        """The Soviet T-34s by number, and 0 (no support)."""
        return [o.num(0), *(o.num(self.unit_number[t]) for t in self.tanks if self.side[t] == SU)]

    def combat_rules(self, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> list[Conjunct[B]]:
        """Who fights in a combat record (`combat.start_combat`, `combat.choose_defender`,
        `combat.play`, `damage.after_damage`): it is opened for the acting unit, for the
        player, in a Stalingrad Area, with no defender but one of the enemy units and no
        support; while it lasts its
        attacker and Area stay; a defender is chosen among the enemy units; only a Soviet T-34
        supports."""
        opens = o.all([o.eq(s.i("fight"), 0), o.not_(o.eq(n.i("fight"), 0))])
        lasts = o.all([o.not_(o.eq(s.i("fight"), 0)), o.not_(o.eq(n.i("fight"), 0))])

        def enemy_of_attacker(f: Frame[B, I], v: str) -> B:
            return o.all(
                o.implies(o.eq(f.i(v), k), o.not_(o.eq(f.i("attacker"), CONTROLLERS[self.side[u]])))
                for u, k in self.unit_number.items()
            )

        return [
            Conjunct(
                "RKS-8.2.2",
                "a combat record is opened for the acting unit, by the player: it attacks "
                "(`start_combat`), or its bombardment's target's remaining units decide "
                "(AMB-RKS-16, `after_damage`); its support is none yet",
                lambda: o.implies(
                    opens,
                    o.all(
                        [
                            o.not_(o.eq(n.i("acting"), 0)),
                            o.eq(n.i("cunit"), n.i("acting")),
                            o.eq(n.i("attacker"), n.i("player")),
                            o.eq(n.i("csup"), 0),
                        ]
                    ),
                ),
            ),
            Conjunct(
                "RKS-8.1.1",
                "a combat record is opened in a Stalingrad Area: an attack is made where an "
                "enemy unit is (`attack_problem`, `entry`), which no Rear holds (RKS-3.5.1), and "
                "a bombarded unit is never in the enemy Rear (RKS-9.2.4)",
                lambda: o.implies(
                    opens,
                    o.among(n.i("carea"), [o.num(self.areas[a]) for a in self.stalingrad]),
                ),
            ),
            Conjunct(
                "RKS-8.2.2",
                "while a combat record lasts (a round, its damage, the remaining units, the "
                "attack again) its attacker and Area stay",
                lambda: o.implies(
                    lasts,
                    o.all(
                        [
                            o.eq(n.i("cunit"), s.i("cunit")),
                            o.eq(n.i("carea"), s.i("carea")),
                        ]
                    ),
                ),
            ),
            Conjunct(
                "RKS-8.2.3",
                "the defender is chosen among the enemy units of the Area (`defenders`, "
                "`choose_defender`), or is the bombarded enemy unit (AMB-RKS-16)",
                lambda: o.implies(
                    o.all(
                        [
                            o.not_(o.eq(n.i("cdef"), s.i("cdef"))),
                            o.not_(o.eq(n.i("cdef"), 0)),
                        ]
                    ),
                    enemy_of_attacker(n, "cdef"),
                ),
            ),
            Conjunct(
                "RKS-8.12.3",
                "only a Soviet T-34 adds its strength to a Soviet card (`play_problem`)",
                lambda: o.implies(
                    o.not_(o.eq(n.i("csup"), s.i("csup"))),
                    o.among(n.i("csup"), self.supporters(o)),
                ),
            ),
            Conjunct(
                "RKS-8.2.2",
                "no combat record, none of its fighters or Area (the projection's)",
                lambda: o.implies(
                    o.eq(n.i("fight"), 0),
                    o.all(o.eq(n.i(v), 0) for v in ("cunit", "cdef", "csup", "carea")),
                ),
            ),
        ]

    # --- damage and the random picks (RKS-8.9.1, RKS-9.6.1, AMB-RKS-7 iii) ---------------------

    def pick_rules(self, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> list[Conjunct[B]]:
        """What a step does to damage and the random picks (`damage.begin_damage`,
        `damage.apply_damage`, `damage.picked_step`, `eventcards.play_event`): damage is
        recorded for a unit on the map, which stays where it is while it is recorded, and
        bombardment or Air Force Support never records it for a T-34 (eliminated) and records
        it for a unit that fits as its target, the player, the acting unit, its Area and the
        cause staying while damage lasts; a lost step is picked at random only under
        lost_step=random, from the damaged unit's steps; the Sniper picks only for the Soviet,
        from a non-empty German hand, for the acting unit unless under
        event_timing=player_turn_too; a pick is resolved by the next step."""
        opens = o.all([o.eq(s.i("pick"), 0), o.not_(o.eq(n.i("pick"), 0))])

        def placed(f: Frame[B, I], v: str) -> B:
            return o.all(
                o.implies(o.eq(f.i(v), k), o.not_(o.eq(f.i(at(u)), 0)))
                for u, k in self.unit_number.items()
            )

        def stays() -> B:
            return o.all(
                o.implies(o.eq(s.i("dunit"), k), o.eq(n.i(at(u)), s.i(at(u))))
                for u, k in self.unit_number.items()
            )

        def has_step(f: Frame[B, I], v: str) -> B:
            return o.all(
                o.implies(o.eq(f.i(v), k), o.le(1, f.i(steps(u))))
                for u, k in self.unit_number.items()
            )

        same = o.eq(n.i("dunit"), s.i("dunit"))
        return [
            Conjunct(
                "RKS-8.9.1",
                "damage is recorded for a unit on the map (`begin_damage`: the combat's loser, "
                "a bombarded unit), and while its record lasts the unit stays where it is (the "
                "step that moves or eliminates it ends the record, `after_damage`)",
                lambda: o.all(
                    [
                        o.implies(
                            o.all([o.not_(same), o.not_(o.eq(n.i("dunit"), 0))]),
                            placed(n, "dunit"),
                        ),
                        o.implies(o.all([same, o.not_(o.eq(s.i("dunit"), 0))]), stays()),
                    ]
                ),
            ),
            Conjunct(
                "RKS-8.12.1",
                "damage recorded anew (another unit, or another cause) by bombardment or Air "
                "Force Support is never a T-34's: a bombarded T-34 is eliminated at once "
                "(`begin_damage`, AMB-RKS-16)",
                lambda: o.implies(
                    o.all(
                        [
                            o.not_(o.eq(n.i("dunit"), 0)),
                            o.not_(n.b("dcombat")),
                            o.any([o.not_(same), s.b("dcombat")]),
                        ]
                    ),
                    o.all(o.not_(o.eq(n.i("dunit"), self.unit_number[t])) for t in self.tanks),
                ),
            ),
            Conjunct(
                "RKS-9.2.1",
                "damage recorded anew by bombardment or Air Force Support is its drawn target's "
                "(`bombardment_draw`), a unit that fits as that event's target (`struck`: "
                "a restatement at the recording step of the checks `play_event` made); Air "
                "Force Support's damage is no other's (the projection's)",
                lambda: o.all(
                    [
                        o.implies(
                            o.all(
                                [
                                    o.not_(o.eq(n.i("dunit"), 0)),
                                    o.not_(n.b("dcombat")),
                                    o.any([o.not_(same), s.b("dcombat")]),
                                ]
                            ),
                            o.all(
                                o.implies(o.eq(n.i("dunit"), k), self.struck(o, n, u, n.b("dair")))
                                for u, k in self.unit_number.items()
                            ),
                        ),
                        o.implies(
                            n.b("dair"),
                            o.all([o.not_(o.eq(n.i("dunit"), 0)), o.not_(n.b("dcombat"))]),
                        ),
                    ]
                ),
            ),
            Conjunct(
                "RKS-8.9.1",
                "while damage lasts a step (a lost step picked at random, `apply_damage`), "
                "the player, the acting unit, its Area and the damage's cause stay",
                lambda: o.implies(
                    o.all([same, o.not_(o.eq(s.i("dunit"), 0))]),
                    o.all(
                        [
                            o.eq(n.i("player"), s.i("player")),
                            o.eq(n.i("acting"), s.i("acting")),
                            o.iff(n.b("dair"), s.b("dair")),
                            *(
                                o.implies(o.eq(s.i("acting"), k), o.eq(n.i(at(u)), s.i(at(u))))
                                for u, k in self.unit_number.items()
                            ),
                        ]
                    ),
                ),
            ),
            Conjunct(
                "RKS-8.9.1",
                "a lost step is picked at random only under lost_step=random (AMB-RKS-7 iii), "
                "as the damaged unit loses a step with no card named, from its steps, its "
                "damage record staying (`apply_damage`, `lose_step_problem`)",
                lambda: o.implies(
                    o.all([opens, o.eq(n.i("pick"), STEP_PICK)]),
                    o.all(
                        [
                            o.lit(self.random_step),
                            same,
                            o.not_(o.eq(n.i("dunit"), 0)),
                            o.eq(n.i("pwho"), n.i("dunit")),
                            has_step(n, "pwho"),
                        ]
                    ),
                ),
            ),
            Conjunct(
                "RKS-9.6.1",
                "the Sniper's pick is made only by the Soviet player, from a non-empty German "
                "hand (`play_event`), for the acting unit unless under "
                "event_timing=player_turn_too (RKS-9.1.3, AMB-RKS-20); no other pick is made",
                lambda: o.all(
                    [
                        o.implies(opens, o.le(n.i("pick"), SNIPER_PICK)),
                        o.implies(
                            o.all([opens, o.eq(n.i("pick"), SNIPER_PICK)]),
                            o.all(
                                [
                                    o.eq(n.i("player"), CONTROLLERS[SU]),
                                    o.le(1, n.i(hand(GE))),
                                    o.any(
                                        [o.lit(self.turn_events), o.not_(o.eq(n.i("acting"), 0))]
                                    ),
                                ]
                            ),
                        ),
                    ]
                ),
            ),
            Conjunct(
                "RKS-8.9.1",
                "a pick is resolved by the next step, a chance step (`picked_step`, "
                "`sniper_pick`); no step pick, no unit to pick from (the projection's)",
                lambda: o.all(
                    [
                        o.implies(o.not_(o.eq(s.i("pick"), 0)), o.eq(n.i("pick"), 0)),
                        o.implies(o.not_(o.eq(n.i("pick"), STEP_PICK)), o.eq(n.i("pwho"), 0)),
                    ]
                ),
            ),
        ]

    # --- the records of each stage (RKS-5.1.2, RKS-7.1.1, RKS-8.2.2, RKS-10.3.1) ---------------

    def in_stages(self, o: Ops[B, I], f: Frame[B, I], stages: frozenset[Stage]) -> B:
        """The position's stage is one of `stages`."""
        return o.among(f.i("stage"), [o.num(STAGES.index(x)) for x in STAGES if x in stages])

    def after_recruiting(self, o: Ops[B, I], f: Frame[B, I]) -> B:
        """RKS-10.1.1: in a Reinforcement Phase and at the game's end the player is the one last
        to refill in the Recruiting Phase."""
        later = o.among(f.i("phase"), [o.num(REINFORCEMENT), o.num(PHASES.index(Phase.OVER))])
        return o.implies(later, o.eq(f.i("player"), self.second))

    @staticmethod
    def passes_fit(o: Ops[B, I], f: Frame[B, I]) -> B:
        """RKS-5.1.2: passes are counted only in the Player Turns."""
        return o.implies(f.b("passes"), o.eq(f.i("phase"), PLAYER_TURNS))

    def records_fit(self, o: Ops[B, I], f: Frame[B, I]) -> B:
        """RKS-8.2.2, RKS-8.3.1, RKS-8.9.1, RKS-9.6.1 (`properties.sequenced`'s records): a
        combat record exists in the stages of a combat, and in damage or a pick only with the
        combat's damage; damage in its stage, or in a lost step's pick; a pick in its stage;
        combat damage exactly with its combat; no pick is of another kind."""
        fight, dmg = o.not_(o.eq(f.i("fight"), 0)), o.not_(o.eq(f.i("dunit"), 0))
        pick, stage = f.i("pick"), f.i("stage")
        fighting = self.in_stages(o, f, props.FIGHTING)
        damage_stage = o.eq(stage, STAGES.index(Stage.DAMAGE))
        pick_stage = o.eq(stage, STAGES.index(Stage.PICK))
        return o.all(
            [
                o.le(pick, SNIPER_PICK),
                o.implies(
                    fight,
                    o.any(
                        [
                            fighting,
                            o.all([o.any([damage_stage, pick_stage]), dmg, f.b("dcombat")]),
                        ]
                    ),
                ),
                o.implies(dmg, o.any([damage_stage, o.all([pick_stage, o.eq(pick, STEP_PICK)])])),
                o.implies(o.not_(o.eq(pick, 0)), pick_stage),
                o.implies(fighting, fight),
                o.implies(damage_stage, dmg),
                o.implies(pick_stage, o.not_(o.eq(pick, 0))),
                o.implies(dmg, o.iff(f.b("dcombat"), fight)),
                o.implies(o.not_(dmg), o.not_(f.b("dcombat"))),
            ]
        )

    def acting_fits(self, o: Ops[B, I], f: Frame[B, I]) -> B:
        """RKS-7.1.1, RKS-7.1.2, RKS-7.4.2, RKS-7.5.1 (`properties.sequenced`'s acting unit):
        a unit acts exactly where its stage needs one (in its operations, for a bombardment's
        or Air Force Support's draw, for a lost step's pick; a Sniper's pick either way); with
        none acting, nothing has operated and no event is in force; the acting unit is the
        player's, on the map and face up, and has operated by the time it fights, draws or
        picks; a recruit is remembered only in the Player Turns under recruit_turn=extra
        (AMB-RKS-18 b), and never with a recruit's draw queued and no unit acting."""
        stage, busy = f.i("stage"), o.not_(o.eq(f.i("acting"), 0))
        aimed = [o.num(DRAW_KINDS.index(k) + 1) for k in ("bombardment", "air_support")]
        draw_stage = o.eq(stage, DRAW)
        pick_stage = o.eq(stage, STAGES.index(Stage.PICK))
        aimed_draw = o.all(
            [draw_stage, o.eq(f.i("phase"), PLAYER_TURNS), o.among(f.i("dkind"), aimed)]
        )
        operating = self.in_stages(o, f, props.ACTING)
        need = o.any([operating, aimed_draw, o.all([pick_stage, o.eq(f.i("pick"), STEP_PICK)])])
        needless = o.all([o.not_(operating), o.not_(pick_stage), o.not_(aimed_draw)])
        operated = self.in_stages(o, f, OPERATED)

        def fit(u: str) -> B:
            return o.all(
                [
                    o.eq(f.i("player"), CONTROLLERS[self.side[u]]),
                    o.not_(o.eq(f.i(at(u)), 0)),
                    o.not_(f.b(flip(u))),
                ]
            )

        return o.all(
            [
                o.implies(
                    o.not_(busy),
                    o.all(
                        [
                            o.not_(need),
                            o.not_(f.b("acted")),
                            *(o.eq(f.i(eff(k)), 0) for k in EVENT_KINDS),
                        ]
                    ),
                ),
                o.implies(
                    busy,
                    o.all(
                        [
                            o.not_(needless),
                            *(
                                o.implies(o.eq(f.i("acting"), k), fit(u))
                                for u, k in self.unit_number.items()
                            ),
                            o.implies(operated, f.b("acted")),
                        ]
                    ),
                ),
                o.implies(
                    f.b("recruited"),
                    o.all(
                        [
                            o.lit(self.recruit_extra),
                            o.eq(f.i("phase"), PLAYER_TURNS),
                            o.not_(o.all([draw_stage, o.not_(busy)])),
                        ]
                    ),
                ),
            ]
        )

    def flips_fit(self, o: Ops[B, I], f: Frame[B, I]) -> B:
        """RKS-7.4.1, RKS-10.3.1, AMB-RKS-25 (`properties.sequenced`'s flips): in set-up no
        unit is flipped or isolated; in set-up, a Reinforcement Phase and at the game's end a
        unit is flipped only under arrival_state=flipped, as it revives (RKS-6.3.1) or arrives
        in this Reinforcement Phase."""
        phase = f.i("phase")
        setup, reinforcing = o.eq(phase, SETUP), o.eq(phase, REINFORCEMENT)
        quiet = o.any([setup, reinforcing, o.eq(phase, PHASES.index(Phase.OVER))])

        def may_flip(u: str) -> B:
            arrives = self.arrives[u]
            arrived = o.any(
                [
                    o.lit(u in self.revives),
                    o.lit(False)
                    if arrives is None
                    else o.all([reinforcing, o.eq(f.i("turn"), arrives)]),
                ]
            )
            return o.all([o.lit(self.late), arrived])

        return o.all(
            o.all(
                [
                    o.implies(setup, o.all([o.not_(f.b(flip(u))), o.not_(f.b(iso(u)))])),
                    o.implies(o.all([quiet, f.b(flip(u))]), may_flip(u)),
                ]
            )
            for u in self.units
        )

    def record_rules_of_stages(
        self, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]
    ) -> list[Conjunct[B]]:
        """The records each stage has (`properties.sequenced` beyond `properties.stages`), as
        what a step does to them: the player through the Reinforcement Phase and the game's
        end, the passes, the combat, damage and pick records as play enters and leaves their
        stages, the acting unit's flags, and the flips of set-up, the Reinforcement Phase and
        the game's end."""
        later = [o.num(REINFORCEMENT), o.num(PHASES.index(Phase.OVER))]
        return [
            Conjunct(
                "RKS-10.1.1",
                "a step that ends in a Reinforcement Phase or the game's end keeps the player: "
                "it is a step of the Reinforcement Phase, or the refill of the player last to "
                "refill that ends the Recruiting Phase (`after_refill`, `end_turn`)",
                lambda: o.implies(
                    o.among(n.i("phase"), later),
                    o.all(
                        [
                            o.eq(n.i("player"), s.i("player")),
                            o.any(
                                [
                                    o.eq(s.i("phase"), REINFORCEMENT),
                                    o.all(
                                        [
                                            o.eq(s.i("phase"), RECRUITING),
                                            o.eq(s.i("player"), self.second),
                                        ]
                                    ),
                                ]
                            ),
                        ]
                    ),
                ),
            ),
            Conjunct(
                "RKS-5.1.2",
                "only a step of the Player Turns that stays in them counts passes or keeps them "
                "(`end_player_turn`; `start_player_turns`, `start_recruiting_phase` and "
                "`start_turn` clear them)",
                lambda: o.implies(
                    n.b("passes"),
                    o.all([o.eq(s.i("phase"), PLAYER_TURNS), o.eq(n.i("phase"), PLAYER_TURNS)]),
                ),
            ),
            *self.stage_record_rules(o, s, n),
            *self.flag_rules(o, s, n),
            *self.flip_rules(o, s, n),
        ]

    def stage_record_rules(self, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> list[Conjunct[B]]:
        """How the combat, damage and pick records come and go with their stages (RKS-8.3.1,
        RKS-8.9.1, RKS-9.6.1): each is made as play enters its stage, lasts while play stays in
        its stages (a combat also through its damage, damage through a lost step's pick), and
        play leaves a stage of damage or a pick as its step resolves it."""
        fight = [o.not_(o.eq(f.i("fight"), 0)) for f in (s, n)]
        dmg = [o.not_(o.eq(f.i("dunit"), 0)) for f in (s, n)]
        picked = [o.not_(o.eq(f.i("pick"), 0)) for f in (s, n)]
        fighting = [self.in_stages(o, f, props.FIGHTING) for f in (s, n)]
        damage_stage = [o.eq(f.i("stage"), STAGES.index(Stage.DAMAGE)) for f in (s, n)]
        pick_stage = [o.eq(f.i("stage"), STAGES.index(Stage.PICK)) for f in (s, n)]
        return [
            Conjunct(
                "RKS-8.3.1",
                "a combat record is opened as play enters a combat's stages (`start_combat`, "
                "AMB-RKS-16's remaining units) or, the attacker having no card, its damage "
                "(`begin_round`); while it lasts play stays in its stages or its damage; play "
                "enters the combat's stages only with a record, and a step within them keeps it",
                lambda: o.all(
                    [
                        o.implies(
                            o.all([fight[1], o.not_(fight[0])]), o.any([fighting[1], dmg[1]])
                        ),
                        o.implies(o.all([fight[1], fight[0]]), o.any([fighting[1], dmg[1]])),
                        o.implies(o.all([fighting[1], o.not_(fighting[0])]), fight[1]),
                        o.implies(o.all([fighting[1], fighting[0], fight[0]]), fight[1]),
                    ]
                ),
            ),
            Conjunct(
                "RKS-8.9.1",
                "damage is made as play enters the damage stage (`begin_damage`), a combat's "
                "with the combat and no other with one; it lasts a step only as the damage "
                "stage's step picks a lost step at random (AMB-RKS-7 iii), keeping its cause "
                "and combat; play enters the damage stage only with damage, and its step "
                "leaves it (`apply_damage`); no damage, no cause (the projection's)",
                lambda: o.all(
                    [
                        o.implies(
                            o.all([dmg[1], o.not_(dmg[0])]),
                            o.all(
                                [
                                    damage_stage[1],
                                    o.not_(damage_stage[0]),
                                    o.iff(n.b("dcombat"), fight[1]),
                                ]
                            ),
                        ),
                        o.implies(
                            o.all([dmg[1], dmg[0]]),
                            o.all(
                                [
                                    damage_stage[0],
                                    pick_stage[1],
                                    o.eq(n.i("pick"), STEP_PICK),
                                    o.iff(n.b("dcombat"), s.b("dcombat")),
                                    o.iff(fight[1], fight[0]),
                                ]
                            ),
                        ),
                        o.implies(o.all([damage_stage[1], o.not_(damage_stage[0])]), dmg[1]),
                        o.implies(damage_stage[0], o.not_(damage_stage[1])),
                        o.implies(o.not_(dmg[1]), o.not_(n.b("dcombat"))),
                    ]
                ),
            ),
            Conjunct(
                "RKS-9.6.1",
                "a pick is made as play enters the pick stage (`apply_damage`, `play_event`), "
                "play enters it only with a pick, and its step leaves it (`picked_step`, "
                "`sniper_pick`)",
                lambda: o.all(
                    [
                        o.implies(o.all([picked[1], o.not_(picked[0])]), pick_stage[1]),
                        o.implies(o.all([pick_stage[1], o.not_(pick_stage[0])]), picked[1]),
                        o.implies(pick_stage[0], o.not_(pick_stage[1])),
                    ]
                ),
            ),
        ]

    def flag_rules(self, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> list[Conjunct[B]]:
        """The acting unit's flags (RKS-7.1.2, RKS-7.4.2, RKS-7.5.1): it is designated on the
        map face up and stays so while it acts; it has operated by the time it fights, draws or
        picks, and stays so; a recruit is remembered only under recruit_turn=extra, and bars
        another."""
        keeps = o.all([o.eq(n.i("acting"), s.i("acting")), o.not_(o.eq(s.i("acting"), 0))])
        designates = o.all(
            [
                self.stage_is(o, s, TURN_OPENS),
                self.stage_is(o, n, ((Phase.PLAYER_TURNS, Stage.ACTIVE),)),
            ]
        )
        operated = [self.in_stages(o, f, OPERATED) for f in (s, n)]
        busy = o.not_(o.eq(n.i("acting"), 0))
        recruit_draw = o.all(
            [o.eq(n.i("phase"), PLAYER_TURNS), o.eq(n.i("stage"), DRAW), o.not_(busy)]
        )

        def placed(u: str, f: Frame[B, I]) -> B:
            return o.all([o.not_(o.eq(f.i(at(u)), 0)), o.not_(f.b(flip(u)))])

        return [
            Conjunct(
                "RKS-7.4.2",
                "a unit is designated on the map face up (`designate_problem`), and a step "
                "that keeps it acting neither flips it nor takes it off the map (one that does "
                "ends its activation: `end_activation`, `after_damage`, `continuation`)",
                lambda: o.all(
                    o.implies(
                        o.eq(n.i("acting"), k),
                        o.all(
                            [
                                o.implies(designates, placed(u, n)),
                                o.implies(o.all([keeps, placed(u, s)]), placed(u, n)),
                            ]
                        ),
                    )
                    for u, k in self.unit_number.items()
                ),
            ),
            Conjunct(
                "RKS-7.1.2",
                "the acting unit has operated as play enters a combat, its damage, a draw or a "
                "pick (`start_combat`, `play_event`), and stays so while it acts; only an "
                "acting unit operates, and a designation or the end of a Player Turn clears it "
                "(`designate`, `end_player_turn`)",
                lambda: o.all(
                    [
                        o.implies(o.all([busy, operated[1], o.not_(operated[0])]), n.b("acted")),
                        o.implies(o.all([keeps, s.b("acted")]), n.b("acted")),
                        o.implies(o.all([n.b("acted"), o.not_(s.b("acted"))]), busy),
                        o.implies(o.not_(o.eq(n.i("acting"), s.i("acting"))), o.not_(n.b("acted"))),
                    ]
                ),
            ),
            Conjunct(
                "RKS-7.5.1",
                "a recruit is remembered as it ends, back at the start of the Player Turn, only "
                "under recruit_turn=extra (AMB-RKS-18 b, `after_recruit`); the memory lasts "
                "only in the Player Turns, and bars another recruit's draw (`recruit_problem`)",
                lambda: o.all(
                    [
                        o.implies(
                            o.all([n.b("recruited"), o.not_(s.b("recruited"))]),
                            o.all([o.lit(self.recruit_extra), self.stage_is(o, n, TURN_OPENS)]),
                        ),
                        o.implies(n.b("recruited"), o.eq(n.i("phase"), PLAYER_TURNS)),
                        o.implies(
                            o.all([s.b("recruited"), n.b("recruited")]), o.not_(recruit_draw)
                        ),
                    ]
                ),
            ),
        ]

    def flip_rules(self, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> list[Conjunct[B]]:
        """The flips where no unit acts (RKS-7.4.1, RKS-10.3.1, AMB-RKS-25): set-up flips and
        isolates none; the Recruiting Phase ends with every unit face up, but those arriving or
        reviving flipped under arrival_state=flipped; a Reinforcement Phase's draws flip none."""
        later = [o.num(REINFORCEMENT), o.num(PHASES.index(Phase.OVER))]
        in_setup = o.all([o.eq(s.i("phase"), SETUP), o.eq(n.i("phase"), SETUP)])
        ends_recruiting = o.all([o.eq(s.i("phase"), RECRUITING), o.among(n.i("phase"), later)])
        reinforcing = o.all([o.eq(s.i("phase"), REINFORCEMENT), o.eq(n.i("phase"), REINFORCEMENT)])
        may_flip = self.flips_fit(o, n)
        return [
            Conjunct(
                "RKS-3.1.1",
                "a step of set-up (a placing, the deal) flips and isolates no unit",
                lambda: o.implies(
                    in_setup,
                    o.all(
                        o.all(
                            [
                                o.implies(n.b(flip(u)), s.b(flip(u))),
                                o.implies(n.b(iso(u)), s.b(iso(u))),
                            ]
                        )
                        for u in self.units
                    ),
                ),
            ),
            Conjunct(
                "RKS-10.3.1",
                "the end of the Recruiting Phase turns every unit face up (`after_refill`), "
                "and the next Turn's arrivals and a revived unit come flipped only under "
                "arrival_state=flipped (AMB-RKS-25, `start_turn`, `revive`)",
                lambda: o.implies(ends_recruiting, may_flip),
            ),
            Conjunct(
                "RKS-6.2.2",
                "a draw of a Reinforcement Phase flips no unit (it deals an arrival its steps)",
                lambda: o.implies(
                    reinforcing, o.all(o.implies(n.b(flip(u)), s.b(flip(u))) for u in self.units)
                ),
            ),
        ]
