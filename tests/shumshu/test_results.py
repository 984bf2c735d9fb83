"""Combat results applied: DE, DR, DW, D, AD, AE, routs, withdrawals, No Retreat!, Banzai!
and the advance (SHU-CRT.2 to SHU-CRT.8, SHU-LAND.8, SHU-LAND.9, SHU-BANZAI.2,
SHU-COMBAT.13)."""

from __future__ import annotations

from specs.shumshu.rules.actions import Advance, Retreat
from specs.shumshu.rules.state import JP, RU, Loc, Stage
from tests.shumshu.positions import GAME, apply_all, attack, h, legal, position

# 5 against 3 in clear 0602, out of both artillery ranges: 3:2 (faces for the Russians:
# 1 DR, 2 DW, 3 DW, 4 D, 5 AD, 6 AD).
BASE = {"RU-NI": "0502", "RU-1-138": "0502", "JP-IB1": "0602", "JP-IB2": "0205"}
JOINS = [("RU-NI", "0602"), ("RU-1-138", "0602")]


def test_shu_crt_4_dr_disrupts_and_the_attacker_routs() -> None:
    """SHU-CRT.4: DR: the defenders are disrupted and the attacker moves them one hex."""
    s = attack(position(BASE), JOINS, 1)
    assert s.stage is Stage.RETREAT and GAME.to_move(s) == RU
    assert s.piece("JP-IB1").disrupted
    assert {a.to for a in legal(s) if isinstance(a, Retreat)} == {
        h(x) for x in ("0702", "0703", "0603", "0503")
    }
    s = apply_all(s, Retreat("JP-IB1", h("0503")))
    assert s.piece("JP-IB1").hex == h("0503")


def test_shu_crt_5_dw_disrupts_and_the_defender_withdraws() -> None:
    """SHU-CRT.5: DW: the defenders are disrupted and their owner moves them one hex."""
    s = attack(position(BASE), JOINS, 2)
    assert s.stage is Stage.RETREAT and GAME.to_move(s) == JP
    s = apply_all(s, Retreat("JP-IB1", h("0703")))
    assert s.piece("JP-IB1").hex == h("0703") and s.piece("JP-IB1").disrupted


def test_shu_crt_6_d_disrupts_in_place() -> None:
    """SHU-CRT.6: D: the defenders are disrupted and stay; the attackers do not advance."""
    s = attack(position(BASE), JOINS, 4)
    p = s.piece("JP-IB1")
    assert p.disrupted and p.hex == h("0602") and p.revealed
    assert s.stage is not Stage.ADVANCE and s.fight is None


def test_shu_crt_7_ad_disrupts_the_attackers() -> None:
    """SHU-CRT.7: AD: the attackers are disrupted."""
    s = attack(position(BASE), JOINS, 5)
    assert s.piece("RU-NI").disrupted and s.piece("RU-1-138").disrupted
    assert not s.piece("JP-IB1").disrupted


def test_shu_crt_8_ae_eliminates_the_attackers() -> None:
    """SHU-CRT.8: AE: the attackers are eliminated (1:3, a 4)."""
    s = position({"RU-1-138": "0502", "JP-IB1": "0602", "JP-IB2": "0602"})
    s = attack(s, [("RU-1-138", "0602")], 4)
    assert s.piece("RU-1-138").loc is Loc.GONE


def test_shu_crt_3_de_eliminates_the_defenders() -> None:
    """SHU-CRT.3: DE: all defenders are eliminated (7 against 2: 3:1, a 1)."""
    s = position({"RU-NI": "0502", "RU-1-138": "0502", "RU-2-138": "0503", "JP-TK1": "0602"})
    s = attack(s, [("RU-NI", "0602"), ("RU-1-138", "0602"), ("RU-2-138", "0602")], 1)
    assert s.piece("JP-TK1").loc is Loc.GONE


def test_shu_combat_13_victors_advance_into_the_hex_or_next_to_it() -> None:
    """SHU-COMBAT.13, AMB-SHU-26: after a DR the attackers may advance into the defender's
    hex or an empty hex next to it, any number of them."""
    s = apply_all(attack(position(BASE), JOINS, 1), Retreat("JP-IB1", h("0503")))
    assert s.stage is Stage.ADVANCE
    targets = {a.to for a in legal(s) if isinstance(a, Advance) and a.unit == "RU-NI"}
    assert targets == {h("0602"), h("0702"), h("0703"), h("0603")}
    s = apply_all(s, Advance("RU-NI", h("0602")), Advance("RU-1-138", h("0603")))
    assert s.piece("RU-NI").hex == h("0602") and s.piece("RU-1-138").hex == h("0603")


def test_shu_combat_13_no_advance_when_the_hex_holds() -> None:
    """SHU-COMBAT.13 (victors=hex_cleared): a D leaves the hex held: nobody advances; under
    any_defender_result the victors may still move next to it."""
    held = attack(position(BASE), JOINS, 4)
    assert held.stage is not Stage.ADVANCE
    loose = attack(position(BASE, options={"victors": "any_defender_result"}), JOINS, 4)
    assert loose.stage is Stage.ADVANCE
    assert all(a.to != h("0602") for a in legal(loose) if isinstance(a, Advance))


def test_shu_land_8_no_retreat_turns_dw_into_d_and_dr_into_de() -> None:
    """SHU-LAND.8, AMB-SHU-6: undisrupted defenders who declared No Retreat! hold on a DW
    (disrupted) and are eliminated on a DR."""
    dw = attack(position(BASE), JOINS, 2, hold=True)
    assert dw.piece("JP-IB1").hex == h("0602") and dw.piece("JP-IB1").disrupted
    assert dw.stage is not Stage.RETREAT
    dr = attack(position(BASE), JOINS, 1, hold=True)
    assert dr.piece("JP-IB1").loc is Loc.GONE


def test_shu_land_9_the_russians_declare_no_retreat_too() -> None:
    """SHU-LAND.9: Russian defenders may declare No Retreat! as well: a Japanese DR (a 5 at
    3:1: 5 factors against 2, and the tank's shift) then eliminates them instead of routing."""
    units = {"JP-IB1": "0602", "JP-TK1": "0602", "RU-1-138": "0502"}
    joins = [("JP-IB1", "0502"), ("JP-TK1", "0502")]
    held = attack(position(units, side=JP), joins, 5, hold=True)
    assert held.piece("RU-1-138").loc is Loc.GONE
    routed = attack(position(units, side=JP), joins, 5)
    assert routed.stage is Stage.RETREAT and routed.piece("RU-1-138").disrupted


def test_shu_banzai_2_d_or_worse_eliminates_the_japanese_attackers() -> None:
    """SHU-BANZAI.2: a Banzai! attack that ends D, AD or AE eliminates the Japanese attackers
    (here a D on 1:1, with the +1)."""
    s = position({"JP-IB1": "0503", "RU-1-138": "0502"}, side=JP)
    s = attack(s, [("JP-IB1", "0502")], 2, banzai=True)  # 3 with Banzai!: D at 1:1
    assert s.piece("JP-IB1").loc is Loc.GONE and s.piece("RU-1-138").disrupted
