"""The action schemas of Nomonhan's symbolic model, one per kind of action of the Python rules.

Each guard is a list of conjuncts citing the clause they encode; each effect is the next frame,
built with the sequence functions of `symbolic_play.Model` (so a step that ends a phase, a
combat or a turn lands where the rules say, NOM-5, NOM-6). The costly conjuncts (movement
reach, the shape of a declaration) are marked lazy: a proof that does not need them never
builds them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from solvers.checking.system import BoolVar, Conjunct, IntVar, Schema, Var
from solvers.checking.terms import B, Frame, I, Ops, merge
from specs.nomonhan.formal.symbolic import (
    ADVANCE,
    DAMAGE,
    DECLARE,
    END_ROLL,
    MOVE,
    PICK,
    ROLL,
    SIDE_CODE,
    STAGE_NAMES,
)
from specs.nomonhan.formal.symbolic_play import Model


def need(clause: str, text: str, make: Callable[[], B], lazy: bool = False) -> Conjunct[B]:
    return Conjunct(clause, text, make, lazy)


class _Schema(Schema):
    def __init__(self, m: Model, name: str, clauses: tuple[str, ...], *choices: Var) -> None:
        self.m = m
        self.name = name
        self.clauses = clauses
        self.choices = choices

    def unit(
        self, o: Ops[B, I], c: Frame[B, I], f: Callable[[int], B], units: Iterable[int] = ()
    ) -> B:
        """`f` of the unit chosen by the choice `unit` (among `units`, default all)."""
        return o.case(c.i("unit"), f, tuple(units) or self.m.t.units)

    def stage(self, o: Ops[B, I], s: Frame[B, I], stage: int, clause: str) -> Conjunct[B]:
        text = f"the game is at the {STAGE_NAMES[stage]} stage"
        return need(clause, text, lambda: o.eq(s.i("stage"), stage))

    def relocate(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> dict[str, I]:
        """The chosen unit moves to the chosen hex `to`."""
        m, to, unit = self.m, c.i("to"), c.i("unit")
        return {m.pos[v]: o.ite(o.eq(unit, v), to, s.i(m.pos[v])) for v in m.t.units}

    def then_after_combat(self, o: Ops[B, I], s: Frame[B, I]) -> Frame[B, I]:
        m = self.m
        return m.after_combat(o, m.cleared(o, s, pending=False, current=True), m.budget)


class Move(_Schema):
    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        m, to = self.m, c.i("to")

        def mover(u: int) -> B:
            return o.all([m.phasing(o, s, u), m.on_map(o, s, u), o.not_(s.b(m.moved[u]))])

        def reached(u: int) -> B:
            return o.case(
                to,
                lambda h: o.all([o.not_(m.at(o, s, u, h)), m.reach(o, s, u, 0, 0, h)]),
                m.t.cells,
            )

        return [
            self.stage(o, s, MOVE, "NOM-8.1"),
            need(
                "NOM-8.1",
                "a phasing unit on the map, not yet moved",
                lambda: self.unit(o, c, mover),
            ),
            need(
                "NOM-7.3",
                "it does not start in an enemy ZOC",
                lambda: self.unit(o, c, lambda u: o.not_(m.in_enemy_zoc(o, s, u))),
            ),
            need(
                "NOM-8.6",
                "the destination is empty",
                lambda: o.case(to, lambda h: o.not_(m.occupied(o, s, h)), m.t.cells),
            ),
            need(
                "NOM-8.1",
                "the destination is reached within its MP: hills (NOM-8.3), rivers "
                "(NOM-8.4, NOM-8.5), no unit passed (NOM-8.7), ZOC stop (NOM-7.2)",
                lambda: self.unit(o, c, reached),
                lazy=True,
            ),
        ]

    def effect(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        m = self.m
        moved = {m.moved[v]: o.any([s.b(m.moved[v]), o.eq(c.i("unit"), v)]) for v in m.t.units}
        return s.evolve(self.relocate(o, s, c), moved)


class Enter(Move):
    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        m, at, to = self.m, c.i("at"), c.i("to")
        gts = [u for u in m.t.units if m.t.specs[u].gt is not None]
        move_on = m.t.v.is_("reinforcement_movement", "enter_and_move")

        def flag(u: int, f: Callable[[int], B]) -> B:
            return o.case(at, f, m.t.flags[m.t.side[u]])

        def reached(u: int, f: int) -> B:
            beyond = o.all(
                [
                    o.lit(move_on),
                    o.not_(m.zoc_of(o, s, m.enemy(u), f)),
                    o.case(to, lambda h: m.destination(o, s, u, f, h), m.t.cells),
                ]
            )
            return o.any([o.eq(to, f), beyond])

        return [
            self.stage(o, s, MOVE, "NOM-8.8"),
            need(
                "NOM-8.8",
                "a reinforcement due to enter",
                lambda: self.unit(o, c, lambda u: m.due(o, s, u), gts),
            ),
            need(
                "NOM-8.9",
                "it enters at an empty flag hex of its side",
                lambda: self.unit(
                    o, c, lambda u: flag(u, lambda f: o.not_(m.occupied(o, s, f))), gts
                ),
            ),
            need(
                "NOM-8.8",
                "it stays on the flag hex or moves on from it (AMB-NOM-18)",
                lambda: self.unit(o, c, lambda u: flag(u, lambda f: reached(u, f)), gts),
                lazy=True,
            ),
        ]


class Demolish(_Schema):
    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        m, v = self.m, self.m.t.v
        jp = m.t.of_side["JP"]
        ends = m.t.pontoon or ()
        out = [
            need(
                "NOM-OPT.1", "demolition is in force", lambda: o.lit(not v.is_("demolition", "off"))
            ),
            self.stage(o, s, MOVE, "NOM-OPT.3"),
            need("NOM-OPT.5", "the bridge is not yet blown", lambda: o.not_(s.b("demolished"))),
            need("NOM-OPT.3", "in a Japanese Movement Phase", lambda: m.phasing_jp(o, s)),
            need(
                "NOM-OPT.4",
                "a Japanese unit is in a hex of the pontoon bridge",
                lambda: o.any(m.at(o, s, u, h) for u in jp for h in ends),
            ),
        ]
        if v.is_("demolition", "optional_ja"):

            def reduced(u: int) -> B:
                steps = s.i(m.steps[u])
                return o.all([o.lt(0, steps), o.lt(steps, m.t.specs[u].full_steps)])

            out += [
                need(
                    "NOM-OPT.3",
                    "at the start of the phase",
                    lambda: o.all(o.not_(s.b(x)) for x in m.moved),
                ),
                need(
                    "NOM-OPT.2", "a Japanese unit is reduced", lambda: o.any(reduced(u) for u in jp)
                ),
            ]
        return out

    def effect(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        return s.evolve(bools={"demolished": o.lit(True)}, keep_memo=False)


class EndPhase(_Schema):
    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        m = self.m
        out = [
            self.stage(o, s, MOVE, "NOM-5.1"),
            need(
                "NOM-8.8",
                "no reinforcement that can enter is still waiting (AMB-NOM-18)",
                lambda: o.not_(m.entry_due(o, s)),
            ),
        ]
        v = m.t.v
        if v.is_("flag_friendly", "must_clear") and not v.is_("reinforcement_timing", "any_phase"):
            out.append(
                need(
                    "NOM-8.9",
                    "no friendly unit that can still move holds the flag hex of a due "
                    "reinforcement (flag_friendly=must_clear)",
                    lambda: o.not_(m.flag_to_clear(o, s)),
                    lazy=True,
                )
            )
        return out

    def effect(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        return self.m.end_movement_phase(o, s)


class Declare(_Schema):
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


class Resolve(_Schema):
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


class Roll(_Schema):
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


class Loss(_Schema):
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


class Advance(_Schema):
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


class EndAdvance(_Schema):
    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        return [self.stage(o, s, ADVANCE, "NOM-9.30")]

    def effect(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        return self.then_after_combat(o, s)


class EndRoll(_Schema):
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


def schemas(m: Model) -> tuple[Schema, ...]:
    t = m.t
    unit = IntVar("unit", 0, len(t.units) - 1)
    to = IntVar("to", 1, len(t.cells))
    at = IntVar("at", 1, len(t.cells))
    d = t.max_damage()
    grp = [IntVar(f"grp.{i}", 0, len(t.units)) for i in t.ids]
    sup = [BoolVar(f"sup.{i}") for i in t.ids]
    move = ("NOM-8.1", "NOM-8.2", "NOM-8.3", "NOM-8.4", "NOM-8.5", "NOM-8.6", "NOM-8.7", "NOM-7.3")
    declare = ("NOM-9.1", "NOM-9.2", "NOM-9.3", "NOM-9.6", "NOM-9.7", "NOM-9.8", "NOM-9.17")
    return (
        Move(m, "move", move, unit, to),
        Enter(m, "enter", ("NOM-8.8", "NOM-8.9"), unit, at, to),
        Demolish(m, "demolish", ("NOM-OPT.1", "NOM-OPT.2", "NOM-OPT.3", "NOM-OPT.4")),
        EndPhase(m, "end_phase", ("NOM-5.1", "NOM-5.2", "NOM-8.8")),
        Declare(m, "declare", declare, *grp, *sup),
        Resolve(m, "resolve", ("NOM-9.8", "NOM-6.3"), unit),
        Roll(m, "roll", ("NOM-9.9", "NOM-9.12", "NOM-9.22"), IntVar("diff", -d, d)),
        Loss(m, "step_loss", ("NOM-9.24", "NOM-9.27", "NOM-4.1", "NOM-4.2", "NOM-6.2"), unit),
        Retreat(
            m, "retreat", ("NOM-9.24", "NOM-9.25", "NOM-9.26", "NOM-9.28", "NOM-6.2"), unit, to
        ),
        Advance(
            m, "advance", ("NOM-9.29", "NOM-9.30", "NOM-9.31", "NOM-9.32", "NOM-9.33"), unit, to
        ),
        EndAdvance(m, "end_advance", ("NOM-9.30",)),
        EndRoll(m, "end_roll_ends", True),
        EndRoll(m, "end_roll_goes_on", False),
    )
