"""Disruption and recovery (SHU-DISRUPT.1 to SHU-DISRUPT.5)."""

from __future__ import annotations

from specs.shumshu.rules.actions import Done, Join
from specs.shumshu.rules.state import JP, Loc, ShumshuState, Stage
from tests.shumshu.positions import GAME, apply_all, attack, h, position, refused

BASE = {"RU-NI": "0502", "RU-1-138": "0502", "JP-IB1": "0602", "JP-IB2": "0205"}
JOINS = [("RU-NI", "0602"), ("RU-1-138", "0602")]


def finish_japanese_turn(s: ShumshuState) -> ShumshuState:
    """The Japanese bring nobody, move nobody and attack nobody."""
    while s.side == JP and s.stage in (Stage.REINFORCE, Stage.MOVE, Stage.DECLARE):
        s = apply_all(s, Done())
    return s


def test_shu_disrupt_1_disrupted_units_do_not_attack() -> None:
    """SHU-DISRUPT.1: a disrupted unit may not attack (it still defends)."""
    s = apply_all(position(BASE, disrupted=["RU-NI"]), Done())
    assert refused(s, Join("RU-NI", h("0602"))) == ("SHU-DISRUPT.1",)


def test_shu_disrupt_3_japanese_recover_at_the_end_of_their_player_turn() -> None:
    """SHU-DISRUPT.3, AMB-SHU-20 (own_turn_end): disrupted in the Russian turn, a Japanese
    unit stays disrupted through the Japanese turn and recovers at its end, face down again
    (AMB-SHU-21 ii)."""
    s = attack(position(BASE), JOINS, 4)  # D
    assert s.piece("JP-IB1").disrupted and s.side == JP  # the Russian turn is over
    s = apply_all(s, *([Done()] if s.stage is Stage.REINFORCE else []))
    assert s.piece("JP-IB1").disrupted and s.stage is Stage.MOVE
    s = apply_all(s, Done())  # the Japanese end their turn: recovery
    p = s.piece("JP-IB1")
    assert not p.disrupted and not p.revealed and s.turn == 2


def test_shu_disrupt_3_same_player_turn_reading() -> None:
    """SHU-DISRUPT.3, AMB-SHU-20 (same_player_turn): recovered at the end of the Russian
    player-turn in which they were disrupted."""
    s = attack(position(BASE, options={"jp_recovery": "same_player_turn"}), JOINS, 4)
    assert s.side == JP and not s.piece("JP-IB1").disrupted


def test_shu_disrupt_4_russians_recover_after_the_japanese_combat_phase() -> None:
    """SHU-DISRUPT.4, AMB-SHU-20 (first_after): disrupted in their own turn (AD), Russians
    recover at the end of that turn's Japanese combat phase; under next_turn, only at the
    next turn's."""
    s = attack(position(BASE), JOINS, 5)  # AD
    assert s.piece("RU-NI").disrupted and s.side == JP
    s = finish_japanese_turn(s)
    assert not s.piece("RU-NI").disrupted and s.turn == 2
    later = attack(position(BASE, options={"ru_recovery": "next_turn"}), JOINS, 5)
    later = finish_japanese_turn(later)
    assert later.piece("RU-NI").disrupted


def test_shu_disrupt_4_disrupted_again_counts_from_the_new_disruption() -> None:
    """SHU-DISRUPT.4: "if they are not re-D-ed": a new disruption restarts the count."""
    from specs.shumshu.rules.effects import disrupt
    from tests.shumshu.positions import B

    s = position(BASE, disrupted=["RU-NI"])
    first = s.piece("RU-NI").recover
    j = position(BASE, side=JP, disrupted=["RU-NI"])
    again = disrupt(B, j, ["RU-NI"]).piece("RU-NI").recover
    assert again > first


def test_shu_disrupt_5_disrupted_japanese_are_face_up() -> None:
    """SHU-DISRUPT.5, SHU-COMBAT.5: a disrupted Japanese unit is revealed to the Russians."""
    s = attack(position(BASE), JOINS, 4)
    seen = {u["id"] for u in GAME.observe(s, "RU")["units"] if u["loc"] == Loc.MAP.value}
    assert "JP-IB1" in seen and "JP-IB2" not in seen
