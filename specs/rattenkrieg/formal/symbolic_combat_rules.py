"""The step rules of RKS-P-COMBAT over Rattenkrieg's abstraction: what a step does to the combat
record's round, table and aftermath, whose variables and formal statement are in
`specs.rattenkrieg.formal.symbolic_combat` (its docstring says what is modelled and why the
statement is inductive with these rules).

**The step rules** (`record_rules`):

- no record, none of its values; a record has a step (the projection's);
- a round begins (`start_combat`, `choose_defender`, `begin_round`, a tie's repeat, RKS-8.2.3,
  RKS-8.3.1, RKS-8.7.4) with the table empty, no loser, raiser, raise or support, nothing
  staying, the attacker in its Area, and either the defender to choose among two enemy units
  or more, or the first declaration due (the attacker's, the German's under General Chuikov)
  with the chosen defender in the Area and a card for the attacker: this restates the checks
  `start_combat`, `choose_defender_problem` and `begin_round` make as play enters a round;
- a declaration (`play`, `symbolic_declaration.declared`, RKS-8.4.1, RKS-8.5.2, RKS-8.6.1,
  RKS-8.6.2, RKS-9.8.1) is the only step that ends in a round with cards on the table: from a
  declaration step of the same record, the side to move puts one card in its place, its own, from
  its hand (its fighter not isolated, RKS-8.10.4) or its fighter's steps (a unit with step cards,
  RKS-8.12.2), open exactly when General Chuikov makes the German show it; the next step follows the
  order of RKS-8.3.1 (the German first under Chuikov); a raise moves the raiser's card to the spent
  ones, counts one raise and passes the raise to the other side, and under raising=one_each only the
  first raise is answered by a raise; the T-34 joins only with a Soviet card, from the Area, not the
  Soviet fighter, and in attack only under t34_support=attack_and_defence (RKS-8.12.3); it moves no
  unit, isolates none, and takes nothing from the other side's hand or the other fighter's steps;
- as play enters the combat's damage (`judge`, `accept`, `begin_round` with an attacker
  without a card, RKS-8.9.1) the table is clear and the loser's fighter is the damaged unit,
  with the attacker and the defender in the Area: a restatement of what these leave;
- a lost step's pick (AMB-RKS-7 iii) follows the damage stage with the record and every unit's
  place unchanged;
- as play enters the continuation (`continuation`, RKS-8.11.2) the table is clear, no loser,
  nothing staying, the attacker in its Area: a restatement of `continuation`'s checks;
- as play enters a combat's remaining units' decisions (`next_isolation`, RKS-8.10.1) the record
  is as `after_damage` leaves it (the defender lost and left the Area, the attacker in it, the
  table clear): a restatement as play enters the stage;
- a bombarded unit's record (AMB-RKS-16, RKS-9.2.2) exists only while its remaining units
  decide, and is opened as play enters their decisions only under bombard_isolation=yes, as
  `_bombard_isolates` opens it (the target gone, a bombarding unit counted in the Area): a
  restatement as play enters the stage;
- a step within the decisions (`apply_isolation`) keeps the record but its staying units and its
  isolation choice, adds to the staying units only remaining units (enemies of the attacker in
  the Area, not isolated), makes the isolation choice only under isolation_choice=all_together,
  moves only a remaining unit not yet staying, and isolates none (the decisions take effect
  together as the stage ends).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solvers.checking.system import Conjunct
from solvers.checking.terms import B, Frame, I, Ops
from specs.rattenkrieg.formal.symbolic_combat import (
    ATTACK,
    CHOOSE,
    COMBAT_STAGE,
    CONTINUE,
    DAMAGE,
    DEFENCE,
    ISOLATION,
    KEPT,
    PICK,
    SLOTS,
    Reading,
    slot,
    stay,
)
from specs.rattenkrieg.formal.symbolic_combat_statement import bombarded, none
from specs.rattenkrieg.formal.symbolic_declaration import declared, same_slot
from specs.rattenkrieg.formal.symbolic_state import BOMBARDED, FIGHTS, at, iso

if TYPE_CHECKING:
    from specs.rattenkrieg.formal.symbolic import Model


def record_rules(m: Model, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> list[Conjunct[B]]:
    """What a step does to the combat record's round, table and aftermath (module docstring)."""
    return [*_round_rules(m, o, s, n), *_result_rules(m, o, s, n), *_isolation_rules(m, o, s, n)]


def _round_rules(m: Model, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> list[Conjunct[B]]:
    """RKS-8.2.2, RKS-8.3.1, RKS-8.4.1: no record, none of its values; a round begins with the
    table empty; a declaration is the only step that ends in a round with cards on the table."""
    rs, rn = Reading(m, o, s), Reading(m, o, n)
    fight = [f.i("fight") for f in (s, n)]
    stage = [f.i("stage") for f in (s, n)]
    combat = FIGHTS["combat"]
    table = [
        o.any([r.on("atk"), r.on("dfc"), o.le(1, f.i("cspent"))]) for r, f in ((rs, s), (rn, n))
    ]
    in_round = o.all([o.eq(fight[1], combat), o.eq(stage[1], COMBAT_STAGE)])
    return [
        Conjunct(
            "RKS-8.2.2",
            "no combat record, none of its step, raiser, raises, loser, staying units or cards; "
            "a record has a step, and a first spent card exactly with spent cards (the "
            "projection's)",
            lambda: o.all(
                [
                    o.implies(o.eq(fight[1], 0), none(m, o, n)),
                    o.implies(o.not_(o.eq(fight[1], 0)), o.le(1, n.i("cstep"))),
                    o.iff(rn.on("sp0"), o.le(1, n.i("cspent"))),
                    *(
                        o.implies(
                            o.not_(rn.on(x)),
                            o.all(
                                [
                                    o.eq(n.i(slot(x, "side")), 0),
                                    o.eq(n.i(slot(x, "from")), 0),
                                    o.not_(n.b(slot(x, "open"))),
                                ]
                            ),
                        )
                        for x in SLOTS
                    ),
                ]
            ),
        ),
        Conjunct(
            "RKS-8.3.1",
            "a round begins with the table empty (`start_combat`, `choose_defender`, "
            "`begin_round`, a tie's repeat): no loser, raiser, raise, support or staying unit, "
            "the attacker in its Area, and the defender to choose among two enemy units or more, "
            "or the first declaration due (the German's under General Chuikov) with the chosen "
            "defender in the Area and a card for the attacker (a restatement of the checks "
            "`start_combat`, `choose_defender_problem` and `begin_round` make as play enters a "
            "round)",
            lambda: o.implies(
                o.all([in_round, o.not_(table[1])]),
                o.all(
                    [
                        *(o.eq(n.i(v), 0) for v in ("closer", "craiser", "craises", "csup")),
                        rn.nobody_stays(),
                        rn.in_area(n.i("cunit")),
                        o.any(
                            [
                                o.all(
                                    [
                                        o.eq(n.i("cstep"), CHOOSE),
                                        o.eq(n.i("cdef"), 0),
                                        o.le(2, rn.enemies_here()),
                                    ]
                                ),
                                o.all(
                                    [
                                        o.eq(n.i("cstep"), o.ite(rn.chuikov, DEFENCE, ATTACK)),
                                        rn.in_area(n.i("cdef")),
                                        rn.has_card(),
                                    ]
                                ),
                            ]
                        ),
                    ]
                ),
            ),
        ),
        Conjunct(
            "RKS-8.4.1",
            "a declaration (`play`) is the only step that ends in a round with cards on the "
            "table: from a declaration step of the same record the side to move puts one card "
            "of its own in its place, from its hand (its fighter not isolated) or its fighter's "
            "steps (a unit with step cards), open exactly when Chuikov makes the German show "
            "it; the next step follows RKS-8.3.1; a raise spends the raiser's card, counts one "
            "raise and passes to the other side, only the first answered by a raise under "
            "raising=one_each; the T-34 joins only with a Soviet card, from the Area, not the "
            "Soviet fighter, in attack only under t34_support=attack_and_defence; no unit moves "
            "or is isolated, and the other side's hand and the other fighter's steps stay",
            lambda: o.implies(o.all([in_round, table[1]]), declared(m, o, s, n)),
        ),
    ]


def _result_rules(m: Model, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> list[Conjunct[B]]:
    """RKS-8.9.1, RKS-8.11.2: as play enters a combat's damage, a lost step's pick or the
    continuation, the record is as the rules leave it."""
    rn = Reading(m, o, n)
    fight = [f.i("fight") for f in (s, n)]
    stage = [f.i("stage") for f in (s, n)]
    combat = FIGHTS["combat"]
    return [
        Conjunct(
            "RKS-8.9.1",
            "as play enters a combat's damage (`judge`, `accept`, `begin_round` with an attacker "
            "without a card) the table is clear, nothing stays, the loser's fighter is the "
            "damaged unit, and the attacker and the defender are in the Area (a restatement of "
            "what these leave as play enters the damage stage)",
            lambda: o.implies(
                o.all([o.eq(fight[1], combat), o.eq(stage[1], DAMAGE)]),
                o.all(
                    [
                        rn.clear(),
                        rn.nobody_stays(),
                        o.not_(o.eq(n.i("closer"), 0)),
                        rn.in_area(n.i("cunit")),
                        rn.in_area(n.i("cdef")),
                        o.eq(
                            n.i("dunit"),
                            o.ite(o.eq(n.i("closer"), rn.a), n.i("cunit"), n.i("cdef")),
                        ),
                    ]
                ),
            ),
        ),
        Conjunct(
            "RKS-8.9.1",
            "a lost step's pick (AMB-RKS-7 iii) follows the combat's damage stage with the "
            "record and every unit's place unchanged (`apply_damage`)",
            lambda: o.implies(
                o.all([o.eq(fight[1], combat), o.eq(stage[1], PICK)]),
                o.all([o.eq(stage[0], DAMAGE), o.eq(n.i("dunit"), s.i("dunit")), kept(m, o, s, n)]),
            ),
        ),
        Conjunct(
            "RKS-8.11.2",
            "as play enters the continuation (`continuation`) the table is clear, there is no "
            "loser, nothing stays, the defender was chosen and the attacker is in its Area (a "
            "restatement of what `continuation` checks and leaves)",
            lambda: o.implies(
                o.all([o.eq(fight[1], combat), o.eq(stage[1], CONTINUE)]),
                o.all(
                    [
                        rn.clear(),
                        rn.nobody_stays(),
                        o.eq(n.i("closer"), 0),
                        o.not_(o.eq(n.i("cdef"), 0)),
                        rn.in_area(n.i("cunit")),
                    ]
                ),
            ),
        ),
    ]


def _isolation_rules(m: Model, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> list[Conjunct[B]]:
    """RKS-9.2.2, RKS-8.10.1: a bombarded unit's record and a combat's remaining units'
    decisions, as play enters them and within them."""
    rn = Reading(m, o, n)
    fight = [f.i("fight") for f in (s, n)]
    stage = [f.i("stage") for f in (s, n)]
    combat = FIGHTS["combat"]
    return [
        Conjunct(
            "RKS-9.2.2",
            "a bombarded unit's record exists only while its remaining units decide, and is "
            "opened as play enters their decisions only under bombard_isolation=yes, as "
            "`_bombard_isolates` opens it (`after_damage`, `next_isolation`, AMB-RKS-16): the "
            "target gone from the Area, no table, loser, raise, support or refight, Air Force "
            "Support's only for a German attacker, a unit of the bombarding side counted in the "
            "Area, the staying units remaining ones (a restatement as play enters the stage)",
            lambda: o.all(
                [
                    o.implies(o.eq(fight[1], BOMBARDED), o.eq(stage[1], ISOLATION)),
                    o.implies(
                        o.all([o.eq(fight[1], BOMBARDED), o.not_(o.eq(fight[0], BOMBARDED))]),
                        o.all([rn.staying_fit(), bombarded(m, o, n)]),
                    ),
                ]
            ),
        ),
        Conjunct(
            "RKS-8.10.1",
            "as play enters a combat's remaining units' decisions (`next_isolation`) the record "
            "is as `after_damage` leaves it: the defender lost and left the Area, the attacker "
            "in it, the table clear, the staying units remaining ones (a restatement as play "
            "enters the stage)",
            lambda: o.implies(
                o.all(
                    [
                        o.eq(fight[1], combat),
                        o.eq(stage[1], ISOLATION),
                        o.not_(o.all([o.eq(stage[0], ISOLATION), o.eq(fight[0], combat)])),
                    ]
                ),
                o.all(
                    [
                        rn.staying_fit(),
                        rn.clear(),
                        o.not_(o.eq(n.i("cdef"), 0)),
                        o.not_(o.eq(n.i("closer"), 0)),
                        o.not_(o.eq(n.i("closer"), rn.a)),
                        o.not_(rn.units(n.i("cdef"), rn.here)),
                        rn.in_area(n.i("cunit")),
                    ]
                ),
            ),
        ),
        Conjunct(
            "RKS-8.10.1",
            "a remaining unit's decision (`apply_isolation`) keeps the record but its staying "
            "units and isolation choice: a unit joins the staying ones only as a remaining unit "
            "(an enemy of the attacker in the Area, not isolated) and stays one; the choice is "
            "made only under isolation_choice=all_together; only a remaining unit not staying "
            "after the step moves, and no unit is isolated until the decisions take effect "
            "together",
            lambda: o.implies(
                o.all(
                    [
                        o.not_(o.eq(fight[1], 0)),
                        o.eq(stage[1], ISOLATION),
                        o.eq(stage[0], ISOLATION),
                        o.eq(fight[0], fight[1]),
                    ]
                ),
                decided(m, o, s, n),
            ),
        ),
    ]


def kept(m: Model, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> B:
    """The whole record and every unit's place and isolation stay."""
    return o.all(
        [
            *(o.eq(n.i(v), s.i(v)) for v in (*KEPT, "csup")),
            o.iff(n.b("ciso"), s.b("ciso")),
            o.iff(n.b("cair"), s.b("cair")),
            o.iff(n.b("refight"), s.b("refight")),
            *(same_slot(o, n, x, s, x) for x in SLOTS),
            *(o.iff(n.b(stay(u)), s.b(stay(u))) for u in m.units),
            *(o.eq(n.i(at(u)), s.i(at(u))) for u in m.units),
            *(o.iff(n.b(iso(u)), s.b(iso(u))) for u in m.units),
        ]
    )


def decided(m: Model, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> B:
    """One remaining unit's decision (`damage.apply_isolation`, RKS-8.10.1)."""
    r = Reading(m, o, s)
    together = o.lit(m.variant.is_("isolation_choice", "all_together"))

    def remaining(u: str) -> B:
        return o.all([r.enemy(u), r.here(u), o.not_(s.b(iso(u)))])

    return o.all(
        [
            *(o.eq(n.i(v), s.i(v)) for v in (*KEPT, "csup")),
            o.iff(n.b("cair"), s.b("cair")),
            o.iff(n.b("refight"), s.b("refight")),
            *(same_slot(o, n, x, s, x) for x in SLOTS),
            o.implies(n.b("ciso"), together),
            *(
                o.all(
                    [
                        o.implies(s.b(stay(u)), n.b(stay(u))),
                        o.implies(o.all([n.b(stay(u)), o.not_(s.b(stay(u)))]), remaining(u)),
                        o.implies(
                            o.not_(o.eq(n.i(at(u)), s.i(at(u)))),
                            o.all([remaining(u), o.not_(n.b(stay(u)))]),
                        ),
                        o.iff(n.b(iso(u)), s.b(iso(u))),
                    ]
                )
                for u in m.units
            ),
        ]
    )
