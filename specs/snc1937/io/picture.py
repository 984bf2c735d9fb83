"""The Shanghai-Nanking Campaign as a picture (`wargame render`): the 42 x 25 hex map, the
stacks, the turn track and the fire support markers, drawn by `tools/render.py`.

The map (`picture_map.py`), north up (the Japanese player sits at the north edge, SNC-3.0.2):
each hex's natural terrain (clear, woods, marsh, rice paddy; the Yangtze, its estuary, the sea
and the lakes as water, SNC-9.3.1, SNC-9.3.3), named once per body of water; rivers
and creeks on their hexsides (SNC-9.4.5) and all-lake hexsides (SNC-10.4.1.9); roads and
railroads (SNC-9.5.1.1); the seven cities (SNC-4.3.1) and the towns by name, the landing sites
(SNC-8.4.0.3) with the hexside their arrow crosses, the neutral International Settlement 3513
(SNC-0.0.1) ringed, and the landward edge of the Japanese Naval Gunfire Line (SNC-7.1.5); the
cities the Japanese control flagged ⚑ (SNC-3.2.2, SNC-4.3.1).

The stacks: drawn for the referee (every unit), or with `side` as that side may see them
(SNC-6.3.1, through `observe`, so the picture hides exactly what the view hides): of an enemy
stack only the top unit, with one "?" counter for each unit beneath it. A counter shows its
current combat factor (the reduced side once reduced, SNC-2.2.1.11) and its steps (●● full,
●○ reduced, ● one step).

Beside the map: the turn track with the current GT (SNC-5.0.1), the phase-order declaration
(SNC-5.3.1), the attack under way, the reinforcements waiting in the Turn Record Track by GT
(SNC-3.1.2, SNC-8.0.1), the dead pile, and, off the map, the fire support markers each side
holds this GT and has set aside (SNC-3.1.3, SNC-8.5.1, SNC-11.1.5) and the Chinese air support
(SNC-11.3.2). Everything the data marks provisional is hatched or dashed and named in the legend.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from kernel.hexes import Hex, hex_name
from kernel.scene import Piece, Scene
from specs.snc1937.data.loader import SNCData
from specs.snc1937.data.map_data import City
from specs.snc1937.data.variants import CATALOGUE
from specs.snc1937.io.observation import observe
from specs.snc1937.io.picture_map import cells, edges
from specs.snc1937.rules.losses import printed_steps
from specs.snc1937.rules.state import CH, JP, LAST_GT, Phase, SNCState, Step
from specs.snc1937.rules.support_steps import markers_gt
from specs.snc1937.rules.tables import Tables, stacks
from specs.snc1937.rules.top_unit import top_first

if TYPE_CHECKING:
    from specs.snc1937.rules.play import SNCRules

SIDES = (
    (CH, "#8fb3de"),
    (JP, "#e8c15a"),
    ("city", "#8b0000"),
    ("JP city", "#9a6a00"),
    ("town", "#3d2f22"),
    ("landing", "#b34700"),
    ("water", "#1f4e79"),
)
_WATER_NAMES = {"yangtze": "Yangtze", "estuary": "Yangtze Estuary", "sea": "sea", "lake": "lake"}
LANDING_MARK = "⚓"
JP_FLAG = "⚑"
_PHASE = {
    Phase.DECLARE: "phase-order declaration (SNC-5.3.1)",
    Phase.OPS1: "First Operations Phase",
    Phase.REINF: "Reinforcement Phase",
    Phase.OPS2: "Second Operations Phase",
    Phase.VICTORY: "Victory Check Phase (SNC-4.3.1)",
    Phase.OVER: "game over",
}
_WRAP = 78  # characters of a line beside the map


def _short(unit_id: str) -> str:
    """A counter's label: the id without its side ("87D", "3D-3"); garrisons "G-" and four
    letters, so a label fits on the counter."""
    rest = unit_id.split("-", 1)[1] if "-" in unit_id else unit_id
    if rest.startswith("G-") and len(rest) > 6:
        return "G-" + rest[2:6]
    return rest


def _place(name: str) -> str:
    """A place name as printed on the map, without the bracketed modern spelling."""
    return name.split(" (")[0]


def _city_name(city: City) -> str:
    """A city's label: "Int. Settlement" for the neutral one, "Shanghai NE" for 3611."""
    if city.neutral:
        return "Int. Settlement"
    short = _place(city.name)
    return f"{short} NE" if city.name.endswith("(northeast)") else short


def _wrap(head: str, words: Sequence[str], indent: str = "    ") -> list[str]:
    """`head` then `words` joined by commas, folded into lines that fit beside the map."""
    lines = [head]
    for word in words:
        piece = f"{word}, "
        if len(lines[-1]) + len(piece) > _WRAP:
            lines.append(indent)
        lines[-1] += piece
    lines[-1] = lines[-1].rstrip(", ")
    return lines


def _places(t: Tables, s: SNCState) -> list[Piece]:
    """One label at the foot of each named hex (city, town, landing site with ⚓), the name
    of each body of water once; a city the Japanese control is flagged ⚑ (SNC-3.2.2)."""
    m = t.data.map
    out: list[Piece] = []
    for h in sorted(set(m.cities) | set(m.towns) | set(m.landings)):
        where = hex_name(h)
        city, town, landing = m.cities.get(h), m.towns.get(h), m.landings.get(h)
        if city is not None:
            kind, full, short = "city", city.name, _city_name(city)
        elif town is not None:
            kind, full, short = "town", town.name, _place(town.name)
        else:
            assert landing is not None
            kind, full, short = "landing", landing.name, _place(landing.name)
        colour = kind
        if city is not None and h in s.jp_control:
            colour, short, full = "JP city", f"{JP_FLAG}{short}", f"{full}, held by the Japanese"
        if landing is not None:
            short = f"{LANDING_MARK}{short}"
            if kind != "landing":
                full = f"{full}, landing site {landing.name}"
        out.append(Piece(f"{kind} {where}: {full}", where, colour, short, note="marker"))
    for kind, name in _WATER_NAMES.items():
        hexes = [h for h in m.hexes if m.terrain[h] == kind]
        if not hexes:
            continue
        col = sum(h.col for h in hexes) / len(hexes)
        row = sum(h.row for h in hexes) / len(hexes)
        h = min(hexes, key=lambda x: ((x.col - col) ** 2 + (x.row - row) ** 2, x))
        out.append(Piece(f"water {name}", hex_name(h), "water", name, note="marker"))
    return out


def _pips(t: Tables, s: SNCState, unit: str) -> str:
    full = printed_steps(t.spec[unit], s.variant)
    if full == 1:
        return "●"
    return "●○" if unit in s.reduced else "●●"


def _stacks(
    game: SNCRules, s: SNCState, side: str | None
) -> list[tuple[Hex, tuple[str, ...], int]]:
    """(hex, the units shown top first, how many units are there): everything, or what
    `side` sees (observe, SNC-6.3.1)."""
    if side is None:
        return [
            (h, top_first(game.tables, s, us), len(us)) for h, us in sorted(stacks(s.where).items())
        ]
    seen = observe(game, s, side)["stacks"]
    hexes = {hex_name(h): h for _, h in s.where}
    return [(hexes[st["hex"]], tuple(st["units"]), int(st["count"])) for st in seen]


def _units(game: SNCRules, s: SNCState, side: str | None) -> tuple[list[Piece], set[str]]:
    t = game.tables
    out: list[Piece] = []
    shown: set[str] = set()
    for h, units, count in _stacks(game, s, side):
        where = hex_name(h)
        owner = t.spec[units[0]].side
        # the "?" counters beneath first, the top unit drawn last (on top)
        for i in range(count - len(units)):
            out.append(Piece(f"hidden {where} {i + 1}", where, owner, "?", "", "", "SNC-6.3.1"))
        for u in reversed(units):
            spec = t.spec[u]
            shown.add(u)
            out.append(
                Piece(
                    u,
                    where,
                    spec.side,
                    _short(u),
                    f"{spec.size} {t.cf(u, s.reduced)}",
                    _pips(t, s, u),
                    "reduced" if u in s.reduced else "",
                    spec.provenance.is_provisional,
                )
            )
    return out, shown


def _markers(t: Tables, s: SNCState) -> list[Piece]:
    """Off the map: the fire support markers each side holds now, as the rules count them
    (`support_steps.markers_gt`: under marker_arrival=own_player_turn the Japanese hold the last
    GT's in the Chinese player turn, SNC-8.5.1), those set aside (SNC-3.1.3, SNC-11.1.5), and
    the Chinese air support (SNC-11.3.2)."""
    out: list[Piece] = []
    for side in (CH, JP):
        for kind in ("artillery", "air", "naval_gunfire", "amphibious"):
            held = t.markers(side, kind, markers_gt(s, side))
            if not held:
                continue
            used = s.used.count(f"{side}:{kind}")
            note = f"{held - used} of {held} available" + (f", {used} set aside" if used else "")
            label = kind.replace("_", " ") + " marker"
            out.append(Piece(f"marker {side} {kind}", None, side, label, "", "", note))
    if not s.ch_air:
        air = "shot down for good (SNC-11.3.2)"
    elif s.ch_air_used:
        air = "used this phase"
    else:
        air = "available"
    out.append(Piece("air support CH", None, CH, "Chinese air support", "", "", air))
    return out


def _combat_line(game: SNCRules, s: SNCState, side: str | None) -> list[str]:
    """The attack under way: its attackers and defenders as `side` may see them (`observe`:
    SNC-6.3.1, SNC-10.0.5; under attackers_seen=tops_only the defender sees only the attackers
    on top of their stacks)."""
    c = s.combat
    if c is None:
        return []
    what = "landing attack" if c.landing else "overrun" if c.overrun else "attack"
    seen = observe(game, s, side)["combat"] if side is not None else None
    attackers: Sequence[str] = c.attackers if seen is None else seen["attackers"]
    lines = [f"{what} on {hex_name(c.target)} (SNC-10.0.5): " + ", ".join(attackers or ("-",))]
    support = [k.replace("_", " ") for k in c.support_a]
    if c.support_d:
        support += [f"{k.replace('_', ' ')} in defence" for k in c.support_d]
    if support:
        lines.append("  fire support: " + ", ".join(support))
    defenders: Sequence[str] = c.defenders if seen is None else seen["defenders"]
    if defenders:
        lines.append("  defenders: " + ", ".join(defenders))
    if c.face:
        lines.append(f"  die {c.face}: steps to lose attacker {c.loss_a}, defender {c.loss_d}")
    return lines


def _provisional_note(data: SNCData) -> str:
    """What of the data is provisional, grouped so that the legend stays short."""
    counts: dict[str, int] = {}
    for name, _ in data.provisional():
        part, _, rest = name.partition(": ")
        head = rest.split(" ")[0].split("[")[0]
        key = f"{part} {head}"
        counts[key] = counts.get(key, 0) + 1
    words = [f"{k} ({n})" if n > 1 else k for k, n in counts.items()]
    return (
        "provisional (not in the rules text, DATA.md): "
        + ", ".join(words)
        + "; hexsides of creeks, landing arrows and the Naval Gunfire Line are drawn solid"
        + " though provisional (see the list)."
    )


def scene(game: SNCRules, s: SNCState, side: str | None = None) -> Scene:
    """The position as a picture; with `side`, as that side may see it (SNC-6.3.1)."""
    t = game.tables
    data = t.data
    pieces = _places(t, s)
    units, shown = _units(game, s, side)
    pieces += units
    pieces += _markers(t, s)

    who = "Chinese" if s.side == CH else "Japanese"
    order = "" if s.order is None else " · " + s.order.value.replace("_", "/").title()
    step = "" if s.step is Step.MAIN else f" · {s.step.value.replace('_', ' ')}"
    line1 = f"GT {s.turn} of {LAST_GT} · {who} player turn · {_PHASE[s.phase]}{order}{step}"
    track = " ".join(f"[GT {g}]" if g == s.turn else str(g) for g in range(1, LAST_GT + 1))
    view = "every unit (referee)" if side is None else f"as {side} sees it (SNC-6.3.1)"
    panel = [line1, f"turn track: {track} · {view}"]
    if s.result is not None:
        panel.append(f"result: {s.result.winner} wins ({s.result.clause}): {s.result.reason}")
    panel += _combat_line(game, s, side)
    if s.moving:
        group = [u for u in s.moving if u in shown]
        if group:
            panel.append(f"moving: {', '.join(group)} ({s.mp / 2:g} MP left, SNC-9.0.1)")
    held = [_city_name(c) for h, c in sorted(data.map.cities.items()) if h in s.jp_control]
    panel.append(f"Japanese-held cities ({JP_FLAG}, SNC-4.3.1): " + (", ".join(held) or "none"))
    panel.append("")
    panel.append("Reinforcements waiting on the Turn Record Track (SNC-3.1.2):")
    by_gt: dict[int, list[str]] = {}
    for u, gt in s.trt:
        by_gt.setdefault(gt, []).append(u)
    order_of = t.order.__getitem__
    for gt in sorted(by_gt):
        for owner in (CH, JP):
            ids = sorted((u for u in by_gt[gt] if t.spec[u].side == owner), key=order_of)
            if ids:
                mark = " (due)" if gt <= s.turn else ""
                head = f"  GT {gt}{mark} {owner} {len(ids)}: "
                panel += _wrap(head, [_short(u) for u in ids])
    if not by_gt:
        panel.append("  none")
    dead = sorted(s.dead, key=order_of)
    panel += _wrap(f"Eliminated ({len(dead)}): ", [u for u in dead]) if dead else []
    neutral = ", ".join(hex_name(h) for h, c in sorted(data.map.cities.items()) if c.neutral)
    panel += [
        "",
        "Legend:",
        "  hexes: cream clear · green woods · teal marsh · tan rice paddy · blue water",
        "  hexsides: dark blue river (the lower Huangpu navigable, SNC-7.1.6) · light blue creek",
        "    · navy all-lake or all-sea · orange: the landing arrow's hexside (SNC-8.4.0.3)",
        "  brown line: road · black ties across hexsides: railroad (SNC-9.5.1.1)",
        "  red inner edge: landward side of the Naval Gunfire Line (SNC-7.1.5)",
        f"  grey ring: the neutral International Settlement {neutral} (SNC-0.0.1)",
        f"  red: cities · dark: towns · {LANDING_MARK} landing site",
        f"  ochre {JP_FLAG}: a city the Japanese control (SNC-3.2.2)",
        "  counters (blue Chinese, ochre Japanese): size and CF; ●● full, ●○ reduced,",
        "    ● one step; ?: a unit beneath the top one, unseen (SNC-6.3.1)",
    ]
    title = f"Shanghai-Nanking Campaign 1937 · {CATALOGUE.name_of(s.variant)}"
    return Scene(
        title=title,
        panel=tuple(panel),
        cells=tuple(cells(data)),
        edges=tuple(edges(t)),
        pieces=tuple(pieces),
        sides=SIDES,
        provisional_note=_provisional_note(data),
        turn=s.turn,
        turns=LAST_GT,
    )


class SNCPicture:
    """The picture role (`kernel.roles.Picture`), built from the rules."""

    def __init__(self, rules: SNCRules) -> None:
        self.rules = rules

    def scene(self, s: SNCState, side: str | None = None) -> Scene:
        """The position as a picture (kernel.scene), for `wargame render`; with `side`, as that
        side may see it (SNC-6.3.1)."""
        return scene(self.rules, s, side)
