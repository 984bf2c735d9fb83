"""Two impossible SNC positions the check refuses: a Japanese garrison set up on the map that
is nowhere (SNC-9.1.2), and an attack that has struck whose adjusted strength rounds down to 0
or whose attackers are not all on the map before the die (SNC-10.4.1.8, SNC-10.5.1.1). Each is
refused naming its field and clause; the positions next to them that the rules reach pass.
"""

from __future__ import annotations

import functools
import random
from typing import Any

import attrs
import pytest

from kernel.errors import ImpossiblePosition
from kernel.hexes import parse_hex
from kernel.roles import rules_of
from specs.snc1937.formal.position_strength import STRUCK_STEPS
from specs.snc1937.rules.state import SNCState
from specs.snc1937.rules.tables import eliminate, put
from tests.sizes import size
from tools.registry import get_game
from tools.testing.mutation import RandomChooser
from tools.testing.mutation_json import as_json
from tools.testing.mutation_positions import make_impossible, playout_positions

GAME = get_game("snc1937")
TABLES = rules_of(GAME).tables
STEPS = size(1200, 3000)
"""Steps of the seeded playout the struck attacks are taken from."""


def _start() -> SNCState:
    state: SNCState = GAME.initial_state(GAME.presets()["standard"])
    return state


def _set_up_garrisons() -> list[str]:
    return [u for a in TABLES.data.setup.at_start for u in a.place if u in TABLES.jp_garrisons]


def test_snc_9_1_2_the_data_sets_up_two_japanese_garrisons_and_pools_the_rest() -> None:
    """SNC-9.1.2: two Japanese garrisons start on the map (3512 and 3611, SNC-13.24,
    SNC-13.25); the others are the pool of SNC-9.1.3, nowhere at the start, and accepted so."""
    start = _start()
    on_map = dict(start.where)
    assert sorted(_set_up_garrisons()) == ["JP-G-A", "JP-G-SHANGHAI"]
    assert {on_map[g] for g in _set_up_garrisons()} == {parse_hex("3512"), parse_hex("3611")}
    pool = [g for g in TABLES.jp_garrisons if g not in _set_up_garrisons()]
    assert pool and not any(g in on_map or g in start.dead for g in pool)
    GAME.check_position(start)


@pytest.mark.parametrize("garrison", ["JP-G-SHANGHAI", "JP-G-A"])
def test_snc_9_1_2_a_set_up_garrison_nowhere_is_refused_and_eliminated_accepted(
    garrison: str,
) -> None:
    """A set-up garrison leaves the map only when eliminated (SNC-2.2.1.13): in the dead pile
    it passes; off the map and nowhere it is refused, naming `where` and SNC-9.1.2."""
    start = _start()
    gone = put(start, {garrison: None})
    GAME.check_position(attrs.evolve(gone, dead=frozenset({garrison})))
    with pytest.raises(ImpossiblePosition) as info:
        GAME.check_position(gone)
    assert info.value.field == "where" and "SNC-9.1.2" in info.value.clauses


@functools.cache
def _struck() -> tuple[SNCState, ...]:
    """Positions of a seeded playout with a land attack between its strike and its die."""
    states = playout_positions(GAME, GAME.presets()["standard"], 0, STEPS)
    out = [
        s
        for s in states
        if s.combat is not None and not s.combat.landing and s.step in STRUCK_STEPS
    ]
    assert out, "the playout strikes no land attack"
    return tuple(out)


def test_snc_10_4_1_8_a_struck_attack_without_attackers_is_refused() -> None:
    """No attacker, no strength: the total of nothing is 0 (SNC-10.4.1.8, SNC-10.0.5)."""
    for s in _struck()[: size(5, 40)]:
        assert s.combat is not None
        empty = attrs.evolve(s, combat=attrs.evolve(s.combat, attackers=()))
        with pytest.raises(ImpossiblePosition) as info:
            GAME.check_position(empty)
        assert info.value.field == "combat.attackers" and "SNC-10.4.1.8" in info.value.clauses


def test_snc_10_5_1_1_an_attacker_eliminated_before_the_die_is_refused() -> None:
    """Losses come from the die (SNC-10.5.1.1): before it, an attacker in the dead pile (or
    an elite unit's box) is refused, naming it."""
    for s in _struck()[: size(5, 40)]:
        assert s.combat is not None
        k = len(s.combat.attackers) - 1
        lost = eliminate(TABLES, s, [s.combat.attackers[k]])
        with pytest.raises(ImpossiblePosition) as info:
            GAME.check_position(lost)
        assert info.value.field == f"combat.attackers[{k}]", info.value
        assert "SNC-10.5.1.1" in info.value.clauses


def _weak(s: SNCState, seed: int) -> dict[str, Any] | None:
    doc = as_json(GAME.state_to_json(s))
    chooser = RandomChooser(random.Random(seed))
    made = make_impossible(GAME, s, doc, chooser, ["snc-attack-too-weak-to-resolve"])
    return None if made is None else made.doc


def test_snc_10_4_1_8_a_zero_strength_group_is_refused_struck_and_accepted_joining() -> None:
    """One attacker across a creek or river whose adjusted strength is below 1 rounds down
    to 0 (SNC-10.4.1.8): refused once the attack has struck, and accepted while the group is
    still being declared (`join`), where units join one at a time and `Strike` waits."""
    checked = 0
    for i, s in enumerate(_struck()):
        doc = _weak(s, i)
        if doc is None:
            continue
        with pytest.raises(ImpossiblePosition) as info:
            GAME.state_from_json(doc)
        assert info.value.field == "combat.attackers" and "SNC-10.4.1.8" in info.value.clauses
        joining = {**doc, "step": "join"}
        GAME.state_from_json(joining)
        checked += 1
        if checked >= size(3, 20):
            break
    assert checked >= 1, "no struck attack of the playout offers a weak attacker"
