"""Attack declarations: who may attack, the hexside limits, must-be-attacked obligations, and
refusals explained by clause (SHU-COMBAT.1 to SHU-COMBAT.4, SHU-RGT.4, SHU-DISRUPT.5)."""

from __future__ import annotations

from typing import Any

from kernel.errors import IllegalAction
from specs.shumshu.rules.actions import Done, Join, Move
from specs.shumshu.rules.state import JP, ShumshuState, Stage
from tests.shumshu.positions import GAME, apply_all, h, legal, position, refused

THREE = {"RU-1-138": "0602", "RU-2-138": "0602", "RU-3-138": "0602"}


def declaring(units: dict[str, str], **kw: Any) -> ShumshuState:
    return apply_all(position(units, **kw), Done())


def test_shu_combat_1_units_attack_adjacent_enemy_hexes_only() -> None:
    """SHU-COMBAT.1: an undisrupted unit may attack an adjacent enemy hex; not a hex further
    off, and not a hex of its own side."""
    s = apply_all(position({"RU-1-138": "0602", "JP-IB1": "0702", "JP-IB2": "0801"}), Done())
    assert s.stage is Stage.DECLARE
    assert Join("RU-1-138", h("0702")) in legal(s)
    assert refused(s, Join("RU-1-138", h("0801"))) == ("SHU-COMBAT.1",)
    t = apply_all(s, Join("RU-1-138", h("0702")))
    assert [c.hex for c in t.pending] == [h("0702")] and Done() in legal(t)


def test_shu_combat_1_a_unit_moves_or_attacks() -> None:
    """SHU-COMBAT.1, AMB-SHU-12 (either): a unit that moved does not attack."""
    s = position({"RU-1-138": "0503", "JP-IB1": "0702"})
    s = apply_all(s, Move("RU-1-138", h("0602")), Done())
    assert s.stage is not Stage.DECLARE  # nobody may attack: the phase is skipped
    both = position({"RU-1-138": "0503", "JP-IB1": "0702"}, options={"move_and_attack": "both"})
    both = apply_all(both, Move("RU-1-138", h("0602")), Done())
    assert Join("RU-1-138", h("0702")) in legal(both)


def test_shu_combat_2_could_still_move_in_under_movement_left() -> None:
    """SHU-COMBAT.2 (AMB-SHU-13 movement_left): a unit that spent its move cannot attack even
    where moving and attacking are both allowed."""
    opts = {"move_and_attack": "both", "could_move": "movement_left"}
    s = position({"RU-1-138": "0503", "JP-IB1": "0702", "RU-NI": "0801"}, options=opts)
    s = apply_all(s, Move("RU-1-138", h("0602")), Done())
    assert refused(s, Join("RU-1-138", h("0702"))) == ("SHU-COMBAT.2",)
    assert Join("RU-NI", h("0702")) in legal(s)


def test_shu_combat_3_two_russians_across_a_hexside() -> None:
    """SHU-COMBAT.3: at most two Russian units attack across one hexside; the third is not
    offered and is refused naming the clause."""
    s = declaring({**THREE, "JP-IB1": "0702"})
    s = apply_all(s, Join("RU-1-138", h("0702")), Join("RU-2-138", h("0702")))
    assert not any(isinstance(a, Join) for a in legal(s))
    assert refused(s, Join("RU-3-138", h("0702"))) == ("SHU-COMBAT.3",)


def test_shu_combat_3_three_japanese_across_a_hexside() -> None:
    """SHU-COMBAT.3: up to three Japanese units attack across one hexside, not four."""
    four = {u: "0702" for u in ("JP-IB1", "JP-IB2", "JP-IB3", "JP-TK1")}
    s = declaring({**four, "RU-1-138": "0602"}, side=JP)
    s = apply_all(s, *(Join(u, h("0602")) for u in ("JP-IB1", "JP-IB2", "JP-IB3")))
    assert refused(s, Join("JP-TK1", h("0602"))) == ("SHU-COMBAT.3",)
    assert Done() in legal(s)


def test_shu_combat_3_a_regiment_counts_as_one() -> None:
    """SHU-COMBAT.3, AMB-SHU-15: a regiment is one unit across a hexside (regiment_counts=one);
    counted as its battalions it can never attack across one."""
    s = declaring({"RU-138": "0602", "RU-NI": "0602", "JP-IB1": "0702"})
    s = apply_all(s, Join("RU-NI", h("0702")), Join("RU-138", h("0702")))
    assert Done() in legal(s)
    t = declaring(
        {"RU-138": "0602", "RU-NI": "0602", "JP-IB1": "0702"}, options={"regiment_counts": "three"}
    )
    assert refused(t, Join("RU-138", h("0702"))) == ("SHU-COMBAT.3",)


def test_shu_combat_4_japanese_next_to_attackers_must_also_be_attacked() -> None:
    """SHU-COMBAT.4: an undisrupted Japanese hex next to an attacking unit must be attacked in
    the same phase (AMB-SHU-14 same_phase); a declaration leaving it out is refused, and a
    lone attacker that cannot also attack it may not attack at all."""
    two = {"RU-1-138": "0602", "RU-2-138": "0602", "JP-IB1": "0702", "JP-IB2": "0503"}
    s = declaring(two)
    s = apply_all(s, Join("RU-1-138", h("0702")))
    assert refused(s, Done()) == ("SHU-COMBAT.4",)
    assert legal(s) == [Join("RU-2-138", h("0503"))]
    s = apply_all(s, Join("RU-2-138", h("0503")), Done())
    assert s.stage is not Stage.DECLARE
    alone = position({"RU-1-138": "0602", "JP-IB1": "0702", "JP-IB2": "0503"})
    alone = apply_all(alone, Done())
    assert alone.stage is not Stage.DECLARE  # no legal attack: the phase is skipped


def test_shu_combat_4_the_refusal_names_the_hex_and_clause() -> None:
    """SHU-COMBAT.4: the error says which hex must also be attacked."""
    s = declaring({"RU-1-138": "0602", "RU-2-138": "0602", "JP-IB1": "0702", "JP-IB2": "0503"})
    s = apply_all(s, Join("RU-1-138", h("0702")))
    try:
        GAME.apply(s, Done())
    except IllegalAction as exc:
        assert "0503" in exc.message and exc.clauses == ("SHU-COMBAT.4",)
    else:
        raise AssertionError("accepted")


def test_shu_disrupt_5_disrupted_japanese_need_not_be_attacked() -> None:
    """SHU-DISRUPT.5, SHU-COMBAT.4: only undisrupted Japanese units oblige."""
    s = declaring({"RU-1-138": "0602", "JP-IB1": "0702", "JP-IB2": "0503"}, disrupted=["JP-IB2"])
    assert Join("RU-1-138", h("0702")) in legal(s)
    s = apply_all(s, Join("RU-1-138", h("0702")))
    assert Done() in legal(s)


def test_shu_combat_4_a_decoy_obliges_like_a_unit() -> None:
    """SHU-COMBAT.4, AMB-SHU-30: the Russians cannot tell a decoy from a unit: it obliges."""
    s = declaring({"RU-1-138": "0602", "JP-IB1": "0702", "JP-DC1": "0503"})
    assert not any(isinstance(a, Join) for a in legal(s))


def test_shu_rgt_4_russian_regiments_must_be_attacked_battalions_need_not() -> None:
    """SHU-RGT.4: a Russian regiment next to an attacking Japanese unit must also be attacked;
    a battalion there need not."""
    japanese = {"JP-IB1": "0702", "JP-IB2": "0702"}
    s = declaring({**japanese, "RU-138": "0602", "RU-NI": "0801"}, side=JP)
    s = apply_all(s, Join("JP-IB1", h("0801")))
    assert refused(s, Done()) == ("SHU-RGT.4",)
    assert Join("JP-IB2", h("0602")) in legal(s)
    b = declaring({**japanese, "RU-1-138": "0602", "RU-NI": "0801"}, side=JP)
    b = apply_all(b, Join("JP-IB1", h("0801")))
    assert Done() in legal(b)


def test_shu_combat_4_same_combat_reading() -> None:
    """SHU-COMBAT.4 under must_attack=same_combat (AMB-SHU-14 b): a unit next to an obliged
    hex may attack only that hex."""
    units = {"RU-1-138": "0602", "RU-2-138": "0602", "JP-IB1": "0702", "JP-IB2": "0503"}
    phase = declaring(units, disrupted=["JP-IB2"])
    assert Join("RU-1-138", h("0503")) in legal(phase)
    same = declaring(units, disrupted=["JP-IB2"], options={"must_attack": "same_combat"})
    assert refused(same, Join("RU-1-138", h("0503"))) == ("SHU-COMBAT.4",)
    assert Join("RU-1-138", h("0702")) in legal(same)
