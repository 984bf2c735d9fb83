"""Overrun groups (SNC-9.6.2): "the overrunning units must start their movement in one hex and
move together to the overrun hex". Any group of one hex's units that have not moved may overrun,
declared unit by unit (`Overrun(target)`, `Join(unit)`, `Strike()`), never by listing subsets;
a group whose move is under way overruns with the units it moves with."""

from __future__ import annotations

import functools
import itertools
import random

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kernel.errors import IllegalAction, ImpossiblePosition
from kernel.game import CHANCE
from kernel.hexes import Hex, parse_hex
from kernel.roles import AssembledGame
from specs.snc1937 import PACKAGE
from specs.snc1937.data.variants import CATALOGUE
from specs.snc1937.formal.position_domains import garrison_pool
from specs.snc1937.rules import overrun_steps
from specs.snc1937.rules import tables as flow
from specs.snc1937.rules.actions import (
    Action,
    Declare,
    Done,
    Join,
    Move,
    Overrun,
    Strike,
)
from specs.snc1937.rules.state import FULL_MP, JP, Order, SNCState, Step
from tests.snc1937.assembled import rules_of

GAME: AssembledGame[SNCState, Action] = PACKAGE.assemble()
RULES = rules_of(GAME)
T = RULES.tables
THREE = ("JP-11D-1", "JP-11D-2", "JP-11D-3")
GROUPS = [g for k in (1, 2, 3) for g in itertools.combinations(THREE, k)]
MARSH_OVERRUN = 2 * 3  # SNC-9.6.9: 2707 is marsh, 2 MP to enter + 1 (overrun_cost, in half-MP)


def H(text: str) -> Hex:
    return parse_hex(text)


def position(where: dict[str, str] | None = None, **readings: str) -> SNCState:
    """GT 7, the Japanese First Operations Phase, a Move phase (SNC-5.3.2): three regiments of
    the 11th Division in 2806 next to a Chinese division in 2707 (marsh, not a town: the
    hexes of the SNC-9.6.9 example), Chang Sho (2606) held, and any `where` added."""
    s = GAME.initial_state(CATALOGUE.variant("standard", readings))
    placed = dict.fromkeys(THREE, "2806") | {"CH-3D": "2707", "CH-6D": "2606"}
    placed |= {"JP-G-SHANGHAI": "3512"} | (where or {})
    dead = frozenset(T.spec) - set(placed) - garrison_pool(T)
    s = attrs.evolve(
        s,
        where=tuple(sorted((u, H(h)) for u, h in placed.items())),
        trt=(),
        dead=dead,
        turn=7,
        side=JP,
        jp_control=frozenset({H("3512")}),
    )
    return GAME.apply(s, Declare(Order.MOVE_MOVE))


def run(s: SNCState, *actions: Action) -> SNCState:
    for a in actions:
        s = GAME.apply(s, a)
    return s


def refused(s: SNCState, action: Action) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(s, action)
    return caught.value


@pytest.mark.parametrize("group", GROUPS, ids=["+".join(u[-1] for u in g) for g in GROUPS])
def test_snc_9_6_2_each_of_the_seven_groups_of_a_three_unit_hex_overruns(
    group: tuple[str, ...],
) -> None:
    """SNC-9.6.2, SNC-9.6.1, SNC-9.6.3: each non-empty group of the three regiments in 2806 may
    overrun 2707: opened, joined unit by unit, launched; it pays the marsh's 2 MP + 1 and
    fights with its own strength (3 per regiment, SNC-10.3.0.1); the others stay unmoved, free
    to move later (SNC-9.0.10)."""
    s = run(position(), Overrun(H("2707")))
    assert s.step == Step.JOIN and not s.moving
    for u in group:
        assert Join(u) in GAME.legal_actions(s)
        s = GAME.apply(s, Join(u))
    assert Strike() in GAME.legal_actions(s)
    s = GAME.apply(s, Strike())
    assert s.step == Step.SUPPORT_A and s.combat is not None and s.combat.overrun
    assert s.combat.attackers == group and s.moving == group
    assert s.mp == FULL_MP - MARSH_OVERRUN
    assert flow.battle(T, s, s.combat).attack == sum(T.spec[u].cf for u in group)
    others = set(THREE) - set(group)
    assert not others & s.done


def test_snc_9_6_2_a_unit_that_moved_separately_cannot_join() -> None:
    """SNC-9.6.2, SNC-9.0.10: JP-11D-4 moves on its own from 2906 into 2806 and stops; it did
    not start its move with the three, so it may not join their overrun group, nor start one
    (it has moved); the three may."""
    s = position({"JP-11D-4": "2906"})
    s = run(s, Move(("JP-11D-4",), H("2806")), Done())
    assert "JP-11D-4" in s.done
    s = run(s, Overrun(H("2707")))
    assert [a for a in GAME.legal_actions(s) if isinstance(a, Join)] == [Join(u) for u in THREE]
    assert "SNC-9.6.2" in refused(s, Join("JP-11D-4")).clauses
    s = run(s, Join("JP-11D-1"))
    assert "SNC-9.6.2" in refused(s, Join("JP-11D-4")).clauses
    pair = run(s, Join("JP-11D-2"), Strike())
    assert pair.combat is not None and pair.combat.attackers == ("JP-11D-1", "JP-11D-2")


def test_snc_9_6_2_units_of_two_hexes_never_overrun_together() -> None:
    """SNC-9.6.2: the 3rd Division's regiment in 2807 is also next to 2707 and may start a group
    of its own, but a group started in 2806 takes no unit of 2807, nor the reverse."""
    s = run(position({"JP-3D-1": "2807"}), Overrun(H("2707")))
    assert {a.unit for a in GAME.legal_actions(s) if isinstance(a, Join)} == {*THREE, "JP-3D-1"}
    from_2806 = run(s, Join("JP-11D-2"))
    joins = [a for a in GAME.legal_actions(from_2806) if isinstance(a, Join)]
    assert joins == [Join("JP-11D-1"), Join("JP-11D-3")]
    assert "SNC-9.6.2" in refused(from_2806, Join("JP-3D-1")).clauses
    from_2807 = run(s, Join("JP-3D-1"))
    assert GAME.legal_actions(from_2807) == [Strike()]
    assert "SNC-9.6.2" in refused(from_2807, Join("JP-11D-1")).clauses


def test_snc_9_6_2_a_group_under_way_overruns_with_its_own_units() -> None:
    """SNC-9.0.10, SNC-9.6.2: JP-11D-4 moves from 2906 into 2806 (a Chinese ZOC, where its move
    may end only in an overrun); its overrun of 2707 is its own, at once: no unit of 2806
    joins a move under way, and it pays from the MP left after entering 2806."""
    s = position({"JP-11D-4": "2906"})
    s = run(s, Move(("JP-11D-4",), H("2806")))
    assert s.moving == ("JP-11D-4",)
    left = s.mp
    assert Overrun(H("2707")) in GAME.legal_actions(s)
    s = run(s, Overrun(H("2707")))
    assert s.step == Step.SUPPORT_A and s.combat is not None
    assert s.combat.attackers == ("JP-11D-4",) and s.mp == left - MARSH_OVERRUN
    assert not any(isinstance(a, Join) for a in GAME.legal_actions(s))


def test_snc_9_6_2_the_whole_stack_and_a_single_unit_are_special_cases() -> None:
    """SNC-9.6.2: the two groups offered before, the stack's movable units all together and one
    unit alone, are still made the same way."""
    alone = run(position(), Overrun(H("2707")), Join("JP-11D-3"), Strike())
    assert alone.moving == ("JP-11D-3",)
    whole = run(position(), Overrun(H("2707")), *(Join(u) for u in THREE), Strike())
    assert whole.moving == THREE
    assert GAME.legal_actions(run(position(), Overrun(H("2707")), *map(Join, THREE))) == [Strike()]


def test_snc_9_6_1_the_declaration_lists_units_not_subsets() -> None:
    """SNC-9.6.1, SNC-9.6.2: with ten movable Japanese units in 2806 (over-stacked mid-phase,
    SNC-6.0.2), the main step offers one overrun per adjacent Chinese hex, and each step of the
    declaration at most one action per unit and Strike: 11 at most, where listing the groups
    would offer 1,023."""
    ten = ("JP-11D-4", "JP-3D-1", "JP-3D-2", "JP-3D-3", "JP-3D-4", "JP-9D-1", "JP-9D-2")
    s = position(dict.fromkeys(ten, "2806"))
    here = [u for u, h in s.where if h == H("2806")]
    assert len(here) == 10
    main = [a for a in GAME.legal_actions(s) if isinstance(a, Overrun)]
    assert main == [Overrun(H("2707"))]
    s = run(s, Overrun(H("2707")))
    sizes = []
    while s.step == Step.JOIN:
        legal = GAME.legal_actions(s)
        sizes.append(len(legal))
        joins = [a for a in legal if isinstance(a, Join)]
        s = GAME.apply(s, joins[0] if joins else Strike())
    assert sizes == [10, *range(10, 0, -1)]  # 10 joins, then joins left + Strike
    assert max(sizes) <= len(here) + 1


def test_snc_9_6_2_the_position_check_holds_a_declared_group_to_one_unmoved_hex() -> None:
    """SNC-9.6.2, SNC-9.0.10: a decoded position with an overrun group being declared is refused
    when its units are of two hexes or one of them has moved; the positions play reaches pass."""
    s = run(position({"JP-3D-1": "2807"}), Overrun(H("2707")), Join("JP-11D-1"))
    GAME.check_position(s)
    assert GAME.state_from_json(GAME.state_to_json(s)) == s
    assert s.combat is not None
    two_hexes = attrs.evolve(s, combat=attrs.evolve(s.combat, attackers=("JP-11D-1", "JP-3D-1")))
    moved = attrs.evolve(s, done=s.done | {"JP-11D-1"})
    for bad in (two_hexes, moved):
        with pytest.raises(ImpossiblePosition) as caught:
            GAME.check_position(bad)
        assert "SNC-9.6.2" in caught.value.clauses


def test_snc_9_6_1_the_log_reads_the_declaration_and_the_launch() -> None:
    """SNC-9.6.1, SNC-9.6.2: each step of the declaration has its log line, which round-trips
    through JSON, and launching it tells who overruns and the MP paid (2 + 1 for the marsh,
    SNC-9.6.9) and left."""
    s = position()
    lines = []
    for a in (Overrun(H("2707")), Join("JP-11D-1"), Join("JP-11D-2"), Strike()):
        assert GAME.action_from_json(GAME.action_to_json(a)) == a
        lines.append(GAME.describe(s, a))
        before, s = s, GAME.apply(s, a)
    assert lines == [
        "JP: overrun target=2707 (SNC-9.6.1)",
        "JP: join unit=JP-11D-1 (to the group overrunning 2707, SNC-9.6.2)",
        "JP: join unit=JP-11D-2 (to the group overrunning 2707, SNC-9.6.2)",
        "JP: strike (the group overruns 2707, SNC-9.6.1)",
    ]
    (event,) = [e for e in GAME.events(before, Strike(), s) if e.startswith("overrun")]
    assert event.startswith("overrun of 2707 by JP-11D-1, JP-11D-2: 3 MP paid, 5 left")


# --- playout positions -------------------------------------------------------------------------


def _overrun_steps(s: SNCState, legal: list[Action]) -> list[Action]:
    if overrun_steps.declaring(s):
        return legal
    return [a for a in legal if isinstance(a, Overrun)]


@functools.cache
def _playout(seed: int) -> tuple[SNCState, ...]:
    """The positions of a seeded random game where an overrun step is legal. The Japanese pick
    an overrun step half the time one is offered (uniform play seldom completes one), else
    any legal action; dice are uniform. Bounded by 4,000 steps."""
    rng = random.Random(seed)
    s = GAME.initial_state(CATALOGUE.variant("standard", {}))
    found = []
    for _ in range(4000):
        who = GAME.to_move(s)
        if who is None:
            break
        if who == CHANCE:
            a = rng.choice([a for a, _ in GAME.chance_outcomes(s)])
        else:
            legal = list(GAME.legal_actions(s))
            steps = _overrun_steps(s, legal)
            if steps:
                found.append(s)
            a = rng.choice(steps if steps and rng.random() < 0.5 else legal)
        s = GAME.apply(s, a)
    return tuple(found)


def _refused_names_9_6(s: SNCState, action: Action) -> None:
    error = refused(s, action)
    assert any(c.startswith("SNC-9.6.") for c in error.clauses), (action, error)


def _check_position(s: SNCState) -> None:
    """Every legal overrun step is accepted; every overrun step left out is refused naming
    SNC-9.6.x."""
    legal = list(GAME.legal_actions(s))
    for a in _overrun_steps(s, legal):
        GAME.check_position(GAME.apply(s, a))
    loc = flow.locations(s.where)
    if overrun_steps.declaring(s):
        for u in sorted(loc):
            allowed = Join(u) in legal
            assert allowed == (overrun_steps.join_problem(T, s, u) is None), u
            if not allowed:
                _refused_names_9_6(s, Join(u))
        if Strike() not in legal:
            _refused_names_9_6(s, Strike())
        _refused_names_9_6(s, Done())
        return
    near = {n for u, h in s.where if T.spec[u].side == JP for n in T.board.neighbors(h)}
    for n in sorted(near):
        if Overrun(n) not in legal:
            _refused_names_9_6(s, Overrun(n))


@settings(max_examples=30, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 5), pick=st.integers(0, 10_000))
def test_snc_9_6_playout_overrun_steps_are_accepted_and_refusals_name_9_6(
    seed: int, pick: int
) -> None:
    """SNC-9.6.1, SNC-9.6.2: over positions of seeded games where an overrun step is legal,
    `apply` accepts each listed one (into a legal position) and refuses every other overrun
    or join with a reason naming SNC-9.6.x; a unit may join exactly when `join_problem` finds
    nothing."""
    found = _playout(seed)
    assert found, seed
    _check_position(found[pick % len(found)])


def test_snc_9_6_the_seeded_playouts_reach_declarations() -> None:
    """The positions above include overrun groups being declared, with more than one unit to
    choose from (the test would otherwise not see SNC-9.6.2's joins)."""
    declaring = [s for seed in range(6) for s in _playout(seed) if overrun_steps.declaring(s)]
    assert declaring
    assert any(len(GAME.legal_actions(s)) > 1 for s in declaring)
