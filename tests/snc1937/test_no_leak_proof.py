"""SNC-P-NO-LEAK (SNC-6.3.1, SNC-10.0.5, SNC-8.1.2): declared, tested on playouts and not
proved, with the reason in its statement; its check holds on seeded games and fails on a
planted leak (a hidden unit named in a record both sides see)."""

from __future__ import annotations

import random
from typing import Any

import attrs

from kernel.game import CHANCE
from specs.snc1937.data.loader import load_data
from specs.snc1937.formal import noleak, verification
from specs.snc1937.rules.state import CH, JP
from specs.snc1937.rules.tables import Tables, stacks
from tools.registry import get_game

GAME = get_game("snc1937")
TABLES = Tables(load_data())


def test_the_property_is_declared_tested_and_says_why_it_is_not_proved() -> None:
    """The abstraction cannot carry the observation: no formal statement, and the statement
    says so and where whole histories are compared."""
    prop = next(p for p in verification.properties() if p.id == noleak.NO_LEAK)
    assert set(prop.expected) == set(GAME.presets())
    assert "not proved" in prop.statement and "tests/hidden" in prop.statement
    for preset in GAME.presets():
        model = verification.symbolic_model(GAME.presets()[preset])
        assert model is None or noleak.NO_LEAK not in model.formal()


def _positions(preset: str, seed: int, steps: int) -> list[Any]:
    rng = random.Random(seed)
    state = GAME.initial_state(GAME.presets()[preset])
    out = [state]
    for _ in range(steps):
        side = GAME.to_move(state)
        if side is None:
            break
        if side == CHANCE:
            options = [a for a, _ in GAME.chance_outcomes(state)]
        else:
            options = list(GAME.legal_actions(state))
        state = GAME.apply(state, rng.choice(options))
        out.append(state)
    return out


def test_snc_6_3_1_no_hidden_unit_is_named_on_seeded_games() -> None:
    """SNC-6.3.1, SNC-8.1.2: along seeded games of every preset, no unit under an enemy top is
    named in the elite wait."""
    for preset in sorted(GAME.presets()):
        for state in _positions(preset, 1, 300):
            assert noleak.names_no_hidden_unit(TABLES, state)


def test_snc_6_3_1_a_planted_leak_fails_the_check() -> None:
    """A unit under the top of a stack, named in the elite wait (SNC-8.1.2), is named to the
    enemy: the check fails; the top unit itself may be named."""
    found = None
    for state in _positions("standard", 2, 300):
        for units in stacks(state.where).values():
            if len(units) > 1:
                found = state, units
                break
        if found:
            break
    assert found is not None
    state, units = found
    side = TABLES.spec[units[0]].side
    enemy = CH if side == JP else JP
    hidden = noleak.unseen(TABLES, state, enemy)
    under = next(u for u in units if u in hidden)
    top = next(u for u in units if u not in hidden)
    assert not noleak.names_no_hidden_unit(TABLES, attrs.evolve(state, elite=(under,)))
    assert noleak.names_no_hidden_unit(TABLES, attrs.evolve(state, elite=(top,)))
