"""The SNC's verification entry points (`solvers.checking.verification.SpecVerification`): its
properties, and the abstract symbolic model of `specs.snc1937.formal.symbolic` with its link to the
rules (the projection of a position, the choices of a step) and each property's formal
statement.

The model is an over-approximation (`exact = False`): `wargame verify snc1937` proves every
property over it (SNC-P-ONE-SIDE Japanese unit by Japanese unit, SNC-P-STACKING unit by unit, as
`solvers.checking.prover.Part` allows), and its refinement check holds every concrete step of seeded
playouts to the model's step rules (direction (a)), which is what makes the proofs speak of
the code.
"""

from __future__ import annotations

import functools

from kernel.properties import Property, Verdict
from kernel.variants import Variant
from solvers.checking.abstraction import AbstractLink
from solvers.checking.prover import Formal, Invariant, Part, StepInvariant, StepPart
from solvers.checking.terms import B, Frame, I, Ops
from specs.snc1937.data.loader import load_data
from specs.snc1937.data.variants import CATALOGUE
from specs.snc1937.formal import noleak
from specs.snc1937.formal import properties as props
from specs.snc1937.formal.breach import SUDDEN_DEATH
from specs.snc1937.formal.symbolic import CLAUSES, Model
from specs.snc1937.formal.symbolic_names import NEXT, at, flag
from specs.snc1937.rules.play import SNCRules
from specs.snc1937.rules.state import JP, LAST_GT, Phase, SNCState, Step
from specs.snc1937.rules.tables import Tables, locations


@functools.cache
def properties() -> tuple[Property, ...]:
    """The rules' properties, then SNC-P-NO-LEAK (tested on playouts: `noleak` says why)."""
    t = Tables(load_data())
    holds: dict[str, Verdict] = dict.fromkeys(sorted(CATALOGUE.presets), "holds")
    return (*props.properties(t), noleak.no_leak(t, holds))


@functools.cache
def symbolic_model(variant: Variant) -> Link:
    """The abstraction of `variant`: the step rules hold under every reading, so every variant
    has one (only its initial state depends on the variant)."""
    return Link(variant)


class Link(AbstractLink[SNCState]):
    """The abstract model of one variant, its formal statements, projection and step choices
    (`solvers.checking.verification.SymbolicModel`)."""

    next_prefix = NEXT

    def __init__(self, variant: Variant) -> None:
        # The link steps the rules alone (`apply`); `kernel.game.Game` still lists the roles'
        # members until the kernel drops them, so mypy would have them here.
        super().__init__(SNCRules(), CLAUSES, lambda: formal(self.model))  # type: ignore[arg-type]  # the rules of play: game.py adds observe
        self.variant = variant
        self.model = Model(load_data(), variant)
        self.model.start = self.project(self.game.initial_state(variant))
        self.system = self.model

    def _project(self, state: SNCState) -> dict[str, int | bool]:
        m = self.model
        loc = locations(state.where)
        trt = {u for u, _ in state.trt}
        waiting = set(state.elite)
        r = state.result
        culling = state.step == Step.STACK
        pending = frozenset(state.stack_hexes) if culling else frozenset()
        checked = frozenset(state.checked)
        out: dict[str, int | bool] = {
            "turn": state.turn,
            "repl": state.replacements,
            "jp": state.side == JP,
            "opens": state.side != JP and state.phase in (Phase.DECLARE, Phase.OVER),
            "over": state.phase == Phase.OVER,
            "result": r is not None,
            "r433": r is not None and r.clause == "SNC-4.3.3",
            "sudden": r is not None and r.clause in SUDDEN_DEATH,
            "cull": culling,
        }
        for u in m.units:
            h = loc.get(u)
            out[at(u)] = 0 if h is None else m.hexes.index[h]
            out[flag("trt", u)] = u in trt
            out[flag("dead", u)] = u in state.dead
            out[flag("elite", u)] = u in waiting
            out[flag("red", u)] = u in state.reduced
            out[flag("chk", u)] = h is not None and h in checked
            out[flag("pend", u)] = h is not None and h in pending
        return out

    def _extra_choices(self, before: SNCState, after: SNCState) -> dict[str, int | bool]:
        """The side of the units that entered a hex in the step."""
        was, now = self.project(before), self.project(after)
        entered = [u for u in self.model.units if now[at(u)] != 0 and now[at(u)] != was[at(u)]]
        return {"mover_jp": bool(entered) and self.model.side[entered[0]] == JP}


# --- the formal statements -----------------------------------------------------------------------


def formal(m: Model) -> dict[str, Formal]:
    """Each property of `specs.snc1937.formal.properties` that the abstraction can state, over
    it."""
    return {
        props.SETTLEMENT: Invariant(lambda o, s: _settlement(m, o, s)),
        props.ONE_SIDE: Invariant(
            lambda o, s: o.all(p.holds(o, s) for p in _one_side_parts(m)),
            parts=lambda: _one_side_parts(m),
        ),
        props.ENDS: Invariant(lambda o, s: _ends(o, s)),
        props.GT_ORDER: StepInvariant(lambda o, s, n: _gt_order(o, s, n)),
        props.STATIC: StepInvariant(lambda o, s, n: _static(m, o, s, n)),
        props.STEPS: StepInvariant(lambda o, s, n: _steps(m, o, s, n)),
        props.STACKING: StepInvariant(
            lambda o, s, n: o.all(p.holds(o, s, n) for p in _stacking_parts(m)),
            parts=lambda: _stacking_parts(m),
        ),
    }


def _settlement(m: Model, o: Ops[B, I], s: Frame[B, I]) -> B:
    """SNC-0.0.1: no unit in 3513."""
    return o.all(o.not_(o.eq(s.i(at(u)), x)) for u in m.units for x in m.settlement)


def _one_side_parts(m: Model) -> list[Part]:
    """SNC-6.0.1: no Japanese unit shares a hex with a Chinese one; a part per Japanese unit
    (apart from every Chinese unit), each inductive by its units' step rules alone (a unit
    enters no hex an enemy stays in, SNC-9.0.12; units entering hexes in one step are of one
    side, SNC-9.0.10). A part per pair of units is as sound but thousands of questions (about
    three times the time); the whole at once is one question the solver cannot finish."""
    out = []
    for j in m.units:
        if m.side[j] != JP:
            continue
        enemies = tuple(m.enemies(j))
        out.append(
            Part(
                f"{j} apart from every Chinese unit",
                lambda o, s, j=j, enemies=enemies: o.all(
                    o.any([o.eq(s.i(at(j)), 0), o.not_(o.eq(s.i(at(j)), s.i(at(c))))])
                    for c in enemies
                ),
                frozenset({j, *enemies}),
                frozenset({"SNC-9.0.12", "SNC-9.0.10"}),
            )
        )
    return out


def _ends(o: Ops[B, I], s: Frame[B, I]) -> B:
    """SNC-5.2.2, SNC-4.3.3: GT 1 to 12, over exactly with a result, the GT 12 win in GT 12."""
    turn = s.i("turn")
    return o.all(
        [
            o.le(1, turn),
            o.le(turn, LAST_GT),
            o.iff(s.b("over"), s.b("result")),
            o.implies(s.b("r433"), o.eq(turn, LAST_GT)),
        ]
    )


def _gt_order(o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> B:
    """SNC-5.2.1: the GT stays, or moves on by one from the Japanese to the Chinese turn."""
    turn = s.i("turn")
    on = o.all([o.eq(n.i("turn"), o.add([turn, 1])), s.b("jp"), o.not_(n.b("jp")), n.b("opens")])
    return o.any([o.eq(n.i("turn"), turn), on])


def _static(m: Model, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> B:
    """SNC-2.2.1.8: a static unit on the map stays, or leaves it for the dead pile."""
    return o.all(
        o.implies(
            o.not_(o.eq(s.i(at(u)), 0)),
            o.any(
                [
                    o.eq(n.i(at(u)), s.i(at(u))),
                    o.all([o.eq(n.i(at(u)), 0), n.b(flag("dead", u))]),
                ]
            ),
        )
        for u in sorted(m.static)
    )


def _stacking_parts(m: Model) -> list[StepPart]:
    """SNC-6.0.2 to SNC-6.0.4, a part per unit: a check that starts leaves the unit's hex
    within the limits or hands it to the culls, and the culls end with it within the limits
    (the limits of `Model.within`, SNC-6.2.x); each part by the unit's own two rules."""
    return [
        StepPart(
            f"{u}'s hex at the stacking check points",
            lambda o, s, n, u=u: o.all([m.check_rule(o, s, n, u), m.cull_rule(o, s, n, u)]),
            frozenset({u}),
            frozenset({"SNC-6.0.2", "SNC-6.0.4"}),
        )
        for u in m.units
    ]


def _steps(m: Model, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> B:
    """SNC-2.2.1.15, SNC-8.3.x, SNC-8.1.2: the dead stay dead; a reduced unit is restored
    only when eliminated or, Japanese, by a replacement step; only an eliminated Chinese elite
    unit waits for its die, and comes back only reduced; nothing else comes into play but a
    Japanese garrison from the pool."""
    out = []
    for u in m.units:
        dead, red, wait = (s.b(flag(k, u)) for k in ("dead", "red", "elite"))
        dead2, red2, wait2, trt2 = (n.b(flag(k, u)) for k in ("dead", "red", "elite", "trt"))
        spent = o.lt(n.i("repl"), s.i("repl")) if m.side[u] == JP else o.lit(False)
        here, there = s.i(at(u)), n.i(at(u))
        in_play = o.any([o.not_(o.eq(here, 0)), s.b(flag("trt", u))])
        in_play2 = o.any([o.not_(o.eq(there, 0)), trt2])
        from_pool = o.all([o.not_(dead), o.not_(o.eq(there, 0))]) if u in m.pool else o.lit(False)
        out += [
            o.implies(dead, dead2),
            o.implies(o.all([red, o.not_(red2)]), o.any([dead2, wait2, spent])),
            o.implies(o.all([o.not_(in_play), in_play2]), o.any([wait, from_pool])),
        ]
        if u in m.elite_units:
            out.append(o.implies(o.all([o.not_(wait), wait2]), o.not_(o.eq(here, 0))))
            out.append(o.implies(o.all([wait, o.not_(wait2)]), o.any([dead2, o.all([trt2, red2])])))
        else:
            out.append(o.not_(wait2))
    return o.all(out)
