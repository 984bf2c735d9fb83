"""The sequence of play of Nomonhan's symbolic model (NOM-5, NOM-6, NOM-9.8 to NOM-9.34):
where each step leads once an action is taken, as the Python rules' `sequence` and `resolve`
say it in prose. A step that ends a phase, a combat or a turn lands in one step where the
rules land (the end of a Combat Phase with nothing to declare, the next pending combat, the
initiative change, the end-of-turn roll, the game's end). What the schemas ask of a position
that only they need is `symbolic_queries.Queries`, this model's base.
"""

from __future__ import annotations

from kernel.variants import Variant
from solvers.checking.system import Schema
from solvers.checking.terms import B, Frame, I, Ops, merge
from specs.nomonhan.data.loader import NomonhanData
from specs.nomonhan.formal.symbolic import (
    ADVANCE,
    DAMAGE,
    DECLARE,
    DRAW,
    END_ROLL,
    MOVE,
    OVER,
    PICK,
    ROLL,
    SIDE_CODE,
)
from specs.nomonhan.formal.symbolic_queries import Queries


class Model(Queries):
    """The transition system of one variant (`solvers.checking.system.System`)."""

    def __init__(self, variant: Variant, data: NomonhanData | None = None) -> None:
        super().__init__(variant, data)
        # Combats started in a row within one step: a started combat with no pair left is
        # dropped and the next one, if it is alone, started; two or more wait for a pick
        # (AMB-NOM-11). So one level of nesting is all that `after_combat` ever needs.
        self.budget = 1
        from specs.nomonhan.formal.symbolic_actions import schemas

        self.schemas: tuple[Schema, ...] = schemas(self)

    # --- the sequence of play (NOM-5, NOM-6), mirroring where each step leads --------------

    def cleared(self, o: Ops[B, I], s: Frame[B, I], pending: bool, current: bool) -> Frame[B, I]:
        """No pending combats, and/or no combat being resolved."""
        ints: dict[str, I] = {}
        bools: dict[str, B] = {}
        for u in self.t.units:
            if pending:
                ints[self.pend[u]] = o.num(0)
                bools[self.psup[u]] = o.lit(False)
            if current:
                ints[self.start[u]] = o.num(0)
                bools[self.cur[u]] = o.lit(False)
        if current:
            for name in ("loser", "dmg_left", "dmg_total", "adv_left"):
                ints[name] = o.num(0)
            bools["csup"] = o.lit(False)
        return s.evolve(ints, bools, keep_memo=True)

    def end_movement_phase(self, o: Ops[B, I], s: Frame[B, I]) -> Frame[B, I]:
        """Movement is followed by the same side's Combat Phase (NOM-5.1), which ends at once
        when there is nothing to declare."""
        nip = o.eq(s.i("phase"), 3)
        s1 = s.evolve(
            {"phase": o.add([s.i("phase"), 1]), "stage": o.num(DECLARE)},
            {**{m: o.lit(False) for m in self.moved}, "nip_moved": o.any([s.b("nip_moved"), nip])},
            keep_memo=True,
        )
        return merge(o, self.any_contact(o, s1), lambda: s1, lambda: self.end_combat_phase(o, s1))

    def end_combat_phase(self, o: Ops[B, I], s: Frame[B, I]) -> Frame[B, I]:
        """After (2) comes (3); after (4) the same turn's cycle starts again (NOM-5.2); the
        Artillery's use lapses with its period (NOM-9.19, AMB-NOM-14)."""
        per_turn = self.t.v.is_("artillery_frequency", "per_turn")
        s1 = self.cleared(o, s, pending=True, current=True)
        return s1.evolve(
            {"phase": o.ite(o.eq(s.i("phase"), 2), 3, 1), "stage": o.num(MOVE)},
            {"art_used": o.all([s.b("art_used"), o.lit(per_turn)])},
            keep_memo=True,
        )

    def end_turn(self, o: Ops[B, I], s: Frame[B, I]) -> Frame[B, I]:
        """The turn ends: pending combats are cancelled (NOM-5.3, NOM-6.3), the Artillery is
        flipped back, and the end-of-turn roll is due after Turns 6 and 7 (NOM-5.4)."""
        s1 = self.cleared(o, s, pending=True, current=True).evolve(
            {"stage": o.num(END_ROLL)},
            {"changed": o.lit(False), "art_used": o.lit(False)},
            keep_memo=True,
        )
        rolls = o.any(o.eq(s.i("turn"), t) for t in sorted(self.t.end_roll))
        return merge(o, rolls, lambda: s1, lambda: self.next_turn(o, s1))

    def next_turn(self, o: Ops[B, I], s: Frame[B, I]) -> Frame[B, I]:
        """The next turn, the other side's initiative, its Movement Phase (NOM-6.4, NOM-6.6,
        NOM-6.7), unless the game ends after the last box of the track (NOM-5.5)."""
        last = o.all(
            [o.lit(self.t.v.is_("game_end", "turn8")), o.le(self.t.turn_boxes, s.i("turn"))]
        )

        def new_turn() -> Frame[B, I]:
            return self.cleared(o, s, pending=True, current=True).evolve(
                {"turn": o.add([s.i("turn"), 1]), "phase": o.num(1), "stage": o.num(MOVE)},
                {
                    **{m: o.lit(False) for m in self.moved},
                    "jp_ini": o.not_(s.b("jp_ini")),
                    "nip_moved": o.lit(False),
                    "changed": o.lit(False),
                },
                keep_memo=True,
            )

        return merge(o, last, lambda: self.finish(o, s, None), new_turn)

    def finish(self, o: Ops[B, I], s: Frame[B, I], winner: str | None) -> Frame[B, I]:
        """The game ends; without a sudden-death winner the points decide (NOM-4.3), a tie by
        reading (NOM-4.4, AMB-NOM-2)."""
        if winner is not None:
            code = o.num(SIDE_CODE[winner])
        else:
            jp, su = s.i("pts.JP"), s.i("pts.SU")
            tie = SIDE_CODE["SU"] if self.t.v.is_("tie", "soviet") else DRAW
            code = o.ite(o.lt(su, jp), SIDE_CODE["JP"], o.ite(o.lt(jp, su), SIDE_CODE["SU"], tie))
        return self.cleared(o, s, pending=True, current=True).evolve(
            {"stage": o.num(OVER), "winner": code}, {"changed": o.lit(False)}, keep_memo=True
        )

    def after_combat(self, o: Ops[B, I], s: Frame[B, I], budget: int) -> Frame[B, I]:
        """A combat is over (current already cleared): the turn ends if the initiative changed
        in it (NOM-6.2), else the next combat is picked (AMB-NOM-11) or, alone, started; with
        none left the Combat Phase ends (NOM-9.8)."""
        t = self.t
        lead = {u: o.eq(s.i(self.pend[u]), u + 1) for u in t.units}
        n = o.count(lead.values())
        chosen = t.v.is_("resolution_order", "chosen_each")
        first = {u: o.all([lead[u], *(o.not_(lead[v]) for v in t.units if v < u)]) for u in t.units}

        def start_first() -> Frame[B, I]:
            if budget == 0:  # cannot happen: each level removes a combat (see `budget`)
                return self.end_combat_phase(o, s)
            sel = {
                u: o.case(s.i(self.pend[u]), lambda k: first[k - 1], range(1, len(t.units) + 1))
                for u in t.units
            }
            sup = o.any(o.all([first[u], s.b(self.psup[u])]) for u in t.units)
            return self.start_combat(o, s, sel, sup, budget - 1)

        def pick_or_start() -> Frame[B, I]:
            return merge(
                o,
                o.all([o.lit(chosen), o.lt(1, n)]),
                lambda: s.evolve({"stage": o.num(PICK)}, keep_memo=True),
                start_first,
            )

        return merge(
            o,
            s.b("changed"),
            lambda: self.end_turn(o, s),
            lambda: merge(o, o.eq(n, 0), lambda: self.end_combat_phase(o, s), pick_or_start),
        )

    def start_combat(
        self, o: Ops[B, I], s: Frame[B, I], sel: dict[int, B], sup: B, budget: int
    ) -> Frame[B, I]:
        """Take the selected pending combat out of the list; units eliminated or (by reading)
        out of contact drop out (AMB-NOM-19); with a pair left, roll (NOM-9.9)."""
        t = self.t
        member = {u: o.all([sel[u], self.on_map(o, s, u)]) for u in t.units}
        if t.v.is_("disturbed_combats", "drop_out_of_contact"):
            kept = {
                u: o.all(
                    [
                        member[u],
                        o.any(
                            o.all([member[v], self.touch(o, s, u, v)])
                            for v in t.of_side[self.enemy(u)]
                        ),
                    ]
                )
                for u in t.units
            }
        else:
            kept = member
        fight = o.all(
            [
                o.any(o.all([kept[u], self.phasing(o, s, u)]) for u in t.units),
                o.any(o.all([kept[u], o.not_(self.phasing(o, s, u))]) for u in t.units),
            ]
        )
        rest = s.evolve(
            {p: o.ite(sel[u], 0, s.i(p)) for u, p in enumerate(self.pend)},
            {p: o.all([s.b(p), o.not_(sel[u])]) for u, p in enumerate(self.psup)},
            keep_memo=True,
        )

        def roll() -> Frame[B, I]:
            return self.cleared(o, rest, pending=False, current=True).evolve(
                {
                    "stage": o.num(ROLL),
                    **{self.start[u]: o.ite(kept[u], s.i(self.pos[u]), 0) for u in t.units},
                },
                {"csup": sup, **{self.cur[u]: kept[u] for u in t.units}},
                keep_memo=True,
            )

        return merge(o, fight, roll, lambda: self.after_combat(o, rest, budget))

    def after_loss(self, o: Ops[B, I], s: Frame[B, I], ip_hit: B) -> Frame[B, I]:
        """After one damage point: sudden death (NOM-4.1, NOM-4.2), else an initiative change
        if an IP unit took it (NOM-6.2), else the next point."""
        t = self.t
        art_dead = o.lit(False) if t.art is None else o.eq(s.i(self.steps[t.art]), 0)
        tanks = t.jp_tanks
        tanks_dead = o.all(o.eq(s.i(self.steps[u]), 0) for u in tanks) if tanks else o.lit(False)
        return merge(
            o,
            art_dead,
            lambda: self.finish(o, s, "JP"),
            lambda: merge(
                o,
                tanks_dead,
                lambda: self.finish(o, s, "SU"),
                lambda: merge(
                    o,
                    ip_hit,
                    lambda: self.initiative_change(o, s),
                    lambda: self.continue_damage(o, s),
                ),
            ),
        )

    def initiative_change(self, o: Ops[B, I], s: Frame[B, I]) -> Frame[B, I]:
        """The turn ends now, or once this combat is over (AMB-NOM-6)."""
        if self.t.v.is_("initiative_change", "immediate"):
            return self.end_turn(o, self.cleared(o, s, pending=False, current=True))
        return self.continue_damage(o, s.evolve(bools={"changed": o.lit(True)}, keep_memo=True))

    def continue_damage(self, o: Ops[B, I], s: Frame[B, I]) -> Frame[B, I]:
        """The next damage point while one is left and a losing unit can take it (AMB-NOM-8),
        else the advance."""
        more = o.all(
            [
                o.lt(0, s.i("dmg_left")),
                o.any(
                    o.all([s.b(self.cur[u]), self.on_map(o, s, u), self.of_loser(o, s, u)])
                    for u in self.t.units
                ),
            ]
        )
        return merge(
            o,
            more,
            lambda: s.evolve({"stage": o.num(DAMAGE)}, keep_memo=True),
            lambda: self.begin_advance(o, s),
        )

    def begin_advance(self, o: Ops[B, I], s: Frame[B, I]) -> Frame[B, I]:
        """Advance points when the enemy has left the combat's hexes (NOM-9.29, AMB-NOM-21),
        as many as the damage (AMB-NOM-8)."""
        t, v = self.t, self.t.v
        left = [
            (
                o.all([s.b(self.cur[u]), self.of_loser(o, s, u)]),
                o.not_(o.eq(s.i(self.pos[u]), s.i(self.start[u]))),
            )
            for u in t.units
        ]
        if v.is_("advance_trigger", "all_hexes"):
            emptied = o.all(o.implies(m, gone) for m, gone in left)
        else:
            emptied = o.any(o.all([m, gone]) for m, gone in left)
        if v.is_("advance_points", "hit_difference"):
            points = s.i("dmg_total")
        else:
            points = o.sub(s.i("dmg_total"), s.i("dmg_left"))
        s1 = s.evolve({"adv_left": o.ite(emptied, points, 0)}, keep_memo=True)
        go = o.all([emptied, o.lt(0, points), self.can_advance(o, s1)])
        return merge(
            o,
            go,
            lambda: s1.evolve({"stage": o.num(ADVANCE)}, keep_memo=True),
            lambda: self.after_combat(
                o, self.cleared(o, s1, pending=False, current=True), self.budget
            ),
        )
