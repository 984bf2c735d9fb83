"""The retreat encoding against its oracle on generated problems, and named rule examples."""

from __future__ import annotations

import itertools
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernel.errors import InvalidInput
from solvers.queries import retreat, retreat_oracle, retreat_problem
from solvers.queries.retreat_problem import (
    MaxHexes,
    NoCrossing,
    NoEnd,
    NoEntry,
    OffMap,
    Progress,
    Prohibition,
    RetreatProblem,
    Revisit,
    Rule,
)

STEP = Rule(("T-STEP",), "a retreat moves one adjacent hex per point")


@st.composite
def problems(draw: st.DrawFn) -> RetreatProblem:
    """A small random graph with every kind of rule, each rule with its own clause ID."""
    n = draw(st.integers(2, 6))
    on_map = [f"h{i}" for i in range(n)]
    off = [f"x{i}" for i in range(draw(st.integers(0, 2)))]
    hexes = on_map + off
    pair = st.tuples(st.sampled_from(hexes), st.sampled_from(hexes)).filter(lambda p: p[0] != p[1])
    adjacent = draw(st.lists(pair, max_size=12))
    some = st.sampled_from(hexes)
    rules: list[Prohibition] = []
    for k in range(draw(st.integers(0, 5))):
        kind = draw(st.sampled_from(["entry", "crossing", "end"]))
        rule = Rule((f"T-{kind}-{k}",), f"rule {kind} {k}")
        if kind == "entry":
            rules.append(NoEntry(draw(some), rule))
        elif kind == "end":
            rules.append(NoEnd(draw(some), rule))
        else:
            a, b = draw(pair)
            rules.append(NoCrossing(a, b, rule))
    been = Rule(("T-REVISIT",), "been there")
    revisit = draw(st.sampled_from([None, Revisit("not_back", been), Revisit("never", been)]))
    dist = draw(st.none() | st.dictionaries(some, st.integers(0, 3)))
    limit = draw(st.none() | st.integers(0, 3))
    return RetreatProblem(
        unit="Unit",
        hexes=hexes,
        adjacent=adjacent,
        start="h0",
        length=draw(st.integers(0, 4)),
        step_rule=STEP,
        prohibitions=rules,
        off_map=OffMap(off, draw(st.booleans()), Rule(("T-OFF",), "off map")) if off else None,
        revisit=revisit,
        progress=None if dist is None else Progress(dist, Rule(("T-PROGRESS",), "not farther")),
        max_hexes=None if limit is None else MaxHexes(limit, Rule(("T-MAX",), "too far")),
    )


@settings(max_examples=150)
@given(problems())
def test_solver_paths_equal_oracle_paths_in_the_same_order(p: RetreatProblem) -> None:
    found = list(retreat.paths(p))
    assert found == list(retreat_oracle.paths(p))
    assert retreat.count(p) == retreat_oracle.count(p) == len(found)
    assert retreat.destinations(p) == retreat_oracle.destinations(p)
    for path in found:
        assert retreat.check(p, path)
        assert retreat.explain(p, path) == []


@settings(max_examples=100)
@given(problems(), st.data())
def test_rejected_paths_are_explained_by_the_rules_they_break(
    p: RetreatProblem, data: st.DataObject
) -> None:
    """Random hex sequences: `check` agrees with the oracle, and `explain` lists exactly the
    rules the oracle's per-step tests find broken (none for a legal path)."""
    legal = set(retreat_oracle.paths(p))
    size = data.draw(st.integers(0, p.length + 1))
    path = tuple(data.draw(st.lists(st.sampled_from(p.hexes), min_size=size, max_size=size)))
    reasons = retreat.explain(p, path)
    assert retreat.check(p, path) == (path in legal) == (not reasons)
    assert reasons == retreat_oracle.explain(p, path)
    if retreat_problem.shape_problem(p, path) is None:
        expected = [retreat_problem.reason(p, path, b) for b in retreat_oracle.breaches(p, path)]
        assert reasons == expected


# --- named examples ----------------------------------------------------------------------------

STEP_NOM = Rule(("NOM-9.24",), "a retreat moves one adjacent hex per damage point")
EZOC = Rule(("NOM-9.25",), "it is in an enemy ZOC")
FRIEND = Rule(("NOM-9.26",), "a friendly unit is there")
RIVER = Rule(("NOM-8.4",), "it may not cross the river hexside")
BACK = Rule(("AMB-NOM-20",), "it may not return to a hex it has left")


def line(*rules: Prohibition, length: int = 2, **options: Any) -> RetreatProblem:
    """0304 - 0305 - 0306 - 0307 in a row, and 0405 touching both 0305 and 0306; `options`
    replace fields (attrs.evolve, so the problem is validated again)."""
    base = RetreatProblem(
        unit="2nd Battalion",
        hexes=["0304", "0305", "0306", "0307", "0405"],
        adjacent=[
            ("0304", "0305"),
            ("0305", "0306"),
            ("0306", "0307"),
            ("0305", "0405"),
            ("0405", "0306"),
        ],
        start="0305",
        length=length,
        step_rule=STEP_NOM,
        prohibitions=rules,
    )
    return attrs.evolve(base, **options)


def test_nom_9_25_a_retreat_may_not_enter_an_enemy_zoc() -> None:
    p = line(NoEntry("0306", EZOC), length=1)
    assert retreat.destinations(p) == ["0304", "0405"]
    assert not retreat.check(p, ("0306",))
    assert retreat.explain(p, ("0306",)) == [
        (("NOM-9.25",), "2nd Battalion may not retreat from 0305 into 0306: it is in an enemy ZOC")
    ]


def test_nom_9_26_every_hex_of_a_longer_retreat_avoids_friends() -> None:
    """AMB-NOM-20 (v): the second hex of a two-hex retreat obeys NOM-9.26 too."""
    p = line(NoEntry("0306", FRIEND))
    assert ("0405", "0306") not in set(retreat.paths(p))
    assert retreat.explain(p, ("0405", "0306")) == [
        (
            ("NOM-9.26",),
            "2nd Battalion may not retreat from 0405 into 0306: a friendly unit is there",
        )
    ]


def test_nom_8_4_a_river_hexside_bars_that_crossing_only() -> None:
    p = line(NoCrossing("0305", "0306", RIVER), NoCrossing("0306", "0305", RIVER))
    got = set(retreat.paths(p))
    assert ("0306", "0307") not in got and ("0405", "0306") in got
    assert retreat.explain(p, ("0306", "0307"))[0].clauses == ("NOM-8.4",)


def test_nom_9_24_one_adjacent_hex_per_point() -> None:
    p = line(length=2)
    assert retreat.explain(p, ("0307", "0306")) == [
        (
            ("NOM-9.24",),
            "2nd Battalion may not retreat from 0305 into 0307: "
            "a retreat moves one adjacent hex per damage point",
        )
    ]
    assert retreat.explain(p, ("0306",))[0].clauses == ("NOM-9.24",)  # one hex short
    with pytest.raises(InvalidInput):
        retreat.check(p, ("0306", "9999"))


def test_amb_nom_20_vi_returning_to_the_hex_just_left_per_reading() -> None:
    free = line()
    assert ("0304", "0305") in set(retreat.paths(free))
    strict = line(revisit=Revisit("not_back", BACK))
    assert ("0304", "0305") not in set(retreat.paths(strict))
    assert retreat.explain(strict, ("0304", "0305"))[0].clauses == ("AMB-NOM-20",)
    # `not_back` bars only the hex just left; `never` bars any hex held before
    loop = ("0405", "0306", "0305")
    assert retreat.check(line(length=3, revisit=Revisit("not_back", BACK)), loop)
    assert not retreat.check(line(length=3, revisit=Revisit("never", BACK)), loop)


def test_leaving_the_map_ends_the_retreat_or_is_barred_per_reading() -> None:
    """SNC and Shumshu leave off-map retreats open (AMB-SNC-11, AMB-SHU-26): both readings."""
    edge = {"hexes": ["0304", "0305", "0306", "0307", "0405", "off"]}
    gone = Rule(("AMB-SHU-26",), "a unit that leaves the map is eliminated")
    adj = [*line().adjacent, ("0304", "off")]
    allowed = line(length=3, off_map=OffMap({"off"}, True, gone), adjacent=adj, **edge)
    assert ("0304", "off") in set(retreat.paths(allowed))
    assert "off" in retreat.destinations(allowed)
    assert not retreat.check(allowed, ("0304", "off", "0304"))
    barred = line(length=3, off_map=OffMap({"off"}, False, gone), adjacent=adj, **edge)
    assert "off" not in retreat.destinations(barred)
    assert retreat.explain(barred, ("0304", "off", "0304"))[0].clauses == ("AMB-SHU-26",)


def test_each_hex_farther_from_the_start_when_a_rule_asks() -> None:
    away = Rule(("T-AWAY",), "each hex must be farther from the attackers")
    dist = {"0305": 0, "0304": 1, "0306": 1, "0405": 1, "0307": 2}
    p = line(progress=Progress(dist, away))
    assert sorted(retreat.paths(p)) == [("0306", "0307")]
    assert retreat.explain(p, ("0405", "0306")) == [
        (("T-AWAY",), "2nd Battalion may not retreat from 0405 into 0306: " + away.text)
    ]


def test_nom_9_28_the_artillery_never_retreats() -> None:
    art = Rule(("NOM-9.28",), "the Soviet Artillery may not retreat: it loses its step")
    p = line(length=1, max_hexes=MaxHexes(0, art))
    assert retreat.count(p) == 0 and retreat.destinations(p) == []
    assert [r.clauses for r in retreat.explain(p, ("0304",))] == [("NOM-9.28",)]


def test_a_hex_barred_as_an_end_may_be_passed_through() -> None:
    over = Rule(("SNC-6.0.2",), "the hex would be overstacked")
    p = line(NoEnd("0306", over))
    got = set(retreat.paths(p))
    assert ("0306", "0307") in got and ("0405", "0306") not in got
    assert retreat.explain(p, ("0405", "0306")) == [
        (("SNC-6.0.2",), "2nd Battalion may not end its retreat in 0306: " + over.text)
    ]


def test_paths_are_lazy_and_sorted_on_a_large_grid() -> None:
    """The first path comes without listing the others, and it is the smallest."""
    names = [f"{c:02d}{r:02d}" for c, r in itertools.product(range(1, 9), repeat=2)]
    adj = [
        (a, b)
        for a in names
        for b in names
        if a < b and abs(int(a[:2]) - int(b[:2])) + abs(int(a[2:]) - int(b[2:])) == 1
    ]
    p = RetreatProblem(
        unit="U", hexes=names, adjacent=adj, start="0404", length=7, step_rule=STEP_NOM
    )
    first = next(retreat.paths(p))
    assert first == ("0304", "0204", "0104", "0103", "0102", "0101", "0102")
    assert first == min(retreat_oracle.paths(p))
    assert retreat.check(p, first)
