"""The log names the clause that did what it reports: an elimination by AE is SHU-CRT.8, by a
failed Banzai! SHU-BANZAI.2, by a lander's worst roll SHU-LAND.3, by No Retreat! on a DR
SHU-LAND.8; an attacker's disruption is SHU-CRT.7 (AD), a defender's SHU-CRT.6 (D); a
Japanese unit recovers by SHU-DISRUPT.3, a Russian one by SHU-DISRUPT.4."""

from __future__ import annotations

from specs.shumshu.rules.actions import (
    Action,
    Commit,
    Done,
    Embark,
    Hold,
    Join,
    LandAt,
    Roll,
    Strike,
)
from specs.shumshu.rules.state import JP, RU, ShumshuState, Stage
from specs.shumshu.rules.units import update
from tests.shumshu.positions import GAME, B, apply_all, h, position


def _events(s: ShumshuState, action: Action) -> list[str]:
    return list(GAME.events(s, action, GAME.apply(s, action)))


def _before_roll(
    units: dict[str, str], joins: list[tuple[str, str]], side: str = RU, **commit: bool
) -> ShumshuState:
    """The one combat of `joins` up to its die: No Retreat! only if `hold`, then the
    attacker's commitment."""
    hold = commit.pop("hold", False)
    s = apply_all(position(units, side=side), Done())
    ordered = sorted(joins, key=lambda j: B.order[j[0]])  # joins go in data order
    s = apply_all(s, *(Join(unit, h(where)) for unit, where in ordered), Done())
    if s.stage is Stage.HOLD:
        s = apply_all(s, Hold(hold))
    if s.stage is Stage.COMMIT:
        s = apply_all(s, Commit(**commit))
    assert s.stage is Stage.ROLL
    return s


def test_shu_crt_8_an_attacker_eliminated_by_ae() -> None:
    """SHU-CRT.8: RU-1-138 (2) against JP-IB1 (3), 1:2: a 6 (the Russians' worst) is AE."""
    s = _before_roll({"RU-1-138": "0502", "JP-IB1": "0602"}, [("RU-1-138", "0602")])
    assert "RU-1-138 is eliminated (SHU-CRT.8)" in _events(s, Roll(6))


def test_shu_banzai_2_a_banzai_attack_on_d_or_worse() -> None:
    """SHU-BANZAI.2: JP-IB1 (2) Banzai! against RU-1-138 (2), 1:1; a 1 (+1: 2, the Japanese
    read the left number) is AD: the attacker is eliminated by Banzai!, not by the table."""
    s = _before_roll(
        {"JP-IB1": "0602", "RU-1-138": "0502"}, [("JP-IB1", "0502")], side=JP, banzai=True
    )
    assert "JP-IB1 is eliminated (SHU-BANZAI.2)" in _events(s, Roll(1))


def test_shu_crt_7_and_6_who_is_disrupted_by_what() -> None:
    """SHU-CRT.7 for an attacker on AD, SHU-CRT.6 for a defender on D (RU-1-138 and RU-2-138
    (4) against JP-IB1 and JP-IB2 (6), 1:2: the Russians' 3 is D, 4 is AD)."""
    units = {"RU-1-138": "0502", "RU-2-138": "0502", "JP-IB1": "0602", "JP-IB2": "0602"}
    s = _before_roll(units, [("RU-1-138", "0602"), ("RU-2-138", "0602")])
    assert "JP-IB1 is disrupted (SHU-CRT.6)" in _events(s, Roll(3))
    assert "RU-1-138 is disrupted (SHU-CRT.7)" in _events(s, Roll(4))


def test_shu_land_3_a_lander_lost_to_the_worst_roll() -> None:
    """SHU-LAND.3: the worst roll (a 6 for the Russians) eliminates the lander."""
    s = position({"JP-IB1": "0205"}, stage=Stage.SAIL)
    s = apply_all(s, LandAt(h("0801")), Embark("RU-1-138"), Done(), Strike(False))
    assert "RU-1-138 is eliminated (SHU-LAND.3)" in _events(s, Roll(6))


def test_shu_land_8_no_retreat_turns_dr_into_elimination() -> None:
    """SHU-LAND.8: with No Retreat! declared a DR eliminates the defenders (RU-138 (6) and
    RU-NI (3) against JP-IB1 (3), 3:1: the Russians' 2 is DR)."""
    units = {"RU-138": "0502", "RU-NI": "0502", "JP-IB1": "0602"}
    s = _before_roll(units, [("RU-138", "0602"), ("RU-NI", "0602")], hold=True)
    assert "JP-IB1 is eliminated (SHU-LAND.8)" in _events(s, Roll(2))


def test_shu_disrupt_3_and_4_recovery_by_side() -> None:
    """SHU-DISRUPT.3 for a Japanese unit, SHU-DISRUPT.4 for a Russian one."""
    s = position({"RU-1-138": "0801", "JP-IB1": "0205"}, side=JP, disrupted=["JP-IB1", "RU-1-138"])
    after = update(s, ["JP-IB1", "RU-1-138"], disrupted=False, recover=0)
    lines = list(GAME.events(s, Done(), after))
    assert "JP-IB1 recovers (SHU-DISRUPT.3)" in lines
    assert "RU-1-138 recovers (SHU-DISRUPT.4)" in lines
