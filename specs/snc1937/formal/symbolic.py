"""The SNC as a symbolic transition system: an over-approximating abstraction of the rules, for
proofs of the invariants of `specs.snc1937.formal.properties` (`wargame verify snc1937`).

**Why an abstraction.** An exact model of the SNC (a 42 x 25 hex map, 151 counters, movement
points, odds with every shift, fire support, landings, the TRT) would repeat the Python rules
in Z3 at a size no induction proof finishes on. The properties to prove do not need it: each
follows from what any one action may do to any one unit, whatever the action is.

**What is modelled.** Per unit: the hex it is on (0: off the map), whether it is in a TRT box,
in the dead pile, waiting for the elite return die, or reduced; whether it stands in a hex the
stacking check the last step started covers (`chk`, from `SNCState.checked`) and in a hex
handed to its owner's culls (`pend`). Globally: the GT, whose player turn it is, whether a
player turn has just opened, whether the game is over and by which clause (the GT 12 win, a
sudden death), whether culls are under way, and the Japanese replacement steps left. What a
unit counts for stacking (its division equivalents, its division) is a constant of the model,
under the variant's readings. Everything else (movement points, combat, markers, control,
order) is left out: a step may change the modelled values in any way the step rules below
allow, which is more than the rules allow (an over-approximation).

**The step rules** (one schema, `step`, whose choices are the next state; each conjunct cites
the clauses it stands for):

- a unit that enters a hex (is on a hex it was not on) enters a land hex other than 3513
  (SNC-0.0.1, SNC-9.4.6), with no enemy unit in it before the step (SNC-9.0.12, SNC-6.0.1,
  SNC-10.5.3.1, SNC-8.4.0.9), and the units entering hexes in one step are of one side
  (SNC-9.0.10: one stack moves at a time; an advance, a retreat, a placement or a landing is
  one side's);
- a static unit on the map stays in its hex or goes to the dead pile (SNC-2.2.1.8, SNC-9.1.1);
- the dead pile is never left, and holds nothing on the map (SNC-8.3.3, SNC-8.0.3);
- a reduced unit is restored only by being eliminated (SNC-2.2.1.13), or, a Japanese one, with
  a Japanese replacement step spent (SNC-8.3.2, SNC-8.3.4);
- only a Chinese elite unit on the map waits for the return die, and it leaves the wait only
  for the dead pile or, reduced, for a TRT box (SNC-8.1.2, SNC-8.1.3);
- a unit comes into play (onto the map or into a TRT box) from outside only from the elite
  wait, or as a Japanese garrison from the pool put onto the map (SNC-8.3.3, SNC-9.1.3);
- the GT stays, or moves on by one before GT 12 as the Japanese player turn ends and the
  Chinese one opens (SNC-5.0.1, SNC-5.2.1, SNC-5.2.2);
- nothing happens once the game is over, a game is over exactly when it has a result, and the
  end-of-game Chinese win comes in GT 12 (SNC-5.2.2, SNC-4.3.3);
- a stacking check the step starts leaves each hex it covers within the limits unless it hands
  the hex to its owner's culls, and the culls end with their hexes within the limits
  (SNC-6.0.2 to SNC-6.0.4, the limits of SNC-6.2.x read as `specs.snc1937.rules.stacking` reads
  them); a step that ends the game by sudden death is no check point.

**Why that is sound for the invariants.** Every concrete step, projected, must satisfy these
conjuncts: the refinement check (`solvers.checking.refinement`, direction (a)) verifies it on seeded
playouts of every preset, naming the clause of any conjunct a step breaks. Then every position
play reaches is a reachable model state, and an invariant proved over the model holds in it.
The converse direction (b) does not hold and is not checked (`exact = False`): the model has
steps no action takes, so a counterexample found over the model is only a candidate, and
`wargame verify` reports it unknown unless a concrete game realises it.

**Proofs by parts.** SNC-P-ONE-SIDE is a fact about 5,100 Japanese-Chinese pairs, and
SNC-P-STACKING one about each unit's hex; asked whole, they are beyond a test run's solver budget.
Each is proved part by part (`solvers.checking.prover.Part`, `StepPart`): a Japanese unit apart from
every Chinese unit from their entry rules, a unit's hex from its two stacking rules. Every
conjunct carries the unit it is `about`, which is how a part finds its own. SNC-P-STACKING over
this model is close to its step rules (what the flow's check points guarantee); the content the
proof adds is that the limits Z3 reads (`Model.within`) are the stacking module's, held equal
on generated stacks, and that every concrete step of play satisfies them at its check points
(the refinement check).

The variables' names are `symbolic_names`'; the per-unit conjuncts are `symbolic_unit.UnitStep`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from kernel.hexes import Hex
from kernel.variants import Variant
from solvers.checking.abstraction import AbstractModel
from solvers.checking.system import BoolVar, Conjunct, IntVar, Schema, Var
from solvers.checking.terms import B, Frame, I, Ops
from specs.snc1937.data.loader import SNCData
from specs.snc1937.formal.symbolic_names import (
    GLOBAL_BOOLS,
    NEXT,
    UNIT_BOOLS,
    at,
    flag,
    renamed,
)
from specs.snc1937.formal.symbolic_unit import UnitStep
from specs.snc1937.rules import stacking
from specs.snc1937.rules.state import CH, JP, LAST_GT
from specs.snc1937.rules.tables import Tables


class Hexes:
    """Hex numbers for the model: the enterable hexes first (1..`enterable`), then the rest of
    the map (water, and 3513), so "a hex a unit may enter" is one interval."""

    def __init__(self, t: Tables) -> None:
        board = t.board
        land = sorted(h for h in board.map.hexes if board.enterable(h))
        rest = sorted(h for h in board.map.hexes if not board.enterable(h))
        self.index: dict[Hex, int] = {h: i + 1 for i, h in enumerate([*land, *rest])}
        self.enterable = len(land)
        self.size = len(self.index)


class StepSchema(Schema):
    """Any one action of the rules, as what it may do to each unit (module docstring)."""

    name = "step"

    def __init__(self, model: Model) -> None:
        self.m = model
        self.choices = (*(renamed(v) for v in model.variables), BoolVar("mover_jp"))
        self.clauses = tuple(
            dict.fromkeys(c for group in CLAUSES.values() for c in group if c.startswith("SNC"))
        )

    def effect(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        return self.m.next_of(c)

    def guard(self, o: Ops[B, I], s: Frame[B, I], choice: Frame[B, I]) -> list[Conjunct[B]]:
        m = self.m
        c = m.next_of(choice)
        out: list[Conjunct[B]] = []

        def add(clause: str, text: str, make: Callable[[], B]) -> None:
            out.append(Conjunct(clause, text, make))

        add("SNC-5.2.2", "nothing happens once the game is over", lambda: o.not_(s.b("result")))
        add(
            "SNC-5.2.2",
            "the game is over exactly when it has a result",
            lambda: o.iff(c.b("over"), c.b("result")),
        )
        add(
            "SNC-4.3.3",
            "the end-of-game Chinese win comes in GT 12",
            lambda: o.implies(c.b("r433"), o.eq(c.i("turn"), LAST_GT)),
        )
        add("SNC-5.2.1", "the GT stays or moves on by one", lambda: m.gt_step(o, s, c))
        # one list, in one order, whether read by Z3 or evaluated: a prover names a failed
        # conjunct by its place in the list
        for u in m.units:
            out.extend(m.unit_rules(o, s, c, u))
        return out


CLAUSES: dict[str, tuple[str, ...]] = {
    "at": ("SNC-0.0.1", "SNC-9.4.6", "SNC-9.0.12", "SNC-6.0.1", "SNC-2.2.1.8", "SNC-9.1.1"),
    "dead": ("SNC-8.3.3", "SNC-8.0.3"),
    "red": ("SNC-8.3.2", "SNC-8.3.4", "SNC-2.2.1.13"),
    "elite": ("SNC-8.1.2", "SNC-8.1.3"),
    "trt": ("SNC-8.1.2", "SNC-8.3.3", "SNC-9.1.3"),
    "turn": ("SNC-5.0.1", "SNC-5.2.1", "SNC-5.2.2"),
    "jp": ("SNC-5.2.1",),
    "opens": ("SNC-5.2.1",),
    "over": ("SNC-5.2.2",),
    "result": ("SNC-5.2.2",),
    "r433": ("SNC-4.3.3",),
    "sudden": ("SNC-4.1.1", "SNC-4.1.2", "SNC-4.2.1"),
    "cull": ("SNC-6.0.4",),
    "chk": ("SNC-6.0.2", "SNC-6.0.3"),
    "pend": ("SNC-6.0.4",),
    "repl": ("SNC-8.3.1", "SNC-8.3.4"),
}
"""The clauses that say how each kind of variable changes (named when it differs)."""


class Model(AbstractModel):
    """The abstraction's variables, its one schema and what it knows of each unit (its side,
    whether static, elite or a pool garrison, and what it counts for stacking under the
    variant's readings)."""

    next_prefix = NEXT
    extra_bools = ("mover_jp",)

    def __init__(self, data: SNCData, variant: Variant) -> None:
        super().__init__()
        self.name = "snc1937-abstract"
        self.variant = variant
        self.t = Tables(data)
        self.hexes = Hexes(self.t)
        self.units: tuple[str, ...] = tuple(u.id for u in data.units)
        self.side = {u: self.t.spec[u].side for u in self.units}
        self.static = frozenset(u for u in self.units if self.t.spec[u].is_static)
        self.elite_units = frozenset(
            u for u in self.units if self.side[u] == CH and self.t.spec[u].arm == "elite"
        )
        self.pool = frozenset(u for u in self.units if self.side[u] == JP and u in self.static)
        self._enemies = {side: [e for e in self.units if self.side[e] != side] for side in (JP, CH)}
        self.settlement = tuple(
            self.hexes.index[h] for h in self.t.board.map.hexes if self.t.board.is_neutral(h)
        )
        self._stacking_tables(data, variant)
        variables: list[Var] = [IntVar("turn", 0, None), IntVar("repl", 0, None)]
        variables += [BoolVar(b) for b in GLOBAL_BOOLS]
        for u in self.units:
            variables.append(IntVar(at(u), 0, self.hexes.size))
            variables += [BoolVar(flag(k, u)) for k in UNIT_BOOLS]
        self.variables = tuple(variables)
        self.schemas = (StepSchema(self),)

    def enemies(self, u: str) -> Sequence[str]:
        return self._enemies[self.side[u]]

    # --- stacking limits (SNC-6.2.x), the same reading as `specs.snc1937.rules.stacking`
    # ---------------

    def _stacking_tables(self, data: SNCData, variant: Variant) -> None:
        """Half division equivalents per Chinese unit (SNC-6.2.3; static_de, AMB-SNC-10); the
        Japanese division groups (SNC-6.2.1, SNC-6.2.2; japanese_stack, AMB-SNC-9; the SNLF
        as one division per snlf_partial_division)."""
        jp = [u for u in self.units if self.side[u] == JP]
        self.half_de = {
            u: int(2 * stacking.division_equivalents(data.unit(u), variant))
            for u in self.units
            if self.side[u] == CH
        }
        self.division_plus_one = variant.is_("japanese_stack", "division_plus_one")
        groups: dict[str, list[str]] = {}
        for u in jp:
            d = data.unit(u).division
            if d is not None:
                groups.setdefault(d, []).append(u)
        self.groups = {d: tuple(us) for d, us in sorted(groups.items()) if len(us) > 1}
        snlf_any = variant.is_("snlf_partial_division", "any_together")
        self.snlf_whole = () if snlf_any else self.groups.get(stacking.SNLF, ())

    def within(self, o: Ops[B, I], f: Frame[B, I], u: str) -> B:
        """The hex of `u` (on the map) is within the stacking limits in `f`: the Chinese at most
        3 DE (SNC-6.2.3); the Japanese at most five units (SNC-6.2.1) and, under
        japanese_stack=division_plus_one, one division's units and one other (the SNLF
        battalions a division when together, or only all four: SNC-6.2.2). Opposing units
        never share a hex (SNC-P-ONE-SIDE), so only `u`'s side is counted."""
        here = f.i(at(u))
        mates = [v for v in self.units if self.side[v] == self.side[u]]
        same = {v: o.lit(True) if v == u else o.eq(f.i(at(v)), here) for v in mates}
        if self.side[u] == CH:
            weights = [o.ite(same[v], self.half_de[v], 0) for v in mates if self.half_de[v]]
            return o.le(o.add(weights), 2 * int(stacking.CHINESE_LIMIT))
        count = [o.ite(same[v], 1, 0) for v in mates]
        limit = o.le(o.add(count), stacking.JAPANESE_LIMIT)
        if not self.division_plus_one:
            return limit
        ways = [o.le(o.add(count), 2)]  # any two units are one division's and one other
        for d, members in self.groups.items():
            others = o.le(o.add([o.ite(same[v], 1, 0) for v in mates if v not in members]), 1)
            if d == stacking.SNLF and self.snlf_whole:
                others = o.all([others, *(same[v] for v in self.snlf_whole)])
            ways.append(others)
        return o.all([limit, o.any(ways)])

    def _settled(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> B:
        """Not a step that ends the game by sudden death, which is no check point (SNC-4.1.1,
        SNC-4.1.2, SNC-4.2.1)."""
        return o.not_(o.all([c.b("sudden"), o.not_(s.b("sudden"))]))

    def check_rule(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I], u: str) -> B:
        """SNC-6.0.2: a check the step starts (`chk`) that does not hand `u`'s hex to its
        owner's culls (`pend`) finds it within the limits."""
        there = c.i(at(u))
        checked = o.all(
            [
                c.b(flag("chk", u)),
                o.not_(c.b(flag("pend", u))),
                o.not_(o.eq(there, 0)),
                self._settled(o, s, c),
            ]
        )
        return self.when(o, checked, lambda: self.within(o, c, u))

    def cull_rule(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I], u: str) -> B:
        """SNC-6.0.4: a step that ends the culls leaves every hex they were for within the
        limits."""
        there = c.i(at(u))
        culled = o.all(
            [
                s.b("cull"),
                s.b(flag("pend", u)),
                o.not_(c.b("cull")),
                o.not_(o.eq(there, 0)),
                self._settled(o, s, c),
            ]
        )
        return self.when(o, culled, lambda: self.within(o, c, u))

    @staticmethod
    def when(o: Ops[B, I], a: B, b: Callable[[], B]) -> B:
        """`a` implies `b`, building `b` only when `a` may hold (a concrete step leaves most
        units where they are)."""
        return o.lit(True) if o.known(a) is False else o.implies(a, b())

    def no_enemy_stays(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I], u: str, there: I) -> B:
        return o.all(
            o.not_(o.all([o.eq(s.i(at(e)), there), o.eq(c.i(at(e)), s.i(at(e)))]))
            for e in self.enemies(u)
        )

    # --- the step rules ------------------------------------------------------------------------

    def gt_step(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> B:
        """SNC-5.0.1, SNC-5.2.1, SNC-5.2.2: the GT stays, or moves on by one before GT 12 from
        the Japanese player turn to the opening of the Chinese one."""
        turn = s.i("turn")
        on = o.all(
            [
                o.eq(c.i("turn"), o.add([turn, 1])),
                o.lt(turn, LAST_GT),
                s.b("jp"),
                o.not_(c.b("jp")),
                c.b("opens"),
            ]
        )
        return o.any([o.eq(c.i("turn"), turn), on])

    def unit_rules(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I], u: str) -> list[Conjunct[B]]:
        """What a step may do to unit `u`, in a fixed order (a prover names a failed conjunct
        by its place): where it may go, the dead pile, its steps, the stacking checks, and how
        it comes into play."""
        r = UnitStep(self, o, s, c, u)
        return [*r.movement(), *r.dead_pile(), *r.steps(), *r.stacking(), r.arrival()]
