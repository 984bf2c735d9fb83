"""Set-up (SHU-SETUP.1 to SHU-SETUP.3): the state before play and the placing of the
Japanese Shumshu pieces, after which the first Russian player-turn begins.

Apart from `sequence` because set-up comes once, before the cycle of player-turns it hands
over to.
"""

from __future__ import annotations

from kernel.hexes import Hex
from kernel.variants import Variant
from specs.shumshu.rules.board import Board
from specs.shumshu.rules.sequence import illegal, start_player_turn
from specs.shumshu.rules.state import JP, RU, Loc, Piece, ShumshuState, Stage
from specs.shumshu.rules.units import update


def initial_state(b: Board, v: Variant) -> ShumshuState:
    """Before play: the Japanese Shumshu pieces wait to be placed, the rest of the Japanese
    on Paramushir, every Russian unit off-board (SHU-SETUP.1 to SHU-SETUP.3)."""
    # SHU-SETUP.2 the other Japanese units on Paramushir, SHU-SETUP.3 the Russians off-board
    pieces = tuple(
        Piece(u.id, Loc.UNFORMED if u.setup == "formed" else Loc.POOL) for u in b.data.units
    )
    s = ShumshuState(
        variant=v,
        turn=1,
        side=JP,
        stage=Stage.SETUP,
        units=pieces,
        ships=b.data.capabilities,
    )
    return s if setup_waiting(b, s) else start_player_turn(b, s, RU)


def setup_waiting(b: Board, s: ShumshuState) -> tuple[str, ...]:
    """The Japanese Shumshu pieces still to set up, in data order (SHU-SETUP.1)."""
    return tuple(p.id for p in s.units if p.loc is Loc.POOL and b.unit(p.id).setup == "shumshu")


def place_piece(b: Board, s: ShumshuState, unit: str, h: Hex) -> ShumshuState:
    """A Japanese piece of the Japanese player's choosing goes face down on a hex of Shumshu;
    once the last is placed the first Russian player-turn begins (SHU-SETUP.1).

    The order is free: SHU-SETUP.1 lists the pieces and says nothing of an order, and
    SHU-COMBAT.5 hides them ("Jpns units hidden until combat"). A fixed order would tell the
    Russians, who see each face-down counter go down on its hex, which step placed the tank
    and which the decoys: across a table they see counters going onto hexes, nothing more.
    With a free order the same hexes in the same order can hold any of the pieces, so the
    Russian view of every step (`io.observation`: a count per hex) and its log line
    (`io.narration`: the hex, not the piece) are the same whichever piece went where
    (tests/shumshu/test_hidden_history.py)."""
    if unit not in setup_waiting(b, s):
        raise illegal(
            f"{unit} is not a Japanese piece waiting to be set up on Shumshu", "SHU-SETUP.1"
        )
    if not b.on_island(h):
        raise illegal(f"{h} is not a hex of Shumshu", "SHU-SETUP.1")
    s = update(s, [unit], loc=Loc.MAP, hex=h)  # SHU-SETUP.1: placed on Shumshu, hidden
    if not setup_waiting(b, s):
        return start_player_turn(b, s, RU)
    return s
