"""The action schemas of Shumshu's symbolic model, one per kind of action of the Python rules
(and per step where one action kind serves several: `Done`, `Roll`), from the set-up to the
attack declaration: here the arrivals, movement and the declaration, and the list of them all
(`schemas_to_declaration`); the set-up, regiments, the sea and the dice are
`symbolic_landing_actions`; those of one combat, built on the same `ActionSchema`
(`symbolic_schema`), are `symbolic_combat_actions`.

Each guard is a list of conjuncts citing the clause they encode; each effect is the next frame,
built with the sequence functions of `symbolic_play.Model` and settled as `ending.settle` settles
every action. The costly conjuncts (movement along roads, decoys' way back, the declaration
witnesses) are lazy: a proof that does not need them never builds them.
"""

from __future__ import annotations

from solvers.checking.system import BoolVar, Conjunct, IntVar, Schema, Var
from solvers.checking.terms import B, Frame, I, Ops, merge
from specs.shumshu.formal.symbolic import DECLARE, DECOY, FORM, MOVE, POOL, REINFORCE, REPLACE, SAIL
from specs.shumshu.formal.symbolic_declare import Declarations
from specs.shumshu.formal.symbolic_landing_actions import (
    AirRoll,
    Embark,
    Form,
    LandAt,
    Place,
    RollCombat,
    RollLanding,
    Strike,
)
from specs.shumshu.formal.symbolic_play import Model
from specs.shumshu.formal.symbolic_schema import (
    FACE,
    HEX,
    SUNK,
    UNIT,
    YES,
    ActionSchema,
    Done,
    hex_var,
    need,
    unit_var,
)
from specs.shumshu.rules.state import JP, RU

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
