"""RKS-P-AFTERMATH beyond RKS-P-PICKS over Rattenkrieg's abstraction
(`specs.rattenkrieg.formal.symbolic`):
whether damage has a choice (RKS-8.9.1, RKS-8.9.2, RKS-8.12.5, AMB-RKS-16), whether the first of
the defender's remaining units has a retreat (RKS-8.10.1, RKS-8.10.2) and whether the attacker
must go on and can (RKS-8.11.2), read over the modelled places, steps, markers, hands and
control, with the map (adjacency, the Rears) and the readings as fixed tables.

Beyond what the model had, these read the combat record's loser (`LOSER`, a side by number as
`CONTROLLERS` has it, 0 for none) and, per unit, whether it is one of the remaining units
already decided to stay (`stay`, `Combat.staying`): variables of RKS-P-COMBAT's part of the
model (`specs.rattenkrieg.formal.symbolic_combat`, which projects them;
`symbolic_combat_rules` says how steps change them).
The step rules (`Aftermath.rules`) are restatements, one per stage, of the checks the rules make
as play enters it: `damage.begin_damage` eliminates a unit with no choice instead of entering
the damage stage, `damage.next_isolation` isolates a unit with nowhere to retreat instead of
entering (or staying in) the remaining units' stage, and `damage.continuation` ends the combat
or the activation instead of entering the continuation. So every step that ends in one of these
stages ends with its decision to make, and RKS-P-AFTERMATH follows by 1-induction with
RKS-P-PICKS; the refinement check holds every concrete step to these rules, so a rules change
that entered a stage with nothing to decide would be a mismatch, not a silent pass.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from solvers.checking.system import Conjunct
from solvers.checking.terms import B, Frame, I, Ops
from specs.rattenkrieg.formal.symbolic_combat import stay
from specs.rattenkrieg.formal.symbolic_state import CONTROLLERS, STAGES, at, ctl, hand, iso, steps
from specs.rattenkrieg.rules.state import SIDES, SU, Stage, other

if TYPE_CHECKING:
    from specs.rattenkrieg.formal.symbolic import Model

LOSER = "closer"
"""The combat's loser, by side number (0: none yet, or no combat): `symbolic_combat`'s."""
DAMAGE, ISOLATION, CONTINUE = (
    STAGES.index(x) for x in (Stage.DAMAGE, Stage.ISOLATION, Stage.CONTINUE)
)
WHY = ("damage", "isolation", "continuation")
"""The kinds of retreat (`damage.retreat_areas`)."""


def when(o: Ops[B, I], cond: B, body: Callable[[], B]) -> B:
    """`cond` implies `body()`, the body built only where `cond` may hold (the refinement
    check evaluates these on every step)."""
    known = o.known(cond)
    if known is False:
        return o.lit(True)
    return body() if known else o.implies(cond, body())


class Aftermath:
    """The variables, step rules and statement RKS-P-AFTERMATH adds to a `Model`."""

    def __init__(self, m: Model) -> None:
        self.m = m
        b, v = m.board, m.variant
        self.combat_damage = v.is_("bombard_damage", "combat_damage")  # AMB-RKS-16
        self.must_continue = v.is_("isolated_remaining", "must_continue")  # AMB-RKS-13
        own_rear = v.is_("rear_control", "own_rear_friendly")  # AMB-RKS-10
        every = v.is_("rear_retreat_ban", "every_retreat")  # RKS-8.9.3
        self.exits: dict[tuple[str, str], dict[int, tuple[str | None, ...]]] = {}
        """Per side and kind of retreat, per Area number, the Areas next to it a unit may retreat
        into when friendly (a Stalingrad Area by its id, the side's own Rear as None: friendly
        by the reading alone), as `damage.retreat_areas` has them."""
        for side in SIDES:
            for why in WHY:
                banned = side == SU and (why == "damage" or every)  # RKS-8.9.3
                table: dict[int, tuple[str | None, ...]] = {}
                for a, k in m.areas.items():
                    ways: list[str | None] = []
                    for x in b.adjacent[a]:
                        if x == b.enemy_rear(side) or (x == b.rear[SU] and banned):
                            continue  # RKS-3.5.1, RKS-8.9.3
                        if not b.is_rear(x):
                            ways.append(x)
                        elif own_rear and b.areas[x].side == side:
                            ways.append(None)
                    if ways:
                        table[k] = tuple(ways)
                self.exits[(side, why)] = table

    # --- the decisions, read over a frame --------------------------------------------------

    def retreats(self, o: Ops[B, I], f: Frame[B, I], u: str, why: str) -> B:
        """`damage.retreat_areas(u, why)` is not empty: `u` is not isolated (RKS-8.10.5) and an
        Area next to its own is friendly, neither the enemy Rear (RKS-3.5.1) nor, for a Soviet
        unit where barred, the Soviet Rear (RKS-8.9.3)."""
        side = self.m.side[u]
        table = self.exits[(side, why)]

        def out_of(k: int) -> B:
            return o.any(
                o.lit(True) if x is None else o.eq(f.i(ctl(x)), CONTROLLERS[side]) for x in table[k]
            )

        return o.all([o.not_(f.b(iso(u))), o.case(f.i(at(u)), out_of, sorted(table))])

    def sacrifice(self, o: Ops[B, I], f: Frame[B, I], u: str) -> B:
        """`damage._sacrificable` for damaged `u`: a combat's damage, the Soviets lost it and
        another T-34 that supported it is on the map (RKS-8.12.5)."""
        m = self.m
        return o.all(
            [
                f.b("dcombat"),
                o.not_(o.eq(f.i("fight"), 0)),
                o.eq(f.i(LOSER), CONTROLLERS[SU]),
                o.any(
                    o.all([o.eq(f.i("csup"), m.unit_number[t]), o.not_(o.eq(f.i(at(t)), 0))])
                    for t in m.tanks
                    if t != u and m.side[t] == SU
                ),
            ]
        )

    def damage_has_choice(self, o: Ops[B, I], f: Frame[B, I]) -> B:
        """`damage.damage_choices` is not empty: the damaged unit may retreat (a combat's
        damage, or any under bombard_damage=combat_damage: AMB-RKS-16), lose a step, or the
        T-34 be sacrificed (RKS-8.9.1, RKS-8.12.5)."""
        m = self.m
        may_retreat = o.any([f.b("dcombat"), o.lit(self.combat_damage)])

        def choice(k: int) -> B:
            u = m.units[k - 1]
            return o.any(
                [
                    o.le(1, f.i(steps(u))),
                    o.all([may_retreat, self.retreats(o, f, u, "damage")]),
                    self.sacrifice(o, f, u),
                ]
            )

        return o.case(f.i("dunit"), choice, range(1, len(m.units) + 1))

    def remaining(self, o: Ops[B, I], f: Frame[B, I], u: str) -> B:
        """`u` is one of `damage.remaining`: in the combat's Area, not isolated, not decided."""
        return o.all(
            [
                o.eq(f.i(at(u)), f.i("carea")),
                o.not_(f.b(iso(u))),
                o.not_(f.b(stay(u))),
            ]
        )

    def first_retreats(self, o: Ops[B, I], f: Frame[B, I]) -> B:
        """A remaining unit of the defender's side is left, and the first of them in unit order
        has a retreat (RKS-8.10.1, RKS-8.10.2)."""
        m, out = self.m, []
        for side in SIDES:
            first: B = o.lit(False)
            for u in reversed([u for u in m.units if m.side[u] == side]):
                first = o.bite(self.remaining(o, f, u), self.retreats(o, f, u, "isolation"), first)
            out.append(o.implies(o.eq(f.i("attacker"), CONTROLLERS[other(side)]), first))
        return o.all(out)

    def continues(self, o: Ops[B, I], f: Frame[B, I]) -> B:
        """`damage.enemies_remain` (isolated defenders counting only under
        isolated_remaining=must_continue, AMB-RKS-13), and the attacker has a combat card (a
        step, or a hand card unless isolated: `sources.combat_cards`, RKS-8.10.4) or a retreat
        (RKS-8.11.2)."""
        m, out = self.m, []
        for side in SIDES:
            enemies = o.any(
                o.all(
                    [
                        o.eq(f.i(at(u)), f.i("carea")),
                        o.any([o.lit(self.must_continue), o.not_(f.b(iso(u)))]),
                    ]
                )
                for u in m.units
                if m.side[u] != side
            )
            out.append(o.implies(o.eq(f.i("attacker"), CONTROLLERS[side]), enemies))

        def goes_on(k: int) -> B:
            u = m.units[k - 1]
            held = o.all([o.not_(f.b(iso(u))), o.le(1, f.i(hand(m.side[u])))])
            return o.any(
                [
                    o.le(1, f.i(steps(u))),
                    held,
                    self.retreats(o, f, u, "continuation"),
                ]
            )

        out.append(o.case(f.i("cunit"), goes_on, range(1, len(m.units) + 1)))
        return o.all(out)

    def in_stage(self, o: Ops[B, I], f: Frame[B, I], stage: int, record: str) -> B:
        return o.all([o.eq(f.i("stage"), stage), o.not_(o.eq(f.i(record), 0))])

    def decided(self, o: Ops[B, I], f: Frame[B, I]) -> B:
        """RKS-8.9.2, RKS-8.10.2, RKS-8.11.2: in the damage stage damage has a choice, in the
        remaining units' stage the first of them has a retreat, in the continuation an enemy is left
        and the attacker can fight or go (`invariants_aftermath.aftermath` beyond `picks`)."""
        return o.all(
            [
                when(o, self.in_stage(o, f, DAMAGE, "dunit"), lambda: self.damage_has_choice(o, f)),
                when(o, self.in_stage(o, f, ISOLATION, "fight"), lambda: self.first_retreats(o, f)),
                when(o, self.in_stage(o, f, CONTINUE, "fight"), lambda: self.continues(o, f)),
            ]
        )

    # --- the step rules ---------------------------------------------------------------------

    def rules(self, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> list[Conjunct[B]]:
        """What a step ending in the damage, remaining units' or continuation stage leaves to
        decide: each a restatement of the check the rules make as play enters (or stays in)
        the stage (module docstring)."""
        return [
            Conjunct(
                "RKS-8.9.2",
                "a step ends in the damage stage only with damage that has a choice: a retreat "
                "(a combat's damage, or under bombard_damage=combat_damage), a step to lose or "
                "the supporting T-34 to sacrifice (`begin_damage` eliminates a unit with none "
                "instead: a restatement of `damage_choices` at the step entering the stage, "
                "which lasts one step)",
                lambda: when(
                    o, self.in_stage(o, n, DAMAGE, "dunit"), lambda: self.damage_has_choice(o, n)
                ),
            ),
            Conjunct(
                "RKS-8.10.2",
                "a step ends in the remaining units' stage only with a first remaining unit "
                "that has a retreat (`next_isolation` isolates one with nowhere to go at once: "
                "a restatement of its check at every step ending in the stage)",
                lambda: when(
                    o, self.in_stage(o, n, ISOLATION, "fight"), lambda: self.first_retreats(o, n)
                ),
            ),
            Conjunct(
                "RKS-8.11.2",
                "a step ends in the continuation only with an enemy left in the Area and an "
                "attacker that can fight or retreat (`continuation` ends the combat or the "
                "activation otherwise: a restatement of its check at every step ending there)",
                lambda: when(
                    o, self.in_stage(o, n, CONTINUE, "fight"), lambda: self.continues(o, n)
                ),
            ),
        ]
