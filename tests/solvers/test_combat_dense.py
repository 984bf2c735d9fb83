"""The combat layer on dense contact components: the listing, its order, and `count`.

Many-to-many grouping on one dense component is where the layer used to fall off a cliff (a
literal per connected group). These tests hold the Z3 listing and the counting programme to
methods that share no code with them: the plain oracle, a brute force over partitions of the
units, the documented order computed from the oracle's set, a closed formula for complete
bipartite components, and a second counting programme (memoised over the remaining units, on
the search's own structure) where the brute force is out of reach. Searches are bounded by
Z3's deterministic resource limit and by sizes, never by the clock.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Hashable
from functools import cache
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.combat import dense_component
from solvers.queries import assignments as z3_layer
from solvers.queries import combat_many, combat_many_count
from solvers.queries.combat import (
    MANY,
    ONE_TARGET,
    Assignment,
    CombatProblem,
    Contact,
    Reason,
    Supporter,
)
from solvers.queries.combat_count import count_many
from solvers.queries.combat_many import ManySearch
from solvers.queries.combat_oracle import oracle_assignments
from solvers.queries.combat_shape import split
from tests.sizes import cases
from tests.solvers.test_combat import problems

MUST = Reason(("T-must",), "must")
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --- independent methods --------------------------------------------------------------------


def _contact(p: CombatProblem) -> dict[tuple[str, str], str | None]:
    return {(c.attacker, c.target): c.hexside for c in p.contacts}


def _legal_combat(p: CombatProblem, atts: tuple[str, ...], tgts: tuple[str, ...]) -> bool:
    """A combat on its own: attackers and targets in contact, one target under ONE_TARGET,
    connected under MANY, attack-all attackers with all their contacts in it."""
    contact = _contact(p)
    if not atts or not tgts or any(a in p.static for a in atts):
        return False
    if p.grouping != MANY and len(tgts) != 1:
        return False
    if any(not any((a, t) in contact for t in tgts) for a in atts):
        return False
    if any(not any((a, t) in contact for a in atts) for t in tgts):
        return False
    for a in atts:
        if a in p.attack_all and not {t for (x, t) in contact if x == a} <= set(tgts):
            return False
    seen, todo = {("a", atts[0])}, [("a", atts[0])]
    while todo:
        kind, u = todo.pop()
        others = tgts if kind == "a" else atts
        for v in others:
            pair = (u, v) if kind == "a" else (v, u)
            node = ("t" if kind == "a" else "a", v)
            if pair in contact and node not in seen:
                seen.add(node)
                todo.append(node)
    return len(seen) == len(atts) + len(tgts)


def _legal(p: CombatProblem, combats: list[tuple[tuple[str, ...], tuple[str, ...]]]) -> bool:
    """The rules that tie combats together, on a whole assignment (no supporters)."""
    contact = _contact(p)
    attacking = {a for atts, _ in combats for a in atts}
    defending = {t for _, tgts in combats for t in tgts}
    if not set(p.must_attack) <= attacking or not set(p.must_be_attacked) <= defending:
        return False
    if any(not p.also_attack.get(a, frozenset()) <= defending for a in attacking):
        return False
    for h, limit in p.hexside_limits.items():
        across = {
            a for atts, tgts in combats for a in atts for t in tgts if contact.get((a, t)) == h
        }
        if len(across) > limit:
            return False
    return True


def brute_force(p: CombatProblem) -> int:
    """Every way to put each unit in no combat or in one, counted: the units are taken in a
    fixed order, the first one left either stays out or opens a block with some of the rest;
    a finished partition counts when every block is a legal combat and the rules hold."""
    units = [("a", a) for a in p.attackers if a not in p.static] + [("t", t) for t in p.targets]

    def go(rest: tuple[Any, ...], blocks: list[Any]) -> int:
        if not rest:
            return int(_legal(p, blocks))
        head, tail = rest[0], rest[1:]
        total = go(tail, blocks)  # out of every combat
        for k in range(len(tail) + 1):
            for others in itertools.combinations(tail, k):
                block = (head, *others)
                atts = tuple(u for kind, u in block if kind == "a")
                tgts = tuple(u for kind, u in block if kind == "t")
                if _legal_combat(p, atts, tgts):
                    left = tuple(u for u in tail if u not in others)
                    total += go(left, [*blocks, (atts, tgts)])
        return total

    return go(tuple(units), [])


def bicoloured(a: int, b: int) -> int:
    """Assignments of the complete bipartite component K(a, b) with no rule: sets of disjoint
    combats, each any non-empty set of attackers with any non-empty set of targets (all of
    them connected). By the combat of the first attacker left, or none: a closed recurrence."""

    @cache
    def ways(i: int, j: int) -> int:  # i attackers and j targets left, each in or out
        if i == 0:
            return 1
        out = ways(i - 1, j)  # the first attacker left stays out
        for more in range(i):  # it fights with `more` other attackers and some targets
            for tgts in range(1, j + 1):
                out += math.comb(i - 1, more) * math.comb(j, tgts) * ways(i - 1 - more, j - tgts)
        return out

    return ways(a, b)


def structure_count(p: CombatProblem) -> int:
    """A second counting programme: memoised over the nodes of the Z3 search (what is left to
    place, in normal form), with the plain structural branches, nothing from `count`."""
    (comp,) = split(p)
    search = ManySearch(comp.shape)
    memo: dict[Hashable, int] = {}

    def below(key: Hashable) -> int:
        if key not in memo:
            branches = search.node(key)
            memo[key] = 1 if branches is None else sum(below(k) for _, k, _ in branches)
        return memo[key]

    return below(search.root())


def complete(a: int, b: int, **rules: Any) -> CombatProblem:
    atts = tuple(f"A{i}" for i in range(a))
    tgts = tuple(f"T{j}" for j in range(b))
    contacts = tuple(Contact(x, y) for x in atts for y in tgts)
    return CombatProblem(atts, tgts, contacts, grouping=MANY, **rules)


def _components(p: CombatProblem) -> list[tuple[list[str], list[str]]]:
    """The contact components as documented, by plain union-find: contacts, limited hexsides
    and also-attack join units; a component with no contact and no obligation is left out."""
    parent: dict[tuple[str, str], tuple[str, str]] = {}

    def find(x: tuple[str, str]) -> tuple[str, str]:
        parent.setdefault(x, x)
        while parent[x] != x:
            x = parent[x]
        return x

    def join(x: tuple[str, str], y: tuple[str, str]) -> None:
        parent[find(x)] = find(y)

    attackers = [a for a in p.attackers if a not in p.static]
    touched = set()
    across: dict[str, str] = {}
    for c in p.contacts:
        if c.attacker in attackers and c.target in p.targets:
            join(("a", c.attacker), ("t", c.target))
            touched.add(("a", c.attacker))
            if c.hexside is not None and c.hexside in p.hexside_limits:
                join(("a", c.attacker), ("a", across.setdefault(c.hexside, c.attacker)))
    for a, ts in p.also_attack.items():
        for t in ts:
            if a in attackers and t in p.targets:
                join(("a", a), ("t", t))
    touched |= {("a", a) for a in p.must_attack if a in attackers}
    touched |= {("t", t) for t in p.must_be_attacked if t in p.targets}
    roots = {find(x) for x in touched}
    units = [("a", a) for a in attackers] + [("t", t) for t in p.targets]
    out: dict[tuple[str, str], tuple[list[str], list[str]]] = {}
    for kind, u in units:
        root = find((kind, u))
        if root in roots:
            out.setdefault(root, ([], []))[kind == "t"].append(u)
    return list(out.values())


def documented_key(p: CombatProblem, assignment: Assignment) -> tuple[Any, ...]:
    """The order the layer promises: components by first unit, the first outermost; within
    one, attackers in order, each idle first, then by its combat's sorted units; then the
    supporters' choices, no support first."""
    rank = {u: i for i, u in enumerate(p.attackers)}
    rank_t = {u: i for i, u in enumerate(p.targets)}
    combat_of = {a: c for c in assignment for a in c.attackers}
    key: list[Any] = []
    for atts, _ in _components(p):
        for a in atts:
            c = combat_of.get(a)
            if c is None:
                key.append((0,))
            elif p.grouping == MANY:  # the combat it is in
                key.append((1, [rank[x] for x in c.attackers], [rank_t[x] for x in c.targets]))
            else:  # the target it attacks
                key.append((1, rank_t[c.targets[0]]))
    for s in p.supporters:
        picks = tuple(i for i, c in enumerate(assignment) if s.id in c.supporters)
        key.append((len(picks), picks))
    return tuple(key)


# --- listing --------------------------------------------------------------------------------


@SETTINGS
@given(problems())
def test_listing_is_in_the_documented_order(p: CombatProblem) -> None:
    """The layer lists the oracle's set in the documented order (components, then attackers'
    choices, then support), whatever grouping and rules."""
    listed = list(z3_layer.assignments(p))
    assert listed == sorted(oracle_assignments(p), key=lambda a: documented_key(p, a))


@SETTINGS
@given(problems(grouping=MANY))
def test_spanning_tree_connectivity_equals_the_oracle(p: CombatProblem) -> None:
    """With the cut encoding of connectivity turned off, the spanning-tree encoding alone
    (used for combats that can reach more than a few targets) lists the oracle's set."""
    z3_layer.clear_cache()
    old = combat_many.CUT_TARGETS
    combat_many.CUT_TARGETS = 0
    try:
        assert set(z3_layer.assignments(p)) == oracle_assignments(p)
    finally:
        combat_many.CUT_TARGETS = old
        z3_layer.clear_cache()


@pytest.mark.parametrize("units", [4, 6, 8])
@pytest.mark.parametrize("grouping", [MANY, ONE_TARGET])
def test_dense_components_list_the_oracle_set_in_order(units: int, grouping: str) -> None:
    """The bench's dense components: the same list as the oracle's, documented order."""
    p = dense_component(units, grouping)
    z3_layer.clear_cache()
    listed = list(z3_layer.assignments(p))
    assert listed == sorted(oracle_assignments(p), key=lambda a: documented_key(p, a))
    assert z3_layer.count(p) == len(listed)


def test_dense_component_of_ten_with_a_spanning_tree() -> None:
    """Ten attackers against five targets: combats can reach five targets, so connectivity is
    the spanning tree; the listing, `count` and the second programme agree, and every listed
    assignment is legal by the plain rules."""
    p = dense_component(10, MANY)
    z3_layer.clear_cache()
    listed = list(z3_layer.assignments(p))
    assert len(listed) == len(set(listed)) == z3_layer.count(p) == structure_count(p) == 12_332
    for a in listed[::97]:
        combats = [(c.attackers, c.targets) for c in a]
        assert all(_legal_combat(p, *c) for c in combats) and _legal(p, combats)


def test_binding_hexside_limits_and_also_attack_are_proved_leaf_by_leaf() -> None:
    """Rules the search cannot see (a limit that binds, an also-attack) make leaves fail and
    their dead subtrees drop by bisection: the listing is still the oracle's."""
    base = complete(4, 3, must_attack={"A0": MUST})
    contacts = tuple(
        Contact(c.attacker, c.target, "h" if c.target == "T0" else None) for c in base.contacts
    )
    p = attrs.evolve(
        base,
        contacts=contacts,
        hexside_limits={"h": 1},
        also_attack={"A1": frozenset({"T2"})},
        must_be_attacked={"T1": MUST},
    )
    z3_layer.clear_cache()
    listed = list(z3_layer.assignments(p))
    assert listed == sorted(oracle_assignments(p), key=lambda a: documented_key(p, a))
    assert z3_layer.count(p) == len(listed) == brute_force(p)


def test_first_assignment_of_a_dense_sixteen_comes_without_listing() -> None:
    """Sixteen attackers in one dense component under many-to-many grouping (910,080
    assignments): the first one comes at once and holds."""
    p = dense_component(16, MANY)
    z3_layer.clear_cache()
    first = z3_layer.first(p)
    assert first is not None
    combats = [(c.attackers, c.targets) for c in first]
    assert all(_legal_combat(p, *c) for c in combats) and _legal(p, combats)


# --- count ----------------------------------------------------------------------------------


@SETTINGS
@given(problems())
def test_count_without_listing_matches_the_oracle(p: CombatProblem) -> None:
    """`count` (nothing listed, nothing cached) is the number of the oracle's assignments,
    supporters included, under either grouping."""
    z3_layer.clear_cache()
    assert z3_layer.count(p) == len(oracle_assignments(p))


@st.composite
def dense(draw: st.DrawFn) -> CombatProblem:
    """A dense component of up to nine units: most pairs in contact, identical units likely,
    with obligations, attack-all, a hexside limit and also-attack."""
    n_a = draw(st.integers(2, 5))
    n_t = draw(st.integers(1, min(4, 9 - n_a)))
    atts = tuple(f"A{i}" for i in range(n_a))
    tgts = tuple(f"T{j}" for j in range(n_t))
    pairs = [(a, t) for a in atts for t in tgts]
    dropped = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=len(pairs) // 3))
    contacts = tuple(
        Contact(a, t, draw(st.sampled_from((None, "h")))) for a, t in pairs if (a, t) not in dropped
    )
    some_a = st.lists(st.sampled_from(atts), unique=True, max_size=2)
    some_t = st.lists(st.sampled_from(tgts), unique=True, max_size=2)
    also = {a: frozenset(draw(some_t)) for a in draw(some_a)}
    return CombatProblem(
        atts,
        tgts,
        contacts,
        grouping=MANY,
        must_attack={a: MUST for a in draw(some_a)},
        must_be_attacked={t: MUST for t in draw(some_t)},
        attack_all=frozenset(draw(some_a)),
        also_attack={a: ts for a, ts in also.items() if ts},
        hexside_limits={"h": draw(st.integers(1, 3))} if draw(st.booleans()) else {},
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(dense())
def test_count_matches_brute_force_on_dense_components(p: CombatProblem) -> None:
    """Up to nine units, most in contact: `count` equals a brute force over partitions of
    the units, and so does the listing."""
    z3_layer.clear_cache()
    truth = brute_force(p)
    assert z3_layer.count(p) == truth
    assert len(list(z3_layer.assignments(p))) == truth


@pytest.mark.parametrize(("a", "b"), [(2, 2), (3, 3), (5, 4), (4, 5)])
def test_brute_force_agrees_with_the_closed_formula(a: int, b: int) -> None:
    """The two independent methods agree with each other where both run."""
    assert brute_force(complete(a, b)) == bicoloured(a, b)


@pytest.mark.parametrize(
    ("a", "b"),
    cases([(8, 4), (12, 4), (7, 7), (9, 5)], [(10, 6), (8, 8)]),  # tests.sizes
)
def test_count_of_complete_components_matches_the_closed_formula(a: int, b: int) -> None:
    """Twelve to sixteen units (sixteen at full size) in one complete component (every unit
    identical to the others of its side: the symmetry the counting programme breaks): the
    closed formula."""
    assert z3_layer.count(complete(a, b)) == bicoloured(a, b)


@pytest.mark.parametrize("units", [12, 14])
def test_count_of_dense_fronts_matches_a_second_programme(units: int) -> None:
    """Twelve and fourteen attackers in one front-like component with obligations: the count
    equals a second programme, memoised over the Z3 search's own nodes."""
    p = dense_component(units, MANY)
    assert z3_layer.count(p) == structure_count(p)


def test_count_of_a_dense_sixteen_front() -> None:
    """Sixteen attackers, eight targets, one component: counted without listing."""
    assert z3_layer.count(dense_component(16, MANY)) == 910_080


def test_count_with_supporters_on_a_dense_component() -> None:
    """Supporters multiply by their choices of combats in reach: a brute force over the
    listed assignments' support choices agrees."""
    p = attrs.evolve(
        complete(3, 2, must_attack={"A0": MUST}),
        supporters=(
            Supporter("S0", frozenset({"A1", "T1"}), 1),
            Supporter("S1", frozenset({"T0"}), 2),
        ),
    )
    z3_layer.clear_cache()
    assert z3_layer.count(p) == len(oracle_assignments(p)) == len(list(z3_layer.assignments(p)))


def _by_structure(p: CombatProblem) -> int:
    """`count` with every MANY component counted over the search's nodes where it can be
    (`combat_many_count.count_structure`, the path taken when `count_many`'s frontier is wide)."""
    old = combat_many_count.WIDE_FRONTIER
    combat_many_count.WIDE_FRONTIER = 0
    try:
        z3_layer.clear_cache()
        return z3_layer.count(p)
    finally:
        combat_many_count.WIDE_FRONTIER = old
        z3_layer.clear_cache()


@SETTINGS
@given(problems(grouping=MANY))
def test_count_by_the_search_structure_matches_the_oracle(p: CombatProblem) -> None:
    """Counted over the search's structure (or, where a rule it does not see applies or a
    supporter reaches the component, by the frontier programme), `count` is the oracle's."""
    assert _by_structure(p) == len(oracle_assignments(p))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(dense())
def test_count_by_the_search_structure_matches_brute_force(p: CombatProblem) -> None:
    """Dense components with obligations and attack-all: the structure's count is the brute
    force's."""
    assert _by_structure(p) == brute_force(p)


def test_wide_frontier_is_counted_by_the_structure() -> None:
    """Six attackers against six targets, most in contact: every target is open through the
    whole sweep of the frontier programme; the structure's count agrees with it."""
    atts = tuple(f"A{i}" for i in range(6))
    tgts = tuple(f"T{j}" for j in range(6))
    contacts = tuple(
        Contact(a, t) for i, a in enumerate(atts) for j, t in enumerate(tgts) if (i + 2 * j) % 5
    )
    p = CombatProblem(atts, tgts, contacts, grouping=MANY, must_attack={"A3": MUST})
    (comp,) = split(p)
    assert combat_many_count.frontier_width(comp.shape) == 6 >= combat_many_count.WIDE_FRONTIER
    assert _by_structure(p) == combat_many_count.count_structure(comp.shape)
    assert _by_structure(p) == count_many(comp.shape, [], [])[()] > 0
