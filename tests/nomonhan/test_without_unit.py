"""Nomonhan's `without_unit` hook (`kernel.game.UnitRemoval`, issue 14, item 5): a unit taken
out of play is eliminated as combat eliminates one (off the map, no step left: NOM-9.24,
NOM-3.1), so the position check accepts the result where it refuses a unit merely off the map;
and with it the witness shrink takes units off a real witness's set-up.

The witness is one guided play found for `combat_grouping` (NOM-9.7) under the JA preset: four
actions, after which `many_to_many` may declare a combat `one_defender` may not. Under a second
in all beyond the imports (a handful of Z3 declarations and a few dozen replays).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from kernel.errors import WargameError
from kernel.game import UnitRemoval
from kernel.roles import AssembledGame
from solvers.checking.differences import compare, start_state
from solvers.checking.explore import reading_variant
from solvers.checking.shrink import shrink, without_unit
from solvers.checking.side_by_side import along
from specs.nomonhan.game import Nomonhan
from specs.nomonhan.rules.state import NomonhanState
from tests.removed import removed_units
from tools import playlog
from tools.cli import commands as cli
from tools.registry import get_game

GAME: AssembledGame[Any, Any] = get_game("nomonhan")
_HOOK = GAME.without_unit
assert _HOOK is not None
HOOK: Callable[[Any, str], Any] = _HOOK


def _typed(game: Nomonhan) -> UnitRemoval[NomonhanState]:
    """Checked by mypy: the game implements the hook as `kernel.game` documents it."""
    return game


# guided play's witness for combat_grouping (preset ja): after these, JP-KOB may attack both
# SU-36-149 and SU-9 under many_to_many only
LOG = (
    {"type": "move", "unit": "JP-3TK", "to": "0409"},
    {"type": "move", "unit": "JP-4TK", "to": "0109"},
    {"type": "move", "unit": "JP-KOB", "to": "0305"},
    {"type": "end_phase"},
)
VA = reading_variant(GAME.catalogue, "ja", "combat_grouping", "many_to_many")
VB = reading_variant(GAME.catalogue, "ja", "combat_grouping", "one_defender")


def _artillery() -> str:
    art = GAME.rules.board.data.artillery  # type: ignore[attr-defined]
    assert art is not None
    return str(art.id)


@pytest.mark.parametrize("preset", sorted(GAME.catalogue.presets))
def test_every_unit_on_the_set_up_map_is_eliminated_into_an_accepted_position(
    preset: str,
) -> None:
    """Each on-map unit of the set-up: eliminated (no hex, no step), everything else as it
    was, and the codec (with its position check) reads the result back; only the Artillery
    is refused, since its elimination ends the game (NOM-4.1)."""
    state = GAME.initial_state(GAME.catalogue.preset(preset))
    on_map = [u.id for u in state.units if u.hex is not None]
    assert len(on_map) >= 5
    for uid in on_map:
        got = HOOK(state, uid)
        if uid == _artillery():
            assert got is None  # NOM-4.1: the game would be over
            continue
        assert got is not None, uid
        assert got.unit(uid).hex is None and got.unit(uid).steps == 0
        assert [u for u in got.units if u.id != uid] == [u for u in state.units if u.id != uid]
        assert GAME.state_from_json(GAME.state_to_json(got)) == got
        # the JSON edit alone (off the map, steps kept) is a position the rules refuse
        index = next(i for i, u in enumerate(state.units) if u.id == uid)
        with pytest.raises(WargameError):
            GAME.state_from_json(without_unit(GAME.state_to_json(state), index))


def test_a_unit_off_the_map_or_unknown_cannot_be_taken_out() -> None:
    state = GAME.initial_state(VA)
    waiting = next(u.id for u in state.units if u.hex is None)  # a reinforcement (NOM-3.4)
    assert HOOK(state, waiting) is None
    assert HOOK(state, "NO-SUCH-UNIT") is None
    once = HOOK(state, "JP-3TK")
    assert once is not None and HOOK(once, "JP-3TK") is None  # eliminated already


def test_a_real_witness_shrinks_to_a_set_up_with_fewer_units_and_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    w = along(GAME, VA, VB, [GAME.action_from_json(a) for a in LOG], "guided play")
    assert w is not None and w.log == LOG and w.difference.kind == "actions"
    small, replays = shrink(GAME, VA, VB, w)
    assert small.start is not None and len(small.log) <= len(LOG)
    gone = removed_units(GAME.state_to_json(GAME.initial_state(VA)), small.start)
    assert gone and _artillery() not in gone and small.units < w.units
    assert 0 < replays <= 120 + 60
    # from its start, the log replays under both readings to the same kind of difference
    a, b = start_state(GAME, VA, small.start), start_state(GAME, VB, small.start)
    for data in small.log:
        action = GAME.action_from_json(data)
        a, b = GAME.apply(a, action), GAME.apply(b, action)  # raises if illegal under either
    assert GAME.state_to_json(a) == small.state
    diff = compare(GAME, a, b)
    assert diff is not None and diff.kind == w.difference.kind == small.difference.kind
    assert (diff.only_a, diff.only_b) == (small.difference.only_a, small.difference.only_b)
    # the units are eliminated as the rules eliminate them: no step left
    for uid in gone:
        assert start_state(GAME, VA, small.start).unit(uid).steps == 0
    # `wargame play --replay` replays its log file from the start
    log = playlog.position_log(GAME, VA, small.log, small.state, small.start)
    path = tmp_path / "witness.json"
    path.write_text(json.dumps(log.to_json()), encoding="utf-8")
    assert cli.main(["play", "nomonhan", "--replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "play starts from the log's own position (its start)" in out


def test_without_the_hook_no_unit_leaves_the_set_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """The JSON edit alone: every start it makes is refused (NOM-3.1), so the same witness
    keeps every unit."""
    w = along(GAME, VA, VB, [GAME.action_from_json(a) for a in LOG], "guided play")
    assert w is not None
    monkeypatch.setattr(GAME, "without_unit", None)
    small, _ = shrink(GAME, VA, VB, w)
    assert small.start is None and small.units == w.units


def test_the_registered_game_is_a_unit_removal() -> None:
    assert isinstance(GAME.rules, Nomonhan)
    assert callable(_typed(GAME.rules).without_unit)
