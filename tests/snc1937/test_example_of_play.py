"""The example of play (section 12) replayed through the public API.

Every decision is an explicit action picked out of `SNC.legal_actions` by its fields (`_do`)
and every die is the chance action `Roll(face)` offered by `chance_outcomes`, with the
narrated face where the text gives one, so the test replays the narration: GT 1, GT 2 and the
Japanese GT 3. At each narrated point it asserts the odds the flow computes for the combat in
progress (`flow.battle`: strengths, basic column, every shift, the column read; the Game API's
describe/events/observe do not show them), the CRT result, the steps lost and the advances.

Where the text's positions are in its lost figures ("[gap in the source text]" after the
GT 1 and GT 3 figure captions), they are built into the state with `attrs.evolve` at the start
of the Japanese GT 3 turn (`gt3_japanese_start`); everything else comes from the set-up and
from the actions played. Dice and choices the text does not narrate are named where made.

The replay runs under `standard`, and there every odds, shift, column and result the text
prints is the game's: `standard` reads naval_gunfire_adjacent=either (AMB-SNC-32), the reading
the example needs (the option's text in `variants.py` argues it). It runs again under
attacker_hex, the example's other reading (the same numbers), and under defender_hex, the
catalogue note's, which shows where the example rules that reading out: 3511's column and
3410's result.

Where the example and the rules text disagree (AMB-SNC-5) the kernel computes by the rules:
the option `example_conflicts` takes `rules_text` in both presets (no rule reads it), and
`test_snc_12_amb_snc_5_...` names, for each printed number the rules do not give, the reading
that explains it.
"""

from __future__ import annotations

import functools
from typing import Any

import attrs
import pytest

from kernel.hexes import Hex, parse_hex
from kernel.variants import Variant
from specs.snc1937.data.variants import CATALOGUE
from specs.snc1937.game import SNC
from specs.snc1937.rules import tables as flow
from specs.snc1937.rules.actions import (
    Advance,
    Attack,
    Declare,
    Delay,
    Done,
    Intercept,
    Join,
    Land,
    Loss,
    Move,
    Place,
    Remove,
    Replace,
    Roll,
    Strike,
    Support,
)
from specs.snc1937.rules.odds import Odds, column_label
from specs.snc1937.rules.state import CH, JP, Order, Phase, SNCState, Step

GAME = SNC()
T = GAME.tables


def H(text: str) -> Hex:
    return parse_hex(text)


THIRD = ("JP-3D-1", "JP-3D-2", "JP-3D-3", "JP-3D-4")
ELEVENTH = ("JP-11D-1", "JP-11D-2", "JP-11D-3", "JP-11D-4")
HUNDRED_FIRST = ("JP-101D-1", "JP-101D-2", "JP-101D-3", "JP-101D-4")
SNLF = ("JP-SNLF1", "JP-SNLF2", "JP-SNLF3", "JP-SNLF9")


def _do(s: SNCState, action: Any) -> SNCState:
    """Apply `action` after checking that the game offers it: a chance action must be among
    `chance_outcomes`, any other among `legal_actions`."""
    if isinstance(action, Roll):
        offered = [a for a, _ in GAME.chance_outcomes(s)]
    else:
        offered = list(GAME.legal_actions(s))
    assert action in offered, (action, s.turn, s.side, s.phase, s.step, offered[:20])
    return GAME.apply(s, action)


def _play(s: SNCState, *actions: Any) -> SNCState:
    for a in actions:
        s = _do(s, a)
    return s


def _odds(s: SNCState) -> Odds:
    assert s.combat is not None
    return flow.battle(T, s, s.combat)


def _where(s: SNCState) -> dict[str, Hex]:
    return dict(s.where)


# The replay runs under `standard` (naval_gunfire_adjacent=either), under attacker_hex (the
# example's other reading) and under defender_hex (the catalogue note's, AMB-SNC-32 (a)).
STANDARD = "standard"
ATTACKER_HEX = "attacker_hex"
DEFENDER_HEX = "defender_hex"


def _variant(key: str) -> Variant:
    if key == STANDARD:
        return CATALOGUE.preset("standard")
    return CATALOGUE.variant("standard", {"naval_gunfire_adjacent": key})


def _support(s: SNCState, *kinds: str) -> SNCState:
    """The attacker adds these markers, then closes fire support (SNC-11.1.1). The Chinese
    never try to intercept an air marker (SNC-11.3.1): the text mentions no interception."""
    for kind in kinds:
        s = _do(s, Support(kind))
        if s.step == Step.AIR_ASK:
            s = _do(s, Intercept(False))
    return _do(s, Done())


def _naval(key: str, target: str) -> tuple[str, ...]:
    """Naval gunfire where the reading offers it (SNC-11.4.2; AMB-SNC-32): Loudian 3208 is one
    hex inland from the Yangtze, so every reading offers it there; 3511 and 3410 are off the
    water and attacked from hexes by it, so defender_hex alone does not."""
    return () if key == DEFENDER_HEX and target != "3208" else ("naval_gunfire",)


def _chinese_turn_without_moves(s: SNCState) -> SNCState:
    """Move/Move with nothing moving and every reinforcement waiting (SNC-8.0.2,
    reinforcement_delay=delayable). From GT 3, air interdiction opens the Chinese
    Reinforcement Phase (SNC-11.2.1): not narrated; the Chinese keep their air support, the die
    is a 1 and they remove a unit other than the Training Division brigades (SNC-11.2.2)."""
    s = _play(s, Declare(Order.MOVE_MOVE), Done())
    if s.step == Step.AIR_DEFENCE:
        s = _play(s, Intercept(False), Roll(1))
        if s.step == Step.INTERDICT:
            removals = [a for a in GAME.legal_actions(s) if isinstance(a, Remove)]
            s = _do(s, next(a for a in removals if a.unit not in ("CH-1TD", "CH-2TD")))
    while s.phase == Phase.REINF:
        delays = [a for a in GAME.legal_actions(s) if isinstance(a, Delay)]
        s = _do(s, delays[0] if delays else Done())
    return _do(s, Done())


@functools.cache
def gt1_done(key: str) -> SNCState:
    """GT 1 as far as the narration allows. The Chinese plan ("use the first two turns to
    build a strong defensive line") is drawn only in the lost GT 1 figure, so the Chinese
    declare Move/Move and move nothing. The Japanese GT 1 is not narrated: Move/Move, nothing
    moves, and SNLF 9 arrives in Shanghai 3512 (the GT 3 attack on 3511 counts SNLF "out of
    Shanghai" at 8 strength points: four SNLF of 2; snlf9_arrival=placed, AMB-SNC-35)."""
    s = GAME.initial_state(_variant(key))
    s = _chinese_turn_without_moves(s)
    assert (s.turn, s.side, s.phase) == (1, JP, Phase.DECLARE)
    s = _play(s, Declare(Order.MOVE_MOVE), Done(), Place("JP-SNLF9", H("3512")), Done(), Done())
    assert (s.turn, s.side, s.phase) == (2, CH, Phase.DECLARE)
    return s


@functools.cache
def gt2_3rd_landing(key: str) -> SNCState:
    """GT 2 Chinese (in the lost figure): as `_chinese_turn_without_moves`. GT 2 Japanese
    declares Move/Fight (the narrated fights are in the second Operations Phase; nothing moves
    in the first). The Reinforcement Phase lands the 3rd Division first, as the text does (any
    due group may land next): at Wusong 3510 with "the maximum fire support of 4R (Amphibious,
    Naval, Air, and Artillery)": the combat stands at the die."""
    s = _chinese_turn_without_moves(gt1_done(key))
    assert (s.turn, s.side, s.phase) == (2, JP, Phase.DECLARE)
    s = _play(s, Declare(Order.MOVE_FIGHT), Done())
    assert s.phase == Phase.REINF
    s = _do(s, Land(THIRD, H("3510")))
    return _support(s, "amphibious", "naval_gunfire", "artillery", "air")


@functools.cache
def gt2_after_wusong(key: str) -> SNCState:
    """The narrated die, 1: the Wusong garrison's two steps (the defender's losses first,
    SNC-10.5.2.x), then the 3rd's step: the Japanese reduce JP-3D-1."""
    s = _play(gt2_3rd_landing(key), Roll(1), Loss("CH-G-WUSONG"), Loss("CH-G-WUSONG"))
    return _do(s, Loss("JP-3D-1"))


@functools.cache
def gt2_11th_landing(key: str) -> SNCState:
    """Then the 11th Division lands at Chuanshakou 3308 on Garrison G with no fire support
    left: the combat stands at the die."""
    s = _do(gt2_after_wusong(key), Land(ELEVENTH, H("3308")))
    return _support(s)


@functools.cache
def gt2_landed(key: str) -> SNCState:
    """The 11th's die is not narrated ("an easy 6:1 attack (no step loss)"): 2, the lowest
    face without an attacker step at 6:1. Garrison G takes its step."""
    return _play(gt2_11th_landing(key), Roll(2), Loss("CH-G-G"))


@functools.cache
def gt2_done(key: str) -> SNCState:
    """Second Operations Phase (Fight): the 11th attacks the garrison in 3408 and the 3rd the
    Baoshan garrison in 3509, dice not narrated ("no step loss in either combat": 2, the
    lowest face without one at 6:1), and neither division advances (`Done` at the advance)."""
    s = _do(gt2_landed(key), Done())
    assert s.phase == Phase.OPS2
    s = _play(s, Attack(H("3408")), *(Join(u) for u in ELEVENTH), Strike())
    s = _play(_support(s), Roll(2), Loss("CH-G-H"))
    assert s.step == Step.ADVANCE
    s = _do(s, Done())
    s = _play(s, Attack(H("3509")), *(Join(u) for u in THIRD), Strike())
    s = _play(_support(s), Roll(2), Loss("CH-G-BAOSHAN"))
    assert s.step == Step.ADVANCE
    return _do(s, Done())


@functools.cache
def gt3_japanese_start(key: str) -> SNCState:
    """GT 3 Chinese: Move/Move (narrated); its moves are in the lost figure, so nothing moves
    and the reinforcements wait. The dispositions the Japanese GT 3 narration needs are then
    built with `attrs.evolve`:
    - 3511 keeps its set-up defenders, the 87th (elite 5), the 98th (3) and Garrison J (1):
      the text's 9;
    - Loudian 3208: an elite 5 (the 36th) with the Tax Police (3) and the 20th Brigade (1):
      the text's 9 ("12:9", "reducing the Chinese elite 5");
    - 3410: the Training Division's two elite brigades (5 each, from the TRT): the text's 10
      ("the Chinese Training Brigade stack in 3410", "one elite brigade is reduced")."""
    s = _do(gt2_done(key), Done())
    assert (s.turn, s.side, s.phase) == (3, CH, Phase.DECLARE)
    s = _chinese_turn_without_moves(s)
    assert (s.turn, s.side, s.phase) == (3, JP, Phase.DECLARE)
    placed = {
        "CH-36D": H("3208"), "CH-TP": H("3208"), "CH-20B": H("3208"),
        "CH-1TD": H("3410"), "CH-2TD": H("3410"),
    }  # fmt: skip
    where = {**dict(s.where), **placed}
    return attrs.evolve(
        s,
        where=tuple(sorted(where.items())),
        trt=tuple((u, gt) for u, gt in s.trt if u not in placed),
    )


@functools.cache
def gt3_3511(key: str) -> SNCState:
    """Fight/Fight. The 3rd Division (from 3510, across the creek) and the four SNLF (3512,
    3611) attack 3511 with air and artillery, and naval gunfire where the reading offers it:
    the combat stands at the die."""
    s = _play(gt3_japanese_start(key), Declare(Order.FIGHT_FIGHT))
    s = _play(s, Attack(H("3511")), *(Join(u) for u in THIRD + SNLF), Strike())
    return _support(s, "air", "artillery", *_naval(key, "3511"))


@functools.cache
def gt3_after_3511(key: str) -> SNCState:
    """The narrated 4: three Chinese steps. The Chinese must reduce the 87th first
    (SNC-10.5.2.1), then lose the 98th and the reduced 87th, "leaving the Chinese garrison";
    the eliminated elite 87th gets its return die (SNC-8.1.2; not narrated: 1)."""
    s = _play(gt3_3511(key), Roll(4))
    for unit in ("CH-87D", "CH-98D", "CH-87D"):
        assert GAME.legal_actions(s) == [Loss(unit)]
        s = _do(s, Loss(unit))
    return _do(s, Roll(1))


@functools.cache
def gt3_loudian(key: str) -> SNCState:
    """The 11th Division (3308) attacks Loudian 3208 with the second air and artillery
    markers and naval gunfire: the combat stands at the die."""
    s = _play(gt3_after_3511(key), Attack(H("3208")), *(Join(u) for u in ELEVENTH), Strike())
    return _support(s, "air", "artillery", *_naval(key, "3208"))


@functools.cache
def gt3_after_loudian(key: str) -> SNCState:
    """The narrated 2: the Chinese reduce the elite 36th, the Japanese two regiments."""
    s = _play(gt3_loudian(key), Roll(2), Loss("CH-36D"), Loss("JP-11D-1"), Loss("JP-11D-2"))
    return _do(s, Done())


@functools.cache
def gt3_reinforced(key: str) -> SNCState:
    """Reinforcement Phase: replacements first (replacement_timing=first_step, SNC-8.3.4),
    one to the 3rd and one to the 11th; then the 101st lands on 3610 and eliminates Garrison
    N; the amphibious marker is not narrated and not used; the die is not narrated: 2. The GT 3
    line of section 13 lands by formation (landing_split=by_formation), so "adds one detachment
    to each of his divisions" is played: which detachment joins which division is not
    narrated, so in id order, Amaya the 101st (3610), Asama the 11th (3308), Shigeto the 3rd
    (3510); those hexes are Japanese, so they land without combat (SNC-8.4.0.11)."""
    s = gt3_after_loudian(key)
    assert s.phase == Phase.REINF and s.step == Step.REPLACE
    s = _play(s, Replace("JP-3D-1"), Replace("JP-11D-1"))
    s = _do(s, Land(HUNDRED_FIRST, H("3610")))
    s = _play(_support(s), Roll(2), Loss("CH-G-N"))
    s = _play(
        s,
        Land(("JP-AMAYA",), H("3610")),
        Land(("JP-ASAMA",), H("3308")),
        Land(("JP-SHIGETO",), H("3510")),
    )
    return _do(s, Done())


@functools.cache
def gt3_after_3511_cleared(key: str) -> SNCState:
    """Second Operations Phase: the 101st and the four SNLF attack the garrison left in 3511
    (no fire support narrated; the die is not narrated: 2) and the whole 101st advances."""
    s = gt3_reinforced(key)
    assert s.phase == Phase.OPS2
    s = _play(s, Attack(H("3511")), *(Join(u) for u in HUNDRED_FIRST + SNLF), Strike())
    s = _play(_support(s), Roll(2), Loss("CH-G-J"))
    s = _play(s, *(Advance(u) for u in HUNDRED_FIRST))
    return _do(s, Done())


@functools.cache
def gt3_3410(key: str) -> SNCState:
    """The 3rd Division with the Shigeto Detachment landed beside it (3510, across the creek)
    attacks the Training Division brigades in 3410 with air and artillery (the markers are
    back in the second phase) and naval gunfire where offered: the combat stands at the die."""
    s = _play(gt3_after_3511_cleared(key), Attack(H("3410")), *(Join(u) for u in THIRD))
    s = _play(s, Join("JP-SHIGETO"), Strike())
    return _support(s, "air", "artillery", *_naval(key, "3410"))


@functools.cache
def gt3_done(key: str) -> SNCState:
    """The narrated 3 on 3410, its losses (the Chinese reduce the 1st Training brigade, the
    Japanese a 4-strength regiment of the 3rd, JP-3D-2), then the end of GT 3."""
    s = _do(gt3_3410(key), Roll(3))
    if s.step == Step.LOSS_D:
        s = _do(s, Loss("CH-1TD"))
    s = _do(s, Loss("JP-3D-2"))
    assert s.step == Step.MAIN and s.phase == Phase.OPS2
    return _do(s, Done())


def _label(o: Odds) -> str:
    return column_label(o.column)


def _shift_clauses(o: Odds) -> list[tuple[int, str]]:
    return [(sh.columns, sh.clause) for sh in o.shifts]


EXAMPLE = pytest.mark.parametrize("key", [STANDARD, ATTACKER_HEX])  # the example's readings
ALL = pytest.mark.parametrize("key", [STANDARD, ATTACKER_HEX, DEFENDER_HEX])


# --- the readings the presets take --------------------------------------------------------------


@pytest.mark.parametrize("preset", ["standard", "printed"])
def test_snc_12_presets_compute_by_the_rules_text(preset: str) -> None:
    """AMB-SNC-5, AMB-SNC-32: both presets take `example_conflicts=rules_text` (the rules
    arithmetic wins over the example's), `replacement_timing=first_step` (SNC-8.3.4: not the
    example's landing-first order, AMB-SNC-5 (iii)) and `naval_gunfire_adjacent=either` (the
    reading the example's fire support needs, where the rules text is silent)."""
    v = CATALOGUE.preset(preset)
    assert v.is_("example_conflicts", "rules_text")
    assert v.is_("replacement_timing", "first_step")
    assert v.is_("naval_gunfire_adjacent", "either")


# --- GT 1 ---------------------------------------------------------------------------------------


def test_snc_12_gt1_snlf9_joins_the_shanghai_snlf() -> None:
    """Section 12: "the Japanese player can add 2 steps during his turn" (SNLF 9, two steps);
    after GT 1 the four SNLF of the GT 3 attack on 3511 stand in 3512 and 3611, 8 CF."""
    s = gt1_done(STANDARD)
    where = _where(s)
    assert [where[u] for u in SNLF] == [H("3512"), H("3512"), H("3611"), H("3512")]
    assert sum(T.cf(u, s.reduced) for u in SNLF) == 8
    assert T.two_step("JP-SNLF9", s.reduced, s.variant)


# --- GT 2 Japanese ------------------------------------------------------------------------------


def test_snc_8_4_0_5_gt2_11th_lands_at_chuanshakou_at_6_to_1_without_step_loss() -> None:
    """SNC-8.4.0.4, SNC-8.4.0.5: the 11th (12 CF) lands halved, 6 against Garrison G's 1:
    "an easy 6:1 attack" with no marker; the die leaves the 11th whole and Garrison G dead."""
    s = gt2_11th_landing(STANDARD)
    o = _odds(s)
    assert (o.attack, o.defence, o.shifts, _label(o)) == (6, 1, (), "6:1")
    s = _play(s, Roll(2))
    assert s.combat is not None and (s.combat.loss_a, s.combat.loss_d) == (0, 2)
    s = _do(s, Loss("CH-G-G"))
    assert "CH-G-G" in s.dead and not set(ELEVENTH) & s.reduced
    assert {_where(s)[u] for u in ELEVENTH} == {H("3308")}


def test_snc_11_1_2_gt2_3rd_lands_at_wusong_8_to_3_is_2_to_1_and_4r_makes_6_to_1() -> None:
    """SNC-8.4.0.5, SNC-10.3.0.2, SNC-11.1.2, SNC-8.4.0.6: "16 halved to 8 on the attack and
    3 on defense for a 2:1"; "the maximum fire support of 4R (Amphibious, Naval, Air, and
    Artillery) for a 6:1". The four markers are exactly the ones offered."""
    s = gt2_3rd_landing(STANDARD)
    o = _odds(s)
    assert (o.attack, o.defence, column_label(o.base)) == (8, 3, "2:1")
    assert _shift_clauses(o) == [(1, "SNC-11.1.2")] * 4
    assert _label(o) == "6:1"
    assert s.combat is not None
    assert s.combat.support_a == ("amphibious", "naval_gunfire", "artillery", "air")


def test_snc_10_5_2_1_gt2_wusong_die_1_costs_the_3rd_a_step() -> None:
    """SNC-10.5.0.1, SNC-10.5.2.1; AMB-SNC-33: "he rolls a 1 and loses a step" (6:1, 1 is
    1/2): the two-step Wusong garrison is eliminated, the 3rd lands with one regiment reduced."""
    s = _do(gt2_3rd_landing(STANDARD), Roll(1))
    assert s.combat is not None and (s.combat.loss_a, s.combat.loss_d) == (1, 2)
    assert T.two_step("CH-G-WUSONG", frozenset(), s.variant)
    s = gt2_after_wusong(STANDARD)
    assert "CH-G-WUSONG" in s.dead
    assert s.reduced & set(THIRD) == {"JP-3D-1"}
    assert {_where(s)[u] for u in THIRD} == {H("3510")}


def test_snc_10_5_3_1_gt2_second_ops_no_step_loss_and_no_advance() -> None:
    """SNC-10.5.3.1, SNC-10.3.1.1: the 11th (12) takes the garrison in 3408 (1) and the
    reduced 3rd (14) the Baoshan garrison in 3509 (2), both beyond 6:1 and read on the 6:1
    column, no step loss, and "neither division advances": the advance is the attacker's
    choice, and both divisions stay in their landing hexes."""
    s = _do(gt2_landed(STANDARD), Done())
    s = _play(s, Attack(H("3408")), *(Join(u) for u in ELEVENTH), Strike())
    o = _odds(s)
    assert (o.attack, o.defence, o.shifts, _label(o)) == (12, 1, (), "6:1")
    s = _play(_support(s), Roll(2))
    assert s.combat is not None and (s.combat.loss_a, s.combat.loss_d) == (0, 2)
    s = _play(s, Loss("CH-G-H"), Done())
    s = _play(s, Attack(H("3509")), *(Join(u) for u in THIRD), Strike())
    o = _odds(s)
    assert (o.attack, o.defence, o.shifts, _label(o)) == (14, 2, (), "6:1")
    s = gt2_done(STANDARD)
    where = _where(s)
    assert {"CH-G-H", "CH-G-BAOSHAN"} <= s.dead
    assert {where[u] for u in ELEVENTH} == {H("3308")}
    assert {where[u] for u in THIRD} == {H("3510")}
    assert s.reduced & {*THIRD, *ELEVENTH} == {"JP-3D-1"}
    assert H("3408") not in where.values() and H("3509") not in where.values()


# --- GT 2 to GT 3: the Chinese in 3511 are pinned ----------------------------------------------


def _leaves_3511(s: SNCState) -> list[Move]:
    """The moves the position offers that take a unit out of 3511."""
    units = {u for u, h in s.where if h == H("3511")}
    return [a for a in GAME.legal_actions(s) if isinstance(a, Move) and set(a.units) & units]


@ALL
def test_snc_7_2_3_gt2_the_3rd_at_wusong_pins_the_chinese_in_3511(key: str) -> None:
    """SNC-7.2.3, SNC-7.2.1; AMB-SNC-18. The text: "land 3rd division at Wusong where it pins
    the Chinese forces in 3511 (they can not withdraw due to ZOCs)". In the Chinese Move phase
    of GT 2, before the landing, the 87th and 98th may leave 3511 (into 3510, out of every
    EZOC); in the one of GT 3, after it, no move leaves 3511: every hex next to it is Japanese
    or in a Japanese ZOC (3410 and 3610 from the 3rd in 3510, 3411 from 3512, whose units
    project a ZOC out of the city, AMB-SNC-18), and a unit leaving an EZOC may not enter
    another (SNC-7.2.3). The garrison is static (SNC-2.2.1.8)."""
    before = _do(gt1_done(key), Declare(Order.MOVE_MOVE))
    assert {u for a in _leaves_3511(before) for u in a.units} >= {"CH-87D", "CH-98D"}
    s = _do(gt2_done(key), Done())
    assert (s.turn, s.side) == (3, CH)
    s = _do(s, Declare(Order.MOVE_MOVE))
    assert s.phase == Phase.OPS1 and s.ops_kind() == "move"
    assert {u for u, h in s.where if h == H("3511")} == {"CH-87D", "CH-98D", "CH-G-J"}
    assert _leaves_3511(s) == []


def test_snc_2_2_1_11_gt3_northeast_shanghai_needs_a_defender_result_of_3() -> None:
    """SNC-2.2.1.11, SNC-13.25: "needs a defender result of 3 to clear the hex" (3611, the
    northeast hex of Shanghai): SNLF 3 (two steps) and Garrison A (one)."""
    s = gt2_done(STANDARD)
    units = [u for u, h in s.where if h == H("3611")]
    assert sorted(units) == ["JP-G-A", "JP-SNLF3"]
    assert sum(2 if T.two_step(u, s.reduced, s.variant) else 1 for u in units) == 3


# --- GT 3 Japanese, First Operations Phase ------------------------------------------------------


@ALL
def test_snc_10_4_2_1_gt3_3511_three_shifts_make_the_text_s_5_to_1(key: str) -> None:
    """SNC-10.4.1.8, SNC-10.3.0.2, SNC-10.4.2.1, SNC-11.1.2, SNC-11.4.2; AMB-SNC-5, AMB-SNC-32.
    The text: "3rd Division (16 halved to 8 for the creek) supported by SNLF units out of
    Shanghai (8 more strength points) at 16:9 or 2:1. He adds three fire support shifts for a
    5:1 and rolls a 4. He gets a 0/3 result". By the rules the 3rd has 14, halved 7, so 15:9,
    1:1, and the attack from 3510, 3512 and 3611 (one hex between each) is concentric, 1R,
    which the text never mentions (the numbers the rules do not give: `test_snc_12_amb_snc_5_...`
    below). The text's three shifts are air, artillery and naval gunfire, which needs an
    attacker's hex by the water: under `standard` (either) and attacker_hex the final column is
    the text's 5:1; under defender_hex (the catalogue note) naval gunfire is not offered and it
    is 4:1, where the narrated 4 is 0/3 as well."""
    s = gt3_3511(key)
    o = _odds(s)
    assert (o.attack, o.defence, column_label(o.base)) == (15, 9, "1:1")
    n = 2 if key == DEFENDER_HEX else 3
    assert _shift_clauses(o) == [(1, "SNC-10.4.2.1")] + [(1, "SNC-11.1.2")] * n
    assert _label(o) == ("4:1" if key == DEFENDER_HEX else "5:1")
    assert (Support("naval_gunfire") in GAME.legal_actions(_support_open(key))) is (n == 3)
    s = _do(s, Roll(4))
    assert s.combat is not None and (s.combat.loss_a, s.combat.loss_d) == (0, 3)


def _support_open(key: str) -> SNCState:
    """The GT 3 attack on 3511 declared, before any marker."""
    s = _play(gt3_japanese_start(key), Declare(Order.FIGHT_FIGHT), Attack(H("3511")))
    return _play(s, *(Join(u) for u in THIRD + SNLF), Strike())


def test_snc_11_4_2_naval_gunfire_on_3511_only_from_the_attackers_hexes() -> None:
    """SNC-11.4.2; AMB-SNC-32: the defender's hex 3511 is off the gunfire line, the
    attackers' 3510, 3512 and 3611 are on it: `standard` (either) and attacker_hex offer naval
    gunfire, defender_hex does not."""
    b = T.board
    assert not b.in_naval_gunfire_line(H("3511"))
    assert all(b.in_naval_gunfire_line(H(h)) for h in ("3510", "3512", "3611"))
    for key, offered in ((STANDARD, True), (ATTACKER_HEX, True), (DEFENDER_HEX, False)):
        assert (Support("naval_gunfire") in GAME.legal_actions(_support_open(key))) is offered


@EXAMPLE
def test_snc_10_5_2_1_gt3_3511_leaves_only_the_garrison(key: str) -> None:
    """SNC-10.5.2.1, SNC-8.1.2: "a 0/3 result leaving the Chinese garrison": the 87th (elite,
    two steps) is reduced first, then the 98th and the 87th go; no Japanese step; the 87th's
    return die puts it in the TRT; nobody advances into an occupied hex."""
    s = gt3_after_3511(key)
    assert [u for u, h in s.where if h == H("3511")] == ["CH-G-J"]
    assert {"CH-87D", "CH-98D"} <= s.dead | {u for u, _ in s.trt}
    assert dict(s.trt).get("CH-87D") is not None
    assert s.reduced & set(THIRD) == {"JP-3D-1"}
    assert s.phase == Phase.OPS1 and s.step == Step.MAIN


@ALL
def test_snc_10_4_1_4_gt3_loudian_12_to_9_one_to_one_town_1l_3r_is_3_to_1(key: str) -> None:
    """SNC-10.3.0.2, SNC-10.4.1.4, SNC-11.1.2, SNC-11.4.2. The text: "12:9 or 1:1, shifting 1L
    for the town and 3R for Japanese fire support for a 3:1. He rolls a 2, reducing the
    Chinese elite 5 and two of the Japanese regiments". Loudian 3208 is one hex inland from the
    Yangtze (SNC-11.4.2), so naval gunfire is offered under every reading: air, artillery and
    naval gunfire are the 3R, and the final column is the text's 3:1; the 2 is 2/1."""
    s = _play(gt3_after_3511(key), Attack(H("3208")), *(Join(u) for u in ELEVENTH), Strike())
    assert Support("naval_gunfire") in GAME.legal_actions(s)
    s = gt3_loudian(key)
    o = _odds(s)
    assert (o.attack, o.defence, column_label(o.base)) == (12, 9, "1:1")
    assert _shift_clauses(o) == [(-1, "SNC-10.4.1.4")] + [(1, "SNC-11.1.2")] * 3
    assert _label(o) == "3:1"
    s = _do(s, Roll(2))
    assert s.combat is not None and (s.combat.loss_a, s.combat.loss_d) == (2, 1)
    s = gt3_after_loudian(key)
    assert "CH-36D" in s.reduced and _where(s)["CH-36D"] == H("3208")
    assert T.cf("CH-36D", frozenset()) == 5  # "the Chinese elite 5"
    assert s.reduced & set(ELEVENTH) == {"JP-11D-1", "JP-11D-2"}


# --- GT 3 Japanese, Reinforcement Phase ---------------------------------------------------------


def test_snc_8_3_4_gt3_replacements_come_before_the_landing() -> None:
    """SNC-8.3.4; AMB-SNC-5 (iii): the text lands the 101st, then spends one replacement on
    the 3rd ("up to full-strength") and one on the 11th ("leaving one regiment reduced").
    Under replacement_timing=first_step (both presets) the replacements come first: no
    landing is offered before them, and the results are the text's."""
    s = gt3_after_loudian(STANDARD)
    assert s.step == Step.REPLACE
    assert not any(isinstance(a, Land) for a in GAME.legal_actions(s))
    assert set(GAME.legal_actions(s)) == {
        Replace("JP-3D-1"), Replace("JP-11D-1"), Replace("JP-11D-2"), Done(),
    }  # fmt: skip
    s = gt3_reinforced(STANDARD)
    assert not s.reduced & set(THIRD)
    assert s.reduced & set(ELEVENTH) == {"JP-11D-2"}
    assert sum(T.cf(u, s.reduced) for u in THIRD) == 16


def test_snc_8_4_0_4_gt3_101st_lands_on_3610_and_clears_it() -> None:
    """SNC-8.4.0.4, SNC-8.4.0.5: "He lands the 101st Division on 3610 and eliminates the one
    remaining Chinese garrison (3610)": 12 halved, 6, against 1 is 6:1 (the highest column);
    Garrison N dies. Under landing_split=whole_line the three detachments of the line must land
    with it (21 halved, 10)."""
    s = _do(gt3_after_loudian(STANDARD), Replace("JP-3D-1"))
    s = _do(s, Replace("JP-11D-1"))
    whole = attrs.evolve(s, variant=CATALOGUE.variant("standard", {"landing_split": "whole_line"}))
    group = (*HUNDRED_FIRST, "JP-AMAYA", "JP-ASAMA", "JP-SHIGETO")
    assert Land(HUNDRED_FIRST, H("3610")) not in GAME.legal_actions(whole)
    o = _odds(_do(whole, Land(group, H("3610"))))
    assert (o.attack, o.defence, _label(o)) == (10, 1, "6:1")
    s = _do(s, Land(HUNDRED_FIRST, H("3610")))
    o = _odds(s)
    assert (o.attack, o.defence, _label(o)) == (6, 1, "6:1")
    s = gt3_reinforced(STANDARD)
    assert "CH-G-N" in s.dead
    assert {_where(s)[u] for u in HUNDRED_FIRST} == {H("3610")}


# --- GT 3 Japanese, Second Operations Phase -----------------------------------------------------


def test_snc_10_5_3_1_gt3_101st_and_snlf_clear_3511_and_the_101st_advances() -> None:
    """SNC-10.5.3.1: "the Japanese player attacks with 101st and SNLF to eliminate the pesky
    Chinese garrison (3511). He advances the 101st into 3511"."""
    s = gt3_reinforced(STANDARD)
    s = _play(s, Attack(H("3511")), *(Join(u) for u in HUNDRED_FIRST + SNLF), Strike())
    assert _label(_odds(s)) == "6:1"
    s = gt3_after_3511_cleared(STANDARD)
    assert "CH-G-J" in s.dead
    where = _where(s)
    assert {where[u] for u in HUNDRED_FIRST} == {H("3511")}
    assert [where[u] for u in SNLF] == [H("3512"), H("3512"), H("3611"), H("3512")]


@ALL
def test_snc_10_4_1_8_gt3_3410_19_halved_to_9_against_10_is_1_to_2(key: str) -> None:
    """SNC-10.4.1.8, SNC-10.3.0.4, SNC-10.4.1.4, SNC-11.1.2, SNC-11.4.2; AMB-SNC-32. The text:
    "3rd Division attacks the Chinese Training Brigade stack in 3410 at 19 halved to 9 for the
    creek against 10 defense or 1:2. With 3R for fire support and 1L for the town, the odds are
    2:1. A die roll of 3 achieves a 1/1 result. One elite brigade is reduced and one Japanese
    4-strength regiment is reduced."
    - 19: the 3rd (16, made whole by its replacement) and the Shigeto Detachment (3), landed
      beside it in 3510 this GT ("adds one detachment to each of his divisions"), which joins
      the attack; halved across the creek and rounded down, 9 (SNC-10.4.1.8); 9:10 is 1:2
      (SNC-10.3.0.4);
    - the 3R are air, artillery and naval gunfire: under `standard` (either) and attacker_hex
      (3510 is by the water) the final column is the text's 2:1 and the 3 is 1/1; under
      defender_hex (3410 is not) only two markers, 1:1, where the 3 is 1/0;
    - "a Japanese 4-strength regiment is reduced": the loss falls on a regiment of the 3rd,
      not the Shigeto Detachment (two-step units first, the strongest first, SNC-10.5.2.1,
      SNC-10.5.2.2)."""
    s = gt3_3410(key)
    assert sum(T.cf(u, s.reduced) for u in (*THIRD, "JP-SHIGETO")) == 19
    o = _odds(s)
    assert (o.attack, o.defence, column_label(o.base)) == (9, 10, "1:2")
    n = 2 if key == DEFENDER_HEX else 3
    assert _shift_clauses(o) == [(-1, "SNC-10.4.1.4")] + [(1, "SNC-11.1.2")] * n
    assert _label(o) == ("1:1" if key == DEFENDER_HEX else "2:1")
    s = _do(s, Roll(3))
    assert s.combat is not None
    expected = (1, 0) if key == DEFENDER_HEX else (1, 1)
    assert (s.combat.loss_a, s.combat.loss_d) == expected
    if key != DEFENDER_HEX:
        assert set(GAME.legal_actions(s)) == {Loss("CH-1TD"), Loss("CH-2TD")}
        s = _do(s, Loss("CH-1TD"))
    assert set(GAME.legal_actions(s)) == {Loss(u) for u in THIRD}
    assert T.cf("JP-3D-2", frozenset()) == 4
    s = gt3_done(key)
    assert (s.turn, s.side, s.phase, s.result) == (4, CH, Phase.DECLARE, None)
    assert ("CH-1TD" in s.reduced) is (key != DEFENDER_HEX)
    assert "CH-2TD" not in s.reduced
    assert s.reduced & {*THIRD, "JP-SHIGETO"} == {"JP-3D-2"}
    assert {_where(s)[u] for u in (*THIRD, "JP-SHIGETO")} == {H("3510")}


# --- AMB-SNC-5: which reading explains each number ----------------------------------------------


def test_snc_12_amb_snc_5_the_reading_behind_each_printed_number() -> None:
    """AMB-SNC-5 (example_conflicts; SNC-0.0.5, SNC-10.3.0.2, SNC-8.3.4). Under `standard`
    every column and result the text prints is the game's; a few intermediate numbers of the
    GT 3 attack on 3511, and one order, are not the rules text's, and `standard`'s
    `rules_text` keeps the rules' own:
    - "16 halved to 8" (the 3rd): `examples`, AMB-SNC-5 (ii): the 3rd counts its step lost in
      GT 2 as replaced; by the rules it is replaced only in this GT's Reinforcement Phase
      (SNC-8.3.4), so `rules_text` gives 14 halved to 7;
    - "16:9 or 2:1": `examples`, AMB-SNC-5 (i): 16:9 (and `rules_text`'s 15:9) rounds down to
      1:1 (SNC-10.3.0.2);
    - "for a 5:1": both: `rules_text` reaches the text's column with the concentric 1R
      (SNC-10.4.2.1) in place of the text's rounding;
    - the 101st landing before the replacements are spent: `examples` (replacement_timing=
      any_time), AMB-SNC-5 (iii); `rules_text` spends them first (SNC-8.3.4), and the
      results are the text's all the same (`test_snc_8_3_4_...`)."""
    s = gt3_3511(STANDARD)
    assert s.variant.is_("example_conflicts", "rules_text")
    assert T.cf("JP-3D-1", s.reduced) < T.cf("JP-3D-1", frozenset())  # still reduced: 14
    assert sum(T.cf(u, s.reduced) for u in THIRD) == 14
    assert sum(T.cf(u, frozenset()) for u in THIRD) == 16  # the text's 16, replaced
    o = _odds(s)
    assert (o.attack, o.defence) == (7 + 8, 9)
    assert column_label(o.base) == "1:1"
    assert column_label(o.base + 1) == "2:1"  # the text's base column, one to the right
    assert (1, "SNC-10.4.2.1") in _shift_clauses(o)  # the shift that makes up for it
    assert _label(o) == "5:1"
