"""Groups that move together, formed unit by unit (SNC-9.0.10, SNC-9.6.2; AMB-SNC-44).

SNC-9.6.2: "The overrunning units must start their movement in one hex and move together to the
overrun hex." Any group of one hex's unmoved units is formed by `Join(unit)` (the first opens
it, `Step.GROUP`), then moves with `Move(group, to)`; one unit and (stack_movement=stacks) the
whole stack still move with `Move` at once. Under units_only ("units move one at a time, except
in overruns") a group moves together only toward an overrun and may not stop before it."""

from __future__ import annotations

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
from specs.snc1937.rules.actions import Action, Declare, Done, Join, Move, Overrun, Top
from specs.snc1937.rules.state import CH, FULL_MP, JP, Order, SNCState, Step
from tests.snc1937.assembled import rules_of

GAME: AssembledGame[SNCState, Action] = PACKAGE.assemble()
T = rules_of(GAME).tables
THREE = ("JP-11D-1", "JP-11D-2", "JP-11D-3")
GROUPS = [g for k in (1, 2, 3) for g in itertools.combinations(THREE, k)]
READINGS = ("stacks", "units_only")
MARSH_OVERRUN = 2 * 3  # SNC-9.6.9: 2707 is marsh, 2 MP to enter + 1 (in half-MP)


def H(text: str) -> Hex:
    return parse_hex(text)


def position(where: dict[str, str] | None = None, **readings: str) -> SNCState:
    """GT 7, the Japanese First Operations Phase, a Move phase (SNC-5.3.2): the three
    regiments of the 11th Division in 2906, two hexes from a Chinese division in 2707 (marsh, the
    SNC-9.6.9 example's hex; 2806 lies between), Chang Sho (2606) held, and any `where` added; the
    Japanese control the hexes they stand in (SNC-3.2.2)."""
    s = GAME.initial_state(CATALOGUE.variant("standard", readings))
    placed = dict.fromkeys(THREE, "2906") | {"CH-3D": "2707", "CH-6D": "2606"}
    placed |= {"JP-G-SHANGHAI": "3512"} | (where or {})
    dead = frozenset(T.spec) - set(placed) - garrison_pool(T)
    s = attrs.evolve(
        s,
        where=tuple(sorted((u, H(h)) for u, h in placed.items())),
        trt=(),
        dead=dead,
        turn=7,
        side=JP,
        jp_control=frozenset(H(h) for u, h in placed.items() if T.spec[u].side == JP),
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


def move_together(s: SNCState, group: tuple[str, ...], to: Hex) -> SNCState:
    """The group's first hex: one unit by `Move` alone, more by `Join` each, then `Move`."""
    if len(group) == 1:
        return GAME.apply(s, Move(group, to))
    for u in group:
        assert Join(u) in GAME.legal_actions(s)
        s = GAME.apply(s, Join(u))
        assert s.step == Step.GROUP and s.moving[-1] == u
    assert Move(group, to) in GAME.legal_actions(s)
    return GAME.apply(s, Move(group, to))


@pytest.mark.parametrize("reading", READINGS)
@pytest.mark.parametrize("group", GROUPS, ids=["+".join(u[-1] for u in g) for g in GROUPS])
def test_snc_9_6_2_each_of_the_seven_groups_moves_together_then_overruns(
    group: tuple[str, ...], reading: str
) -> None:
    """SNC-9.6.2, SNC-9.6.1, SNC-9.6.3 (both stack_movement readings): each non-empty group of
    the three regiments in 2906 moves together into 2806 and from there overruns 2707 with its
    own units, paying from the MP left after 2806 (2 + 1 for the marsh); the others stay
    unmoved, free to move later (SNC-9.0.10)."""
    s = move_together(position(stack_movement=reading), group, H("2806"))
    assert s.step == Step.MAIN and s.moving == group
    assert all(dict(s.where)[u] == H("2806") for u in group)
    left = s.mp
    assert 0 < left < FULL_MP  # SNC-9.0.4: the hex's cost is paid from the 8 MP
    s = GAME.apply(s, Overrun(H("2707")))
    assert s.combat is not None and s.combat.overrun
    assert s.combat.attackers == group and s.moving == group
    assert s.mp == left - MARSH_OVERRUN
    others = set(THREE) - set(group)
    assert all(dict(s.where)[u] == H("2906") for u in others)
    assert not others & s.done


def test_snc_9_0_10_the_old_moves_stay() -> None:
    """SNC-9.0.10, AMB-SNC-44: one unit moves with `Move` at once under both readings; the whole
    movable stack too under stacks, never under units_only (units move one at a time)."""
    for reading in READINGS:
        legal = GAME.legal_actions(position(stack_movement=reading))
        assert Move(("JP-11D-2",), H("2806")) in legal
        assert (Move(THREE, H("2806")) in legal) == (reading == "stacks")


@pytest.mark.parametrize("reading", READINGS)
def test_snc_9_0_10_a_group_is_formed_unit_by_unit_in_any_order(reading: str) -> None:
    """SNC-9.0.10, SNC-9.6.2: any unit of the hex opens a group and any other joins it, one at a
    time (as an attack's attackers join); a group of one unit neither moves as a group nor stops
    (one unit moves by `Move` alone), and a unit joins once."""
    s = position(stack_movement=reading)
    opens = [a for a in GAME.legal_actions(s) if isinstance(a, Join)]
    assert opens == [Join(u) for u in THREE]
    g = run(s, Join("JP-11D-3"))
    assert [a for a in GAME.legal_actions(g) if isinstance(a, Join)] == [
        Join("JP-11D-1"),
        Join("JP-11D-2"),
    ]
    assert "SNC-9.0.10" in refused(g, Join("JP-11D-3")).clauses
    assert all(isinstance(a, Join) for a in GAME.legal_actions(g))
    assert "SNC-9.0.10" in refused(g, Done()).clauses
    assert "SNC-9.0.10" in refused(g, Move(("JP-11D-3",), H("2806"))).clauses
    pair = run(g, Join("JP-11D-1"))
    assert pair.moving == ("JP-11D-3", "JP-11D-1")
    assert Move(pair.moving, H("2806")) in GAME.legal_actions(pair)


def test_snc_9_6_2_units_of_another_hex_never_join() -> None:
    """SNC-9.6.2: "start their movement in one hex": a regiment in 2905 joins no group formed in
    2906, and a unit that has moved joins none (SNC-9.0.10)."""
    s = position({"JP-3D-1": "2905"})
    g = run(s, Join("JP-11D-1"))
    assert "SNC-9.6.2" in refused(g, Join("JP-3D-1")).clauses
    moved = run(s, Move(("JP-11D-1",), H("3006")), Done())
    assert Join("JP-11D-1") not in GAME.legal_actions(moved)
    assert "SNC-9.0.10" in refused(moved, Join("JP-11D-1")).clauses


def test_snc_9_6_2_units_only_moves_a_group_only_toward_an_overrun() -> None:
    """SNC-9.6.2, AMB-SNC-44 (units_only: units move alone except in overruns): a group may
    enter only hexes from which an overrun can still be reached, and may not stop before it has
    overrun; under stacks it goes anywhere a unit may and stops when it likes."""
    both = ("JP-11D-1", "JP-11D-2")
    only = run(position(stack_movement="units_only"), *map(Join, both))
    free = run(position(stack_movement="stacks"), *map(Join, both))
    dests_only = {a.to for a in GAME.legal_actions(only) if isinstance(a, Move)}
    dests_free = {a.to for a in GAME.legal_actions(free) if isinstance(a, Move)}
    assert dests_only < dests_free  # some hexes lead to no overrun within the 8 MP
    for h in dests_free - dests_only:
        assert refused(only, Move(both, h)).clauses == ("SNC-9.6.2",)
    s = GAME.apply(only, Move(both, H("2806")))
    assert s.overrun_next == "owed" and Done() not in GAME.legal_actions(s)
    assert "SNC-9.6.2" in refused(s, Done()).clauses
    s = GAME.apply(s, Overrun(H("2707")))
    assert s.overrun_next == ""  # paid: the group's move is an ordinary one again
    moved = GAME.apply(free, Move(both, H("2806")))
    assert Done() in GAME.legal_actions(moved)


def test_snc_9_6_1_units_only_gives_the_chinese_no_group() -> None:
    """SNC-9.6.1: only the Japanese overrun, so under units_only no Chinese group forms; under
    stacks the Chinese form groups too (AMB-SNC-44 (a))."""
    for reading, expected in (("units_only", False), ("stacks", True)):
        s = GAME.initial_state(CATALOGUE.variant("standard", {"stack_movement": reading}))
        s = GAME.apply(s, Declare(Order.MOVE_FIGHT))
        assert s.side == CH
        assert any(isinstance(a, Join) for a in GAME.legal_actions(s)) == expected


def test_snc_9_0_10_counts_stay_small_with_ten_units() -> None:
    """SNC-9.0.10: with ten movable units in 2906 (over-stacked mid-phase, SNC-6.0.2) each step
    of forming a group lists at most one join per unit plus the group's first hexes (six
    neighbours), where listing the groups would offer 1,013."""
    ten = ("JP-11D-4", "JP-3D-1", "JP-3D-2", "JP-3D-3", "JP-3D-4", "JP-9D-1", "JP-9D-2")
    s = position(dict.fromkeys(ten, "2906"))
    here = [u for u, h in s.where if h == H("2906")]
    assert len(here) == 10
    joins = [a for a in GAME.legal_actions(s) if isinstance(a, Join)]
    assert len(joins) == 10
    sizes = []
    s = GAME.apply(s, joins[0])
    while s.step == Step.GROUP:
        legal = GAME.legal_actions(s)
        sizes.append(len(legal))
        nxt = [a for a in legal if isinstance(a, Join)]
        s = GAME.apply(s, nxt[-1] if nxt else legal[0])
    assert sizes and max(sizes) <= len(here) + 6


def test_snc_9_0_10_the_position_check_holds_a_group_being_formed() -> None:
    """SNC-9.0.10: a group being formed has its full 8 MP, in one hex; the position round-trips
    through JSON; with MP spent, or no group, it is refused."""
    s = run(position(), Join("JP-11D-1"), Join("JP-11D-3"))
    GAME.check_position(s)
    assert GAME.state_from_json(GAME.state_to_json(s)) == s
    for bad in (attrs.evolve(s, mp=FULL_MP - 2), attrs.evolve(s, moving=(), mp=0)):
        with pytest.raises(ImpossiblePosition):
            GAME.check_position(bad)


def test_snc_9_0_10_the_log_names_the_group_steps() -> None:
    """SNC-9.0.10, SNC-9.6.2: each step of forming a group has its log line naming the clause,
    and round-trips through JSON."""
    s = position()
    lines = []
    for a in (Join("JP-11D-1"), Join("JP-11D-2"), Move(THREE[:2], H("2806"))):
        assert GAME.action_from_json(GAME.action_to_json(a)) == a
        lines.append(GAME.describe(s, a))
        s = GAME.apply(s, a)
    assert "opens a group" in lines[0] and "SNC-9.0.10" in lines[0]
    assert "joins JP-11D-1" in lines[1] and "SNC-9.6.2" in lines[1]
    assert "first hex together" in lines[2]


# --- every listed step is accepted, a refused one names its clause --------------------------------

BAD = (Join("JP-G-SHANGHAI"), Done(), Top("CH-3D"))


def _walk(seed: int, reading: str, steps: int) -> list[SNCState]:
    """The states of a seeded random game that declares Move phases and forms groups whenever it
    can, up to `steps`."""
    rng = random.Random(seed)
    s = GAME.initial_state(CATALOGUE.variant("standard", {"stack_movement": reading}))
    out = []
    for _ in range(steps):
        who = GAME.to_move(s)
        if who is None:
            break
        out.append(s)
        if who == CHANCE:
            s = GAME.apply(s, rng.choice([a for a, _ in GAME.chance_outcomes(s)]))
            continue
        legal = GAME.legal_actions(s)
        joins: list[Action] = [
            a for a in legal if isinstance(a, Join) and s.step in (Step.MAIN, Step.GROUP)
        ]
        if Declare(Order.MOVE_MOVE) in legal:
            joins = [Declare(Order.MOVE_MOVE)]  # Move phases, where groups form
        s = GAME.apply(s, rng.choice(joins) if joins else legal[rng.randrange(len(legal))])
    return out


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**16), reading=st.sampled_from(READINGS))
def test_snc_9_0_10_listed_group_steps_are_accepted(seed: int, reading: str) -> None:
    """SNC-9.0.10, SNC-9.6.2: along seeded games that form groups whenever they can, at each
    group step every listed action is accepted and yields a legal position, and an action not
    listed is refused with clauses."""
    seen = 0
    for s in _walk(seed, reading, 400):
        if s.step != Step.GROUP and s.overrun_next != "owed":
            continue
        seen += 1
        legal = GAME.legal_actions(s)
        assert legal
        for a in legal:
            GAME.check_position(GAME.apply(s, a))
        for bad in BAD:
            if bad not in legal:
                assert refused(s, bad).clauses
    assert seen > 0
