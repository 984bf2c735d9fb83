"""Rattenkrieg's formal statements of the position (cards, steps, hands, faces, the Rears, units,
result, control, flips, the loop's measure, events in force), read over the projection of
`specs.rattenkrieg.formal.symbolic`; `specs.rattenkrieg.formal.verification.formal` lists them and
its docstring argues why each implies its property. The stages' statements are in
`statements_stages`."""

from __future__ import annotations

from solvers.checking.terms import B, Frame, I, Ops
from specs.rattenkrieg.formal.symbolic import Model
from specs.rattenkrieg.formal.symbolic_state import (
    ALIEN,
    BOMBARDED,
    CONTROLLERS,
    EVENT_KINDS,
    EVENT_SIDE,
    FACE_KINDS,
    FIGHTS,
    OTHER_EVENT,
    STAGES,
    STRAY,
    WINNERS,
    acts,
    at,
    card,
    ceff,
    eff,
    elim,
    eturn,
    face,
    flip,
    hand,
    steps,
)
from specs.rattenkrieg.rules.cards import MAX_HAND
from specs.rattenkrieg.rules.sequence import START_HAND
from specs.rattenkrieg.rules.state import GE, SIDES, Stage


def cards(m: Model, o: Ops[B, I], s: Frame[B, I]) -> B:
    """RKS-2.4.1, RKS-3.4.2: each of the 52 cards lies in exactly one place, and no other card
    lies anywhere."""
    return o.all([*(o.eq(s.i(card(c)), 1) for c in m.cards), o.eq(s.i(ALIEN), 0)])


def step_cards(m: Model, o: Ops[B, I], s: Frame[B, I]) -> B:
    """RKS-3.3.1, RKS-7.5.3, RKS-8.12.1: no unit holds more step cards than at set-up."""
    return o.all(o.le(s.i(steps(u)), m.most_steps[u]) for u in m.units)


def hands(o: Ops[B, I], s: Frame[B, I]) -> B:
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


def held(m: Model, o: Ops[B, I], s: Frame[B, I]) -> B:
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


def rear(m: Model, o: Ops[B, I], s: Frame[B, I]) -> B:
    """RKS-3.5.1: no unit is in the enemy Rear."""
    return o.all(o.not_(o.eq(s.i(at(u)), m.enemy_rear[u])) for u in m.units)


def result(m: Model, o: Ops[B, I], s: Frame[B, I]) -> B:
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


def faces(m: Model, o: Ops[B, I], s: Frame[B, I]) -> B:
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


def units(m: Model, o: Ops[B, I], s: Frame[B, I]) -> B:
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


def control(m: Model, o: Ops[B, I], s: Frame[B, I]) -> B:
    """RKS-3.6.1, RKS-3.6.2, RKS-3.6.3, RKS-8.10.6: each Stalingrad Area's control is as its
    counted units make it (`Model.area_settled`), and no unit is isolated in a Rear or where its
    own side controls."""
    return o.all(
        [
            *(m.area_settled(o, s, a) for a in m.stalingrad),
            *(m.isolation_settled(o, s, u) for u in m.units),
        ]
    )


def flipped(m: Model, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> B:
    """RKS-7.4.2, RKS-7.5.2, RKS-8.12.4, RKS-10.3.1, RKS-9.8.2: no unit that acts in a step (is
    designated, recruits or moves along) is flipped before it."""
    return o.all(o.implies(n.b(acts(u)), o.not_(s.b(flip(u)))) for u in m.units)


def _measure(m: Model, o: Ops[B, I], s: Frame[B, I]) -> I:
    """`specs.rattenkrieg.formal.properties.loop_measure`: face-up units on the map, plus hand
    cards,
    plus hand cards on the combat table."""
    return o.add([m.face_ups(o, s), *(m.held_cards(o, s, side) for side in SIDES)])


def loop(m: Model, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> B:
    """RKS-5.1.2, RKS-7.4.1, RKS-9.8.2: no step of the Player Turn loop (within one Turn)
    raises the measure."""
    return o.implies(m.in_the_loop(o, s, n), o.le(_measure(m, o, n), _measure(m, o, s)))


def effects(m: Model, o: Ops[B, I], s: Frame[B, I]) -> B:
    """RKS-9.1.1, RKS-9.1.2, RKS-9.4.1, RKS-9.5.1, RKS-9.7.1, RKS-9.8.1, RKS-8.7.4
    (`invariants_operations.effects_fit`): the events in force are the player's, the Assault Gun
    never for a Panzer Division; in a combat none of the 'next combat' ones stay out of it, and its
    own are the attacker's 'next combat' events, none after a refought tie under
    effect_duration=first_round, none in a bombarded unit's record; of each event at most two cards
    (one under effect_stacking=once) are in force; and no other effect is."""
    most = 1 if m.stacking_once else 2
    fight, attacker = s.i("fight"), s.i("attacker")
    none_in_combat = o.all(o.eq(s.i(ceff(k)), 0) for k in EVENT_KINDS)
    # RKS-8.11.2 (reattack_events=effects): events played before the re-attack wait for it
    waiting = o.all([o.lit(m.reattack_events), o.eq(s.i("stage"), STAGES.index(Stage.CONTINUE))])
    ready = o.not_(waiting)
    out = [
        o.eq(s.i(eff(OTHER_EVENT)), 0),
        o.eq(s.i(ceff(OTHER_EVENT)), 0),
        o.eq(s.i(ceff("assault_gun")), 0),
        o.implies(
            o.lt(0, s.i(eff("assault_gun"))),
            o.not_(o.among(s.i("acting"), [o.num(p) for p in m.panzers])),
        ),
        o.implies(o.eq(fight, 0), none_in_combat),
        o.implies(o.eq(fight, BOMBARDED), none_in_combat),
    ]
    if m.first_round:
        out.append(o.implies(s.b("refight"), none_in_combat))
    for k, side in EVENT_SIDE.items():
        out += [
            o.implies(o.lt(0, s.i(eff(k))), o.eq(s.i("player"), CONTROLLERS[side])),
            o.implies(o.lt(0, s.i(ceff(k))), o.eq(attacker, CONTROLLERS[side])),
            o.le(o.add([s.i(eff(k)), s.i(ceff(k))]), most),
        ]
        if k != "assault_gun":
            out.append(
                o.implies(o.all([o.eq(fight, FIGHTS["combat"]), ready]), o.eq(s.i(eff(k)), 0))
            )
    return o.all(out)
