"""Chinese rail arrivals kept by the Japanese hexes (issue 34).

From GT 3 a Chinese reinforcement may arrive at a railroad hex with a rail LoC or a rail route
clear of Japanese units and their ZOC, never next to a Japanese unit (SNC-8.2.1, SNC-8.2.4,
SNC-8.2.5, SNC-9.5.2.1 to SNC-9.5.2.3; chinese_rail, AMB-SNC-21). `rail_places` works this out
once per set of hexes Japanese units hold. On positions from seeded playouts of both presets,
and on each with the Chinese units moved about, it must list what `loc.rail_reinforcement_hexes`
finds; a cache that forgets the Japanese hexes must be told apart.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from kernel.game import CHANCE
from specs.snc1937.data.variants import CATALOGUE
from specs.snc1937.game import SNC
from specs.snc1937.rules import loc, rail_places
from specs.snc1937.rules.state import CH, Phase, SNCState, evolve
from specs.snc1937.rules.tables import stacks

GAME = SNC()
T = GAME.tables
STEPS = 3000  # steps of each seeded playout searched (a count, not a time)
SEEDS = (0, 1)
KEEP = 25  # positions kept per preset, evenly spaced over the playouts


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


def _positions() -> list[SNCState]:
    out: list[SNCState] = []
    for preset in sorted(CATALOGUE.presets):
        found = [
            s
            for seed in SEEDS
            for s in _playout(preset, seed)
            if s.phase == Phase.REINF and s.side == CH
        ]
        out.extend(found[:: max(1, len(found) // KEEP)])
    return out


POSITIONS = _positions()


def _shuffled(s: SNCState, rng: random.Random) -> SNCState:
    """`s` with each Chinese unit's hex swapped with another Chinese unit's (the Japanese
    units stay where they are)."""
    chinese = [i for i, (u, _) in enumerate(s.where) if T.spec[u].side == CH]
    hexes = [s.where[i][1] for i in chinese]
    rng.shuffle(hexes)
    where = list(s.where)
    for i, h in zip(chinese, hexes, strict=True):
        where[i] = (where[i][0], h)
    return evolve(s, where=tuple(where))


def _cases() -> list[SNCState]:
    rng = random.Random(4)
    return [x for s in POSITIONS for x in (s, _shuffled(s, rng), _shuffled(s, rng))]


def _differences() -> list[str]:
    rail_places.rail_places.cache_clear()  # type: ignore[attr-defined]
    rail_places._RAIL_PLACES.clear()
    out = []
    for s in _cases():
        plain = loc.rail_reinforcement_hexes(T.board, T.data, s.variant, stacks(s.where), s.turn)
        got = rail_places.rail_places(T, s.where, s.variant, s.turn)
        if got != tuple((h, True) for h in sorted(plain)):
            out.append(f"GT {s.turn} {s.variant}")
    return out


def test_positions_hold_rail_arrivals() -> None:
    """Rail arrivals open and not yet (GT 1, 2), in both presets (the test is not vacuous)."""
    turns = {s.turn for s in POSITIONS}
    assert min(turns) < loc.RAIL_FROM_GT <= max(turns)
    assert any(rail_places.rail_places(T, s.where, s.variant, s.turn) for s in POSITIONS)
    assert len({s.variant for s in POSITIONS}) == 2


def test_rail_places_are_the_plain_ones() -> None:
    """SNC-8.2.1, SNC-8.2.4, SNC-8.2.5, SNC-9.5.2.1 to SNC-9.5.2.3: the same hexes, in hex
    order, wherever the Chinese units stand."""
    assert _differences() == []


def test_a_cache_forgetting_the_japanese_hexes_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A cache kept by the variant alone answers every position as the first it saw."""
    monkeypatch.setattr(rail_places, "occupied_by", lambda where, t: (frozenset(), frozenset()))
    assert _differences()
