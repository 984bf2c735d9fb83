"""Russian regiments: formed from three battalions, broken by DR or AD (SHU-RGT.1, SHU-RGT.2;
SHU-RGT.3 and SHU-RGT.4 are in test_movement.py and test_declare.py)."""

from __future__ import annotations

from specs.shumshu.rules.actions import Done, Form
from specs.shumshu.rules.state import JP, RU, Loc, ShumshuState, Stage
from tests.shumshu.positions import GAME, apply_all, attack, h, legal, position, refused

BATTALIONS = {"RU-1-138": "0801", "RU-2-138": "0801", "RU-3-138": "0801", "JP-IB1": "0205"}


def russian_turn(units: dict[str, str], **kw: object) -> ShumshuState:
    """The Japanese end their turn 1 doing nothing: the Russian turn 2 starts."""
    s = position(units, side=JP, **kw)  # type: ignore[arg-type]
    return apply_all(s, Done())


def test_shu_rgt_1_three_undisrupted_battalions_together_form_the_regiment() -> None:
    """SHU-RGT.1: at the start of his turn the Russian may form a regiment from three
    undisrupted battalions of it in one hex; it replaces them and may act at once."""
    s = russian_turn(BATTALIONS)
    assert s.stage is Stage.FORM and GAME.to_move(s) == RU
    assert legal(s) == [Form("RU-138"), Done()]
    s = apply_all(s, Form("RU-138"))
    assert s.piece("RU-138").hex == h("0801")
    assert all(s.piece(b).loc is Loc.IN_REGIMENT for b in ("RU-1-138", "RU-2-138", "RU-3-138"))
    assert "RU-138" not in s.acted  # regiment_use=immediate


def test_shu_rgt_1_not_with_a_disrupted_or_separated_battalion() -> None:
    """SHU-RGT.1: a battalion elsewhere or disrupted prevents forming."""
    apart = russian_turn({**BATTALIONS, "RU-3-138": "0802"})
    assert apart.stage is not Stage.FORM
    assert refused(apart, Form("RU-138"))
    shaken = russian_turn(BATTALIONS, disrupted=["RU-3-138"])
    assert shaken.piece("RU-3-138").disrupted and shaken.stage is not Stage.FORM


def test_shu_rgt_2_ad_breaks_an_attacking_regiment() -> None:
    """SHU-RGT.2: AD against a regiment breaks it into its three battalions, disrupted, where
    it stands (6 against 6 at 1:1, a 5)."""
    s = position({"RU-138": "0502", "JP-IB1": "0602", "JP-IB2": "0602"})
    s = attack(s, [("RU-138", "0602")], 5)
    assert s.piece("RU-138").loc is Loc.UNFORMED
    for b in ("RU-1-138", "RU-2-138", "RU-3-138"):
        assert s.piece(b).hex == h("0502") and s.piece(b).disrupted


def test_shu_rgt_2_dr_breaks_a_defending_regiment_where_it_is_routed() -> None:
    """SHU-RGT.2: DR against a regiment: it is routed one hex and broken there (7 and a tank
    against 6: 3:2, a 6 for the Japanese)."""
    units = {"JP-IB1": "0702", "JP-IB2": "0702", "JP-TK1": "0702", "RU-138": "0602"}
    s = attack(position(units, side=JP), [(u, "0602") for u in ("JP-IB1", "JP-IB2", "JP-TK1")], 6)
    assert s.stage is Stage.RETREAT and GAME.to_move(s) == JP
    from specs.shumshu.rules.actions import Retreat

    s = apply_all(s, Retreat("RU-138", h("0503")))
    assert s.piece("RU-138").loc is Loc.UNFORMED
    assert all(
        s.piece(b).hex == h("0503") and s.piece(b).disrupted
        for b in ("RU-1-138", "RU-2-138", "RU-3-138")
    )
