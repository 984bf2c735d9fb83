"""The state variables of Shumshu's symbolic model and what a position says: who is where, who
holds a hex, whose side a unit is, the set-up frame. Built on the static tables of `symbolic`;
`symbolic_effects`, `symbolic_queries` and `symbolic_play` add, layer on layer, the changes
to a frame, the questions a step asks, and the sequence of play.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from kernel.variants import Variant
from solvers.checking.system import BoolVar, IntVar, Var
from solvers.checking.terms import B, Frame, I, Ops
from specs.shumshu.data.loader import DATA_FILE, ShumshuData, load_data
from specs.shumshu.formal.symbolic import JAPANESE, LOST, OVER, SETUP, Tables
from specs.shumshu.rules.state import JP, RU


def _names(prefix: str, t: Tables, units: Sequence[int]) -> dict[int, str]:
    return {u: f"{prefix}.{t.ids[u]}" for u in units}


class Position:
    """The state variables of one variant, its set-up, and what a position says: who is where,
    who holds a hex, who may act. `symbolic_play.Model` adds the sequence of play."""

    def __init__(self, variant: Variant, data: ShumshuData | None = None) -> None:
        t = Tables(data or load_data(DATA_FILE), variant)
        self.t = t
        self.name = f"shumshu/{variant.preset or 'custom'}"
        real = t.real
        self.at = _names("at", t, t.units)  # where: a hex 1..H, the pool 0, or a code above H
        self.dis = _names("dis", t, real)  # disrupted
        self.rec = _names("rec", t, t.units)  # recovery player-turn, or a decoy's return turn
        self.mv = _names("mv", t, t.units)  # moved this player-turn
        self.act = _names("act", t, t.sailors)  # landed by assault this player-turn
        self.party = _names("party", t, t.sailors)  # at sea this player-turn
        every = t.units  # decoys too: the projection must show it if one ever fought
        self.pend = _names("pend", t, every)  # the hex it is declared to attack
        self.fatt = _names("fatt", t, every)  # attacker in the combat under way
        self.fdef = _names("fdef", t, every)  # defender in the combat under way
        self.retr = _names("retr", t, every)  # still to rout or withdraw
        self.win = _names("win", t, every)  # victor that may still advance
        self.variables = self._variables()

    def _variables(self) -> tuple[Var, ...]:
        t = self.t
        H, L = t.H, t.length
        out: list[Var] = [
            IntVar("turn", 1, L),
            BoolVar("ru"),
            IntVar("stage", 0, OVER),
            IntVar("ships", 0, t.capabilities),
            BoolVar("air"),
            BoolVar("air_used"),
            BoolVar("at_arrived"),
            IntVar("beach", 0, H),
            IntVar("replaced", 0, L),
            BoolVar("sail"),
            IntVar("sail_hex", 0, H),
            BoolVar("sailed"),
            BoolVar("lost"),
            BoolVar("landed"),
            IntVar("fhex", 0, H),
            BoolVar("landing"),
            BoolVar("hold"),
            BoolVar("press"),
            BoolVar("fair"),
            BoolVar("banzai"),
            IntVar("result", 0, LOST),
            IntVar("winner", 0, JAPANESE),
        ]
        for u in t.units:
            out.append(IntVar(self.at[u], 0, t.MAX_AT))
            out.append(IntVar(self.rec[u], 0, 2 * L + 2))
            out.append(BoolVar(self.mv[u]))
        for u in t.real:
            out.append(BoolVar(self.dis[u]))
        for u in t.units:
            out += [
                IntVar(self.pend[u], 0, H),
                BoolVar(self.fatt[u]),
                BoolVar(self.fdef[u]),
                BoolVar(self.retr[u]),
                BoolVar(self.win[u]),
            ]
        for u in t.sailors:
            out += [BoolVar(self.act[u]), BoolVar(self.party[u])]
        return tuple(out)

    def initial(self) -> dict[str, int | bool]:
        """Before set-up (SHU-SETUP.1 to SHU-SETUP.3): every piece waits off the map, the
        regiments unformed; the Japanese place first; three capabilities, the Ki-43 flies."""
        t = self.t
        out: dict[str, int | bool] = {
            v.name: (False if isinstance(v, BoolVar) else 0) for v in self.variables
        }
        out.update(turn=1, ru=False, stage=SETUP, ships=t.capabilities, air=True)
        for u in t.regiments:
            out[self.at[u]] = t.UNFORMED
        return out

    # --- reading a frame (constants where a unit has no such variable) ------------------

    def on_map(self, o: Ops[B, I], s: Frame[B, I], u: int) -> B:
        a = s.i(self.at[u])
        return o.all([o.le(1, a), o.le(a, self.t.H)])

    def at_hex(self, o: Ops[B, I], s: Frame[B, I], u: int, h: int) -> B:
        return s.cached(("at", u, h), lambda: o.eq(s.i(self.at[u]), h))

    def is_at(self, o: Ops[B, I], s: Frame[B, I], u: int, code: int) -> B:
        return o.eq(s.i(self.at[u]), code)

    def disrupted(self, o: Ops[B, I], s: Frame[B, I], u: int) -> B:
        return s.b(self.dis[u]) if u in self.dis else o.lit(False)

    def flag(self, o: Ops[B, I], s: Frame[B, I], names: dict[int, str], u: int) -> B:
        return s.b(names[u]) if u in names else o.lit(False)

    def pending(self, o: Ops[B, I], s: Frame[B, I], u: int) -> I:
        return s.i(self.pend[u])

    def in_cells(self, o: Ops[B, I], h: I, cells: frozenset[int] | tuple[int, ...]) -> B:
        """Hex term `h` is one of `cells` (a static set)."""
        return o.any(o.eq(h, x) for x in sorted(cells))

    def in_hex(self, o: Ops[B, I], s: Frame[B, I], u: int, h: I | int) -> B:
        """Unit `u` is on the map in hex `h` (a constant or a term that is 0 or a hex)."""
        if isinstance(h, int):
            return self.at_hex(o, s, u, h) if h else o.lit(False)
        return o.all([o.not_(o.eq(h, 0)), o.eq(s.i(self.at[u]), h)])

    # --- sides --------------------------------------------------------------------------

    def is_ru(self, o: Ops[B, I], s: Frame[B, I]) -> B:
        return s.b("ru")

    def of(self, o: Ops[B, I], ru: B, u: int) -> B:
        """`u` is of the side that `ru` says (true: the Russians)."""
        return ru if self.t.side[u] == RU else o.not_(ru)

    def phasing(self, o: Ops[B, I], s: Frame[B, I], u: int) -> B:
        return self.of(o, s.b("ru"), u)

    # --- who is where (memoised per frame) ----------------------------------------------

    def has(self, o: Ops[B, I], s: Frame[B, I], side: str, h: int) -> B:
        """A piece of `side` ("" either) is on hex `h` (SHU-STACK.1: the hex's holder)."""

        def make() -> B:
            units = self.t.of_side[side] if side else self.t.units
            return o.any(self.at_hex(o, s, u, h) for u in units)

        return s.cached(("has", side, h), make)

    def has_at(self, o: Ops[B, I], s: Frame[B, I], side: str, h: I) -> B:
        """`has` at a hex given as a term (false for 0)."""
        if o.value(h) is not None:
            value = o.value(h)
            return self.has(o, s, side, value) if value else o.lit(False)
        units = self.t.of_side[side] if side else self.t.units
        return o.all([o.not_(o.eq(h, 0)), o.any(o.eq(s.i(self.at[u]), h) for u in units)])

    def side_has_at(self, o: Ops[B, I], s: Frame[B, I], ru: B, h: I) -> B:
        """A piece of the side `ru` names is on hex `h` (a term)."""
        return o.bite(ru, self.has_at(o, s, RU, h), self.has_at(o, s, JP, h))

    def side_has(self, o: Ops[B, I], s: Frame[B, I], ru: B, h: int) -> B:
        """A piece of the side `ru` names is on hex `h`."""
        return o.bite(ru, self.has(o, s, RU, h), self.has(o, s, JP, h))

    def hexes_where(self, o: Ops[B, I], s: Frame[B, I], u: int, f: Callable[[int], B]) -> B:
        """`f` of the hex `u` is on (false off the map)."""
        return o.case(s.i(self.at[u]), f, self.t.cells)
