"""The action schemas of Shumshu's symbolic model for the set-up (SHU-SETUP.1), forming
regiments (SHU-RGT.1), the sea movement and its landings (SHU-LAND.1 to SHU-LAND.7,
SHU-REINF.3), the Ki-43 against shipping (SHU-AIR.2, SHU-AIR.3) and the dice of the landings
and the combats (SHU-CRT.1, SHU-CRT.2).

Split from `symbolic_actions` (arrivals, movement, declarations) by the part of the
player-turn they cover; `symbolic_actions.schemas_to_declaration` lists them all.
"""

from __future__ import annotations

from solvers.checking.system import Conjunct
from solvers.checking.terms import B, Frame, I, Ops, merge
from specs.shumshu.formal.symbolic import AE, AIR, AIR_ROLL, FORM, LOST, POOL, ROLL, SAIL, SETUP
from specs.shumshu.formal.symbolic_play import Model
from specs.shumshu.formal.symbolic_schema import FACE, HEX, SUNK, YES, ActionSchema, need
from specs.shumshu.rules.state import JP


class Place(ActionSchema):
    """SETUP: a Japanese piece still waiting, of the Japanese player's choosing, goes on a hex
    of Shumshu (SHU-SETUP.1)."""

    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        m = self.m
        return [
            self.stage(o, s, SETUP, "SHU-SETUP.1"),
            need(
                "SHU-SETUP.1",
                "a Japanese piece waiting to be set up on Shumshu",
                lambda: self.unit(o, c, lambda u: m.is_at(o, s, u, POOL), m.t.setup_pieces),
            ),
        ]

    def step(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        m = self.m
        ints = {
            m.at[u]: o.ite(self.chosen(o, c, u), c.i(HEX), s.i(m.at[u])) for u in m.t.setup_pieces
        }
        s1 = m.upd(s, ints)
        more = o.any(m.is_at(o, s1, u, POOL) for u in m.t.setup_pieces)
        return merge(o, more, lambda: s1, lambda: m.new_player_turn(o, s1, True))


class Form(ActionSchema):
    """FORM: three undisrupted battalions of a regiment together become it (SHU-RGT.1)."""

    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        m = self.m
        return [
            self.stage(o, s, FORM, "SHU-RGT.1"),
            need(
                "SHU-RGT.1",
                "its three battalions are together and undisrupted",
                lambda: self.unit(o, c, lambda r: m.formable(o, s, r), m.t.regiments),
            ),
        ]

    def step(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        m = self.m
        t = m.t
        ints: dict[str, I] = {}
        bools: dict[str, B] = {}
        for r in t.regiments:
            me = self.chosen(o, c, r)
            ints[m.at[r]] = o.ite(me, s.i(m.at[t.bns[r][0]]), s.i(m.at[r]))
            ints[m.rec[r]] = o.ite(me, 0, s.i(m.rec[r]))
            bools[m.dis[r]] = o.all([o.not_(me), s.b(m.dis[r])])
            for b in t.bns[r]:
                ints[m.at[b]] = o.ite(me, t.IN_REGIMENT, s.i(m.at[b]))
                ints[m.rec[b]] = o.ite(me, 0, s.i(m.rec[b]))
                bools[m.dis[b]] = o.all([o.not_(me), s.b(m.dis[b])])
        return m.form_step(o, m.upd(s, ints, bools))


class LandAt(ActionSchema):
    """SAIL: the coastal hex of this turn's landing, outside the Paramushir artillery's red
    range (SHU-LAND.1, SHU-LAND.5), while there is no beachhead (SHU-LAND.10)."""

    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        m = self.m
        return [
            self.stage(o, s, SAIL, "SHU-LAND.1"),
            need(
                "SHU-LAND.10",
                "nothing at sea yet, a unit to land, a capability and no beachhead",
                lambda: m.land_at_open(o, s),
            ),
            need(
                "SHU-LAND.5",
                "a coastal hex outside the red range",
                lambda: m.in_cells(o, c.i(HEX), m.t.landing_hexes),
            ),
        ]

    def step(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        m = self.m
        s1 = m.upd(s, {"sail_hex": c.i(HEX)}, {"sail": o.lit(True)})
        return after_sailing(m, o, s1)


def after_sailing(m: Model, o: Ops[B, I], s: Frame[B, I]) -> Frame[B, I]:
    """Embarking goes on while there is a choice; then the units sail
    (turn_decisions.choose_sail)."""
    return merge(
        o,
        m.sail_open(o, s),
        lambda: s,
        lambda: m.air_step(o, m.upd(s, None, {"sailed": o.lit(True)})),
    )


class Embark(ActionSchema):
    """SAIL: a Russian unit goes to sea, as a lander or a delivery (SHU-LAND.2, SHU-REINF.3)."""

    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        m = self.m
        return [
            self.stage(o, s, SAIL, "SHU-LAND.2"),
            need(
                "SHU-LAND.2",
                "a unit off-board, due, after those embarked, with room at sea (SHU-REINF.3)",
                lambda: self.unit(o, c, lambda u: m.embark_ok(o, s, u), m.t.sailors),
            ),
        ]

    def step(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        m = self.m
        bools = {m.party[u]: o.any([s.b(m.party[u]), self.chosen(o, c, u)]) for u in m.t.sailors}
        bools["sail"] = o.lit(True)
        s1 = m.upd(s, {"sail_hex": o.ite(s.b("sail"), s.i("sail_hex"), 0)}, bools)
        return after_sailing(m, o, s1)


class Strike(ActionSchema):
    """AIR: the Japanese send the Ki-43 against shipping, or not (SHU-AIR.2)."""

    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        return [self.stage(o, s, AIR, "SHU-AIR.2")]

    def step(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        m = self.m
        return merge(o, c.b(YES), lambda: m.stage(o, s, AIR_ROLL), lambda: m.landing_step(o, s))


class AirRoll(ActionSchema):
    """AIR_ROLL (chance): the Ki-43's best face sinks a capability, with the unit it carries or
    an empty one (SHU-AIR.2, `air_sinks=any_capacity`, `ship_load=one_unit`); its three worst
    shoot it down (SHU-AIR.3)."""

    def row(self, o: Ops[B, I], c: Frame[B, I]) -> I:
        rows = self.m.t.row_of[self.m.t.reads_left(JP)]
        out: I = o.num(rows[6])
        for f in range(5, 0, -1):
            out = o.ite(o.eq(c.i(FACE), f), rows[f], out)
        return out

    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        m = self.m
        t = m.t
        sunk = c.i(SUNK)

        def what() -> B:
            best = o.eq(self.row(o, c), 0)
            empty = o.all([o.eq(sunk, 0), o.lt(m.count_of(o, s, m.party), s.i("ships"))])
            aboard = o.any(o.all([o.eq(sunk, u + 1), s.b(m.party[u])]) for u in t.sailors)
            return o.bite(best, o.any([empty, aboard]), o.eq(sunk, 0))

        return [
            self.stage(o, s, AIR_ROLL, "SHU-AIR.2"),
            need(
                "SHU-AIR.2",
                "a unit sinks only on the best face, and only one at sea",
                what,
            ),
        ]

    def step(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        m = self.m
        row = self.row(o, c)
        best = o.eq(row, 0)
        ships = s.i("ships")
        sunk = {u: o.eq(c.i(SUNK), u + 1) for u in m.t.sailors}
        s1 = m.pieces(o, s, sunk, {})
        bools: dict[str, B] = {
            "air_used": o.lit(True),
            "air": o.all([s.b("air"), o.lt(row, 3)]),
            **{m.party[u]: o.all([s.b(m.party[u]), o.not_(sunk[u])]) for u in m.t.sailors},
        }
        ints = {"ships": o.ite(o.all([best, o.lt(0, ships)]), o.sub(ships, 1), ships)}
        return m.landing_step(o, m.upd(s1, ints, bools))


class RollLanding(ActionSchema):
    """ROLL of a lander (chance): the worst natural roll loses the lander and, once per
    landing, a capability (SHU-LAND.3, SHU-LAND.4); against an opposed hex the CRT decides
    (SHU-LAND.7), an AE losing the lander; the worst roll there is a loss at sea only
    (`worst_roll_opposed=lost_at_sea`)."""

    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        return [
            self.stage(o, s, ROLL, "SHU-CRT.1"),
            need("SHU-LAND.2", "a lander's roll", lambda: s.b("landing")),
        ]

    def step(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        m = self.m
        t = m.t
        face = c.i(FACE)
        worst = m.odds.worst_landing_roll(o, face)
        lander = {u: s.b(m.fatt[u]) for u in t.sailors}
        ships = s.i("ships")
        lose = o.all([worst, o.not_(s.b("lost")), o.lt(0, ships)])
        s1 = m.pieces(o, s, {u: o.all([worst, lander[u]]) for u in t.sailors}, {})
        s1 = m.upd(
            s1,
            {"ships": o.ite(lose, o.sub(ships, 1), ships)},
            {"lost": o.any([s.b("lost"), lose])},
        )
        opposed = m.any_of(o, s, m.fdef)
        res = m.odds.result(o, s, face)

        def fought() -> Frame[B, I]:
            def at_sea() -> Frame[B, I]:
                return m.lander_done(o, m.upd(s1, {"result": o.num(LOST)}))

            def crt() -> Frame[B, I]:
                ae = o.eq(res, AE)
                s2 = m.pieces(o, s1, {u: o.all([ae, lander[u]]) for u in t.sailors}, {})
                return m.after_result(o, m.apply_result(o, s2, res))

            return merge(o, worst, at_sea, crt)

        return merge(o, opposed, fought, lambda: m.lander_done(o, s1))


class RollCombat(ActionSchema):
    """ROLL of a combat on land (chance): the CRT result applied (SHU-CRT.1 to SHU-CRT.8)."""

    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        return [
            self.stage(o, s, ROLL, "SHU-CRT.1"),
            need("SHU-COMBAT.1", "a combat on land", lambda: o.not_(s.b("landing"))),
        ]

    def step(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        m = self.m
        res = m.odds.result(o, s, c.i(FACE))
        return m.after_result(o, m.apply_result(o, s, res))
