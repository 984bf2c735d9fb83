"""Movement (NOM-8.1 to NOM-8.7); options `pontoon_users` (AMB-NOM-16) and `pass_through`
(AMB-NOM-23)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernel.errors import ImpossiblePosition
from kernel.hexes import Hex, hex_distance, parse_hex
from specs.nomonhan.rules.actions import EndPhase, Move
from specs.nomonhan.rules.board import OPEN, can_cross, occupancy
from specs.nomonhan.rules.reach import destinations
from specs.nomonhan.rules.state import NomonhanState, Phase
from tests.nomonhan.helpers_seq import BOARD, HILLS, contact, reference_destinations
from tests.nomonhan.positions import (
    GAME,
    JP_3TK,
    JP_4TK,
    JP_KOB,
    SU_9,
    SU_36,
    SU_615,
    SU_ART,
    apply_all,
    clauses_of_illegal,
    legal,
    position,
    variant,
)

ALL_HEXES = sorted(BOARD.map.hexes)
UNIT_IDS = [s.id for s in GAME.rules.data.units]


def _h(text: str) -> Hex:
    return parse_hex(text)


def _moves(s: NomonhanState, unit: str) -> set[str]:
    return {str(a.to) for a in legal(s) if isinstance(a, Move) and a.unit == unit}


def _banks() -> dict[Hex, int]:
    """Each hex's bank: the connected pieces of the map once every river hexside (bridged or
    not) is cut."""
    bank: dict[Hex, int] = {}
    for start in ALL_HEXES:
        if start in bank:
            continue
        label = len(set(bank.values()))
        stack = [start]
        bank[start] = label
        while stack:
            h = stack.pop()
            for n in BOARD.neighbors(h):
                if n not in bank and BOARD.hexside_kind(h, n, False) == OPEN:
                    bank[n] = label
                    stack.append(n)
    return bank


BANK = _banks()


# --- NOM-8.1 ------------------------------------------------------------------------------------


def test_nom_8_1_only_the_phasing_side_moves_each_unit_once() -> None:
    """NOM-8.1: in a Movement Phase only the phasing side's units move, each at most once, to a
    hex within its MA."""
    s = position({JP_KOB: "0705", JP_3TK: "0801", SU_36: "0302", SU_ART: "0109"})
    assert clauses_of_illegal(s, Move(SU_36, _h("0301"))) == ("NOM-8.1",)
    s = apply_all(s, Move(JP_KOB, _h("0605")))
    assert clauses_of_illegal(s, Move(JP_KOB, _h("0604"))) == ("NOM-8.1",)
    assert not _moves(s, JP_KOB)
    s = apply_all(s, Move(JP_3TK, _h("0802")))  # another unit still moves
    assert clauses_of_illegal(s, Move(JP_KOB, _h("0405"))) == ("NOM-8.1",)
    # phase 3: now the Soviets move and the Japanese do not
    nip = apply_all(s, EndPhase())
    assert nip.phase == Phase.NIP_MOVEMENT
    assert Move(SU_36, _h("0301")) in legal(nip)
    assert clauses_of_illegal(nip, Move(JP_KOB, _h("0604"))) == ("NOM-8.1",)


def test_nom_8_1_no_movement_outside_a_movement_phase() -> None:
    """NOM-8.1: units move only in their side's Movement Phase, not in a Combat Phase."""
    s = contact()  # Japanese Combat Phase
    assert s.phase == Phase.IP_COMBAT
    assert clauses_of_illegal(s, Move(JP_3TK, _h("0806"))) == ("NOM-9.8",)
    assert not [a for a in legal(s) if isinstance(a, Move)]


# --- NOM-8.2 ------------------------------------------------------------------------------------


def test_nom_8_2_clear_hex_costs_one() -> None:
    """NOM-8.2: every non-hill hex costs 1 MP to enter, so on clear ground a unit with MA 3
    reaches exactly the hexes within 3."""
    assert all(BOARD.map.cost(h) == 1 for h in ALL_HEXES if h not in HILLS)
    start = _h("0705")
    s = position({JP_KOB: "0705", SU_ART: "0109"})
    expected = {str(h) for h in ALL_HEXES if 1 <= hex_distance(start, h) <= 3}
    assert _moves(s, JP_KOB) == expected


# --- NOM-8.3 ------------------------------------------------------------------------------------


def test_nom_8_3_hills_0101_to_0106_cost_two() -> None:
    """NOM-8.3: the hill hexes 0101-0106 cost 2 MP each: each is entered from the hex below it
    with 2 MP but not with 1."""
    assert {h for h in ALL_HEXES if BOARD.map.cost(h) == 2} == HILLS
    assert {str(h) for h in HILLS} == {"0101", "0102", "0103", "0104", "0105", "0106"}
    spec = GAME.rules.data.unit(SU_615)
    for row in range(1, 7):
        hill, below = Hex(1, row), Hex(1, row + 1)
        s = position({SU_615: str(below), JP_KOB: "0801"})
        occ = occupancy(s)
        assert hill not in destinations(BOARD, s, spec, below, 1, occ)
        assert hill in destinations(BOARD, s, spec, below, 2, occ)


def test_nom_8_3_hill_costs_two_mp_and_needs_two_left() -> None:
    """NOM-8.3: 36/149 (MA 3) in 0107 enters the hill 0106 (2 MP) but, with 1 MP left, cannot
    go on into the hill 0105 two hexes away; 6/15 (MA 4) can, and no further."""
    s = position({SU_36: "0107", JP_KOB: "0801"}, turn=2, eliminated=("SU-11TK", "JP-YAM"))
    assert hex_distance(_h("0107"), _h("0105")) == 2
    reach = _moves(s, SU_36)
    assert "0106" in reach
    assert "0105" not in reach
    clauses = clauses_of_illegal(s, Move(SU_36, _h("0105")))
    assert clauses == ("NOM-8.3",)
    cav = position({SU_615: "0107", JP_KOB: "0801"}, turn=2, eliminated=("SU-11TK", "JP-YAM"))
    assert {"0106", "0105"} <= _moves(cav, SU_615)
    assert "0104" not in _moves(cav, SU_615)


# --- NOM-8.4 ------------------------------------------------------------------------------------


def test_nom_8_4_no_crossing_a_river_without_a_bridge() -> None:
    """NOM-8.4: 0302 and 0202 are adjacent across a river without a bridge: no unit crosses,
    and a unit east of the river out of reach of any bridge never ends on the west bank."""
    assert BOARD.hexside_kind(_h("0302"), _h("0202"), False) == "river"
    s = position({JP_KOB: "0302", SU_ART: "0109"})
    assert "0202" not in _moves(s, JP_KOB)
    assert clauses_of_illegal(s, Move(JP_KOB, _h("0202"))) == ("NOM-8.4",)
    assert "0201" in _moves(s, JP_KOB)  # the 0302/0201 hexside is open
    assert all(BANK[_h(h)] == BANK[_h("0302")] for h in _moves(s, JP_KOB))


def test_nom_8_4_bridges_are_crossed() -> None:
    """NOM-8.4: a river is crossed where it has a bridge (the fixed bridge 0209/0309)."""
    s = position({JP_3TK: "0309", SU_ART: "0101"})
    assert BANK[_h("0209")] != BANK[_h("0309")]
    assert "0209" in _moves(s, JP_3TK)


# --- NOM-8.5 ------------------------------------------------------------------------------------


@pytest.mark.parametrize("reading", ["not_tanks", "infantry_cavalry"])
def test_nom_8_5_pontoon_users_by_reading(reading: str) -> None:
    """NOM-8.5 (AMB-NOM-16): tanks never cross the pontoon (0207/0308); infantry and cavalry
    always do; the Artillery does under JA (not_tanks) but not under EN (infantry_cavalry)."""
    opts = {"pontoon_users": reading}
    # Kobayashi (infantry) and 3rd Tank Regiment east of the pontoon; 4TK blocks the way
    # round by the fixed bridge (0309), so 0207 is reachable only across the pontoon
    east = position({JP_KOB: "0308", JP_3TK: "0408", JP_4TK: "0309", SU_ART: "0101"}, options=opts)
    assert "0207" in _moves(east, JP_KOB)
    tank_east = position({JP_3TK: "0308", JP_4TK: "0309", SU_ART: "0101"}, options=opts)
    assert "0207" not in _moves(tank_east, JP_3TK)
    west = {SU_ART: "0207", SU_615: "0206", SU_9: "0208", SU_36: "0209", JP_KOB: "0801"}
    s = position(west, options=opts, turn=2, eliminated=("SU-11TK", "JP-YAM"))
    assert ("0308" in _moves(s, SU_ART)) == (reading == "not_tanks")
    cavalry = position(
        {SU_615: "0207", SU_ART: "0101", SU_9: "0206", SU_36: "0209", JP_KOB: "0801"},
        options=opts,
        turn=2,
        eliminated=("SU-11TK", "JP-YAM"),
    )
    assert "0308" in _moves(cavalry, SU_615)
    tank = position(
        {SU_9: "0207", SU_36: "0209", SU_ART: "0101", JP_KOB: "0801"},
        options=opts,
        turn=2,
        eliminated=("SU-11TK", "JP-YAM"),
    )
    assert "0308" not in _moves(tank, SU_9)
    assert GAME.catalogue.presets["ja"]["pontoon_users"] == "not_tanks"
    assert GAME.catalogue.presets["en"]["pontoon_users"] == "infantry_cavalry"


def test_nom_8_5_can_cross_per_unit_type() -> None:
    """NOM-8.5: the crossing rule itself, per unit type and reading, on the pontoon hexside."""
    a, b = _h("0207"), _h("0308")
    table = {}
    for reading in ("not_tanks", "infantry_cavalry"):
        v = variant(pontoon_users=reading)
        table[reading] = {
            spec.type: can_cross(BOARD, v, False, spec, a, b) for spec in GAME.rules.data.units
        }
    assert table["not_tanks"] == {
        "infantry": True,
        "cavalry": True,
        "artillery": True,
        "tank": False,
    }
    assert table["infantry_cavalry"] == {
        "infantry": True,
        "cavalry": True,
        "artillery": False,
        "tank": False,
    }


# --- NOM-8.6 ------------------------------------------------------------------------------------


def test_nom_8_6_no_move_ends_in_an_occupied_hex() -> None:
    """NOM-8.6: a unit may not end its move in a hex holding another unit, friendly or enemy."""
    s = position({JP_KOB: "0705", JP_3TK: "0706", SU_36: "0503", SU_ART: "0109"})
    assert clauses_of_illegal(s, Move(JP_KOB, _h("0706"))) == ("NOM-8.6",)
    assert "0706" not in _moves(s, JP_KOB)
    assert "0503" not in _moves(s, JP_KOB)
    assert clauses_of_illegal(s, Move(JP_KOB, _h("0503"))) == ("NOM-8.6",)


def test_nom_8_6_a_state_with_two_units_in_a_hex_is_refused() -> None:
    """NOM-8.6: reading a state with two units in one hex fails with ImpossiblePosition."""
    data = GAME.state_to_json(position({JP_KOB: "0705", JP_3TK: "0706", SU_ART: "0109"}))
    for u in data["units"]:
        if u["id"] == JP_3TK:
            u["hex"] = "0705"
    with pytest.raises(ImpossiblePosition) as exc:
        GAME.state_from_json(data)
    assert exc.value.clauses == ("NOM-P-NO-STACKING", "NOM-8.6")
    assert all(r.ok for r in GAME.data_facts() if r.clause == "NOM-8.6")  # distinct set-up


# --- NOM-8.7 ------------------------------------------------------------------------------------


@pytest.mark.parametrize("reading", ["none", "friendly"])
def test_nom_8_7_passing_through_units_by_reading(reading: str) -> None:
    """NOM-8.7 (AMB-NOM-23): the Artillery (MA 2) in 0505 reaches 0507 only through 0506. With
    36/149 there, it may pass under pass_through=friendly (EN) but not under none (JA); with a
    Japanese unit there it never may."""
    opts = {"pass_through": reading}
    units = {SU_ART: "0505", SU_36: "0506", JP_KOB: "0801"}
    s = position(units, options=opts, turn=2, eliminated=("SU-11TK", "JP-YAM"))
    assert hex_distance(_h("0505"), _h("0507")) == 2
    assert ("0507" in _moves(s, SU_ART)) == (reading == "friendly")
    assert "0506" not in _moves(s, SU_ART)  # never ends on the friendly unit (NOM-8.6)
    enemy = position(
        {SU_ART: "0505", JP_KOB: "0506", SU_36: "0801"},
        options=opts,
        turn=2,
        eliminated=("SU-11TK", "JP-YAM"),
    )
    assert "0507" not in {
        str(h)
        for h in destinations(
            BOARD, enemy, GAME.rules.data.unit(SU_ART), _h("0505"), 2, occupancy(enemy)
        )
    }


# --- properties -----------------------------------------------------------------------------------


@st.composite
def movement_positions(draw: st.DrawFn) -> tuple[NomonhanState, str]:
    ids = draw(st.lists(st.sampled_from(UNIT_IDS), min_size=1, max_size=7, unique=True))
    hexes = draw(
        st.lists(st.sampled_from(ALL_HEXES), min_size=len(ids), max_size=len(ids), unique=True)
    )
    options = {
        "pass_through": draw(st.sampled_from(["none", "friendly"])),
        "pontoon_users": draw(st.sampled_from(["not_tanks", "infantry_cavalry"])),
        "pontoon_is_bridge": draw(st.sampled_from(["yes", "no"])),
        "demolition_effect": draw(st.sampled_from(["everything", "crossing_only"])),
    }
    s = position(
        {u: str(h) for u, h in zip(ids, hexes, strict=True)},
        options=options,
        demolished=draw(st.booleans()),
    )
    return s, draw(st.sampled_from(ids))


@settings(max_examples=50, deadline=None)
@given(movement_positions())
def test_nom_8_1_to_8_7_destinations_match_the_rules_text(case: tuple[NomonhanState, str]) -> None:
    """NOM-8.1, NOM-8.2, NOM-8.3, NOM-8.4, NOM-8.5, NOM-8.6, NOM-8.7, NOM-7.2: the kernel's
    destinations equal a plain search written from the text (costs, rivers, pontoon, EZOC
    stop, no stacking, no passing through units)."""
    s, unit = case
    spec = GAME.rules.data.unit(unit)
    start = s.unit(unit).hex
    assert start is not None
    got = destinations(BOARD, s, spec, start, spec.ma, occupancy(s))
    assert got == reference_destinations(s, unit)


@settings(max_examples=50, deadline=None)
@given(movement_positions())
def test_nom_8_4_nom_8_6_destinations_are_free_near_and_bridge_bound(
    case: tuple[NomonhanState, str],
) -> None:
    """NOM-8.4, NOM-8.6, NOM-8.2, NOM-8.3: every destination is a free hex of the map other
    than the start; its clear-ground distance plus the hill surcharge fits the MA; and one on
    the other bank is reached over a bridge the unit may use, within the MA."""
    s, unit = case
    spec = GAME.rules.data.unit(unit)
    start = s.unit(unit).hex
    assert start is not None
    occ = occupancy(s)
    for d in destinations(BOARD, s, spec, start, spec.ma, occ):
        assert d in BOARD.map.hexes and d != start and d not in occ
        assert hex_distance(start, d) + (1 if d in HILLS else 0) <= spec.ma
        if BANK[d] != BANK[start]:
            assert any(
                can_cross(BOARD, s.variant, s.demolished, spec, x, y)
                and hex_distance(start, x) + 1 + hex_distance(y, d) <= spec.ma
                for x in ALL_HEXES
                for y in BOARD.neighbors(x)
                if BOARD.hexside_kind(x, y, s.demolished) in ("fixed", "pontoon")
            )


@settings(max_examples=50, deadline=None)
@given(movement_positions())
def test_nom_8_6_every_legal_move_keeps_one_unit_per_hex(case: tuple[NomonhanState, str]) -> None:
    """NOM-8.6, NOM-8.1: every legal move is accepted, and the resulting state still has one
    unit per hex (and, from a position the check accepts, round-trips through JSON); a move to
    a hex not offered is refused."""
    s, _ = case
    try:
        GAME.check_position(s)
        possible = True
    except ImpossiblePosition:  # most drawn positions lack a sudden-death unit, say
        possible = False
    moves = [a for a in legal(s) if isinstance(a, Move)]
    for m in moves[:6]:
        after = GAME.apply(s, m)
        hexes = [u.hex for u in after.units if u.hex is not None]
        assert len(hexes) == len(set(hexes))
        if possible:
            assert GAME.state_from_json(GAME.state_to_json(after)) == after
    offered = {(m.unit, m.to) for m in moves}
    for u in s.units:
        if u.hex is not None and GAME.rules.data.unit(u.id).side == s.phasing:
            for h in ALL_HEXES[:12]:
                if (u.id, h) not in offered:
                    assert clauses_of_illegal(s, Move(u.id, h))


def test_nom_8_5_refused_move_names_the_pontoon_rule() -> None:
    """NOM-8.5: under the EN reading only infantry and cavalry use the pontoon bridge; the
    Artillery's move 0308 -> 0207 is refused naming NOM-8.5 (the fixed bridge is too far)."""
    s = position({SU_ART: "0308", JP_KOB: "0805"}, preset="en", turn=2)
    assert clauses_of_illegal(s, Move(SU_ART, _h("0207"))) == ("NOM-8.5",)
    ja = position({SU_ART: "0308", JP_KOB: "0805"}, preset="ja", turn=2)
    assert Move(SU_ART, _h("0207")) in legal(ja)


def test_nom_8_7_refused_move_names_passing_through() -> None:
    """NOM-8.7: the Artillery (MA 2) cannot reach 0505 from 0503 except through 36/149 in
    0504; the refusal names NOM-8.7, and the EN reading lets it pass the friendly unit."""
    units = {SU_ART: "0503", SU_36: "0504", JP_KOB: "0109"}
    s = position(units, preset="ja", turn=2)
    assert clauses_of_illegal(s, Move(SU_ART, _h("0505"))) == ("NOM-8.7",)
    en = position(units, preset="en", turn=2)
    assert Move(SU_ART, _h("0505")) in legal(en)


def test_nom_7_2_refused_move_names_the_zoc_stop() -> None:
    """NOM-7.2: Kobayashi in 0603 could reach 0606 only by going on through 0604 and 0605,
    both in the ZOC of 36/149 in 0705; the refusal names NOM-7.2."""
    s = position({JP_KOB: "0603", SU_36: "0705", SU_ART: "0109"})
    assert Move(JP_KOB, _h("0604")) in legal(s)
    assert clauses_of_illegal(s, Move(JP_KOB, _h("0606"))) == ("NOM-7.2",)
