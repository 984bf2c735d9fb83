"""The combat schemas of Nomonhan's symbolic model (NOM-9): declaring combats, resolving one,
its roll, losses, retreats and advances, and the end of the combat roll. Costly conjuncts (the
shape of a declaration) are lazy, as in `symbolic_actions`."""

from __future__ import annotations

from collections.abc import Callable

from solvers.checking.system import Conjunct
from solvers.checking.terms import B, Frame, I, Ops, merge
from specs.nomonhan.formal.symbolic import (
    ADVANCE,
    DAMAGE,
    DECLARE,
    END_ROLL,
    PICK,
    ROLL,
    SIDE_CODE,
)
from specs.nomonhan.formal.symbolic_play import Model
from specs.nomonhan.formal.symbolic_schema import NomonhanSchema, need


class Declare(NomonhanSchema):
    """All combats of the phase at once (NOM-9.8): choice `grp.U` is 0 or 1 + the index of
    the first attacker of U's combat; `sup.L` says the combat led by L is supported."""

    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        m, t = self.m, self.m.t
        g = {u: c.i(f"grp.{t.ids[u]}") for u in t.units}
        sup = {u: c.b(f"sup.{t.ids[u]}") for u in t.units}

        def member(u: int, lead: int) -> B:
            return o.eq(g[u], lead + 1)

        def joins(u: int) -> B:
            parts = []
            for lead in t.units:
                if not t.can_attack(lead) or (
                    t.side[u] == t.side[lead] and (u < lead or not t.can_attack(u))
                ):
                    parts.append(o.not_(member(u, lead)))
                else:
                    ok = o.all([member(lead, lead), m.phasing(o, s, lead), m.on_map(o, s, u)])
                    parts.append(o.implies(member(u, lead), ok))
            return o.all(parts)

        def contact(u: int) -> B:
            foes = t.of_side[m.enemy(u)]
            return o.all(
                o.implies(
                    member(u, x), o.any(o.all([member(v, x), m.touch(o, s, u, v)]) for v in foes)
                )
                for x in t.units
            )

        def has_defender(lead: int) -> B:
            defenders = [member(d, lead) for d in t.of_side[m.enemy(lead)]]
            if t.v.is_("combat_grouping", "one_defender"):
                return o.implies(member(lead, lead), o.eq(o.count(defenders), 1))
            return o.implies(member(lead, lead), o.any(defenders))

        def attacks(a: int) -> B:
            return o.implies(m.obliged(o, s, a), o.not_(o.eq(g[a], 0)))

        def attacked(d: int) -> B:
            return o.implies(m.must_defend(o, s, d), o.not_(o.eq(g[d], 0)))

        def of_unit(u: int) -> list[Conjunct[B]]:
            name = t.ids[u]
            return [
                need(
                    "NOM-9.7",
                    f"{name} fights only in a phasing group led by its first attacker",
                    lambda: joins(u),
                ),
                need(
                    "NOM-9.6",
                    f"{name} is in contact with an enemy unit of its combat",
                    lambda: contact(u),
                    lazy=True,
                ),
                need("NOM-9.2", f"{name} must attack", lambda: attacks(u), lazy=True),
                need("NOM-9.3", f"{name} must be attacked", lambda: attacked(u), lazy=True),
            ]

        out = [self.stage(o, s, DECLARE, "NOM-9.8")]
        for u in t.units:
            out += of_unit(u)
        out += [
            need(
                "NOM-9.7",
                "every combat has a defender",
                lambda: o.all(has_defender(x) for x in t.units),
            ),
        ]
        if t.v.is_("combat_connection", "connected"):
            out.append(
                need(
                    "NOM-9.7",
                    "each combat is one connected group in contact",
                    lambda: o.all(m.connected(o, s, member, x) for x in t.units),
                    lazy=True,
                )
            )
        if t.v.is_("attacker_targets", "all_adjacent"):
            out.append(
                need(
                    "NOM-9.14",
                    "non-hill attackers attack every enemy unit in their ZOC",
                    lambda: m.all_targets(o, s, member),
                    lazy=True,
                )
            )
        return out + m.support_conjuncts(o, s, member, sup)

    def effect(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        m, t = self.m, self.m.t
        sups = [c.b(f"sup.{t.ids[u]}") for u in t.units]
        s1 = s.evolve(
            {m.pend[u]: c.i(f"grp.{t.ids[u]}") for u in t.units},
            {**{m.psup[u]: sups[u] for u in t.units}, "art_used": o.any([s.b("art_used"), *sups])},
            keep_memo=True,
        )
        return m.after_combat(o, s1, m.budget)


class Resolve(NomonhanSchema):
    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        m = self.m
        return [
            self.stage(o, s, PICK, "NOM-9.8"),
            need(
                "NOM-9.8",
                "the combat chosen is pending (AMB-NOM-11)",
                lambda: self.unit(o, c, lambda u: o.eq(s.i(m.pend[u]), u + 1)),
            ),
        ]

    def effect(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        m = self.m
        lead = o.add([c.i("unit"), 1])
        sel = {u: o.eq(s.i(m.pend[u]), lead) for u in m.t.units}
        sup = self.unit(o, c, lambda u: s.b(m.psup[u]))
        return m.start_combat(o, s, sel, sup, m.budget)


class Roll(NomonhanSchema):
    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        diff = c.i("diff")

        def possible() -> B:
            att, dfn = self.m.dice(o, s)
            return o.all([o.le(o.sub(0, dfn), diff), o.le(diff, att)])

        return [
            self.stage(o, s, ROLL, "NOM-9.9"),
            need("NOM-9.12", "the hit difference is one the dice can give", possible),
        ]

    def effect(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        m, diff = self.m, c.i("diff")
        pj = m.phasing_jp(o, s)
        loser = o.ite(o.lt(0, diff), m.code(o, o.not_(pj)), m.code(o, pj))
        damage = o.ite(o.lt(diff, 0), o.sub(0, diff), diff)

        def hurt() -> Frame[B, I]:
            ints = {"loser": loser, "dmg_left": damage, "dmg_total": damage}
            s1 = s.evolve({**ints, "stage": o.num(DAMAGE)}, keep_memo=True)
            return m.continue_damage(o, s1)

        return merge(o, o.eq(diff, 0), lambda: self.then_after_combat(o, s), hurt)


class Loss(NomonhanSchema):
    """One damage point taken as a step loss (NOM-9.24, NOM-9.27); `Retreat` takes it as a
    one-hex retreat."""

    def taker(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        m, t = self.m, self.m.t

        def loser(u: int) -> B:
            return o.all([s.b(m.cur[u]), m.on_map(o, s, u), m.of_loser(o, s, u)])

        out = [
            self.stage(o, s, DAMAGE, "NOM-9.24"),
            need(
                "NOM-9.24",
                "a unit of the losing side in this combat takes it",
                lambda: self.unit(o, c, loser),
            ),
        ]
        art = t.art
        if (
            art is not None
            and t.v.is_("artillery_shielding", "any_damage_ends")
            and t.ja_artillery(art)
        ):
            shield = lambda u: o.lit(True) if u == art else o.not_(loser(art))  # noqa: E731
            out.append(
                need(
                    "NOM-9.28",
                    "with the Artillery in the combat the damage falls on it (AMB-NOM-15)",
                    lambda: self.unit(o, c, shield),
                )
            )
        return out

    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        return self.taker(o, s, c)

    def effect(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        m, t = self.m, self.m.t
        chosen = {v: o.eq(c.i("unit"), v) for v in t.units}
        ints: dict[str, I] = {}
        for v in t.units:
            steps = s.i(m.steps[v])
            ints[m.steps[v]] = o.ite(chosen[v], o.sub(steps, 1), steps)
            ints[m.pos[v]] = o.ite(o.all([chosen[v], o.eq(steps, 1)]), 0, s.i(m.pos[v]))
        for side in SIDE_CODE:  # the enemy of the unit scores its step (NOM-4.5, NOM-4.6)
            gained = [o.ite(chosen[v], t.weight(v), 0) for v in t.units if t.side[v] != side]
            ints[f"pts.{side}"] = o.add([s.i(f"pts.{side}"), *gained])
        ints["dmg_left"] = o.sub(s.i("dmg_left"), 1)
        hit = self.unit(o, c, lambda u: m.initiative(o, s, u))
        return m.after_loss(o, s.evolve(ints), hit)


class Retreat(Loss):
    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        m, t, to = self.m, self.m.t, c.i("to")

        def into(f: Callable[[int, int], B]) -> Callable[[], B]:
            return lambda: self.unit(o, c, lambda u: o.case(to, lambda n: f(u, n), t.cells))

        def across(u: int) -> B:
            return m.where(
                o,
                s,
                u,
                lambda h: o.all(o.implies(o.eq(to, n), m.crosses(o, s, u, h, n)) for n in t.nbr[h]),
            )

        def adjacent(u: int) -> B:
            return m.where(o, s, u, lambda h: o.any(o.eq(to, n) for n in t.nbr[h]))

        return [
            *self.taker(o, s, c),
            need(
                "NOM-9.28",
                "the Soviet Artillery never retreats",
                lambda: self.unit(o, c, lambda u: o.lit(not t.ja_artillery(u))),
            ),
            need("NOM-9.24", "one hex into an adjacent hex", lambda: self.unit(o, c, adjacent)),
            need(
                "NOM-9.26",
                "not into a hex with a friendly unit",
                into(lambda u, n: o.not_(m.held(o, s, t.side[u], n))),
            ),
            need(
                "NOM-8.6",
                "not into a hex with an enemy unit",
                into(lambda u, n: o.not_(m.held(o, s, m.enemy(u), n))),
            ),
            need(
                "NOM-8.4", "crossing as in movement (AMB-NOM-20)", lambda: self.unit(o, c, across)
            ),
            need(
                "NOM-9.25",
                "not into an enemy ZOC",
                into(lambda u, n: o.not_(m.zoc_of(o, s, m.enemy(u), n))),
            ),
        ]

    def effect(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        m = self.m
        s1 = s.evolve({**self.relocate(o, s, c), "dmg_left": o.sub(s.i("dmg_left"), 1)})
        return m.after_loss(o, s1, self.unit(o, c, lambda u: m.initiative(o, s, u)))


class Advance(NomonhanSchema):
    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        m, to = self.m, c.i("to")

        def step(u: int) -> B:
            return m.where(
                o,
                s,
                u,
                lambda h: o.any(
                    o.all([o.eq(to, n), m.advance_step(o, s, u, h, n)]) for n in m.t.nbr[h]
                ),
            )

        return [
            self.stage(o, s, ADVANCE, "NOM-9.29"),
            need(
                "NOM-9.30",
                "a unit of the winner that may advance (AMB-NOM-21)",
                lambda: self.unit(o, c, lambda u: m.advancer(o, s, u)),
            ),
            need(
                "NOM-9.32",
                "one hex into a vacant adjacent hex, crossing as in movement, "
                "tanks not across a bridge by reading (NOM-9.33)",
                lambda: self.unit(o, c, step),
            ),
        ]

    def effect(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        m = self.m
        s1 = s.evolve({**self.relocate(o, s, c), "adv_left": o.sub(s.i("adv_left"), 1)})
        more = o.all([o.lt(0, s1.i("adv_left")), m.can_advance(o, s1)])
        return merge(o, more, lambda: s1, lambda: self.then_after_combat(o, s1))


class EndAdvance(NomonhanSchema):
    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        return [self.stage(o, s, ADVANCE, "NOM-9.30")]

    def effect(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        return self.then_after_combat(o, s)


class EndRoll(NomonhanSchema):
    """The end-of-turn die (NOM-5.4): `ends` when it shows a face printed in the turn's box."""

    def __init__(self, m: Model, name: str, ends: bool) -> None:
        super().__init__(m, name, ("NOM-5.4",) if ends else ("NOM-5.4", "NOM-6.4"))
        self.ends = ends

    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        faces = self.m.t.end_roll
        if self.ends:
            turns = [t for t, f in faces.items() if f]
            text = "a face printed in this turn's box can come up"
        else:
            turns = [t for t, f in faces.items() if len(f) == 6]
            text = "a face not printed in this turn's box can come up"

        def printed() -> B:
            hit = o.any(o.eq(s.i("turn"), t) for t in turns)
            return hit if self.ends else o.not_(hit)

        return [self.stage(o, s, END_ROLL, "NOM-5.4"), need("NOM-5.4", text, printed)]

    def effect(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        return self.m.finish(o, s, None) if self.ends else self.m.next_turn(o, s)
