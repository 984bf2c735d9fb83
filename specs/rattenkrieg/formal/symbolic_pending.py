"""The move waiting for its card in Rattenkrieg's abstraction (`symbolic`, RKS-7.3.1): what
RKS-P-PAY states of it over the model (`pending_fits`), and the step rules that make it and pay
for it (`pending_rules`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solvers.checking.system import Conjunct
from solvers.checking.terms import B, Frame, I, Ops
from specs.rattenkrieg.formal.symbolic_state import CONTROLLERS, at, ctl, flip, hand, iso, steps
from specs.rattenkrieg.rules.state import GE, SU

if TYPE_CHECKING:
    from specs.rattenkrieg.formal.symbolic import Model


def player_hand(m: Model, o: Ops[B, I], f: Frame[B, I]) -> I:
    """How many cards the player holds."""
    return o.ite(o.eq(f.i("player"), CONTROLLERS[GE]), f.i(hand(GE)), f.i(hand(SU)))


def payments_due(m: Model, o: Ops[B, I], f: Frame[B, I]) -> I:
    """`activation.payments_for`: one card, two when a T-34 moving along pays its own
    (t34_escort=flipped_paid_each, AMB-RKS-15 iv)."""
    if not m.paid_each:
        return o.num(1)
    return o.ite(o.eq(f.i("escort"), 0), 1, 2)


def pending_fits(m: Model, o: Ops[B, I], f: Frame[B, I]) -> B:
    """`invariants_operations.pending_fits` over the model: a move waiting for its card is the
    player's acting unit's, not isolated (RKS-8.10.3), into an adjacent Stalingrad Area
    its side does not control and no enemy unit is in (RKS-7.2.1, RKS-7.3.1); a T-34
    moving along is a face-up, not isolated Soviet T-34 of the mover's Area (RKS-8.12.4);
    one or two payments are due, and there are cards to make them (`move_problem`,
    `pay_problem`: the T-34's payment is a hand card)."""
    pto, escort, due = f.i("pto"), f.i("escort"), payments_due(m, o, f)
    hand_now = player_hand(m, o, f)

    def mover(u: str) -> B:
        side = m.side[u]
        return o.all(
            [
                o.eq(f.i("player"), CONTROLLERS[side]),
                o.not_(f.b(iso(u))),
                *(
                    o.implies(o.eq(f.i(at(u)), i), o.among(pto, [o.num(x) for x in near]))
                    for i, near in m.adjacent.items()
                ),
                o.not_(o.eq(f.i(at(u)), 0)),
                *(o.not_(o.eq(f.i(at(v)), pto)) for v in m.units if m.side[v] != side),
                o.implies(
                    o.not_(o.eq(escort, 0)),
                    o.any(
                        o.all(
                            [
                                o.eq(escort, m.unit_number[t]),
                                o.lit(t != u and side == SU),
                                o.eq(f.i(at(t)), f.i(at(u))),
                                o.not_(f.b(flip(t))),
                                o.not_(f.b(iso(t))),
                            ]
                        )
                        for t in m.tanks
                    ),
                ),
                o.le(f.i("payments"), o.add([hand_now, f.i(steps(u))])),
            ]
        )

    return o.implies(
        f.b("pending"),
        o.all(
            [
                m.acting_is(o, f, mover),
                *(
                    o.implies(o.eq(pto, m.areas[a]), o.not_(o.eq(f.i(ctl(a)), f.i("player"))))
                    for a in m.stalingrad
                ),
                o.le(1, f.i("payments")),
                o.le(f.i("payments"), due),
                o.implies(o.eq(due, 2), o.le(1, hand_now)),
            ]
        ),
    )


def pending_rules(m: Model, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> list[Conjunct[B]]:
    """What a step does to a move waiting for its card (RKS-7.3.1): the Move action makes
    one only as `activation.move_problem` allows it (stated of the position it leaves,
    which the Move changes in nothing else: a restatement of those checks), and while it
    waits the only step is a payment (`activation.pay`): one card, the player's or the
    acting unit's step, the second of two leaving a hand card for the T-34's."""
    kept = [
        *(o.eq(n.i(v), s.i(v)) for v in ("pto", "escort", "acting", "player")),
        *(o.eq(n.i(at(u)), s.i(at(u))) for u in m.units),
        *(o.iff(n.b(flip(u)), s.b(flip(u))) for u in m.units),
        *(o.iff(n.b(iso(u)), s.b(iso(u))) for u in m.units),
        *(o.eq(n.i(ctl(a)), s.i(ctl(a))) for a in m.stalingrad),
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
                        pending_fits(m, o, n),
                        o.eq(n.i("payments"), payments_due(m, o, n)),
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
                        o.le(1, player_hand(m, o, n)),
                    ]
                ),
            ),
        ),
    ]
