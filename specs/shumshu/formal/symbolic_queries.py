"""The questions the steps of Shumshu's symbolic model ask of a frame: whether a regiment may
form (SHU-RGT.1), who may embark and where a landing may go (SHU-LAND.1, SHU-LAND.2,
SHU-REINF.3), whether the Ki-43 may strike (SHU-AIR.2), whether replacements,
reinforcements or decoys may come (SHU-REPL.*, SHU-REINF.*, SHU-COMBAT.6), who defends
(SHU-STACK.3), where routed units may go, who the victors are and whether they may advance
(SHU-COMBAT.13), and the verdict (SHU-WIN.1 to SHU-WIN.3).

Read-only: none changes the frame or calls a step, so they sit below the sequence of play
(`symbolic_play`), which asks them to choose where a step leads.
"""

from __future__ import annotations

from solvers.checking.terms import B, Frame, I, Ops
from specs.shumshu.formal.symbolic import DE, DR, DW, JAPANESE, MARGINAL, POOL, STRATEGIC
from specs.shumshu.formal.symbolic_effects import Effects
from specs.shumshu.rules.state import JP, RU


class Queries(Effects):
    """What a frame says about the choices a step offers."""

    def formable(self, o: Ops[B, I], s: Frame[B, I], r: int) -> B:
        """Three undisrupted battalions of the regiment together on a hex (SHU-RGT.1)."""
        t = self.t
        bns = t.bns[r]
        if len(bns) != 3:
            return o.lit(False)
        first = s.i(self.at[bns[0]])
        return o.all(
            [
                self.is_at(o, s, r, t.UNFORMED),
                *(self.on_map(o, s, b) for b in bns),
                *(o.not_(self.disrupted(o, s, b)) for b in bns),
                *(o.eq(s.i(self.at[b]), first) for b in bns[1:]),
            ]
        )

    def available(self, o: Ops[B, I], s: Frame[B, I], u: int) -> B:
        """A Russian unit off-board that may sail this turn (SHU-SETUP.3, AMB-SHU-8 `data`)."""
        return o.all([self.is_at(o, s, u, POOL), o.le(self.t.from_turn[u], s.i("turn"))])

    def landing_mode(self, o: Ops[B, I], s: Frame[B, I]) -> B:
        return o.all([s.b("sail"), o.not_(o.eq(s.i("sail_hex"), 0))])

    def delivery_possible(self, o: Ops[B, I], s: Frame[B, I]) -> B:
        """Deliveries to the beachhead on the Russian AM turn (SHU-REINF.1, SHU-REINF.3)."""
        return o.all([self.is_am(o, s), o.not_(o.eq(s.i("beach"), 0)), o.lt(0, s.i("ships"))])

    def party_limit(self, o: Ops[B, I], s: Frame[B, I]) -> I:
        """One unit per capability left, at most three (SHU-LAND.2, SHU-REINF.3,
        `landing_size`/`deliveries` = capabilities)."""
        ships = s.i("ships")
        top = self.t.max_landers
        return o.ite(o.le(ships, 0), 0, o.ite(o.lt(top, ships), top, ships))

    def embark_ok(self, o: Ops[B, I], s: Frame[B, I], u: int) -> B:
        """`u` may embark: embarking not over, a landing or deliveries possible, room in the
        party, after the units already embarked in data order (landing.embark_choices)."""
        return o.all(
            [
                o.not_(o.all([s.b("sail"), s.b("sailed")])),
                o.any([self.landing_mode(o, s), self.delivery_possible(o, s)]),
                o.lt(self.count_of(o, s, self.party), self.party_limit(o, s)),
                *(o.not_(s.b(self.party[v])) for v in self.t.sailors if v >= u),
                self.available(o, s, u),
            ]
        )

    def land_at_open(self, o: Ops[B, I], s: Frame[B, I]) -> B:
        """A landing hex may be picked: nothing at sea yet, a unit to carry, a capability,
        and no beachhead (SHU-LAND.1, SHU-LAND.10, `landings=one_beachhead`)."""
        return o.all(
            [
                o.not_(s.b("sail")),
                o.any(self.available(o, s, u) for u in self.t.sailors),
                o.lt(0, s.i("ships")),
                o.eq(s.i("beach"), 0),
                o.lit(bool(self.t.landing_hexes)),
            ]
        )

    def sail_open(self, o: Ops[B, I], s: Frame[B, I]) -> B:
        return o.any([self.land_at_open(o, s), *(self.embark_ok(o, s, u) for u in self.t.sailors)])

    def strike_possible(self, o: Ops[B, I], s: Frame[B, I]) -> B:
        """The Ki-43 against shipping once in a Russian player-turn while a capability is left
        (SHU-AIR.2, AMB-SHU-23 draft)."""
        return o.all([s.b("ru"), o.lt(0, s.i("ships")), s.b("air"), o.not_(s.b("air_used"))])

    def replacements_open(self, o: Ops[B, I], s: Frame[B, I]) -> B:
        """One eliminated infantry battalion per turn may come back at a beachhead the
        Japanese do not hold (SHU-REPL.1, SHU-REPL.2 `after_deliveries`)."""
        return o.all(
            [
                o.not_(o.eq(s.i("beach"), 0)),
                o.not_(o.eq(s.i("replaced"), s.i("turn"))),
                o.not_(self.has_at(o, s, JP, s.i("beach"))),
                o.any(self.is_at(o, s, u, self.t.GONE) for u in self.t.infantry),
            ]
        )

    def reinforcements_open(self, o: Ops[B, I], s: Frame[B, I]) -> B:
        """One Japanese unit from Paramushir to hex 33 on the Japanese AM turn, unless the
        Russians hold it (SHU-REINF.1, SHU-REINF.2, `hex33_blocked=no_arrival`)."""
        return o.all(
            [
                self.is_am(o, s),
                o.not_(s.b("ru")),
                o.any(self.is_at(o, s, u, POOL) for u in self.t.of_side[JP]),
                o.not_(self.has(o, s, RU, self.t.hex33)),
            ]
        )

    def reachable(self, o: Ops[B, I], s: Frame[B, I]) -> dict[int, B]:
        """Hexes reachable from hex 33 without entering a Russian hex (AMB-SHU-21 iii,
        `decoy_return=reachable_held`); none when the Russians hold hex 33."""

        def make() -> dict[int, B]:
            t = self.t
            free = {h: o.not_(self.has(o, s, RU, h)) for h in t.cells}
            level = {h: o.lit(False) for h in t.cells}
            level[t.hex33] = free[t.hex33]
            for _ in range(t.diameter):
                level = {
                    h: o.any([level[h], o.all([free[h], o.any(level[n] for n in t.nbr[h])])])
                    for h in t.cells
                }
            return level

        return s.cached("reachable", make)

    def decoy_hex_ok(self, o: Ops[B, I], s: Frame[B, I], h: int) -> B:
        """A hex the Japanese hold, reachable from hex 33 (`decoy_return=reachable_held`)."""
        return o.all([self.reachable(o, s)[h], self.has(o, s, JP, h)])

    def decoy_due(self, o: Ops[B, I], s: Frame[B, I]) -> dict[int, B]:
        """The first removed decoy (data order) whose turn to return has come."""
        out: dict[int, B] = {}
        before: list[B] = []
        for d in self.t.decoys:
            due = o.all([self.is_at(o, s, d, self.t.REMOVED), o.le(s.i(self.rec[d]), s.i("turn"))])
            out[d] = o.all([due, *(o.not_(x) for x in before)])
            before.append(due)
        return out

    def decoys_open(self, o: Ops[B, I], s: Frame[B, I]) -> B:
        return o.all(
            [
                o.not_(s.b("ru")),
                o.any(self.decoy_due(o, s).values()),
                o.any(self.decoy_hex_ok(o, s, h) for h in self.t.cells),
            ]
        )

    def attacked(self, o: Ops[B, I], s: Frame[B, I], h: int) -> B:
        """Some pending attack goes into hex `h`."""
        return s.cached(("attacked", h), lambda: o.any(o.eq(s.i(p), h) for p in self.pend.values()))

    def attacker_ru(self, o: Ops[B, I], s: Frame[B, I]) -> B:
        """The attackers are Russian: every landing, and every Russian combat phase."""
        return s.b("ru")

    def defending(self, o: Ops[B, I], s: Frame[B, I]) -> dict[int, B]:
        """Units of the defending side in the combat's hex (decoys never defend, AMB-SHU-30)."""

        def make() -> dict[int, B]:
            ru = self.attacker_ru(o, s)
            return {
                u: o.all([self.in_hex(o, s, u, s.i("fhex")), self.of(o, o.not_(ru), u)])
                for u in self.t.real
            }

        return s.cached("defending", make)

    def defender_limit(self, o: Ops[B, I], s: Frame[B, I]) -> I:
        """3 Russian or 4 Japanese defenders (SHU-STACK.3)."""
        lim = self.t.defender_limit
        return o.ite(self.attacker_ru(o, s), lim[JP], lim[RU])

    def retreat_exit(self, o: Ops[B, I], s: Frame[B, I]) -> B:
        """Some hex next to the combat's hex is free of the attacker's pieces (where routed or
        withdrawn units may go, AMB-SHU-26); all of them are in that hex."""
        ru = self.attacker_ru(o, s)
        t = self.t
        return o.case(
            s.i("fhex"),
            lambda h: o.any(o.not_(self.side_has(o, s, ru, n)) for n in t.nbr[h]),
            t.cells,
        )

    def victors(self, o: Ops[B, I], s: Frame[B, I]) -> dict[int, B]:
        """Undisrupted attackers still on the map, after a DE, DR or DW that left the hex
        without defenders (`victors=hex_cleared`); none after a landing (SHU-COMBAT.13)."""
        res = s.i("result")
        defender = o.not_(self.attacker_ru(o, s))
        won = o.all(
            [
                o.not_(s.b("landing")),
                o.not_(self.side_has_at(o, s, defender, s.i("fhex"))),
                o.any(o.eq(res, c) for c in (DE, DR, DW)),
            ]
        )
        return {
            u: o.all(
                [
                    won,
                    s.b(self.fatt[u]),
                    self.on_map(o, s, u),
                    o.not_(self.disrupted(o, s, u)),
                ]
            )
            for u in self.t.real
        }

    def target_free(self, o: Ops[B, I], s: Frame[B, I]) -> B:
        defender = o.not_(self.attacker_ru(o, s))
        return s.cached(
            "target_free",
            lambda: o.not_(self.side_has_at(o, s, defender, s.i("fhex"))),
        )

    def can_advance(self, o: Ops[B, I], s: Frame[B, I], u: int) -> B:
        """`u` has a hex to advance into. A victor is next to the defender's hex, which is free
        of the enemy whenever anybody won (`victors`), so that hex is always open to it while
        it has not entered it: on every reachable position this is the `advance` schema's
        guard for some hex, asked at far less cost."""
        return o.all([self.target_free(o, s), o.not_(o.eq(s.i(self.at[u]), s.i("fhex")))])

    def verdict(self, o: Ops[B, I], s: Frame[B, I]) -> I:
        """Strategic (SHU-WIN.2, the 2-star hex alone, AMB-SHU-3) or marginal (SHU-WIN.1)
        Russian victory by the star hexes the Russians hold at the end, else Japanese
        (SHU-WIN.3). Only Russian pieces count: a decoy never gives or takes a star hex."""
        t = self.t
        two = self.has(o, s, RU, t.two_star)
        one = self.has(o, s, RU, t.one_star)
        return o.ite(two, STRATEGIC, o.ite(one, MARGINAL, JAPANESE))
