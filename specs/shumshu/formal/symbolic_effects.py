"""Changes to a frame of Shumshu's symbolic model: replacing values while keeping what the frame
derived (`upd`), pieces eliminated, disrupted or broken up and decoys removed (as
`effects.py` does them), the records of the combat, the sea movement and the declaration
cleared, recovery (SHU-DISRUPT.3, SHU-DISRUPT.4), and the small readings they need.

The lowest layer above the state variables (`symbolic_state`): it calls no step, so the
questions (`symbolic_queries`) and the sequence of play (`symbolic_play`) build on it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from solvers.checking.terms import B, Frame, I, Ops
from specs.shumshu.formal.symbolic import NONE
from specs.shumshu.formal.symbolic_state import Position
from specs.shumshu.rules.state import JP


class Effects(Position):
    """What changes a frame, below the steps that decide when."""

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
