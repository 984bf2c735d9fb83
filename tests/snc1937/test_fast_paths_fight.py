"""The Fight phase's attack targets kept per position against the plain query (issue 34).

`combat_choices.attack_targets` keeps its answer by the identity of what it reads (the
position, the reduced units, the side, the units that attacked, the hexes attacked, the
variant), since a Fight phase lists it again after each unit put on top. Here, on every Fight
phase position of seeded playouts of both presets, taken in the order play reaches them, the
kept answer must be `combat_query.attack_targets` asked afresh; and a keep that forgets the
attacks made must be told apart by the same comparison.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from typing import Any

import pytest

from kernel.game import CHANCE
from kernel.hexes import Hex
from specs.snc1937.data.variants import CATALOGUE
from specs.snc1937.game import SNC
from specs.snc1937.rules import combat_choices, combat_query, tables
from specs.snc1937.rules.actions import Attack
from specs.snc1937.rules.state import Phase, SNCState, Step

GAME = SNC()
T = GAME.tables
STEPS = 3000  # steps of each seeded playout searched (a count, not a time)
SEED = 3


def _playout(preset: str) -> Iterator[SNCState]:
    rng = random.Random(SEED)
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


def _fighting(s: SNCState) -> bool:
    return (
        s.phase in (Phase.OPS1, Phase.OPS2)
        and s.ops_kind() == "fight"
        and s.step == Step.MAIN
        and s.combat is None
    )


FIGHTS = [s for preset in sorted(CATALOGUE.presets) for s in _playout(preset) if _fighting(s)]


def ref_attack_targets(s: SNCState) -> tuple[Hex, ...]:
    """SNC-10.0.1, SNC-10.0.7, SNC-10.0.8, SNC-10.4.1.8: the query asked afresh, the units of
    the hexes attacked this phase counted as defended."""
    st = tables.stacks(s.where)
    defended = frozenset(u for h in s.attacked for u in st.get(h, ()))
    return combat_query.attack_targets(
        T.data, T.board, st, s.reduced, s.side,
        attacked=s.done, defended=defended, variant=s.variant,
    )  # fmt: skip


def _differences() -> list[str]:
    return [
        f"position {i}"
        for i, s in enumerate(FIGHTS)
        if combat_choices.attack_targets(T, s) != ref_attack_targets(s)
    ]


def test_enough_positions() -> None:
    """Fight phases of both presets, several listings in one phase, some attacks made."""
    assert len(FIGHTS) >= 40 and len({s.variant for s in FIGHTS}) == 2
    assert any(s.done for s in FIGHTS) and any(s.attacked for s in FIGHTS)
    assert any(a.where is b.where for a, b in itertools.pairwise(FIGHTS))


def test_snc_10_0_attack_targets_match_the_plain_query() -> None:
    """SNC-10.0.1, SNC-10.0.7, SNC-10.0.8, SNC-10.4.1.8: the kept targets are the fresh ones,
    and the listing offers an attack on each."""
    assert _differences() == []
    for s in FIGHTS[:: max(1, len(FIGHTS) // 20)]:
        listed = GAME.legal_actions(s)
        assert [a.target for a in listed if isinstance(a, Attack)] == list(ref_attack_targets(s))


def test_snc_10_0_7_a_keep_forgetting_attacks_made_is_caught(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Targets kept by position alone, blind to the units that attacked already (SNC-10.0.7)
    and the hexes attacked (SNC-10.0.8), are caught."""
    real = combat_choices._attack_targets
    kept: dict[tuple[int, str], Any] = {}

    def blind(t: Any, where: Any, reduced: Any, side: str, *rest: Any) -> Any:
        key = (id(where), side)
        if key not in kept:
            kept[key] = (where, real(t, where, reduced, side, *rest))
        return kept[key][1]

    monkeypatch.setattr(combat_choices, "_attack_targets", blind)
    assert _differences()
