"""The witness check every explorer test uses (`tools.testing.witnesses`) passes a true
witness and refuses one whose log, end or difference was changed."""

from __future__ import annotations

import attrs
import pytest

from solvers.checking.differences import Difference, Finding
from solvers.checking.explore import differential
from tools.registry import get_game
from tools.testing.witnesses import assert_witness_holds

NOMONHAN = get_game("nomonhan")


@pytest.fixture(scope="module")
def found() -> Finding:
    """NOM-9.7: combat_grouping's witness, found by guided play within 12 games."""
    option = NOMONHAN.catalogue.option("combat_grouping")
    [f] = differential(NOMONHAN, option, budget=None, games=12)
    assert f.verdict == "differ" and f.witness is not None
    return f


def test_a_true_witness_holds(found: Finding) -> None:
    assert_witness_holds(NOMONHAN, found)


def test_a_witness_cut_short_is_refused(found: Finding) -> None:
    w = found.witness
    assert w is not None and w.log
    with pytest.raises(AssertionError):
        assert_witness_holds(NOMONHAN, attrs.evolve(found, witness=attrs.evolve(w, log=w.log[:-1])))


def test_a_witness_with_another_difference_is_refused(found: Finding) -> None:
    w = found.witness
    assert w is not None
    other = Difference("to_move", ("JA",), ("SO",), "planted")
    if w.difference.kind == "to_move":
        other = Difference("legal_actions", ("x",), (), "planted")
    with pytest.raises(AssertionError):
        assert_witness_holds(
            NOMONHAN, attrs.evolve(found, witness=attrs.evolve(w, difference=other))
        )


def test_no_witness_is_refused(found: Finding) -> None:
    with pytest.raises(AssertionError):
        assert_witness_holds(NOMONHAN, attrs.evolve(found, witness=None))
