"""Rattenkrieg's verification entry points (`solvers.checking.verification.SpecVerification`): its
properties, and the abstract symbolic model of `specs.rattenkrieg.formal.symbolic` with its link to
the rules (the projection of a position, the choices of a step) and the formal statements of
the properties it proves.

The model is an over-approximation (`exact = False`): `wargame verify rattenkrieg` proves
RKS-P-CARDS, RKS-P-STEPS, RKS-P-HAND, RKS-P-FACES, RKS-P-REAR, RKS-P-UNITS, RKS-P-RESULT,
RKS-P-CONTROL, RKS-P-FLIPPED, RKS-P-EFFECTS, RKS-P-PAY, RKS-P-SETUP, RKS-P-DRAWS, RKS-P-SEQUENCE
(whole), RKS-P-AFTERMATH (whole), RKS-P-COMBAT (whole, under raising=one_each: both presets),
RKS-P-STAGES, RKS-P-COMBATANTS and RKS-P-PICKS (the parts of
RKS-P-SEQUENCE, RKS-P-COMBAT and RKS-P-AFTERMATH proved first) over it (1-induction, RKS-P-HAND and
RKS-P-UNITS each given a lemma), and RKS-P-LOOP under event_source=hand (both presets; by one part,
from the hand rules and General Chuikov's), and its refinement check holds every concrete step of
seeded playouts to the model's step rules (direction (a)), which is what makes the proofs speak of
the code. Each formal statement here implies its property of the projected position (or step).
RKS-P-FLIPPED speaks of the action a step takes: the projection of a step's result carries the units
that action makes act (`actors`: designated, recruiting, moving along), read from the step the link
was handed (`known_step`, or its own `apply` in `schema_of`), so a model step sees them; a position
reached otherwise (the set-up, a replayed witness) projects with none. RKS-P-CONTROL rests on step
rules that every step ends with control as the units make it (the rules settle control and isolation
after every action, `specs.rattenkrieg.rules.control.settle`).

RKS-P-EFFECTS, RKS-P-PAY, RKS-P-SETUP and RKS-P-DRAWS speak of records beyond counts and places, so
the model carries what each needs of them (`specs.rattenkrieg.formal.symbolic`): the events in force
as counts per kind (for the acting unit and in the combat), the player, the acting unit, the combat
record's cause, attacker side and refight flag (`invariants_operations.effects_fit` reads no more);
the waiting move's Area, T-34 and payments due, with the units' places, markers, steps, hands and
control already modelled (`invariants_operations.pending_fits`); the stage, the number of queued
draws and whether they are the set-up deal's last ones (`invariants_draws.set_up`, whose deal order
is a fixed queue once every Rifle is placed, so the counts each unit and hand still waits for are a
table of that number); for the draws, also the deck's size, the first draw's kind and target, and
whether the draws are the last ones of the Turn's arrival queue (a fixed queue per Turn) or all the
player's refill (`invariants_draws.draws_fit`: the Player Turns queue one draw at a time, so the
first is all there is to check; the refill target is read from who occupies Mamayev Kurgan, by the
units and control the model has). Each formal statement is the property read over these values, so
it implies the property of the projected position; where a step rule restates part of it (the checks
of a move waiting for its card, the two cards of each event, the conditions under which a recruit, a
bombardment or a refill queues its draws, a card in the deck at every draw) its text says so.
Projecting a queue to "its last `ndraws` draws" and a table of what each target still waits for is
sound because the refinement check compares these projections of every concrete step with the step
rules, so a queue that is no suffix, or a card dealt out of order, is a mismatch, not a silent pass.

RKS-P-STAGES is the part of RKS-P-SEQUENCE proved first (`invariants_sequence.stages`, implied by
`invariants_sequence.sequenced`): each phase has its stages, set-up is Turn 1 with the Soviet
player, Reinforcement Phases come from Turn 2 and the game ends in Turn 6; the result, the move
waiting for its card and the queued draws exist exactly in their stages; the acting unit is the
player's, present in the stages of its operations and in a bombardment's draw, absent where a Player
Turn starts, in a recruit's draw and outside the Player Turns. It rests on step rules per stage and
action kind (`symbolic_sequence.SEQUENCE_STEPS`, `symbolic_sequence.sequence_rules`,
`symbolic_sequence.acting_rules`): where the steps of each phase and stage lead, that only the end
of a Recruiting Phase changes the Turn, that the acting unit changes only by a designation or as the
Player Turn ends, and which steps make or end a result, a waiting move or queued draws; the
projection already carries every value it reads (no new variable). The stages inside the Player
Turns after its start are one group: a step from any of them stays among them or opens the
Recruiting Phase (the order of a combat's stages is not stated). The rules for the waiting move, the
draws and the result say what `activation.move` and `pay`, `sequence.queue_draws` and `next_draw`,
and `victory` do as play enters or leaves the stage, which is close to the property for these three
records. Its statement is `invariants_sequence.stages` read over the projection, plus one conjunct
that makes it inductive (a Player Turns draw is a recruit's, a bombardment's or Air Force
Support's), so it implies that predicate.

RKS-P-COMBATANTS is the part of RKS-P-COMBAT proved first (`invariants_combat.combatants`, implied
by `invariants_combat.combat_fits`): a combat is fought in a Stalingrad Area, its attacker is the
acting unit, its defender an enemy unit, its support a Soviet T-34. The projection adds the record's
attacker, defender, support (units by number) and Area; the step rules
(`symbolic_combatants.combat_rules`) say how a record is opened (for the acting unit, by the player,
in a Stalingrad Area, with no support: the Area is a restatement at the opening step), that its
attacker and Area stay while it lasts, that a defender is chosen among the enemy units and that only
a Soviet T-34 supports.

RKS-P-PICKS is the part of RKS-P-AFTERMATH proved (`invariants_aftermath.picks`, implied by
`invariants_aftermath.aftermath`): the damaged unit is on the map; damage not a combat's is no
T-34's (a bombarded T-34 is eliminated) and is of a unit that fits as its event's target (an enemy
of the player on the map in the acting unit's Area or next to it, not in the enemy Rear, Air Force
Support German, no T-34 bombarded by the Germans: `symbolic_draws.struck`, the same reading the
draws' statement makes of the queued target); a random step pick is the damaged unit's under
lost_step=random and it has a step; the Sniper picks for the Soviet from a non-empty German hand,
for the acting unit unless under event_timing=player_turn_too. The projection adds the damaged unit,
whether its damage is Air Force Support's (`dair`), the pick's kind (any other pick a kind of its
own, which the statement excludes) and the step pick's unit; the step rules
(`symbolic_picks.pick_rules`) say when damage is recorded and that its unit stays while it lasts,
that bombardment records none for a T-34, that it records it for a unit fitting as the event's
target (a restatement of the target checks at the recording step, as `bombardment_draw` records the
target `play_event` checked), that the player, the acting unit, its Area and the cause stay while
damage lasts (into a lost step's pick), when each pick is made, and that the next step resolves it.

RKS-P-SEQUENCE is proved whole (`invariants_sequence.sequenced`): beyond RKS-P-STAGES, the player
after the Recruiting Phase, the passes, the combat, damage and pick records of each stage, the
acting unit (where a stage needs one, on the map and face up, having operated, nothing operated or
in force with none), the recruit flag and the flips of set-up, the Reinforcement Phase and the
game's end. The projection adds whether passes are counted, the `acted` and `recruited` flags and
whether the damage is a combat's (`dcombat`); the step rules
(`symbolic_record_rules.record_rules_of_stages`) say what a step does to them: the step that ends in
a Reinforcement Phase or the game's end keeps the player, the second refiller's as the Recruiting
Phase ends; only a step within the Player Turns counts passes; each record is made as play enters
its stage, lasts while play stays in its stages (a combat through its damage, damage through a lost
step's pick), and a damage or pick step leaves its stage; the acting unit is designated on the map
face up and a step that keeps it acting neither flips it nor takes it off the map; it has operated
as play enters a combat, damage, a draw or a pick, and the flag is cleared as the acting unit
changes; a recruit is remembered only under recruit_turn=extra and bars another; set-up and a
Reinforcement Phase's draws flip no unit and the Recruiting Phase ends with the units face up but
those arriving or reviving flipped under arrival_state=flipped. These speak of the step (the state
before and after), not of the property, which follows by induction; only two small conjuncts restate
a part of it (a recruit is remembered only in the Player Turns; no damage, no cause: the
projection's). Its statement is the one of RKS-P-STAGES and these parts read over the projection
(`statements_stages.sequenced`), so it implies the predicate.

RKS-P-AFTERMATH is proved whole (`invariants_aftermath.aftermath`): beyond RKS-P-PICKS, in the
damage stage damage has a choice (a retreat to an adjacent friendly Area, never the enemy Rear nor
while isolated, the Soviet Rear barred by `rear_retreat_ban`, Rears friendly by `rear_control`, for
bombardment damage by `bombard_damage`; a step to lose; the sacrifice of the T-34 that supported a
combat the Soviets lost), in the remaining units' stage the first remaining defender (in unit order)
has a retreat, and in the continuation an enemy remains (isolated ones by `isolated_remaining`) and
the attacker has a combat card (a step, or a hand card unless isolated) or a retreat
(`specs.rattenkrieg.formal.symbolic_aftermath`). These read the combat's loser and per unit whether
it is a remaining unit decided to stay, which RKS-P-COMBAT's part of the projection carries (below);
the map's adjacency and Rears and the readings are fixed tables. Its three step rules
(`Aftermath.rules`) restate these conditions at every step that ends in their stage, as the rules
check them as play enters it (`damage.begin_damage`, `damage.next_isolation`, `damage.continuation`
do something else when there is nothing to decide), so the proof adds little beyond the refinement
check there. Its statement is `statements_stages.picks` and these conditions read over the
projection (`Aftermath.decided`), so it implies the predicate.

RKS-P-COMBAT is proved whole (`invariants_combat.combat_fits`) under raising=one_each (both
presets): beyond RKS-P-COMBATANTS, the staying units and the isolation choice, the attacker in the
Area, the remaining units deciding only in their stage, per step of a round which cards are on the
table, the raiser only while raising, the raises counting the spent cards, the attacker's card at
its declaration, the raises in turn (with chuikov_raises), each card's side, origin (the hand unless
its fighter is isolated, else the fighter's steps, never a unit without them) and openness (General
Chuikov), the T-34's support (a Soviet card down, the T-34 in the Area, not fighting, t34_support);
after the result the table clear, the loser per stage, the defender in or out of the Area, the
damaged unit the loser's fighter; and a bombarded unit's record (bombard_isolation=yes). The
projection adds the record's step, raiser, raises, spent cards, loser, staying units, isolation
choice, whether a bombarded unit's record is Air Force Support's, and its attack, defence and first
spent card (side, origin, openness; `specs.rattenkrieg.formal.symbolic_combat`): under one_each no
round holds a second spent card (the answer to the first raise is judged at once), so these are the
whole table; under raising=alternating they are not, and `formal()` leaves RKS-P-COMBAT out there.
Its step rules (`symbolic_combat_rules.record_rules`) say what a declaration does (the only step
that ends in a round with cards down: one card of the side to move, from the places RKS-8.4.1
allows, open as RKS-9.8.1 says, the step and the raise passed on, the T-34 joining only as
RKS-8.12.3 allows, no unit moved or isolated) and what a remaining unit's decision does (only a
remaining unit moves or joins the staying ones, none is isolated) and a lost step's pick (the record
and the units' places kept); the rules for a round's start (an empty table), the damage, the
continuation and the entry into the remaining units' decisions (a combat's, or a bombarded unit's
under bombard_isolation=yes) restate the checks `begin_round`, `judge`, `accept`, `continuation`,
`after_damage` and `next_isolation` make or the record they leave as play enters these stages, and
say so (there the proof adds little beyond the refinement check). Its statement is
`statements_stages.combatants` and `symbolic_combat_statement.statement` (the predicate read over
the projection, one conjunct more: under General Chuikov the attacker has a card while the German
declares first, as `begin_round` checked; with `symbolic_records.records_fit`), so it implies the
predicate.

RKS-P-NO-LEAK is proved for each side by self-composition (`specs.rattenkrieg.formal.noleak`:
`solvers.checking.noninterference`): from two model states with equal observations, two steps
whose observable parts are equal lead to equal observations. The observation is
`io.observation.observe` read over what the model carries (the open board and records, the card
counts, the face-up and exposed cards and the piles' sizes; not the cards of a hand, of a unit's
steps or on the table, which the model has no variable for); the observable part of a step is
the open table after it, the cards face up after it and the piles' changes. Its `formal` is a
`prover.Relational` whose verdict is both sides' (no lemma).

Only RKS-P-COMBAT under raising=alternating (no preset takes it) has no formal statement, so
`wargame verify` would check it on seeded playouts there and say so ("tested"). RKS-P-ENDS stays
refuted by a playout lasso (RKS-7.2.1 lets a unit move endlessly between friendly Areas).
"""

from __future__ import annotations

import functools

from kernel.properties import Property
from kernel.variants import Variant
from solvers.checking.abstraction import AbstractLink
from solvers.checking.prover import Formal, Invariant, Lemma, StepInvariant, StepPart
from specs.rattenkrieg.data.loader import load_data
from specs.rattenkrieg.data.variants import PRESETS
from specs.rattenkrieg.formal import (
    noleak,
    statements,
    statements_stages,
    symbolic_combat,
    symbolic_combat_statement,
    symbolic_draws,
    symbolic_pending,
    symbolic_setup,
)
from specs.rattenkrieg.formal import properties as props
from specs.rattenkrieg.formal.symbolic import Model
from specs.rattenkrieg.formal.symbolic_projection import project
from specs.rattenkrieg.formal.symbolic_state import (
    CLAUSES,
    LOOP_PART,
    NEXT,
)
from specs.rattenkrieg.rules.board import Board
from specs.rattenkrieg.rules.play import RattenkriegRules
from specs.rattenkrieg.rules.state import SIDES, RKState

CARDS = "RKS-P-CARDS"
STEPS = "RKS-P-STEPS"
HANDS = "RKS-P-HAND"
FACES = "RKS-P-FACES"
REAR = "RKS-P-REAR"
UNITS = "RKS-P-UNITS"
LOOP = "RKS-P-LOOP"
RESULT = "RKS-P-RESULT"
FLIPPED = "RKS-P-FLIPPED"
CONTROL = "RKS-P-CONTROL"
EFFECTS = "RKS-P-EFFECTS"
PAY = "RKS-P-PAY"
SETUP = "RKS-P-SETUP"
DRAWS = "RKS-P-DRAWS"
STAGED = "RKS-P-STAGES"
COMBATANTS = "RKS-P-COMBATANTS"
PICKS = "RKS-P-PICKS"
COMBAT = "RKS-P-COMBAT"
AFTERMATH = "RKS-P-AFTERMATH"
SEQUENCE = "RKS-P-SEQUENCE"


@functools.cache
def properties() -> tuple[Property, ...]:
    """The rules' properties, then RKS-P-NO-LEAK (proved over the model: `noleak`)."""
    return (*props.properties(Board(load_data())), noleak.no_leak(sorted(PRESETS)))


@functools.cache
def symbolic_model(variant: Variant) -> Link:
    """The abstraction of `variant`: the step rules hold under every reading, so every variant
    has one (only its initial state depends on the variant)."""
    return Link(variant)


class Link(AbstractLink[RKState]):
    """The abstract model of one variant, its formal statements, projection and step choices
    (`solvers.checking.verification.SymbolicModel`)."""

    next_prefix = NEXT

    def __init__(self, variant: Variant) -> None:
        game = RattenkriegRules()
        clauses = {**CLAUSES, **symbolic_combat.CLAUSES}  # COMBAT's variables too
        # The link steps the rules alone (`apply`); `kernel.game.Game` still lists the roles'
        # members until the kernel drops them, so mypy would have them here.
        super().__init__(game, clauses, lambda: formal(self.model))  # type: ignore[arg-type]  # the rules of play: game.py adds observe
        self.variant = variant
        self.board = game.board
        self.model = Model(self.board, variant)
        self.model.start = self.project(self.game.initial_state(variant))
        self.system = self.model

    def _actors(self, state: RKState) -> frozenset[str]:
        """The units that acted in the step that led to `state` (none if no step is known):
        the step `known_step` was last handed with this result (the same object, else an equal
        state, as a playout that applies the action again reaches)."""
        for same in (lambda x: x is state, lambda x: x == state):
            for _, action, after in self._applied:
                if same(after):
                    return props.actors(action)
        return frozenset()

    def _project(self, state: RKState) -> dict[str, int | bool]:
        return project(self.model, self.board, state, self._actors(state))


def formal(m: Model) -> dict[str, Formal]:
    """The properties of `specs.rattenkrieg.formal.properties` the abstraction proves, over it (each
    statement implies the property of the projected position)."""
    out: dict[str, Formal] = {
        CARDS: Invariant(lambda o, s: statements.cards(m, o, s)),
        STEPS: Invariant(lambda o, s: statements.step_cards(m, o, s)),
        HANDS: Invariant(
            lambda o, s: statements.hands(o, s),
            lemmas=(
                Lemma("hands with their cards on the table", lambda o, s: statements.held(m, o, s)),
            ),
        ),
        FACES: Invariant(lambda o, s: statements.faces(m, o, s)),
        REAR: Invariant(lambda o, s: statements.rear(m, o, s)),
        UNITS: Invariant(
            lambda o, s: statements.units(m, o, s),
            lemmas=(Lemma("the Turn is at least 1", lambda o, s: o.le(1, s.i("turn"))),),
        ),
        RESULT: Invariant(lambda o, s: statements.result(m, o, s)),
        FLIPPED: StepInvariant(lambda o, s, n: statements.flipped(m, o, s, n)),
        CONTROL: Invariant(lambda o, s: statements.control(m, o, s)),
        EFFECTS: Invariant(lambda o, s: statements.effects(m, o, s)),
        PAY: Invariant(lambda o, s: symbolic_pending.pending_fits(m, o, s)),
        SETUP: Invariant(lambda o, s: symbolic_setup.set_up(m, o, s)),
        DRAWS: Invariant(lambda o, s: symbolic_draws.draws_fit(m, o, s)),
        STAGED: Invariant(lambda o, s: statements_stages.stages(m, o, s)),
        COMBATANTS: Invariant(lambda o, s: statements_stages.combatants(m, o, s)),
        PICKS: Invariant(lambda o, s: statements_stages.picks(m, o, s)),
        AFTERMATH: Invariant(
            lambda o, s: o.all([statements_stages.picks(m, o, s), m.aftermath.decided(o, s)])
        ),
        SEQUENCE: Invariant(lambda o, s: statements_stages.sequenced(m, o, s)),
        noleak.NO_LEAK: noleak.statement(m),
    }
    if m.variant.is_("raising", "one_each"):  # else more spent cards than the model has
        out[COMBAT] = Invariant(
            lambda o, s: o.all(
                [
                    statements_stages.combatants(m, o, s),
                    symbolic_combat_statement.statement(m, o, s),
                ]
            )
        )
    if m.chuikov_from_hand:  # else Chuikov paid with a step card raises the measure
        loop = StepPart(
            "the measure of the Player Turn loop",
            lambda o, s, n: statements.loop(m, o, s, n),
            frozenset({*SIDES, LOOP_PART}),
            frozenset({"RKS-9.8.2", "RKS-10.1.2"}),
        )
        out[LOOP] = StepInvariant(lambda o, s, n: statements.loop(m, o, s, n), parts=lambda: [loop])
    return out
