"""The SNC's definitions (sections 1 to 3 and 9.2, 9.5.0): players and sides, the hex grid, the
counters, north, natural and manmade terrain, no supply; each checked where the kernel relies
on it."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import attrs

from kernel.game import CHANCE
from kernel.hexes import parse_hex
from kernel.roles import AssembledGame
from specs.snc1937 import PACKAGE
from specs.snc1937.data.map_data import LAND, WATER
from specs.snc1937.data.variants import CATALOGUE
from specs.snc1937.rules import odds
from specs.snc1937.rules.actions import Action, Declare, Done, Replace
from specs.snc1937.rules.state import CH, JP, Order, Phase, SNCState, Step
from specs.snc1937.rules.tables import locations
from tests.snc1937.assembled import rules_of
from tools.render import render_svg

GAME: AssembledGame[SNCState, Action] = PACKAGE.assemble()
RULES = rules_of(GAME)
DATA = RULES.data
UNITS = DATA.units


def test_snc_1_2_1_and_3_0_1_one_player_a_side_every_unit_one_side() -> None:
    """SNC-1.2.1, SNC-3.0.1: two players, the Chinese and the Japanese; every unit is one
    side's, and the Chinese are regular, elite or garrison units."""
    assert tuple(GAME.sides) == (CH, JP)
    assert {u.side for u in UNITS} == {CH, JP}
    assert {u.arm for u in UNITS if u.side == CH} == {"regular", "elite", "garrison"}


def test_snc_1_3_1_no_supply_a_cut_off_unit_keeps_its_strength() -> None:
    """SNC-1.3.1: no supply rules: a Chinese division with Japanese units all round it attacks
    and defends with its full CF (a LoC matters only where a rule asks for one)."""
    h = parse_hex("2707")
    ring = {n: (f"JP-3D-{i + 1}",) for i, n in enumerate(RULES.board.neighbors(h)) if i < 4}
    stacks = {h: ("CH-3D",), **ring}
    spec = DATA.unit("CH-3D")
    assert odds.defence_strength(DATA, ["CH-3D"], frozenset()) == spec.cf
    first = next(iter(ring))
    assert odds.attack_strength(DATA, RULES.board, first, {"CH-3D": h}, frozenset()) in (
        spec.cf,
        spec.cf // 2,
        spec.cf // 3,
    )  # only a creek or river between them changes it (SNC-10.4.1.8)
    assert stacks[h] == ("CH-3D",)


def test_snc_2_1_1_and_2_1_2_every_unit_in_exactly_one_hex() -> None:
    """SNC-2.1.1, SNC-2.1.2: the hex grid holds the units; a unit is always in exactly one hex
    (or off the map, in the TRT or the dead pile), throughout seeded play."""
    s = GAME.initial_state(CATALOGUE.preset("standard"))
    rng = random.Random(5)
    for _ in range(400):
        on_map = [u for u, _ in s.where]
        assert len(on_map) == len(set(on_map))
        assert all(h in DATA.map.terrain for _, h in s.where)
        off = {u for u, _ in s.trt} | s.dead | set(s.elite)
        assert not off & set(on_map)
        if GAME.to_move(s) is None:
            break
        if GAME.to_move(s) == CHANCE:
            s = GAME.apply(s, rng.choice([a for a, _ in GAME.chance_outcomes(s)]))
        else:
            acts = GAME.legal_actions(s)
            s = GAME.apply(s, acts[rng.randrange(len(acts))])


def test_snc_2_2_0_1_counters_are_combat_units_or_markers() -> None:
    """SNC-2.2.0.1: a counter is a combat unit (with a CF) or an informational marker (no
    CF); the fire support markers are not units."""
    kinds = {m.kind for m in DATA.setup.markers}
    assert kinds and not kinds & {u.id for u in UNITS}
    assert all(u.cf >= 0 for u in UNITS)


def test_snc_2_2_1_1_counter_layout() -> None:
    """SNC-2.2.1.1: each counter shows its size, CF, type and ID; the front is full strength
    and the back the reduced side; a reinforcement's GT is its section 13 line."""
    for u in UNITS:
        assert u.id and u.size and u.type
        if u.reduced is not None:
            assert u.reduced < u.cf, u.id
    for line in DATA.setup.reinforcements:
        assert all(RULES.tables.record[u].gt == line.gt for u in line.units)


def test_snc_2_2_1_7_the_same_cf_attacks_and_defends() -> None:
    """SNC-2.2.1.7: a non-static unit attacks and defends with the same CF, full or reduced."""
    h = parse_hex("2707")
    attacker_hex = RULES.board.neighbors(h)[0]
    for u in (x for x in UNITS if not x.is_static and x.side == JP):
        for reduced in (frozenset(), frozenset({u.id})):
            defence = odds.defence_strength(DATA, [u.id], reduced)
            attack = odds.attack_strength(DATA, RULES.board, h, {u.id: attacker_hex}, reduced)
            kind = RULES.board.side_kind(attacker_hex, h)
            if kind in (None, "none", "road", "rail"):
                assert attack == defence, u.id


def test_snc_2_2_1_14_a_reduced_japanese_unit_regains_its_step() -> None:
    """SNC-2.2.1.14, SNC-8.3.4: a reduced Japanese regiment with a LoC flips back to full
    strength by a replacement step in the Reinforcement Phase from GT 3."""
    base = GAME.initial_state(CATALOGUE.preset("standard"))
    unit, landing = "JP-3D-1", parse_hex("3509")  # standing on a landing hex: a LoC
    where = {u: h for u, h in base.where if h != landing or u.startswith("JP")}
    where[unit] = landing
    trt = tuple(p for p in base.trt if p[0] != unit)
    s = attrs.evolve(base, where=tuple(sorted(where.items())), trt=trt, reduced=frozenset({unit}))
    s = attrs.evolve(s, turn=3, side=JP)
    s = GAME.apply(GAME.apply(s, Declare(Order.MOVE_MOVE)), Done())
    assert s.phase == Phase.REINF and s.step == Step.REPLACE
    assert Replace(unit) in GAME.legal_actions(s)
    s = GAME.apply(s, Replace(unit))
    assert unit not in s.reduced and unit in locations(s.where)


def test_snc_3_0_2_north_is_the_top_of_the_picture() -> None:
    """SNC-3.0.2: the Japanese player sits at the north edge, so the picture has north up:
    hex 2701 is drawn above 2720 (rows count southward)."""
    assert GAME.scene is not None
    svg = render_svg(GAME.scene(GAME.initial_state(CATALOGUE.preset("standard"))))
    root = ET.fromstring(svg)
    ys = {}
    for el in root.iter():
        label = (el.text or "").strip()
        if el.tag.endswith("text") and label in ("2701", "2720"):
            ys[label] = float(el.get("y", "0"))
    assert ys["2701"] < ys["2720"]


def test_snc_9_2_1_and_9_5_0_1_terrain_is_natural_or_manmade() -> None:
    """SNC-9.2.1, SNC-9.5.0.1: every hex's terrain is a natural type (land or water); the
    manmade types are exactly cities, towns, roads and railroads, costed apart in the TEC."""
    assert set(DATA.map.terrain.values()) <= set(LAND) | set(WATER)
    assert {feature for _, feature in DATA.tec.manmade} == {"city", "town", "road", "railroad"}
    assert not {t for _, t in DATA.tec.enter} & {"city", "town", "road", "railroad"}
