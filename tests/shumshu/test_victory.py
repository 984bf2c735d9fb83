"""Victory by the star hexes (SHU-WIN.1 to SHU-WIN.3, AMB-SHU-3)."""

from __future__ import annotations

from specs.shumshu.rules.actions import Done
from specs.shumshu.rules.ending import verdict
from specs.shumshu.rules.state import JP, RU, Stage
from tests.shumshu.positions import B, apply_all, position

ONE, TWO = "0603", "0304"


def test_shu_win_1_keeping_the_one_star_hex_is_a_marginal_victory() -> None:
    """SHU-WIN.1: Russians in the 1-star hex (Height 171) at the end: marginal victory."""
    s = apply_all(position({"RU-1-138": ONE, "JP-IB1": "0205"}, side=JP, turn=6), Done())
    assert s.stage is Stage.OVER and s.result is not None
    assert (s.result.winner, s.result.clause) == (RU, "SHU-WIN.1")


def test_shu_win_2_the_two_star_hex_is_a_strategic_victory() -> None:
    """SHU-WIN.2: the 2-star hex (Kataoka) alone is a strategic victory (AMB-SHU-3); under
    both_stars it needs the 1-star hex too."""
    s = position({"RU-1-138": TWO, "JP-IB1": "0205"}, side=JP, turn=6)
    assert verdict(B, s).clause == "SHU-WIN.2"
    both = position(
        {"RU-1-138": TWO, "JP-IB1": "0205"},
        side=JP,
        turn=6,
        options={"strategic_needs": "both_stars"},
    )
    assert verdict(B, both).clause == "SHU-WIN.3"
    assert (
        verdict(
            B,
            position(
                {"RU-1-138": TWO, "RU-2-138": ONE, "JP-IB1": "0205"},
                options={"strategic_needs": "both_stars"},
            ),
        ).clause
        == "SHU-WIN.2"
    )


def test_shu_win_3_otherwise_the_japanese_win() -> None:
    """SHU-WIN.3: with no star hex held, the Japanese win."""
    s = apply_all(position({"RU-1-138": "0801", "JP-IB1": ONE}, side=JP, turn=6), Done())
    assert s.result is not None and (s.result.winner, s.result.clause) == (JP, "SHU-WIN.3")


def test_shu_win_1_taking_counts_on_entry_under_ever_entered() -> None:
    """SHU-WIN.1, AMB-SHU-3 (ever_entered): a star hex entered once counts at the end, and
    the 2-star hex ends the game at once."""
    from specs.shumshu.rules.actions import Move
    from tests.shumshu.positions import h

    opts = {"victory_timing": "ever_entered"}
    s = apply_all(
        position({"RU-1-138": "0602", "JP-IB1": "0205"}, options=opts), Move("RU-1-138", h(ONE))
    )
    assert s.taken == frozenset({"1"})
    t = apply_all(
        position({"RU-1-138": "0403", "JP-IB1": "0205"}, options=opts), Move("RU-1-138", h(TWO))
    )
    assert t.stage is Stage.OVER and t.result is not None and t.result.clause == "SHU-WIN.2"
