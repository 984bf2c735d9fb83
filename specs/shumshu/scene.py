"""Shumshu as a picture (`wargame render`), drawn as the Russians see it so that it can be
shown to either player (SHU-COMBAT.5).

The map: the island's hexes from the data file with their terrain (mountains, swamps), the
rivers and the road, the sea around it (a hex of the island touching the sea is coastal,
SHU-LAND.1), the red border of the Paramushir artillery's long range and the black border of
the Kamchatka artillery's (SHU-LAND.5, SHU-LAND.6, SHU-COMBAT.10), hex 33 (SHU-REINF.2) and the
1-star and 2-star hexes (SHU-WIN.1, SHU-WIN.2) as markings at the foot of their hex. On it,
the stacks: every face-up unit with its factors ("D" when disrupted), and one face-down
counter "?" per hex for the Japanese pieces the Russians cannot identify, with their number.

Beside it: the turn track (AMB-SHU-2), the landing capabilities left (SHU-LAND.3), the Ki-43,
the beachhead and this turn's sea movement, then the stacks spelled out; off the map, the
Russian landing pool (each unit with its state: waiting, sailing, in a sea box, eliminated,
sunk), the Japanese on Paramushir (a count: they are face down), the discovered decoys and
the eliminated units.
"""

from __future__ import annotations

import itertools

from kernel.hexes import Hex, hex_name, hex_neighbors
from kernel.scene import Cell, Edge, Piece, Scene
from specs.shumshu.board import Board
from specs.shumshu.describe import half
from specs.shumshu.flow import game_length
from specs.shumshu.state import JP, RU, Loc, ShumshuState, Stage
from specs.shumshu.units import hidden
from specs.shumshu.variants import CATALOGUE

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


def _turn_track(s: ShumshuState) -> str:
    length = game_length(s.variant)
    cells = []
    for t in range(1, length + 1):
        text = f"{t} {'AM' if t % 2 else 'PM'}"
        cells.append(f"[{text}]" if t == s.turn and s.stage is not Stage.OVER else text)
    return "turn track: " + " · ".join(cells)


def _where(b: Board, s: ShumshuState, unit: str) -> str:
    """What happened to a Russian unit off the map (the landing pool)."""
    p = s.piece(unit)
    spec = b.unit(unit)
    match p.loc:
        case Loc.POOL:
            if s.sail is not None and unit in s.sail.party:
                return f"at sea, landing at {s.sail.hex}" if s.sail.hex else "at sea, delivery"
            due = spec.from_turn
            return "waiting to land" if due <= s.turn else f"waiting, sails from turn {due}"
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


def scene(b: Board, s: ShumshuState) -> Scene:
    data = b.data
    cells = [
        Cell(hex_name(h), h.col, h.row, _TERRAIN.get(b.terrain(h), "clear"), True) for h in b.hexes
    ]
    cells += [Cell(hex_name(h), h.col, h.row, "sea") for h in _sea(b)]
    edges = [Edge(hex_name(x.a), hex_name(x.b), "river", True) for x in sorted(data.rivers)]
    for path in data.roads:
        edges.extend(
            Edge(hex_name(x), hex_name(y), "road", True) for x, y in itertools.pairwise(path)
        )
    edges += _border(b, data.red, "#d62728") + _border(b, data.black, "#111111")

    pieces: list[Piece] = []
    stacks: dict[Hex, list[str]] = {}
    face_down: dict[Hex, int] = {}
    for p in s.units:
        if p.loc is not Loc.MAP or p.hex is None:
            continue
        if hidden(b, p):
            face_down[p.hex] = face_down.get(p.hex, 0) + 1
            continue
        spec = b.unit(p.id)
        state = " D" if p.disrupted else ""
        stacks.setdefault(p.hex, []).append(f"{_short(p.id)} {spec.attack}-{spec.defence}{state}")
        pieces.append(
            Piece(
                p.id,
                hex_name(p.hex),
                spec.side,
                _short(p.id),
                f"{spec.attack}-{spec.defence}",
                "D" if p.disrupted else "",
                "disrupted" if p.disrupted else "",
                bool(spec.provenance.provisional),
            )
        )
    for h, n in sorted(face_down.items()):
        where = hex_name(h)
        pieces.append(Piece(f"face-down-{where}", where, JP, "?", f"x{n}" if n > 1 else ""))
        stacks.setdefault(h, []).append(f"{n} face down")
    marks = [
        (data.hex33, "33", "mark"),
        (data.one_star, "★", "star"),
        (data.two_star, "★★", "star"),
    ]
    for h, label, side in marks:
        pieces.append(Piece(f"mark-{label}", hex_name(h), side, label, note="marker"))
    # where the other shores lie: Kamchatka to the north-east, Paramushir to the south-west
    north = [h for h in _sea(b) if b.on_island(Hex(h.col, h.row + 1))]
    south = [h for h in _sea(b) if b.on_island(Hex(h.col, h.row - 1))]
    shores = (
        (min(north, key=lambda h: (h.row, -h.col)), "Kamchatka"),
        (min(south, key=lambda h: (h.col, -h.row)), "Paramushir"),
    )
    for h, label in shores:
        pieces.append(Piece(f"shore-{label}", hex_name(h), "mark", label, note="marker"))

    # off the map: the Russian landing pool, Paramushir, decoys found, units eliminated
    for p in s.units:
        spec = b.unit(p.id)
        if p.loc is Loc.MAP:
            continue
        if spec.side == RU:
            if spec.is_regiment and p.loc is Loc.UNFORMED:
                continue
            pieces.append(
                Piece(p.id, None, RU, p.id, f"{spec.attack}-{spec.defence}", "", _where(b, s, p.id))
            )
        elif not hidden(b, p) and p.loc is not Loc.POOL:
            note = "eliminated" if p.loc is Loc.GONE else f"decoy found, back turn {p.recover}"
            pieces.append(Piece(p.id, None, JP, p.id, "", "", note))
    waiting = [p for p in s.units if p.loc is Loc.POOL and b.side_of[p.id] == JP]
    to_place = sum(1 for p in waiting if b.unit(p.id).setup == "shumshu")  # during set-up
    if to_place:
        note = "to be set up on Shumshu"
        pieces.append(Piece("setup", None, JP, f"{to_place} face down", "", "", note))
    if len(waiting) > to_place:
        label = f"{len(waiting) - to_place} face down"
        pieces.append(Piece("paramushir", None, JP, label, "", "", "on Paramushir"))
    gone_face_down = sum(1 for p in s.units if p.loc is Loc.GONE and hidden(b, p))
    if gone_face_down:
        pieces.append(
            Piece("gone-face-down", None, JP, f"{gone_face_down} face down", "", "", "eliminated")
        )
    air = "flying" if s.air else "shot down"
    if s.air and s.air_used:
        air = "used this player-turn"
    pieces.append(Piece(data.airpower, None, JP, "Ki-43", "", "", f"{air} (Paramushir)"))

    stage = _STAGE[s.stage]
    who = "Japanese" if s.side == JP else "Russian"
    line1 = f"Turn {s.turn} ({half(s)}) of {game_length(s.variant)} · {who} player-turn: {stage}"
    if s.stage is Stage.SETUP:
        line1 = f"Turn 1 (AM): {stage} (SHU-SETUP.1)"
    ships = "■" * s.ships + "□" * max(0, data.capabilities - s.ships)
    line2 = f"{_turn_track(s)}    landing capabilities {ships} {s.ships}/{data.capabilities}"
    panel = [line1, line2]
    if s.result is not None:
        panel.append(f"result: {s.result.winner} wins ({s.result.clause}): {s.result.reason}")
    panel.append(f"beachhead: {s.beachhead or 'none'} · Ki-43 {air}")
    if s.sail is not None and s.sail.party:
        goal = f"landing at {s.sail.hex}" if s.sail.hex else f"delivery to {s.beachhead}"
        panel.append(f"at sea: {', '.join(_short(u) for u in s.sail.party)} ({goal})")
    if s.fight is not None:
        panel.append(f"combat at {s.fight.hex}" + (f": {s.fight.result}" if s.fight.result else ""))
    panel.append("red border: Paramushir artillery (no landing) · black: Kamchatka artillery")
    panel.append("33: Japanese arrivals · ★ 1-star · ★★ 2-star hex · brown line: road")
    if stacks:
        panel.append("stacks:")
        panel.extend(f"  {h}: {', '.join(units)}" for h, units in sorted(stacks.items()))
    provisional = [
        name for name, prov in data.records if prov.is_provisional and not name.startswith("unit ")
    ]
    provisional.append("the units' factors and arrivals")
    return Scene(
        title=f"Postcard Shumshu, August 1945 · {CATALOGUE.name_of(s.variant)}",
        panel=tuple(panel),
        cells=tuple(cells),
        edges=tuple(edges),
        pieces=tuple(pieces),
        sides=SIDES,
        provisional_note=", ".join(provisional),
        turn=0 if s.stage is Stage.OVER else s.turn,
        turns=game_length(s.variant),
    )
