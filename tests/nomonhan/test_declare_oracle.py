"""The declaration enumerator against the definition (NOM-9.2 to NOM-9.8, NOM-9.17 to
NOM-9.21).

`declaration_problems` defines a legal declaration; `legal_declarations` enumerates them by
backtracking. On small random positions, under random readings of every option the
declaration rules depend on, the enumeration must be exactly the set of declarations built
from `candidate_combats` that the definition accepts; each one must be accepted by the game,
and the same declaration with an obliged attacker dropped (NOM-9.2) or a defender attacked
twice (NOM-9.5) must be refused with that clause.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import attrs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kernel.errors import IllegalAction
from kernel.hexes import Hex, hex_distance, hex_name
from specs.nomonhan.rules.actions import Declare
from specs.nomonhan.rules.declare import (
    candidate_combats,
    combat_problems,
    declaration_problems,
    front,
    legal_declarations,
)
from specs.nomonhan.rules.state import Combat, NomonhanState, Phase, Stage
from tests.nomonhan.positions import GAME, SU_ART, position
from tests.sizes import size

BOARD = GAME.rules.board
OPTIONS = (
    "must_be_attacked",
    "must_be_attacked_scope",
    "attacker_targets",
    "combat_grouping",
    "resolution_order",
    "artillery_range_to",
    "artillery_frequency",
    "artillery_adjacency",
    "artillery_rules",
    "artillery_shielding",
    "pontoon_is_bridge",
    "demolition_effect",
    "hill_hits",
    "hill_defenders",
)
READINGS = {name: tuple(r.name for r in GAME.catalogue.option(name).readings) for name in OPTIONS}
DATA_ORDER = [u.id for u in GAME.rules.data.units]
JP_UNITS = tuple(u.id for u in GAME.rules.data.units if u.side == "JP")
SU_UNITS = tuple(u.id for u in GAME.rules.data.units if u.side == "SU")
# centres around the river, the hills, both bridges and the open east bank
CENTRES = ("0102", "0203", "0303", "0208", "0308", "0404", "0505")


def _ball(centre: str, radius: int) -> list[Hex]:
    c = next(h for h in BOARD.map.hexes if hex_name(h) == centre)
    return sorted(h for h in BOARD.map.hexes if hex_distance(c, h) <= radius)


@st.composite
def combat_positions(draw: st.DrawFn) -> NomonhanState:
    preset = draw(st.sampled_from(("ja", "en")))
    options = {name: draw(st.sampled_from(readings)) for name, readings in READINGS.items()}
    n_jp = draw(st.integers(2, 4))
    n_su = draw(st.integers(2, 4))
    jp = draw(st.permutations(JP_UNITS))[:n_jp]
    su = draw(st.permutations(SU_UNITS))[:n_su]
    centre, radius = draw(st.sampled_from(CENTRES)), draw(st.sampled_from((1, 2)))
    hexes = draw(st.permutations(_ball(centre, radius)))  # units beyond the hexes stay off
    units = {u: hex_name(h) for u, h in zip((*jp, *su), hexes, strict=False)}
    art_one_step = options.get("artillery_rules", "ja" if preset == "ja" else "generic") == "ja"
    steps = {
        u: draw(
            st.integers(
                1, 1 if u == SU_ART and art_one_step else GAME.rules.data.unit(u).full_steps
            )
        )
        for u in units
    }
    return position(
        units,
        preset=preset,
        options=options,
        steps=steps,
        turn=draw(st.integers(1, 2)),
        phase=draw(st.sampled_from((Phase.IP_COMBAT, Phase.NIP_COMBAT))),
        artillery_used=draw(st.booleans()),
        demolished=draw(st.booleans()),
    )


def _subsets(items: tuple[str, ...]) -> Iterator[tuple[str, ...]]:
    for n in range(1, len(items) + 1):
        yield from itertools.combinations(items, n)


def _disjoint_families(cands: list[Combat]) -> list[tuple[Combat, ...]]:
    out: list[tuple[Combat, ...]] = []

    def rec(i: int, used: frozenset[str], chosen: tuple[Combat, ...]) -> None:
        if i == len(cands):
            out.append(chosen)
            return
        rec(i + 1, used, chosen)
        units = set(cands[i].attackers) | set(cands[i].defenders)
        if used.isdisjoint(units):
            rec(i + 1, used | units, (*chosen, cands[i]))

    rec(0, frozenset(), ())
    return out


def _canonical(combat: Combat) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Combats in the order of their units in the data file (attackers first)."""
    return tuple(map(DATA_ORDER.index, combat.attackers)), tuple(
        map(DATA_ORDER.index, combat.defenders)
    )


def _brute_force(state: NomonhanState) -> set[tuple[Combat, ...]]:
    f = front(BOARD, state)
    fixed = state.variant.is_("resolution_order", "fixed_in_advance")
    out = set()
    for unordered in _disjoint_families(candidate_combats(BOARD, state, f)):
        family = tuple(sorted(unordered, key=_canonical))
        for marks in itertools.product((False, True), repeat=len(family)):
            decl = tuple(attrs.evolve(c, support=m) for c, m in zip(family, marks, strict=True))
            orders = itertools.permutations(decl) if fixed else iter((decl,))
            for ordered in orders:
                if not declaration_problems(BOARD, state, ordered):
                    out.add(ordered)
    return out


def _refused(state: NomonhanState, combats: tuple[Combat, ...]) -> tuple[str, ...]:
    try:
        GAME.apply(state, Declare(combats))
    except IllegalAction as exc:
        return exc.clauses
    raise AssertionError(f"{combats} was accepted")


@settings(
    max_examples=size(100, 300),  # tests.sizes: 300 in make bench
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(combat_positions())
def test_nom_9_7_enumeration_equals_definition(state: NomonhanState) -> None:
    """NOM-9.7, NOM-9.2, NOM-9.3, NOM-9.4, NOM-9.5, NOM-9.8, NOM-9.17: `legal_declarations`
    lists exactly the declarations `declaration_problems` accepts, each once; every one is
    accepted by the game and changed ones are refused with the broken clause."""
    f = front(BOARD, state)
    side_units = [
        u.id
        for u in state.units
        if u.hex is not None and GAME.rules.data.unit(u.id).side == state.phasing
    ]
    # candidate_combats: every single combat that is legal on its own
    expected_cands = {
        Combat(a, d)
        for a in _subsets(tuple(side_units))
        for d in _subsets(f.defenders)
        if not combat_problems(BOARD, state, f, Combat(a, d))
    }
    cands = candidate_combats(BOARD, state, f)
    assert len(cands) == len(set(cands))
    assert set(cands) == expected_cands

    listed = legal_declarations(BOARD, state)
    assert len(listed) == len(set(listed))
    assert set(listed) == _brute_force(state)

    # The game serves declarations from Z3 (combat_query); the oracle's set, each once
    served = [a for a in GAME.legal_actions(state) if isinstance(a, Declare)]
    assert len(served) == len(set(served))
    assert set(served) == {Declare(d) for d in listed}

    for decl in listed:
        after = GAME.apply(state, Declare(decl))
        assert after.stage != Stage.DECLARE
        for i, combat in enumerate(decl):
            rest = decl[:i] + decl[i + 1 :]
            for a in combat.attackers:
                if a in f.obliged:
                    others = tuple(x for x in combat.attackers if x != a)
                    dropped = (*rest[:i], attrs.evolve(combat, attackers=others), *rest[i:])
                    if not others:
                        dropped = rest
                    assert "NOM-9.2" in _refused(state, dropped)
            d = combat.defenders[0]
            twice = attrs.evolve(combat, defenders=(*combat.defenders, d))
            assert "NOM-9.5" in _refused(state, (*decl[:i], twice, *decl[i + 1 :]))
            for j, target in enumerate(decl):
                if j != i:
                    shared = attrs.evolve(target, defenders=(*target.defenders, d))
                    mutated = tuple(shared if k == j else x for k, x in enumerate(decl))
                    assert "NOM-9.5" in _refused(state, mutated)
