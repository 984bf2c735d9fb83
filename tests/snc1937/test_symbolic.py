"""The SNC's abstract symbolic model (`specs.snc1937.formal.symbolic`): its properties proved over
it,
every concrete step of seeded games a model step (refinement direction (a)), rule breaches
caught with their clauses, and its two readings (Z3 and plain Python) in agreement."""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernel.hexes import Hex, parse_hex
from kernel.playout import play
from kernel.roles import AssembledGame
from solvers import smt
from solvers.checking import prover, refinement
from solvers.checking.model_search import model_of
from solvers.checking.system import (
    IntVar,
    WithoutClause,
    concrete_frame,
    evaluate,
    pinned,
    z3_frame,
)
from solvers.checking.terms import CONCRETE
from specs.snc1937 import PACKAGE
from specs.snc1937.data.loader import load_data
from specs.snc1937.data.variants import CATALOGUE
from specs.snc1937.formal import properties as props
from specs.snc1937.formal import verification
from specs.snc1937.formal.symbolic import Model
from specs.snc1937.formal.symbolic_names import at
from specs.snc1937.formal.verification import Link, symbolic_model
from specs.snc1937.rules import stacking
from specs.snc1937.rules.actions import Action, Done
from specs.snc1937.rules.state import CH, JP, Phase, SNCState, Step
from tests.sizes import FULL, size
from tests.snc1937.assembled import rules_of

GAME: AssembledGame[SNCState, Action] = PACKAGE.assemble()
RULES = rules_of(GAME)
STANDARD = symbolic_model(CATALOGUE.preset("standard"))
OTHER_READINGS = {
    "landing_unpaid_losses": "attackers_stay_at_sea",
    "retreat_blocked": "stays",
    "overstack_cull": "fewest",
    "static_steps": "elite_only",
}


def H(text: str) -> Hex:
    return parse_hex(text)


def _move(s: SNCState, unit: str, to: Hex | None) -> SNCState:
    where = {u: h for u, h in s.where if u != unit}
    if to is not None:
        where[unit] = to
    return attrs.evolve(s, where=tuple(sorted(where.items())))


def _start() -> SNCState:
    return GAME.initial_state(CATALOGUE.preset("standard"))


def _mismatch(before: SNCState, after: SNCState) -> refinement.Mismatch | None:
    """Direction (a) for a hand-made step from `before` to `after` (the action is `Done`; the
    link reads the step's result from `after`, so the rules' own `apply` is bypassed)."""
    link = symbolic_model(CATALOGUE.preset("standard"))
    link.known_step(before, Done(), after)
    return refinement.check_step(link, before, Done(), after, "hand-made step")


# --- proofs --------------------------------------------------------------------------------------


def test_snc_0_0_1_5_2_2_8_3_3_properties_are_proved_over_the_abstraction() -> None:
    """SNC-0.0.1, SNC-5.2.2, SNC-5.2.1, SNC-2.2.1.8, SNC-8.3.3: each property the abstraction
    states is proved by 1-induction from its step rules (the step rules are the same under
    every variant; `wargame verify` proves them under both presets)."""
    link = STANDARD
    formal = link.formal()
    assert set(formal) == {
        props.SETTLEMENT,
        props.ONE_SIDE,
        props.STACKING,
        props.ENDS,
        props.GT_ORDER,
        props.STATIC,
        props.STEPS,
    }
    for pid, statement in formal.items():
        if pid == props.ONE_SIDE:
            continue  # 51 parts, about 15 s: proved by `wargame verify`; a part below
        v = prover.check(link.system, statement, rlimit=50_000_000)
        assert v.status == "proved", (pid, v.detail)


def test_snc_6_0_1_one_side_is_proved_unit_by_unit_from_two_step_rules() -> None:
    """SNC-6.0.1, SNC-9.0.12, SNC-9.0.10: the one-side invariant is a part per Japanese unit
    (apart from each of the 100 Chinese units), each inductive by its units' entry rules alone;
    the set-up satisfies it. Here the first Japanese unit's part (`wargame verify` proves all
    51). Without the rule that a unit enters no hex an enemy stays in, or that one step's
    entries are one side's, that part is no longer inductive."""
    link = STANDARD
    statement = link.formal()[props.ONE_SIDE]
    assert isinstance(statement, prover.Invariant) and statement.parts is not None
    parts = statement.parts()
    japanese = [u for u in link.model.units if link.model.side[u] == JP]
    assert len(parts) == len(japanese) == 51
    first = parts[:1]
    assert first[0].subjects == {japanese[0], *link.model.enemies(japanese[0])}
    assert len(first[0].subjects) == 101
    assert statement.holds(CONCRETE, concrete_frame(link.system.variables, link.model.initial()))
    assert prover.not_inductive_part(link.system, (), first, 50_000_000) is None
    for clause in ("SNC-9.0.12", "SNC-9.0.10"):
        broken = Link(CATALOGUE.preset("standard"))
        broken.model.schemas = (WithoutClause(broken.model.schemas[0], clause),)
        assert prover.not_inductive_part(broken.system, (), first, 50_000_000) is not None


@pytest.mark.parametrize(
    ("clause", "pid"),
    [
        ("SNC-9.4.6", props.SETTLEMENT),
        ("SNC-8.3.3", props.STEPS),
        ("SNC-2.2.1.8", props.STATIC),
        ("SNC-5.2.1", props.GT_ORDER),
        ("SNC-6.0.2", props.STACKING),
        ("SNC-6.0.4", props.STACKING),
    ],
)
def test_snc_9_4_6_8_3_3_the_proofs_rest_on_the_step_rules(clause: str, pid: str) -> None:
    """SNC-9.4.6, SNC-8.3.3, SNC-2.2.1.8, SNC-5.2.1, SNC-6.0.2, SNC-6.0.4: without the step
    rule of its clause, the property is refuted over the abstraction, or (proved by parts) a
    part of it is no longer inductive: the proof is no tautology."""
    link = Link(CATALOGUE.preset("standard"))
    link.model.schemas = (WithoutClause(link.model.schemas[0], clause),)
    statement = link.formal()[pid]
    if isinstance(statement, prover.StepInvariant) and statement.parts is not None:
        # proved by parts: without the rule, a named part is no longer inductive
        parts = statement.parts()
        assert prover.not_inductive_part(link.system, (), parts, 50_000_000) is not None
        return
    v = prover.check(link.system, statement, rlimit=50_000_000)
    assert v.status != "proved", v.detail
    assert v.method != "solver", v.detail  # Z3 answered: refuted, or not inductive (no limit hit)


# --- refinement, direction (a) -------------------------------------------------------------------


@pytest.mark.skipif(
    not FULL, reason="`wargame verify` (in make test) runs it on two seeds; make bench on one more"
)
def test_snc_5_0_1_every_step_of_seeded_games_is_a_model_step() -> None:
    """SNC-5.0.1: every step of a seeded game satisfies every step rule of the abstraction
    (`wargame verify` runs this under both presets on other seeds)."""
    report = refinement.run(GAME, STANDARD, "standard", games=1, every=0, seed=3)
    assert report.ok, [str(m) for m in report.mismatches]
    assert report.steps > 300


def test_snc_8_4_0_9_every_step_under_other_readings_is_a_model_step() -> None:
    """SNC-8.4.0.9, SNC-6.0.4, SNC-9.1.3: the step rules hold under readings the presets do
    not take (landers at sea, blocked retreats, culls, garrisons, static steps)."""
    variant = CATALOGUE.variant("standard", OTHER_READINGS)
    link = Link(variant)
    found: list[refinement.Mismatch] = []
    steps = [0]

    def on_step(before: SNCState, action: Any, after: SNCState) -> None:
        steps[0] += 1
        m = refinement.check_step(link, before, action, after, f"step {steps[0]}")
        if m is not None:
            found.append(m)

    steps_max = size(400, 5000)  # tests.sizes: the whole game in make bench
    for seed in range(5, 15):  # games until enough steps: one may end early (sudden death)
        play(
            GAME,
            GAME.initial_state(variant),
            random.Random(seed),
            RULES.playout_agents(),
            max_steps=steps_max - steps[0],
            on_step=on_step,
        )
        if steps[0] > 300:
            break
    assert not found, [str(m) for m in found[:3]]
    assert steps[0] > 300


def _breach(change: Callable[[SNCState], SNCState]) -> refinement.Mismatch:
    before = _start()
    m = _mismatch(before, change(before))
    assert m is not None
    return m


def test_snc_9_4_6_a_unit_entering_3513_is_caught() -> None:
    """SNC-9.4.6, SNC-0.0.1: a step that puts a unit in the International Settlement."""
    m = _breach(lambda s: _move(s, "JP-3D-1", H("3513")))
    assert "SNC-9.4.6" in m.clauses


def test_snc_9_0_12_a_unit_entering_an_enemy_hex_is_caught() -> None:
    """SNC-9.0.12, SNC-6.0.1: a Japanese unit stepping into a hex a Chinese unit keeps."""
    s = _start()
    chinese = next(h for u, h in s.where if RULES.tables.spec[u].side == CH)
    mover = next(
        u
        for u, _ in s.where
        if RULES.tables.spec[u].side == JP and not RULES.tables.spec[u].is_static
    )
    m = _mismatch(s, _move(s, mover, chinese))
    assert m is not None and "SNC-9.0.12" in m.clauses


def test_snc_2_2_1_8_a_static_unit_moving_is_caught() -> None:
    """SNC-2.2.1.8, SNC-9.1.1: a static unit that changes hex."""
    s = _start()
    unit, h = next((u, h) for u, h in s.where if RULES.tables.spec[u].is_static)
    to = next(
        n
        for n in RULES.tables.board.neighbors(h)
        if RULES.tables.board.enterable(n) and n not in {x for _, x in s.where}
    )
    m = _mismatch(s, _move(s, unit, to))
    assert m is not None and "SNC-2.2.1.8" in m.clauses


def test_snc_8_3_3_a_unit_back_from_the_dead_is_caught() -> None:
    """SNC-8.3.3: a unit that leaves the dead pile."""
    s = _start()
    unit = next(u for u, _ in s.where if RULES.tables.spec[u].side == JP)
    dead = attrs.evolve(_move(s, unit, None), dead=s.dead | {unit})
    m = _mismatch(dead, s)
    assert m is not None and "SNC-8.3.3" in m.clauses


def test_snc_8_3_2_a_unit_restored_without_a_replacement_is_caught() -> None:
    """SNC-8.3.2, SNC-8.3.4: a reduced unit back to full strength with no replacement step
    spent (and one with a step spent is a model step)."""
    s = _start()
    unit = next(u for u, _ in s.where if RULES.tables.spec[u].side == JP)
    reduced = attrs.evolve(s, reduced=s.reduced | {unit}, replacements=2)
    m = _mismatch(reduced, attrs.evolve(reduced, reduced=s.reduced))
    assert m is not None and "SNC-8.3.2" in m.clauses
    spent = attrs.evolve(reduced, reduced=s.reduced, replacements=1)
    assert _mismatch(reduced, spent) is None


def test_snc_5_2_1_a_gt_skipped_is_caught() -> None:
    """SNC-5.2.1: the GT moving on by two, or in the Chinese player turn."""
    s = attrs.evolve(_start(), side=JP, phase=Phase.OPS2, step=Step.MAIN)
    nxt = attrs.evolve(s, turn=3, side=CH, phase=Phase.DECLARE)
    m = _mismatch(s, nxt)
    assert m is not None and "SNC-5.2.1" in m.clauses
    assert _mismatch(s, attrs.evolve(nxt, turn=2)) is None
    chinese = attrs.evolve(s, side=CH)
    m = _mismatch(chinese, attrs.evolve(nxt, turn=2))
    assert m is not None and "SNC-5.2.1" in m.clauses


# --- two readings, one truth ---------------------------------------------------------------------


def _z3_accepts(link: Link, before: dict[str, int | bool], after: dict[str, Any]) -> bool:
    """The step rules as one Z3 formula over symbolic frames, pinned to the two states."""
    system = link.system
    schema = system.schemas[0]
    s = z3_frame(system.variables, "@0")
    c = z3_frame(schema.choices, "@c")
    solver = smt.Solver(finite_domain=False, rlimit=50_000_000)
    solver.add(pinned(system.variables, s, before))
    solver.add(pinned(schema.choices, c, after))
    solver.add(smt.formula(smt.Z3.all(g.make() for g in schema.guard(smt.Z3, s, c))))
    return solver.check()


def test_snc_6_0_1_the_z3_and_python_readings_of_the_step_rules_agree() -> None:
    """SNC-6.0.1, SNC-9.0.12: on real steps and on broken ones, the step rules read by Z3 over
    every unit accept exactly what the plain evaluation (which looks only at the units a step
    changed) accepts."""
    link = STANDARD
    schema = link.system.schemas[0]
    cases: list[tuple[SNCState, Any, SNCState]] = []

    real = size(5, 12)

    def on_step(before: SNCState, action: Any, after: SNCState) -> None:
        if len(cases) < real and before.where != after.where:
            cases.append((before, action, after))

    play(GAME, _start(), random.Random(2), RULES.playout_agents(), max_steps=400, on_step=on_step)
    s = _start()
    cases.append((s, Done(), _move(s, "JP-3D-1", H("3513"))))
    cases.append((s, Done(), attrs.evolve(s, turn=4)))
    assert len(cases) == real + 2
    verdicts = []
    for before, action, after in cases:
        link.known_step(before, action, after)
        _, choice = link.schema_of(before, action)
        plain = not evaluate(link.system, link.project(before), schema, choice).failed
        assert _z3_accepts(link, link.project(before), choice) == plain
        verdicts.append(plain)
    assert verdicts.count(False) == 2


def test_snc_5_2_2_the_abstraction_has_one_schema_and_the_projected_set_up() -> None:
    """SNC-5.2.2, SNC-3.1.4: the model starts at the projected set-up (GT 1, no result, the
    at-start units on their hexes) and is marked as an abstraction."""
    link = STANDARD
    assert link.exact is False
    start = link.system.initial()
    assert start["turn"] == 1 and start["result"] is False
    s = _start()
    for u, h in s.where:
        assert start[f"at.{u}"] == link.model.hexes.index[h]
    assert concrete_frame(link.system.variables, start).i("turn") == 1


def test_snc_5_0_1_exploration_does_not_read_the_abstraction() -> None:
    """SNC-5.0.1: `wargame explore` compares readings over exact models only; the SNC's
    abstraction has the same steps under every reading, so it would show no difference where
    the rules have one. It is not offered there (and a game without an exact model explores by
    play)."""
    assert model_of(verification.symbolic_model, CATALOGUE.preset("standard")) is None
    assert verification.symbolic_model(CATALOGUE.preset("standard")).exact is False


# --- the stacking limits in the model ------------------------------------------------------------

_STACK_READINGS = [
    {},
    {"japanese_stack": "division_plus_one"},
    {"japanese_stack": "division_plus_one", "snlf_partial_division": "all_four"},
    {"static_de": "by_size"},
]


@functools.cache
def _stack_model(i: int) -> Model:
    return Model(load_data(), CATALOGUE.variant("standard", _STACK_READINGS[i]))


@settings(max_examples=150, deadline=None)
@given(
    readings=st.integers(0, len(_STACK_READINGS) - 1),
    jp=st.booleans(),
    picks=st.lists(st.integers(0, 10_000), min_size=1, max_size=9),
)
def test_snc_6_2_1_6_2_3_the_model_s_limits_equal_the_stacking_module(
    readings: int, jp: bool, picks: list[int]
) -> None:
    """SNC-6.2.1, SNC-6.2.2, SNC-6.2.3 (AMB-SNC-9, AMB-SNC-10): the model's reading of the
    limits (`Model.within`, what Z3 proves SNC-P-STACKING with) agrees with
    `stacking.within_limits` on stacks of real counters of one side, under each reading; the
    SNLF battalions are drawn often, so all four together is met."""
    m = _stack_model(readings)
    side = JP if jp else CH
    mine = [u for u in m.units if m.side[u] == side]
    snlf = [u for u in mine if m.t.spec[u].division == "SNLF"]
    pool = [*mine, *snlf * 10]
    units = sorted({pool[i % len(pool)] for i in picks})
    values = {v.name: (0 if isinstance(v, IntVar) else False) for v in m.variables}
    for u in units:
        values[at(u)] = 7
    frame = concrete_frame(m.variables, values)
    expected = stacking.within_limits(units, m.t.data, m.variant)
    assert all(m.within(CONCRETE, frame, u) == expected for u in units), (units, expected)
