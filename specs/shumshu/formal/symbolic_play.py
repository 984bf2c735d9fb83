"""The sequence of play of Shumshu's symbolic model (SHU-SEQ.1, SHU-SEQ.2 and the steps of
`sequence.py`): where each step leads once an action is taken, as the Python rules' `sequence`
says it, with the results (SHU-CRT.3 to SHU-CRT.8, SHU-RGT.2, SHU-LAND.7 to SHU-LAND.9). The
odds and the table it reads them from are `symbolic_odds`; the questions the steps ask are
`symbolic_queries`, and the changes they make to a frame `symbolic_effects`, the layers
`Model` builds on.

A step that ends a combat, a phase or a player-turn lands in one step where the rules land: the
next lander's roll, the next combat, the next player-turn's first decision, or the game's end.
The functions mirror `sequence.py` one for one and name it; where that module loops, the comment
says how far a reachable position can take the loop.
"""

from __future__ import annotations

from collections.abc import Mapping

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
    D,
)
from specs.shumshu.formal.symbolic_odds import Odds
from specs.shumshu.formal.symbolic_queries import Queries
from specs.shumshu.rules.state import JP, RU


class Model(Queries):
    """The transition system of one variant (`solvers.checking.system.System`)."""

    def __init__(self, variant: Variant, data: ShumshuData | None = None) -> None:
        super().__init__(variant, data)
        from specs.shumshu.formal.symbolic_actions import schemas_to_declaration
        from specs.shumshu.formal.symbolic_combat_actions import combat_schemas
        from specs.shumshu.formal.symbolic_declare import Declarations

        self.decl = Declarations(self)
        self.odds = Odds(self)
        self.schemas: tuple[Schema, ...] = (*schemas_to_declaration(self), *combat_schemas(self))

    # --- player-turns (sequence.start_player_turn and the steps it enters) --------------

    def new_player_turn(self, o: Ops[B, I], s: Frame[B, I], ru: bool) -> Frame[B, I]:
        """The Russians land, move and attack first, then the Japanese (SHU-SEQ.1)."""
        s = self.clear_fight(o, self.clear_sail(o, self.clear_pending(o, s)))
        bools: dict[str, B] = {"ru": o.lit(ru), "air_used": o.lit(False)}
        bools.update({n: o.lit(False) for n in self.mv.values()})
        bools.update({n: o.lit(False) for n in self.act.values()})
        s = self.upd(s, None, bools)
        return self.form_step(o, s) if ru else self.reinforce_step(o, s)

    def form_step(self, o: Ops[B, I], s: Frame[B, I]) -> Frame[B, I]:
        can = o.any(self.formable(o, s, r) for r in self.t.regiments)
        return merge(o, can, lambda: self.stage(o, s, FORM), lambda: self.sail_step(o, s))

    def sail_step(self, o: Ops[B, I], s: Frame[B, I]) -> Frame[B, I]:
        return merge(
            o, self.sail_open(o, s), lambda: self.stage(o, s, SAIL), lambda: self.air_step(o, s)
        )

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

    def replace_step(self, o: Ops[B, I], s: Frame[B, I]) -> Frame[B, I]:
        return merge(
            o,
            self.replacements_open(o, s),
            lambda: self.stage(o, s, REPLACE),
            lambda: self.stage(o, s, MOVE),
        )

    def reinforce_step(self, o: Ops[B, I], s: Frame[B, I]) -> Frame[B, I]:
        return merge(
            o,
            self.reinforcements_open(o, s),
            lambda: self.stage(o, s, REINFORCE),
            lambda: self.decoy_step(o, s),
        )

    def decoy_step(self, o: Ops[B, I], s: Frame[B, I]) -> Frame[B, I]:
        return merge(
            o,
            self.decoys_open(o, s),
            lambda: self.stage(o, s, DECOY),
            lambda: self.stage(o, s, MOVE),
        )

    # --- combats: picking, defenders, commitment ---------------------------------------------

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

    def game_over(self, o: Ops[B, I], s: Frame[B, I]) -> Frame[B, I]:
        s1 = self.clear_fight(o, self.clear_sail(o, self.clear_pending(o, s)))
        return self.upd(s1, {"stage": o.num(OVER), "winner": self.verdict(o, s1)})

    def settle(self, o: Ops[B, I], s: Frame[B, I]) -> Frame[B, I]:
        """After every action (ending.settle): the beachhead is lost when the Japanese take it
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
