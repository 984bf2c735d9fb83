"""The legal attacks of a Fight phase from the solver layer (SNC-10.0.x, SNC-10.2.x), held equal
to the plain enumeration of specs/snc1937/formal/attacks_oracle.py."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from hypothesis import given, settings
from hypothesis import strategies as st

from kernel.hexes import Hex
from solvers.queries import assignments as solver
from solvers.queries.combat import Combat, Reason
from specs.snc1937.data.variants import CATALOGUE
from specs.snc1937.formal.attacks_oracle import oracle_attacks
from specs.snc1937.rules.board import Board
from specs.snc1937.rules.column_shifts import concentric
from specs.snc1937.rules.combat_query import (
    Attack,
    check_attack,
    combat_problem,
    crossable,
    explain_attack,
    legal_attacks,
)
from specs.snc1937.rules.fire_support import eligible_kinds
from tests.snc1937.test_movement import LAND, at_start
from tests.snc1937.test_zoc import BOARD, CH, CH_STATIC, DATA, JP, STANDARD, h, pos

JP_UNITS = sorted(u.id for u in DATA.units if u.side == "JP")
CH_UNITS = sorted(u.id for u in DATA.units if u.side == "CH")
TWO_STEP = frozenset(u.id for u in DATA.units if u.steps == 2)


def _clauses(reasons: Iterable[Reason]) -> set[str]:
    return {c for r in reasons for c in r.clauses}


def _as_set(got: Iterable[Attack]) -> set[tuple[Hex, frozenset[str]]]:
    return {(a.target, frozenset(a.attackers)) for a in got}


@st.composite
def positions(draw: st.DrawFn) -> tuple[dict[Hex, tuple[str, ...]], str]:
    """A few stacks of real counters round one land hex, each hex held by one side."""
    centre = draw(st.sampled_from(LAND))
    ring = [centre, *(n for n in BOARD.neighbors(centre) if BOARD.enterable(n))]
    near = sorted({m for n in ring for m in BOARD.neighbors(n) if BOARD.enterable(m)} | set(ring))
    chosen = draw(st.lists(st.sampled_from(near), min_size=2, max_size=6, unique=True))
    jp = iter(draw(st.permutations(JP_UNITS))[:12])
    ch = iter(draw(st.permutations(CH_UNITS))[:12])
    out: dict[Hex, tuple[str, ...]] = {}
    for x in chosen:
        n = draw(st.integers(1, 2))
        out[x] = tuple(next(jp if draw(st.booleans()) and n else ch) for _ in range(1))
        if n == 2:
            side_iter = jp if DATA.unit(out[x][0]).side == "JP" else ch
            out[x] = (*out[x], next(side_iter))
    side = draw(st.sampled_from(("JP", "CH")))
    return out, side


@settings(max_examples=80, deadline=None)
@given(
    p=positions(),
    data=st.data(),
)
def test_snc_10_0_5_legal_attacks_equal_the_plain_enumeration(
    p: tuple[dict[Hex, tuple[str, ...]], str], data: st.DataObject
) -> None:
    """SNC-10.0.5 to SNC-10.0.8, SNC-10.2.1, SNC-10.4.1.8, SNC-10.4.1.9 (property): the solver's
    next attacks are exactly the oracle's, with units already used left out; each one checks
    and carries the concentric flag and fire-support kinds of odds/fire_support."""
    stacks, side = p
    units = sorted(u for ids in stacks.values() for u in ids)
    attacked = frozenset(data.draw(st.lists(st.sampled_from(units), max_size=2)))
    defended = frozenset(data.draw(st.lists(st.sampled_from(units), max_size=1)))
    reduced = frozenset(data.draw(st.lists(st.sampled_from(units), max_size=3))) & TWO_STEP
    got = list(
        legal_attacks(
            DATA, BOARD, STANDARD, stacks, reduced, side, attacked=attacked, defended=defended
        )
    )
    want = oracle_attacks(DATA, BOARD, stacks, reduced, side, attacked=attacked, defended=defended)
    assert _as_set(got) == want and len(got) == len(want)
    for a in got[:5]:
        assert check_attack(
            DATA, BOARD, stacks, reduced, side, a.target, a.attackers,
            attacked=attacked, defended=defended,
        )  # fmt: skip
        hexes = frozenset(a.froms)
        assert a.concentric == (
            side == "JP"
            and not BOARD.is_city(a.target)
            and concentric(DATA, a.target, hexes, stacks, STANDARD)
        )
        assert a.fire_support == eligible_kinds(
            BOARD, STANDARD, owner=side, attacking=True, target=a.target, attacker_hexes=hexes
        )


def test_snc_10_0_5_at_start_position_equals_the_oracle() -> None:
    """SNC-10.0.5, SNC-13.x: from the at-start set-up both sides' next attacks are the
    oracle's; the Japanese have 18 and the Chinese 158."""
    stacks = at_start()
    for side, n in (("JP", 18), ("CH", 158)):
        got = list(legal_attacks(DATA, BOARD, STANDARD, stacks, frozenset(), side))
        assert _as_set(got) == oracle_attacks(DATA, BOARD, stacks, frozenset(), side)
        assert len(got) == n


def test_snc_10_0_2_attacks_are_voluntary() -> None:
    """SNC-10.0.1, SNC-10.0.2: nothing must attack and nothing must be attacked; the empty
    phase is a legal assignment of the whole problem."""
    problem = combat_problem(DATA, BOARD, at_start(), "JP")
    assert not problem.must_attack and not problem.must_be_attacked and not problem.also_attack
    assert solver.first(problem) == ()


def test_snc_10_0_4_the_target_is_the_whole_hex() -> None:
    """SNC-10.0.4: a hex is attacked as one stack: the targets are hexes, and an attack on a
    hex of two units is one attack."""
    stacks = pos(h2707=JP, h2708=(CH, "CH-6D"))
    got = list(legal_attacks(DATA, BOARD, STANDARD, stacks, frozenset(), "JP"))
    assert [(a.target, a.attackers) for a in got] == [(h("2708"), (JP,))]
    assert combat_problem(DATA, BOARD, stacks, "JP").targets == ("2708",)


def test_snc_10_0_6_factors_never_split() -> None:
    """SNC-10.0.6, SNC-10.0.7: one unit in two battles of the phase is refused by the
    solver, naming the clauses."""
    stacks = pos(h2707=JP, h2708=CH, h2607=CH_STATIC)
    problem = combat_problem(DATA, BOARD, stacks, "JP")
    twice = (Combat((JP,), ("2708",)), Combat((JP,), ("2607",)))
    reasons = solver.explain(problem, twice)
    assert "SNC-10.0.7" in _clauses(list(reasons))


def test_snc_10_0_7_a_unit_attacks_once_per_phase() -> None:
    """SNC-10.0.7: a unit that attacked already is left out and its attack is refused."""
    stacks = pos(h2707=(JP, "JP-3D-2"), h2708=CH, h2607="CH-6D")
    got = list(legal_attacks(DATA, BOARD, STANDARD, stacks, frozenset(), "JP", attacked={JP}))
    assert all(JP not in a.attackers for a in got) and got
    reasons = explain_attack(DATA, BOARD, stacks, frozenset(), "JP", h("2607"), [JP], attacked={JP})
    assert _clauses(list(reasons)) == {"SNC-10.0.7"}


def test_snc_10_0_8_a_hex_is_attacked_once_per_phase() -> None:
    """SNC-10.0.8: a hex holding a unit attacked already is no target."""
    stacks = pos(h2707=JP, h2708=CH, h2607="CH-6D")
    got = list(legal_attacks(DATA, BOARD, STANDARD, stacks, frozenset(), "JP", defended={CH}))
    assert {a.target for a in got} == {h("2607")}
    reasons = explain_attack(DATA, BOARD, stacks, frozenset(), "JP", h("2708"), [JP], defended={CH})
    assert _clauses(list(reasons)) == {"SNC-10.0.8"}


def test_snc_10_0_9_units_of_one_stack_may_attack_different_hexes() -> None:
    """SNC-10.0.9: two units of one stack attack two hexes in one phase."""
    stacks = pos(h2707=(JP, "JP-3D-2"), h2708=CH, h2607="CH-6D")
    problem = combat_problem(DATA, BOARD, stacks, "JP")
    split = (Combat((JP,), ("2708",)), Combat(("JP-3D-2",), ("2607",)))
    assert solver.check(problem, split)


def test_snc_10_2_1_static_units_never_attack() -> None:
    """SNC-10.2.1, SNC-10.2.3: a static unit is in no attack and naming it is refused;
    SNC-10.2.2: the infantry stacked with it may attack."""
    stacks = pos(h2707=(CH, CH_STATIC), h2708=JP)
    got = list(legal_attacks(DATA, BOARD, STANDARD, stacks, frozenset(), "CH"))
    assert [a.attackers for a in got] == [(CH,)]
    reasons = explain_attack(DATA, BOARD, stacks, frozenset(), "CH", h("2708"), [CH, CH_STATIC])
    assert "SNC-10.2.1" in _clauses(list(reasons))


def test_snc_10_2_2_infantry_attack_out_of_a_static_hex() -> None:
    """SNC-10.2.2: infantry sharing a hex with friendly static units attack out of it."""
    stacks = pos(h2707=(CH_STATIC, CH), h2708=JP)
    assert check_attack(DATA, BOARD, stacks, frozenset(), "CH", h("2708"), [CH])


def test_snc_10_4_1_9_no_attack_across_all_lake() -> None:
    """SNC-10.4.1.9: no combat across an all-lake hexside (2609/2709); the refusal names it."""
    stacks = pos(h2609=JP, h2709=CH)
    assert not list(legal_attacks(DATA, BOARD, STANDARD, stacks, frozenset(), "JP"))
    reasons = explain_attack(DATA, BOARD, stacks, frozenset(), "JP", h("2709"), [JP])
    assert "SNC-10.4.1.9" in _clauses(list(reasons))


def test_snc_10_0_1_attackers_must_be_adjacent() -> None:
    """SNC-10.0.1: a unit two hexes away may not attack; an attack on an empty or friendly hex
    is refused too."""
    stacks: Mapping[Hex, tuple[str, ...]] = pos(h2707=JP, h2709=CH, h2708="JP-3D-2")
    reasons = explain_attack(DATA, BOARD, stacks, frozenset(), "JP", h("2709"), [JP])
    assert "SNC-10.0.1" in _clauses(list(reasons))
    assert _clauses(
        list(explain_attack(DATA, BOARD, stacks, frozenset(), "JP", h("2708"), ["JP-3D-2"]))
    ) == {"SNC-10.0.1", "SNC-10.0.3"}
    assert _clauses(
        list(explain_attack(DATA, BOARD, stacks, frozenset(), "JP", h("2709"), []))
    ) == {"SNC-10.0.5"}


def test_snc_10_4_1_8_zero_strength_attack_is_refused() -> None:
    """SNC-10.4.1.8: a 1-CF brigade attacking across a creek (2311/2411) has strength 0: no
    legal attack, and the refusal names the clause."""
    stacks = pos(h2311="CH-45B", h2411=JP)
    assert not list(legal_attacks(DATA, BOARD, STANDARD, stacks, frozenset(), "CH"))
    reasons = explain_attack(DATA, BOARD, stacks, frozenset(), "CH", h("2411"), ["CH-45B"])
    assert _clauses(list(reasons)) == {"SNC-10.4.1.8"}


def _playout_positions(seed: int, steps: int = 400) -> list[object]:
    """The distinct states of a seeded random game of the standard preset (at most `steps`)."""
    import random

    from kernel.chance import sample
    from kernel.game import CHANCE
    from specs.snc1937.game import SNC

    game = SNC()
    rng = random.Random(seed)
    s = game.initial_state(STANDARD)
    out: list[object] = [s]
    for _ in range(steps):
        side = game.to_move(s)
        if side is None:
            break
        if side == CHANCE:
            action = sample(game.chance_outcomes(s), rng)
        else:
            action = rng.choice(game.legal_actions(s))
        s = game.apply(s, action)
        out.append(s)
    return out


def test_snc_10_1_2_playout_positions_equal_the_oracle() -> None:
    """SNC-10.1.2, SNC-10.0.7, SNC-10.0.8: on the positions of seeded random games, with the
    units that attacked and the hexes attacked so far in a Fight phase, the solver's next
    attacks are the oracle's (targets with more than ten possible attackers are skipped: the
    oracle lists every subset)."""
    from specs.snc1937.rules.state import SNCState, Step

    checked = 0
    seen: set[object] = set()
    for seed in range(2):
        for state in _playout_positions(seed):
            assert isinstance(state, SNCState)
            fight = state.order is not None and state.ops_kind() == "fight"
            if state.step != Step.MAIN or state.combat is not None or not fight:
                continue
            key = (state.where, state.done, state.attacked, state.side, state.reduced)
            if key in seen:
                continue
            seen.add(key)
            stacks: dict[Hex, tuple[str, ...]] = {}
            for u, x in state.where:
                stacks[x] = (*stacks.get(x, ()), u)
            defended = frozenset(u for x in state.attacked for u in stacks.get(x, ()))
            used = {"attacked": state.done, "defended": defended}
            problem = combat_problem(DATA, BOARD, stacks, state.side, attacked=state.done)
            per_target = [sum(c.target == t for c in problem.contacts) for t in problem.targets]
            if max(per_target, default=0) > 10:
                continue
            got = list(
                legal_attacks(DATA, BOARD, STANDARD, stacks, state.reduced, state.side, **used)
            )
            want = oracle_attacks(
                DATA, BOARD, stacks, state.reduced, state.side,
                attacked=state.done, defended=defended,
            )  # fmt: skip
            assert _as_set(got) == want
            checked += 1
    assert checked > 0


def test_snc_10_1_1_no_limit_on_the_number_of_attacks() -> None:
    """SNC-10.1.1: every enemy hex in contact may be attacked in one phase: one attack per
    target of the at-start Japanese front is a legal assignment of the whole problem."""
    stacks = at_start()
    problem = combat_problem(DATA, BOARD, stacks, "JP")
    used: set[str] = set()
    combats = []
    for t in problem.targets:
        free = [c.attacker for c in problem.contacts if c.target == t and c.attacker not in used]
        if free:
            used.add(free[0])
            combats.append(Combat((free[0],), (t,)))
    assert len(combats) >= 2
    assert solver.check(problem, tuple(combats))


class _YangtzeSideBoard(Board):
    """The real board with a Yangtze hexside drawn between 3509 and 3510: the map data has
    none today (AMB-SNC-24), so the option `yangtze_hexside_combat` is shown on this one."""

    def side_kind(self, a: Hex, b: Hex) -> str | None:
        if {a, b} == {h("3509"), h("3510")}:
            return "yangtze"
        return super().side_kind(a, b)


def test_snc_10_4_1_9_crossable_follows_yangtze_hexside_combat() -> None:
    """SNC-10.4.1.9, SNC-9.4.6, AMB-SNC-24: JP-3D-1 in 3509 faces the 3rd Chinese division in
    3510 across a Yangtze hexside. Under `forbidden` (both presets: AMB-SNC-24's note treats the
    Yangtze as impassable, SNC-9.4.6) no attack crosses it; under `allowed` (SNC-10.4.1.9 bars
    only all-sea and all-lake hexsides) the attack is legal. The solver layer agrees with
    `odds.attack_problem` and the oracle under each reading."""
    board = _YangtzeSideBoard(DATA)
    stacks = pos(h3509=JP, h3510=CH)
    allowed = CATALOGUE.variant("standard", {"yangtze_hexside_combat": "allowed"})
    for name in ("standard", "printed"):
        v = CATALOGUE.preset(name)
        assert v.is_("yangtze_hexside_combat", "forbidden")
        assert not crossable(DATA, board, h("3509"), h("3510"), v)
        assert not list(legal_attacks(DATA, board, v, stacks, frozenset(), "JP"))
        assert oracle_attacks(DATA, board, stacks, frozenset(), "JP", variant=v) == set()
        reasons = explain_attack(
            DATA, board, stacks, frozenset(), "JP", h("3510"), ["JP-3D-1"], variant=v
        )
        assert "SNC-10.4.1.9" in _clauses(reasons)
    assert crossable(DATA, board, h("3509"), h("3510"), allowed)
    got = list(legal_attacks(DATA, board, allowed, stacks, frozenset(), "JP"))
    assert _as_set(got) == {(h("3510"), frozenset({"JP-3D-1"}))}
    assert _as_set(got) == oracle_attacks(DATA, board, stacks, frozenset(), "JP", variant=allowed)
    assert check_attack(
        DATA, board, stacks, frozenset(), "JP", h("3510"), ["JP-3D-1"], variant=allowed
    )
    # the same hexside drawn as clear on the real board: crossable under both readings
    assert crossable(DATA, BOARD, h("3509"), h("3510"), STANDARD)
