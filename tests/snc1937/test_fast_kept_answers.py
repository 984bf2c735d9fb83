"""Answers the SNC rules keep and hand out again, against a plain reference (issue 34).

A move's step asks where its group may go next (does the move go on?), and the listing of the
state it made asks the same: `movement_hexes.step_choices` keeps its answer for the last state
asked. The top units of a Move phase are read from piles made once per stack's units
(`top_unit._piles`). A Japanese LoC net is kept per position, so that replacements, which move
no unit, do not search again (`reinforcement_steps._loc_net`). Each is held to the plain
reference of `test_fast_paths_movement.py` on positions from its seeded playouts, asked in an
order that mixes positions; and each broken on purpose is told apart by the same comparison.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import attrs
import pytest

from kernel.hexes import Hex
from specs.snc1937.game import SNC
from specs.snc1937.rules import movement_hexes, reinforcement_steps, top_unit
from specs.snc1937.rules.state import JP, Phase, SNCState, Step
from tests.snc1937.test_fast_paths import ref_replace_choices
from tests.snc1937.test_fast_paths_movement import (
    ANY,
    MOVE_STARTS,
    STEPS_SEEN,
    _in_move_phase,
    _spaced,
    ref_step_choices,
    ref_tops,
)

T = SNC().tables  # the game's tables before any rules module alone (their imports cycle)
MOVING = _spaced([s for s, _, _ in STEPS_SEEN if _in_move_phase(s) and s.moving])
MADE = [after for _, _, after in STEPS_SEEN if _in_move_phase(after) and after.moving]
TOPS = [
    s
    for s in ANY
    if s.step == Step.MAIN and not s.moving and s.phase in (Phase.OPS1, Phase.OPS2, Phase.REINF)
]


def _here(s: SNCState) -> Hex:
    return dict(s.where)[s.moving[0]]


def _step_differences(positions: list[SNCState]) -> list[str]:
    """Each position asked again after its caller changed the list it was given, and after
    another position: always the reference's hexes (SNC-9.0.1 to SNC-9.0.4, SNC-7.2.1)."""
    out = []
    for i, s in enumerate(positions):
        other = positions[i - 1]
        want = ref_step_choices(s, s.moving, _here(s), s.mp)
        for ask in (s, s, other, s):
            got = movement_hexes.step_choices(T, ask, _here(ask), ask.mp, near_jp_ok=True)
            if ask is s and got != want:
                out.append(f"position {i}: next hexes")
            got.append(_here(s))  # the caller's list is its own
    return out


def test_enough_positions() -> None:
    assert len(MOVING) >= 30 and len(MADE) >= 100 and len(TOPS) >= 20
    assert any(len(us) > 1 for s in TOPS for _, us, _ in top_unit._piles(T, s.where))


def test_snc_9_0_a_kept_step_answer_is_the_reference() -> None:
    """SNC-9.0.1 to SNC-9.0.4, SNC-7.2.1: the kept next hexes of a moving group, asked of
    positions in turn and of the very states a move's step made, are the plain ones."""
    assert _step_differences([*MOVING, *MADE[::5]]) == []


def test_a_step_answer_kept_for_another_state_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A kept answer read whatever state it was for (only the hex and MP compared) is caught."""
    kept: dict[tuple[Hex, int, bool], list[Hex]] = {}

    def any_state(t: Any, s: SNCState, here: Hex, mp: int, *, near_jp_ok: bool) -> list[Hex]:
        key = (here, mp, near_jp_ok)
        if key not in kept:
            kept[key] = movement_hexes.group_step_choices(
                t, s, s.moving or None, here, mp, near_jp_ok=near_jp_ok
            )
        return list(kept[key])

    monkeypatch.setattr(movement_hexes, "step_choices", any_state)
    assert _step_differences([*MOVING, *MADE[::5]])


def test_a_step_answer_shared_with_its_caller_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A kept answer handed out as the very list kept is changed by its caller: caught."""
    kept: list[Any] = [None]

    def shared(t: Any, s: SNCState, here: Hex, mp: int, *, near_jp_ok: bool) -> list[Hex]:
        last = kept[0]
        if last is not None and last[0] is s:
            same: list[Hex] = last[1]  # the very list kept, which its caller may change
            return same
        found = movement_hexes.group_step_choices(
            t, s, s.moving or None, here, mp, near_jp_ok=near_jp_ok
        )
        kept[0] = (s, found)
        return found

    monkeypatch.setattr(movement_hexes, "step_choices", shared)
    assert _step_differences([*MOVING, *MADE[::5]])


@pytest.fixture
def fresh_piles() -> Iterator[None]:
    """The piles made afresh before and after: a sabotaged pile must not outlive its test."""
    top_unit._piles.cache_clear()  # type: ignore[attr-defined]
    top_unit._PILES.clear()
    yield
    top_unit._piles.cache_clear()  # type: ignore[attr-defined]
    top_unit._PILES.clear()


def _top_differences(positions: list[SNCState]) -> list[str]:
    """AMB-SNC-40, SNC-6.3.1: the units each position offers to put on top, read from piles
    made for earlier positions, are the reference's."""
    return [
        f"position {i}: tops" for i, s in enumerate(positions) if top_unit.tops(T, s) != ref_tops(s)
    ]


def test_amb_snc_40_tops_from_kept_piles_are_the_reference(fresh_piles: None) -> None:
    """AMB-SNC-40, SNC-6.3.1, SNC-6.4.1: the tops offered from piles kept across positions."""
    assert _top_differences([*TOPS, *MOVE_STARTS, *TOPS]) == []


class _ByFirstUnit(dict[Any, Any]):
    """A pile table that knows a stack by its first unit only (a stale pile for a stack that
    gained or lost units)."""

    def get(self, key: Any, default: Any = None) -> Any:
        return super().get(key[0], default)

    def __setitem__(self, key: Any, value: Any) -> None:
        super().__setitem__(key[0], value)


def test_a_pile_kept_for_another_stack_is_caught(
    monkeypatch: pytest.MonkeyPatch, fresh_piles: None
) -> None:
    """Piles looked up by a stack's first unit, not all its units, are caught."""
    table = _ByFirstUnit()
    monkeypatch.setattr(top_unit, "_known_piles", lambda t: table)
    assert _top_differences([*TOPS, *MOVE_STARTS, *TOPS])


def _replacement_positions() -> list[SNCState]:
    """Positions with every Japanese unit on the map reduced and two replacement steps, so
    that SNLF and other units alike ask for their LoC (SNC-8.3.5, SNC-8.3.8)."""
    out = []
    for s in ANY:
        japanese = {u for u, _ in s.where if T.spec[u].side == JP}
        out.append(attrs.evolve(s, reduced=s.reduced | japanese, replacements=2))
    return out


def _loc_differences(positions: list[SNCState]) -> list[str]:
    out = []
    for i, s in enumerate(positions):
        if reinforcement_steps.replace_choices(T, s) != ref_replace_choices(s):
            out.append(f"position {i}: replacement choices")
    return out


def test_snc_8_3_5_kept_loc_nets_are_the_fresh_search() -> None:
    """SNC-8.3.5, SNC-8.3.8: the units with a LoC, from nets kept per position, are those a
    fresh search names, for SNLF units and the others."""
    positions = _replacement_positions()
    snlf = {u for u in T.spec if T.data.unit(u).type == "naval_infantry"}
    assert any(snlf & s.reduced for s in positions)
    assert _loc_differences(positions) == []


def test_a_loc_net_kept_for_another_kind_of_unit_is_caught(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A net that gives SNLF units the other units' LoC ends (not SNC-8.3.8's) is caught."""
    real = reinforcement_steps._loc_net
    monkeypatch.setattr(
        reinforcement_steps, "_loc_net", lambda t, where, v, snlf: real(t, where, v, False)
    )
    assert _loc_differences(_replacement_positions())
