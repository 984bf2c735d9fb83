"""`wargame render snc1937`: the position as an SVG picture (specs/snc1937/io/picture.py drawn by
tools/render.py). The picture is well-formed, names the cities and the GT, draws each terrain
type, hexside feature and map marking, shows a side only what it may see (SNC-6.3.1), and
marks what the data holds provisionally."""

from __future__ import annotations

import io
import json
import random
import xml.etree.ElementTree as ET
from contextlib import redirect_stdout
from pathlib import Path

import attrs

from kernel.game import CHANCE
from kernel.hexes import hex_name, parse_hex
from kernel.roles import AssembledGame
from specs.snc1937 import PACKAGE
from specs.snc1937.io.picture_map import CREEK, WATER_SIDE
from specs.snc1937.rules.actions import Action
from specs.snc1937.rules.state import CH, JP, SNCState
from tests.snc1937.assembled import rules_of
from tools.cli import commands as cli
from tools.render import render_svg
from tools.render_marks import EDGE_STYLE, TERRAIN

GAME: AssembledGame[SNCState, Action] = PACKAGE.assemble()
RULES = rules_of(GAME)
SVG = "{http://www.w3.org/2000/svg}"


def start() -> SNCState:
    return GAME.initial_state(GAME.presets()["standard"])


def mid_game(seed: int = 13, gt: int = 5) -> SNCState:
    """A seeded random game stopped in GT `gt` once a combat die has been rolled."""
    s, rng = start(), random.Random(seed)
    for _ in range(5000):
        if GAME.to_move(s) == CHANCE:
            outcomes = GAME.chance_outcomes(s)
            weights = [float(p) for _, p in outcomes]
            action = rng.choices([a for a, _ in outcomes], weights=weights)[0]
        else:
            action = rng.choice(list(GAME.legal_actions(s)))
        s = GAME.apply(s, action)
        if s.result is not None or (s.turn >= gt and s.combat is not None and s.combat.face):
            break
    assert s.turn >= gt and s.result is None
    return s


def svg_of(s: SNCState, side: str | None = None) -> tuple[str, ET.Element]:
    assert GAME.scene is not None
    svg = render_svg(GAME.scene(s, side))
    return svg, ET.fromstring(svg)


def texts(root: ET.Element) -> str:
    """The picture's words, a line per text element, runs of spaces made one."""
    return "\n".join(" ".join("".join(e.itertext()).split()) for e in root.iter(f"{SVG}text"))


def hidden_units(s: SNCState, side: str) -> set[str]:
    """The enemy units on the map that `side`'s view does not show (a stack's units beneath
    the top one; the attackers of a combat are declared openly, SNC-10.0.5)."""
    view = GAME.observe(s, side)
    shown = {u for st in view["stacks"] for u in st["units"]}
    if view["combat"] is not None:
        shown.update(view["combat"]["attackers"])
    return {u for u, _ in s.where if u not in shown}


def test_snc_5_0_1_the_picture_is_well_formed_svg_naming_the_cities_and_the_gt() -> None:
    """SNC-5.0.1, SNC-4.3.1: the SVG parses; every city's name is on it (the seven and the
    International Settlement), and the turn track marks the current GT of twelve."""
    svg, root = svg_of(start())
    assert root.tag == f"{SVG}svg"
    for city in RULES.data.map.cities.values():
        assert city.name in svg, city.name
    words = texts(root)
    assert "GT 1 of 12" in words and "[GT 1]" in words
    later = attrs.evolve(start(), turn=7)
    assert "GT 7 of 12" in texts(svg_of(later)[1]) and "[GT 7]" in texts(svg_of(later)[1])


def test_snc_9_3_1_each_terrain_type_has_its_own_fill() -> None:
    """SNC-9.3.1, SNC-9.3.3: clear, woods, marsh and rice paddy hexes are filled differently,
    and the Yangtze, estuary, sea and lake hexes as water."""
    _, root = svg_of(start())
    fill = {
        p.get("data-hex"): p.get("fill") for p in root.iter(f"{SVG}polygon") if p.get("data-hex")
    }
    assert len(fill) == 42 * 25
    by_kind: dict[str, set[str | None]] = {}
    for h, kind in RULES.data.map.terrain.items():
        by_kind.setdefault(kind, set()).add(fill[hex_name(h)])
    for kind in ("clear", "woods", "marsh", "paddy", "yangtze", "estuary", "sea", "lake"):
        assert len(by_kind[kind]) == 1, kind
    land = [next(iter(by_kind[k])) for k in ("clear", "woods", "marsh", "paddy")]
    assert len(set(land)) == 4
    water = {next(iter(by_kind[k])) for k in ("yangtze", "estuary", "sea", "lake")}
    assert water == {TERRAIN["sea"]} and not water & set(land)


def _edge(root: ET.Element, a: str, b: str) -> list[ET.Element]:
    return [e for e in root.iter(f"{SVG}line") if e.get("data-edge") == f"{a}/{b}"]


def test_snc_9_4_5_rivers_creeks_roads_and_railroads_are_drawn_on_their_hexsides() -> None:
    """SNC-9.4.5, SNC-9.5.1.1: every river and creek hexside, and every hexside a road or
    railroad crosses, carries a line; rivers and creeks in different colours."""
    _, root = svg_of(start())
    m = RULES.data.map
    colour = {"river": EDGE_STYLE["river"][0], "creek": CREEK.removeprefix("border-")}
    assert colour["river"] != colour["creek"]
    for side, feature in m.sides.items():
        lines = _edge(root, hex_name(side.a), hex_name(side.b))
        want = colour.get(feature.kind, WATER_SIDE.removeprefix("border-"))
        assert any(e.get("stroke") == want for e in lines), (side, feature.kind)
    for route in (*m.roads, *m.railroads):
        for x, y in zip(route.hexes, route.hexes[1:], strict=False):
            assert _edge(root, hex_name(x), hex_name(y)), (route.name, x, y)


def test_snc_8_4_0_3_landing_sites_show_their_arrow_hexside_and_the_naval_line() -> None:
    """SNC-8.4.0.3, SNC-7.1.5, SNC-0.0.1: each landing site is labelled ⚓ and the hexside its
    arrow crosses is marked from inside it; the Naval Gunfire Line's landward edge is drawn
    (Wusong 3510 inside it); the International Settlement 3513 is ringed on all six sides."""
    _, root = svg_of(start())
    m = RULES.data.map
    for h, landing in m.landings.items():
        other = landing.arrow.b if landing.arrow.a == h else landing.arrow.a
        assert any(e.get("stroke") == "#ff7f0e" for e in _edge(root, hex_name(h), hex_name(other)))
    marks = [
        "".join(g.itertext())
        for g in root.iter(f"{SVG}g")
        if (g.get("data-piece") or "").split(" ")[0] in ("city", "town", "landing")
    ]
    assert sum(1 for text in marks if "⚓" in text) == len(m.landings)
    red = [e for e in root.iter(f"{SVG}line") if e.get("stroke") == "#d62728"]
    assert red
    inside = {e.get("data-edge", "").split("/")[0] for e in red}
    assert inside <= {hex_name(h) for h in m.naval_gunfire_line}
    ring = [e for e in root.iter(f"{SVG}line") if e.get("stroke") == "#444444"]
    settlement = parse_hex("3513")
    assert RULES.board.is_neutral(settlement)
    assert {e.get("data-edge") for e in ring} == {
        f"3513/{hex_name(n)}" for n in RULES.board.neighbors(settlement)
    }
    assert len(ring) == 6


def test_snc_6_3_1_a_side_sees_only_the_top_unit_of_an_enemy_stack() -> None:
    """SNC-6.3.1: in JP's picture, the Chinese units beneath the top unit of a stack are not
    named anywhere, only counted ("?" counters); the referee's and the owner's pictures show
    them all."""
    s = start()
    hidden = hidden_units(s, JP)
    assert hidden  # 3511, 3411 and 3412 hold two or three Chinese units each
    svg_jp, root = svg_of(s, JP)
    for u in hidden:
        assert u not in svg_jp, u
    unknown = [g for g in root.iter(f"{SVG}g") if (g.get("data-piece") or "").startswith("hidden")]
    assert len(unknown) == len(hidden)
    svg_all, _ = svg_of(s)
    svg_ch, _ = svg_of(s, CH)
    assert all(u in svg_all and u in svg_ch for u in hidden)
    top = {st["units"][0] for st in GAME.observe(s, JP)["stacks"] if st["side"] == CH}
    assert all(u in svg_jp for u in top)


def test_snc_6_3_1_mid_game_the_other_side_never_sees_a_hidden_unit() -> None:
    """SNC-6.3.1: in a seeded mid-game position, each side's picture names none of the enemy
    units its view hides (while the attack's revealed defenders are shown)."""
    s = mid_game()
    for side in (CH, JP):
        svg, _ = svg_of(s, side)
        hidden = hidden_units(s, side)
        assert hidden, side
        for u in hidden:
            assert u not in svg, (side, u)
    svg, root = svg_of(s)
    assert f"GT {s.turn} of 12" in texts(root)
    assert all(u in svg for u, _ in s.where)


def test_snc_2_2_1_11_counters_show_their_current_cf_and_steps() -> None:
    """SNC-2.2.1.11: a two-step counter shows its front CF with ●●, once reduced its back CF
    with ●○; a one-step counter ●."""
    s = start()
    unit = next(
        u for u, _ in s.where if RULES.tables.spec[u].side == JP and RULES.tables.spec[u].reduced
    )
    spec = RULES.tables.spec[unit]

    def counter(state: SNCState) -> str:
        _, root = svg_of(state)
        g = next(g for g in root.iter(f"{SVG}g") if g.get("data-piece") == unit)
        return " ".join(t.text or "" for t in g.iter(f"{SVG}text"))

    assert counter(s).endswith(f"{spec.size} {spec.cf} ●●")
    reduced = attrs.evolve(s, reduced=frozenset({unit}))
    assert counter(reduced).endswith(f"{spec.size} {spec.reduced} ●○")
    one = next(u for u, _ in s.where if RULES.tables.spec[u].reduced is None)
    _, root = svg_of(s)
    g = next(g for g in root.iter(f"{SVG}g") if g.get("data-piece") == one)
    assert [t.text for t in g.iter(f"{SVG}text")][-1] == "●"


def test_snc_3_1_2_the_turn_record_track_and_fire_support_markers_are_listed() -> None:
    """SNC-3.1.2, SNC-3.1.3, SNC-11.1.5: the reinforcements waiting are listed by GT and side
    with their number; the fire support markers held this GT are listed with those set aside."""
    s = start()
    words = texts(svg_of(s)[1])
    per_gt: dict[tuple[int, str], int] = {}
    for u, gt in s.trt:
        key = (gt, RULES.tables.spec[u].side)
        per_gt[key] = per_gt.get(key, 0) + 1
    for (gt, side), n in per_gt.items():
        assert f"GT {gt} {side} {n}:" in words or f"GT {gt} (due) {side} {n}:" in words
    held = RULES.tables.markers(CH, "artillery", 1)
    assert held and f"artillery marker (CH) {held} of {held} available" in words
    used = attrs.evolve(s, used=("CH:artillery",))
    assert f"{held - 1} of {held} available, 1 set aside" in texts(svg_of(used)[1])


def test_snc_3_2_2_cities_the_japanese_control_are_flagged() -> None:
    """SNC-3.2.2, SNC-4.3.1: a city in Japanese control carries ⚑; taking Suzhou adds it."""
    s = start()
    m = RULES.data.map
    suzhou = next(h for h, c in m.cities.items() if c.name == "Suzhou")
    before = texts(svg_of(s)[1])
    assert "⚑Suzhou" not in before and "⚑Shanghai" in before
    after = attrs.evolve(s, jp_control=s.jp_control | {suzhou})
    assert "⚑Suzhou" in texts(svg_of(after)[1])


def test_provisional_data_is_hatched_or_dashed_and_the_text_s_data_is_not() -> None:
    """Provisional terrain is hatched, provisional roads, rivers and counters dashed, and the
    legend names them; the Huangpu hexsides the text gives (SNC-7.1.6) are drawn solid."""
    _, root = svg_of(start())
    hatched = [p for p in root.iter(f"{SVG}polygon") if p.get("fill") == "url(#provisional)"]
    assert len(hatched) == 42 * 25  # the terrain grid is provisional
    road = RULES.data.map.roads[0]
    a, b = hex_name(road.hexes[0]), hex_name(road.hexes[1])
    assert all(e.get("stroke-dasharray") for e in _edge(root, a, b))
    given = _edge(root, "3609", "3610")
    assert given and not any(e.get("stroke-dasharray") for e in given)
    provisional_river = _edge(root, "3509", "3609")
    assert provisional_river and all(e.get("stroke-dasharray") for e in provisional_river)
    counters = [r for r in root.iter(f"{SVG}rect") if r.get("stroke-dasharray")]
    assert counters
    words = texts(root)
    assert "Provisional (not in the rules text): provisional" in words and "map terrain" in words


def test_cli_render_draws_a_new_game(tmp_path: Path) -> None:
    """`wargame new snc1937` then `wargame render snc1937 STATE -o out.svg` writes the picture."""
    out = io.StringIO()
    with redirect_stdout(out):
        assert cli.main(["new", "snc1937"]) == 0
    state = tmp_path / "start.json"
    state.write_text(out.getvalue(), encoding="utf-8")
    assert json.loads(out.getvalue())["game"] == "snc1937"
    picture = tmp_path / "start.svg"
    with redirect_stdout(io.StringIO()):
        assert cli.main(["render", "snc1937", str(state), "-o", str(picture)]) == 0
    svg = picture.read_text(encoding="utf-8")
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg" and "Nanking" in svg and "GT 1 of 12" in texts(root)
    assert all(u in svg for u, _ in start().where)  # the referee's picture: every unit


def _attack_on_3511(seen: str, *units: str) -> SNCState:
    """GT 1, the Japanese attack 3511 with `units`, at their fire support (SNC-11.1.1)."""
    from specs.snc1937.data.variants import CATALOGUE
    from specs.snc1937.rules.actions import Attack, Declare, Join, Strike
    from specs.snc1937.rules.state import Order

    s = GAME.initial_state(CATALOGUE.variant("standard", {"attackers_seen": seen}))
    s = GAME.apply(attrs.evolve(s, side=JP), Declare(Order.FIGHT_FIGHT))
    s = GAME.apply(s, Attack(parse_hex("3511")))
    for u in units:
        s = GAME.apply(s, Join(u))
    return GAME.apply(s, Strike())


def test_snc_6_3_1_the_defender_s_picture_names_only_the_attackers_it_sees() -> None:
    """SNC-6.3.1 (attackers_seen=tops_only): an SNLF beneath the top of 3512's stack joins SNLF
    3's attack on 3511; the Chinese picture names no attacker beneath a stack's top, and the
    pictures with and without it are alike; the Japanese and the referee's name it. Under
    declared_open (SNC-10.0.5) the Chinese picture names it too."""
    from specs.snc1937.rules.tables import stacks
    from specs.snc1937.rules.top_unit import top_first

    s = start()
    here = top_first(RULES.tables, s, stacks(s.where)[parse_hex("3512")])
    below = next(u for u in here[1:] if u.startswith("JP-SNLF"))
    joined = _attack_on_3511("tops_only", below, "JP-SNLF3")
    assert joined.combat is not None and below in joined.combat.attackers
    assert below in hidden_units(joined, CH)
    svg_ch, root_ch = svg_of(joined, CH)
    assert below not in svg_ch
    alone = _attack_on_3511("tops_only", "JP-SNLF3")
    assert texts(root_ch) == texts(svg_of(alone, CH)[1])
    assert below in texts(svg_of(joined, JP)[1]) and below in texts(svg_of(joined)[1])
    assert below in texts(svg_of(_attack_on_3511("declared_open", below, "JP-SNLF3"), CH)[1])


def test_snc_8_5_1_the_picture_counts_markers_as_the_rules_hold_them() -> None:
    """SNC-8.5.1 (marker_arrival): in the Chinese player turn of GT 2 the Japanese hold GT 1's
    markers under own_player_turn (received at the start of their player turn), GT 2's under
    game_turn; the picture counts the same as the rules (`support_steps.markers_gt`)."""
    from specs.snc1937.data.variants import CATALOGUE

    s = start()
    gt1, gt2 = (RULES.tables.markers(JP, "air", g) for g in (1, 2))
    assert (gt1, gt2) == (0, 1)
    for reading, held in (("own_player_turn", gt1), ("game_turn", gt2)):
        v = CATALOGUE.variant("standard", {"marker_arrival": reading})
        ch_turn = attrs.evolve(s, variant=v, turn=2, side=CH)
        words = texts(svg_of(ch_turn)[1])
        assert (f"air marker (JP) {held} of {held} available" in words) == bool(held)
        jp_turn = attrs.evolve(ch_turn, side=JP)
        assert f"air marker (JP) {gt2} of {gt2} available" in texts(svg_of(jp_turn)[1])


def test_snc_6_3_1_a_resampled_attack_draws_the_attackers_the_defender_cannot_see() -> None:
    """SNC-6.3.1, SNC-10.0.5 (attackers_seen=tops_only): the resampler, given the Chinese view
    of SNLF 3's attack on 3511 joined by an SNLF beneath 3512's top, draws states with exactly
    that view whose attack sometimes has unseen attackers (as the real one has), each a mobile
    Japanese unit next to 3511 that the view does not show, and that has attacked (SNC-10.0.7)."""
    from specs.snc1937.bots.resample import resample
    from specs.snc1937.rules.tables import stacks
    from specs.snc1937.rules.top_unit import top_first

    s = start()
    here = top_first(RULES.tables, s, stacks(s.where)[parse_hex("3512")])
    below = next(u for u in here[1:] if u.startswith("JP-SNLF"))
    real = _attack_on_3511("tops_only", below, "JP-SNLF3")
    view = GAME.observe(real, CH)
    assert view["combat"]["attackers"] == ["JP-SNLF3"]
    rng = random.Random(11)
    extra = 0
    for _ in range(12):
        drawn = resample(RULES, view, CH, rng)
        assert GAME.observe(drawn, CH) == view
        assert drawn.combat is not None
        hidden = [u for u in drawn.combat.attackers if u != "JP-SNLF3"]
        seen = {u for st in view["stacks"] for u in st["units"]}
        for u in hidden:
            spec = RULES.tables.spec[u]
            assert spec.side == JP and not spec.is_static and u not in seen
            assert dict(drawn.where)[u] in RULES.board.neighbors(parse_hex("3511"))
            assert u in drawn.done
        extra += bool(hidden)
    assert extra > 0
