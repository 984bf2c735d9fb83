"""The Z3 combat-assignment layer against the plain-Python oracle, on generated problems.

Each rule kind carries a clause of its own here (`T-...`), so a test can check that every
reason an explanation gives is a rule the proposal really breaks.
"""

from __future__ import annotations

import itertools

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solvers.queries import assignments as z3_layer
from solvers.queries.combat import (
    MANY,
    ONE_TARGET,
    Assignment,
    Combat,
    CombatProblem,
    Contact,
    Reason,
    Rules,
    Supporter,
    canonical,
)
from solvers.queries.combat_explain import why_none
from solvers.queries.combat_oracle import oracle_assignments
from solvers.queries.combat_shape import split

RULES = Rules(
    contact=Reason(("T-contact",), "{unit} is not in contact with {target}"),
    attack_once=Reason(("T-attack-once",), "{unit} attacks more than once"),
    defend_once=Reason(("T-defend-once",), "{target} is attacked more than once"),
    grouping=Reason(("T-grouping",), "not a legal group"),
    attack_all=Reason(("T-attack-all",), "{unit} must attack all"),
    also_attack=Reason(("T-also",), "{target} must also be attacked"),
    static=Reason(("T-static",), "{unit} never attacks"),
    hexside_limit=Reason(("T-hexside",), "at most {limit} across {hexside}"),
    support_once=Reason(("T-support-once",), "{unit} supports at most {limit}"),
    support_range=Reason(("T-support-range",), "{unit} cannot reach"),
    not_in_front=Reason(("T-unknown",), "{unit} is not in this problem"),
)
MUST_ATTACK = Reason(("T-must-attack",), "must attack")
MUST_BE_ATTACKED = Reason(("T-must-be-attacked",), "must be attacked")
UNAVAILABLE = Reason(("T-unavailable",), "the supporter is unavailable")


@st.composite
def problems(draw: st.DrawFn, grouping: str | None = None) -> CombatProblem:
    n_a = draw(st.integers(1, 5))
    n_t = draw(st.integers(1, 4))
    attackers = tuple(f"A{i}" for i in range(n_a))
    targets = tuple(f"T{i}" for i in range(n_t))
    pairs = [(a, t) for a in attackers for t in targets]
    chosen = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=8))
    hexsides = ("h0", "h1")
    contacts = tuple(
        Contact(a, t, draw(st.sampled_from((None, *hexsides)))) for a, t in sorted(chosen)
    )
    subset = st.lists(st.sampled_from(attackers), unique=True)
    supporters = tuple(
        Supporter(
            f"S{k}",
            frozenset(draw(st.lists(st.sampled_from(attackers + targets), unique=True))),
            draw(st.integers(1, 2)),
            UNAVAILABLE if draw(st.booleans()) and draw(st.booleans()) else None,
        )
        for k in range(draw(st.integers(0, 2)))
    )
    also = {
        a: frozenset(draw(st.lists(st.sampled_from(targets), unique=True, max_size=2)))
        for a in draw(st.lists(st.sampled_from(attackers), unique=True, max_size=2))
    }
    return CombatProblem(
        attackers=(*attackers, "X0"),
        targets=targets,
        contacts=contacts,
        grouping=grouping or draw(st.sampled_from((ONE_TARGET, MANY))),
        must_attack={a: MUST_ATTACK for a in draw(subset)},
        must_be_attacked={
            t: MUST_BE_ATTACKED
            for t in draw(st.lists(st.sampled_from(targets), unique=True, max_size=2))
        },
        attack_all=frozenset(draw(subset)),
        also_attack={a: ts for a, ts in also.items() if ts},
        static=frozenset({"X0"}),
        hexside_limits={h: draw(st.integers(0, 2)) for h in hexsides if draw(st.booleans())},
        supporters=supporters,
        rules=RULES,
    )


def _contacts(p: CombatProblem) -> dict[tuple[str, str], str | None]:
    return {(c.attacker, c.target): c.hexside for c in p.contacts}


def _broken(p: CombatProblem, proposal: Assignment) -> set[str]:
    """Which rule kinds a proposal breaks, computed from the rules' plain wording."""
    out = set()
    contact = _contacts(p)
    known = set(p.attackers) | set(p.targets)
    attacking = [a for c in proposal for a in c.attackers]
    defending = [t for c in proposal for t in c.targets]
    if len(set(attacking)) < len(attacking):
        out.add("T-attack-once")
    if len(set(defending)) < len(defending):
        out.add("T-defend-once")
    if any(a in p.static for a in attacking):
        out.add("T-static")
    if any(u not in known for u in (*attacking, *defending)) or any(
        s not in {x.id for x in p.supporters} for c in proposal for s in c.supporters
    ):
        out.add("T-unknown")
    if set(p.must_attack) - set(attacking):
        out.add("T-must-attack")
    if set(p.must_be_attacked) - set(defending):
        out.add("T-must-be-attacked")
    for c in proposal:
        if not c.attackers or not c.targets:
            out.add("T-grouping")
            continue
        if any(not any((a, t) in contact for t in c.targets) for a in c.attackers) or any(
            not any((a, t) in contact for a in c.attackers) for t in c.targets
        ):
            out.add("T-contact")
        if p.grouping != MANY and len(c.targets) != 1:
            out.add("T-grouping")
        if p.grouping == MANY and not _is_group(contact, c):
            out.add("T-grouping")
        for a in c.attackers:
            mine = {t for (x, t) in contact if x == a}
            if a in p.attack_all and not mine <= set(c.targets):
                out.add("T-attack-all")
            if not p.also_attack.get(a, frozenset()) <= set(defending):
                out.add("T-also")
    for h, limit in p.hexside_limits.items():
        crossing = {
            a for c in proposal for a in c.attackers for t in c.targets if contact.get((a, t)) == h
        }
        if len(crossing) > limit:
            out.add("T-hexside")
    for s in p.supporters:
        helped = [c for c in proposal if s.id in c.supporters]
        if helped and s.unavailable is not None:
            out.add("T-unavailable")
        if len(helped) > s.max_combats:
            out.add("T-support-once")
        if any(s.reach.isdisjoint((*c.attackers, *c.targets)) for c in helped):
            out.add("T-support-range")
    return out


def _is_group(contact: dict[tuple[str, str], str | None], c: Combat) -> bool:
    nodes = [("a", a) for a in c.attackers] + [("t", t) for t in c.targets]
    seen = {nodes[0]}
    stack = [nodes[0]]
    while stack:
        kind, u = stack.pop()
        for other in nodes:
            if other in seen or other[0] == kind:
                continue
            pair = (u, other[1]) if kind == "a" else (other[1], u)
            if pair in contact:
                seen.add(other)
                stack.append(other)
    return len(seen) == len(set(nodes))


SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(problems())
def test_generated_sets_equal_the_oracle(p: CombatProblem) -> None:
    """The Z3-generated assignments are the oracle's, each once, in canonical form, and the
    count (computed without listing) agrees."""
    listed = list(z3_layer.assignments(p))
    assert len(listed) == len(set(listed))
    assert all(a == canonical(p, a) for a in listed)
    assert set(listed) == oracle_assignments(p)
    assert z3_layer.count(p) == len(listed)


@SETTINGS
@given(problems())
def test_why_none_names_a_collision_exactly_when_no_assignment_is_legal(p: CombatProblem) -> None:
    """`why_none` (the no-action clauses of a gap): empty where the oracle finds a legal
    assignment, and where it finds none, at least one of the obligations (to attack, to be
    attacked) that the unsat core holds."""
    reasons = why_none(p)
    if oracle_assignments(p):
        assert reasons == []
    else:
        obligations = {*p.must_attack.values(), *p.must_be_attacked.values()}
        assert obligations & set(reasons) or not obligations, reasons


@SETTINGS
@given(problems())
def test_enumeration_is_deterministic_and_in_component_order(p: CombatProblem) -> None:
    """The order does not depend on the cache or the solver: a fresh run lists the same."""
    first = list(z3_layer.assignments(p))
    z3_layer.clear_cache()
    assert list(z3_layer.assignments(p)) == first


@SETTINGS
@given(problems(), st.data())
def test_check_and_explain_agree_with_the_rules(p: CombatProblem, data: st.DataObject) -> None:
    """Every legal assignment passes `check`; any other proposal is refused, and every rule the
    explanation names is one the proposal really breaks."""
    legal = oracle_assignments(p)
    for a in itertools.islice(legal, 5):
        assert z3_layer.check(p, a), a
    units_a = (*p.attackers, "Z9")
    units_t = (*p.targets, "Z9")
    sup = tuple(s.id for s in p.supporters)
    combat = st.builds(
        Combat,
        st.lists(st.sampled_from(units_a), min_size=1, max_size=3).map(tuple),
        st.lists(st.sampled_from(units_t), min_size=1, max_size=2).map(tuple),
        st.lists(st.sampled_from(sup), max_size=1).map(tuple) if sup else st.just(()),
    )
    proposal = tuple(data.draw(st.lists(combat, max_size=3)))
    reasons = z3_layer.explain(p, proposal)
    if canonical(p, proposal) in legal:
        assert reasons == []
    else:
        assert reasons, proposal
        named = {c for r in reasons for c in r.clauses}
        assert named <= _broken(p, proposal), (named, proposal)


@SETTINGS
@given(problems())
def test_first_is_the_first_listed_whether_asked_cold_or_again(p: CombatProblem) -> None:
    """`first` (is any attack possible?) keeps its answer apart from the whole listing: cold,
    asked again, and after the problem was listed, it is the first of `assignments`."""
    z3_layer.clear_cache()
    listed = list(z3_layer.assignments(p))
    want = listed[0] if listed else None
    assert (want is None) == (not oracle_assignments(p))
    z3_layer.clear_cache()
    assert z3_layer.first(p) == want
    assert z3_layer.first(p) == want  # from the kept answer
    assert z3_layer.stats["first hit"] == 1
    assert list(z3_layer.assignments(p)) == listed
    assert z3_layer.first(p) == want


@settings(max_examples=60, deadline=None)
@given(problems(grouping=ONE_TARGET))
def test_count_without_listing_matches_listing(p: CombatProblem) -> None:
    """The counting programme (used when a component is too big to list) gives the number of
    listed assignments, supporters included."""
    z3_layer.clear_cache()  # force the dynamic programme rather than a cached list
    assert z3_layer.count(p) == len(oracle_assignments(p))


def test_exempt_attacker_that_attacks_nobody_is_its_own_choice() -> None:
    """Blocking only true literals loses the models where an exempt unit attacks nobody; the
    choice-based search keeps them: three assignments, not two."""
    p = CombatProblem(
        attackers=("A", "B"),
        targets=("T",),
        contacts=(Contact("A", "T"), Contact("B", "T")),
        must_attack={"A": MUST_ATTACK},
    )
    assert set(z3_layer.assignments(p)) == {
        (Combat(("A",), ("T",)),),
        (Combat(("A", "B"), ("T",)),),
    }
    q = attrs.evolve(p, must_attack={})
    assert z3_layer.count(q) == 4  # nobody, A, B, A and B


def test_components_split_independent_fronts() -> None:
    """Two fronts that share no unit are two components; their counts multiply."""
    p = CombatProblem(
        attackers=("A", "B", "C"),
        targets=("S", "T"),
        contacts=(Contact("A", "S"), Contact("B", "S"), Contact("C", "T")),
    )
    parts = split(p)
    assert [c.attackers for c in parts] == [("A", "B"), ("C",)]
    assert z3_layer.count(p) == 4 * 2


def test_hexside_limit_counts_attackers_across_one_hexside() -> None:
    """Shumshu-style limit: at most two units attack across one hexside (SHU-7 wording)."""
    p = CombatProblem(
        attackers=("A", "B", "C"),
        targets=("T",),
        contacts=tuple(Contact(a, "T", "h") for a in ("A", "B", "C")),
        must_be_attacked={"T": MUST_BE_ATTACKED},
        hexside_limits={"h": 2},
        rules=RULES,
    )
    assert z3_layer.count(p) == 3 + 3  # one or two of the three
    too_many = (Combat(("A", "B", "C"), ("T",)),)
    assert [r.clauses for r in z3_layer.explain(p, too_many)] == [("T-hexside",)]


def test_explanation_names_the_unit_and_clause() -> None:
    """An obliged attacker left idle is named with its own reason."""
    reason = Reason(("NOM-9.2",), "4th Tank Regiment in 0305 is in an enemy ZOC and must attack")
    p = CombatProblem(
        attackers=("JP-4TK",),
        targets=("SU-9",),
        contacts=(Contact("JP-4TK", "SU-9"),),
        must_attack={"JP-4TK": reason},
    )
    assert [str(r) for r in z3_layer.explain(p, ())] == [
        "4th Tank Regiment in 0305 is in an enemy ZOC and must attack: NOM-9.2"
    ]


def test_first_assignment_on_a_large_front_is_found_lazily() -> None:
    """A 30 x 15 front has astronomically many assignments; the first comes without listing
    them, and the count is exact."""
    from bench.combat import synthetic_front

    p = synthetic_front(30, 15, seed=1)
    first = z3_layer.first(p)
    assert first is not None and z3_layer.check(p, first)
    assert z3_layer.count(p) > 10**6


def test_also_attack_target_outside_the_problem_is_refused_naming_the_field() -> None:
    """An `also_attack` target that is not among `targets` was dropped by the component split,
    so the layer listed assignments the oracle refused: it is refused where the problem is
    made, with an error naming the field, the attacker and the unit."""
    p = CombatProblem(
        attackers=("A", "B"),
        targets=("T",),
        contacts=(Contact("A", "T"), Contact("B", "T")),
        also_attack={"A": frozenset({"T"})},
    )
    for also in ({"A": frozenset({"T", "U"})}, {"B": frozenset({"U"})}):
        with pytest.raises(ValueError, match=r"also_attack\[.*\] names U, not among .*targets"):
            attrs.evolve(p, also_attack=also)
        with pytest.raises(ValueError, match=r"also_attack"):
            CombatProblem(p.attackers, p.targets, p.contacts, grouping=MANY, also_attack=also)
    assert z3_layer.count(p) == len(oracle_assignments(p)) == 4
