"""The action schemas of Nomonhan's symbolic model, one per kind of action of the Python rules:
the Movement Phase's here, the combat's in `symbolic_combat`, all of them listed by `schemas`.

Each guard is a list of conjuncts citing the clause they encode; each effect is the next frame,
built with the sequence functions of `symbolic_play.Model` (so a step that ends a phase, a
combat or a turn lands where the rules say, NOM-5, NOM-6). The costly conjuncts (movement
reach, the shape of a declaration) are marked lazy: a proof that does not need them never
builds them.
"""

from __future__ import annotations

from collections.abc import Callable

from solvers.checking.system import BoolVar, Conjunct, IntVar, Schema
from solvers.checking.terms import B, Frame, I, Ops
from specs.nomonhan.formal.symbolic import (
    MOVE,
)
from specs.nomonhan.formal.symbolic_combat import (
    Advance,
    Declare,
    EndAdvance,
    EndRoll,
    Loss,
    Resolve,
    Retreat,
    Roll,
)
from specs.nomonhan.formal.symbolic_play import Model
from specs.nomonhan.formal.symbolic_schema import NomonhanSchema, need


class Move(NomonhanSchema):
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


class Demolish(NomonhanSchema):
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


class EndPhase(NomonhanSchema):
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
