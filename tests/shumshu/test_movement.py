"""Movement: one hex, the road bonus, enemy hexes and disruption (SHU-MOVE.1 to SHU-MOVE.4,
SHU-RGT.3, SHU-STACK.1, SHU-STACK.2, SHU-DISRUPT.1)."""

from __future__ import annotations

from collections.abc import Sequence

from specs.shumshu.rules.actions import Done, Move
from specs.shumshu.rules.movement import destinations
from specs.shumshu.rules.state import JP, Stage
from tests.shumshu.positions import B, apply_all, h, legal, position, refused


def names(hexes: Sequence[object]) -> set[str]:
    return {str(x) for x in hexes}


def test_shu_move_1_an_undisrupted_unit_moves_one_hex_off_the_road() -> None:
    """SHU-MOVE.1: off the road a unit moves into one adjacent hex, any of them."""
    s = position({"RU-1-138": "0502", "JP-IB1": "0303"})
    assert names(destinations(B, s, "RU-1-138")) == {"0602", "0503", "0402"}
    assert refused(s, Move("RU-1-138", h("0603"))) == ("SHU-MOVE.2",)
    t = apply_all(s, Move("RU-1-138", h("0503")))
    assert t.piece("RU-1-138").hex == h("0503") and "RU-1-138" in t.moved
    assert refused(t, Move("RU-1-138", h("0602"))) == ("SHU-MOVE.1",)  # once per turn


def test_shu_move_2_battalions_one_more_hex_and_tanks_two_along_the_road() -> None:
    """SHU-MOVE.2: along the road (0303-0304-0403-0503-0602-0702-0801) a battalion moves two
    hexes, a tank three (AMB-SHU-12, tank_road=three_hexes)."""
    s = position({"RU-1-138": "0503", "JP-IB1": "0205"})
    assert {"0304", "0702"} <= names(destinations(B, s, "RU-1-138"))
    assert "0801" not in names(destinations(B, s, "RU-1-138"))
    j = position({"JP-TK1": "0304", "RU-1-138": "0801"}, side=JP)
    assert "0602" in names(destinations(B, j, "JP-TK1"))  # 0403, 0503, 0602
    two = position(
        {"JP-TK1": "0304", "RU-1-138": "0801"}, side=JP, options={"tank_road": "two_hexes"}
    )
    assert "0602" not in names(destinations(B, two, "JP-TK1"))
    assert "0503" in names(destinations(B, two, "JP-TK1"))


def test_shu_move_2_road_path_reading() -> None:
    """SHU-MOVE.2 under `road_path` (found here): entering the road from off it counts for the
    extra hexes only under extra_steps."""
    whole = position({"RU-1-138": "0502", "JP-IB1": "0205"})
    extra = position({"RU-1-138": "0502", "JP-IB1": "0205"}, options={"road_path": "extra_steps"})
    assert "0403" not in names(destinations(B, whole, "RU-1-138"))
    assert "0403" in names(destinations(B, extra, "RU-1-138"))  # 0502 -> 0503 -> 0403


def test_shu_rgt_3_regiments_get_no_road_bonus() -> None:
    """SHU-RGT.3: a regiment on the road moves one hex only."""
    s = position({"RU-138": "0503", "JP-IB1": "0205"})
    assert names(destinations(B, s, "RU-138")) == {"0502", "0602", "0603", "0504", "0403", "0402"}
    assert refused(s, Move("RU-138", h("0702"))) == ("SHU-RGT.3",)


def test_shu_move_3_never_into_or_through_an_enemy_hex() -> None:
    """SHU-MOVE.3, SHU-STACK.1: a hex with an enemy piece (a decoy too) is closed, and the
    road does not lead through it."""
    s = position({"RU-1-138": "0503", "JP-DC1": "0602", "JP-IB1": "0205"})
    dest = names(destinations(B, s, "RU-1-138"))
    assert "0602" not in dest and "0702" not in dest
    assert refused(s, Move("RU-1-138", h("0602"))) == ("SHU-MOVE.3",)


def test_shu_stack_2_friendly_units_stack_without_limit() -> None:
    """SHU-STACK.2: any number of friendly units may share a hex."""
    crowd = {u: "0602" for u in ("RU-1-138", "RU-2-138", "RU-3-138", "RU-1-373", "RU-NI")}
    s = position({**crowd, "RU-2-373": "0503", "JP-IB1": "0205"})
    t = apply_all(s, Move("RU-2-373", h("0602")))
    assert sum(1 for p in t.units if p.hex == h("0602")) == 6


def test_shu_move_4_disrupted_units_do_not_move() -> None:
    """SHU-MOVE.4, SHU-DISRUPT.1: a disrupted unit has no move."""
    s = position({"RU-1-138": "0502", "JP-IB1": "0205"}, disrupted=["RU-1-138"])
    assert not destinations(B, s, "RU-1-138")
    assert refused(s, Move("RU-1-138", h("0503"))) == ("SHU-MOVE.4",)
    assert legal(s) == [Done()]


def test_shu_move_1_only_the_phasing_side_moves() -> None:
    """SHU-SEQ.1: in the Russian player-turn only Russian units move."""
    s = position({"RU-1-138": "0502", "JP-IB1": "0205"})
    assert refused(s, Move("JP-IB1", h("0204"))) == ("SHU-SEQ.1",)
    assert s.stage is Stage.MOVE
