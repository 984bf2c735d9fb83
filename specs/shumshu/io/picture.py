"""Shumshu as a picture (`wargame render`), drawn from a side's observation (`observe`), so
that it cannot show more than that side may know. The referee's picture (no `side`) is drawn
as the Russians see it so that it can be shown to either player (SHU-COMBAT.5); the Russians'
(`side="RU"`) is the same picture; the Japanese's (`side="JP"`), who see everything, names
every Japanese piece, its face-down ones marked "face down" (SHU-COMBAT.5, SHU-SETUP.1,
SHU-SETUP.2, AMB-SHU-30).

The map: the island's hexes from the data file with their terrain (mountains, swamps), the
rivers and the road, the sea around it (a hex of the island touching the sea is coastal,
SHU-LAND.1), the red border of the Paramushir artillery's long range and the black border of
the Kamchatka artillery's (SHU-LAND.5, SHU-LAND.6, SHU-COMBAT.10), hex 33 (SHU-REINF.2) and the
1-star and 2-star hexes (SHU-WIN.1, SHU-WIN.2) as markings at the foot of their hex. On it,
the stacks: every face-up unit with its factors ("D" when disrupted), and one face-down
counter "?" per hex for the Japanese pieces the Russians cannot identify, with their number
(decoys among them, SHU-COMBAT.5, AMB-SHU-30); in the Japanese picture those by name.

Beside it: the turn track (AMB-SHU-2), the landing capabilities left (SHU-LAND.3), the Ki-43,
the beachhead and this turn's sea movement, then the stacks spelled out; off the map, the
Russian landing pool (each unit with its state: waiting, sailing, in a sea box, eliminated,
sunk), the Japanese on Paramushir (a count: they are face down, SHU-SETUP.2; by name in the
Japanese picture), the discovered decoys (SHU-COMBAT.6) and the eliminated units.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

from kernel.hexes import Hex, hex_name, hex_neighbors, parse_hex
from kernel.scene import Cell, Edge, Piece, Scene
from specs.shumshu.data.variants import CATALOGUE
from specs.shumshu.io.observation import observe
from specs.shumshu.rules import state as st
from specs.shumshu.rules.board import Board
from specs.shumshu.rules.ending import game_length
from specs.shumshu.rules.state import JP, RU, Loc, ShumshuState, Stage
from specs.shumshu.rules.units import hidden

if TYPE_CHECKING:
    from specs.shumshu.rules.reader import ShumshuRules

SIDES = (("JP", "#d9a441"), ("RU", "#c0392b"), ("mark", "#1f3a5f"), ("star", "#b8860b"))
_TERRAIN = {"mountain": "hill", "swamp": "marsh"}  # the renderer's names for the colours
_STAGE = {
    Stage.SETUP: "Japanese set-up",
    Stage.FORM: "regiments form",
    Stage.SAIL: "sea movement",
    Stage.AIR: "Ki-43 against shipping",
    Stage.AIR_ROLL: "Ki-43 rolls",
    Stage.REPLACE: "replacement",
    Stage.REINFORCE: "reinforcement to hex 33",
    Stage.DECOY: "decoys return",
    Stage.MOVE: "movement",
    Stage.DECLARE: "attacks declared",
    Stage.PICK: "next attack",
    Stage.DEFENDERS: "defenders chosen",
    Stage.HOLD: "No Retreat!",
    Stage.COMMIT: "attacker commits",
    Stage.ROLL: "die roll",
    Stage.RETREAT: "rout or withdrawal",
    Stage.ADVANCE: "advance",
    Stage.OVER: "game over",
}


def _short(unit_id: str) -> str:
    """A counter's label: "1/138" for a battalion of a regiment, else the id after the side."""
    parts = unit_id.split("-")
    if len(parts) == 3 and parts[0] == RU:
        return f"{parts[1]}/{parts[2]}"
    return "-".join(parts[1:]) or unit_id


def _sea(b: Board) -> list[Hex]:
    """The hexes of sea touching the island (the coast is where the island meets them)."""
    return sorted({n for h in b.hexes for n in hex_neighbors(h) if not b.on_island(n)})


def _border(b: Board, inside: frozenset[Hex], colour: str) -> list[Edge]:
    """The hexsides around a range, drawn inside it (island and sea alike)."""
    return [
        Edge(hex_name(h), hex_name(n), f"border-{colour}", True)
        for h in sorted(inside)
        for n in hex_neighbors(h)
        if n not in inside
    ]


def _turn_track(s: ShumshuState, turn: int, stage: Stage) -> str:
    length = game_length(s.variant)
    cells = []
    for t in range(1, length + 1):
        text = f"{t} {'AM' if t % 2 else 'PM'}"
        cells.append(f"[{text}]" if t == turn and stage is not Stage.OVER else text)
    return "turn track: " + " · ".join(cells)


def _pieces(view: dict[str, Any]) -> list[st.Piece]:
    """The pieces the observation names, in the state's order (a face-down one is not there
    for the Russians, SHU-COMBAT.5)."""
    return [
        st.Piece(
            u["id"],
            Loc(u["loc"]),
            None if u["hex"] is None else parse_hex(u["hex"]),
            u["disrupted"],
            u["recover"],
            u["revealed"],
        )
        for u in view["units"]
    ]


def _where(b: Board, view: dict[str, Any], p: st.Piece) -> str:
    """What happened to a Russian unit off the map (the landing pool)."""
    unit = p.id
    spec = b.unit(unit)
    sail = view["sail"]
    match p.loc:
        case Loc.POOL:
            if sail is not None and unit in sail["party"]:
                return f"at sea, landing at {sail['hex']}" if sail["hex"] else "at sea, delivery"
            due = spec.from_turn
            return "waiting to land" if due <= view["turn"] else f"waiting, sails from turn {due}"
        case Loc.SEA:
            return f"in a sea box, disrupted (recovers at player-turn {p.recover})"
        case Loc.GONE:
            return "eliminated"
        case Loc.SUNK:
            return "sunk, lost for good"
        case Loc.IN_REGIMENT:
            return f"in {spec.regiment}"
        case Loc.UNFORMED:
            return "not formed"
    return str(p.loc.value)


def scene(game: ShumshuRules, s: ShumshuState, side: str | None = None) -> Scene:
    """The position as a picture, drawn from `side`'s observation: the referee's (no `side`)
    and the Russians' as the Russians see it, the Japanese's with every piece named
    (SHU-COMBAT.5, SHU-COMBAT.6, SHU-SETUP.1, SHU-SETUP.2)."""
    b = game.board
    # The referee's picture is the Russians' view (module docstring); only the variant (its
    # game length and name) is read from the state, and it is public.
    view = observe(game, s, side or RU)
    named = _pieces(view)
    turn, stage = view["turn"], Stage(view["stage"])
    pieces, stacks = _map_pieces(b, view, named)
    pieces += _markers(b)
    pieces += _off_map(b, view, named, stage)
    pieces.append(Piece(b.data.airpower, None, JP, "Ki-43", "", "", f"{_air(view)} (Paramushir)"))
    return Scene(
        title=f"Postcard Shumshu, August 1945 · {CATALOGUE.name_of(s.variant)}",
        panel=tuple(_panel(b, s, view, side, stacks)),
        cells=tuple(_cells(b)),
        edges=tuple(_edges(b)),
        pieces=tuple(pieces),
        sides=SIDES,
        provisional_note=_provisional_note(b),
        turn=0 if stage is Stage.OVER else turn,
        turns=game_length(s.variant),
    )


def _cells(b: Board) -> list[Cell]:
    """The island's hexes with their terrain, and the sea around it."""
    cells = [
        Cell(hex_name(h), h.col, h.row, _TERRAIN.get(b.terrain(h), "clear"), True) for h in b.hexes
    ]
    cells += [Cell(hex_name(h), h.col, h.row, "sea") for h in _sea(b)]
    return cells


def _edges(b: Board) -> list[Edge]:
    """Rivers, roads and the borders of the two artillery ranges (SHU-LAND.5, SHU-LAND.6)."""
    data = b.data
    edges = [Edge(hex_name(x.a), hex_name(x.b), "river", True) for x in sorted(data.rivers)]
    for path in data.roads:
        edges.extend(
            Edge(hex_name(x), hex_name(y), "road", True) for x, y in itertools.pairwise(path)
        )
    edges += _border(b, data.red, "#d62728") + _border(b, data.black, "#111111")
    return edges


def _map_pieces(
    b: Board, view: dict[str, Any], named: list[st.Piece]
) -> tuple[list[Piece], dict[Hex, list[str]]]:
    """The counters on the map, each face-up unit with its factors and one "?" per hex for the
    face-down pieces the view does not name (SHU-COMBAT.5), with each hex's stack in words."""
    pieces: list[Piece] = []
    stacks: dict[Hex, list[str]] = {}
    # SHU-COMBAT.5: the Russians see a face-down piece only as one more counter in its hex
    face_down = {parse_hex(k): n for k, n in view["face_down"].items()}
    for p in named:
        if p.loc is not Loc.MAP or p.hex is None:
            continue
        spec = b.unit(p.id)
        state = " D" if p.disrupted else ""
        down = hidden(b, p)  # only in the Japanese view: their own face-down pieces
        stacks.setdefault(p.hex, []).append(
            f"{_short(p.id)} {spec.attack}-{spec.defence}{state}" + (" face down" if down else "")
        )
        note = "disrupted" if p.disrupted else ""
        pieces.append(
            Piece(
                p.id,
                hex_name(p.hex),
                spec.side,
                _short(p.id),
                f"{spec.attack}-{spec.defence}",
                "D" if p.disrupted else "",
                "face down (SHU-COMBAT.5)" if down else note,
                bool(spec.provenance.provisional),
            )
        )
    for h, n in sorted(face_down.items()):
        where = hex_name(h)
        pieces.append(Piece(f"face-down-{where}", where, JP, "?", f"x{n}" if n > 1 else ""))
        stacks.setdefault(h, []).append(f"{n} face down")
    return pieces, stacks


def _markers(b: Board) -> list[Piece]:
    """Hex 33 and the star hexes (SHU-REINF.2, SHU-WIN.1, SHU-WIN.2), and where the other
    shores lie: Kamchatka to the north-east, Paramushir to the south-west."""
    data = b.data
    marks = [
        (data.hex33, "33", "mark"),
        (data.one_star, "★", "star"),
        (data.two_star, "★★", "star"),
    ]
    pieces = [
        Piece(f"mark-{label}", hex_name(h), mark, label, note="marker") for h, label, mark in marks
    ]
    north = [h for h in _sea(b) if b.on_island(Hex(h.col, h.row + 1))]
    south = [h for h in _sea(b) if b.on_island(Hex(h.col, h.row - 1))]
    shores = (
        (min(north, key=lambda h: (h.row, -h.col)), "Kamchatka"),
        (min(south, key=lambda h: (h.col, -h.row)), "Paramushir"),
    )
    for h, label in shores:
        pieces.append(Piece(f"shore-{label}", hex_name(h), "mark", label, note="marker"))
    return pieces


def _off_map(b: Board, view: dict[str, Any], named: list[st.Piece], stage: Stage) -> list[Piece]:
    """Off the map: the Russian landing pool, the decoys found and the units eliminated, then
    the Japanese face down off the map (`_japanese_off_map`)."""
    pieces: list[Piece] = []
    for p in named:
        spec = b.unit(p.id)
        if p.loc is Loc.MAP:
            continue
        if spec.side == RU:
            if spec.is_regiment and p.loc is Loc.UNFORMED:
                continue
            pieces.append(
                Piece(p.id, None, RU, p.id, f"{spec.attack}-{spec.defence}", "", _where(b, view, p))
            )
        elif not hidden(b, p) and p.loc is not Loc.POOL:
            note = "eliminated" if p.loc is Loc.GONE else f"decoy found, back turn {p.recover}"
            pieces.append(Piece(p.id, None, JP, p.id, "", "", note))
    return pieces + _japanese_off_map(b, view, named, stage)


def _air(view: dict[str, Any]) -> str:
    """The Ki-43's state (SHU-AIR.1, SHU-AIR.3)."""
    if view["air"] and view["air_used"]:
        return "used this player-turn"
    return "flying" if view["air"] else "shot down"


def _panel(
    b: Board, s: ShumshuState, view: dict[str, Any], side: str | None, stacks: dict[Hex, list[str]]
) -> list[str]:
    """The lines beside the map: the turn and step, the turn track and landing capabilities,
    whose view it is, the result, the beachhead, the sea movement, the combat, a key, and the
    stacks spelled out."""
    data = b.data
    turn, stage, player = view["turn"], Stage(view["stage"]), view["player"]
    stage_name = _STAGE[stage]
    who = "Japanese" if player == JP else "Russian"
    half = "AM" if turn % 2 == 1 else "PM"  # SHU-SEQ.2
    line1 = f"Turn {turn} ({half}) of {game_length(s.variant)} · {who} player-turn: {stage_name}"
    if stage is Stage.SETUP:
        line1 = f"Turn 1 (AM): {stage_name} (SHU-SETUP.1)"
    ships = "■" * view["ships"] + "□" * max(0, data.capabilities - view["ships"])
    line2 = f"{_turn_track(s, turn, stage)}    landing capabilities {ships} {view['ships']}/"
    line2 += f"{data.capabilities}"
    panel = [line1, line2]
    if side is not None:
        panel.append(
            f"as {side} sees it: "
            + (
                "every Japanese piece, face-down ones marked (SHU-COMBAT.5)"
                if side == JP
                else 'face-down Japanese pieces as "?" (SHU-COMBAT.5)'
            )
        )
    result = view["result"]
    if result is not None:
        panel.append(f"result: {result['winner']} wins ({result['clause']}): {result['reason']}")
    panel.append(f"beachhead: {view['beachhead'] or 'none'} · Ki-43 {_air(view)}")
    sail = view["sail"]
    if sail is not None and sail["party"]:
        goal = f"landing at {sail['hex']}" if sail["hex"] else f"delivery to {view['beachhead']}"
        panel.append(f"at sea: {', '.join(_short(u) for u in sail['party'])} ({goal})")
    fight = view["fight"]
    if fight is not None:
        panel.append(
            f"combat at {fight['hex']}" + (f": {fight['result']}" if fight["result"] else "")
        )
    panel.append("red border: Paramushir artillery (no landing) · black: Kamchatka artillery")
    panel.append("33: Japanese arrivals · ★ 1-star · ★★ 2-star hex · brown line: road")
    if stacks:
        panel.append("stacks:")
        panel.extend(f"  {h}: {', '.join(units)}" for h, units in sorted(stacks.items()))
    return panel


def _provisional_note(b: Board) -> str:
    """What in the picture is provisional: the data records the text does not give."""
    provisional = [
        name
        for name, prov in b.data.records
        if prov.is_provisional and not name.startswith("unit ")
    ]
    provisional.append("the units' factors and arrivals")
    return ", ".join(provisional)


def _japanese_off_map(
    b: Board, view: dict[str, Any], named: list[st.Piece], stage: Stage
) -> list[Piece]:
    """The Japanese pieces that are face down off the map: waiting to be set up on Shumshu
    (SHU-SETUP.1), on Paramushir (SHU-SETUP.2), eliminated face down
    (`eliminated_face=as_it_was`). The Russians see counts (the observation's `paramushir`,
    and the Japanese pieces it does not account for); the Japanese see them by name."""
    out: list[Piece] = []
    waiting = [p for p in named if p.loc is Loc.POOL and b.side_of[p.id] == JP]
    gone = [p for p in named if p.loc is Loc.GONE and hidden(b, p)]
    if waiting or gone:  # the Japanese view: every piece is named
        for p in waiting:
            spec = b.unit(p.id)
            note = "to be set up on Shumshu" if spec.setup == "shumshu" else "on Paramushir"
            out.append(Piece(p.id, None, JP, p.id, f"{spec.attack}-{spec.defence}", "", note))
        for p in gone:
            out.append(Piece(p.id, None, JP, p.id, "", "", "eliminated face down"))
        return out
    paramushir: int = view["paramushir"]
    # SHU-SETUP.1, SHU-SETUP.2: until the set-up ends every Paramushir unit is still there, so
    # the rest of the pool are the set-up pieces still to be placed
    from_paramushir = sum(1 for u in b.data.units if u.side == JP and u.setup == "paramushir")
    to_place = max(0, paramushir - from_paramushir) if stage is Stage.SETUP else 0
    if to_place:
        note = "to be set up on Shumshu"
        out.append(Piece("setup", None, JP, f"{to_place} face down", "", "", note))
    if paramushir > to_place:
        label = f"{paramushir - to_place} face down"
        out.append(Piece("paramushir", None, JP, label, "", "", "on Paramushir"))
    listed = sum(1 for p in named if b.side_of[p.id] == JP)
    total = sum(1 for u in b.data.units if u.side == JP)
    gone_face_down = total - listed - sum(view["face_down"].values()) - paramushir
    if gone_face_down:
        out.append(
            Piece("gone-face-down", None, JP, f"{gone_face_down} face down", "", "", "eliminated")
        )
    return out


class ShumshuPicture:
    """The picture role (`kernel.roles.Picture`), built from the rules."""

    def __init__(self, rules: ShumshuRules) -> None:
        self.rules = rules

    def scene(self, s: ShumshuState, side: str | None = None) -> Scene:
        """The position as a picture (kernel.scene), for `wargame render`: as the Russians see
        it, which either player may be shown; with `side`, as that side may see it (the
        Japanese see their face-down pieces by name, SHU-COMBAT.5, SHU-SETUP.1, SHU-SETUP.2)."""
        return scene(self.rules, s, side)
