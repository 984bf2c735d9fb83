"""Shumshu's immutable state.

A game turn is a half-day, AM when odd (SHU-SEQ.2; AMB-SHU-2 makes the day structure an
option), made of the Russian player-turn and then the Japanese one (SHU-SEQ.1). Player-turns
are numbered 2t-1 (Russian) and 2t (Japanese) in turn t: a disrupted unit keeps the number of
the player-turn at whose end it recovers (SHU-DISRUPT.3, SHU-DISRUPT.4).

Nothing derivable is stored: the next Japanese piece to set up, the last attacker to join a
declaration, who holds the victory hexes and which units are hidden follow from the pieces.
"""

from __future__ import annotations

import enum

import attrs

from kernel.game import Outcome
from kernel.hexes import Hex
from kernel.variants import Variant

RU, JP = "RU", "JP"


def other(side: str) -> str:
    return JP if side == RU else RU


class Loc(enum.Enum):
    """Where a piece is."""

    MAP = "map"  # on a hex of Shumshu
    POOL = "pool"  # Paramushir (Japanese), off-board waiting (Russian), or not yet set up
    GONE = "gone"  # eliminated (or sunk)
    UNFORMED = "unformed"  # a regiment counter whose regiment is not formed (SHU-RGT.1)
    IN_REGIMENT = "in_regiment"  # a battalion absorbed into its formed regiment (AMB-SHU-10)
    REMOVED = "removed"  # a discovered decoy, until it returns (SHU-COMBAT.6)
    SEA = "sea"  # a failed lander waiting in a sea box (AMB-SHU-4 reading sea_box)
    SUNK = "sunk"  # sunk by the Ki-43 and lost for good (sunk_passengers=lost_for_good)


class Stage(enum.Enum):
    """Where the game stands: who decides next, and what."""

    SETUP = "setup"  # the Japanese place their Shumshu pieces (SHU-SETUP.1)
    FORM = "form"  # the Russians form regiments (SHU-RGT.1)
    SAIL = "sail"  # the Russians pick a landing hex and embark, or deliver (SHU-LAND, REINF)
    AIR = "air"  # the Japanese decide on an air strike against shipping (SHU-AIR.2)
    AIR_ROLL = "air_roll"  # chance: the airpower's die (SHU-AIR.2, SHU-AIR.3)
    REPLACE = "replace"  # the Russians may replace a battalion (SHU-REPL.1)
    REINFORCE = "reinforce"  # the Japanese bring one unit to hex 33 (SHU-REINF.2)
    DECOY = "decoy"  # the Japanese put back a decoy discovered last turn (SHU-COMBAT.6)
    MOVE = "move"  # the phasing side moves units one at a time (SHU-MOVE.1)
    DECLARE = "declare"  # the phasing side joins units to attacks (SHU-COMBAT.1 to 4)
    PICK = "pick"  # the attacker picks the next combat to resolve
    DEFENDERS = "defenders"  # the defender picks who defends (SHU-STACK.3)
    HOLD = "hold"  # the defender may declare No Retreat! (SHU-LAND.8, SHU-LAND.9)
    COMMIT = "commit"  # the attacker presses, calls the airpower, declares Banzai!
    ROLL = "roll"  # chance: the combat or landing die (SHU-CRT.1)
    RETREAT = "retreat"  # a DR or DW moves the defenders one hex (SHU-CRT.4, SHU-CRT.5)
    ADVANCE = "advance"  # the victors may advance (SHU-COMBAT.13)
    OVER = "over"


@attrs.frozen(cache_hash=True)
class Piece:
    """A counter's state. `recover` is the player-turn at whose end a disrupted unit recovers,
    or the turn from which a discovered decoy (or a unit in a sea box) may come back.

    Its hash is kept: a state's hash (every position of a playout is remembered by it) hashes
    every piece, and a step changes only one or two of them (issue 34)."""

    id: str
    loc: Loc
    hex: Hex | None = None
    disrupted: bool = False
    recover: int = 0
    revealed: bool = False


@attrs.frozen(order=True)
class Combat:
    """One declared attack: a target hex and the units attacking into it."""

    hex: Hex
    attackers: tuple[str, ...]


@attrs.frozen
class Sail:
    """What the Russians send by sea this player-turn: a landing at `hex` (the landers, in
    order) or deliveries to the beachhead (`hex` None)."""

    hex: Hex | None
    party: tuple[str, ...] = ()
    sailed: bool = False  # embarking is over
    lost_ship: bool = False  # a capability was already lost in this landing (SHU-LAND.4)
    landed: bool = False  # some unit has landed: the landing succeeded (SHU-LAND.1)


@attrs.frozen
class Fight:
    """The combat (or landing roll) being resolved."""

    hex: Hex
    attackers: tuple[str, ...]
    landing: bool = False
    defenders: tuple[str, ...] = ()
    hold: bool = False  # No Retreat! declared (SHU-LAND.8, SHU-LAND.9)
    press: bool = False  # pressed attack (SHU-PRESS.1)
    air: bool = False  # Japanese airpower shift (SHU-AIR.1)
    banzai: bool = False  # Banzai! (SHU-BANZAI.1)
    face: int = 0  # the die, once rolled
    result: str = ""  # the CRT result, once rolled
    retreating: tuple[str, ...] = ()  # units still to rout or withdraw, in data order
    first_to: Hex | None = None  # where the first of them went (retreat_together)
    winners: tuple[str, ...] = ()  # attackers that may still advance (SHU-COMBAT.13)


_SLOT: dict[str, int] = {}
"""Where each unit's piece was last found in a state's `units` (`ShumshuState.piece`)."""


@attrs.frozen(cache_hash=True)
class ShumshuState:
    variant: Variant
    turn: int
    side: str  # whose player-turn it is (JP during set-up)
    stage: Stage
    units: tuple[Piece, ...]  # in data order
    ships: int  # naval landing capabilities left (SHU-LAND.3)
    air: bool = True  # the Ki-43 still flies (SHU-AIR.3)
    air_used: bool = False  # used in this player-turn (AMB-SHU-23)
    air_turn: int = 0  # the turn of its last use (air_frequency=once_per_turn)
    at_arrived: bool = False  # the Russian AT guns have landed (SHU-TANK.2)
    beachhead: Hex | None = None  # the supply base (SHU-LAND.1)
    replaced: int = 0  # the period of the last replacement (SHU-REPL.1)
    moved: frozenset[str] = frozenset()  # moved this player-turn
    acted: frozenset[str] = frozenset()  # landed by assault (or formed) this player-turn,
    # or lost at sea in it under `replace_lost=next_turn` (not to be replaced before the next)
    sail: Sail | None = None
    pending: tuple[Combat, ...] = ()
    fight: Fight | None = None
    taken: frozenset[str] = frozenset()  # victory hexes entered ("1", "2"), AMB-SHU-3 (b)
    result: Outcome | None = None

    def piece(self, unit_id: str) -> Piece:
        """The unit's piece: looked up where it was last found (every state lists the units
        in data order, so that is where it is), searched only when it is not there."""
        units = self.units
        i = _SLOT.get(unit_id, -1)
        if 0 <= i < len(units) and units[i].id == unit_id:
            return units[i]
        for i, p in enumerate(units):
            if p.id == unit_id:
                _SLOT[unit_id] = i
                return p
        raise KeyError(unit_id)

    @property
    def player_turn(self) -> int:
        """2t-1 for the Russian player-turn of turn t, 2t for the Japanese one."""
        return 2 * self.turn - (1 if self.side == RU else 0)

    @property
    def is_am(self) -> bool:
        """Odd turns are AM (SHU-SEQ.2)."""
        return self.turn % 2 == 1  # SHU-SEQ.2: half-day turns, AM then PM
