"""An overrun's strength check read without the battle's column shifts (issue 34).

An overrun is refused where its battle would be (SNC-9.6.4: its strength terrain-modified like
any attack's, never rounding down to 0, SNC-10.4.1.8; the attack's own limits, SNC-10.0.1,
SNC-10.2.1, SNC-10.4.1.9, SNC-9.4.6). `overrun_steps._strong_enough` reads the refusals of
`tables.battle` without working out the column shifts. On positions from seeded playouts of
both presets, for every Japanese group a hex's movable units may form (each unit alone and all
together) and every hex next to it, it must answer as `battle` does; a sabotaged copy must be
told apart.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest

from kernel.errors import IllegalAction
from kernel.game import CHANCE
from kernel.hexes import Hex
from specs.snc1937.data.variants import CATALOGUE
from specs.snc1937.game import SNC
from specs.snc1937.rules import odds, overrun_steps
from specs.snc1937.rules.state import JP, Combat, Phase, SNCState, evolve
from specs.snc1937.rules.tables import Tables, battle, locations, stacks

GAME = SNC()
T = GAME.tables
STEPS = 2500  # steps of each seeded playout searched (a count, not a time)
SEEDS = (0, 2)
KEEP = 30  # positions kept per preset, evenly spaced over the playouts
Check = Callable[[Tables, SNCState, tuple[str, ...], Hex], bool]


def _playout(preset: str, seed: int) -> Iterator[SNCState]:
    rng = random.Random(seed)
    s = GAME.initial_state(CATALOGUE.preset(preset))
    for _ in range(STEPS):
        side = GAME.to_move(s)
        if side is None:
            return
        if side == CHANCE:
            outcomes = GAME.chance_outcomes(s)
            action = rng.choices([a for a, _ in outcomes], [float(p) for _, p in outcomes])[0]
        else:
            yield s
            action = rng.choice(GAME.legal_actions(s))
        s = GAME.apply(s, action)


def _japanese_move(s: SNCState) -> bool:
    return s.side == JP and s.phase in (Phase.OPS1, Phase.OPS2) and s.ops_kind() == "move"


def _positions() -> list[SNCState]:
    out: list[SNCState] = []
    for preset in sorted(CATALOGUE.presets):
        found = [s for seed in SEEDS for s in _playout(preset, seed) if _japanese_move(s)]
        out.extend(found[:: max(1, len(found) // KEEP)])
    return out


POSITIONS = _positions()


def _by_battle(t: Tables, s: SNCState, units: tuple[str, ...], target: Hex) -> bool:
    """The reference: the overrun's battle is worked out, or refused."""
    try:
        battle(t, s, Combat(target=target, attackers=units, overrun=True))
    except IllegalAction:
        return False
    return True


def _cases() -> Iterator[tuple[SNCState, tuple[str, ...], Hex]]:
    for s in POSITIONS:
        for h, units in stacks(s.where).items():
            mine = tuple(u for u in units if T.spec[u].side == JP and not T.spec[u].is_static)
            groups = {(u,) for u in mine} | ({mine} if mine else set())
            for n in T.board.neighbors(h):
                if stacks(s.where).get(n):
                    for g in groups:
                        yield s, g, n


def _verdicts(check: Check) -> list[bool]:
    return [check(T, s, g, n) for s, g, n in _cases()]


def test_cases_hold_both_answers() -> None:
    """Groups next to Chinese hexes they may and may not overrun, and next to their own side's
    hexes (the test is not vacuous)."""
    got = _verdicts(_by_battle)
    assert len(got) >= 200 and any(got) and not all(got)


def test_the_strength_check_is_the_battles() -> None:
    """SNC-9.6.4, SNC-10.4.1.8: refused exactly where the battle is refused."""
    assert _verdicts(overrun_steps._strong_enough) == _verdicts(_by_battle)


def _strength_only(t: Tables, s: SNCState, units: tuple[str, ...], target: Hex) -> bool:
    """Sabotage: the strength alone, without the attack's own limits."""
    loc = locations(s.where)
    where = {u: loc[u] for u in units}
    return odds.attack_strength(t.data, t.board, target, where, s.reduced) > 0


def _unreduced(t: Tables, s: SNCState, units: tuple[str, ...], target: Hex) -> bool:
    """Sabotage: every unit at full strength (its reduction forgotten)."""
    return overrun_steps._strong_enough(t, evolve(s, reduced=frozenset()), units, target)


@pytest.mark.parametrize("sabotage", [_strength_only, _unreduced])
def test_a_sabotaged_strength_check_is_caught(sabotage: Check) -> None:
    """A check that forgets the attack's own limits (an enemy hex, an open hexside), or the
    units' reductions (SNC-10.4.1.8 reads their current strength), is told apart."""
    assert _verdicts(sabotage) != _verdicts(_by_battle)
