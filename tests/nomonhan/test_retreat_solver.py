"""Nomonhan retreats served by `solvers.queries.retreat` agree with the Python rules (NOM-9.24 to
NOM-9.28, AMB-NOM-20) on positions from random playouts, under several readings."""

from __future__ import annotations

import functools
import random

import attrs
import pytest

from kernel.hexes import Hex, hex_name, parse_hex
from kernel.playout import play
from solvers.queries import retreat, retreat_oracle
from specs.nomonhan.rules import resolve
from specs.nomonhan.rules.retreat_query import retreat_query
from specs.nomonhan.rules.state import NomonhanState, Stage, UnitState
from tests.nomonhan.positions import GAME, JP_KOB, SU_36, SU_ART, variant
from tests.nomonhan.test_damage_retreat import soviets_lose

BOARD = GAME.rules.board
READINGS = {
    "ja": {},
    "en": {},
    "ja-once": {"retreat_repeat": "once"},
    "en-once-no-pontoon": {"retreat_repeat": "once", "pontoon_is_bridge": "no"},
}


@functools.cache
def damage_positions(name: str, playouts: int = 5) -> tuple[NomonhanState, ...]:
    """Every position of some seeded random playouts where a damage point is to be taken."""
    v = variant(name.split("-")[0], **READINGS[name])
    found: list[NomonhanState] = []

    def keep(before: NomonhanState, action: object, after: NomonhanState) -> None:
        if after.stage == Stage.DAMAGE:
            found.append(after)

    for seed in range(playouts):
        play(GAME, GAME.initial_state(v), random.Random(seed), max_steps=600, on_step=keep)
    return tuple(found)


def losers(name: str) -> list[tuple[NomonhanState, str]]:
    cases = [(s, u) for s in damage_positions(name) for u in resolve.loser_units(s)]
    assert len(cases) >= 20, f"too few damage positions under {name}"
    return cases


def moved(state: NomonhanState, unit: str, to: Hex) -> NomonhanState:
    """What a retreat point changes for the next one (as `resolve.apply_loss` does)."""
    units = tuple(UnitState(u.id, to, u.steps) if u.id == unit else u for u in state.units)
    res = state.current
    assert res is not None
    res = attrs.evolve(res, retreated=res.retreated | {unit})
    return attrs.evolve(state, units=units, current=res)


def rules_paths(state: NomonhanState, unit: str, points: int) -> list[tuple[str, ...]]:
    """The paths the Python rules allow, point by point (`resolve.retreat_hexes`)."""
    if points == 0:
        return [()]
    out = []
    for h in resolve.retreat_hexes(BOARD, state, unit):
        out += [
            (hex_name(h), *rest) for rest in rules_paths(moved(state, unit, h), unit, points - 1)
        ]
    return sorted(out)


@pytest.mark.parametrize("name", READINGS)
def test_nom_9_24_one_point_destinations_are_the_rules_retreat_hexes(name: str) -> None:
    for state, unit in losers(name)[:50]:
        q = retreat_query(BOARD, state, unit, 1)
        expected = sorted(hex_name(h) for h in resolve.retreat_hexes(BOARD, state, unit))
        assert retreat.destinations(q) == expected


@pytest.mark.parametrize("name", READINGS)
def test_nom_9_24_longer_retreats_are_the_rules_point_by_point(name: str) -> None:
    """AMB-NOM-20 (i), (v): n points make a path of n hexes, each hex legal in turn."""
    for k, (state, unit) in enumerate(losers(name)[:24]):
        points = 2 if k % 3 else 3
        q = retreat_query(BOARD, state, unit, points)
        got = list(retreat.paths(q))
        assert got == rules_paths(state, unit, points) == list(retreat_oracle.paths(q))


@pytest.mark.parametrize("name", READINGS)
def test_an_illegal_one_point_retreat_names_the_clause_the_rules_name(name: str) -> None:
    """Every neighbour, and two hexes out of reach: `explain` leads with the clause that
    `resolve.retreat_problem` gives, and a legal hex passes `check`."""
    far = (parse_hex("0101"), parse_hex("0809"))
    seen = set()
    for state, unit in losers(name)[:30]:
        q = retreat_query(BOARD, state, unit, 1)
        here = state.unit(unit).hex
        assert here is not None
        for to in (*BOARD.neighbors(here), *far):
            problem = resolve.retreat_problem(BOARD, state, unit, to)
            reasons = retreat.explain(q, (hex_name(to),))
            if problem is None:
                assert reasons == [] and retreat.check(q, (hex_name(to),))
            else:
                assert reasons and reasons[0].clauses == (problem[0],), (problem, reasons)
            seen.add(None if problem is None else problem[0])
    assert {None, "NOM-9.24", "NOM-9.25", "NOM-8.6"} <= seen  # the playouts met these cases


# --- named positions -------------------------------------------------------------------------

NAME_36 = "149th Rifle Regiment, 36th Motorized Rifle Division"


def test_nom_9_25_and_nom_8_6_a_player_reads_why() -> None:
    """36/149 in 0604 loses to Kobayashi in 0504: 0603 and 0505 are in its ZOC, 0504 holds it."""
    s = soviets_lose({JP_KOB: "0504", SU_36: "0604"}, JP_KOB, SU_36, 2)
    q = retreat_query(BOARD, s, SU_36, 1)
    assert retreat.destinations(q) == ["0605", "0704", "0705"]
    assert retreat.explain(q, ("0603",)) == [
        (("NOM-9.25",), f"{NAME_36} may not retreat from 0604 into 0603: it is in an enemy ZOC")
    ]
    assert retreat.explain(q, ("0504",))[0] == (
        ("NOM-8.6",),
        f"{NAME_36} may not retreat from 0604 into 0504: an enemy unit is there",
    )
    two = retreat_query(BOARD, s, SU_36, 2)
    assert ("0605", "0606") in set(retreat.paths(two))
    assert retreat.explain(two, ("0605", "0505"))[0].clauses == ("NOM-9.25",)


def test_amb_nom_20_i_reading_once_allows_a_single_hex() -> None:
    s = soviets_lose(
        {JP_KOB: "0504", SU_36: "0604"}, JP_KOB, SU_36, 2, options={"retreat_repeat": "once"}
    )
    assert retreat.count(retreat_query(BOARD, s, SU_36, 1)) == 3
    two = retreat_query(BOARD, s, SU_36, 2)
    assert retreat.count(two) == 0
    assert retreat.explain(two, ("0605", "0606"))[0].clauses == ("NOM-9.24",)


def test_nom_9_28_the_ja_artillery_never_retreats() -> None:
    s = soviets_lose({JP_KOB: "0504", SU_ART: "0604"}, JP_KOB, SU_ART, 1)
    q = retreat_query(BOARD, s, SU_ART, 1)
    assert retreat.destinations(q) == []
    assert retreat.explain(q, ("0605",))[0].clauses == ("NOM-9.28",)
