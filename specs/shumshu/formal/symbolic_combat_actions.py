"""The action schemas of one combat in Shumshu's symbolic model: the attack picked, the
defenders, No Retreat!, the attacker's commitment, routs and withdrawals, and the advance
(SHU-COMBAT.1, SHU-STACK.3, SHU-LAND.8, SHU-LAND.9, SHU-PRESS.1, SHU-AIR.1, SHU-BANZAI.1,
SHU-CRT.4, SHU-CRT.5, SHU-RGT.2, SHU-COMBAT.13). The die itself is
`symbolic_landing_actions`' `RollCombat`; the schemas share `symbolic_schema`'s `ActionSchema`.
"""

from __future__ import annotations

from solvers.checking.system import BoolVar, Conjunct, Schema
from solvers.checking.terms import B, Frame, I, Ops, merge
from specs.shumshu.formal.symbolic import ADVANCE, COMMIT, DEFENDERS, DR, HOLD, PICK, RETREAT, ROLL
from specs.shumshu.formal.symbolic_play import Model
from specs.shumshu.formal.symbolic_schema import (
    AIRC,
    BANZAI,
    HEX,
    PRESS,
    YES,
    ActionSchema,
    Done,
    hex_var,
    need,
    unit_var,
)
from specs.shumshu.rules.state import JP


class Resolve(ActionSchema):
    """PICK: the attacker picks the next declared attack (SHU-COMBAT.1)."""

    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        m = self.m
        return [
            self.stage(o, s, PICK, "SHU-COMBAT.1"),
            need(
                "SHU-COMBAT.1",
                "an attack declared into that hex",
                lambda: o.case(c.i(HEX), lambda h: m.attacked(o, s, h), m.t.cells),
            ),
        ]

    def step(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        return self.m.start_fight(o, s, c.i(HEX))


class Defend(ActionSchema):
    """DEFENDERS: the defender picks as many units of the hex as may defend, 3 Russian or 4
    Japanese, decoys never (SHU-STACK.3, AMB-SHU-11, AMB-SHU-30)."""

    def __init__(self, m: Model) -> None:
        self.picks = {u: defend_choice(m.t.ids[u]) for u in m.t.real}
        super().__init__(
            m,
            "defend",
            ("SHU-STACK.3",),
            *(BoolVar(n) for n in self.picks.values()),
        )

    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        m = self.m
        units = m.defending(o, s)
        picked = {u: c.b(n) for u, n in self.picks.items()}

        def how_many() -> B:
            n = o.count(units.values())
            lim = m.defender_limit(o, s)
            return o.eq(o.count(picked.values()), o.ite(o.lt(n, lim), n, lim))

        return [
            self.stage(o, s, DEFENDERS, "SHU-STACK.3"),
            need(
                "SHU-STACK.3",
                "defenders are units of the attacked hex (decoys never defend, AMB-SHU-30)",
                lambda: o.all(o.implies(picked[u], units[u]) for u in m.t.real),
            ),
            need("SHU-STACK.3", "as many as the limit allows", how_many),
        ]

    def step(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        picked = {u: c.b(n) for u, n in self.picks.items()}
        return self.m.set_defenders(o, s, picked)


class Hold(ActionSchema):
    """HOLD: the defender declares No Retreat!, or not (SHU-LAND.8, SHU-LAND.9)."""

    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        return [self.stage(o, s, HOLD, "SHU-LAND.8")]

    def step(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        m = self.m
        return m.commit_step(o, m.upd(s, None, {"hold": c.b(YES)}))


class Commit(ActionSchema):
    """COMMIT: the attacker presses (SHU-PRESS.1), calls the Ki-43 once per player-turn
    (SHU-AIR.1, AMB-SHU-23) and declares Banzai! (SHU-BANZAI.1), the last two Japanese only."""

    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        jp_land = o.all([o.not_(s.b("ru")), o.not_(s.b("landing"))])
        flies = o.all([jp_land, s.b("air"), o.not_(s.b("air_used"))])
        return [
            self.stage(o, s, COMMIT, "SHU-PRESS.1"),
            need(
                "SHU-PRESS.1",
                "no pressed landing",
                lambda: o.implies(c.b(PRESS), o.not_(s.b("landing"))),
            ),
            need(
                "SHU-AIR.1",
                "the Ki-43 flies, free this player-turn, for a Japanese attack",
                lambda: o.implies(c.b(AIRC), flies),
            ),
            need(
                "SHU-BANZAI.1",
                "Banzai! is a Japanese attack",
                lambda: o.implies(c.b(BANZAI), jp_land),
            ),
        ]

    def step(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        m = self.m
        bools = {
            "press": c.b(PRESS),
            "fair": c.b(AIRC),
            "banzai": c.b(BANZAI),
            "air_used": o.any([s.b("air_used"), c.b(AIRC)]),
        }
        return m.upd(s, {"stage": o.num(ROLL)}, bools)


class Retreat(ActionSchema):
    """RETREAT: the next routed or withdrawn unit goes one hex, free of enemy pieces
    (SHU-CRT.4, SHU-CRT.5, AMB-SHU-26); a routed regiment breaks there (SHU-RGT.2)."""

    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        m = self.m
        t = m.t
        first = m.first(o, s, m.retr)
        to = c.i(HEX)

        def near(u: int) -> B:
            return m.hexes_where(o, s, u, lambda x: o.any(o.eq(to, n) for n in t.nbr[x]))

        def free(u: int) -> B:
            enemy = o.lit(t.side[u] == JP)  # the Russians are the enemy of a Japanese unit
            return o.not_(m.side_has_at(o, s, enemy, to))

        return [
            self.stage(o, s, RETREAT, "SHU-CRT.4"),
            need(
                "SHU-CRT.4",
                "the next unit to go",
                lambda: self.unit(o, c, lambda u: first[u], t.real),
            ),
            need("SHU-CRT.5", "one hex away", lambda: self.unit(o, c, near, t.real)),
            need("SHU-CRT.5", "free of enemy pieces", lambda: self.unit(o, c, free, t.real)),
        ]

    def step(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        m = self.m
        t = m.t
        to = {u: o.ite(self.chosen(o, c, u), c.i(HEX), s.i(m.at[u])) for u in t.units}
        routed = o.eq(s.i("result"), DR)
        broken = {r: o.all([self.chosen(o, c, r), routed]) for r in t.regiments}
        s1 = m.pieces(o, s, {}, {}, broken, to)
        left = {u: o.all([s.b(m.retr[u]), o.not_(self.chosen(o, c, u))]) for u in t.real}
        s1 = m.upd(s1, None, m.flags(o, m.retr, left))
        return m.after_result(o, s1)


class Advance(ActionSchema):
    """ADVANCE: a victor advances into the defender's hex or an empty hex next to it
    (SHU-COMBAT.13, AMB-SHU-26)."""

    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        m = self.m
        t = m.t
        to = c.i(HEX)
        fhex = s.i("fhex")

        def free(u: int) -> B:
            enemy = o.lit(t.side[u] == JP)  # the Russians are the enemy of a Japanese unit
            return o.not_(m.side_has_at(o, s, enemy, fhex))

        def near(u: int) -> B:
            return m.hexes_where(o, s, u, lambda x: o.any(o.eq(to, n) for n in t.nbr[x]))

        def where(u: int) -> B:
            into = o.all([o.eq(to, fhex), free(u)])
            beside = o.all(
                [
                    o.case(to, lambda h: o.any(o.eq(fhex, n) for n in t.nbr[h]), t.cells),
                    o.not_(m.has_at(o, s, "", to)),
                    o.any([free(u), near(u)]),
                ]
            )
            return o.any([into, beside])

        return [
            self.stage(o, s, ADVANCE, "SHU-COMBAT.13"),
            need(
                "SHU-COMBAT.13",
                "a victor that may still advance",
                lambda: self.unit(o, c, lambda u: s.b(m.win[u]), t.real),
            ),
            need(
                "SHU-COMBAT.13",
                "out of its own hex",
                lambda: self.unit(o, c, lambda u: o.not_(o.eq(s.i(m.at[u]), to)), t.real),
            ),
            need(
                "SHU-COMBAT.13",
                "into the defender's hex if free of the enemy, or an empty hex next to it",
                lambda: self.unit(o, c, where, t.real),
            ),
        ]

    def step(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        m = self.m
        t = m.t
        left = {u: o.all([s.b(m.win[u]), o.not_(self.chosen(o, c, u))]) for u in t.real}
        s1 = m.upd(s, self.place(o, s, c, c.i(HEX)), m.flags(o, m.win, left))
        return merge(
            o,
            o.any(left.values()),
            lambda: m.advance_step(o, s1, left),
            lambda: m.fight_done(o, s1),
        )


def defend_choice(unit_id: str) -> str:
    """The choice that puts `unit_id` among the defenders (`Defend`)."""
    return f"c_def_{unit_id}"


def combat_schemas(m: Model) -> tuple[Schema, ...]:
    """The schemas of one combat, from the pick to the advance, after `schemas_to_declaration`'s."""
    unit, hex_ = unit_var(m), hex_var(m)
    return (
        Resolve(m, "resolve", ("SHU-COMBAT.1",), hex_),
        Defend(m),
        Hold(m, "hold", ("SHU-LAND.8", "SHU-LAND.9"), BoolVar(YES)),
        Commit(
            m,
            "commit",
            ("SHU-PRESS.1", "SHU-AIR.1", "SHU-BANZAI.1"),
            BoolVar(PRESS),
            BoolVar(AIRC),
            BoolVar(BANZAI),
        ),
        Retreat(m, "retreat", ("SHU-CRT.4", "SHU-CRT.5", "SHU-RGT.2"), unit, hex_),
        Advance(m, "advance", ("SHU-COMBAT.13",), unit, hex_),
        Done(m, "advance_done", ("SHU-COMBAT.13",), ADVANCE, lambda o, s: m.fight_done(o, s)),
    )
