"""What one side may know (SHU-COMBAT.5, SHU-COMBAT.6, SHU-SETUP.1, SHU-SETUP.2).

The Japanese see everything: the Russians hide nothing. The Russians see every Japanese
counter on the map, but a face-down one (undisrupted and not revealed by combat; decoys are
face down too, AMB-SHU-30) only as one more piece in its hex, and the Paramushir units only as
a count. A face-down piece's identity, moves and declared attacks are not in the view; the
Russians' legal actions depend on this view alone (tests/shumshu/test_hidden.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kernel.hexes import Hex, hex_name
from specs.shumshu.rules.state import JP, RU, Loc, ShumshuState
from specs.shumshu.rules.units import hidden

if TYPE_CHECKING:
    from specs.shumshu.rules.reader import ShumshuRules

HIDDEN = "hidden"


def _hex(h: Hex | None) -> str | None:
    return None if h is None else hex_name(h)


def observe(game: ShumshuRules, s: ShumshuState, side: str) -> dict[str, Any]:
    b = game.board
    secret = {p.id for p in s.units if side == RU and hidden(b, p)}

    def names(units: tuple[str, ...]) -> list[str]:
        """The units seen, in order, then one HIDDEN per face-down one: where a face-down
        unit stands in the data order would tell which it is (SHU-COMBAT.5)."""
        return [u for u in units if u not in secret] + [HIDDEN for u in units if u in secret]

    units = [
        {
            "id": p.id,
            "loc": p.loc.value,
            "hex": _hex(p.hex),
            "disrupted": p.disrupted,
            "recover": p.recover,
            "revealed": p.revealed,
        }
        for p in s.units
        if p.id not in secret
    ]
    face_down: dict[str, int] = {}
    for p in s.units:
        if p.id in secret and p.loc is Loc.MAP:
            key = _hex(p.hex)
            assert key is not None
            face_down[key] = face_down.get(key, 0) + 1
    sail = s.sail
    fight = s.fight
    return {
        "game": game.name,
        "side": side,
        "to_move": game.to_move(s),
        "variant": s.variant.to_json(),
        "turn": s.turn,
        "player": s.side,
        "stage": s.stage.value,
        "ships": s.ships,
        "air": s.air,
        "air_used": s.air_used,
        "air_turn": s.air_turn,
        "at_arrived": s.at_arrived,
        "beachhead": _hex(s.beachhead),
        "replaced": s.replaced,
        "units": units,
        "face_down": dict(sorted(face_down.items())),
        "paramushir": sum(1 for p in s.units if p.loc is Loc.POOL and b.side_of[p.id] == JP),
        "moved": sorted(u for u in s.moved if u not in secret),
        "moved_face_down": sum(1 for u in s.moved if u in secret),
        "acted": sorted(s.acted),
        "sail": None
        if sail is None
        else {
            "hex": _hex(sail.hex),
            "party": list(sail.party),
            "sailed": sail.sailed,
            "lost_ship": sail.lost_ship,
            "landed": sail.landed,
        },
        "pending": [{"hex": _hex(c.hex), "attackers": names(c.attackers)} for c in s.pending],
        "fight": None
        if fight is None
        else {
            "hex": _hex(fight.hex),
            "attackers": names(fight.attackers),
            "landing": fight.landing,
            "defenders": names(fight.defenders),
            "hold": fight.hold,
            "press": fight.press,
            "air": fight.air,
            "banzai": fight.banzai,
            "face": fight.face,
            "result": fight.result,
            "retreating": names(fight.retreating),
            "first_to": _hex(fight.first_to),
            "winners": names(fight.winners),
        },
        "taken": sorted(s.taken),
        "result": None if s.result is None else s.result.to_json(),
    }
