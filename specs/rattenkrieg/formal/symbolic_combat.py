"""RKS-P-COMBAT over Rattenkrieg's abstraction (`specs.rattenkrieg.formal.symbolic`): the combat
record's round, table and aftermath as model variables and their projection; the formal
statement (`symbolic_combat_statement.combat_fits`) that implies `invariants_combat.combat_fits`
of the projected position is read over them.

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

The step rules that say what a step does to them are in
`specs.rattenkrieg.formal.symbolic_combat_rules`.

**Why it is inductive.** A round with cards on the table comes from a declaration step whose record
fits, and the declaration rule keeps each card's side, origin and openness, the raise's order and
the support's conditions; a round with an empty table, the damage, the continuation and the entry
into the remaining units' decisions are restated (there the proof adds little beyond the refinement
check, which holds every concrete step to these rules); a pick and a step within the decisions
change nothing the statement reads but what their rules allow. Each rule is needed: without any one
the statement is no longer inductive (`tests/rattenkrieg/test_symbolic_combat.py`). The statement
adds two conjuncts to `invariants_combat.combat_fits` (under General Chuikov the attacker has a card
while the German declares first; the records of each stage, `symbolic_records.records_fit`, proved
for RKS-P-SEQUENCE) and RKS-P-COMBATANTS, so it implies the property.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Generic

from solvers.checking.system import BoolVar, IntVar, Var
from solvers.checking.terms import B, Frame, I, Ops
from specs.rattenkrieg.formal.symbolic_state import (
    CONTROLLERS,
    STAGES,
    at,
    ceff,
    hand,
    iso,
    steps,
)
from specs.rattenkrieg.rules.state import GE, HAND, SU, Placed, RKState, Stage, Step

if TYPE_CHECKING:
    from specs.rattenkrieg.formal.symbolic import Model

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
        """No card on the table and no raiser (`invariants_combat.table_clear`)."""
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
        are the cards before it in the order `invariants_combat._cards_on_table` reads them."""
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
