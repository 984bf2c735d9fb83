"""Points the SNC text leaves open that the code had decided silently, each now an option of
`specs/snc1937/data/variants.py` with its readings: one test per reading, failing if the
reading is not honoured.

- sudden_defeat_timing (AMB-SNC-15): SNC-4.2.1 after every hex entered, after a whole move,
  or at phase ends;
- attackers_seen: the defender sees the declared attackers beneath their stacks' tops
  (SNC-10.0.5) or not (SNC-6.3.1);
- elite_return_ban, elite_return_move: a returning elite unit (SNC-8.1.4) and the SNC-8.2.1
  ban, and whether it may move (SNC-8.2.2);
- tenth_army_unopposed: the 10th Army's second hex after a landing without combat
  (SNC-8.4.1.2, SNC-8.4.0.11);
- tenth_army_delay: a delayed 10th Army unit and "one landing location" (SNC-8.4.1.1,
  SNC-8.0.2);
- landing_fire_support: markers on a landing after First Operations use, per marker
  (SNC-8.4.0.6) or all at once (SNC-8.5.2);
- marker_arrival: the Japanese receive a GT's markers at the start of their player turn
  (SNC-8.5.1) or with the GT.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from kernel.hexes import Hex, parse_hex
from specs.snc1937.data.variants import CATALOGUE
from specs.snc1937.game import SNC
from specs.snc1937.rules.actions import (
    AdvanceOn,
    Attack,
    Declare,
    Delay,
    Done,
    Join,
    Land,
    Move,
    Place,
    Strike,
    Support,
)
from specs.snc1937.rules.state import CH, JP, Order, Phase, SNCState, Step

GAME = SNC()
T = GAME.tables
SHANGHAI = parse_hex("3512")
NANKING = parse_hex("0202")
TENTH_ARMY = tuple(
    u
    for u, r in T.record.items()
    if r.restriction is not None and r.restriction.advance_hexes == 2 and T.spec[u].side == JP
)


def H(text: str) -> Hex:
    return parse_hex(text)


def start(**options: str) -> SNCState:
    return GAME.initial_state(CATALOGUE.variant("standard", options))


def placed(s: SNCState, **changes: Hex | None) -> SNCState:
    """`s` with units (id -> hex, None: off the map into the dead pile) placed by hand."""
    where = dict(s.where)
    dead = set(s.dead)
    for u, h in changes.items():
        if h is None:
            where.pop(u, None)
            dead.add(u)
        else:
            where[u] = h
            dead.discard(u)
    trt = tuple(p for p in s.trt if p[0] not in where and p[0] not in dead)
    return attrs.evolve(s, where=tuple(sorted(where.items())), trt=trt, dead=frozenset(dead))


def legal(s: SNCState) -> list[Any]:
    return list(GAME.legal_actions(s))


def play(s: SNCState, *actions: Any) -> SNCState:
    for a in actions:
        assert a in legal(s), (a, s.phase, s.step)
        s = GAME.apply(s, a)
    return s


# --- sudden_defeat_timing (SNC-4.2.1; AMB-SNC-15) ----------------------------------------------


def _one_unit_near_shanghai(timing: str) -> SNCState:
    """GT 1, a Chinese Move phase, the 88th in 3412 the only Chinese unit in or next to 3512."""
    s = start(sudden_defeat_timing=timing)
    ring = {SHANGHAI, *GAME.board.neighbors(SHANGHAI)}
    changes: dict[str, Hex | None] = {u: None for u, h in s.where if h in ring and u[:2] == CH}
    changes["CH-88D"] = H("3412")
    s = placed(s, **changes)
    return play(s, Declare(Order.MOVE_MOVE))


def test_snc_4_2_1_after_each_action_one_hex_out_of_the_ring_loses() -> None:
    """SNC-4.2.1, SNC-9.0.3 (after_each_action, both presets): "if at any time": the 88th's
    first hex, 3312, leaves no Chinese unit in or next to 3512, and the game ends there, before
    the move could bring it back next to Shanghai."""
    s = play(_one_unit_near_shanghai("after_each_action"), Move(("CH-88D",), H("3312")))
    assert s.result is not None and (s.result.winner, s.result.clause) == (JP, "SNC-4.2.1")
    assert s.phase == Phase.OVER


def test_snc_4_2_1_after_each_move_only_where_a_whole_move_ends() -> None:
    """SNC-4.2.1, SNC-9.0.10 (after_each_move): the 88th goes 3412, 3312, 3411; out of the
    ring after its first hex, back in it (and stopped by the EZOC, SNC-7.2.1) after its second:
    the move is whole and the game goes on. A move that ends in 3312 loses once it is over."""
    s = play(_one_unit_near_shanghai("after_each_move"), Move(("CH-88D",), H("3312")))
    assert s.result is None and s.moving == ("CH-88D",)
    back = play(s, Move(("CH-88D",), H("3411")))
    assert back.result is None and not back.moving
    assert dict(back.where)["CH-88D"] == H("3411")
    ended = play(s, Done())
    assert ended.result is not None and ended.result.clause == "SNC-4.2.1"


def test_snc_4_2_1_end_of_phase_only_when_the_phase_ends() -> None:
    """SNC-4.2.1 (end_of_phase): the move ending in 3312 does not end the game; the end of the
    First Operations Phase does."""
    s = play(_one_unit_near_shanghai("end_of_phase"), Move(("CH-88D",), H("3312")), Done())
    assert s.result is None and s.phase == Phase.OPS1
    s = play(s, Done())
    assert s.result is not None and s.result.clause == "SNC-4.2.1"


# --- attackers_seen (SNC-6.3.1 against SNC-10.0.5) ---------------------------------------------


def _jp_attack_on_3511(seen: str) -> SNCState:
    """GT 1, the Japanese attack 3511 with the three SNLF of 3512 and 3611, at fire support."""
    s = attrs.evolve(start(attackers_seen=seen), side=JP)
    s = play(s, Declare(Order.FIGHT_FIGHT), Attack(H("3511")))
    s = play(s, Join("JP-SNLF1"), Join("JP-SNLF2"), Join("JP-SNLF3"), Strike())
    assert s.step == Step.SUPPORT_A
    return s


def _tops(view: dict[str, Any]) -> set[str]:
    return {x["units"][0] for x in view["stacks"]}


def test_snc_10_0_5_declared_open_the_defender_sees_every_attacker() -> None:
    """SNC-10.0.5, SNC-10.3.0.1 (attackers_seen=declared_open, both presets): the Chinese see
    the three declared SNLF, one of them beneath the top of 3512's stack."""
    s = _jp_attack_on_3511("declared_open")
    view = GAME.observe(s, CH)
    attackers = ["JP-SNLF1", "JP-SNLF2", "JP-SNLF3"]
    assert list(view["combat"]["attackers"]) == attackers
    assert not set(attackers) <= _tops(view)  # one is beneath a top, and named all the same


def test_snc_6_3_1_tops_only_the_defender_sees_only_attackers_on_top() -> None:
    """SNC-6.3.1 (attackers_seen=tops_only): the Chinese see only the attackers on top of
    3512's and 3611's stacks; the attacker still sees all of his own."""
    s = _jp_attack_on_3511("tops_only")
    view = GAME.observe(s, CH)
    attackers = ["JP-SNLF1", "JP-SNLF2", "JP-SNLF3"]
    named = list(view["combat"]["attackers"])
    assert named == [u for u in attackers if u in _tops(view)]
    assert len(named) < len(attackers)
    assert list(GAME.observe(s, JP)["combat"]["attackers"]) == attackers


# --- elite_return_ban, elite_return_move (SNC-8.1.4, SNC-8.2.1, SNC-8.2.2) ----------------------


def _elite_returns(**options: str) -> SNCState:
    """GT 3, the Chinese Reinforcement Phase: the reduced elite 87th is due back (SNC-8.1.2)
    and a Japanese regiment stands in 0203, next to Nanking. No other unit is due."""
    s = start(**options)
    s = placed(s, **{"CH-87D": None, "JP-3D-1": H("0203")})
    s = attrs.evolve(
        s, turn=3, trt=(("CH-87D", 3),), dead=s.dead - {"CH-87D"}, reduced=frozenset({"CH-87D"})
    )
    s = play(s, Declare(Order.MOVE_MOVE), Done())
    assert s.phase == Phase.REINF and s.step == Step.MAIN
    return s


def _elite_places(s: SNCState) -> set[Hex]:
    return {a.hex for a in legal(s) if isinstance(a, Place) and a.unit == "CH-87D"}


def test_snc_8_2_1_elite_return_ban_applies_never_next_to_a_japanese_unit() -> None:
    """SNC-8.1.4, SNC-8.2.1 (elite_return_ban=applies, both presets): in or next to Nanking, but
    not Nanking itself nor any hex next to the regiment in 0203."""
    s = _elite_returns(elite_return_ban="applies")
    near_jp = {H("0203"), *GAME.board.neighbors(H("0203"))}
    places = _elite_places(s)
    assert places and not places & near_jp
    assert places <= {NANKING, *GAME.board.neighbors(NANKING)}


def test_snc_8_1_4_elite_return_ban_exempt_next_to_a_japanese_unit_too() -> None:
    """SNC-8.1.4 (elite_return_ban=exempt): Nanking and every hex next to it a unit may enter,
    next to the regiment or not; never the regiment's own hex (SNC-6.0.1)."""
    s = _elite_returns(elite_return_ban="exempt")
    places = _elite_places(s)
    ring = {NANKING, *GAME.board.neighbors(NANKING)}
    enterable = {h for h in ring if GAME.board.enterable(h)}
    assert places == enterable - {H("0203")}
    assert NANKING in places


def test_snc_8_1_4_elite_return_move_placed_only_no_move() -> None:
    """SNC-8.1.4 (elite_return_move=placed_only, both presets): the 87th placed in 0102 has no
    move in the Reinforcement Phase."""
    s = play(_elite_returns(elite_return_move="placed_only"), Place("CH-87D", H("0102")))
    assert not any(isinstance(a, Move) and a.units == ("CH-87D",) for a in legal(s))
    assert "CH-87D" not in s.movable


def test_snc_8_2_2_elite_return_move_moves_like_a_method_a_arrival() -> None:
    """SNC-8.2.2, SNC-8.2.3 (elite_return_move=moves): the 87th placed in 0302 may move, never
    next to the Japanese regiment in 0203."""
    s = play(_elite_returns(elite_return_move="moves"), Place("CH-87D", H("0302")))
    moves = {a.to for a in legal(s) if isinstance(a, Move) and a.units == ("CH-87D",)}
    near_jp = {H("0203"), *GAME.board.neighbors(H("0203"))}
    assert moves and not moves & near_jp


# --- tenth_army_unopposed, tenth_army_delay (SNC-8.4.1.1, SNC-8.4.1.2) --------------------------


def _tenth_army_lands(**options: str) -> SNCState:
    """GT 7, the Japanese Reinforcement Phase, the 10th Army due and nothing else; its
    historical landing hex 3417 emptied of its garrison."""
    s = start(**options)
    s = placed(s, **{"CH-G-I": None})
    trt = tuple((u, gt) for u, gt in s.trt if u in TENTH_ARMY)
    s = attrs.evolve(s, turn=7, side=JP, phase=Phase.REINF, order=Order.MOVE_MOVE, trt=trt)
    assert len(trt) == 14
    return s


def _land_at(s: SNCState, h: Hex) -> Land:
    """The one landing the position offers at `h` (its units in the listing's order)."""
    (found,) = [a for a in legal(s) if isinstance(a, Land) and a.hex == h]
    return found


def test_snc_8_4_1_2_tenth_army_unopposed_after_combat_only() -> None:
    """SNC-8.4.1.2, SNC-8.4.0.11 (tenth_army_unopposed=after_combat_only, both presets): on the
    empty 3417 the 10th Army is placed, with no combat and no second hex."""
    s = _tenth_army_lands(tenth_army_unopposed="after_combat_only")
    s = play(s, _land_at(s, H("3417")))
    assert s.step == Step.MAIN and s.combat is None
    assert not any(isinstance(a, AdvanceOn) for a in legal(s))
    assert {h for u, h in s.where if u in TENTH_ARMY} == {H("3417")}


def test_snc_8_4_1_2_tenth_army_unopposed_too_makes_its_second_hex() -> None:
    """SNC-8.4.1.2 (tenth_army_unopposed=unopposed_too): after landing on the empty 3417, 10th
    Army units may advance into a hex next to it free of Chinese units."""
    s = _tenth_army_lands(tenth_army_unopposed="unopposed_too")
    s = play(s, _land_at(s, H("3417")))
    assert s.step == Step.ADVANCE_ON
    second = [a for a in legal(s) if isinstance(a, AdvanceOn)]
    assert second and all(a.to in GAME.board.neighbors(H("3417")) for a in second)
    s = play(s, second[0])
    assert dict(s.where)[second[0].unit] == second[0].to


def test_snc_8_0_2_tenth_army_delay_each_landing_the_rest_may_land() -> None:
    """SNC-8.0.2, SNC-8.4.1.1 (tenth_army_delay=each_landing, both presets): one unit of the
    10th Army waits; the other 13 may land together this GT."""
    s = play(_tenth_army_lands(tenth_army_delay="each_landing"), Delay(TENTH_ARMY[0]))
    assert set(_land_at(s, H("3417")).units) == set(TENTH_ARMY) - {TENTH_ARMY[0]}


def test_snc_8_4_1_1_tenth_army_delay_whole_line_the_rest_wait_too() -> None:
    """SNC-8.4.1.1 (tenth_army_delay=whole_line): once one unit waits, the rest may not land
    this GT; each may only wait, and then the phase may end."""
    s = play(_tenth_army_lands(tenth_army_delay="whole_line"), Delay(TENTH_ARMY[0]))
    assert not any(isinstance(a, Land) for a in legal(s))
    for u in TENTH_ARMY[1:]:
        s = play(s, Delay(u))
    assert Done() in legal(s)
    assert {u for u, gt in s.trt if gt == 8} == set(TENTH_ARMY)


# --- landing_fire_support (SNC-8.4.0.6 against SNC-8.5.2) --------------------------------------


def _gt2_landing(reading: str) -> SNCState:
    """GT 2, the Japanese Reinforcement Phase after artillery support in the First Operations
    Phase; the 3rd Division lands on the Wusong garrison and the attacker's markers are due."""
    s = start(landing_fire_support=reading)
    trt = tuple((u, gt) for u, gt in s.trt if u.startswith("JP-3D-"))
    s = attrs.evolve(
        s, turn=2, side=JP, phase=Phase.REINF, order=Order.FIGHT_MOVE, trt=trt,
        used=("JP:artillery",), jp_support_ops1=True,
    )  # fmt: skip
    third = tuple(u for u, _ in trt)
    s = play(s, Land(third, H("3510")))
    assert s.step == Step.SUPPORT_A
    return s


def _kinds(s: SNCState) -> set[str]:
    return {a.kind for a in legal(s) if isinstance(a, Support)}


def test_snc_8_5_2_landing_fire_support_all_or_none_only_amphibious() -> None:
    """SNC-8.5.2 (landing_fire_support=all_or_none, both presets): markers were used in the
    First Operations Phase, so the landing has only its amphibious marker."""
    assert _kinds(_gt2_landing("all_or_none")) == {"amphibious"}


def test_snc_8_4_0_6_landing_fire_support_per_marker_the_unused_ones() -> None:
    """SNC-8.4.0.6 (landing_fire_support=per_marker): the markers not used in the First
    Operations Phase (air, naval gunfire) and the amphibious one; not the artillery used."""
    assert _kinds(_gt2_landing("per_marker")) == {"air", "naval_gunfire", "amphibious"}


# --- marker_arrival (SNC-8.5.1) ----------------------------------------------------------------


def _chinese_attack_on_3611(reading: str) -> SNCState:
    """GT 1, Chinese First Operations: the 57th attacks 3611 (by the navigable Huangpu), and the
    Japanese have used their two at-start naval gunfire markers this phase."""
    s = start(marker_arrival=reading)
    s = play(s, Declare(Order.FIGHT_FIGHT))
    s = attrs.evolve(s, used=("JP:naval_gunfire", "JP:naval_gunfire"))
    s = play(s, Attack(H("3611")), Join("CH-57D"), Strike())
    return play(s, Done())  # the Chinese add no artillery


@pytest.mark.parametrize(
    ("reading", "step"), [("own_player_turn", Step.ROLL), ("game_turn", Step.SUPPORT_D)]
)
def test_snc_8_5_1_marker_arrival_the_gt1_naval_gunfire(reading: str, step: Step) -> None:
    """SNC-8.5.1 (marker_arrival=own_player_turn, both presets): the GT 1 naval gunfire marker
    (SNC-13.27) comes at the start of the Japanese player turn, so in the Chinese one the
    Japanese hold only the two at-start ones, both used: no defence, the die is next. Under
    game_turn it is held from the GT's start: the Japanese may defend with it."""
    s = _chinese_attack_on_3611(reading)
    assert s.step == step
    if step == Step.SUPPORT_D:
        assert Support("naval_gunfire") in legal(s)
