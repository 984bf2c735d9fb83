"""The history kit itself (tools/testing/histories.py): a twin renames only the identities it is
given, keeps every other value as it was, and a comparison refuses a history the rules refuse."""

from __future__ import annotations

import pytest

from specs.rattenkrieg.rules.actions import Discard, Play
from specs.shumshu.rules.actions import Place
from tests.hidden.twins import SHU, fixed_setup_history
from tests.shumshu.positions import h
from tools.testing.histories import History, compare, rename, swap, twin


def test_a_renaming_keeps_hexes_and_sets_and_renames_only_its_identities() -> None:
    names = swap("JP-TK1", "JP-DC1")
    placed = rename(Place("JP-TK1", h("0404")), names)
    assert placed == Place("JP-DC1", h("0404")) and type(placed.hex) is type(h("0404"))
    assert rename(Place("JP-IB1", h("0404")), names) == Place("JP-IB1", h("0404"))
    cards = swap("2H", "KS")
    assert rename(Discard(frozenset({"2H", "3C"})), cards) == Discard(frozenset({"KS", "3C"}))
    assert rename(Play("KS", support=True), cards) == Play("2H", support=True)


def test_a_twin_renames_every_step_and_keeps_the_start() -> None:
    history = fixed_setup_history()
    other = twin(history, swap("JP-TK1", "JP-DC1"))
    assert other.start is history.start
    assert [a.unit for a in other.actions] == [
        "JP-IB1", "JP-IB2", "JP-IB3", "JP-DC1", "JP-TK1", "JP-DC2"
    ]  # fmt: skip


def test_a_history_the_rules_refuse_is_an_error_not_a_pass() -> None:
    history = fixed_setup_history()
    broken = History(history.start, (*history.actions[:2], history.actions[1]))
    with pytest.raises(ValueError, match="step 3"):
        compare(SHU, "RU", broken, broken, lambda s: True)
