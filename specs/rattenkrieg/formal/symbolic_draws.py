"""The queued draws in Rattenkrieg's abstraction (`symbolic`; RKS-3.4.3, RKS-6.1.2, RKS-6.2.2,
RKS-7.5.1, RKS-9.2.1, RKS-10.1.2): what RKS-P-DRAWS states of them over the model (`draws_fit`),
what a bombardment or Air Force Support may strike (`struck`), and the step rules that queue and
take the draws (`draw_rules`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from solvers.checking.system import Conjunct
from solvers.checking.terms import B, Frame, I, Ops
from specs.rattenkrieg.formal.symbolic_state import (
    CONTROLLERS,
    DRAW,
    DRAW_KINDS,
    PLAYER_TURNS,
    RECRUITING,
    REINFORCEMENT,
    at,
    ctl,
    flip,
    hand,
    iso,
    steps,
)
from specs.rattenkrieg.rules import sequence
from specs.rattenkrieg.rules.sequence import LAST_TURN
from specs.rattenkrieg.rules.state import GE, SIDES, SU, DrawFor

if TYPE_CHECKING:
    from specs.rattenkrieg.formal.symbolic import Model


def queue_dealt(m: Model, o: Ops[B, I], f: Frame[B, I], queue: tuple[DrawFor, ...]) -> B:
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


def occupies(m: Model, o: Ops[B, I], f: Frame[B, I], side: str) -> B:
    """`control.occupies`: `side` occupies Mamayev Kurgan by the reading of occupying
    (AMB-RKS-17)."""
    if m.occupying == "controls":
        return o.eq(f.i(ctl(m.mk)), CONTROLLERS[side])
    if m.occupying == "present":
        return m.present(o, f, m.mk, side)
    where = m.areas[m.mk]
    here = {x: o.any(o.eq(f.i(at(u)), where) for u in m.units if m.side[u] == x) for x in SIDES}
    return o.all([here[side], *(o.not_(here[x]) for x in SIDES if x != side)])


def refilled(m: Model, o: Ops[B, I], f: Frame[B, I]) -> B:
    """`invariants_draws.draws_fit` in the Recruiting Phase: the draws refill the player's hand up
    to its target (3, or 4 for the occupier of Mamayev Kurgan: RKS-10.2.1), or below it
    under refill_amount=partial."""
    out = []
    for side in SIDES:
        target = o.ite(occupies(m, o, f, side), sequence.REFILL_KURGAN, sequence.REFILL)
        filled = o.add([f.i(hand(side)), f.i("ndraws")])
        fits = o.le(filled, target) if m.partial_refill else o.eq(filled, target)
        out.append(o.implies(o.eq(f.i("player"), CONTROLLERS[side]), fits))
    return o.all([f.b("refills"), *out])


def struck(m: Model, o: Ops[B, I], f: Frame[B, I], t: str, air: B) -> B:
    """`t` fits as a bombardment's target (Air Force Support's if `air`): an enemy unit on
    the map in the acting unit's Area or next to it, not in the player's enemy Rear, Air
    Force Support German, the T-34 never bombarded by the Germans (RKS-9.2.1, RKS-9.2.4,
    RKS-9.2.5, RKS-9.3.1)."""
    side = m.side[t]
    enemy = SU if side == GE else GE
    here: I = o.num(0)  # the acting unit's Area, 0 with none acting or off the map
    for u, k in m.unit_number.items():
        here = o.ite(o.eq(f.i("acting"), k), f.i(at(u)), here)
    near = o.any(
        o.all(
            [
                o.eq(here, i),
                o.among(f.i(at(t)), [o.num(i), *(o.num(x) for x in m.adjacent[i])]),
            ]
        )
        for i in m.adjacent
    )
    return o.all(
        [
            o.eq(f.i("player"), CONTROLLERS[enemy]),
            o.not_(o.eq(f.i(at(t)), 0)),
            o.not_(o.eq(f.i(at(t)), m.own_rear[side])),
            o.not_(o.eq(here, 0)),
            near,
            o.implies(air, o.lit(enemy == GE)),
            o.implies(o.not_(air), o.lit(not (enemy == GE and t in m.tanks))),
        ]
    )


def turn_draw_fits(m: Model, o: Ops[B, I], f: Frame[B, I]) -> B:
    """`invariants_draws.draws_fit` in the Player Turns: one draw, a recruit's step (a flipped
    unit of the player in his Rear, below its steps: RKS-7.5.1) or a bombardment's or Air
    Force Support's card against an enemy unit on the map in the acting unit's Area or next
    to it, not in the player's enemy Rear, Air Force Support German, the T-34 never
    bombarded by the Germans (RKS-9.2.1, RKS-9.2.4, RKS-9.2.5, RKS-9.3.1)."""
    kind, who = f.i("dkind"), f.i("dwho")
    kinds = {k: DRAW_KINDS.index(k) + 1 for k in DRAW_KINDS}

    def recruit(u: str) -> B:
        side = m.side[u]
        if m.most_steps[u] == 0:
            return o.lit(False)
        return o.all(
            [
                o.eq(f.i("player"), CONTROLLERS[side]),
                o.eq(f.i(at(u)), m.own_rear[side]),
                f.b(flip(u)),
                o.lt(f.i(steps(u)), m.most_steps[u]),
            ]
        )

    def target(u: str) -> B:
        return struck(m, o, f, u, o.eq(kind, kinds["air_support"]))

    def aimed(make: Callable[[str], B]) -> B:
        return o.any(o.all([o.eq(who, k), make(u)]) for u, k in m.unit_number.items())

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


def arrivals_dealt(m: Model, o: Ops[B, I], f: Frame[B, I]) -> B:
    """`invariants_draws.draws_fit` in a Reinforcement Phase: the draws are the last ones of the
    Turn's arrival queue, and each arriving unit holds its steps but for those
    (RKS-6.1.2, RKS-6.2.2)."""
    return o.all(
        [
            f.b("arrivals"),
            *(
                o.implies(o.eq(f.i("turn"), t), queue_dealt(m, o, f, q))
                for t, q in m.arrivals.items()
            ),
            o.implies(o.lt(f.i("turn"), 2), o.lit(False)),
            o.implies(o.lt(LAST_TURN, f.i("turn")), o.lit(False)),
        ]
    )


def draws_fit(m: Model, o: Ops[B, I], f: Frame[B, I]) -> B:
    """`invariants_draws.draws_fit` over the model: in the draw stage the deck has a card, and
    the draws are the phase's (`arrivals_dealt`, `refilled`, `turn_draw_fits`)."""
    phase = f.i("phase")
    return o.implies(
        o.eq(f.i("stage"), DRAW),
        o.all(
            [
                o.le(1, f.i("deck")),
                o.implies(o.eq(phase, REINFORCEMENT), arrivals_dealt(m, o, f)),
                o.implies(o.eq(phase, RECRUITING), refilled(m, o, f)),
                o.implies(o.eq(phase, PLAYER_TURNS), turn_draw_fits(m, o, f)),
            ]
        ),
    )


def draw_rules(m: Model, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> list[Conjunct[B]]:
    """What the steps do to the queued draws: a step ends in the draw stage only with a card
    in the deck; a Reinforcement Phase opens with its Turn's arrival queue, the arrivals
    holding no steps, and each of its draws deals the head one card; the Recruiting Phase's
    refill is queued as `sequence.discard_hand` queues it (a restatement) and each draw
    gives the hand one card, nothing else changing; a draw of the Player Turns is queued
    only as `activation.recruit_problem` or `eventcards.event_problem` allow it (a
    restatement) and resolved at once."""
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
            lambda: _arrivals_open(m, o, s, n),
        ),
        Conjunct(
            "RKS-6.2.2",
            "a draw of a Reinforcement Phase gives the head of its queue one card, and the "
            "phase goes on with the rest of the queue (RKS-6.1.2, `sequence.deal_card`)",
            lambda: _arrivals_deal(m, o, s, n),
        ),
        Conjunct(
            "RKS-10.1.2",
            "the Recruiting Phase's refill is queued up to the hand's target (below it "
            "under refill_amount=partial: `sequence.discard_hand`, a restatement)",
            lambda: _refill_open(m, o, s, n),
        ),
        Conjunct(
            "RKS-10.2.1",
            "a draw of the Recruiting Phase gives the player's hand one card and changes "
            "nothing that decides the target (the units, Mamayev Kurgan's control)",
            lambda: _refill_draw(m, o, s, n),
        ),
        Conjunct(
            "RKS-7.5.1",
            "a draw of the Player Turns is queued only as a recruit or a bombardment may "
            "make it (`recruit_problem`, `event_problem`: a restatement, RKS-9.2.1) and "
            "resolved at once",
            lambda: _turn_draw(m, o, s, n),
        ),
    ]


def _at_draw(o: Ops[B, I], f: Frame[B, I], phase: int) -> B:
    """The position is in the draw stage of `phase`."""
    return o.all([o.eq(f.i("phase"), phase), o.eq(f.i("stage"), DRAW)])


def _arrivals_open(m: Model, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> B:
    """RKS-6.1.2, RKS-6.2.2: a Reinforcement Phase opens with its Turn's whole arrival queue,
    the arriving units holding no steps."""
    opens = o.all([_at_draw(o, n, REINFORCEMENT), o.not_(_at_draw(o, s, REINFORCEMENT))])
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
        for t, q in m.arrivals.items()
    ]
    turns = [o.num(x) for x in m.arrivals]
    return o.implies(opens, o.all([n.b("arrivals"), o.among(n.i("turn"), turns), *full]))


def _arrivals_deal(m: Model, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> B:
    """RKS-6.2.2: a draw of a Reinforcement Phase gives the head of its queue one card, and the
    phase goes on with the rest of the queue."""
    return o.implies(
        _at_draw(o, s, REINFORCEMENT),
        o.all(
            [
                *(_deal_arrival(o, s, n, t, q) for t, q in m.arrivals.items()),
                o.implies(
                    _at_draw(o, n, REINFORCEMENT),
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


def _refill_open(m: Model, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> B:
    """RKS-10.1.2: the Recruiting Phase's refill is queued up to the hand's target."""
    opens = o.all([_at_draw(o, n, RECRUITING), o.not_(_at_draw(o, s, RECRUITING))])
    return o.implies(opens, refilled(m, o, n))


def _refill_draw(m: Model, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> B:
    """RKS-10.2.1: a draw of the Recruiting Phase gives the player's hand one card and changes
    nothing that decides the target."""
    kept = [
        o.eq(n.i("player"), s.i("player")),
        *(o.eq(n.i(at(u)), s.i(at(u))) for u in m.units),
        *(o.iff(n.b(iso(u)), s.b(iso(u))) for u in m.units),
        o.eq(n.i(ctl(m.mk)), s.i(ctl(m.mk))),
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
    return o.implies(o.all([_at_draw(o, s, RECRUITING), _at_draw(o, n, RECRUITING)]), o.all(kept))


def _turn_draw(m: Model, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> B:
    """RKS-7.5.1, RKS-9.2.1: a draw of the Player Turns is queued only as a recruit or a
    bombardment may make it, and resolved at once."""
    here, there = _at_draw(o, s, PLAYER_TURNS), _at_draw(o, n, PLAYER_TURNS)
    return o.all(
        [
            o.implies(o.all([o.not_(here), there]), turn_draw_fits(m, o, n)),
            o.implies(here, o.not_(there)),
        ]
    )


def _deal_arrival(
    o: Ops[B, I], s: Frame[B, I], n: Frame[B, I], t: int, q: tuple[DrawFor, ...]
) -> B:
    """In Turn `t`, whose arrival queue is `q`, the draw gives the head of the queue one step."""
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
