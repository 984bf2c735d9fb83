"""No impossible Nomonhan position is accepted, and no reachable one refused.

Positions of seeded playouts of every preset all pass the position check. A pending combat
whose units are out of contact (`tools.testing.mutation_kinds`: one of its units carried two
hexes or more from every enemy unit) is refused where no play reaches it, naming the pending
combat (NOM-9.8, NOM-P-PENDING-IN-CONTACT): where only participants advance (`ja`). Where any
friendly counter advances (`en`, AMB-NOM-19) an advance may carry it there, so the same
position is not refused for its pending combat (the argument: `specs.nomonhan.formal.position`).
Sizes are counts of positions, never times.
"""

from __future__ import annotations

import functools
import random
from typing import Any

import pytest

from kernel.errors import ImpossiblePosition
from tests.nomonhan.positions import GAME
from tests.sizes import size
from tools.testing.mutation import RandomChooser
from tools.testing.mutation_json import as_json
from tools.testing.mutation_positions import make_impossible, playout_positions

PRESETS = sorted(GAME.presets())
SEEDS = range(size(16, 60))
KIND = "nomonhan-pending-combat-out-of-contact"


@functools.cache
def positions(preset: str) -> tuple[Any, ...]:
    out: list[Any] = []
    for seed in SEEDS:
        out += playout_positions(GAME, GAME.presets()[preset], seed, 1500)
    return tuple(out)


@pytest.mark.parametrize("preset", PRESETS)
def test_every_position_of_seeded_playouts_passes_the_check(preset: str) -> None:
    for state in positions(preset):
        GAME.check_position(state)


def _made(preset: str) -> list[Any]:
    chooser = RandomChooser(random.Random(preset))
    out = []
    for state in positions(preset):
        found = make_impossible(GAME, state, as_json(GAME.state_to_json(state)), chooser, [KIND])
        if found is not None:
            out.append(found)
    return out


def test_nom_9_8_a_pending_combat_out_of_contact_is_refused_under_ja() -> None:
    made = _made("ja")
    assert made, "no ja playout position has a pending combat"
    for found in made:
        assert found.expect_refused
        with pytest.raises(ImpossiblePosition) as info:
            GAME.state_from_json(found.doc)
        assert (info.value.field or "").startswith(found.field), (found.detail, info.value)
        assert "NOM-P-PENDING-IN-CONTACT" in info.value.clauses


def test_amb_nom_19_the_same_position_is_reachable_under_en_and_not_refused_for_it() -> None:
    made = _made("en")
    assert made, "no en playout position has a pending combat"
    for found in made:
        assert not found.expect_refused
        try:
            GAME.state_from_json(found.doc)
        except ImpossiblePosition as exc:  # refused, but for something else than contact
            assert not (exc.field or "").startswith("pending"), (found.detail, exc)
            assert "NOM-P-PENDING-IN-CONTACT" not in exc.clauses
