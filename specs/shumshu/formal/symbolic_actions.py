"""The action schemas of Shumshu's symbolic model, one per kind of action of the Python rules
(and per step where one action kind serves several: `Done`, `Roll`), from the set-up to the
attack declaration; those of one combat, built on the same `ActionSchema`, are
`symbolic_combat_actions`.

Each guard is a list of conjuncts citing the clause they encode; each effect is the next frame,
built with the sequence functions of `symbolic_play.Model` and settled as `sequence.settle` settles
every action. The costly conjuncts (movement along roads, decoys' way back, the declaration
witnesses) are lazy: a proof that does not need them never builds them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from solvers.checking.system import BoolVar, Conjunct, IntVar, Schema, Var
from solvers.checking.terms import B, Frame, I, Ops, merge
from specs.shumshu.formal.symbolic import (
    AE,
    AIR,
    AIR_ROLL,
    DECLARE,
    DECOY,
    FORM,
    LOST,
    MOVE,
    POOL,
    REINFORCE,
    REPLACE,
    ROLL,
    SAIL,
    SETUP,
    STAGES,
)
from specs.shumshu.formal.symbolic_declare import Declarations
from specs.shumshu.formal.symbolic_play import Model
from specs.shumshu.rules.state import JP, RU


def need(clause: str, text: str, make: Callable[[], B], lazy: bool = False) -> Conjunct[B]:
    return Conjunct(clause, text, make, lazy)


UNIT, HEX, FACE, SUNK, YES = "c_unit", "c_hex", "c_face", "c_sunk", "c_yes"
PRESS, AIRC, BANZAI = "c_press", "c_air", "c_banzai"


class ActionSchema(Schema):
    """One kind of action of the Python rules over the model `m`: its guard is a list of
    conjuncts citing their clauses, its effect the next frame, settled."""

    def __init__(self, m: Model, name: str, clauses: tuple[str, ...], *choices: Var) -> None:
        self.m = m
        self.name = name
        self.clauses = clauses
        self.choices = choices

    def unit(
        self, o: Ops[B, I], c: Frame[B, I], f: Callable[[int], B], units: Iterable[int] = ()
    ) -> B:
        """`f` of the unit chosen (among `units`, by default all)."""
        return o.case(c.i(UNIT), f, tuple(units) or self.m.t.units)

    def chosen(self, o: Ops[B, I], c: Frame[B, I], u: int) -> B:
        return o.eq(c.i(UNIT), u)

    def stage(self, o: Ops[B, I], s: Frame[B, I], stage: int, clause: str) -> Conjunct[B]:
        text = f"the game is at the {STAGES[stage].value} step"
        return need(clause, text, lambda: o.eq(s.i("stage"), stage))

    def effect(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        return self.m.settle(o, self.step(o, s, c))

    def step(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        raise NotImplementedError

    def place(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I], to: I) -> dict[str, I]:
        """The chosen unit goes to hex `to`."""
        m = self.m
        return {m.at[u]: o.ite(self.chosen(o, c, u), to, s.i(m.at[u])) for u in m.t.units}


def unit_var(m: Model) -> IntVar:
    return IntVar(UNIT, 0, m.t.N - 1)


def hex_var(m: Model) -> IntVar:
    return IntVar(HEX, 1, m.t.H)


# --- set-up, regiments, the sea -------------------------------------------------------------


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


class Done(ActionSchema):
    """`Done` at one step: ends forming, the sea movement, a replacement, a reinforcement or
    the advance, going where `sequence` goes."""

    def __init__(
        self,
        m: Model,
        name: str,
        clauses: tuple[str, ...],
        at: int,
        then: Callable[[Ops[Any, Any], Frame[Any, Any]], Frame[Any, Any]],
        extra: Callable[[Ops[Any, Any], Frame[Any, Any]], Any] | None = None,
        text: str = "",
    ) -> None:
        super().__init__(m, name, clauses)
        self.at = at
        self.then = then
        self.extra = extra
        self.text = text

    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        out = [self.stage(o, s, self.at, self.clauses[0])]
        extra = self.extra
        if extra is not None:
            out.append(need(self.clauses[0], self.text, lambda: extra(o, s)))
        return out

    def step(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        return self.then(o, s)


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
    """Embarking goes on while there is a choice; then the units sail (sequence.choose_sail)."""
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


# --- arrivals ----------------------------------------------------------------------------------


class Replace(ActionSchema):
    """REPLACE: an eliminated Russian infantry battalion comes back at the beachhead, one per
    turn (SHU-REPL.1, SHU-REPL.2)."""

    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        m = self.m
        return [
            self.stage(o, s, REPLACE, "SHU-REPL.1"),
            need("SHU-REPL.1", "a replacement is open", lambda: m.replacements_open(o, s)),
            need(
                "SHU-REPL.1",
                "an eliminated infantry battalion",
                lambda: self.unit(o, c, lambda u: m.is_at(o, s, u, m.t.GONE), m.t.infantry),
            ),
        ]

    def step(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        m = self.m
        s1 = m.upd(s, {**self.place(o, s, c, s.i("beach")), "replaced": s.i("turn")})
        return m.stage(o, s1, MOVE)


class Reinforce(ActionSchema):
    """REINFORCE: one Japanese unit from Paramushir to hex 33 (SHU-REINF.1, SHU-REINF.2)."""

    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        m = self.m
        return [
            self.stage(o, s, REINFORCE, "SHU-REINF.2"),
            need("SHU-REINF.1", "an arrival is open", lambda: m.reinforcements_open(o, s)),
            need(
                "SHU-REINF.2",
                "a Japanese unit on Paramushir",
                lambda: self.unit(o, c, lambda u: m.is_at(o, s, u, POOL), m.t.of_side[JP]),
            ),
            need("SHU-REINF.2", "it arrives at hex 33", lambda: o.eq(c.i(HEX), m.t.hex33)),
        ]

    def step(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        m = self.m
        return m.decoy_step(o, m.upd(s, self.place(o, s, c, c.i(HEX))))


class ReturnDecoy(ActionSchema):
    """DECOY: the first decoy due comes back in a hex the Japanese hold, reachable from hex 33
    (SHU-COMBAT.6, AMB-SHU-21, `decoy_return=reachable_held`)."""

    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        m = self.m
        to = c.i(HEX)
        return [
            self.stage(o, s, DECOY, "SHU-COMBAT.6"),
            need(
                "SHU-COMBAT.6",
                "the first decoy due back",
                lambda: self.unit(o, c, lambda d: m.decoy_due(o, s)[d], m.t.decoys),
            ),
            need(
                "SHU-COMBAT.6",
                "a hex the Japanese hold",
                lambda: o.case(to, lambda h: m.has(o, s, JP, h), m.t.cells),
            ),
            need(
                "SHU-COMBAT.6",
                "reachable from hex 33 without entering a Russian hex",
                lambda: o.case(to, lambda h: m.reachable(o, s)[h], m.t.cells),
                lazy=True,
            ),
        ]

    def step(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        m = self.m
        ints = self.place(o, s, c, c.i(HEX))
        for d in m.t.decoys:
            ints[m.rec[d]] = o.ite(self.chosen(o, c, d), 0, s.i(m.rec[d]))
        return m.decoy_step(o, m.upd(s, ints))


# --- movement and declarations ----------------------------------------------------------------


class Move(ActionSchema):
    """MOVE: an undisrupted unit of the moving side moves once (SHU-MOVE.1 to SHU-MOVE.4,
    SHU-DISRUPT.1)."""

    def mover(self, o: Ops[B, I], s: Frame[B, I], u: int) -> B:
        m = self.m
        return o.all(
            [
                m.phasing(o, s, u),
                m.on_map(o, s, u),
                o.not_(s.b(m.mv[u])),
                o.not_(m.flag(o, s, m.act, u)),
            ]
        )

    def reach(self, o: Ops[B, I], s: Frame[B, I], u: int, to: int) -> B:
        """`to` is next to `u`, or along the road within its allowance through hexes free of
        enemy pieces (SHU-MOVE.1, SHU-MOVE.2, SHU-RGT.3, AMB-SHU-12)."""
        m = self.m
        t = m.t
        enemy = o.lit(t.side[u] == JP)  # the Russians are the enemy of a Japanese unit

        def free(h: int) -> B:
            return o.not_(m.side_has(o, s, enemy, h))

        def from_(start: int) -> B:
            basic = o.lit(to in t.nbr[start])
            roads = [
                o.all([free(h) for h in path]) for path in t.road_paths[(u, start)].get(to, ())
            ]
            return o.any([basic, *roads])

        return m.hexes_where(o, s, u, from_)

    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        m = self.m
        to = c.i(HEX)

        def enemy_free(u: int) -> B:
            enemy = o.lit(m.t.side[u] == JP)
            return o.not_(m.side_has_at(o, s, enemy, to))

        return [
            self.stage(o, s, MOVE, "SHU-MOVE.1"),
            need(
                "SHU-MOVE.1",
                "a unit of the moving side on the map that has not moved or landed this turn",
                lambda: self.unit(o, c, lambda u: self.mover(o, s, u)),
            ),
            need(
                "SHU-MOVE.4",
                "it is undisrupted (SHU-DISRUPT.1)",
                lambda: self.unit(o, c, lambda u: o.not_(m.disrupted(o, s, u))),
            ),
            need(
                "SHU-MOVE.3",
                "no enemy piece in the destination (SHU-STACK.1)",
                lambda: self.unit(o, c, enemy_free),
            ),
            need(
                "SHU-MOVE.2",
                "one hex, or along the road (SHU-RGT.3)",
                lambda: self.unit(
                    o, c, lambda u: o.case(to, lambda h: self.reach(o, s, u, h), m.t.cells)
                ),
                lazy=True,
            ),
        ]

    def step(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        m = self.m
        bools = {m.mv[u]: o.any([s.b(m.mv[u]), self.chosen(o, c, u)]) for u in m.t.units}
        return m.upd(s, self.place(o, s, c, c.i(HEX)), bools)


class MoveDone(ActionSchema):
    """MOVE `Done`: attacks follow if some legal declaration attacks (a witness among the
    choices); else the combat phase is over (a certificate among the choices), unless the
    Japanese are in contact and so say "no attacks" with a `Done` (SHU-SEQ.1, SHU-COMBAT.5,
    sequence.declare_step)."""

    def __init__(
        self, m: Model, name: str, decl: Declarations, attack: bool, choices: tuple[Var, ...]
    ) -> None:
        super().__init__(m, name, ("SHU-SEQ.1", "SHU-COMBAT.1", "SHU-COMBAT.4"), *choices)
        self.decl = decl
        self.attack = attack

    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        found = self.decl.some_declaration if self.attack else self.decl.no_declaration
        return [self.stage(o, s, MOVE, "SHU-SEQ.1"), *found(o, s, c)]

    def step(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        m = self.m
        if self.attack:
            return m.stage(o, m.clear_pending(o, s), DECLARE)
        return merge(
            o,
            o.all([o.not_(m.is_ru(o, s)), self.jp_contact(o, s)]),
            lambda: m.stage(o, m.clear_pending(o, s), DECLARE),
            lambda: m.end_combat_phase(o, s),
        )

    def jp_contact(self, o: Ops[B, I], s: Frame[B, I]) -> B:
        """An undisrupted Japanese piece next to a Russian-held hex: the Japanese declaration
        is entered, to be left by `Done`, though none attacks (SHU-SEQ.1, SHU-COMBAT.5,
        sequence.jp_contact)."""
        m = self.m
        t = m.t
        return o.any(
            o.all(
                [
                    m.at_hex(o, s, u, x),
                    o.not_(m.disrupted(o, s, u)),
                    o.any(m.has(o, s, RU, n) for n in t.nbr[x]),
                ]
            )
            for u in t.of_side[JP]
            for x in t.cells
        )


class Join(ActionSchema):
    """DECLARE: a unit joins an attack into an adjacent enemy hex, after those joined in data
    order, when a legal declaration extends it (SHU-COMBAT.1 to SHU-COMBAT.4)."""

    def __init__(self, m: Model, decl: Declarations) -> None:
        super().__init__(
            m,
            "join",
            ("SHU-COMBAT.1", "SHU-COMBAT.2", "SHU-COMBAT.3", "SHU-COMBAT.4"),
            unit_var(m),
            hex_var(m),
            *decl.witness,
        )
        self.decl = decl

    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        m = self.m
        d = self.decl
        t = m.t
        unit, to = c.i(UNIT), c.i(HEX)

        def contact(u: int) -> B:
            return m.hexes_where(
                o,
                s,
                u,
                lambda x: o.any(o.all([o.eq(to, n), d.enemy(o, s, n)]) for n in t.nbr[x]),
            )

        def after_declared(u: int) -> B:
            return o.all(o.eq(m.pending(o, s, v), 0) for v in t.real if v >= u)

        return [
            self.stage(o, s, DECLARE, "SHU-COMBAT.1"),
            need(
                "SHU-DISRUPT.1",
                "an undisrupted unit of the attacking side that has not moved or landed",
                lambda: self.unit(o, c, lambda u: d.ready(o, s, u), t.real),
            ),
            need(
                "SHU-COMBAT.1",
                "into an adjacent hex holding enemy pieces (SHU-COMBAT.2)",
                lambda: self.unit(o, c, contact, t.real),
            ),
            need(
                "SHU-COMBAT.1",
                "after the units already joined, in data order",
                lambda: self.unit(o, c, after_declared, t.real),
            ),
            *d.extends(o, s, c, unit, to),
        ]

    def step(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        m = self.m
        ints = {m.pend[u]: o.ite(self.chosen(o, c, u), c.i(HEX), s.i(m.pend[u])) for u in m.t.real}
        return m.upd(s, ints)


class DeclareDone(ActionSchema):
    """DECLARE `Done`: the attacks joined are a whole legal declaration; they are resolved
    (SHU-COMBAT.1 to SHU-COMBAT.4)."""

    def __init__(self, m: Model, decl: Declarations) -> None:
        super().__init__(m, "declare_done", ("SHU-COMBAT.1", "SHU-COMBAT.3", "SHU-COMBAT.4"))
        self.decl = decl

    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        return [self.stage(o, s, DECLARE, "SHU-COMBAT.1"), *self.decl.declared_ok(o, s)]

    def step(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        return self.m.pick_step(o, s)


def schemas_to_declaration(m: Model) -> tuple[Schema, ...]:
    """The schemas of the set-up and of a player-turn up to its attack declaration, the
    landing and combat rolls among them; those of one combat are `combat_schemas`."""
    decl = m.decl
    unit, hex_ = unit_var(m), hex_var(m)
    face = IntVar(FACE, 1, 6)
    return (
        Place(m, "place", ("SHU-SETUP.1",), unit, hex_),
        Form(m, "form", ("SHU-RGT.1",), unit),
        Done(m, "form_done", ("SHU-RGT.1",), FORM, m.sail_step),
        LandAt(m, "land_at", ("SHU-LAND.1", "SHU-LAND.5", "SHU-LAND.10"), hex_),
        Embark(m, "embark", ("SHU-LAND.2", "SHU-REINF.3"), unit),
        Done(
            m,
            "sail_done",
            ("SHU-LAND.2", "SHU-LAND.1"),
            SAIL,
            lambda o, s: m.air_step(o, m.upd(s, None, {"sailed": s.b("sail")})),
            lambda o, s: o.any(
                [
                    o.not_(s.b("sail")),
                    o.eq(s.i("sail_hex"), 0),
                    m.any_of(o, s, m.party),
                ]
            ),
            "a landing needs at least one battalion",
        ),
        Strike(m, "strike", ("SHU-AIR.2",), BoolVar(YES)),
        AirRoll(m, "air_roll", ("SHU-AIR.2", "SHU-AIR.3"), face, IntVar(SUNK, 0, m.t.N)),
        RollLanding(m, "roll_landing", ("SHU-LAND.3", "SHU-LAND.4", "SHU-LAND.7"), face),
        RollCombat(m, "roll_combat", ("SHU-CRT.1", "SHU-CRT.2"), face),
        Replace(m, "replace", ("SHU-REPL.1", "SHU-REPL.2"), unit),
        Done(m, "replace_done", ("SHU-REPL.1",), REPLACE, lambda o, s: m.stage(o, s, MOVE)),
        Reinforce(m, "reinforce", ("SHU-REINF.1", "SHU-REINF.2"), unit, hex_),
        Done(m, "reinforce_done", ("SHU-REINF.2",), REINFORCE, m.decoy_step),
        ReturnDecoy(m, "return_decoy", ("SHU-COMBAT.6",), unit, hex_),
        Move(m, "move", ("SHU-MOVE.1", "SHU-MOVE.2", "SHU-MOVE.3", "SHU-MOVE.4"), unit, hex_),
        MoveDone(m, "move_done_attack", decl, True, decl.witness),
        MoveDone(m, "move_done_quiet", decl, False, decl.certificate),
        Join(m, decl),
        DeclareDone(m, decl),
    )
