"""The odds and the combat results table of Shumshu's symbolic model, as `odds.py` and
`crt.py` read them: the final odds column (SHU-COMBAT.7 to SHU-COMBAT.12, SHU-DISRUPT.2,
SHU-TANK, SHU-AIR.1, SHU-LAND.6), the die's row with its readings (SHU-CRT.1, SHU-CRT.9,
SHU-BANZAI.1, SHU-LAND.6), the result with a pressed attack's shift (SHU-CRT.2, SHU-PRESS.1),
and a lander's worst roll (SHU-LAND.3). The sequence of play (`symbolic_play.Model.odds`)
reads them when a die is rolled.
"""

from __future__ import annotations

from solvers.checking.terms import B, Frame, I, Ops
from specs.shumshu.formal.symbolic_state import Position
from specs.shumshu.rules.state import RU


class Odds:
    """The odds and the table over one model's positions."""

    def __init__(self, m: Position) -> None:
        self.m = m

    def clamp(self, o: Ops[B, I], x: I) -> I:
        """Column `x` within the table (`odds_beyond=clamp`, AMB-SHU-17)."""
        last = self.m.t.columns - 1
        return o.ite(o.lt(x, 0), 0, o.ite(o.lt(last, x), last, x))

    def column(self, o: Ops[B, I], s: Frame[B, I]) -> I:
        """The final odds column (SHU-COMBAT.7 to SHU-COMBAT.12, SHU-DISRUPT.2, SHU-TANK.1,
        SHU-TANK.2, SHU-AIR.1, SHU-LAND.6): attack over defence rounded down, +1 defence on a
        mountain except for a landing, then the shifts summed and clamped (AMB-SHU-17)."""
        m = self.m
        t = m.t
        fhex, landing, ru = s.i("fhex"), s.b("landing"), s.b("ru")
        fatt = {u: s.b(m.fatt[u]) for u in t.real}
        fdef = {u: s.b(m.fdef[u]) for u in t.real}
        attack = o.add(o.ite(fatt[u], t.attack[u], 0) for u in t.real)
        some_def = o.any(fdef.values())
        mountain = o.all([o.not_(landing), m.in_cells(o, fhex, t.mountain), some_def])
        defence = o.add([*(o.ite(fdef[u], t.defence[u], 0) for u in t.real), o.ite(mountain, 1, 0)])
        # 1:2, 1:1, 3:2, 2:1, 3:1, 4:1 reached (the 1:3 column is the floor after clamping)
        ratios = ((1, 2), (1, 1), (3, 2), (2, 1), (3, 1), (4, 1))
        met = [o.le(o.add([defence] * num), o.add([attack] * den)) for num, den in ratios]
        base = o.ite(o.le(defence, 0), t.columns - 1, o.count(met))
        red, black = m.in_cells(o, fhex, t.red), m.in_cells(o, fhex, t.black)
        ours = o.bite(ru, black, red)
        theirs = o.bite(ru, red, black)
        crossing = []
        for a in t.real:
            across = o.any(o.all([m.at_hex(o, s, a, x), o.eq(fhex, y)]) for x, y in sorted(t.river))
            engineers = o.any(
                o.all([fatt[e], o.eq(s.i(m.at[e]), s.i(m.at[a]))]) for e in t.engineers
            )
            crossing.append(o.all([fatt[a], across, o.not_(engineers)]))
        river = o.lt(o.count(fatt.values()), o.add([o.count(crossing)] * 2))
        swamp = m.in_cells(o, fhex, t.swamp)
        all_dis = o.all(
            [
                some_def,
                *(o.implies(fdef[u], m.disrupted(o, s, u)) for u in t.real),
            ]
        )
        jp_land = o.all([o.not_(ru), o.not_(landing)])
        tanks = []
        for k in t.real:
            if not t.tank[k]:
                continue
            across = o.any(o.all([m.at_hex(o, s, k, x), o.eq(fhex, y)]) for x, y in sorted(t.river))
            tanks.append(o.all([jp_land, fatt[k], o.not_(across), o.not_(s.b("at_arrived"))]))
        shifts = [
            o.ite(o.all([o.not_(landing), ours]), 1, 0),
            o.ite(o.all([o.not_(landing), theirs]), -1, 0),
            o.ite(o.all([o.not_(landing), river]), -1, 0),
            o.ite(swamp, -1, 0),
            o.ite(all_dis, 1, 0),
            *(o.ite(x, 1, 0) for x in tanks),
            o.ite(o.all([jp_land, s.b("fair")]), 1, 0),
        ]
        return self.clamp(o, o.add([base, *shifts]))

    def row(self, o: Ops[B, I], s: Frame[B, I], face: I) -> I:
        """The table row of the die (SHU-CRT.1, SHU-CRT.9 by nationality): Banzai! adds one
        (above 6 counts as 6, SHU-BANZAI.1); a landing in Kamchatka range moves the die one
        pip the Russians' way (SHU-LAND.6, `kamchatka_shift=die`)."""
        m = self.m
        t = m.t
        ru = s.b("ru")
        kamchatka = o.all([s.b("landing"), m.in_cells(o, s.i("fhex"), t.black)])
        banzai = s.b("banzai")
        rows_l, rows_r = t.row_of[True], t.row_of[False]

        def pick(table: dict[int, int], shift: int) -> I:
            out: I = o.num(table[6])
            for f in range(5, 0, -1):
                out = o.ite(o.eq(face, f), table[max(1, min(6, f + shift))], out)
            return out

        left = o.ite(banzai, pick(rows_l, 1), pick(rows_l, 0))
        right = o.ite(kamchatka, pick(rows_r, -1), pick(rows_r, 0))
        return o.ite(ru, right, left)

    def result(self, o: Ops[B, I], s: Frame[B, I], face: I) -> I:
        """The CRT result (SHU-CRT.2): a pressed attack reads its two best rows one column
        right and its four worst one left (SHU-PRESS.1, `press_roll=modified`)."""
        col = self.column(o, s)
        row = self.row(o, s, face)
        pressed = o.ite(
            o.le(row, 1), self.clamp(o, o.add([col, 1])), self.clamp(o, o.add([col, -1]))
        )
        col = o.ite(s.b("press"), pressed, col)
        crt = self.m.t.crt
        out: I = o.num(crt[-1][-1])
        for r in reversed(range(len(crt))):
            line: I = o.num(crt[r][-1])
            for c in reversed(range(len(crt[r]) - 1)):
                line = o.ite(o.eq(col, c), crt[r][c], line)
            out = line if r == len(crt) - 1 else o.ite(o.eq(row, r), line, out)
        return out

    def worst_landing_roll(self, o: Ops[B, I], face: I) -> B:
        """The lander's worst possible natural roll (SHU-LAND.3, `worst_roll=natural`)."""
        t = self.m.t
        rows = t.row_of[t.reads_left(RU)]
        last = max(rows.values())
        return o.any(o.eq(face, f) for f, r in rows.items() if r == last)
