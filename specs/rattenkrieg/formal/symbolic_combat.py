"""RKS-P-COMBAT over Rattenkrieg's abstraction (`specs.rattenkrieg.formal.symbolic`): the combat
record's round, table and aftermath as model variables, the step rules that say what a step
does to them, and the formal statement (`combat_fits`) that implies
`properties.combat_fits` of the projected position.

**What is modelled** (beyond the record's cause, attacker side and refight flag, its attacker,
defender, support and Area, which `symbolic` already has): the record's step (`Step` by number
from 1, 0 with no record), the raiser and the loser (sides by `CONTROLLERS`), the number of
raises and of spent cards, whether the remaining units must all retreat (the isolation choice),
which units are staying (remaining units decided for, RKS-8.10.1), whether a bombarded unit's
record is Air Force Support's, and three cards on the table: the attack, the defence and the
first spent card, each as whether it is there, its side, its origin (0: the hand, else the unit
by number) and whether it lies open (General Chuikov, RKS-9.8.1). Under raising=one_each (both
presets) no round holds more than one spent card (a second raise is judged at once), so these
three are the whole table; under raising=alternating they are not, and RKS-P-COMBAT has no
formal statement there (`wargame verify` tests it).

**The step rules** (`record_rules`):

- no record, none of its values; a record has a step (the projection's);
- a round begins (`start_combat`, `choose_defender`, `begin_round`, a tie's repeat, RKS-8.2.3,
  RKS-8.3.1, RKS-8.7.4) with the table empty, no loser, raiser, raise or support, nothing
  staying, the attacker in its Area, and either the defender to choose among two enemy units
  or more, or the first declaration due (the attacker's, the German's under General Chuikov)
  with the chosen defender in the Area and a card for the attacker: this restates the checks
  `start_combat`, `choose_defender_problem` and `begin_round` make as play enters a round;
- a declaration (`play`, RKS-8.4.1, RKS-8.5.2, RKS-8.6.1, RKS-8.6.2, RKS-9.8.1) is the only
  step that ends in a round with cards on the table: from a declaration step of the same
  record, the side to move puts one card in its place, its own, from its hand (its fighter not
  isolated, RKS-8.10.4) or its fighter's steps (a unit with step cards, RKS-8.12.2), open
  exactly when General Chuikov makes the German show it; the next step follows the order of
  RKS-8.3.1 (the German first under Chuikov); a raise moves the raiser's card to the spent ones,
  counts one raise and passes the raise to the other side, and under raising=one_each only
  the first raise is answered by a raise; the T-34 joins only with a Soviet card, from the
  Area, not the Soviet fighter, and in attack only under t34_support=attack_and_defence
  (RKS-8.12.3); it moves no unit, isolates none, and takes nothing from the other side's hand
  or the other fighter's steps;
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

**Why it is inductive.** A round with cards on the table comes from a declaration step whose
record fits, and the declaration rule keeps each card's side, origin and openness, the raise's
order and the support's conditions; a round with an empty table, the damage, the continuation and
the entry into the remaining units' decisions are restated (there the proof adds little beyond
the refinement check, which holds every concrete step to these rules); a pick and a step within
the decisions change nothing the statement reads but what their rules allow. Each rule is
needed: without any one the statement is no longer inductive
(`tests/rattenkrieg/test_symbolic_combat.py`). The statement adds two conjuncts to
`properties.combat_fits` (under General Chuikov the attacker has a card while the German
declares first; the records of each stage, `Model.records_fit`, proved for RKS-P-SEQUENCE) and
RKS-P-COMBATANTS, so it implies the property.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Generic

from solvers.checking.system import BoolVar, Conjunct, IntVar, Var
from solvers.checking.terms import B, Frame, I, Ops
from specs.rattenkrieg.formal.symbolic import (
    BOMBARDED,
    CONTROLLERS,
    FIGHTS,
    STAGES,
    Model,
    at,
    ceff,
    hand,
    iso,
    steps,
)
from specs.rattenkrieg.rules.state import GE, HAND, SU, Placed, RKState, Stage, Step

STEPS: dict[Step | None, int] = {None: 0, **{x: i + 1 for i, x in enumerate(Step)}}
"""A combat record's step by number (0: no record)."""
CHOOSE, ATTACK, DEFENCE, RAISE = (STEPS[x] for x in Step)
SLOTS = ("atk", "dfc", "sp0")
"""The cards on the table the model knows: the attack, the defence, the first spent card."""
FIELDS = ("on", "side", "from", "open")
COMBAT_STAGE, DAMAGE, PICK, ISOLATION, CONTINUE = (
    STAGES.index(x)
    for x in (Stage.COMBAT, Stage.DAMAGE, Stage.PICK, Stage.ISOLATION, Stage.CONTINUE)
)
GE_N, SU_N = CONTROLLERS[GE], CONTROLLERS[SU]
RECORD = ("cstep", "craiser", "craises", "cspent", "closer")
"""The record's integers beyond `symbolic`'s (step, raiser, raises, spent cards, loser)."""
KEPT = ("fight", "attacker", "cunit", "cdef", "carea", *RECORD)
"""What a step within a round or the remaining units' decisions keeps (with the support)."""

CLAUSES: dict[str, tuple[str, ...]] = {
    "cstep": ("RKS-8.3.1",),
    "craiser": ("RKS-8.6.1", "RKS-8.6.2"),
    "craises": ("RKS-8.6.1", "RKS-8.6.2"),
    "cspent": ("RKS-8.6.1",),
    "closer": ("RKS-8.9.1", "RKS-8.11.2"),
    "ciso": ("RKS-8.10.1",),
    "cair": ("RKS-9.3.1",),
    "cstay": ("RKS-8.10.1",),
    **{x: ("RKS-8.4.1", "RKS-8.5.2", "RKS-8.6.1", "RKS-9.8.1") for x in SLOTS},
}
"""The clauses that say how each new variable changes (`solvers.checking.refinement` cites them)."""


def stay(u: str) -> str:
    """`u` is a remaining unit decided for, to be isolated (`Combat.staying`)."""
    return f"cstay.{u}"


def slot(name: str, field: str) -> str:
    """A field of one card on the table (`SLOTS`, `FIELDS`)."""
    return f"{name}.{field}"


def variables(m: Model) -> list[Var]:
    """The combat record's variables beyond those of RKS-P-COMBATANTS."""
    out: list[Var] = [
        IntVar("cstep", 0, len(Step)),
        IntVar("craiser", 0, SU_N),
        IntVar("craises", 0, None),
        IntVar("cspent", 0, None),
        IntVar("closer", 0, SU_N),
        BoolVar("ciso"),
        BoolVar("cair"),
        *(BoolVar(stay(u)) for u in m.units),
    ]
    for x in SLOTS:
        out += [BoolVar(slot(x, "on")), IntVar(slot(x, "side"), 0, SU_N)]
        out += [IntVar(slot(x, "from"), 0, len(m.units)), BoolVar(slot(x, "open"))]
    return out


def project(m: Model, state: RKState) -> dict[str, int | bool]:
    """The projection of the combat record's variables (`variables`)."""
    c = state.combat
    out: dict[str, int | bool] = {
        "cstep": 0 if c is None else STEPS[c.step],
        "craiser": 0 if c is None else CONTROLLERS[c.raiser],
        "craises": 0 if c is None else c.raises,
        "cspent": 0 if c is None else len(c.spent),
        "closer": 0 if c is None else CONTROLLERS[c.loser],
        "ciso": c is not None and c.isolation is not None,
        "cair": c is not None and c.cause == "air_support",
    }
    staying = frozenset(() if c is None else c.staying)
    for u in m.units:
        out[stay(u)] = u in staying
    cards: tuple[Placed | None, ...] = (None, None, None)
    if c is not None:
        cards = (c.attack, c.defence, c.spent[0] if c.spent else None)
    for x, p in zip(SLOTS, cards, strict=True):
        out[slot(x, "on")] = p is not None
        out[slot(x, "side")] = 0 if p is None else CONTROLLERS[p.side]
        out[slot(x, "from")] = 0 if p is None or p.origin == HAND else m.unit_number[p.origin]
        out[slot(x, "open")] = p is not None and p.open
    return out


# --- what the statement and the rules read ---------------------------------------------------


class Reading(Generic[B, I]):
    """The combat record's facts over one frame, as terms (the statement's and the rules'
    vocabulary)."""

    def __init__(self, m: Model, o: Ops[B, I], f: Frame[B, I]) -> None:
        self.m, self.o, self.f = m, o, f
        self.a = f.i("attacker")
        self.chuikov = o.le(1, f.i(ceff("chuikov")))
        german_first = o.lit(m.variant.is_("chuikov_raises", "german_first"))
        self.german_first = german_first
        self.first = o.ite(o.all([self.chuikov, german_first]), GE_N, self.a)
        """Who raises first (RKS-8.6.1; the German under Chuikov by chuikov_raises)."""

    def other(self, side: I) -> I:
        return self.o.sub(GE_N + SU_N, side)

    def units(self, v: I, what: Callable[[str], B]) -> B:
        """`what(u)` of the unit numbered `v` (true for none)."""
        o = self.o
        return o.all(o.implies(o.eq(v, k), what(u)) for u, k in self.m.unit_number.items())

    def here(self, u: str) -> B:
        return self.o.eq(self.f.i(at(u)), self.f.i("carea"))

    def in_area(self, v: I) -> B:
        """The unit numbered `v` is in the combat's Area."""
        return self.o.all([self.o.not_(self.o.eq(v, 0)), self.units(v, self.here)])

    def enemy(self, u: str) -> B:
        return self.o.not_(self.o.eq(self.a, CONTROLLERS[self.m.side[u]]))

    def fighter(self, side: I) -> I:
        """The unit fighting for `side` (RKS-8.2.1)."""
        o, f = self.o, self.f
        return o.ite(o.eq(side, self.a), f.i("cunit"), f.i("cdef"))

    def has_card(self) -> B:
        """The attacker has a card to declare with (`sources.combat_cards`): a step card, or a
        hand card unless isolated (RKS-8.4.1, RKS-8.10.4)."""
        o, f = self.o, self.f

        def cards(u: str) -> B:
            mine = f.i(hand(self.m.side[u]))
            return o.any([o.le(1, f.i(steps(u))), o.all([o.not_(f.b(iso(u))), o.le(1, mine)])])

        return self.units(f.i("cunit"), cards)

    def on(self, x: str) -> B:
        return self.f.b(slot(x, "on"))

    def clear(self) -> B:
        """No card on the table and no raiser (`properties._table_clear`)."""
        o, f = self.o, self.f
        return o.all(
            [
                o.not_(self.on("atk")),
                o.not_(self.on("dfc")),
                o.eq(f.i("cspent"), 0),
                o.eq(f.i("craiser"), 0),
            ]
        )

    def nobody_stays(self) -> B:
        o, f = self.o, self.f
        return o.all([o.not_(f.b("ciso")), *(o.not_(f.b(stay(u))) for u in self.m.units)])

    def staying_fit(self) -> B:
        """RKS-8.10.1: staying units are the attacker's enemies in the Area, not isolated; the
        isolation choice is all_together's."""
        o, f = self.o, self.f
        together = o.lit(self.m.variant.is_("isolation_choice", "all_together"))
        return o.all(
            [
                o.implies(f.b("ciso"), together),
                *(
                    o.implies(
                        f.b(stay(u)), o.all([self.enemy(u), self.here(u), o.not_(f.b(iso(u)))])
                    )
                    for u in self.m.units
                ),
            ]
        )

    def enemies_here(self) -> I:
        """How many enemy units of the attacker are in the Area, isolated ones too
        (`combat.defenders`)."""
        o = self.o
        return o.count(o.all([self.here(u), self.enemy(u)]) for u in self.m.units)

    def opens(self, x: str, before: Iterable[str]) -> B:
        """Whether card `x` should lie open (RKS-9.8.1): a German card under General Chuikov,
        the first German card on the table unless under chuikov_raises=german_first; `before`
        are the cards before it in the order `properties._cards_on_table` reads them."""
        o, f = self.o, self.f
        earlier = [o.all([self.on(y), o.eq(f.i(slot(y, "side")), GE_N)]) for y in before]
        return o.all(
            [
                o.eq(f.i(slot(x, "side")), GE_N),
                self.chuikov,
                o.any([self.german_first, o.not_(o.any(earlier))]),
            ]
        )

    def card_fits(self, x: str, before: Iterable[str]) -> B:
        """RKS-8.4.1, RKS-8.12.2, RKS-8.10.4, RKS-9.8.1: a card on the table comes from the hand
        (its fighter not isolated) or its fighter's steps (a unit that has step cards), and lies
        open as `opens` says."""
        o, f = self.o, self.f
        side, origin = f.i(slot(x, "side")), f.i(slot(x, "from"))
        fighter = self.fighter(side)
        stepless = [o.num(self.m.unit_number[u]) for u in self.m.units if not self.m.most_steps[u]]
        return o.implies(
            self.on(x),
            o.all(
                [
                    o.among(side, [o.num(GE_N), o.num(SU_N)]),
                    o.implies(o.eq(origin, 0), self.units(fighter, lambda u: o.not_(f.b(iso(u))))),
                    o.implies(
                        o.not_(o.eq(origin, 0)),
                        o.all([o.eq(origin, fighter), o.not_(o.among(origin, stepless))]),
                    ),
                    o.iff(f.b(slot(x, "open")), self.opens(x, before)),
                ]
            ),
        )


# --- the formal statement ---------------------------------------------------------------------


def parts(m: Model, o: Ops[B, I], f: Frame[B, I]) -> dict[str, B]:
    """RKS-8.1.1 to RKS-8.7.5, RKS-8.10.1, RKS-8.10.4, RKS-8.12.2, RKS-8.12.3, RKS-9.8.1,
    AMB-RKS-16 (`properties.combat_fits` beyond `properties.combatants`), read over the
    projection: the staying units and the isolation choice; a bombarded unit's record as
    `_bombarded` has it; a combat's attacker in the Area, its remaining units deciding only in
    isolation, its round (`_round`, `_cards_on_table`: under raising=one_each the spent cards are
    at most `sp0`, since the raises, at most one while raising and none before, count them) and
    what follows the result. Beyond the predicate: a record's step is one of `Step`; under
    General Chuikov the attacker has a card while the German declares first (what `begin_round`
    checked, which makes the statement inductive)."""
    r = Reading(m, o, f)
    fight, stage, step, a = f.i("fight"), f.i("stage"), f.i("cstep"), r.a
    raises, spent, loser = f.i("craises"), f.i("cspent"), f.i("closer")
    stages = {k: o.eq(stage, v) for k, v in (("combat", COMBAT_STAGE), ("iso", ISOLATION))}
    at_step = {k: o.eq(step, v) for k, v in (("a", ATTACK), ("d", DEFENCE), ("r", RAISE))}
    one_each = o.lit(m.variant.is_("raising", "one_each"))
    su_card = o.any(o.all([r.on(x), o.eq(f.i(slot(x, "side")), SU_N)]) for x in SLOTS)
    defence_only = o.lit(m.variant.is_("t34_support", "defence_only"))
    csup = f.i("csup")
    cards = o.all(
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
    declaring = o.all(
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
    round_ = o.all(
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
    after = o.all(
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
    """AMB-RKS-16, RKS-9.2.2 (`properties._bombarded`): a bombarded unit's record is its
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
    `combat_fits` with the records of each stage (`Model.records_fit`), which it needs."""
    return o.all([combat_fits(m, o, f), m.records_fit(o, f)])


# --- the step rules ---------------------------------------------------------------------------


def record_rules(m: Model, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> list[Conjunct[B]]:
    """What a step does to the combat record's round, table and aftermath (module docstring)."""
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


def declared(m: Model, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> B:
    """One declaration (`combat.play`): the step from `s` to `n` puts the mover's card down."""
    r, rn = Reading(m, o, s), Reading(m, o, n)
    step = s.i("cstep")
    raising = o.eq(step, RAISE)
    mover = o.ite(o.eq(step, ATTACK), r.a, o.ite(o.eq(step, DEFENCE), r.other(r.a), s.i("craiser")))
    mine = o.eq(mover, r.a)  # the attack's place
    fighter = o.ite(mine, s.i("cunit"), s.i("cdef"))
    other_fighter = o.ite(mine, s.i("cdef"), s.i("cunit"))
    one_each = o.lit(m.variant.is_("raising", "one_each"))
    defence_only = o.lit(m.variant.is_("t34_support", "defence_only"))

    def put(x: str, y: str) -> B:
        """The mover's card lies in place `x` (the other place `y` unchanged)."""
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

    nxt: list[tuple[int, bool, int, I]] = [
        # (from, chuikov) -> (step, raiser)
        (ATTACK, False, DEFENCE, o.num(0)),
        (ATTACK, True, RAISE, r.first),
        (DEFENCE, False, RAISE, r.first),
        (DEFENCE, True, ATTACK, o.num(0)),
    ]
    support_changed = o.not_(o.eq(n.i("csup"), s.i("csup")))
    su_fighter = r.fighter(o.num(SU_N))
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
            o.implies(mine, put("atk", "dfc")),
            o.implies(o.not_(mine), put("dfc", "atk")),
            o.implies(
                raising,
                o.all(
                    [
                        o.implies(one_each, o.eq(s.i("craises"), 0)),
                        o.eq(n.i("craises"), o.add([s.i("craises"), 1])),
                        o.eq(n.i("cspent"), o.add([s.i("cspent"), 1])),
                        o.eq(n.i("cstep"), RAISE),
                        o.eq(n.i("craiser"), r.other(mover)),
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
            o.implies(
                support_changed,
                o.all(
                    [
                        o.eq(mover, SU_N),
                        o.not_(o.eq(n.i("csup"), 0)),
                        o.among(n.i("csup"), m.supporters(o)),
                        rn.in_area(n.i("csup")),
                        o.not_(o.eq(n.i("csup"), su_fighter)),
                        o.not_(o.all([o.eq(mover, r.a), defence_only])),
                    ]
                ),
            ),
            *(o.eq(n.i(at(u)), s.i(at(u))) for u in m.units),
            *(o.iff(n.b(iso(u)), s.b(iso(u))) for u in m.units),
            r.units(other_fighter, lambda u: o.eq(n.i(steps(u)), s.i(steps(u)))),
            o.eq(
                o.ite(o.eq(mover, GE_N), n.i(hand(SU)), n.i(hand(GE))),
                o.ite(o.eq(mover, GE_N), s.i(hand(SU)), s.i(hand(GE))),
            ),
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
