"""Rattenkrieg's verification entry points (`solvers.verification.SpecVerification`): its
properties, and the abstract symbolic model of `specs.rattenkrieg.symbolic` with its link to
the rules (the projection of a position, the choices of a step) and the formal statements of
the properties it proves.

The model is an over-approximation (`exact = False`): `wargame verify rattenkrieg` proves
RKS-P-CARDS, RKS-P-STEPS, RKS-P-HAND, RKS-P-FACES, RKS-P-REAR, RKS-P-UNITS, RKS-P-RESULT,
RKS-P-CONTROL and RKS-P-FLIPPED over it (1-induction, RKS-P-HAND and RKS-P-UNITS each given a
lemma), and RKS-P-LOOP under event_source=hand (both presets; by one part, from the hand rules
and General Chuikov's), and its refinement check holds every concrete step of seeded playouts
to the model's step rules (direction (a)), which is what makes the proofs speak of the code.
Each formal statement here implies its property of the projected position (or step).
RKS-P-FLIPPED speaks of the action a step takes: the projection of a step's result carries the
units that action makes act (`actors`: designated, recruiting, moving along), read from the
step the link was handed (`known_step`, or its own `apply` in `schema_of`), so a model step
sees them; a position reached otherwise (the set-up, a replayed witness) projects with none.
RKS-P-CONTROL rests on step rules that every step ends with control as the units make it (the
rules settle control and isolation after every action, `specs.rattenkrieg.control.settle`).

The other properties have no formal statement (`formal()` leaves them out), so `wargame
verify` checks them on seeded playouts and says so ("tested"): RKS-P-SEQUENCE, RKS-P-SETUP,
RKS-P-DRAWS, RKS-P-PAY, RKS-P-EFFECTS, RKS-P-COMBAT and RKS-P-AFTERMATH are facts about records
the abstraction leaves out (the stage and its records, the dealing order, the queued draws, the
pending move, the combat table, the events in force), and their step rules would only restate
them. RKS-P-ENDS stays refuted by a playout lasso (RKS-7.2.1 lets a unit move endlessly between
friendly Areas).
"""

from __future__ import annotations

import functools

import attrs

from kernel.properties import Property
from kernel.variants import Variant
from solvers.abstraction import AbstractLink
from solvers.prover import Formal, Invariant, Lemma, StepInvariant, StepPart
from solvers.terms import B, Frame, I, Ops
from specs.rattenkrieg import properties as props
from specs.rattenkrieg import sequence
from specs.rattenkrieg.board import Board
from specs.rattenkrieg.cards import DECK
from specs.rattenkrieg.data import load_data
from specs.rattenkrieg.rules import Rattenkrieg
from specs.rattenkrieg.sequence import START_HAND
from specs.rattenkrieg.state import GE, HAND, SIDES, RKState, Stage
from specs.rattenkrieg.symbolic import (
    ALIEN,
    CLAUSES,
    CONTROLLERS,
    FACE_KINDS,
    LOOP_PART,
    NEXT,
    PHASES,
    STRAY,
    WINNERS,
    Model,
    acts,
    at,
    card,
    ctl,
    elim,
    eturn,
    face,
    flip,
    hand,
    held,
    iso,
    steps,
    table,
)
from specs.rattenkrieg.wire import MAX_HAND

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


@functools.cache
def properties() -> tuple[Property, ...]:
    return props.properties(Board(load_data()))


@functools.cache
def symbolic_model(variant: Variant) -> Link:
    """The abstraction of `variant`: the step rules hold under every reading, so every variant
    has one (only its initial state depends on the variant)."""
    return Link(variant)


class Link(AbstractLink[RKState]):
    """The abstract model of one variant, its formal statements, projection and step choices
    (`solvers.verification.SymbolicModel`)."""

    next_prefix = NEXT

    def __init__(self, variant: Variant) -> None:
        game = Rattenkrieg()
        super().__init__(game, CLAUSES, lambda: formal(self.model))
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
        m, b = self.model, self.board
        r = state.result
        worded = True
        if r is not None:
            due = sequence.victory(b, state).result
            worded = due is not None and attrs.evolve(r, winner=due.winner) == due
        out: dict[str, int | bool] = {
            "turn": state.turn,
            "placing": state.stage == Stage.PLACE,
            "phase": PHASES.index(state.phase),
            "won": 0 if r is None else WINNERS[r.winner],
            "worded": worded,
        }
        for a in m.arrows:
            out[held(a)] = state.control[b.index[a]] == GE
        for a in m.stalingrad:
            out[ctl(a)] = CONTROLLERS[state.control[b.index[a]]]
        fight = state.combat
        on_table = (
            [] if fight is None else [p for p in (fight.attack, fight.defence, *fight.spent) if p]
        )
        for side in SIDES:
            out[hand(side)] = len(state.hand(side))
            out[table(side)] = sum(1 for p in on_table if p.origin == HAND and p.side == side)
        records = [uid for uid, _ in state.eliminated]
        when = dict(state.eliminated)
        acted = self._actors(state)
        for u in state.units:
            out[acts(u.id)] = u.id in acted
            out[at(u.id)] = 0 if u.area is None else m.areas[u.area]
            out[steps(u.id)] = len(u.steps)
            out[elim(u.id)] = records.count(u.id)
            out[eturn(u.id)] = when.get(u.id, 0)
            out[flip(u.id)] = u.flipped
            out[iso(u.id)] = u.isolated
        places = props.card_places(state)
        for c in m.cards:
            out[card(c)] = places[c]
        out[ALIEN] = sum(n for c, n in places.items() if c not in DECK)
        out_of_play = state.discards | state.removed
        piles = (state.face_up, state.exposed, state.removed, state.discards)
        out[STRAY] = sum(len(pile - DECK) for pile in piles)
        on_units = frozenset(c for u in state.units for c in u.steps)
        sets = (state.face_up, out_of_play, state.removed, state.exposed, on_units)
        for c in m.cards:
            for kind, pile in zip(FACE_KINDS, sets, strict=True):
                out[face(kind, c)] = c in pile
        return out


# --- the formal statements -----------------------------------------------------------------------


def formal(m: Model) -> dict[str, Formal]:
    """The properties of `specs.rattenkrieg.properties` the abstraction proves, over it (each
    statement implies the property of the projected position)."""
    out: dict[str, Formal] = {
        CARDS: Invariant(lambda o, s: _cards(m, o, s)),
        STEPS: Invariant(lambda o, s: _steps(m, o, s)),
        HANDS: Invariant(
            lambda o, s: _hands(o, s),
            lemmas=(Lemma("hands with their cards on the table", lambda o, s: _held(m, o, s)),),
        ),
        FACES: Invariant(lambda o, s: _faces(m, o, s)),
        REAR: Invariant(lambda o, s: _rear(m, o, s)),
        UNITS: Invariant(
            lambda o, s: _units(m, o, s),
            lemmas=(Lemma("the Turn is at least 1", lambda o, s: o.le(1, s.i("turn"))),),
        ),
        RESULT: Invariant(lambda o, s: _result(m, o, s)),
        FLIPPED: StepInvariant(lambda o, s, n: _flipped(m, o, s, n)),
        CONTROL: Invariant(lambda o, s: _control(m, o, s)),
    }
    if m.chuikov_from_hand:  # else Chuikov paid with a step card raises the measure
        loop = StepPart(
            "the measure of the Player Turn loop",
            lambda o, s, n: _loop(m, o, s, n),
            frozenset({*SIDES, LOOP_PART}),
            frozenset({"RKS-9.8.2", "RKS-10.1.2"}),
        )
        out[LOOP] = StepInvariant(lambda o, s, n: _loop(m, o, s, n), parts=lambda: [loop])
    return out


def _cards(m: Model, o: Ops[B, I], s: Frame[B, I]) -> B:
    """RKS-2.4.1, RKS-3.4.2: each of the 52 cards lies in exactly one place, and no other card
    lies anywhere."""
    return o.all([*(o.eq(s.i(card(c)), 1) for c in m.cards), o.eq(s.i(ALIEN), 0)])


def _steps(m: Model, o: Ops[B, I], s: Frame[B, I]) -> B:
    """RKS-3.3.1, RKS-7.5.3, RKS-8.12.1: no unit holds more step cards than at set-up."""
    return o.all(o.le(s.i(steps(u)), m.most_steps[u]) for u in m.units)


def _hands(o: Ops[B, I], s: Frame[B, I]) -> B:
    """RKS-10.2.1, RKS-3.4.1: no hand holds more than 4 cards, nor before Turn 1's Recruiting
    Phase more than was dealt."""
    first = Model.first_turn(o, s)
    return o.all(
        o.all(
            [
                o.le(s.i(hand(side)), MAX_HAND),
                o.implies(first, o.le(s.i(hand(side)), START_HAND[side])),
            ]
        )
        for side in SIDES
    )


def _held(m: Model, o: Ops[B, I], s: Frame[B, I]) -> B:
    """The lemma behind RKS-P-HAND: the same bounds hold of each hand with its cards on the
    combat table (which may go back to it, AMB-RKS-7 ii)."""
    first = Model.first_turn(o, s)
    return o.all(
        o.all(
            [
                o.le(m.held_cards(o, s, side), MAX_HAND),
                o.implies(first, o.le(m.held_cards(o, s, side), START_HAND[side])),
            ]
        )
        for side in SIDES
    )


def _rear(m: Model, o: Ops[B, I], s: Frame[B, I]) -> B:
    """RKS-3.5.1: no unit is in the enemy Rear."""
    return o.all(o.not_(o.eq(s.i(at(u)), m.enemy_rear[u])) for u in m.units)


def _result(m: Model, o: Ops[B, I], s: Frame[B, I]) -> B:
    """RKS-4.1.1: a result is the victory condition's: the German's exactly when he controls the
    three arrow Areas, else the Soviet's (never a draw), worded as RKS-4.1.1 words it."""
    won = s.i("won")
    return o.implies(
        o.not_(o.eq(won, 0)),
        o.all(
            [
                s.b("worded"),
                o.eq(won, o.ite(m.germans_hold(o, s), WINNERS[GE], WINNERS["SU"])),
            ]
        ),
    )


def _faces(m: Model, o: Ops[B, I], s: Frame[B, I]) -> B:
    """RKS-3.3.3, RKS-3.4.3, RKS-8.7.1: the face-up cards are out of play (all of them under
    discard_faces=face_up, none under face_down); exposed cards are step cards, and exist only
    under played_step=returned; removed cards only under used_steps=removed; none of these
    piles holds a card that is none of the 52."""
    out = [o.eq(s.i(STRAY), 0)]
    for c in m.cards:
        up, gone_out, gone, exp, step = (s.b(face(k, c)) for k in FACE_KINDS)
        out += [o.implies(up, gone_out), o.implies(exp, step)]
        if m.faces == "face_up":
            out.append(o.implies(gone_out, up))
        if m.faces == "face_down":
            out.append(o.not_(up))
        if not m.returned:
            out.append(o.not_(exp))
        if not m.removing:
            out.append(o.not_(gone))
    return o.all(out)


def _units(m: Model, o: Ops[B, I], s: Frame[B, I]) -> B:
    """RKS-3.1.1, RKS-3.2.1, RKS-6.1.1, RKS-6.2.1, RKS-8.9.2, RKS-3.3.2: each unit is recorded
    eliminated at most once, in a Turn played since it arrived, and then is off the map; off the
    map it holds no steps and no markers, and it is eliminated, a Rifle still to be placed, or
    still to come; on the map it has arrived."""
    turn, out = s.i("turn"), []
    for u in m.units:
        here, gone, when = s.i(at(u)), s.i(elim(u)), s.i(eturn(u))
        arrives = m.arrives[u]
        off = o.eq(here, 0)
        to_come = o.lit(False) if arrives is None else o.lt(turn, arrives)
        placed_later = s.b("placing") if u in m.rifles else o.lit(False)
        out += [
            o.le(gone, 1),
            o.implies(o.eq(gone, 1), o.all([o.le(when, turn), o.le(arrives or 1, when), off])),
            o.implies(off, o.all([o.eq(s.i(steps(u)), 0), o.not_(m.marked(o, s, u))])),
            o.implies(off, o.any([o.eq(gone, 1), placed_later, to_come])),
            o.implies(o.not_(off), o.not_(to_come)),
        ]
    return o.all(out)


def _control(m: Model, o: Ops[B, I], s: Frame[B, I]) -> B:
    """RKS-3.6.1, RKS-3.6.2, RKS-3.6.3, RKS-8.10.6: each Stalingrad Area's control is as its
    counted units make it (`Model.area_settled`), and no unit is isolated in a Rear or where its
    own side controls."""
    return o.all(
        [
            *(m.area_settled(o, s, a) for a in m.stalingrad),
            *(m.isolation_settled(o, s, u) for u in m.units),
        ]
    )


def _flipped(m: Model, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> B:
    """RKS-7.4.2, RKS-7.5.2, RKS-8.12.4, RKS-10.3.1, RKS-9.8.2: no unit that acts in a step (is
    designated, recruits or moves along) is flipped before it."""
    return o.all(o.implies(n.b(acts(u)), o.not_(s.b(flip(u)))) for u in m.units)


def _measure(m: Model, o: Ops[B, I], s: Frame[B, I]) -> I:
    """`specs.rattenkrieg.properties.loop_measure`: face-up units on the map, plus hand cards,
    plus hand cards on the combat table."""
    return o.add([m.face_ups(o, s), *(m.held_cards(o, s, side) for side in SIDES)])


def _loop(m: Model, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> B:
    """RKS-5.1.2, RKS-7.4.1, RKS-9.8.2: no step of the Player Turn loop (within one Turn)
    raises the measure."""
    return o.implies(m.in_the_loop(o, s, n), o.le(_measure(m, o, n), _measure(m, o, s)))
