"""Japanese overruns played through the Game API (SNC-9.6.1 to SNC-9.6.9; AMB-SNC-25,
AMB-SNC-26): offered in Move phases only, paid, fought with the extra 1L and fire support, then
the group moves into the cleared hex, moves on, tries again or stops."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from kernel.errors import IllegalAction
from kernel.hexes import Hex, parse_hex
from kernel.roles import AssembledGame
from specs.snc1937 import PACKAGE
from specs.snc1937.data.variants import CATALOGUE
from specs.snc1937.formal.position_domains import garrison_pool
from specs.snc1937.rules import tables as flow
from specs.snc1937.rules.actions import (
    Action,
    Declare,
    Done,
    Join,
    Move,
    Overrun,
    Roll,
    Strike,
    Support,
)
from specs.snc1937.rules.state import JP, Order, SNCState, Step
from tests.snc1937.assembled import rules_of

GAME: AssembledGame[SNCState, Action] = PACKAGE.assemble()
RULES = rules_of(GAME)
ELEVENTH = ("JP-11D-1", "JP-11D-2", "JP-11D-3", "JP-11D-4")


def H(text: str) -> Hex:
    return parse_hex(text)


def position(
    order: Order = Order.MOVE_MOVE, turn: int = 7, preset: str = "standard", **readings: str
) -> SNCState:
    """The 9.6 example (SNC-9.6.9): the 11th Division in 2806, one Chinese division in 2707
    (marsh) and three in Chang Sho (2606, town and marsh); the Japanese player's First
    Operations Phase of GT 7 under `order`."""
    s = GAME.initial_state(CATALOGUE.variant(preset, readings))
    where = dict.fromkeys(ELEVENTH, H("2806"))
    where.update({"CH-3D": H("2707"), "CH-6D": H("2606"), "CH-7D": H("2606")})
    where.update({"CH-51D": H("2606"), "JP-G-SHANGHAI": H("3512")})
    dead = frozenset(RULES.tables.spec) - set(where) - garrison_pool(RULES.tables)
    s = attrs.evolve(
        s,
        where=tuple(sorted(where.items())),
        trt=(),
        dead=dead,
        turn=turn,
        side=JP,
        jp_control=frozenset({H("3512")}),
    )
    return GAME.apply(s, Declare(order))


def run(s: SNCState, *actions: Any) -> SNCState:
    for a in actions:
        s = GAME.apply(s, a)
    return s


def overruns(s: SNCState) -> list[Overrun]:
    return [a for a in GAME.legal_actions(s) if isinstance(a, Overrun)]


def by(units: tuple[str, ...], target: str) -> tuple[Action, ...]:
    """The overrun of `target` by `units` with no move under way: opened, its group joined unit
    by unit, launched (SNC-9.6.2)."""
    return (Overrun(H(target)), *(Join(u) for u in units), Strike())


def losses(s: SNCState) -> SNCState:
    """Take the CRT's step losses, the first listed choice each time."""
    while s.step in (Step.LOSS_D, Step.LOSS_A):
        s = GAME.apply(s, GAME.legal_actions(s)[0])
    return s


def test_snc_9_6_9_the_example_overrun_through_the_api() -> None:
    """SNC-9.6.9: the 11th overruns 2707 (marsh): 1L for the marsh, 1L for the overrun, an
    artillery marker 1R; a 3 eliminates the Chinese division and reduces one regiment, and the
    11th stands in 2707."""
    s = position()
    assert Overrun(H("2707")) in overruns(s)
    s = run(s, *by(ELEVENTH, "2707"))
    assert s.step == Step.SUPPORT_A and s.combat is not None and s.combat.overrun
    assert s.mp == 2 * 8 - 2 * 3  # marsh 2 MP + 1 (SNC-9.6.1; overrun_cost=entry_plus_one)
    s = run(s, Support("artillery"), Done())
    assert s.combat is not None
    odds = flow.battle(RULES.tables, s, s.combat)
    why = [(x.columns, x.clause) for x in odds.shifts]
    assert why == [(-1, "SNC-10.4.1.3"), (-1, "SNC-9.6.5"), (1, "SNC-11.1.2")]
    assert odds.column == odds.base - 1  # 5:1 in the text, shifted to 4:1
    s = losses(run(s, Roll(3)))
    assert "CH-3D" in s.dead
    assert len(s.reduced & set(ELEVENTH)) == 1
    assert all(flow.locations(s.where)[u] == H("2707") for u in ELEVENTH)
    assert H("2707") in s.jp_control  # SNC-3.2.2


def test_snc_9_6_7_in_a_chinese_zoc_only_another_overrun_or_stop() -> None:
    """SNC-9.6.7: cleared 2707 lies in Chang Sho's ZOC, so the 11th may not move on; Chang Sho
    is a town, so no overrun is left either (SNC-9.6.1): the only action is to stop."""
    s = losses(run(position(), *by(ELEVENTH, "2707"), Done(), Roll(3)))
    assert s.overrun_next == "again" and s.moving == ELEVENTH
    assert GAME.legal_actions(s) == [Done()]
    with pytest.raises(IllegalAction):
        GAME.apply(s, Move(ELEVENTH, H("2708")))
    s = GAME.apply(s, Done())
    assert not s.moving and set(ELEVENTH) <= s.done and s.overrun_next == ""


def test_snc_9_6_8_chinese_remain_repeat_against_the_same_hex_or_stop() -> None:
    """SNC-9.6.8: a 1 leaves the Chinese in 2707: the 11th stays in 2806 and may pay 1 more MP
    to try 2707 again (overrun_repeat_cost=one_mp), or stop; it may not move."""
    s = losses(run(position(), *by(ELEVENTH, "2707"), Done(), Roll(1)))
    survivors = tuple(u for u in ELEVENTH if u in flow.locations(s.where))
    assert s.overrun_next == "repeat" and s.overrun_target == H("2707")
    assert all(flow.locations(s.where)[u] == H("2806") for u in survivors)
    assert GAME.legal_actions(s) == [Overrun(H("2707")), Done()]
    before = s.mp
    s = GAME.apply(s, Overrun(H("2707")))
    assert s.mp == before - 2  # one more MP
    assert s.combat is not None and s.combat.attackers == survivors  # the group keeps its units


def test_snc_9_6_1_overruns_only_in_a_move_phase() -> None:
    """SNC-9.6.1, SNC-5.3.2: no overrun in a Fight phase; only an attack."""
    s = position(order=Order.FIGHT_FIGHT)
    assert overruns(s) == []
    with pytest.raises(IllegalAction, match=r"SNC-9\.6\.1"):
        GAME.apply(s, Overrun(H("2707")))


def test_snc_9_6_1_no_overrun_of_a_town_or_by_too_few_mp() -> None:
    """SNC-9.6.1: Chang Sho (2606) is a town; never overrun, whatever the MP."""
    s = position()
    assert all(a.target != H("2606") for a in overruns(s))
    with pytest.raises(IllegalAction, match=r"SNC-9\.6\.1"):
        GAME.apply(s, Overrun(H("2606")))


def test_snc_9_6_2_any_group_of_the_start_hex_may_overrun_together() -> None:
    """SNC-9.6.2: the overrunning units start in one hex and move together: the group is
    declared unit by unit from 2806, any of them (a pair here); a unit of another hex may not
    join it (the Shanghai garrison is static and elsewhere)."""
    s = run(position(), Overrun(H("2707")))
    assert s.step == Step.JOIN and s.combat is not None and s.combat.overrun
    assert GAME.legal_actions(s) == [Join(u) for u in ELEVENTH]  # no Strike before a unit
    s = run(s, Join(ELEVENTH[2]), Join(ELEVENTH[0]))
    assert Strike() in GAME.legal_actions(s)
    with pytest.raises(IllegalAction, match=r"SNC-9\.6\.2"):
        GAME.apply(s, Join("JP-G-SHANGHAI"))
    s = run(s, Strike())
    assert s.moving == (ELEVENTH[2], ELEVENTH[0]) and s.step == Step.SUPPORT_A


def test_amb_snc_25_overrun_cost_one_mp_reading() -> None:
    """AMB-SNC-25 overrun_cost=one_mp: the attempt costs 1 MP, not the marsh's 2 + 1."""
    s = run(position(overrun_cost="one_mp"), *by(ELEVENTH, "2707"))
    assert s.mp == 2 * 8 - 2


def test_amb_snc_26_once_per_hex_forbids_a_second_overrun_of_2707() -> None:
    """AMB-SNC-26 repeated_overruns=once_per_hex: a hex overrun this phase is not offered to
    another group; under `exempt` it is."""
    for reading, offered in (("exempt", True), ("once_per_hex", False)):
        s = position(repeated_overruns=reading)
        s = losses(run(s, *by(ELEVENTH[:1], "2707"), Done(), Roll(1)))
        assert "CH-3D" not in s.dead
        if s.moving:
            s = run(s, Done())  # the first regiment stops in 2806
        again = [a for a in overruns(s) if a.target == H("2707")]
        assert bool(again) == offered, reading
        if offered:  # a new group, without the regiment that has moved (SNC-9.6.2)
            joins = GAME.legal_actions(run(s, *again))
            assert Join(ELEVENTH[0]) not in joins and Join(ELEVENTH[1]) in joins


def test_snc_9_6_overrun_state_round_trips_through_json() -> None:
    """The overrun's sequel and hexes are part of the state (SNC-9.6.7, SNC-9.6.8)."""
    s = losses(run(position(), *by(ELEVENTH, "2707"), Done(), Roll(1)))
    assert GAME.state_from_json(GAME.state_to_json(s)) == s
    declaring = run(position(), Overrun(H("2707")), Join(ELEVENTH[1]))
    assert GAME.state_from_json(GAME.state_to_json(declaring)) == declaring
    for a in by(ELEVENTH, "2707"):
        assert GAME.action_from_json(GAME.action_to_json(a)) == a


def test_snc_10_5_0_1_the_play_log_tells_the_odds_shifts_and_die() -> None:
    """SNC-10.5.0.1, SNC-9.6.5: the roll's event line gives the strengths, the odds, each
    shift with its clause, the final column, the die and the losses."""
    s = run(position(), *by(ELEVENTH, "2707"), Support("artillery"), Done())
    after = GAME.apply(s, Roll(3))
    (line,) = [e for e in GAME.events(s, Roll(3), after) if e.startswith("overrun")]
    assert "SNC-9.6.5" in line and "SNC-10.4.1.3" in line and "die 3" in line
    assert s.combat is not None
    assert f"final {flow.battle(RULES.tables, s, s.combat).label}" in line


def test_overrun_entry_free_or_paid_under_one_mp() -> None:
    """overrun_entry (found here), under overrun_cost=one_mp: clearing 2707 (marsh, 2 MP) leaves
    the 11th 7 MP when the advance into the hex is free, 5 MP when it pays the entry."""
    for reading, mp in (("free", 2 * 7), ("pays_entry", 2 * 5)):
        s = position(overrun_cost="one_mp", overrun_entry=reading)
        s = losses(run(s, *by(ELEVENTH, "2707"), Done(), Roll(3)))
        assert flow.locations(s.where)["JP-11D-1"] == H("2707")
        assert s.mp == mp, reading


def _overstacked_overrun(preset: str = "standard", **readings: str) -> SNCState:
    """A Move phase (SNC-5.3.2): JP-3D-1 and JP-3D-2 start in 2906 and move together into 2806,
    where the 11th Division stands (six units there mid-move, SNC-6.2.1's limit is five), then
    overrun 2707 (SNC-9.6.2, SNC-9.6.3); a 2 leaves CH-3D in 2707 and reduces both regiments.
    Returned once the overrun's losses are taken."""
    s = position(Order.MOVE_MOVE, 7, preset, **readings)
    where = dict(s.where) | dict.fromkeys(("JP-3D-1", "JP-3D-2"), H("2906"))
    s = attrs.evolve(s, where=tuple(sorted(where.items())), dead=s.dead - {"JP-3D-1", "JP-3D-2"})
    pair = ("JP-3D-1", "JP-3D-2")
    s = run(s, Move(pair, H("2806")), Overrun(H("2707")), Done(), Roll(2))
    s = losses(s)
    here = [u for u, x in s.where if x == H("2806")]
    assert len(here) == 6 and "CH-3D" not in s.dead  # the defenders survive
    return s


@pytest.mark.parametrize("preset", ["standard", "printed"])
def test_snc_6_0_2_an_overrun_in_a_move_phase_forces_no_cull(preset: str) -> None:
    """SNC-6.0.2: stacking limits "only apply" at the end of a Move phase (a) and after each
    combat of a Fight phase (b); overrun_stacking=end_of_phase (both presets, AMB-SNC-8). The
    overrun's defenders survive with six Japanese units in 2806 mid-move: no cull is demanded
    (SNC-6.0.4), the pair may try again or stop (SNC-9.6.8), a regiment of the 11th may then
    move out, and check (a) at the phase's end covers 2806: with all six still there the
    Japanese must cull; with one moved out nothing is over-stacked."""
    s = _overstacked_overrun(preset)
    assert s.step == Step.MAIN and s.stack_hexes == () and s.checked == ()
    assert GAME.legal_actions(s) == [Overrun(H("2707")), Done()]
    s = run(s, Done())  # the pair stops in 2806 (SNC-9.6.8)
    assert s.step == Step.MAIN and not s.moving
    assert Move(("JP-11D-1",), H("2906")) in GAME.legal_actions(s)
    ended = run(s, Done())  # SNC-6.0.2 (a): the check at the end of the Move phase
    assert ended.step == Step.STACK and ended.stack_hexes == (H("2806"),)
    assert GAME.to_move(ended) == JP
    out = run(s, Move(("JP-11D-1",), H("2906")), Done(), Done())
    assert out.step != Step.STACK and H("2806") in out.checked


def test_amb_snc_8_overrun_stacking_after_each_overrun_reading() -> None:
    """overrun_stacking=after_each_overrun (AMB-SNC-8): the overrun is a combat (SNC-9.6.3)
    and check (b) of SNC-6.0.2 follows it: 2806 must be culled at once (SNC-6.0.4)."""
    s = _overstacked_overrun(overrun_stacking="after_each_overrun")
    assert s.step == Step.STACK and s.stack_hexes == (H("2806"),)
    assert GAME.to_move(s) == JP
