"""No impossible Shumshu position is accepted, and no reachable one refused.

Positions of seeded playouts of every preset all pass the position check (random readings:
tests/shumshu/test_playouts.py); each kind of impossible position (`tools.testing.
mutation_kinds`), made from those positions, is refused naming its field and the clause it
breaks: a Paramushir unit on Shumshu during the set-up (SHU-SETUP.2), more Japanese units from
Paramushir than the AM turns brought (SHU-REINF.1, SHU-REINF.2), a discovered decoy still on
the map (SHU-COMBAT.6), a Japanese unit face up on Paramushir (SHU-COMBAT.5). Sizes are counts
of positions, never times.
"""

from __future__ import annotations

import functools
import random
from typing import Any

import attrs
import pytest

from kernel.errors import ImpossiblePosition
from specs.shumshu.formal.position import reinforcements_arrived
from specs.shumshu.rules.state import JP, RU, Loc, Stage
from tests.shumshu.positions import GAME, B
from tests.sizes import size
from tools.testing.mutation import RandomChooser
from tools.testing.mutation_json import as_json
from tools.testing.mutation_positions import make_impossible, playout_positions

PRESETS = sorted(GAME.presets())
SEEDS = range(size(12, 60))
PER_KIND = size(80, 400)
"""Impossible positions made and read per kind."""

CLAUSES = {
    "shumshu-paramushir-unit-in-setup": "SHU-SETUP.2",
    "shumshu-arrivals-beyond-the-turns": "SHU-REINF.2",
    "shumshu-discovered-decoy-on-the-map": "SHU-COMBAT.6",
    "shumshu-face-up-on-paramushir": "SHU-COMBAT.5",
}


@functools.cache
def positions(preset: str) -> tuple[Any, ...]:
    out: list[Any] = []
    for seed in SEEDS:
        out += playout_positions(GAME, GAME.presets()[preset], seed, 2000)
    return tuple(out)


@pytest.mark.parametrize("preset", PRESETS)
def test_every_position_of_seeded_playouts_passes_the_check(preset: str) -> None:
    for state in positions(preset):
        GAME.check_position(state)


@pytest.mark.parametrize("kind", sorted(CLAUSES))
def test_each_kind_of_impossible_position_is_made_and_refused_naming_field_and_clause(
    kind: str,
) -> None:
    chooser = RandomChooser(random.Random(kind))
    made = 0
    for state in [s for p in PRESETS for s in positions(p)]:
        if made >= PER_KIND:
            break
        doc = as_json(GAME.state_to_json(state))
        found = make_impossible(GAME, state, doc, chooser, [kind])
        if found is None:
            continue
        made += 1
        with pytest.raises(ImpossiblePosition) as info:
            GAME.state_from_json(found.doc)
        assert (info.value.field or "").startswith(found.field), (found.detail, info.value)
        assert CLAUSES[kind] in info.value.clauses, (found.detail, info.value)
    assert made >= 1, f"no position of the playouts offers {kind}"


def _index(unit: str) -> int:
    return next(i for i, u in enumerate(B.data.units) if u.id == unit)


def test_shu_setup_2_a_paramushir_unit_on_shumshu_during_the_set_up_is_refused() -> None:
    start = GAME.initial_state(GAME.presets()["draft"])
    assert start.stage is Stage.SETUP
    unit = next(u.id for u in B.data.units if u.side == JP and u.setup != "shumshu")
    i = _index(unit)
    moved = attrs.evolve(start.units[i], loc=Loc.MAP, hex=B.data.hex33)
    bad = attrs.evolve(start, units=(*start.units[:i], moved, *start.units[i + 1 :]))
    with pytest.raises(ImpossiblePosition) as info:
        GAME.check_position(bad)
    assert info.value.field == f"units[{i}].loc" and "SHU-SETUP.2" in info.value.clauses


@pytest.mark.parametrize(
    ("turn", "side", "stage", "arrived"),
    [
        (1, RU, Stage.MOVE, 0),
        (1, JP, Stage.REINFORCE, 0),
        (1, JP, Stage.MOVE, 1),
        (2, RU, Stage.MOVE, 1),
        (2, JP, Stage.MOVE, 1),
        (3, RU, Stage.MOVE, 1),
        (3, JP, Stage.DECLARE, 2),
        (6, JP, Stage.MOVE, 3),
    ],
)
def test_shu_reinf_1_one_japanese_reinforcement_each_japanese_am_turn(
    turn: int, side: str, stage: Stage, arrived: int
) -> None:
    """One unit from Paramushir in each Japanese AM player-turn (SHU-REINF.1, SHU-REINF.2):
    the odd turns are AM (SHU-SEQ.2), and this turn's comes at its reinforcement step."""
    start = GAME.initial_state(GAME.presets()["draft"])
    s = attrs.evolve(start, turn=turn, side=side, stage=stage)
    assert reinforcements_arrived(s) == arrived


def test_shu_combat_6_a_face_up_decoy_on_the_map_is_refused() -> None:
    for state in positions("draft"):
        decoys = [
            i
            for i, p in enumerate(state.units)
            if B.unit(p.id).is_decoy and p.loc is Loc.MAP and state.stage is not Stage.SETUP
        ]
        if decoys:
            break
    i = decoys[0]
    shown = attrs.evolve(state.units[i], revealed=True)
    bad = attrs.evolve(state, units=(*state.units[:i], shown, *state.units[i + 1 :]))
    GAME.check_position(state)
    with pytest.raises(ImpossiblePosition) as info:
        GAME.check_position(bad)
    assert info.value.field == f"units[{i}].revealed" and "SHU-COMBAT.6" in info.value.clauses
