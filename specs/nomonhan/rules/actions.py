"""Nomonhan's actions (their stable JSON form: `io/actions.py`, declared once in `io/wire.py`).

Granularity follows the rules: a unit moves to a destination in one action (its path does not
matter once the destination is reachable); all combats of a phase are one declaration (NOM-9.8);
each damage point and each advance point is one choice (NOM-9.24, NOM-9.30).
"""

from __future__ import annotations

import attrs

from kernel.hexes import Hex
from specs.nomonhan.rules.state import Combat


@attrs.frozen
class Move:
    unit: str
    to: Hex


@attrs.frozen
class Enter:
    """A reinforcement enters at a flag hex and (by reading) moves on to `to` (NOM-8.8)."""

    unit: str
    at: Hex
    to: Hex


@attrs.frozen
class Demolish:
    """Blow the pontoon bridge (NOM-OPT)."""


@attrs.frozen
class EndPhase:
    """End the Movement Phase."""


@attrs.frozen
class Declare:
    combats: tuple[Combat, ...]


@attrs.frozen
class Resolve:
    """Resolve the pending combat at this index next (AMB-NOM-11)."""

    index: int


@attrs.frozen
class Roll:
    """Chance: the number of hits each side rolled (NOM-9.9, NOM-9.11)."""

    attacker_hits: int
    defender_hits: int


@attrs.frozen
class Loss:
    """One damage point: `unit` retreats to `retreat_to`, or loses a step when None."""

    unit: str
    retreat_to: Hex | None = None


@attrs.frozen
class Advance:
    unit: str
    to: Hex


@attrs.frozen
class EndAdvance:
    """Stop advancing (the remaining points are not used)."""


@attrs.frozen
class EndRoll:
    """Chance: the die rolled at the end of a turn (NOM-5.4)."""

    face: int


Action = (
    Move
    | Enter
    | Demolish
    | EndPhase
    | Declare
    | Resolve
    | Roll
    | Loss
    | Advance
    | EndAdvance
    | EndRoll
)
