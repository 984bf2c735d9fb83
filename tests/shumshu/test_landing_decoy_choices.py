"""More choices the first build made without an option, each now an option with a test per
reading that fails if the reading is not honoured: the swamp shift on a landing
(`landing_swamp`), where a discovered decoy comes back while the Russians hold hex 33
(`decoy_return_blocked`), whether its return is compulsory (`decoy_return_compulsory`) and
which of two comes back first (`decoy_return_order`), whether a battalion lost at sea may
be replaced in the same player-turn (`replace_lost`), and whether a landing may be made on a
PM turn (`landing_turns`). Preset `draft` reads each as the first build did (SHU-COMBAT.12,
SHU-COMBAT.8, SHU-COMBAT.6, SHU-REPL.1, SHU-REPL.2, SHU-LAND.3, SHU-LAND.10, SHU-REINF.1).
"""

from __future__ import annotations

from typing import Any

import attrs

from specs.shumshu.formal.verification import symbolic_model
from specs.shumshu.rules import landing
from specs.shumshu.rules.actions import (
    AirRoll,
    Done,
    Embark,
    Hold,
    LandAt,
    Replace,
    ReturnDecoy,
    Roll,
    Strike,
)
from specs.shumshu.rules.odds import odds
from specs.shumshu.rules.state import JP, RU, Loc, ShumshuState, Stage
from tests.shumshu.positions import CATALOGUE, GAME, B, apply_all, h, legal, position, refused

FAR = {"JP-IB1": "0205"}  # a Japanese unit far from the north-east landings


def _land(s: ShumshuState, at: str, *units: str) -> ShumshuState:
    """Pick the hex, embark, sail, the Ki-43 staying home."""
    s = apply_all(s, LandAt(h(at)), *(Embark(u) for u in units))
    if s.stage is Stage.SAIL:
        s = apply_all(s, Done())
    return apply_all(s, Strike(False)) if s.stage is Stage.AIR else s


def _on(s: ShumshuState, until: Any, limit: int = 40) -> ShumshuState:
    """Pass every choice (Done, no strike, no No Retreat!) until `until(s)` holds; bounded by
    a count of steps."""
    for _ in range(limit):
        if until(s):
            return s
        acts = legal(s)
        for pass_ in (Done(), Strike(False), Hold(False)):
            if pass_ in acts:
                s = apply_all(s, pass_)
                break
        else:
            raise AssertionError(f"no way to pass at {s.stage}")
    raise AssertionError("not reached within the bound")


# --- the swamp and a landing (landing_swamp) ---------------------------------------------------

# RU-NI (3) lands against JP-IB1 (3) in swamp 0505, outside both artillery ranges: 1:1, or
# 1:2 with the swamp's shift. The Russians read the right-hand number (AMB-SHU-1): a 3 is DW
# at 1:1 and D at 1:2.


def _swamp_landing(**opts: str) -> ShumshuState:
    s = _land(position(FAR | {"JP-IB1": "0505"}, stage=Stage.SAIL, options=opts), "0505", "RU-NI")
    return apply_all(s, Hold(False)) if s.stage is Stage.HOLD else s


def test_shu_combat_12_landing_swamp_applies() -> None:
    """SHU-COMBAT.12 ("Dfdrs on swamp drop attack 1 column too"), `landing_swamp=applies`
    (draft): the lander on swamp 0505 is shifted to 1:2, and a 3 is D: the hex holds and the
    lander does not land."""
    s = _swamp_landing()
    assert s.fight is not None
    o = odds(B, s, s.fight)
    assert (-1, "SHU-COMBAT.12") in o.shifts and o.column == 1
    t = apply_all(s, Roll(3))
    assert t.piece("JP-IB1").hex == h("0505") and t.piece("JP-IB1").disrupted
    assert t.piece("RU-NI").loc is Loc.POOL and t.beachhead is None


def test_shu_combat_8_landing_swamp_exempt() -> None:
    """SHU-COMBAT.8 ("Except for a landing ..."), `landing_swamp=exempt`: no swamp shift on a
    landing, so 1:1, and a 3 is DW: the Japanese withdraw and the lander lands (SHU-LAND.7)."""
    s = _swamp_landing(landing_swamp="exempt")
    assert s.fight is not None
    o = odds(B, s, s.fight)
    assert all(clause != "SHU-COMBAT.12" for _, clause in o.shifts) and o.column == 2
    t = apply_all(s, Roll(3))
    assert t.stage is Stage.RETREAT and t.fight is not None and t.fight.result == "DW"
    t = apply_all(t, legal(t)[0])
    assert t.piece("JP-IB1").hex != h("0505")
    assert t.piece("RU-NI").hex == h("0505") and t.beachhead == h("0505")


# --- a decoy's way back while the Russians hold hex 33 (decoy_return_blocked) ------------------


def _hex33_taken(**opts: str) -> ShumshuState:
    """Turn 2 (PM, no Japanese reinforcement), the Russians in hex 33 end their player-turn;
    JP-DC1, found in turn 1, is due back; JP-IB1 holds 0802, far from them."""
    s = position(
        {"RU-1-138": "0303", "JP-IB1": "0802", "JP-DC1": "removed"},
        turn=2,
        options=opts,
        check=False,
    )
    s = attrs.evolve(
        s, units=tuple(attrs.evolve(p, recover=2) if p.id == "JP-DC1" else p for p in s.units)
    )
    GAME.check_position(s)
    s = apply_all(s, Done())
    assert s.side == JP
    return s


def test_shu_combat_6_a_decoy_waits_while_hex_33_is_russian() -> None:
    """SHU-COMBAT.6, `decoy_return_blocked=waits` (draft): its way back from hex 33 is shut,
    so the decoy stays removed and the Japanese go on to move."""
    s = _hex33_taken()
    assert s.stage is Stage.MOVE and s.piece("JP-DC1").loc is Loc.REMOVED
    assert landing.decoy_hexes(B, s) == []


def test_shu_combat_6_a_decoy_comes_back_from_the_japanese_hexes() -> None:
    """SHU-COMBAT.6 ("removed til next turn"), SHU-SETUP.1, `decoy_return_blocked=
    from_japanese_hexes`: the way is counted from the hexes the Japanese hold, so the decoy
    joins JP-IB1's stack (decoy_return=reachable_held), or (reachable_empty) goes to an empty
    hex it can reach from there without entering a Russian hex."""
    s = _hex33_taken(decoy_return_blocked="from_japanese_hexes")
    assert s.stage is Stage.DECOY
    assert legal(s) == [ReturnDecoy("JP-DC1", h("0802"))]
    assert apply_all(s, ReturnDecoy("JP-DC1", h("0802"))).piece("JP-DC1").hex == h("0802")
    empty = _hex33_taken(decoy_return_blocked="from_japanese_hexes", decoy_return="reachable_empty")
    hexes = landing.decoy_hexes(B, empty)
    assert h("0902") in hexes and h("0204") in hexes
    assert h("0303") not in hexes and h("0802") not in hexes


# --- a decoy due back: compulsory or not, and in which order ------------------------------------


def _due(*decoys: str, **opts: str) -> ShumshuState:
    """Turn 2, the Japanese decoy step: the decoys named are due back, JP-IB1 holds 0205."""
    units = {"JP-IB1": "0205", "RU-1-138": "0801", **dict.fromkeys(decoys, "removed")}
    s = position(units, side=JP, turn=2, options=opts, check=False)
    s = attrs.evolve(
        s,
        stage=Stage.DECOY,
        units=tuple(attrs.evolve(p, recover=2) if p.id in decoys else p for p in s.units),
    )
    GAME.check_position(s)
    return s


def test_shu_combat_6_a_decoy_due_back_must_come_back() -> None:
    """SHU-COMBAT.6 ("removed til next turn"), `decoy_return_compulsory=compulsory` (draft):
    the Japanese cannot keep it off."""
    s = _due("JP-DC1")
    assert Done() not in legal(s)
    assert refused(s, Done()) == ("SHU-COMBAT.6",)


def test_shu_combat_6_a_decoy_due_back_may_be_kept_off() -> None:
    """SHU-COMBAT.6, `decoy_return_compulsory=optional`: the Japanese keep it off this
    player-turn and it may come back in the next Japanese one."""
    s = _due("JP-DC1", decoy_return_compulsory="optional")
    assert Done() in legal(s)
    s = apply_all(s, Done())
    assert s.stage is Stage.MOVE and s.piece("JP-DC1").loc is Loc.REMOVED
    s = _on(s, lambda x: x.side == JP and x.turn == 3 and x.stage is Stage.DECOY)
    assert ReturnDecoy("JP-DC1", h("0205")) in legal(s)


def test_shu_combat_6_decoys_come_back_in_data_order() -> None:
    """SHU-COMBAT.6, `decoy_return_order=data_order` (draft): of two decoys due, JP-DC1 (first
    in the counter list) comes back first."""
    s = _due("JP-DC1", "JP-DC2")
    assert legal(s) == [ReturnDecoy("JP-DC1", h("0205"))]
    assert refused(s, ReturnDecoy("JP-DC2", h("0205"))) == ("SHU-COMBAT.6",)


def test_shu_combat_6_the_japanese_choose_which_decoy_comes_back() -> None:
    """SHU-COMBAT.6, `decoy_return_order=japanese_choice`: either may come back first; JP-DC2
    first, then JP-DC1."""
    s = _due("JP-DC1", "JP-DC2", decoy_return_order="japanese_choice")
    assert set(legal(s)) == {ReturnDecoy(d, h("0205")) for d in ("JP-DC1", "JP-DC2")}
    s = apply_all(s, ReturnDecoy("JP-DC2", h("0205")))
    assert s.stage is Stage.DECOY and legal(s) == [ReturnDecoy("JP-DC1", h("0205"))]


# --- a battalion lost at sea, replaced (replace_lost) -------------------------------------------


def _worst_then_landed(units: dict[str, str] = FAR, turn: int = 1, **opts: str) -> ShumshuState:
    """RU-1-138 rolls the worst roll (a 6 for the Russians, AMB-SHU-1) landing on empty 0801,
    RU-2-138 lands: the landing makes the beachhead."""
    s = position(units, stage=Stage.SAIL, turn=turn, options=opts)
    s = _land(s, "0801", "RU-1-138", "RU-2-138")
    s = apply_all(s, Roll(6), Roll(3))
    assert s.piece("RU-1-138").loc is Loc.GONE and s.beachhead == h("0801")
    return s


def test_shu_repl_1_a_battalion_lost_at_sea_is_replaced_at_once() -> None:
    """SHU-REPL.1, SHU-REPL.2, SHU-LAND.3, `replace_lost=same_turn` (draft): the worst roll
    eliminates the battalion, and it may be replaced at the new beachhead in the same
    player-turn, after the sea movement."""
    s = _worst_then_landed()
    assert s.stage is Stage.REPLACE and Replace("RU-1-138") in legal(s)
    s = apply_all(s, Replace("RU-1-138"))
    assert s.piece("RU-1-138").hex == h("0801")


def test_shu_repl_2_a_battalion_lost_at_sea_waits_a_turn() -> None:
    """SHU-REPL.2, `replace_lost=next_turn`: not in the player-turn it was lost (no
    replacement step, or only for a battalion lost before), but in the next Russian
    player-turn; a battalion the Ki-43 sinks waits too."""
    s = _worst_then_landed(replace_lost="next_turn")
    assert s.stage is Stage.MOVE and landing.replacements(B, s) == []
    s = _on(s, lambda x: x.side == RU and x.turn == 2 and x.stage is Stage.REPLACE)
    assert Replace("RU-1-138") in legal(s)
    earlier = _worst_then_landed(FAR | {"RU-3-138": "gone"}, turn=3, replace_lost="next_turn")
    assert earlier.stage is Stage.REPLACE and legal(earlier) == [Replace("RU-3-138"), Done()]
    assert refused(earlier, Replace("RU-1-138")) == ("SHU-REPL.1", "SHU-REPL.2")
    sunk = position(
        {"RU-2-138": "0801", "JP-IB1": "0205"},
        stage=Stage.SAIL,
        turn=3,
        beachhead=h("0801"),
        options={"replace_lost": "next_turn"},
    )
    sunk = apply_all(sunk, Embark("RU-1-138"), Done(), Strike(True), AirRoll(6, "RU-1-138"))
    assert sunk.piece("RU-1-138").loc is Loc.GONE and sunk.stage is Stage.MOVE


# --- the symbolic model ---------------------------------------------------------------------------


def test_the_model_leaves_the_new_readings_out_of_its_scope() -> None:
    """The symbolic model encodes draft's readings: each other reading of these options makes
    it claim nothing (UnsupportedReading), as for every other option."""
    others = {
        "landing_swamp": "exempt",
        "decoy_return_blocked": "from_japanese_hexes",
        "decoy_return_compulsory": "optional",
        "decoy_return_order": "japanese_choice",
        "replace_lost": "next_turn",
        "landing_turns": "am_only",
    }
    for option, reading in others.items():
        assert symbolic_model(CATALOGUE.variant("draft", {option: reading})) is None, option
    assert symbolic_model(CATALOGUE.preset("draft")) is not None


# --- landings on a PM turn (landing_turns) -------------------------------------------------------


def test_shu_land_10_a_landing_in_a_pm_turn() -> None:
    """SHU-LAND.10 ("they can try another or same hex ... in later turn"),
    `landing_turns=any_turn` (draft): the Russians may land in turn 2, a PM turn."""
    s = position(FAR, stage=Stage.SAIL, turn=2)
    assert not s.is_am and LandAt(h("0801")) in legal(s)
    assert _land(s, "0801", "RU-1-138").stage is Stage.ROLL


def test_shu_reinf_1_landings_only_on_the_am_turn() -> None:
    """SHU-REINF.1 ("on his AM turn"), `landing_turns=am_only`: no landing in turn 2 (PM),
    one in turn 3 (AM)."""
    pm = position(FAR, stage=Stage.SAIL, turn=2, options={"landing_turns": "am_only"})
    assert not any(isinstance(a, LandAt) for a in legal(pm))
    assert refused(pm, LandAt(h("0801"))) == ("SHU-REINF.1",)
    am = position(FAR, stage=Stage.SAIL, turn=3, options={"landing_turns": "am_only"})
    assert LandAt(h("0801")) in legal(am)
