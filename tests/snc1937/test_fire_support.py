"""Fire-support markers: eligibility, naval gunfire geometry, Chinese air support and the
order of commitment (SNC-11.0.x, SNC-11.1.x, SNC-11.3.x, SNC-11.4.x, SNC-8.4.0.6)."""

from __future__ import annotations

import pytest

from kernel.hexes import Hex, parse_hex
from kernel.variants import Variant
from specs.snc1937.data.loader import load_data
from specs.snc1937.data.setup_data import MARKER_KINDS
from specs.snc1937.data.variants import CATALOGUE
from specs.snc1937.rules import fire_support as F
from specs.snc1937.rules.board import Board

DATA = load_data()
BOARD = Board(DATA)


def variant(**overrides: str) -> Variant:
    """Preset `standard` of the game's catalogue with `overrides`."""
    return CATALOGUE.variant("standard", overrides)


def h(text: str) -> Hex:
    return parse_hex(text)


def kinds(
    owner: str,
    attacking: bool,
    target: str,
    froms: tuple[str, ...] = (),
    *,
    landing: bool = False,
    available: tuple[str, ...] = F.KINDS,
    **over: str,
) -> tuple[str, ...]:
    return F.eligible_kinds(
        BOARD, variant(**over), owner=owner, attacking=attacking, target=h(target),
        attacker_hexes=tuple(h(x) for x in froms), landing=landing, available=available,
    )  # fmt: skip


def test_snc_11_0_1_marker_kinds_and_owners() -> None:
    """SNC-11.0.1: four kinds; artillery for both sides, air, naval gunfire and amphibious
    invasion support for the Japanese only. They are the data's marker kinds."""
    assert set(F.KINDS) == set(MARKER_KINDS)
    assert F.OWNERS[F.ARTILLERY] == ("CH", "JP")
    assert all(F.OWNERS[k] == ("JP",) for k in (F.AIR, F.NAVAL, F.AMPHIBIOUS))


def test_snc_11_0_2_any_marker_supports_an_attack() -> None:
    """SNC-11.0.2, SNC-11.1.3: a Japanese landing at 3510 may take one marker of each kind, four
    in all (the section 12 GT 2 "maximum fire support of 4R")."""
    assert kinds("JP", True, "3510", landing=True) == F.KINDS


def test_snc_11_1_3_chinese_only_artillery_in_attack() -> None:
    """SNC-11.1.3, SNC-11.0.1: the Chinese may add one marker per attack, artillery."""
    assert kinds("CH", True, "3510", ("3511",)) == (F.ARTILLERY,)
    assert F.marker_choices(kinds("CH", True, "3510", ("3511",))) == ((), (F.ARTILLERY,))


def test_snc_11_1_3_one_of_each_category() -> None:
    """SNC-11.1.3: at most one marker of each category per battle per side; the choices are
    every subset of the eligible kinds, smallest first."""
    choices = F.marker_choices((F.AIR, F.ARTILLERY, F.NAVAL))
    assert len(choices) == 8 and choices[0] == () and choices[-1] == (F.ARTILLERY, F.AIR, F.NAVAL)
    problem = F.support_problem(
        BOARD, variant(), (F.AIR, F.AIR), owner="JP", attacking=True, target=h("3208")
    )
    assert problem is not None and "SNC-11.1.3" in problem


def test_snc_11_0_3_and_11_1_4_only_japanese_naval_gunfire_in_defence() -> None:
    """SNC-11.0.3, SNC-11.1.4, SNC-11.4.1: in defence only Japanese naval gunfire; no Chinese
    marker, no artillery or air."""
    assert kinds("JP", False, "3512") == (F.NAVAL,)
    assert kinds("CH", False, "3512") == ()
    problem = F.support_problem(
        BOARD, variant(), (F.ARTILLERY,), owner="JP", attacking=False, target=h("3512")
    )
    assert problem is not None and "SNC-11.0.3" in problem


def test_snc_11_0_4_amphibious_only_in_landings() -> None:
    """SNC-11.0.4, SNC-11.1.6, SNC-8.4.0.6: amphibious invasion support only supports an
    amphibious assault."""
    assert F.AMPHIBIOUS in kinds("JP", True, "3510", landing=True)
    assert F.AMPHIBIOUS not in kinds("JP", True, "3410", ("3510",))
    problem = F.support_problem(
        BOARD, variant(), (F.AMPHIBIOUS,), owner="JP", attacking=True, target=h("3410"),
        attacker_hexes=(h("3510"),),
    )  # fmt: skip
    assert problem is not None and "SNC-11.0.4" in problem


def test_snc_11_1_5_used_markers_are_not_available() -> None:
    """SNC-11.1.5: a marker set aside after use cannot be added again; the flow passes what is
    left."""
    left = kinds("JP", True, "3208", ("3308",), available=(F.AIR,))
    assert left == (F.AIR,)
    problem = F.support_problem(
        BOARD, variant(), (F.ARTILLERY,), owner="JP", attacking=True, target=h("3208"),
        available=(F.AIR,),
    )  # fmt: skip
    assert problem is not None and "SNC-11.1.5" in problem


# --- naval gunfire geometry (SNC-11.4.x) -------------------------------------------------------


def test_snc_11_4_2_naval_attack_hexes() -> None:
    """SNC-11.4.2: naval gunfire may support attacks adjacent to the Yangtze (3308), to the
    Huangpu below the Naval Navigation line (3610), or one hex inland from the Yangtze (3208);
    not elsewhere (2707, 3511)."""
    assert F.adjacent_to_yangtze(BOARD, variant(), h("3308"))
    assert F.adjacent_to_navigable_huangpu(BOARD, h("3610"))
    assert F.one_hex_inland_from_yangtze(BOARD, variant(), h("3208"))
    assert not F.adjacent_to_yangtze(BOARD, variant(), h("3208"))
    for x, ok in (("3308", True), ("3610", True), ("3208", True), ("2707", False), ("3511", False)):
        assert F.naval_attack_hex(BOARD, variant(), h(x)) is ok
    assert F.NAVAL in kinds("JP", True, "3208", ("3308",))
    assert F.NAVAL not in kinds("JP", True, "2707", ("2806",))


def test_snc_11_4_3_naval_defence_hexes() -> None:
    """SNC-11.4.3: defensive naval gunfire only in hexes adjacent to the Yangtze or the navigable
    Huangpu: not one hex inland (3208)."""
    assert F.naval_defence_hex(BOARD, variant(), h("3308")) and F.naval_defence_hex(
        BOARD, variant(), h("3512")
    )
    assert not F.naval_defence_hex(BOARD, variant(), h("3208"))
    assert kinds("JP", False, "3208") == ()
    problem = F.support_problem(
        BOARD, variant(), (F.NAVAL,), owner="JP", attacking=False, target=h("3208")
    )
    assert problem is not None and "SNC-11.4.3" in problem


@pytest.mark.parametrize(
    ("reading", "from_water", "into_water"),
    [("defender_hex", False, True), ("attacker_hex", True, False), ("either", True, True)],
)
def test_snc_11_4_2_amb_snc_32_what_must_be_adjacent(
    reading: str, from_water: bool, into_water: bool
) -> None:
    """SNC-11.4.2 (AMB-SNC-32, `naval_gunfire_adjacent`): an attack from 3510 (on the Huangpu)
    into 3410 (inland), and one from 3511 (inland) into 3510: the defender's hex, an
    attacker's hex, or either must be by the water."""
    assert F.naval_attack_hex(BOARD, variant(), h("3510")) and not F.naval_attack_hex(
        BOARD, variant(), h("3410")
    )
    assert not F.naval_attack_hex(BOARD, variant(), h("3511"))
    v = variant(naval_gunfire_adjacent=reading)
    assert F.naval_attack_allowed(BOARD, v, h("3410"), (h("3510"),)) is from_water
    assert F.naval_attack_allowed(BOARD, v, h("3510"), (h("3511"),)) is into_water


def test_snc_11_4_2_amb_snc_32_example_evidence() -> None:
    """SNC-11.4.2 (AMB-SNC-32; section 12 GT 3): the 3rd Division attacks 3410 from 3510 with
    "3R for fire support"; the Japanese have no amphibious marker outside a landing, so the
    third marker is naval gunfire. On the provisional map 3410 is not by the water but 3510 is:
    the example needs `attacker_hex` or `either` (standard takes `either`, the option's text
    argues why); under `defender_hex` two markers are eligible. The same holds for the GT 3
    attack on 3511 ("three fire support shifts")."""
    assert CATALOGUE.preset("standard").is_("naval_gunfire_adjacent", "either")
    assert kinds("JP", True, "3410", ("3510",), naval_gunfire_adjacent="defender_hex") == (
        F.ARTILLERY,
        F.AIR,
    )
    assert len(kinds("JP", True, "3410", ("3510",))) == 3
    assert len(kinds("JP", True, "3410", ("3510",), naval_gunfire_adjacent="attacker_hex")) == 3
    froms = ("3510", "3512", "3611")
    assert kinds("JP", True, "3511", froms, naval_gunfire_adjacent="defender_hex") == (
        F.ARTILLERY,
        F.AIR,
    )
    assert len(kinds("JP", True, "3511", froms)) == 3
    assert len(kinds("JP", True, "3511", froms, naval_gunfire_adjacent="attacker_hex")) == 3


def test_snc_11_4_2_landings_are_measured_at_the_landing_hex() -> None:
    """SNC-11.4.2, SNC-8.4.0.3: a landing force placed next to its landing hex has no map hex;
    the landing hex stands for it under every reading (3510 is on the Huangpu)."""
    for reading in ("defender_hex", "attacker_hex", "either"):
        v = variant(naval_gunfire_adjacent=reading)
        assert F.naval_attack_allowed(BOARD, v, h("3510"), ())


# --- Chinese air support (SNC-11.3.x) ------------------------------------------------------------


def test_snc_11_3_2_chinese_air_roll() -> None:
    """SNC-11.3.2: on a 6 the Japanese air marker is aborted (no shift); on a 1 Chinese air
    support is lost for the game; 2-5 nothing. One die, each face 1/6."""
    assert F.chinese_air_roll(6) == F.AirRoll(6, True, False)
    assert F.chinese_air_roll(1) == F.AirRoll(1, False, True)
    assert all(F.chinese_air_roll(f) == F.AirRoll(f, False, False) for f in range(2, 6))
    assert sum(p for p, _ in F.AIR_ROLLS) == 1 and len(F.AIR_ROLLS) == 6
    with pytest.raises(ValueError):
        F.chinese_air_roll(7)


def test_snc_11_3_3_air_roll_against_interdiction() -> None:
    """SNC-11.3.3: the same roll against air interdiction: a 6 disrupts it, a 1 ends Chinese air
    support."""
    assert F.chinese_air_roll(6).cancelled and F.chinese_air_roll(1).chinese_air_lost


def test_snc_11_3_1_amb_snc_31_when_the_chinese_may_roll() -> None:
    """SNC-11.3.1, SNC-11.3.2 (AMB-SNC-31, `chinese_air`): each time a Japanese air marker is
    added the Chinese may roll, never after a 1; `unlimited` (standard) every time,
    `once_per_phase` once a phase."""
    v, once = variant(), variant(chinese_air="once_per_phase")
    assert F.chinese_air_may_intervene(v, air_lost=False, attempts_this_phase=3)
    assert not F.chinese_air_may_intervene(v, air_lost=True, attempts_this_phase=0)
    assert F.chinese_air_may_intervene(once, air_lost=False, attempts_this_phase=0)
    assert not F.chinese_air_may_intervene(once, air_lost=False, attempts_this_phase=1)


# --- order of commitment (SNC-11.1.1) -----------------------------------------------------------


def test_snc_11_1_1_attacker_then_defender() -> None:
    """SNC-11.1.1 (AMB-SNC-40, `fog_fire_support`): the attacker adds markers before the
    defender; the stack is revealed before the attacker commits (`reveal_then_support`,
    standard) or after (`support_then_reveal`)."""
    for reading in ("reveal_then_support", "support_then_reveal"):
        steps = F.support_steps(variant(fog_fire_support=reading))
        assert steps.index(F.ATTACKER_SUPPORT) < steps.index(F.DEFENDER_SUPPORT)
        assert steps.index(F.CHINESE_AIR) == steps.index(F.ATTACKER_SUPPORT) + 1
        assert steps[0] == F.DECLARE and steps[-1] == F.RESOLVE
        before = steps.index(F.REVEAL) < steps.index(F.ATTACKER_SUPPORT)
        assert before is (reading == "reveal_then_support")


def test_snc_11_4_3_estuary_is_yangtze_readings() -> None:
    """SNC-11.4.3, SNC-11.4.2: 3308 touches only estuary hexes (3307, 3407). Under the
    found-here option `estuary_is_yangtze=yes` (standard) it is next to the Yangtze and Japanese
    naval gunfire may defend it; under `no` it is not, and no naval marker is eligible."""
    no = variant(estuary_is_yangtze="no")
    assert {BOARD.terrain(n) for n in BOARD.neighbors(h("3308"))} >= {"estuary"}
    assert "yangtze" not in {BOARD.terrain(n) for n in BOARD.neighbors(h("3308"))}
    assert F.adjacent_to_yangtze(BOARD, variant(), h("3308"))
    assert not F.adjacent_to_yangtze(BOARD, no, h("3308"))
    assert kinds("JP", False, "3308") == (F.NAVAL,)
    assert kinds("JP", False, "3308", estuary_is_yangtze="no") == ()
    assert F.yangtze_terrain(no) == {"yangtze"}


def test_snc_11_4_2_naval_inland_basis_readings() -> None:
    """SNC-11.4.2 "one hex inland from the Yangtze", found-here option `naval_inland_basis`,
    with `estuary_is_yangtze=no`: 2503 is next to no Yangtze hex and to no land hex that
    touches one, but it is next to the estuary hex 2402, which touches the Yangtze hex 2302.
    `land_hex_by_yangtze` (standard) does not count it; `any_hex_by_yangtze` does."""
    land = variant(estuary_is_yangtze="no")
    water = variant(estuary_is_yangtze="no", naval_inland_basis="any_hex_by_yangtze")
    assert not F.adjacent_to_yangtze(BOARD, land, h("2503"))
    assert not F.one_hex_inland_from_yangtze(BOARD, land, h("2503"))
    assert F.one_hex_inland_from_yangtze(BOARD, water, h("2503"))
    assert not F.naval_attack_hex(BOARD, land, h("2503"))
    assert F.naval_attack_hex(BOARD, water, h("2503"))
