"""Reinforcements and replacements (SHU-REINF.1 to SHU-REINF.3, SHU-REPL.1, SHU-REPL.2)."""

from __future__ import annotations

from specs.shumshu.rules.actions import Done, Embark, Reinforce, Replace, Strike
from specs.shumshu.rules.state import JP, Loc, ShumshuState, Stage
from tests.shumshu.positions import GAME, apply_all, h, legal, position, refused

SHORE = {"RU-1-138": "0801", "JP-IB1": "0205"}


def test_shu_reinf_1_deliveries_only_on_the_am_turn() -> None:
    """SHU-REINF.1: reinforcements come over on the player's AM turn only."""
    pm = position(SHORE, stage=Stage.SAIL, turn=2, beachhead=h("0801"))
    assert not any(isinstance(a, Embark) for a in legal(pm))
    am = position(SHORE, stage=Stage.SAIL, turn=3, beachhead=h("0801"))
    assert Embark("RU-2-138") in legal(am)


def test_shu_reinf_3_deliveries_up_to_the_surviving_capabilities() -> None:
    """SHU-REINF.3: as many units as surviving capabilities land at the beachhead."""
    s = position(SHORE, stage=Stage.SAIL, turn=3, beachhead=h("0801"), ships=2)
    s = apply_all(s, Embark("RU-2-138"), Embark("RU-3-138"))
    assert s.stage is Stage.AIR  # two capabilities: two units, then the ships sail
    s = apply_all(s, Strike(False))
    assert s.piece("RU-2-138").hex == h("0801") and s.piece("RU-3-138").hex == h("0801")


def test_shu_reinf_3_units_sail_from_their_turn() -> None:
    """SHU-REINF.3, AMB-SHU-8 (schedule as data): the AT guns sail from Turn 3 only."""
    early = position(SHORE, stage=Stage.SAIL, turn=1, beachhead=h("0801"))
    assert Embark("RU-AT") not in legal(early)
    assert Embark("RU-AT") in legal(position(SHORE, stage=Stage.SAIL, turn=3, beachhead=h("0801")))


def _japanese_turn(units: dict[str, str], turn: int = 1, **options: str) -> ShumshuState:
    s = position(units, turn=turn, options=options)
    return apply_all(s, Done())  # the Russians end their move; nothing to attack


def test_shu_reinf_2_one_japanese_unit_to_hex_33_on_the_am_turn() -> None:
    """SHU-REINF.2: one unit from Paramushir to hex 33 (0303) in the Japanese AM turn."""
    s = _japanese_turn({"RU-1-138": "0801", "JP-IB1": "0205"})
    assert s.stage is Stage.REINFORCE and GAME.to_move(s) == JP
    arrivals = [a for a in legal(s) if isinstance(a, Reinforce)]
    assert {a.unit for a in arrivals} == {"JP-IB4", "JP-IB5", "JP-TK2"}
    assert {a.hex for a in arrivals} == {h("0303")}
    t = apply_all(s, Reinforce("JP-IB4", h("0303")))
    assert t.piece("JP-IB4").hex == h("0303") and t.stage is Stage.MOVE
    pm = _japanese_turn({"RU-1-138": "0801", "JP-IB1": "0205"}, turn=2)
    assert pm.stage is Stage.MOVE


def test_shu_reinf_2_hex_33_held_by_the_russians() -> None:
    """SHU-REINF.2, `hex33_blocked` (found here): no arrival while Russians hold hex 33, or
    next to it under `adjacent`."""
    held = {"RU-1-138": "0303", "JP-IB1": "0205"}
    assert _japanese_turn(held).stage is Stage.MOVE
    s = _japanese_turn(held, hex33_blocked="adjacent")
    assert {a.hex for a in legal(s) if isinstance(a, Reinforce)} == {
        h("0402"),
        h("0403"),
        h("0304"),
    }


def test_shu_repl_1_one_eliminated_infantry_battalion_per_turn() -> None:
    """SHU-REPL.1: one eliminated Russian infantry battalion comes back at the beachhead, once
    per turn; engineers are not replaced."""
    s = position(
        {"RU-1-138": "0801", "JP-IB1": "0205", "RU-2-138": "gone", "RU-ENG": "gone"},
        stage=Stage.REPLACE,
        turn=2,
        beachhead=h("0801"),
    )
    assert {a.unit for a in legal(s) if isinstance(a, Replace)} == {"RU-2-138"}
    assert refused(s, Replace("RU-ENG")) == ("SHU-REPL.1", "SHU-REPL.2")
    t = apply_all(s, Replace("RU-2-138"))
    assert t.piece("RU-2-138").hex == h("0801") and t.replaced == 2 and t.stage is Stage.MOVE


def test_shu_repl_2_after_all_reinforcements_reading() -> None:
    """SHU-REPL.2, AMB-SHU-9: under `pool_landed` no replacement while units wait off-board."""
    units = {"RU-1-138": "0801", "JP-IB1": "0205", "RU-2-138": "gone"}
    s = position(units, stage=Stage.MOVE, turn=2, beachhead=h("0801"))
    from specs.shumshu.rules.landing import replacements
    from tests.shumshu.positions import B

    assert replacements(B, s) == ["RU-2-138"]
    waiting = position(
        units, stage=Stage.MOVE, turn=2, beachhead=h("0801"), options={"replacement": "pool_landed"}
    )
    assert replacements(B, waiting) == []
    assert waiting.piece("RU-3-138").loc is Loc.POOL
