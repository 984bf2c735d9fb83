"""Naval landings (SHU-LAND.1 to SHU-LAND.10): the landing hex, up to three battalions each
rolling, the worst roll and the capabilities, opposed landings, No Retreat! and retrying."""

from __future__ import annotations

from typing import Any

from specs.shumshu.rules.actions import Done, Embark, Hold, LandAt, Retreat, Roll, Strike
from specs.shumshu.rules.state import JP, RU, Loc, ShumshuState, Stage
from tests.shumshu.positions import GAME, apply_all, h, legal, position, refused

FAR = {"JP-IB1": "0205"}  # a Japanese unit far from the landings


def sailing(units: dict[str, str] | None = None, **kw: Any) -> ShumshuState:
    return position(units if units is not None else FAR, stage=Stage.SAIL, **kw)


def land(s: ShumshuState, at: str, *landers: str) -> ShumshuState:
    """Pick the hex, embark, sail, and let the Ki-43 stay home: the first landing roll next."""
    s = apply_all(s, LandAt(h(at)), *(Embark(u) for u in landers))
    if s.stage is Stage.SAIL:
        s = apply_all(s, Done())
    if s.stage is Stage.AIR:
        s = apply_all(s, Strike(False))
    return s


def test_shu_land_1_the_russians_pick_a_coastal_hex_and_it_becomes_the_beachhead() -> None:
    """SHU-LAND.1: the landing hex is a coastal hex; a landing that puts a unit ashore makes
    it the supply base (beachhead)."""
    s = sailing()
    assert refused(s, LandAt(h("0503"))) == ("SHU-LAND.1",)
    s = land(s, "0801", "RU-1-138")
    assert s.stage is Stage.ROLL
    s = apply_all(s, Roll(3))
    assert s.piece("RU-1-138").hex == h("0801") and s.beachhead == h("0801")


def test_shu_land_2_up_to_three_battalions_each_rolls() -> None:
    """SHU-LAND.2: at most three battalions land, each with its own roll."""
    s = apply_all(sailing(), LandAt(h("0801")), Embark("RU-1-138"), Embark("RU-2-138"))
    s = apply_all(s, Embark("RU-3-138"))
    assert s.stage is not Stage.SAIL  # three embarked: the ships sail
    assert s.sail is not None and s.sail.party == ("RU-1-138", "RU-2-138", "RU-3-138")
    s = apply_all(s, Strike(False), Roll(2))
    assert s.stage is Stage.ROLL and s.piece("RU-1-138").loc is Loc.MAP
    assert s.piece("RU-2-138").loc is Loc.POOL  # still at sea, rolling next


def test_shu_land_3_and_4_the_worst_roll_costs_a_unit_and_one_capability_per_landing() -> None:
    """SHU-LAND.3: even into an empty hex the worst roll (a 6 for the Russians, AMB-SHU-1)
    eliminates the unit and a capability; SHU-LAND.4: at most one capability per landing."""
    s = land(sailing(), "0801", "RU-1-138", "RU-2-138", "RU-3-138")
    s = apply_all(s, Roll(6))
    assert s.piece("RU-1-138").loc is Loc.GONE and s.ships == 2
    s = apply_all(s, Roll(6), Roll(1))
    assert s.piece("RU-2-138").loc is Loc.GONE and s.ships == 2
    assert s.piece("RU-3-138").hex == h("0801")


def test_shu_land_3_worst_roll_modified_reading() -> None:
    """SHU-LAND.3, AMB-SHU-5: under worst_roll=modified the Kamchatka pip saves a 6 in the
    black range; outside it a 6 is still lost."""
    s = land(sailing(options={"worst_roll": "modified"}), "0801", "RU-1-138")
    assert apply_all(s, Roll(6)).piece("RU-1-138").loc is Loc.MAP
    t = land(sailing(options={"worst_roll": "modified"}), "0602", "RU-1-138")
    assert apply_all(t, Roll(6)).piece("RU-1-138").loc is Loc.GONE


def test_shu_land_5_no_landing_in_the_red_range() -> None:
    """SHU-LAND.5: no landing within the Paramushir artillery's red-bordered range."""
    s = sailing()
    assert refused(s, LandAt(h("0402"))) == ("SHU-LAND.5",)
    assert LandAt(h("0402")) not in legal(s) and LandAt(h("0502")) in legal(s)


def test_shu_land_7_an_opposed_hex_is_cleared_by_dr_or_dw() -> None:
    """SHU-LAND.7: against Japanese units the lander attacks the hex alone (3 against 3, 1:1):
    DR clears it and the lander lands; D does not, and the lander goes back (AMB-SHU-4)."""
    units = {"JP-IB1": "0602"}
    s = apply_all(land(sailing(units), "0602", "RU-NI"), Hold(False), Roll(1))
    assert s.stage is Stage.RETREAT and GAME.to_move(s) == RU
    s = apply_all(s, Retreat("JP-IB1", h("0503")))
    assert s.piece("RU-NI").hex == h("0602") and s.beachhead == h("0602")
    d = apply_all(land(sailing(units), "0602", "RU-NI"), Hold(False), Roll(4))
    assert d.piece("RU-NI").loc is Loc.POOL and d.piece("JP-IB1").disrupted
    assert d.beachhead is None


def test_shu_land_7_failed_lander_waits_in_a_sea_box_under_that_reading() -> None:
    """SHU-LAND.7, AMB-SHU-4 (sea_box): a lander that does not clear the hex waits disrupted
    at sea."""
    s = sailing({"JP-IB1": "0602"}, options={"failed_landing": "sea_box"})
    s = apply_all(land(s, "0602", "RU-NI"), Hold(False), Roll(4))
    assert s.piece("RU-NI").loc is Loc.SEA and s.piece("RU-NI").disrupted


def test_shu_land_8_no_retreat_holds_the_landing_hex() -> None:
    """SHU-LAND.8: with No Retreat! a DW becomes D: the Japanese hold, disrupted, and the
    lander cannot land; a DR eliminates them instead of routing."""
    units = {"JP-IB1": "0602"}
    held = apply_all(land(sailing(units), "0602", "RU-NI"), Hold(True), Roll(2))
    assert held.piece("JP-IB1").hex == h("0602") and held.piece("JP-IB1").disrupted
    assert held.piece("RU-NI").loc is Loc.POOL
    gone = apply_all(land(sailing(units), "0602", "RU-NI"), Hold(True), Roll(1))
    assert gone.piece("JP-IB1").loc is Loc.GONE and gone.piece("RU-NI").hex == h("0602")


def test_shu_land_8_no_retreat_needs_undisrupted_defenders() -> None:
    """SHU-LAND.8, SHU-DISRUPT.5: disrupted defenders may not declare No Retreat!."""
    s = sailing({"JP-IB1": "0602"}, turn=1)
    s = land(s, "0602", "RU-NI")
    assert s.stage is Stage.HOLD and GAME.to_move(s) == JP
    t = sailing({"JP-IB1": "0602"}, disrupted=["JP-IB1"])
    t = land(t, "0602", "RU-NI")
    assert t.stage is not Stage.HOLD


def test_shu_land_10_retry_after_a_lost_beachhead() -> None:
    """SHU-LAND.10 (AMB-SHU-7): while a beachhead holds there is no new landing; once it is
    lost, the Russians land again, at the same hex or another."""
    holding = position(
        {"RU-1-138": "0801", "JP-IB1": "0205"}, stage=Stage.SAIL, turn=2, beachhead=h("0801")
    )
    assert not any(isinstance(a, LandAt) for a in legal(holding))
    assert refused(holding, LandAt(h("0602"))) == ("SHU-LAND.10",)
    lost = position({"RU-1-138": "0702", "JP-IB1": "0205"}, stage=Stage.SAIL, turn=2)
    assert LandAt(h("0801")) in legal(lost) and LandAt(h("0602")) in legal(lost)


def test_shu_land_4_the_landing_size_follows_the_capabilities() -> None:
    """SHU-LAND.4, `landing_size` (found here): with two capabilities left, two battalions;
    under `three`, still three."""
    s = apply_all(sailing(ships=2), LandAt(h("0801")), Embark("RU-1-138"), Embark("RU-2-138"))
    assert s.stage is not Stage.SAIL
    t = sailing(ships=2, options={"landing_size": "three"})
    t = apply_all(t, LandAt(h("0801")), Embark("RU-1-138"), Embark("RU-2-138"))
    assert Embark("RU-3-138") in legal(t)


def test_shu_land_3_no_landing_without_a_capability() -> None:
    """SHU-LAND.3: with every capability lost no landing is possible (AMB-SHU-27)."""
    s = sailing(ships=0)
    assert legal(s) == [Done()]
    assert refused(s, LandAt(h("0801"))) == ("SHU-LAND.3",)
