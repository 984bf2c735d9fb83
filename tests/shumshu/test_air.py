"""Japanese airpower against shipping (SHU-AIR.2, SHU-AIR.3) and in attacks (SHU-AIR.1)."""

from __future__ import annotations

from fractions import Fraction

from specs.shumshu.rules.actions import AirRoll, Commit, Done, Embark, LandAt, Strike
from specs.shumshu.rules.combat import commit_choices
from specs.shumshu.rules.state import JP, Fight, Loc, ShumshuState, Stage
from tests.shumshu.positions import GAME, B, apply_all, h, position


def at_sea() -> ShumshuState:
    s = position({"JP-IB1": "0205"}, stage=Stage.SAIL)
    s = apply_all(s, LandAt(h("0801")), Embark("RU-1-138"), Embark("RU-2-138"), Done())
    assert s.stage is Stage.AIR and GAME.to_move(s) == JP
    return s


def test_shu_air_2_the_best_roll_sinks_a_capability_and_its_passengers() -> None:
    """SHU-AIR.2: on the Ki-43's best roll (a 6, AMB-SHU-1) one of the three capabilities is
    sunk at random, with the unit it carries (AMB-SHU-27: an empty one possibly)."""
    s = apply_all(at_sea(), Strike(True))
    assert s.stage is Stage.AIR_ROLL
    outcomes = dict(GAME.chance_outcomes(s))
    assert sum(outcomes.values()) == 1
    assert outcomes[AirRoll(6, "RU-1-138")] == Fraction(1, 18)
    assert outcomes[AirRoll(6, "RU-2-138")] == Fraction(1, 18)
    assert outcomes[AirRoll(6, None)] == Fraction(1, 18)
    t = apply_all(s, AirRoll(6, "RU-1-138"))
    assert t.ships == 2 and t.piece("RU-1-138").loc is Loc.GONE
    assert t.sail is not None and t.sail.party == ("RU-2-138",)


def test_shu_air_2_loaded_ship_reading() -> None:
    """SHU-AIR.2 under air_sinks=loaded_ship: only a ship carrying a unit is sunk."""
    s = position({"JP-IB1": "0205"}, stage=Stage.SAIL, options={"air_sinks": "loaded_ship"})
    s = apply_all(s, LandAt(h("0801")), Embark("RU-1-138"), Done(), Strike(True))
    assert dict(GAME.chance_outcomes(s))[AirRoll(6, "RU-1-138")] == Fraction(1, 6)


def test_shu_air_3_the_three_worst_numbers_shoot_it_down() -> None:
    """SHU-AIR.3: on its three worst numbers (1 to 3) the Ki-43 is shot down for good."""
    s = apply_all(at_sea(), Strike(True))
    for face in (1, 2, 3):
        assert not apply_all(s, AirRoll(face, None)).air
    assert apply_all(s, AirRoll(4, None)).air


def test_shu_air_1_once_per_japanese_player_turn() -> None:
    """SHU-AIR.1, AMB-SHU-23: the attack shift once per Japanese player-turn, while it flies."""
    s = position({"JP-IB1": "0503", "RU-1-138": "0502"}, side=JP)
    f = Fight(h("0502"), ("JP-IB1",), defenders=("RU-1-138",))
    assert (False, True, False) in commit_choices(B, s, f)
    used = position({"JP-IB1": "0503", "RU-1-138": "0502"}, side=JP, air_used=True, air_turn=1)
    assert all(not air for _, air, _ in commit_choices(B, used, f))
    down = position({"JP-IB1": "0503", "RU-1-138": "0502"}, side=JP, air=False)
    assert all(not air for _, air, _ in commit_choices(B, down, f))
    assert Commit(air=True) != Commit()
