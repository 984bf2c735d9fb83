"""The sequence of play of Shumshu's symbolic model (SHU-SEQ.1, SHU-SEQ.2 and the steps of
`sequence.py`): where each step leads once an action is taken, as the Python rules' `sequence`
says it, with the results (SHU-CRT.3 to SHU-CRT.8, SHU-RGT.2, SHU-LAND.7 to SHU-LAND.9). The
odds and the table it reads them from are `symbolic_odds`.

A step that ends a combat, a phase or a player-turn lands in one step where the rules land: the
next lander's roll, the next combat, the next player-turn's first decision, or the game's end.
The functions mirror `sequence.py` one for one and name it; where that module loops, the comment
says how far a reachable position can take the loop.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from kernel.variants import Variant
from solvers.checking.system import Schema
from solvers.checking.terms import B, Frame, I, Ops, merge
from specs.shumshu.data.loader import ShumshuData
from specs.shumshu.formal.symbolic import (
    AD,
    ADVANCE,
    AE,
    AIR,
    COMMIT,
    DE,
    DECOY,
    DEFENDERS,
    DR,
    DW,
    FORM,
    HOLD,
    JAPANESE,
    MARGINAL,
    MOVE,
    NONE,
    OVER,
    PICK,
    POOL,
    REINFORCE,
    REPLACE,
    RETREAT,
    ROLL,
    SAIL,
    STRATEGIC,
    D,
    Position,
)
from specs.shumshu.formal.symbolic_odds import Odds
from specs.shumshu.rules.state import JP, RU


class Model(Position):
    """The transition system of one variant (`solvers.checking.system.System`)."""

    def __init__(self, variant: Variant, data: ShumshuData | None = None) -> None:
        super().__init__(variant, data)
        from specs.shumshu.formal.symbolic_actions import schemas_to_declaration
        from specs.shumshu.formal.symbolic_combat_actions import combat_schemas
        from specs.shumshu.formal.symbolic_declare import Declarations

        self.decl = Declarations(self)
        self.odds = Odds(self)
        self.schemas: tuple[Schema, ...] = (*schemas_to_declaration(self), *combat_schemas(self))

    MEMO_READS: ClassVar[dict[str, set[str]]] = {
        "has": {"at"},
        "at": {"at"},
        "reachable": {"at"},
        "attacked": {"pend"},
        "defending": {"at", "fhex", "ru"},
        "target_free": {"at", "fhex", "ru"},
        "enemy": {"at", "ru"},
        "obliged": {"at", "dis", "ru"},
        "attackers": {"at", "dis", "ru", "act", "mv"},
    }
    """What each kind of value a frame derives reads (by variable family)."""

    def upd(
        self,
        s: Frame[B, I],
        ints: Mapping[str, I] | None = None,
        bools: Mapping[str, B] | None = None,
    ) -> Frame[B, I]:
        """`s` with some values replaced; what the frame derived (who holds a hex, which hexes
        are attacked, who defends) is kept when no value it reads changed."""
        changed = {n.partition(".")[0] for n in [*(ints or {}), *(bools or {})]}
        out = s.evolve(ints, bools)
        reads = self.MEMO_READS
        out.memo = {
            k: v
            for k, v in s.memo.items()
            if not (reads[k[0] if isinstance(k, tuple) else k] & changed)
        }
        return out

    # --- small pieces -----------------------------------------------------------------------

    def is_am(self, o: Ops[B, I], s: Frame[B, I]) -> B:
        """Odd turns are AM (SHU-SEQ.2)."""
        return o.eq(o.mod(s.i("turn"), 2), 1)

    def flags(
        self, o: Ops[B, I], names: Mapping[int, str], values: Mapping[int, B]
    ) -> dict[str, B]:
        """A family of per-unit flags set to `values` (false where none is given)."""
        return {n: values.get(u, o.lit(False)) for u, n in names.items()}

    def count_of(self, o: Ops[B, I], s: Frame[B, I], names: Mapping[int, str]) -> I:
        return o.count(s.b(n) for n in names.values())

    def any_of(self, o: Ops[B, I], s: Frame[B, I], names: Mapping[int, str]) -> B:
        return o.any(s.b(n) for n in names.values())

    def first(self, o: Ops[B, I], s: Frame[B, I], names: Mapping[int, str]) -> dict[int, B]:
        """The first unit (data order) whose flag is set, as one condition per unit."""
        out: dict[int, B] = {}
        before: list[B] = []
        for u in sorted(names):
            flag = s.b(names[u])
            out[u] = o.all([flag, *(o.not_(x) for x in before)])
            before.append(flag)
        return out

    def recovery(self, o: Ops[B, I], s: Frame[B, I], u: int) -> I:
        """The player-turn at whose end `u`, disrupted now, recovers (SHU-DISRUPT.3,
        SHU-DISRUPT.4; AMB-SHU-20 draft): a Japanese unit at the end of this turn's Japanese
        player-turn; a Russian one at the end of the first Japanese combat phase after."""
        two_t = o.add([s.i("turn"), s.i("turn")])
        if self.t.side[u] == JP:
            return two_t
        return o.ite(s.b("ru"), two_t, o.add([two_t, 2]))

    # --- pieces changing (effects.py) -------------------------------------------------------

    def pieces(
        self,
        o: Ops[B, I],
        s: Frame[B, I],
        gone: Mapping[int, B],
        disrupt: Mapping[int, B],
        broken: Mapping[int, B] | None = None,
        to: Mapping[int, I] | None = None,
    ) -> Frame[B, I]:
        """Eliminate (`gone`: a regiment takes its battalions with it and may form again,
        AMB-SHU-10), disrupt (`disrupt`, with the recovery turn) and break regiments (`broken`:
        its battalions placed where it ends up, disrupted, SHU-RGT.2); `to` moves units first.
        An eliminated, formed or broken-up piece starts afresh, undisrupted
        (effects.eliminate, disrupt, break_regiment)."""
        t = self.t
        false = o.lit(False)
        broken = broken or {}
        to = to or {}
        ints: dict[str, I] = {}
        bools: dict[str, B] = {}
        here = {u: to.get(u, s.i(self.at[u])) for u in t.units}
        for u in t.units:
            spec = t.specs[u]
            reg = t.ids.index(spec.regiment) if spec.regiment is not None else None
            hit = disrupt.get(u, false)
            if t.regiment[u]:
                fresh = o.any([gone.get(u, false), broken.get(u, false)])
                ints[self.at[u]] = o.ite(fresh, t.UNFORMED, here[u])
            elif reg is not None:
                fresh = o.any([gone.get(u, false), gone.get(reg, false)])
                brk = broken.get(reg, false)
                ints[self.at[u]] = o.ite(fresh, t.GONE, o.ite(brk, here[reg], here[u]))
                hit = o.any([hit, brk])
            else:
                fresh = gone.get(u, false)
                ints[self.at[u]] = o.ite(fresh, t.GONE, here[u])
            old_rec = s.i(self.rec[u])
            if u in self.dis:
                bools[self.dis[u]] = o.all([o.not_(fresh), o.any([hit, s.b(self.dis[u])])])
                rec = o.ite(hit, self.recovery(o, s, u), old_rec)
                ints[self.rec[u]] = o.ite(fresh, 0, rec)
            else:
                ints[self.rec[u]] = o.ite(fresh, 0, old_rec)
        return self.upd(s, ints, bools)

    def remove_decoys(self, o: Ops[B, I], s: Frame[B, I], h: I | int) -> Frame[B, I]:
        """Decoys in an attacked (or landed-on) hex are discovered and removed until the next
        turn (SHU-COMBAT.6, `decoy_discovery=hex_attacked`)."""
        t = self.t
        back = o.add([s.i("turn"), 1])
        ints: dict[str, I] = {}
        for d in t.decoys:
            found = self.in_hex(o, s, d, h)
            ints[self.at[d]] = o.ite(found, t.REMOVED, s.i(self.at[d]))
            ints[self.rec[d]] = o.ite(found, back, s.i(self.rec[d]))
        return self.upd(s, ints)

    # --- clearing records -------------------------------------------------------------------

    def clear_fight(self, o: Ops[B, I], s: Frame[B, I]) -> Frame[B, I]:
        bools: dict[str, B] = {
            n: o.lit(False) for n in ("landing", "hold", "press", "fair", "banzai")
        }
        for names in (self.fatt, self.fdef, self.retr, self.win):
            bools.update({n: o.lit(False) for n in names.values()})
        return self.upd(s, {"fhex": o.num(0), "result": o.num(NONE)}, bools)

    def clear_sail(self, o: Ops[B, I], s: Frame[B, I]) -> Frame[B, I]:
        bools: dict[str, B] = {n: o.lit(False) for n in ("sail", "sailed", "lost", "landed")}
        bools.update({n: o.lit(False) for n in self.party.values()})
        return self.upd(s, {"sail_hex": o.num(0)}, bools)

    def clear_pending(self, o: Ops[B, I], s: Frame[B, I]) -> Frame[B, I]:
        return self.upd(s, {n: o.num(0) for n in self.pend.values()})

    def stage(self, o: Ops[B, I], s: Frame[B, I], stage: int) -> Frame[B, I]:
        return self.upd(s, {"stage": o.num(stage)})

    # --- player-turns (sequence.start_player_turn and the steps it enters) --------------

    def new_player_turn(self, o: Ops[B, I], s: Frame[B, I], ru: bool) -> Frame[B, I]:
        """The Russians land, move and attack first, then the Japanese (SHU-SEQ.1)."""
        s = self.clear_fight(o, self.clear_sail(o, self.clear_pending(o, s)))
        bools: dict[str, B] = {"ru": o.lit(ru), "air_used": o.lit(False)}
        bools.update({n: o.lit(False) for n in self.mv.values()})
        bools.update({n: o.lit(False) for n in self.act.values()})
        s = self.upd(s, None, bools)
        return self.form_step(o, s) if ru else self.reinforce_step(o, s)

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

    def form_step(self, o: Ops[B, I], s: Frame[B, I]) -> Frame[B, I]:
        can = o.any(self.formable(o, s, r) for r in self.t.regiments)
        return merge(o, can, lambda: self.stage(o, s, FORM), lambda: self.sail_step(o, s))

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

    def sail_step(self, o: Ops[B, I], s: Frame[B, I]) -> Frame[B, I]:
        return merge(
            o, self.sail_open(o, s), lambda: self.stage(o, s, SAIL), lambda: self.air_step(o, s)
        )

    def strike_possible(self, o: Ops[B, I], s: Frame[B, I]) -> B:
        """The Ki-43 against shipping once in a Russian player-turn while a capability is left
        (SHU-AIR.2, AMB-SHU-23 draft)."""
        return o.all([s.b("ru"), o.lt(0, s.i("ships")), s.b("air"), o.not_(s.b("air_used"))])

    def air_step(self, o: Ops[B, I], s: Frame[B, I]) -> Frame[B, I]:
        return merge(
            o,
            self.strike_possible(o, s),
            lambda: self.stage(o, s, AIR),
            lambda: self.landing_step(o, s),
        )

    def landing_step(self, o: Ops[B, I], s: Frame[B, I]) -> Frame[B, I]:
        """The next lander (the first of the party in data order) attacks the coastal hex on
        its own (SHU-LAND.2): decoys there are discovered; an unopposed hex is rolled for
        (every lander rolls, SHU-LAND.3), an opposed one defended. With nobody left the sea
        movement ends. No loop: each lander stops at a decision or a roll."""
        go = o.all([self.landing_mode(o, s), self.any_of(o, s, self.party)])

        def lander() -> Frame[B, I]:
            first = self.first(o, s, self.party)
            s1 = self.remove_decoys(o, s, s.i("sail_hex"))
            s2 = self.upd(
                self.clear_fight(o, s1),
                {"fhex": s.i("sail_hex")},
                {"landing": o.lit(True), **{self.fatt[u]: first[u] for u in self.t.sailors}},
            )
            opposed = self.has_at(o, s2, JP, s.i("sail_hex"))
            return merge(
                o, opposed, lambda: self.defenders_step(o, s2), lambda: self.stage(o, s2, ROLL)
            )

        return merge(o, go, lander, lambda: self.finish_sail(o, s))

    def finish_sail(self, o: Ops[B, I], s: Frame[B, I]) -> Frame[B, I]:
        """A successful landing makes its hex the beachhead (SHU-LAND.1); deliveries land
        there (SHU-REINF.3)."""
        t = self.t
        landed = o.all([self.landing_mode(o, s), s.b("landed")])
        deliver = o.all([s.b("sail"), o.eq(s.i("sail_hex"), 0), o.not_(o.eq(s.i("beach"), 0))])
        ints: dict[str, I] = {"beach": o.ite(landed, s.i("sail_hex"), s.i("beach"))}
        for u in t.sailors:
            ints[self.at[u]] = o.ite(
                o.all([deliver, s.b(self.party[u])]), s.i("beach"), s.i(self.at[u])
            )
        s1 = self.clear_sail(o, self.upd(s, ints))
        return self.replace_step(o, s1)

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

    def replace_step(self, o: Ops[B, I], s: Frame[B, I]) -> Frame[B, I]:
        return merge(
            o,
            self.replacements_open(o, s),
            lambda: self.stage(o, s, REPLACE),
            lambda: self.stage(o, s, MOVE),
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

    def reinforce_step(self, o: Ops[B, I], s: Frame[B, I]) -> Frame[B, I]:
        return merge(
            o,
            self.reinforcements_open(o, s),
            lambda: self.stage(o, s, REINFORCE),
            lambda: self.decoy_step(o, s),
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

    def decoy_step(self, o: Ops[B, I], s: Frame[B, I]) -> Frame[B, I]:
        return merge(
            o,
            self.decoys_open(o, s),
            lambda: self.stage(o, s, DECOY),
            lambda: self.stage(o, s, MOVE),
        )

    # --- combats: picking, defenders, commitment ---------------------------------------------

    def attacked(self, o: Ops[B, I], s: Frame[B, I], h: int) -> B:
        """Some pending attack goes into hex `h`."""
        return s.cached(("attacked", h), lambda: o.any(o.eq(s.i(p), h) for p in self.pend.values()))

    def pick_step(self, o: Ops[B, I], s: Frame[B, I]) -> Frame[B, I]:
        """No combat left ends the phase; one is resolved at once; of several the attacker
        picks (`resolution_order=attacker_chooses`)."""
        t = self.t
        marks = [self.attacked(o, s, h) for h in t.cells]
        n = o.count(marks)
        only = o.add(o.ite(m, h, 0) for h, m in zip(t.cells, marks, strict=True))
        return merge(
            o,
            o.eq(n, 0),
            lambda: self.end_combat_phase(o, s),
            lambda: merge(
                o,
                o.eq(n, 1),
                lambda: self.start_fight(o, s, only),
                lambda: self.stage(o, s, PICK),
            ),
        )

    def start_fight(self, o: Ops[B, I], s: Frame[B, I], h: I) -> Frame[B, I]:
        """The combat into `h` starts: its attackers leave the pending list, decoys there are
        discovered (SHU-COMBAT.6); a hex left empty gives an automatic DE (AMB-SHU-21 iv),
        whose victors may advance (sequence.start_fight, after_result, advance_step)."""
        t = self.t
        chosen = {u: o.eq(s.i(self.pend[u]), h) for u in t.units}
        s1 = self.upd(s, {self.pend[u]: o.ite(chosen[u], 0, s.i(self.pend[u])) for u in t.units})
        s2 = self.remove_decoys(o, s1, h)
        s3 = self.upd(
            self.clear_fight(o, s2),
            {"fhex": h},
            {x: chosen.get(u, o.lit(False)) for u, x in self.fatt.items()},
        )
        empty = o.not_(o.any(self.in_hex(o, s3, u, h) for u in t.real))

        def automatic() -> Frame[B, I]:
            # DE against nobody changes no piece; the attackers, on the map and undisrupted
            # since they joined, are the victors, and the free hex is open to each of them
            won = self.upd(s3, {"result": o.num(DE), "stage": o.num(ADVANCE)})
            return self.upd(won, None, self.flags(o, self.win, self.victors(o, won)))

        return merge(o, empty, automatic, lambda: self.defenders_step(o, s3))

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

    def defenders_step(self, o: Ops[B, I], s: Frame[B, I]) -> Frame[B, I]:
        """Within the limit, every unit defends; above it the defender picks as many as
        allowed (`defender_count=as_many_as_allowed`, a regiment counting one)."""
        units = self.defending(o, s)
        fits = o.le(o.count(units.values()), self.defender_limit(o, s))
        return merge(
            o,
            fits,
            lambda: self.set_defenders(o, s, units),
            lambda: self.stage(o, s, DEFENDERS),
        )

    def set_defenders(self, o: Ops[B, I], s: Frame[B, I], chosen: Mapping[int, B]) -> Frame[B, I]:
        """No Retreat! may be declared for undisrupted defenders, in every combat
        (SHU-LAND.8, SHU-LAND.9, `no_retreat_scope=every_combat`)."""
        s1 = self.upd(s, None, self.flags(o, self.fdef, chosen))
        hold = o.any(o.all([chosen[u], o.not_(self.disrupted(o, s, u))]) for u in self.t.real)
        return merge(o, hold, lambda: self.stage(o, s1, HOLD), lambda: self.commit_step(o, s1))

    def commit_step(self, o: Ops[B, I], s: Frame[B, I]) -> Frame[B, I]:
        """A lander has no choice (no press on landings, no Ki-43 or Banzai! for it); on land
        the attacker always has one (to press, `odds_beyond=clamp`: no automatic result)."""
        return merge(
            o, s.b("landing"), lambda: self.stage(o, s, ROLL), lambda: self.stage(o, s, COMMIT)
        )

    # --- results (combat.apply_result, after_result) --------------------------------------

    def apply_result(self, o: Ops[B, I], s: Frame[B, I], res: I) -> Frame[B, I]:
        """DE, DR, DW, D, AD, AE against every unit in the hex (`non_defenders=share_result`),
        No Retreat! turning DR into DE and DW into D for undisrupted units that hold
        (SHU-LAND.8, `no_retreat_dw=disrupted`), regiments breaking on AD (SHU-RGT.2), a
        Banzai! attack eliminated on D or worse (SHU-BANZAI.2). Routed or withdrawn units are
        marked to move."""
        t = self.t

        def is_(*codes: int) -> B:
            return o.any(o.eq(res, c) for c in codes)

        hit = self.defending(o, s)
        hold = s.b("hold")
        held = {u: o.all([hit[u], hold, o.not_(self.disrupted(o, s, u))]) for u in t.real}
        atk = {u: o.all([s.b(self.fatt[u]), self.on_map(o, s, u)]) for u in t.real}
        banzai_lost = o.all([s.b("banzai"), is_(D, AD, AE)])
        gone = {
            u: o.any(
                [
                    o.all([hit[u], is_(DE)]),
                    o.all([held[u], is_(DR)]),
                    o.all([atk[u], is_(AE)]),
                    o.all([atk[u], banzai_lost]),
                ]
            )
            for u in t.real
        }
        moving = {u: o.all([hit[u], o.not_(held[u]), is_(DR, DW)]) for u in t.real}
        disrupt = {
            u: o.any(
                [
                    o.all([hit[u], is_(D)]),
                    moving[u],
                    o.all([held[u], is_(DW)]),
                    o.all([atk[u], o.lit(not t.regiment[u]), is_(AD)]),
                ]
            )
            for u in t.real
        }
        broken = {r: o.all([atk[r], is_(AD)]) for r in t.regiments}
        s1 = self.pieces(o, s, gone, disrupt, broken)
        return self.upd(s1, {"result": res}, self.flags(o, self.retr, moving))

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

    def after_result(self, o: Ops[B, I], s: Frame[B, I]) -> Frame[B, I]:
        """Routs and withdrawals one unit at a time (SHU-CRT.4, SHU-CRT.5): every such unit is
        in the combat's hex, so either each has a hex to go to (the retreat step) or none has,
        and all are eliminated (`no_retreat_path=eliminated`); then the lander comes ashore
        or the victors advance."""
        t = self.t
        moving = {u: o.all([s.b(self.retr[u]), self.on_map(o, s, u)]) for u in t.real}
        some = o.any(moving.values())
        exit_ = self.retreat_exit(o, s)

        def go_on(x: Frame[B, I]) -> Frame[B, I]:
            x = self.upd(x, None, self.flags(o, self.retr, {}))
            return merge(
                o,
                x.b("landing"),
                lambda: self.lander_done(o, x),
                lambda: self.advance_step(o, x, None),
            )

        def trapped() -> Frame[B, I]:
            return go_on(self.pieces(o, s, moving, {}))

        def retreat() -> Frame[B, I]:
            return self.upd(s, {"stage": o.num(RETREAT)}, self.flags(o, self.retr, moving))

        return merge(
            o,
            some,
            lambda: merge(o, exit_, retreat, trapped),
            lambda: go_on(s),
        )

    def lander_done(self, o: Ops[B, I], s: Frame[B, I]) -> Frame[B, I]:
        """The lander comes ashore once the hex is clear of the enemy (SHU-LAND.7), and has
        then made its move (`landed_units=landing_is_action`); a lost lander is gone, a failed
        one goes back off-board (`failed_landing=return`). The next lander follows."""
        t = self.t
        res = s.i("result")
        cleared = o.all(
            [
                o.any(o.eq(res, c) for c in (NONE, DE, DR, DW)),
                o.not_(self.has_at(o, s, JP, s.i("sail_hex"))),
            ]
        )
        ints: dict[str, I] = {}
        bools: dict[str, B] = {}
        lands = []
        for u in t.sailors:
            mine = s.b(self.fatt[u])
            land = o.all([mine, self.is_at(o, s, u, POOL), cleared])
            lands.append(land)
            ints[self.at[u]] = o.ite(land, s.i("sail_hex"), s.i(self.at[u]))
            bools[self.act[u]] = o.any([s.b(self.act[u]), land])
            bools[self.party[u]] = o.all([s.b(self.party[u]), o.not_(mine)])
        bools["landed"] = o.any([s.b("landed"), *lands])
        s1 = self.clear_fight(o, self.upd(s, ints, bools))
        return self.landing_step(o, s1)

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

    def advance_step(
        self, o: Ops[B, I], s: Frame[B, I], winners: Mapping[int, B] | None
    ) -> Frame[B, I]:
        """Victors with somewhere to go may advance (SHU-COMBAT.13); else the combat is over.
        `winners` None: the victors of the result just applied (sequence.advance_step)."""
        t = self.t
        who = self.victors(o, s) if winners is None else winners
        able = {u: o.all([who[u], self.can_advance(o, s, u)]) for u in t.real}

        def advance() -> Frame[B, I]:
            return self.upd(s, {"stage": o.num(ADVANCE)}, self.flags(o, self.win, able))

        return merge(o, o.any(able.values()), advance, lambda: self.fight_done(o, s))

    def fight_done(self, o: Ops[B, I], s: Frame[B, I]) -> Frame[B, I]:
        return self.pick_step(o, self.clear_fight(o, s))

    # --- ends of phases, turns and the game ----------------------------------------------------

    def recover(self, o: Ops[B, I], s: Frame[B, I], side: str, pt: I) -> Frame[B, I]:
        """Disrupted units of `side` whose player-turn has come recover (SHU-DISRUPT.3,
        SHU-DISRUPT.4)."""
        ints: dict[str, I] = {}
        bools: dict[str, B] = {}
        for u in self.t.of_side[side]:
            if u not in self.dis:
                continue
            back = o.all([s.b(self.dis[u]), o.le(s.i(self.rec[u]), pt)])
            bools[self.dis[u]] = o.all([s.b(self.dis[u]), o.not_(back)])
            ints[self.rec[u]] = o.ite(back, 0, s.i(self.rec[u]))
        return self.upd(s, ints, bools)

    def end_combat_phase(self, o: Ops[B, I], s: Frame[B, I]) -> Frame[B, I]:
        """Russian units recover at the end of the Japanese combat phase (SHU-DISRUPT.4)."""
        s = self.clear_fight(o, self.clear_pending(o, s))
        two_t = o.add([s.i("turn"), s.i("turn")])
        s1 = merge(o, s.b("ru"), lambda: s, lambda: self.recover(o, s, RU, two_t))
        return self.end_player_turn(o, s1)

    def end_player_turn(self, o: Ops[B, I], s: Frame[B, I]) -> Frame[B, I]:
        """Japanese units recover at the end of a player-turn (SHU-DISRUPT.3); after the
        Japanese player-turn of the last half-day the game ends (SHU-WIN.3, AMB-SHU-2)."""
        turn = s.i("turn")
        pt = o.sub(o.add([turn, turn]), o.ite(s.b("ru"), 1, 0))
        s1 = self.recover(o, s, JP, pt)

        def next_turn() -> Frame[B, I]:
            return self.new_player_turn(o, self.upd(s1, {"turn": o.add([turn, 1])}), True)

        return merge(
            o,
            s1.b("ru"),
            lambda: self.new_player_turn(o, s1, False),
            lambda: merge(o, o.le(self.t.length, turn), lambda: self.game_over(o, s1), next_turn),
        )

    def verdict(self, o: Ops[B, I], s: Frame[B, I]) -> I:
        """Strategic (SHU-WIN.2, the 2-star hex alone, AMB-SHU-3) or marginal (SHU-WIN.1)
        Russian victory by the star hexes the Russians hold at the end, else Japanese
        (SHU-WIN.3). Only Russian pieces count: a decoy never gives or takes a star hex."""
        t = self.t
        two = self.has(o, s, RU, t.two_star)
        one = self.has(o, s, RU, t.one_star)
        return o.ite(two, STRATEGIC, o.ite(one, MARGINAL, JAPANESE))

    def game_over(self, o: Ops[B, I], s: Frame[B, I]) -> Frame[B, I]:
        s1 = self.clear_fight(o, self.clear_sail(o, self.clear_pending(o, s)))
        return self.upd(s1, {"stage": o.num(OVER), "winner": self.verdict(o, s1)})

    def settle(self, o: Ops[B, I], s: Frame[B, I]) -> Frame[B, I]:
        """After every action (sequence.settle): the beachhead is lost when the Japanese take it
        or it is emptied (AMB-SHU-7); the AT guns have arrived once landed (SHU-TANK.2)."""
        t = self.t
        beach = s.i("beach")
        lost = o.any([self.has_at(o, s, JP, beach), o.not_(self.has_at(o, s, "", beach))])
        landed = o.any(self.on_map(o, s, u) for u in t.at_guns)
        s1 = self.upd(
            s,
            {"beach": o.ite(lost, 0, beach)},
            {"at_arrived": o.any([s.b("at_arrived"), landed])},
        )
        return merge(o, o.eq(s.i("stage"), OVER), lambda: s, lambda: s1)
