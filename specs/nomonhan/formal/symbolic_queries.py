"""What the schemas of Nomonhan's symbolic model ask of a position that only they need
(reinforcements due, declaration shape, support, advance, dice): `Queries` adds them to
`symbolic.Position`, and `symbolic_play.Model` adds the sequence of play on top, so that each
module keeps one job.
"""

from __future__ import annotations

from collections.abc import Callable

from solvers.checking.system import Conjunct
from solvers.checking.terms import B, Frame, I, Ops
from specs.nomonhan.formal.symbolic import Position
from specs.nomonhan.rules.board import OPEN


class Queries(Position):
    """A position's questions the schemas ask (module docstring)."""

    def advancer(self, o: Ops[B, I], s: Frame[B, I], u: int) -> B:
        """The winner's participants, or any of its units (NOM-9.30, AMB-NOM-21)."""
        winner = o.all([o.not_(self.of_loser(o, s, u)), o.not_(o.eq(s.i("loser"), 0))])
        parts = [winner, self.on_map(o, s, u)]
        if self.t.v.is_("advance_units", "participants"):
            parts.append(s.b(self.cur[u]))
        return o.all(parts)

    def advance_step(self, o: Ops[B, I], s: Frame[B, I], u: int, a: int, b: int) -> B:
        """One advance point moves `u` from `a` into vacant adjacent `b` (NOM-9.30, NOM-9.32),
        ZOC ignored (NOM-9.31), crossing as in movement; tanks never across a bridge by
        reading (NOM-9.33)."""
        kind = self.t.kind.get((a, b), OPEN)
        tank_banned = (
            self.t.specs[u].is_tank
            and self.t.v.is_("tank_advance_bridge", "banned")
            and kind != OPEN
        )
        return o.all(
            [o.lit(not tank_banned), o.not_(self.occupied(o, s, b)), self.crosses(o, s, u, a, b)]
        )

    def advance_from(self, o: Ops[B, I], s: Frame[B, I], u: int) -> B:
        return self.where(
            o, s, u, lambda h: o.any(self.advance_step(o, s, u, h, n) for n in self.t.nbr[h])
        )

    def can_advance(self, o: Ops[B, I], s: Frame[B, I]) -> B:
        return o.any(
            o.all([self.advancer(o, s, u), self.advance_from(o, s, u)]) for u in self.t.units
        )

    # --- what the schemas ask of a position --------------------------------------------------

    def due(self, o: Ops[B, I], s: Frame[B, I], u: int) -> B:
        """A reinforcement may enter: its side moves, its turn has come, it has not arrived,
        been eliminated or moved (NOM-3.4, NOM-8.8)."""
        gt = self.t.specs[u].gt
        if gt is None:
            return o.lit(False)
        return o.all(
            [
                self.phasing(o, s, u),
                o.le(gt, s.i("turn")),
                o.eq(s.i(self.pos[u]), 0),
                o.lt(0, s.i(self.steps[u])),
                o.not_(s.b(self.moved[u])),
            ]
        )

    def entry_due(self, o: Ops[B, I], s: Frame[B, I]) -> B:
        """A reinforcement due now can enter, and so must before the phase ends (AMB-NOM-18)."""
        if self.t.v.is_("reinforcement_timing", "any_phase"):
            return o.lit(False)
        return o.any(
            o.all(
                [
                    self.due(o, s, u),
                    o.any(o.not_(self.occupied(o, s, f)) for f in self.t.flags[self.t.side[u]]),
                ]
            )
            for u in self.t.units
        )

    def flag_to_clear(self, o: Ops[B, I], s: Frame[B, I]) -> B:
        """A due reinforcement's flag hex is held by a friendly unit that can still move: on
        the map, not yet moved, not in an enemy ZOC (NOM-7.3), with a destination
        (flag_friendly=must_clear, NOM-8.9 a contrario)."""
        t = self.t

        def movable(v: int) -> B:
            return o.all(
                [
                    o.not_(s.b(self.moved[v])),
                    o.not_(self.in_enemy_zoc(o, s, v)),
                    o.any(self.destination(o, s, v, 0, h) for h in t.cells),
                ]
            )

        return o.any(
            o.all(
                [
                    self.due(o, s, u),
                    o.any(self.at(o, s, v, f) for f in t.flags[t.side[u]]),
                    movable(v),
                ]
            )
            for u in t.units
            if t.specs[u].gt is not None
            for v in t.of_side[t.side[u]]
            if v != u
        )

    def connected(
        self, o: Ops[B, I], s: Frame[B, I], member: Callable[[int, int], B], lead: int
    ) -> B:
        """The combat led by `lead` is one group linked by contacts (NOM-9.7): every member is
        reached from the lead within n-1 contacts."""
        t = self.t
        if o.known(member(lead, lead)) is False:
            return o.lit(True)
        level = {u: o.lit(u == lead) for u in t.units}
        for _ in range(len(t.units) - 1):
            level = {
                u: o.any(
                    [
                        level[u],
                        *(
                            o.all([member(v, lead), self.touch(o, s, u, v), level[v]])
                            for v in t.of_side[self.enemy(u)]
                        ),
                    ]
                )
                for u in t.units
            }
        return o.all(o.implies(member(u, lead), level[u]) for u in t.units)

    def all_targets(self, o: Ops[B, I], s: Frame[B, I], member: Callable[[int, int], B]) -> B:
        """A non-hill attacker attacks every enemy unit in its ZOC (NOM-9.14 a contrario)."""
        t = self.t
        return o.all(
            o.implies(
                self.obliged(o, s, a),
                o.all(
                    o.implies(o.all([member(a, x), self.touch(o, s, a, d)]), member(d, x))
                    for x in t.units
                    for d in t.of_side[self.enemy(a)]
                ),
            )
            for a in t.units
        )

    def support_conjuncts(
        self, o: Ops[B, I], s: Frame[B, I], member: Callable[[int, int], B], sup: dict[int, B]
    ) -> list[Conjunct[B]]:
        """Artillery support (NOM-9.17 to NOM-9.21, AMB-NOM-13, AMB-NOM-14)."""
        t, v = self.t, self.t.v
        art = t.art
        used = o.any(sup.values())
        out = [
            Conjunct(
                "NOM-9.17",
                "only a combat's first attacker marks it supported",
                lambda: o.all(o.implies(sup[u], member(u, u)) for u in t.units),
            ),
            Conjunct(
                "NOM-9.17",
                "the Artillery supports one attack at most",
                lambda: o.le(o.count(sup.values()), 1),
            ),
        ]
        if art is None:
            return [*out, Conjunct("NOM-9.17", "no Artillery, no support", lambda: o.not_(used))]

        def ready() -> B:
            side = self.is_side(o, self.phasing_jp(o, s), art)
            return o.all([self.on_map(o, s, art), side, o.not_(s.b("art_used"))])

        def alone() -> B:
            foes = t.of_side[self.enemy(art)]
            if v.is_("artillery_adjacency_river", "in_contact"):
                near = o.any(self.touch(o, s, art, e) for e in foes)
            else:
                near = self.where(
                    o, s, art, lambda h: o.any(self.at(o, s, e, n) for n in t.nbr[h] for e in foes)
                )
            return o.implies(used, o.not_(near))

        reading = v.reading("artillery_range_to")

        def measured(x: int, lead: int) -> B:
            attacker = t.side[x] == t.side[lead]
            if {"defender_hex": attacker, "attacker_hex": not attacker}.get(reading, False):
                return o.lit(False)
            near = self.where(o, s, x, lambda h: o.any(self.at(o, s, art, n) for n in t.near[h]))
            return o.all([member(x, lead), near])

        def in_range() -> B:
            return o.all(o.implies(sup[x], o.any(measured(y, x) for y in t.units)) for x in t.units)

        out.append(
            Conjunct(
                "NOM-9.17",
                "the Artillery is on the map, its side attacks, and it has not yet supported",
                lambda: o.implies(used, ready()),
            )
        )
        if v.is_("artillery_adjacency", "banned"):
            out.append(Conjunct("NOM-9.18", "no enemy unit is adjacent to the Artillery", alone))
        if v.is_("artillery_self_support", "other_combats"):
            out.append(
                Conjunct(
                    "NOM-9.17",
                    "the Artillery does not support a combat it attacks in",
                    lambda: o.all(o.implies(sup[x], o.not_(member(art, x))) for x in t.units),
                )
            )
        text = f"the combat is within 3 hexes of the Artillery ({reading}, AMB-NOM-13)"
        out.append(Conjunct("NOM-9.21", text, in_range, lazy=True))
        return out

    def dice(self, o: Ops[B, I], s: Frame[B, I]) -> tuple[I, I]:
        """Dice of attacker and defender in the combat being resolved: strengths (NOM-9.9,
        NOM-9.10), support +1 to the attacker (NOM-9.17), +1 to a defender attacked across a
        bridge (NOM-9.22)."""
        t = self.t

        def strength(u: int, attacking: bool) -> I:
            full, reduced = t.strength(u, False, attacking), t.strength(u, True, attacking)
            return o.ite(o.lt(s.i(self.steps[u]), t.specs[u].full_steps), reduced, full)

        def role(u: int, attacking: bool) -> B:
            side = self.phasing(o, s, u)
            return o.all([s.b(self.cur[u]), side if attacking else o.not_(side)])

        crossings = [(x, y, k) for x, y, k in t.bridges] + [(y, x, k) for x, y, k in t.bridges]

        def across(a: int, d: int) -> B:
            return o.any(
                o.all(
                    [
                        self.at(o, s, a, x),
                        self.at(o, s, d, y),
                        o.lit(True) if k == "fixed" else self.carries(o, s, x, y),
                    ]
                )
                for x, y, k in crossings
            )

        bridge = o.any(
            o.all([role(a, True), role(d, False), across(a, d)])
            for a in t.units
            for d in t.of_side[self.enemy(a)]
        )
        att = [o.ite(role(u, True), strength(u, True), 0) for u in t.units]
        dfn = [o.ite(role(u, False), strength(u, False), 0) for u in t.units]
        return (
            o.add([*att, o.ite(s.b("csup"), 1, 0)]),
            o.add([*dfn, o.ite(bridge, 1, 0)]),
        )
