"""The owner chooses the top unit of his stacks, the one the enemy sees (SNC-6.3.1, SNC-6.4.1;
AMB-SNC-40 kernel note)."""

from __future__ import annotations

import pytest

from kernel.errors import IllegalAction
from kernel.hexes import hex_name
from specs.snc1937.actions import Declare, Top
from specs.snc1937.flow import stacks, top_first
from specs.snc1937.rules import SNC
from specs.snc1937.state import CH, JP, Order, SNCState
from specs.snc1937.variants import CATALOGUE

GAME = SNC()


def chinese_move_phase() -> SNCState:
    s = GAME.initial_state(CATALOGUE.preset("standard"))
    return GAME.apply(s, Declare(Order.MOVE_FIGHT))


def seen_by(s: SNCState, side: str, h: str) -> list[str]:
    (stack,) = [st for st in GAME.observe(s, side)["stacks"] if st["hex"] == h]
    return list(stack["units"])


def test_amb_snc_40_the_owner_puts_a_unit_on_top_and_the_enemy_sees_it() -> None:
    """AMB-SNC-40, SNC-6.3.1: the Chinese put the second unit of a stack on top; the Japanese
    then see that unit and no other there; the stack's order is otherwise insignificant
    (SNC-6.4.1): nothing else changes."""
    s = chinese_move_phase()
    h, units = next((h, us) for h, us in sorted(stacks(s.where).items()) if len(us) > 1)
    if GAME.tables.spec[units[0]].side != CH:
        pytest.skip("the set-up has no Chinese stack")  # pragma: no cover
    shown = top_first(GAME.tables, s, units)
    assert seen_by(s, JP, hex_name(h)) == [shown[0]]
    below = shown[1]
    assert Top(below) in GAME.legal_actions(s)
    after = GAME.apply(s, Top(below))
    assert seen_by(after, JP, hex_name(h)) == [below]
    assert seen_by(after, CH, hex_name(h))[0] == below
    assert after.where == s.where and after.side == s.side
    assert Top(below) not in GAME.legal_actions(after)  # already on top
    assert GAME.state_from_json(GAME.state_to_json(after)) == after


def test_amb_snc_40_only_the_owner_and_only_his_stacks() -> None:
    """AMB-SNC-40: a player arranges only his own stacks, and a lone unit is no stack."""
    s = chinese_move_phase()
    st = stacks(s.where)
    japanese = next(u for us in st.values() for u in us[1:] if GAME.tables.spec[u].side == JP)
    with pytest.raises(IllegalAction):
        GAME.apply(s, Top(japanese))
    alone = next(us[0] for us in st.values() if len(us) == 1)
    assert Top(alone) not in GAME.legal_actions(s)
