"""A declaration in an RKS-P-COMBAT round over Rattenkrieg's abstraction (`combat.play`,
RKS-8.4.1): the step rule `declared` with its terms (`_Declaration`), and `same_slot`, the
comparison of two places on the table the other step rules share. They are apart from the other
step rules of `specs.rattenkrieg.formal.symbolic_combat_rules` (whose docstring states what a
declaration does) so that each module keeps one job.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Generic

from solvers.checking.terms import B, Frame, I, Ops
from specs.rattenkrieg.formal.symbolic_combat import (
    ATTACK,
    COMBAT_STAGE,
    DEFENCE,
    GE_N,
    RAISE,
    SU_N,
    Reading,
    slot,
    stay,
)
from specs.rattenkrieg.formal.symbolic_combatants import supporters
from specs.rattenkrieg.formal.symbolic_state import FIGHTS, at, ceff, hand, iso, steps
from specs.rattenkrieg.rules.state import GE, SU

if TYPE_CHECKING:
    from specs.rattenkrieg.formal.symbolic import Model


def same_slot(o: Ops[B, I], f: Frame[B, I], x: str, g: Frame[B, I], y: str) -> B:
    """Card `x` of `f` is card `y` of `g`."""
    return o.all(
        [
            o.iff(f.b(slot(x, "on")), g.b(slot(y, "on"))),
            o.eq(f.i(slot(x, "side")), g.i(slot(y, "side"))),
            o.eq(f.i(slot(x, "from")), g.i(slot(y, "from"))),
            o.iff(f.b(slot(x, "open")), g.b(slot(y, "open"))),
        ]
    )


def declared(m: Model, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> B:
    """One declaration (`combat.play`, RKS-8.4.1): the step from `s` to `n` puts the mover's
    card down in its place (`_Declaration.put`), passes the step and the raise on
    (`passed_on`) and lets the T-34 join (`supported`); the rest of the record, the units, the
    other fighter's steps and the other side's hand stay."""
    d = _Declaration(m, o, s, n)
    r, step, mover, mine = d.r, d.step, d.mover, d.mine
    return o.all(
        [
            o.eq(s.i("fight"), FIGHTS["combat"]),
            o.eq(s.i("stage"), COMBAT_STAGE),
            o.among(step, [o.num(ATTACK), o.num(DEFENCE), o.num(RAISE)]),
            *(o.eq(n.i(v), s.i(v)) for v in ("attacker", "cunit", "cdef", "carea", "closer")),
            o.iff(n.b("refight"), s.b("refight")),
            o.eq(n.i(ceff("chuikov")), s.i(ceff("chuikov"))),
            o.iff(n.b("ciso"), s.b("ciso")),
            *(o.iff(n.b(stay(u)), s.b(stay(u))) for u in m.units),
            o.implies(mine, d.put("atk", "dfc")),
            o.implies(o.not_(mine), d.put("dfc", "atk")),
            *d.passed_on(),
            d.supported(),
            *(o.eq(n.i(at(u)), s.i(at(u))) for u in m.units),
            *(o.iff(n.b(iso(u)), s.b(iso(u))) for u in m.units),
            r.units(d.other_fighter, lambda u: o.eq(n.i(steps(u)), s.i(steps(u)))),
            o.eq(
                o.ite(o.eq(mover, GE_N), n.i(hand(SU)), n.i(hand(GE))),
                o.ite(o.eq(mover, GE_N), s.i(hand(SU)), s.i(hand(GE))),
            ),
        ]
    )


class _Declaration(Generic[B, I]):
    """The terms of one declaration from `s` to `n` (`declared`): the step, who moves (the
    attacker, the defender, or the raiser), into which place, and with which fighter."""

    def __init__(self, m: Model, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> None:
        self.m, self.o, self.s, self.n = m, o, s, n
        self.r, self.rn = Reading(m, o, s), Reading(m, o, n)
        r = self.r
        self.step = step = s.i("cstep")
        self.raising = o.eq(step, RAISE)
        self.mover = o.ite(
            o.eq(step, ATTACK), r.a, o.ite(o.eq(step, DEFENCE), r.other(r.a), s.i("craiser"))
        )
        self.mine = o.eq(self.mover, r.a)  # the attack's place
        self.fighter = o.ite(self.mine, s.i("cunit"), s.i("cdef"))
        self.other_fighter = o.ite(self.mine, s.i("cdef"), s.i("cunit"))

    def put(self, x: str, y: str) -> B:
        """RKS-8.4.1, RKS-8.10.4, RKS-8.12.2, RKS-9.8.1: the mover's card lies in place `x` (the
        other place `y` unchanged), its own, from its hand (its fighter not isolated) or its
        fighter's steps, open exactly when General Chuikov makes the German show it; a raise
        spends the card it replaces."""
        m, o, s, n, r = self.m, self.o, self.s, self.n, self.r
        mover, fighter, raising = self.mover, self.fighter, self.raising
        origin = n.i(slot(x, "from"))
        with_steps = [o.num(m.unit_number[u]) for u in m.units if m.most_steps[u]]
        return o.all(
            [
                same_slot(o, n, y, s, y),
                n.b(slot(x, "on")),
                o.eq(n.i(slot(x, "side")), mover),
                o.iff(
                    n.b(slot(x, "open")),
                    o.all(
                        [
                            o.eq(mover, GE_N),
                            r.chuikov,
                            o.any([o.not_(raising), r.german_first]),
                        ]
                    ),
                ),
                o.implies(
                    o.eq(origin, 0),
                    o.all(
                        [
                            r.units(fighter, lambda u: o.not_(s.b(iso(u)))),
                            o.le(1, o.ite(o.eq(mover, GE_N), s.i(hand(GE)), s.i(hand(SU)))),
                        ]
                    ),
                ),
                o.implies(
                    o.not_(o.eq(origin, 0)),
                    o.all(
                        [
                            o.eq(origin, fighter),
                            o.among(origin, with_steps),
                            r.units(origin, lambda u: o.le(1, s.i(steps(u)))),
                        ]
                    ),
                ),
                # the spent card: the raiser's card replaced
                o.implies(
                    raising,
                    o.all(
                        [
                            o.implies(o.eq(s.i("cspent"), 0), same_slot(o, n, "sp0", s, x)),
                            o.implies(o.le(1, s.i("cspent")), same_slot(o, n, "sp0", s, "sp0")),
                        ]
                    ),
                ),
            ]
        )

    def passed_on(self) -> list[B]:
        """RKS-8.3.1, RKS-8.6.1, RKS-8.6.2: a raise counts one raise and one spent card and
        passes the raise to the other side, only the first answered by a raise under
        raising=one_each; otherwise the next step follows RKS-8.3.1 (the German first under
        General Chuikov)."""
        m, o, s, n, r = self.m, self.o, self.s, self.n, self.r
        step, raising = self.step, self.raising
        one_each = o.lit(m.variant.is_("raising", "one_each"))
        nxt: list[tuple[int, bool, int, I]] = [
            # (from, chuikov) -> (step, raiser)
            (ATTACK, False, DEFENCE, o.num(0)),
            (ATTACK, True, RAISE, r.first),
            (DEFENCE, False, RAISE, r.first),
            (DEFENCE, True, ATTACK, o.num(0)),
        ]
        return [
            o.implies(
                raising,
                o.all(
                    [
                        o.implies(one_each, o.eq(s.i("craises"), 0)),
                        o.eq(n.i("craises"), o.add([s.i("craises"), 1])),
                        o.eq(n.i("cspent"), o.add([s.i("cspent"), 1])),
                        o.eq(n.i("cstep"), RAISE),
                        o.eq(n.i("craiser"), r.other(self.mover)),
                    ]
                ),
            ),
            o.implies(
                o.not_(raising),
                o.all(
                    [
                        o.eq(n.i("craises"), s.i("craises")),
                        o.eq(n.i("cspent"), s.i("cspent")),
                        same_slot(o, n, "sp0", s, "sp0"),
                        *(
                            o.implies(
                                o.all([o.eq(step, a), o.iff(r.chuikov, o.lit(ch))]),
                                o.all([o.eq(n.i("cstep"), b), o.eq(n.i("craiser"), w)]),
                            )
                            for a, ch, b, w in nxt
                        ),
                    ]
                ),
            ),
        ]

    def supported(self) -> B:
        """RKS-8.12.3: the T-34 joins only with a Soviet card, from the Area, not the Soviet
        fighter, and in attack only under t34_support=attack_and_defence."""
        m, o, s, n, r, rn = self.m, self.o, self.s, self.n, self.r, self.rn
        mover = self.mover
        defence_only = o.lit(m.variant.is_("t34_support", "defence_only"))
        support_changed = o.not_(o.eq(n.i("csup"), s.i("csup")))
        su_fighter = r.fighter(o.num(SU_N))
        return o.implies(
            support_changed,
            o.all(
                [
                    o.eq(mover, SU_N),
                    o.not_(o.eq(n.i("csup"), 0)),
                    o.among(n.i("csup"), supporters(m, o)),
                    rn.in_area(n.i("csup")),
                    o.not_(o.eq(n.i("csup"), su_fighter)),
                    o.not_(o.all([o.eq(mover, r.a), defence_only])),
                ]
            ),
        )
