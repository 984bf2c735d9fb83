"""Shumshu's actions.

Granularity follows the rules: a Japanese piece is placed at set-up one at a time, in the order
the Japanese choose (SHU-SETUP.1);
the Russians embark one unit at a time (SHU-LAND.2, SHU-REINF.3); a unit moves to a
destination in one action (SHU-MOVE.1); a declaration is made one unit at a time, each `Join`
kept only if the whole declaration can still be completed (SHU-COMBAT.1 to SHU-COMBAT.4);
each routed or withdrawn unit is one choice (SHU-CRT.4, SHU-CRT.5). `Done` ends the current
step (forming, embarking, a replacement, a reinforcement, moving, declaring, advancing).
Dice are the chance actions `Roll` and `AirRoll` (SHU-CRT.1, SHU-AIR.2).
"""

from __future__ import annotations

import attrs

from kernel.hexes import Hex


@attrs.frozen
class Place:
    """Set-up: put a Japanese piece still waiting, of the Japanese player's choosing, face down on
    a hex of Shumshu (SHU-SETUP.1, SHU-COMBAT.5)."""

    unit: str
    hex: Hex


@attrs.frozen
class Form:
    """Form a Russian regiment from its three battalions (SHU-RGT.1)."""

    regiment: str


@attrs.frozen
class LandAt:
    """Pick the coastal hex of this turn's landing (SHU-LAND.1)."""

    hex: Hex


@attrs.frozen
class Embark:
    """Put a Russian unit to sea: a lander, or a delivery to the beachhead (SHU-REINF.3)."""

    unit: str


@attrs.frozen
class Strike:
    """The Japanese send (or do not send) the Ki-43 against Russian shipping (SHU-AIR.2)."""

    yes: bool


@attrs.frozen
class AirRoll:
    """Chance: the Ki-43's die, and on its best roll the unit sunk with its ship (or None for
    an empty one) (SHU-AIR.2, SHU-AIR.3)."""

    face: int
    sunk: str | None = None


@attrs.frozen
class Replace:
    """Bring back an eliminated Russian infantry battalion at the beachhead (SHU-REPL.1)."""

    unit: str


@attrs.frozen
class Reinforce:
    """Bring one Japanese unit from Paramushir to hex 33 (SHU-REINF.2)."""

    unit: str
    hex: Hex


@attrs.frozen
class ReturnDecoy:
    """Put a decoy discovered last turn back on the map (SHU-COMBAT.6, AMB-SHU-21)."""

    unit: str
    hex: Hex


@attrs.frozen
class Move:
    unit: str
    to: Hex


@attrs.frozen
class Join:
    """`unit` attacks into `hex` (SHU-COMBAT.1); the attackers into one hex are one combat."""

    unit: str
    hex: Hex


@attrs.frozen
class Resolve:
    """Resolve the declared attack into this hex next."""

    hex: Hex


@attrs.frozen
class Defend:
    """The units that defend the hex (SHU-STACK.3)."""

    units: tuple[str, ...]


@attrs.frozen
class Hold:
    """Declare (or not) No Retreat! for the undisrupted defenders (SHU-LAND.8, SHU-LAND.9)."""

    yes: bool


@attrs.frozen
class Commit:
    """The attacker's choices before the roll: press (SHU-PRESS.1), the Ki-43's shift
    (SHU-AIR.1), Banzai! (SHU-BANZAI.1)."""

    press: bool = False
    air: bool = False
    banzai: bool = False


@attrs.frozen
class Roll:
    """Chance: the die of a combat or a landing (SHU-CRT.1)."""

    face: int


@attrs.frozen
class Retreat:
    """A routed or withdrawn unit goes to `to` (SHU-CRT.4, SHU-CRT.5)."""

    unit: str
    to: Hex


@attrs.frozen
class Advance:
    unit: str
    to: Hex


@attrs.frozen
class Done:
    """End the current step."""


Action = (
    Place
    | Form
    | LandAt
    | Embark
    | Strike
    | AirRoll
    | Replace
    | Reinforce
    | ReturnDecoy
    | Move
    | Join
    | Resolve
    | Defend
    | Hold
    | Commit
    | Roll
    | Retreat
    | Advance
    | Done
)
