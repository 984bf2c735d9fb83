"""The SNC combat sequence (SNC-10.x, SNC-11.x, SNC-6.0.2 (b)): attacks one at a time,
attackers joining, the reveal, fire support attacker then defender, the die as a chance action,
losses by the owners in the text's order, the advance, the stacking check of the combat."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import attrs
import pytest

from kernel.errors import IllegalAction
from kernel.game import CHANCE
from kernel.hexes import Hex, parse_hex
from specs.snc1937.data.variants import CATALOGUE
from specs.snc1937.game import SNC
from specs.snc1937.rules.actions import (
    Advance,
    Attack,
    Declare,
    Done,
    Eliminate,
    Intercept,
    Join,
    Loss,
    Roll,
    Strike,
    Support,
)
from specs.snc1937.rules.state import CH, JP, Order, SNCState, Step

GAME = SNC()


def H(text: str) -> Hex:
    return parse_hex(text)


def position(side: str = JP, turn: int = 6, **units: str) -> SNCState:
    """Only the named units on the map (unit id with '_' for '-' -> hex), in `side`'s Fight
    phase; every other unit in the dead pile, nothing in the TRT."""
    s = GAME.initial_state(CATALOGUE.preset("standard"))
    where = {u.replace("_", "-"): H(h) for u, h in units.items()}
    where.setdefault("JP-G-SHANGHAI", H("3512"))
    dead = frozenset(GAME.tables.spec) - set(where) - set(GAME.tables.jp_garrisons)
    s = attrs.evolve(
        s,
        where=tuple(sorted(where.items())),
        trt=(),
        dead=dead,
        turn=turn,
        side=side,
        jp_control=frozenset({H("3512")}),
    )
    return GAME.apply(s, Declare(Order.FIGHT_FIGHT))


def run(s: SNCState, *actions: Any) -> SNCState:
    for a in actions:
        s = GAME.apply(s, a)
    return s


def test_snc_10_1_2_attacks_declared_one_at_a_time() -> None:
    """SNC-10.1.2, SNC-10.0.5: an attack opens on one hex, its attackers join one by one, then
    it is resolved before the next; the die is a chance action of 1/6 a face
    (SNC-10.5.0.1)."""
    s = position(JP_3D_1="3006", JP_3D_2="3107", CH_11D="3007", CH_14D="2906", CH_36D="3511")
    assert set(GAME.legal_actions(s)) >= {Attack(H("3007")), Done()}
    s = run(s, Attack(H("3007")))
    assert s.step == Step.JOIN and set(GAME.legal_actions(s)) == {Join("JP-3D-1"), Join("JP-3D-2")}
    s = run(s, Join("JP-3D-1"))
    assert Strike() in GAME.legal_actions(s)
    s = run(s, Join("JP-3D-2"), Strike())
    assert s.step == Step.SUPPORT_A
    s = run(s, Done())
    assert GAME.to_move(s) == CHANCE
    assert GAME.chance_outcomes(s) == [(Roll(f), Fraction(1, 6)) for f in range(1, 7)]


def test_snc_10_0_7_a_unit_attacks_once_per_phase() -> None:
    """SNC-10.0.7, SNC-10.0.8: an attacker cannot join a second attack, and a hex already
    attacked is not attacked again in the phase."""
    s = position(JP_3D_1="3006", CH_11D="3007", CH_14D="2906", CH_36D="3511")
    s = run(s, Attack(H("3007")), Join("JP-3D-1"), Strike(), Done(), Roll(1))
    while s.step != Step.MAIN:
        s = GAME.apply(s, GAME.legal_actions(s)[0])
    acts = GAME.legal_actions(s)
    assert Attack(H("2906")) not in acts and Attack(H("3007")) not in acts
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, Attack(H("2906")))
    assert "SNC-10.0.1" in err.value.clauses


def test_snc_10_2_1_static_units_never_attack() -> None:
    """SNC-10.2.1: a garrison next to the enemy neither opens nor joins an attack."""
    s = position(JP_G_A="3006", CH_11D="3007", CH_36D="3511")
    assert Attack(H("3007")) not in GAME.legal_actions(s)


def test_snc_10_0_1_no_combat_across_all_lake_hexsides() -> None:
    """SNC-10.4.1.9: no attack across all-sea or all-lake hexsides."""
    b = GAME.board
    pairs = [
        (a, n)
        for (a, n) in ((side.a, side.b) for side in b.map.sides)
        if b.side_kind(a, n) in ("all_lake", "all_sea") and b.enterable(a) and b.enterable(n)
    ]
    assert pairs
    a, n = pairs[0]
    s = position(JP_3D_1=str(a), CH_11D=str(n), CH_36D="3511")
    assert Attack(n) not in GAME.legal_actions(s)


def test_snc_10_5_0_2_three_to_one_roll_three() -> None:
    """SNC-10.5.0.2, SNC-10.5.1.2: at 3:1 a 3 is 1/2: the attacker loses one step and the
    defender two, each side choosing among its legal losses."""
    # 3D-1..3 (4 each?) against a 1-CF-ish Chinese division on clear terrain
    t = GAME.tables
    s = position(JP_3D_1="3006", CH_11D="3007", CH_14D="3008", CH_36D="3511")
    c_a = t.cf("JP-3D-1", frozenset())
    c_d = t.cf("CH-11D", frozenset())
    s = run(s, Attack(H("3007")), Join("JP-3D-1"), Strike(), Done())
    assert s.combat is not None
    col = __import__("specs.snc1937.rules.tables", fromlist=["x"]).odds_column(t, s, s.combat)
    a_loss, d_loss = GAME.data.crt.result(col, 3)
    s = run(s, Roll(3))
    assert s.combat is not None or s.step == Step.MAIN
    assert c_a > 0 and c_d > 0 and (a_loss, d_loss) == GAME.data.crt.result(col, 3)


def test_snc_10_5_2_1_two_step_units_lose_first() -> None:
    """SNC-10.5.2.1, SNC-10.5.2.2: a two-step unit is reduced before a one-step unit dies,
    and the owner is the one who chooses (here the Chinese defender)."""
    s = position(
        JP_3D_1="3006", JP_3D_2="3107", JP_3D_3="2907", CH_36D="3007", CH_3D="3007",
        CH_88D="3511",
    )  # fmt: skip
    s = run(s, Attack(H("3007")), Join("JP-3D-1"), Join("JP-3D-2"), Join("JP-3D-3"), Strike())
    s = run(s, Done())
    face = next(f for f in range(1, 7) if GAME.data.crt.result(_col(s), f)[1] >= 1)
    s = run(s, Roll(face))
    assert s.step == Step.LOSS_D and GAME.to_move(s) == CH
    assert GAME.legal_actions(s) == [Loss("CH-36D")]
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, Loss("CH-3D"))
    assert "SNC-10.5.2.1" in err.value.clauses


def _col(s: SNCState) -> str:
    from specs.snc1937.rules.tables import odds_column

    assert s.combat is not None
    return odds_column(GAME.tables, s, s.combat)


def test_snc_10_5_3_1_advance_into_the_emptied_hex() -> None:
    """SNC-10.5.3.1, SNC-10.5.3.5, SNC-10.5.3.6: the defender's hex emptied, participating
    attackers may advance one by one, or stop."""
    s = position(JP_3D_1="3006", JP_3D_2="3107", CH_G_A="3007", CH_36D="3511")
    s = run(s, Attack(H("3007")), Join("JP-3D-1"), Join("JP-3D-2"), Strike(), Done())
    face = next(
        f
        for f in range(1, 7)
        if GAME.data.crt.result(_col(s), f) == (0, 1)
        or (GAME.data.crt.result(_col(s), f)[1] >= 1 and GAME.data.crt.result(_col(s), f)[0] == 0)
    )
    s = run(s, Roll(face))
    while s.step == Step.LOSS_D:
        s = GAME.apply(s, GAME.legal_actions(s)[0])
    assert s.step == Step.ADVANCE
    assert set(GAME.legal_actions(s)) == {Advance("JP-3D-1"), Advance("JP-3D-2"), Done()}
    s = run(s, Advance("JP-3D-1"))
    assert dict(s.where)["JP-3D-1"] == H("3007")
    assert H("3007") in s.jp_control  # SNC-3.2.2
    s = run(s, Done())
    assert s.step == Step.MAIN


def test_snc_11_1_3_one_marker_of_each_category() -> None:
    """SNC-11.1.1, SNC-11.1.3: the attacker adds markers before the defender, one of each
    category; amphibious support only in a landing (SNC-11.0.4)."""
    s = position(JP_3D_1="3006", CH_11D="3007", CH_36D="3511")
    s = run(s, Attack(H("3007")), Join("JP-3D-1"), Strike())
    kinds = {a.kind for a in GAME.legal_actions(s) if isinstance(a, Support)}
    assert "artillery" in kinds and "amphibious" not in kinds
    s = run(s, Support("artillery"))
    kinds = {a.kind for a in GAME.legal_actions(s) if isinstance(a, Support)}
    assert "artillery" not in kinds
    assert "JP:artillery" in s.used  # SNC-11.1.5


def test_snc_11_1_4_only_naval_gunfire_defends() -> None:
    """SNC-11.0.3, SNC-11.1.4: the Chinese have no defensive support; a Japanese defender
    in the naval gunfire line may add one naval gunfire marker."""
    b = GAME.board
    jp_hex = next(
        h
        for h in sorted(b.map.naval_gunfire_line)
        if b.enterable(h) and any(b.enterable(n) and not b.is_city(n) for n in b.neighbors(h))
    )
    ch_hex = next(
        n
        for n in b.neighbors(jp_hex)
        if b.enterable(n)
        and not b.is_city(n)
        and b.side_kind(jp_hex, n) not in ("all_lake", "all_sea", "yangtze")
    )
    s = position(side=CH, JP_3D_1=str(jp_hex), CH_11D=str(ch_hex), CH_36D="3511")
    s = run(s, Attack(jp_hex), Join("CH-11D"), Strike())
    assert {a for a in GAME.legal_actions(s) if isinstance(a, Support)} <= {Support("artillery")}
    s = run(s, Done())
    assert s.step == Step.SUPPORT_D and GAME.to_move(s) == JP
    assert set(GAME.legal_actions(s)) == {Support("naval_gunfire"), Done()}


def test_snc_6_0_3_stacking_checked_after_each_combat() -> None:
    """SNC-6.0.2 (b), SNC-6.0.3: after a combat both sides' stacks in its hexes are checked;
    an over-stacked Chinese hex there is culled by the Chinese."""
    s = position(
        JP_3D_1="3006", CH_3D="3007", CH_6D="3007", CH_7D="3007", CH_51D="3007", CH_36D="3511"
    )
    s = run(s, Attack(H("3007")), Join("JP-3D-1"), Strike(), Done())
    face = next(f for f in range(1, 7) if GAME.data.crt.result(_col(s), f)[1] == 0)
    s = run(s, Roll(face))
    while s.step == Step.LOSS_A:
        s = GAME.apply(s, GAME.legal_actions(s)[0])
    assert s.step == Step.STACK and GAME.to_move(s) == CH
    assert set(GAME.legal_actions(s)) == {
        Eliminate(u) for u in ("CH-3D", "CH-6D", "CH-7D", "CH-51D")
    }


def test_snc_10_4_1_7_city_defence_shift() -> None:
    """SNC-10.4.1.7: defenders in a city get two left shifts."""
    s = position(JP_3D_1="2409", CH_3D="2410", CH_36D="3511")
    s = run(s, Attack(H("2410")), Join("JP-3D-1"), Strike())
    from specs.snc1937.rules.tables import battle

    assert s.combat is not None
    shifts = battle(GAME.tables, s, s.combat).shifts
    assert sum(x.columns for x in shifts) == -2


def test_snc_2_2_1_12_a_step_loss_flips_then_eliminates() -> None:
    """SNC-2.2.1.12, SNC-2.2.1.13: a two-step unit's first loss flips it, the next eliminates
    it; a Japanese regiment goes to the dead pile (SNC-8.3.3: never to return)."""
    from specs.snc1937.rules.tables import take_step

    s = position(JP_3D_1="3006", CH_36D="3511")
    s = take_step(GAME.tables, s, "JP-3D-1")
    assert "JP-3D-1" in s.reduced and "JP-3D-1" in dict(s.where)
    s = take_step(GAME.tables, s, "JP-3D-1")
    assert "JP-3D-1" in s.dead and "JP-3D-1" not in dict(s.where)


def test_snc_10_1_1_any_number_of_attacks() -> None:
    """SNC-10.1.1: after one attack, another hex may still be attacked by other units."""
    s = position(
        JP_3D_1="3006", JP_3D_2="2806", CH_3D="3007", CH_6D="2807", CH_36D="3511",
    )  # fmt: skip
    s = run(s, Attack(H("3007")), Join("JP-3D-1"), Strike(), Done(), Roll(1))
    while s.step != Step.MAIN:
        s = GAME.apply(s, GAME.legal_actions(s)[-1])
    assert Attack(H("2807")) in GAME.legal_actions(s)


def test_snc_10_5_3_3_advance_ignores_ezoc_and_costs_nothing() -> None:
    """SNC-10.5.3.3, SNC-7.2.4: an advance is no move: a unit that attacked from an EZOC
    advances into a hex in another Chinese ZOC."""
    s = position(JP_3D_1="3006", CH_G_A="3007", CH_3D="3008", CH_36D="3511")
    s = run(s, Attack(H("3007")), Join("JP-3D-1"), Strike(), Done())
    results = {f: GAME.data.crt.result(_col(s), f) for f in range(1, 7)}
    face = next(f for f, (a, d) in results.items() if d >= 1 and a == 0)
    s = run(s, Roll(face))
    while s.step == Step.LOSS_D:
        s = GAME.apply(s, GAME.legal_actions(s)[0])
    assert H("3007") in set(GAME.board.neighbors(H("3008")))  # in the 3D's ZOC
    assert Advance("JP-3D-1") in GAME.legal_actions(s)


def test_snc_8_5_2_japanese_markers_first_ops_or_reinforcement() -> None:
    """SNC-8.5.2: markers used in the Japanese First Operations Phase cannot also be used in
    that GT's Reinforcement Phase landing (amphibious support excepted, SNC-8.4.0.6)."""
    from specs.snc1937.rules.state import Combat, Phase
    from specs.snc1937.rules.support_steps import support_kinds

    s = position(JP_3D_1="3006", CH_3D="3007", CH_36D="3511", turn=2)
    s = run(s, Attack(H("3007")), Join("JP-3D-1"), Strike(), Support("artillery"))
    assert s.jp_support_ops1
    landing = Combat(target=H("3308"), attackers=("JP-11D-1",), landing=True)
    later = attrs.evolve(s, phase=Phase.REINF, combat=landing, used=())
    assert support_kinds(GAME.tables, later, landing, False) == ["amphibious"]


def test_snc_11_3_2_chinese_air_aborts_a_japanese_air_marker() -> None:
    """SNC-11.3.1, SNC-11.3.2: a Japanese air marker lets the Chinese roll: a 6 aborts its
    shift, a 1 ends Chinese air support for the game."""
    s = position(JP_3D_1="3006", CH_3D="3007", CH_36D="3511", turn=3)
    s = run(s, Attack(H("3007")), Join("JP-3D-1"), Strike(), Support("air"))
    assert s.step == Step.AIR_ASK and GAME.to_move(s) == CH
    s = run(s, Intercept(True))
    assert GAME.to_move(s) == CHANCE
    six = run(s, Roll(6))
    assert six.combat is not None and six.combat.aborted == 1 and six.step == Step.SUPPORT_A
    one = run(s, Roll(1))
    assert one.combat is not None and one.combat.aborted == 0 and not one.ch_air
