"""Stacking: one side per hex, no limit, and the defenders' limit chosen by the owner
(SHU-STACK.1 to SHU-STACK.3), from the solver and held to the plain oracle."""

from __future__ import annotations

import itertools

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernel.errors import ImpossiblePosition
from specs.shumshu.rules.actions import Defend, Done, Join
from specs.shumshu.rules.combat import defender_choices, defender_choices_oracle
from specs.shumshu.rules.state import JP, Stage
from tests.shumshu.positions import GAME, OPTIONS, B, apply_all, h, legal, position, refused

# JP-IB4 comes from Paramushir: the position is of turn 2, after turn 1's arrival (SHU-REINF.2)
FIVE = {u: "0602" for u in ("JP-IB1", "JP-IB2", "JP-IB3", "JP-TK1", "JP-IB4")}


def test_shu_stack_1_only_one_side_in_a_hex() -> None:
    """SHU-STACK.1: a position with both sides in one hex is refused."""
    s = position({"RU-1-138": "0602", "JP-IB1": "0702"}, check=False)
    bad = attrs.evolve(
        s, units=tuple(attrs.evolve(p, hex=h("0602")) if p.id == "JP-IB1" else p for p in s.units)
    )
    with pytest.raises(ImpossiblePosition) as exc:
        GAME.check_position(bad)
    assert "SHU-STACK.1" in exc.value.clauses


def test_shu_stack_3_four_japanese_defend_chosen_by_their_owner() -> None:
    """SHU-STACK.3, AMB-SHU-11: of five Japanese units, four defend; the Japanese choose."""
    s = apply_all(
        position({**FIVE, "RU-1-138": "0502"}, turn=2), Done(), Join("RU-1-138", h("0602")), Done()
    )
    assert s.stage is Stage.DEFENDERS and GAME.to_move(s) == JP
    choices = [a.units for a in legal(s) if isinstance(a, Defend)]
    assert len(choices) == 5 and all(len(c) == 4 for c in choices)
    assert refused(s, Defend(("JP-IB1", "JP-IB2", "JP-IB3"))) == ("SHU-STACK.3",)
    t = apply_all(s, Defend(("JP-IB1", "JP-IB2", "JP-IB3", "JP-IB4")))
    assert t.fight is not None and "JP-TK1" not in t.fight.defenders


def test_shu_stack_3_three_russians_defend() -> None:
    """SHU-STACK.3: at most three Russian units defend a hex."""
    four = {u: "0602" for u in ("RU-1-138", "RU-2-138", "RU-3-138", "RU-NI")}
    s = position({**four, "JP-IB1": "0702"}, side=JP)
    assert all(len(c) == 3 for c in defender_choices(B, s, h("0602")))
    assert len(defender_choices(B, s, h("0602"))) == 4


def test_shu_stack_3_decoys_never_defend() -> None:
    """SHU-STACK.3, AMB-SHU-30: decoys do not count as defenders."""
    s = position({"JP-IB1": "0602", "JP-DC1": "0602", "RU-1-138": "0502"})
    assert defender_choices(B, s, h("0602")) == [("JP-IB1",)]


SIDE_UNITS = {
    "JP": ("JP-IB1", "JP-IB2", "JP-IB3", "JP-TK1", "JP-IB4", "JP-IB5", "JP-DC1"),
    "RU": ("RU-1-138", "RU-2-138", "RU-3-138", "RU-NI", "RU-ENG", "RU-373"),
}


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_shu_stack_3_solver_equals_oracle(data: st.DataObject) -> None:
    """SHU-STACK.3: the solver's defender choices equal the plain enumeration, under every
    reading of `defender_count`, `regiment_counts` and `non_defenders`."""
    side = data.draw(st.sampled_from(["JP", "RU"]))
    units = data.draw(st.lists(st.sampled_from(SIDE_UNITS[side]), min_size=1, unique=True))
    options = {
        o: data.draw(st.sampled_from(OPTIONS[o]))
        for o in ("defender_count", "regiment_counts", "non_defenders")
    }
    # turn 4: the AM turns have brought JP-IB4 and JP-IB5 from Paramushir (SHU-REINF.2)
    s = position({u: "0602" for u in units}, options=options, turn=4)
    assert defender_choices(B, s, h("0602")) == defender_choices_oracle(B, s, h("0602"))
    for kept in itertools.islice(defender_choices(B, s, h("0602")), 3):
        assert not any(B.unit(u).is_decoy for u in kept)
