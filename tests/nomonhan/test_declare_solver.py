"""Nomonhan's combat declarations from the Z3 layer against the plain-Python oracle.

The game serves declarations from `combat_query` (Z3); `declare.legal_declarations` and
`declare.declaration_problems` are the oracle and the definition. On positions from random
playouts under both presets and on generated positions under every option: the sets are equal,
counts agree, every served declaration is accepted, and every refusal names clauses that the
definition also finds broken.
"""

from __future__ import annotations

import random

import attrs
import pytest
from hypothesis import HealthCheck, given, settings

from kernel.errors import IllegalAction
from kernel.playout import play
from solvers.queries import assignments as z3_layer
from specs.nomonhan.rules.actions import Declare
from specs.nomonhan.rules.combat_query import (
    combat_problem,
    count_declarations,
    declarations,
    explain_declaration,
)
from specs.nomonhan.rules.declare import declaration_problems, legal_declarations
from specs.nomonhan.rules.state import Combat, NomonhanState, Stage
from tests.nomonhan.helpers_combat import c, combat_position
from tests.nomonhan.positions import GAME, JP_3TK, JP_4TK, JP_KOB, SU_9, SU_36
from tests.nomonhan.test_declare_oracle import combat_positions
from tests.sizes import size

BOARD = GAME.rules.board
PLAYOUTS = size(120, 250)  # per preset (tests.sizes); each Combat Phase met in them checked


def _declare_positions(preset: str, games: int) -> list[NomonhanState]:
    found: list[NomonhanState] = []

    def keep(state: NomonhanState, _action: object, _after: object) -> None:
        if state.stage == Stage.DECLARE:
            found.append(state)

    initial = GAME.initial_state(GAME.presets()[preset])
    for seed in range(games):
        play(GAME, initial, random.Random(seed), max_steps=400, on_step=keep)
    return found


@pytest.mark.parametrize("preset", ["ja", "en"])
def test_nom_9_2_playout_positions_z3_set_equals_oracle(preset: str) -> None:
    """NOM-9.2, NOM-9.3, NOM-9.7, NOM-9.17: on every Combat Phase of random playouts the Z3
    set is the oracle's, each declaration once, and the exact count agrees."""
    states = _declare_positions(preset, PLAYOUTS)
    assert len(states) > PLAYOUTS * 4 // 5
    for state in states:
        oracle = legal_declarations(BOARD, state)
        served = declarations(BOARD, state)
        assert len(served) == len(set(served))
        assert set(served) == set(oracle), state
        assert count_declarations(BOARD, state) == len(oracle)


def _clauses(reasons: list[object]) -> set[str]:
    return {clause for r in reasons for clause in getattr(r, "clauses", ())}


@settings(max_examples=size(30, 150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(combat_positions())
def test_nom_9_4_refusals_name_clauses_the_definition_finds_broken(
    state: NomonhanState,
) -> None:
    """NOM-9.4, NOM-9.5, NOM-9.6: for each served declaration and a family of mutations of it,
    the solver accepts exactly what the definition accepts, and when it refuses, every clause
    it names is one `declaration_problems` also reports."""
    served = declarations(BOARD, state)
    f_units = [u.id for u in state.units if u.hex is not None]
    proposals: list[tuple[Combat, ...]] = [()]
    for decl in served[:6]:
        proposals.append(decl)
        for i, combat in enumerate(decl):
            proposals.append(decl[:i] + decl[i + 1 :])
            proposals.append((*decl, combat))
            proposals.append(
                (*decl[:i], attrs.evolve(combat, support=not combat.support), *decl[i + 1 :])
            )
            for u in f_units[:4]:
                proposals.append((*decl[:i], Combat((*combat.attackers, u), combat.defenders)))
                proposals.append((*decl[:i], Combat(combat.attackers, (*combat.defenders, u))))
    for proposal in proposals:
        canonical = tuple(
            sorted(
                (
                    Combat(
                        tuple(sorted(x.attackers, key=_rank)),
                        tuple(sorted(x.defenders, key=_rank)),
                        x.support,
                    )
                    for x in proposal
                ),
                key=lambda x: (list(map(_rank, x.attackers)), list(map(_rank, x.defenders))),
            )
        )
        definition = {clause for clause, _ in declaration_problems(BOARD, state, canonical)}
        definition.discard("NOM-9.8")  # listing order: the game lists in canonical order
        reasons = explain_declaration(BOARD, state, canonical)
        assert bool(reasons) == bool(definition), (canonical, reasons, definition)
        assert _clauses(list(reasons)) <= definition, (canonical, reasons, definition)


def _rank(unit: str) -> int:
    return [u.id for u in GAME.rules.data.units].index(unit)


def test_nom_9_2_idle_unit_in_enemy_zoc_is_named_with_its_hex() -> None:
    """NOM-9.2: a declaration that leaves a unit in an enemy ZOC idle is refused, and the
    refusal names the unit, its hex and the clause."""
    s = combat_position({JP_KOB: "0504", JP_4TK: "0305", SU_36: "0604", SU_9: "0306"})
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(s, Declare((c(JP_KOB, SU_36),)))
    assert refused.value.clauses == ("NOM-9.2", "NOM-9.3")
    assert "4th Tank Regiment in 0305 is in an enemy ZOC and must attack: NOM-9.2" in str(
        refused.value
    )


def test_nom_9_7_problem_description_carries_the_reading() -> None:
    """NOM-9.7 (AMB-NOM-9): the grouping handed to the solver follows combat_grouping."""
    units = {JP_KOB: "0504", JP_3TK: "0503", SU_36: "0604"}
    many = combat_problem(BOARD, combat_position(units, preset="ja"))
    one = combat_problem(
        BOARD, combat_position(units, preset="ja", options={"combat_grouping": "one_defender"})
    )
    assert (many.grouping, one.grouping) == ("many", "one_target")
    assert z3_layer.count(many) == z3_layer.count(one) == 1
