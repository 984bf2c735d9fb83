"""RKS-P-COMBAT's formal statement over Rattenkrieg's abstraction: `combat_fits` and its parts
(`statement` adds the conjuncts that make it inductive), read over the variables of
`specs.rattenkrieg.formal.symbolic_combat` (whose docstring says what is modelled and why the
statement is inductive), and the record's states the step rules also read (`none`,
`bombarded`). They are apart from the variables and their projection so that each module keeps
one job.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solvers.checking.terms import B, Frame, I, Ops
from specs.rattenkrieg.formal.symbolic_combat import (
    ATTACK,
    CHOOSE,
    COMBAT_STAGE,
    CONTINUE,
    DEFENCE,
    GE_N,
    ISOLATION,
    RAISE,
    RECORD,
    SLOTS,
    SU_N,
    Reading,
    slot,
)
from specs.rattenkrieg.formal.symbolic_records import records_fit
from specs.rattenkrieg.formal.symbolic_state import (
    BOMBARDED,
    FIGHTS,
    iso,
)

if TYPE_CHECKING:
    from specs.rattenkrieg.formal.symbolic import Model


def parts(m: Model, o: Ops[B, I], f: Frame[B, I]) -> dict[str, B]:
    """RKS-8.1.1 to RKS-8.7.5, RKS-8.10.1, RKS-8.10.4, RKS-8.12.2, RKS-8.12.3, RKS-9.8.1, AMB-RKS-16
    (`invariants_combat.combat_fits` beyond `invariants_combat.combatants`), read over the
    projection: the staying units and the isolation choice; a bombarded unit's record as
    `_bombarded` has it; a combat's attacker in the Area, its remaining units deciding only in
    isolation, its round (`_round`, `_cards_on_table`: under raising=one_each the spent cards are at
    most `sp0`, since the raises, at most one while raising and none before, count them) and what
    follows the result. Beyond the predicate: a record's step is one of `Step`; under General
    Chuikov the attacker has a card while the German declares first (what `begin_round` checked,
    which makes the statement inductive)."""
    r = Reading(m, o, f)
    fight, stage, step = f.i("fight"), f.i("stage"), f.i("cstep")
    stages = {k: o.eq(stage, v) for k, v in (("combat", COMBAT_STAGE), ("iso", ISOLATION))}
    round_ = _round(m, o, f, r)
    after = _after(o, f, r)
    fighting = o.eq(fight, FIGHTS["combat"])
    return {
        "none": o.implies(o.eq(fight, 0), none(m, o, f)),
        "step": o.implies(o.not_(o.eq(fight, 0)), o.le(1, step)),
        "staying": r.staying_fit(),
        "bombarded": o.implies(o.eq(fight, BOMBARDED), bombarded(m, o, f)),
        "attacker here": o.implies(fighting, r.in_area(f.i("cunit"))),
        "deciding": o.implies(o.all([fighting, o.not_(r.nobody_stays())]), stages["iso"]),
        "round": o.implies(o.all([fighting, stages["combat"]]), round_),
        "after": o.implies(o.all([fighting, o.not_(stages["combat"])]), after),
    }


def _round(m: Model, o: Ops[B, I], f: Frame[B, I], r: Reading[B, I]) -> B:
    """RKS-8.2.3, RKS-8.3.1, RKS-8.7.1 (`invariants_combat._round`): no loser yet; while the
    defender chooses his unit nothing is on the table and he has several to choose from; else a
    declaration is due (`_declaring`)."""
    step, raises, spent, loser = f.i("cstep"), f.i("craises"), f.i("cspent"), f.i("closer")
    csup = f.i("csup")
    declaring = _declaring(m, o, f, r)
    return o.all(
        [
            o.eq(loser, 0),
            o.implies(
                o.eq(step, CHOOSE),
                o.all(
                    [
                        o.eq(f.i("cdef"), 0),
                        o.not_(r.on("atk")),
                        o.not_(r.on("dfc")),
                        o.eq(spent, 0),
                        o.eq(f.i("craiser"), 0),
                        o.eq(raises, 0),
                        o.eq(csup, 0),
                        o.le(2, r.enemies_here()),
                    ]
                ),
            ),
            o.implies(o.not_(o.eq(step, CHOOSE)), declaring),
        ]
    )


def _declaring(m: Model, o: Ops[B, I], f: Frame[B, I], r: Reading[B, I]) -> B:
    """RKS-8.3.1, RKS-8.4.1, RKS-8.6.1, RKS-8.6.2: the cards of the step on the table, the
    raiser, the raises (one each under raising=one_each), a card to declare with, and the cards
    themselves (`_table_fits`)."""
    step, raises, spent = f.i("cstep"), f.i("craises"), f.i("cspent")
    at_step = {k: o.eq(step, v) for k, v in (("a", ATTACK), ("d", DEFENCE), ("r", RAISE))}
    one_each = o.lit(m.variant.is_("raising", "one_each"))
    cards = _table_fits(m, o, f, r)
    return o.all(
        [
            o.among(step, [o.num(ATTACK), o.num(DEFENCE), o.num(RAISE)]),
            r.in_area(f.i("cdef")),
            o.implies(at_step["a"], o.all([o.not_(r.on("atk")), o.iff(r.on("dfc"), r.chuikov)])),
            o.implies(
                at_step["d"], o.all([o.iff(r.on("atk"), o.not_(r.chuikov)), o.not_(r.on("dfc"))])
            ),
            o.implies(at_step["r"], o.all([r.on("atk"), r.on("dfc")])),
            o.iff(o.not_(o.eq(f.i("craiser"), 0)), at_step["r"]),
            o.eq(raises, spent),
            o.implies(o.not_(at_step["r"]), o.eq(raises, 0)),
            o.implies(at_step["a"], r.has_card()),
            o.implies(o.all([at_step["d"], r.chuikov]), r.has_card()),  # beyond the predicate
            o.implies(
                at_step["r"],
                o.all(
                    [
                        o.implies(one_each, o.le(raises, 1)),
                        o.eq(f.i("craiser"), o.ite(o.eq(raises, 0), r.first, r.other(r.first))),
                    ]
                ),
            ),
            cards,
        ]
    )


def _table_fits(m: Model, o: Ops[B, I], f: Frame[B, I], r: Reading[B, I]) -> B:
    """RKS-8.4.1, RKS-8.6.1, RKS-8.12.3, RKS-9.8.1 (`invariants_combat._cards_on_table`): the
    first spent card is there with spent cards and is the first raiser's, the attack and the
    defence are their sides', each card fits (`Reading.card_fits`), and a T-34 supports only a
    Soviet card of its Area, not the Soviet fighter, and in attack only under
    t34_support=attack_and_defence."""
    a, spent, csup = r.a, f.i("cspent"), f.i("csup")
    su_card = o.any(o.all([r.on(x), o.eq(f.i(slot(x, "side")), SU_N)]) for x in SLOTS)
    defence_only = o.lit(m.variant.is_("t34_support", "defence_only"))
    return o.all(
        [
            o.iff(r.on("sp0"), o.le(1, spent)),
            o.implies(o.le(1, spent), o.eq(f.i(slot("sp0", "side")), r.first)),
            o.implies(r.on("atk"), o.eq(f.i(slot("atk", "side")), a)),
            o.implies(r.on("dfc"), o.eq(f.i(slot("dfc", "side")), r.other(a))),
            r.card_fits("sp0", ()),
            r.card_fits("atk", ("sp0",)),
            r.card_fits("dfc", ("sp0", "atk")),
            o.implies(
                o.not_(o.eq(csup, 0)),
                o.all(
                    [
                        su_card,
                        r.in_area(csup),
                        o.not_(o.eq(csup, r.fighter(o.num(SU_N)))),
                        o.not_(o.all([o.eq(a, SU_N), defence_only])),
                    ]
                ),
            ),
        ]
    )


def _after(o: Ops[B, I], f: Frame[B, I], r: Reading[B, I]) -> B:
    """RKS-8.6.1, RKS-8.9.1, RKS-8.10.1, RKS-8.11.2: after the result the defender was chosen,
    the table is clear, and there is a loser but in the continuation; in the remaining units'
    decisions the defender lost and left the Area, in damage the loser's fighter is damaged."""
    a, stage, loser = r.a, f.i("stage"), f.i("closer")
    stages = {k: o.eq(stage, v) for k, v in (("combat", COMBAT_STAGE), ("iso", ISOLATION))}
    return o.all(
        [
            o.not_(o.eq(f.i("cdef"), 0)),
            r.clear(),
            o.iff(o.eq(loser, 0), o.eq(stage, CONTINUE)),
            o.implies(
                stages["iso"],
                o.all([o.not_(o.eq(loser, a)), o.not_(r.units(f.i("cdef"), r.here))]),
            ),
            o.implies(
                o.not_(o.any([stages["iso"], o.eq(stage, CONTINUE)])),
                o.all(
                    [
                        r.in_area(f.i("cdef")),
                        o.eq(f.i("dunit"), o.ite(o.eq(loser, a), f.i("cunit"), f.i("cdef"))),
                    ]
                ),
            ),
        ]
    )


def combat_fits(m: Model, o: Ops[B, I], f: Frame[B, I]) -> B:
    """`parts` together (see there)."""
    return o.all(list(parts(m, o, f).values()))


def none(m: Model, o: Ops[B, I], f: Frame[B, I]) -> B:
    """No record, none of its values (the projection's)."""
    r = Reading(m, o, f)
    return o.all(
        [
            *(o.eq(f.i(v), 0) for v in RECORD),
            o.not_(f.b("cair")),
            r.nobody_stays(),
            *(o.not_(r.on(x)) for x in SLOTS),
        ]
    )


def bombarded(m: Model, o: Ops[B, I], f: Frame[B, I]) -> B:
    """AMB-RKS-16, RKS-9.2.2 (`invariants_combat._bombarded`): a bombarded unit's record is its
    remaining units' decision under bombard_isolation=yes, the target (its defender) gone from
    the Area, with no table, loser, raise, support or refight, Air Force Support's only for a
    German attacker, and a unit of the bombarding side counted in the Area."""
    r = Reading(m, o, f)
    cdef = f.i("cdef")

    def bombarding_here(u: str) -> B:
        return o.any(
            o.all([r.here(w), o.not_(f.b(iso(w)))]) for w in m.units if m.side[w] != m.side[u]
        )

    return o.all(
        [
            o.eq(f.i("stage"), ISOLATION),
            o.lit(m.variant.is_("bombard_isolation", "yes")),
            o.eq(f.i("cstep"), CHOOSE),
            o.not_(o.eq(cdef, 0)),
            o.not_(r.units(cdef, r.here)),
            r.clear(),
            o.eq(f.i("closer"), 0),
            o.eq(f.i("craises"), 0),
            o.eq(f.i("csup"), 0),
            o.not_(f.b("refight")),
            o.implies(f.b("cair"), o.eq(r.a, GE_N)),
            r.units(cdef, bombarding_here),
        ]
    )


def statement(m: Model, o: Ops[B, I], f: Frame[B, I]) -> B:
    """RKS-P-COMBAT's formal statement beyond RKS-P-COMBATANTS's (which the caller adds):
    `combat_fits` with the records of each stage (`symbolic_records.records_fit`), which it
    needs."""
    return o.all([combat_fits(m, o, f), records_fit(m, o, f)])
