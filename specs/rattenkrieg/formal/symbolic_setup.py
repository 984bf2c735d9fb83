"""Set-up in Rattenkrieg's abstraction (`symbolic`, RKS-3.1.1 to RKS-3.4.2): what RKS-P-SETUP states
of it over the model (`set_up`), and the step rules of the placing of the Rifles and the deal
(`setup_rules`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solvers.checking.system import Conjunct
from solvers.checking.terms import B, Frame, I, Ops
from specs.rattenkrieg.formal.symbolic_state import (
    CONTROLLERS,
    DRAW,
    PLACE,
    SETUP,
    STRAY,
    at,
    ctl,
    elim,
    face,
    hand,
    steps,
)
from specs.rattenkrieg.rules.state import SIDES, SU, DrawFor

if TYPE_CHECKING:
    from specs.rattenkrieg.formal.symbolic import Model


def waiting(m: Model, target: DrawFor, left: int) -> int:
    """How many of the last `left` draws of the deal go to `target`."""
    return m.deal[len(m.deal) - left :].count(target)


def dealt_to(m: Model, o: Ops[B, I], f: Frame[B, I], target: DrawFor) -> B:
    """`target` holds what the deal gives it but for the draws still queued (`ndraws` of
    them, the deal's last ones)."""
    want = m.deal.count(target)
    held = f.i(steps(target.who)) if target.kind == "steps" else f.i(hand(target.who))
    return o.case(
        f.i("ndraws"),
        lambda left: o.eq(held, want - waiting(m, target, left)),
        range(len(m.deal) + 1),
    )


def rifle_due(m: Model, o: Ops[B, I], f: Frame[B, I]) -> B:
    """`sequence.rifle_to_place`: a Rifle is off the map (with no more Rifles than Normal
    Areas, a Normal Area is free)."""
    return o.any(o.eq(f.i(at(r)), 0) for r in m.rifles)


def rifles_held(m: Model, o: Ops[B, I], f: Frame[B, I], where: int) -> I:
    return o.count(o.eq(f.i(at(r)), where) for r in m.rifles)


def rifles_in_order(m: Model, o: Ops[B, I], f: Frame[B, I]) -> B:
    """RKS-3.1.1: the Rifles on the map hold the first Normal Areas, one each."""
    held = [rifles_held(m, o, f, a) for a in m.normal]
    out = [o.le(h, 1) for h in held]
    out += [o.le(held[i + 1], held[i]) for i in range(len(held) - 1)]
    out += [
        o.any([o.eq(f.i(at(r)), 0), o.among(f.i(at(r)), [o.num(a) for a in m.normal])])
        for r in m.rifles
    ]
    return o.all(out)


def set_up(m: Model, o: Ops[B, I], f: Frame[B, I]) -> B:
    """`invariants_draws.set_up` over the model: in set-up nothing is eliminated, discarded,
    removed, exposed or face up, the Soviets control every Area, the units stand where
    they start and the Rifles on the first Normal Areas; while placing, a Rifle is still to
    place and nothing is dealt; then the deal is queued in order and each unit and hand
    holds what it was dealt so far; and set-up has no other stage."""
    stage = f.i("stage")
    targets = dict.fromkeys(m.deal)
    return o.implies(
        o.eq(f.i("phase"), SETUP),
        o.all(
            [
                o.any([o.eq(stage, PLACE), o.eq(stage, DRAW)]),
                o.eq(f.i(STRAY), 0),
                *(o.eq(f.i(elim(u)), 0) for u in m.units),
                *(o.not_(f.b(face(k, c))) for c in m.cards for k in ("up", "out", "gone", "exp")),
                *(o.eq(f.i(ctl(a)), CONTROLLERS[SU]) for a in m.stalingrad),
                *(o.eq(f.i(at(u)), m.setup_area[u]) for u in m.units if u not in m.rifles),
                rifles_in_order(m, o, f),
                o.implies(
                    o.eq(stage, PLACE),
                    o.all(
                        [
                            rifle_due(m, o, f),
                            *(o.eq(f.i(steps(u)), 0) for u in m.units),
                            *(o.eq(f.i(hand(side)), 0) for side in SIDES),
                        ]
                    ),
                ),
                o.implies(
                    o.not_(o.eq(stage, PLACE)),
                    o.all(
                        [
                            o.not_(rifle_due(m, o, f)),
                            f.b("dealing"),
                            *(dealt_to(m, o, f, d) for d in targets),
                        ]
                    ),
                ),
            ]
        ),
    )


def setup_rules(m: Model, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> list[Conjunct[B]]:
    """What the steps of set-up do (`sequence.place`, `sequence.deal_card`): a placing puts
    one Rifle on the first free Normal Area and moves no card; the deal gives the head of
    its queue one card; neither eliminates, discards or turns a card, nor changes control;
    and set-up is entered only from itself."""
    setup = o.eq(s.i("phase"), SETUP)
    kept = _kept(m, o, s, n)
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
            lambda: _placing(m, o, s, n, kept),
        ),
        Conjunct(
            "RKS-3.3.1",
            "a step of the deal gives the head of its queue (a unit's steps, then the hands: "
            "RKS-3.4.1) one card and moves nothing else; set-up goes on with the rest of the "
            "queue",
            lambda: _dealing(m, o, s, n, kept),
        ),
    ]


def _kept(m: Model, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> list[B]:
    """What no step of set-up changes: no unit is eliminated, no card discarded, removed,
    exposed or turned, and control stays (RKS-3.1.1, RKS-3.3.1, RKS-3.6.1)."""
    return [
        *(o.eq(n.i(elim(u)), s.i(elim(u))) for u in m.units),
        *(
            o.iff(n.b(face(k, c)), s.b(face(k, c)))
            for c in m.cards
            for k in ("up", "out", "gone", "exp")
        ),
        *(o.eq(n.i(ctl(a)), s.i(ctl(a))) for a in m.stalingrad),
    ]


def _placing(m: Model, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I], kept: list[B]) -> B:
    """RKS-3.1.1: a step of the placing puts at most one Rifle, from off the map, on the first
    Normal Area without one, and moves nothing else; the placing goes on while a Rifle is left,
    then the whole deal is queued."""
    free = [o.eq(rifles_held(m, o, s, a), 0) for a in m.normal]
    moved = o.count(o.not_(o.eq(n.i(at(r)), s.i(at(r)))) for r in m.rifles)
    return o.implies(
        o.all([o.eq(s.i("phase"), SETUP), o.eq(s.i("stage"), PLACE)]),
        o.all(
            [
                *kept,
                o.eq(n.i("phase"), SETUP),
                *(o.eq(n.i(at(u)), s.i(at(u))) for u in m.units if u not in m.rifles),
                *(o.eq(n.i(steps(u)), s.i(steps(u))) for u in m.units),
                *(o.eq(n.i(hand(side)), s.i(hand(side))) for side in SIDES),
                o.le(moved, 1),
                *(_placed(m, o, s, n, r, free) for r in m.rifles),
                o.iff(o.eq(n.i("stage"), PLACE), rifle_due(m, o, n)),
                o.implies(
                    o.not_(o.eq(n.i("stage"), PLACE)),
                    o.all(
                        [
                            o.eq(n.i("stage"), DRAW),
                            n.b("dealing"),
                            o.eq(n.i("ndraws"), len(m.deal)),
                        ]
                    ),
                ),
            ]
        ),
    )


def _placed(m: Model, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I], r: str, free: list[B]) -> B:
    """Rifle `r`, if it moves, comes from off the map to the first free Normal Area (`free`:
    whether each Normal Area is free before the step)."""
    first = [
        o.implies(
            o.eq(n.i(at(r)), a),
            o.all([free[i], *(o.not_(x) for x in free[:i])]),
        )
        for i, a in enumerate(m.normal)
    ]
    return o.implies(
        o.not_(o.eq(n.i(at(r)), s.i(at(r)))),
        o.all(
            [
                o.eq(s.i(at(r)), 0),
                o.among(n.i(at(r)), [o.num(a) for a in m.normal]),
                *first,
            ]
        ),
    )


def _dealing(m: Model, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I], kept: list[B]) -> B:
    """RKS-3.3.1, RKS-3.4.1: a step of the deal gives the head of its queue one card and moves
    nothing else; set-up goes on with the rest of the queue."""
    return o.implies(
        o.all([o.eq(s.i("phase"), SETUP), o.eq(s.i("stage"), DRAW)]),
        o.all(
            [
                *kept,
                *(o.eq(n.i(at(u)), s.i(at(u))) for u in m.units),
                *(_gains(m, o, s, n, steps(u), DrawFor("steps", u)) for u in m.units),
                *(_gains(m, o, s, n, hand(side), DrawFor("hand", side)) for side in SIDES),
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


def _gains(m: Model, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I], held: str, target: DrawFor) -> B:
    """The variable `held` (`target`'s steps or hand) gains a card if it heads the queue."""
    heads = [
        o.num(left) for left in range(1, len(m.deal) + 1) if m.deal[len(m.deal) - left] == target
    ]
    return o.eq(n.i(held), o.add([s.i(held), o.ite(o.among(s.i("ndraws"), heads), 1, 0)]))
