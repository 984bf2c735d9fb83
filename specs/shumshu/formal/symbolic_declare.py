"""Attack declarations in Shumshu's symbolic model (SHU-COMBAT.1 to SHU-COMBAT.4, SHU-RGT.4),
at the level of hexes: the units that may attack from one hex are alike (same contacts, same
obligations, `must_attack=same_phase`), so a declaration is a count of attackers per hexside
crossed, `c[x, h]` from hex x into hex h.

The rules ask two existential questions, and the model answers each with a witness among the
schema's choices, checked by the guard:

- A unit may join an attack when some legal declaration extends the attacks joined so far
  (`combat_query.extends`): the witness is that declaration's counts (`extends`).
- At the end of movement, the attack declaration is entered only when some legal declaration
  is not empty (`sequence.declare_step`); otherwise the combat phase ends at once, unless the
  Japanese are in contact (`MoveDone.jp_contact`: they then say "no attacks"). "Some" is a
  witness as above; "none" has a certificate too (`no_declaration`), from this fact about the
  hex graph: the sets of attacking hexes whose obligations their own attackers can meet are
  closed under union, and the largest is what is left after removing every hex reached, along
  alternating paths of a maximum matching of attackers to obliged hexes, from an obliged hex
  the matching leaves unattacked. Every such hex has all its attackers matched, so none of them
  can belong to a declaration whose obligations are met; when that removes every hex, no legal
  declaration attacks at all. The certificate is the matching and the reached set with its
  path levels.

Hexside limits never decide whether a declaration exists (one attacker per obliged hex is
enough), so the certificate does not mention them; the witnesses respect them.
"""

from __future__ import annotations

from collections.abc import Callable

from solvers.checking.system import BoolVar, Conjunct, IntVar, Var
from solvers.checking.terms import B, Frame, I, Ops
from specs.shumshu.formal.symbolic_state import Position
from specs.shumshu.rules.state import JP, RU

MAX_COUNT = 3  # the larger hexside limit (SHU-COMBAT.3)


def need(clause: str, text: str, make: Callable[[], B], lazy: bool = False) -> Conjunct[B]:
    return Conjunct(clause, text, make, lazy)


class Declarations:
    """The declaration questions over one model's positions."""

    def __init__(self, m: Position) -> None:
        self.m = m
        t = m.t
        self.edges = t.edges
        self.count_vars = {e: f"c_{e[0]}_{e[1]}" for e in t.edges}
        self.match_vars = {e: f"m_{e[0]}_{e[1]}" for e in t.edges}
        self.source_vars = {x: f"zs_{x}" for x in t.cells}
        self.target_vars = {h: f"zt_{h}" for h in t.cells}
        self.source_level = {x: f"ls_{x}" for x in t.cells}
        self.target_level = {h: f"lt_{h}" for h in t.cells}
        top = 2 * t.H + 1
        self.witness: tuple[Var, ...] = tuple(
            IntVar(n, 0, MAX_COUNT) for n in self.count_vars.values()
        )
        self.certificate: tuple[Var, ...] = (
            *(BoolVar(n) for n in self.match_vars.values()),
            *(BoolVar(n) for n in self.source_vars.values()),
            *(BoolVar(n) for n in self.target_vars.values()),
            *(IntVar(n, 0, top) for n in self.source_level.values()),
            *(IntVar(n, 0, top) for n in self.target_level.values()),
        )

    # --- what a position says --------------------------------------------------------------

    def ready(self, o: Ops[B, I], s: Frame[B, I], u: int) -> B:
        """`u` may attack now, wherever it is (declare.attacker_problem): a unit (not a decoy)
        of the phasing side on the map, undisrupted (SHU-DISRUPT.1), that has not landed
        (AMB-SHU-28) or moved (`move_and_attack=either`) this player-turn."""
        m = self.m
        if m.t.decoy[u]:
            return o.lit(False)
        return o.all(
            [
                m.phasing(o, s, u),
                m.on_map(o, s, u),
                o.not_(m.disrupted(o, s, u)),
                o.not_(m.flag(o, s, m.act, u)),
                o.not_(s.b(m.mv[u])),
            ]
        )

    def enemy(self, o: Ops[B, I], s: Frame[B, I], h: int) -> B:
        """Hex `h` holds pieces of the side not moving (decoys too, AMB-SHU-30)."""
        return s.cached(("enemy", h), lambda: self.m.side_has(o, s, o.not_(s.b("ru")), h))

    def obliged(self, o: Ops[B, I], s: Frame[B, I], h: int) -> B:
        """Hex `h` must be attacked if an attacker is next to it (SHU-COMBAT.4, SHU-RGT.4):
        undisrupted Japanese pieces (decoys too), or an undisrupted Russian regiment
        (`rgt_obligation=undisrupted`)."""
        m = self.m
        t = m.t

        def make() -> B:
            jp = o.any(
                o.all([m.at_hex(o, s, u, h), o.not_(m.disrupted(o, s, u))]) for u in t.of_side[JP]
            )
            ru = o.any(
                o.all([m.at_hex(o, s, u, h), o.not_(m.disrupted(o, s, u))]) for u in t.regiments
            )
            return o.bite(s.b("ru"), jp, ru)

        return s.cached(("obliged", h), make)

    def attackers(self, o: Ops[B, I], s: Frame[B, I], x: int) -> I:
        """How many units in hex `x` may attack now."""
        m = self.m
        return s.cached(
            ("attackers", x),
            lambda: o.count(o.all([self.ready(o, s, u), m.at_hex(o, s, u, x)]) for u in m.t.real),
        )

    def source(self, o: Ops[B, I], s: Frame[B, I], x: int) -> B:
        """Hex `x` has units that may attack, and enemy pieces next to it."""
        return o.all(
            [
                o.lt(0, self.attackers(o, s, x)),
                o.any(self.enemy(o, s, h) for h in self.m.t.nbr[x]),
            ]
        )

    def limit(self, o: Ops[B, I], s: Frame[B, I]) -> I:
        """2 Russian or 3 Japanese units across one hexside (SHU-COMBAT.3)."""
        lim = self.m.t.hexside_limit
        return o.ite(s.b("ru"), lim[RU], lim[JP])

    # --- a declaration given by counts ------------------------------------------------------

    def legal(
        self,
        o: Ops[B, I],
        s: Frame[B, I],
        c: dict[tuple[int, int], I],
        fixed: dict[tuple[int, int], I],
        free: dict[int, I],
    ) -> list[Conjunct[B]]:
        """The counts `c` are a legal declaration containing the `fixed` attacks, the rest
        made by at most `free[x]` more attackers from each hex x."""
        t = self.m.t
        edges = self.edges
        out_of = {x: [e for e in edges if e[0] == x] for x in t.cells}
        into = {h: [e for e in edges if e[1] == h] for h in t.cells}
        lim = self.limit(o, s)

        def within() -> B:
            return o.all(o.all([o.le(fixed[e], c[e]), o.le(c[e], lim)]) for e in edges)

        def targets() -> B:
            return o.all(o.implies(o.lt(0, c[e]), self.enemy(o, s, e[1])) for e in edges)

        def enough() -> B:
            return o.all(
                o.le(
                    o.sub(o.add(c[e] for e in out_of[x]), o.add(fixed[e] for e in out_of[x])),
                    free[x],
                )
                for x in t.cells
            )

        def obligations() -> B:
            attacked = {h: o.lt(0, o.add(c[e] for e in into[h])) for h in t.cells}
            return o.all(
                o.implies(
                    o.lt(0, o.add(c[e] for e in out_of[x])),
                    o.all(o.implies(self.obliged(o, s, n), attacked[n]) for n in t.nbr[x]),
                )
                for x in t.cells
            )

        return [
            need(
                "SHU-COMBAT.3",
                "at most 2 Russian or 3 Japanese units across a hexside",
                within,
                lazy=True,
            ),
            need("SHU-COMBAT.1", "attacks go into hexes holding enemy pieces", targets, lazy=True),
            need("SHU-COMBAT.1", "one attack per unit that may attack", enough, lazy=True),
            need(
                "SHU-COMBAT.4",
                "the obliged hexes next to attacking units are attacked (SHU-RGT.4)",
                obligations,
                lazy=True,
            ),
        ]

    def counts(self, c: Frame[B, I]) -> dict[tuple[int, int], I]:
        return {e: c.i(n) for e, n in self.count_vars.items()}

    def some_declaration(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        """A legal declaration that attacks (sequence.declare_step goes on to the declaration)."""
        t = self.m.t
        counts = self.counts(c)
        zero = {e: o.num(0) for e in self.edges}
        free = {x: self.attackers(o, s, x) for x in t.cells}
        return [
            *self.legal(o, s, counts, zero, free),
            need(
                "SHU-COMBAT.1",
                "the declaration attacks",
                lambda: o.lt(0, o.add(counts.values())),
                lazy=True,
            ),
        ]

    def extends(
        self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I], unit: I, target: I
    ) -> list[Conjunct[B]]:
        """A legal declaration containing the attacks declared so far and `unit` into
        `target`, the other attackers all after `unit` in data order
        (combat_query.extends)."""
        m = self.m
        t = m.t
        counts = self.counts(c)

        def fixed_on(e: tuple[int, int]) -> I:
            x, h = e
            declared = [o.all([m.at_hex(o, s, v, x), o.eq(m.pending(o, s, v), h)]) for v in t.real]
            joining = o.all([o.eq(target, h), o.case(unit, lambda v: m.at_hex(o, s, v, x), t.real)])
            return o.count([*declared, joining])

        fixed = {e: fixed_on(e) for e in self.edges}
        free = {
            x: o.count(
                o.all(
                    [
                        self.ready(o, s, v),
                        m.at_hex(o, s, v, x),
                        o.eq(m.pending(o, s, v), 0),
                        o.lt(unit, v),
                    ]
                )
                for v in t.real
            )
            for x in t.cells
        }
        return self.legal(o, s, counts, fixed, free)

    # --- no declaration at all ----------------------------------------------------------

    def no_declaration(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        """The certificate that no legal declaration attacks (see the module docstring): a
        matching of attackers to obliged hexes, and the set reached from the obliged hexes it
        leaves unattacked, closed, saturated, levelled, and containing every attacking hex."""
        t = self.m.t
        edges = self.edges
        src = {x: self.source(o, s, x) for x in t.cells}
        tgt = {h: self.obliged(o, s, h) for h in t.cells}
        n = {x: self.attackers(o, s, x) for x in t.cells}
        mt = {e: c.b(v) for e, v in self.match_vars.items()}
        zs = {x: c.b(v) for x, v in self.source_vars.items()}
        zt = {h: c.b(v) for h, v in self.target_vars.items()}
        ls = {x: c.i(v) for x, v in self.source_level.items()}
        lt = {h: c.i(v) for h, v in self.target_level.items()}
        out_of = {x: [e for e in edges if e[0] == x] for x in t.cells}
        into = {h: [e for e in edges if e[1] == h] for h in t.cells}

        def matching() -> B:
            return o.all(
                [
                    *(o.implies(mt[e], o.all([src[e[0]], tgt[e[1]]])) for e in edges),
                    *(o.le(o.count(mt[e] for e in into[h]), 1) for h in t.cells),
                    *(o.le(o.count(mt[e] for e in out_of[x]), n[x]) for x in t.cells),
                ]
            )

        def closed() -> B:
            return o.all(
                [
                    *(o.implies(zt[h], tgt[h]) for h in t.cells),
                    *(o.implies(o.all([zt[h], src[x]]), zs[x]) for x, h in edges),
                    *(o.implies(o.all([zs[x], mt[(x, h)]]), zt[h]) for x, h in edges),
                    *(
                        o.implies(zs[x], o.eq(o.count(mt[e] for e in out_of[x]), n[x]))
                        for x in t.cells
                    ),
                ]
            )

        def levelled() -> B:
            roots = {h: o.not_(o.any(mt[e] for e in into[h])) for h in t.cells}
            return o.all(
                [
                    *(
                        o.implies(
                            zt[h],
                            o.any(
                                [
                                    roots[h],
                                    *(
                                        o.all([mt[e], zs[e[0]], o.lt(ls[e[0]], lt[h])])
                                        for e in into[h]
                                    ),
                                ]
                            ),
                        )
                        for h in t.cells
                    ),
                    *(
                        o.implies(
                            zs[x],
                            o.any(o.all([zt[e[1]], o.lt(lt[e[1]], ls[x])]) for e in out_of[x]),
                        )
                        for x in t.cells
                    ),
                ]
            )

        def covers() -> B:
            return o.all(o.implies(src[x], zs[x]) for x in t.cells)

        return [
            need("SHU-COMBAT.4", "a matching of attackers to obliged hexes", matching, lazy=True),
            need(
                "SHU-COMBAT.4",
                "the hexes it reaches are closed and fully matched",
                closed,
                lazy=True,
            ),
            need(
                "SHU-COMBAT.4", "each reached from an unattacked obliged hex", levelled, lazy=True
            ),
            need(
                "SHU-COMBAT.1",
                "every hex with attackers is reached: no legal declaration attacks",
                covers,
                lazy=True,
            ),
        ]

    # --- the declaration made so far ------------------------------------------------------

    def declared_ok(self, o: Ops[B, I], s: Frame[B, I]) -> list[Conjunct[B]]:
        """The attacks declared so far are a whole legal declaration (combat_query.
        declaration_ok): within the hexside limits, and every obliged hex next to an attacking
        unit attacked."""
        m = self.m
        t = m.t
        lim = self.limit(o, s)

        def crossing(x: int, h: int) -> I:
            return o.count(
                o.all([m.at_hex(o, s, v, x), o.eq(m.pending(o, s, v), h)]) for v in t.real
            )

        def within() -> B:
            return o.all(o.le(crossing(x, h), lim) for x, h in self.edges)

        def obligations() -> B:
            attacked = {h: o.any(o.eq(m.pending(o, s, v), h) for v in t.real) for h in t.cells}
            src = {
                x: o.any(
                    o.all([m.at_hex(o, s, v, x), o.not_(o.eq(m.pending(o, s, v), 0))])
                    for v in t.real
                )
                for x in t.cells
            }
            return o.all(
                o.implies(
                    src[x],
                    o.all(o.implies(self.obliged(o, s, n), attacked[n]) for n in t.nbr[x]),
                )
                for x in t.cells
            )

        return [
            need(
                "SHU-COMBAT.3",
                "at most 2 Russian or 3 Japanese units across a hexside",
                within,
                lazy=True,
            ),
            need(
                "SHU-COMBAT.4",
                "the obliged hexes next to attacking units are attacked (SHU-RGT.4)",
                obligations,
                lazy=True,
            ),
        ]
