"""The owner chooses the top unit of his stacks, the one the enemy sees (SNC-6.3.1, SNC-6.4.1;
AMB-SNC-40 kernel note)."""

from __future__ import annotations

import random

import attrs
import pytest

from kernel.errors import IllegalAction, ImpossiblePosition
from kernel.hexes import hex_name, parse_hex
from kernel.playout import play
from kernel.roles import AssembledGame
from solvers.checking.gaps import passive_agent
from specs.snc1937 import PACKAGE
from specs.snc1937.data.variants import CATALOGUE
from specs.snc1937.rules.actions import Action, Declare, Done, Top
from specs.snc1937.rules.state import CH, JP, Order, Phase, SNCState, Step
from specs.snc1937.rules.tables import stacks
from specs.snc1937.rules.top_unit import top_first
from tests.snc1937.assembled import rules_of

GAME: AssembledGame[SNCState, Action] = PACKAGE.assemble()
RULES = rules_of(GAME)


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
    if RULES.tables.spec[units[0]].side != CH:
        pytest.skip("the set-up has no Chinese stack")  # pragma: no cover
    shown = top_first(RULES.tables, s, units)
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
    japanese = next(u for us in st.values() for u in us[1:] if RULES.tables.spec[u].side == JP)
    with pytest.raises(IllegalAction):
        GAME.apply(s, Top(japanese))
    alone = next(us[0] for us in st.values() if len(us) == 1)
    assert Top(alone) not in GAME.legal_actions(s)


def test_amb_snc_40_each_unit_goes_on_top_once_a_phase_so_play_cannot_loop() -> None:
    """AMB-SNC-40, SNC-6.4.1: a unit goes on top at most once a phase (`topped`), so Top
    cannot repeat for ever: after the Chinese put the second unit on top and the first back,
    that stack offers no Top until the next phase, where each may go on top again."""
    s = chinese_move_phase()
    h, units = next((h, us) for h, us in sorted(stacks(s.where).items()) if len(us) > 1)
    first, second = top_first(RULES.tables, s, units)[:2]
    s = GAME.apply(GAME.apply(s, Top(second)), Top(first))
    assert s.topped == {first, second}
    assert seen_by(s, JP, hex_name(h)) == [first]
    offered = {a.unit for a in GAME.legal_actions(s) if isinstance(a, Top)}
    assert not offered & set(units[:2]) and not offered & {first, second}
    with pytest.raises(IllegalAction):
        GAME.apply(s, Top(second))
    assert GAME.state_from_json(GAME.state_to_json(s)) == s
    assert GAME.observe(s, CH)["topped"] == sorted(
        {first, second}, key=RULES.tables.order.__getitem__
    )
    s = GAME.apply(s, Done())  # the Move phase ends; the Reinforcement Phase begins
    assert (s.side, s.phase, s.step) == (CH, Phase.REINF, Step.MAIN)
    assert s.topped == frozenset()
    assert Top(second) in GAME.legal_actions(s)


def test_amb_snc_40_topped_is_checked_on_input() -> None:
    """AMB-SNC-40, SNC-6.3.1: a position whose `topped` names a unit its phasing player did not
    put on top is refused, naming the field."""
    s = chinese_move_phase()
    doc = GAME.state_to_json(s)
    japanese = next(u for u, _ in s.where if RULES.tables.spec[u].side == JP)
    doc["topped"] = [japanese]
    with pytest.raises(ImpossiblePosition) as err:
        GAME.state_from_json(doc)
    assert err.value.field == "topped"


def test_amb_snc_40_passive_play_ends_rather_than_topping_for_ever() -> None:
    """AMB-SNC-40: the passive agent (always the last legal action) once put two Japanese units
    on top of each other for ever in a Reinforcement Phase; with each unit on top at most once
    a phase the game now ends, by a rule's verdict, with no repeated position."""
    s = GAME.initial_state(CATALOGUE.preset("standard"))
    result = play(
        GAME, s, random.Random(1), dict.fromkeys(GAME.sides, passive_agent), max_steps=2000
    )
    assert result.lasso is None
    assert result.stop == "ended" and result.final.result is not None


def test_amb_snc_40_a_game_that_ends_mid_phase_keeps_no_unit_put_on_top() -> None:
    """AMB-SNC-40, SNC-4.1.1: `topped` lasts a phase; a sudden-death end in the middle of one
    is a new phase too, so the final position keeps none (before, the rules led to a final
    position the position check refused: the mutation test found it)."""
    s = chinese_move_phase()
    units = next(us for us in stacks(s.where).values() if len(us) > 1)
    s = GAME.apply(s, Top(top_first(RULES.tables, s, units)[1]))
    assert s.topped
    # the Japanese have lost Shanghai (a position the check accepts): the next action ends it
    lost = attrs.evolve(s, jp_control=s.jp_control - {parse_hex("3512")})
    lost = GAME.state_from_json(GAME.state_to_json(lost))
    after = GAME.apply(lost, GAME.legal_actions(lost)[0])
    assert after.phase == Phase.OVER and after.result is not None
    assert after.result.clause == "SNC-4.1.1" and not after.topped
    assert GAME.state_from_json(GAME.state_to_json(after)) == after
