"""The SNC's actions: frozen records, one per kind of decision (SNC-5.x to SNC-11.x).

Attacks are declared one at a time, in any order (SNC-10.1.2): `Attack(target)` opens a
combat, `Join(unit)` adds its attackers one by one (a set would be exponential to list),
`Strike()` closes the declaration; an overrun's group is declared the same way after
`Overrun(target)` (SNC-9.6.2), and so is a group that moves together: `Join(unit)` in a Move
phase opens it, more `Join`s grow it, `Move(group, to)` makes its first hex (SNC-9.0.10,
SNC-9.6.2; AMB-SNC-44). Losses, advances and over-stacking eliminations are one
unit per action for the same reason. Dice are `Roll(face)` chance actions (probability 1/6).
"""

from __future__ import annotations

import attrs

from kernel.hexes import Hex
from specs.snc1937.rules.state import Order


@attrs.frozen
class Declare:
    """The phase-order declaration before a player turn (SNC-5.3.1)."""

    order: Order


@attrs.frozen
class Move:
    """Units starting in one hex move together to `to` (SNC-9.0.x; AMB-SNC-44): one unit, the
    whole movable stack (stack_movement=stacks), or the group formed by `Join`s (SNC-9.6.2)."""

    units: tuple[str, ...]
    to: Hex


@attrs.frozen
class Overrun:
    """A Japanese overrun of the adjacent Chinese hex `target` (SNC-9.6.1 to SNC-9.6.3). With a
    move under way its group attempts it at once: the group keeps its units (SNC-9.0.10,
    SNC-9.6.2). Otherwise it opens the overrun and its group is declared next, like an
    attack's: `Join(unit)` per unit, all from the hex they start their move in (SNC-9.6.2), then
    `Strike()`; any group of that hex may so be built without listing its subsets."""

    target: Hex


@attrs.frozen
class Attack:
    """Open an attack on an enemy-occupied hex (SNC-10.0.1, SNC-10.1.2)."""

    target: Hex


@attrs.frozen
class Join:
    """A unit joins the attack being declared (SNC-10.0.5), the overrun group being declared
    (SNC-9.6.2), or, in a Move phase, opens or joins a group to move together (SNC-9.0.10,
    SNC-9.6.2; AMB-SNC-44)."""

    unit: str


@attrs.frozen
class Strike:
    """The attackers are all declared: resolve (SNC-10.1.2); an overrun's group pays and fights
    (SNC-9.6.1, SNC-9.6.3)."""


@attrs.frozen
class Support:
    """Add one fire support marker of a kind (SNC-11.1.1, SNC-11.1.3)."""

    kind: str


@attrs.frozen
class Intercept:
    """Chinese air support tries (yes) or not against a Japanese air marker or interdiction
    (SNC-11.3.1, SNC-11.3.3)."""

    yes: bool


@attrs.frozen
class Roll:
    """Chance: one six-sided die."""

    face: int


@attrs.frozen
class Loss:
    """The owner takes one step from this unit (SNC-10.5.2.x)."""

    unit: str


@attrs.frozen
class Retreat:
    """A surviving Chinese unit retreats one hex from a landing hex (SNC-8.4.0.9)."""

    unit: str
    to: Hex


@attrs.frozen
class Advance:
    """A victorious attacker advances into the emptied hex (SNC-10.5.3.1)."""

    unit: str


@attrs.frozen
class AdvanceOn:
    """A 10th Army unit in its landing hex makes the second hex of its advance after the
    landing combat (SNC-8.4.1.2, SNC-8.4.1.3)."""

    unit: str
    to: Hex


@attrs.frozen
class Place:
    """A reinforcement arrives: a Chinese unit on a hex (SNC-8.2.2, SNC-8.2.4, SNC-8.1.4), or
    SNLF 9 placed at Shanghai (AMB-SNC-35)."""

    unit: str
    hex: Hex
    rail: bool = False


@attrs.frozen
class Land:
    """A Japanese reinforcement group lands at a landing hex (SNC-8.4.0.1 to SNC-8.4.0.4)."""

    units: tuple[str, ...]
    hex: Hex


@attrs.frozen
class Delay:
    """A due reinforcement waits until the next GT (SNC-8.0.2; AMB-SNC-6)."""

    unit: str


@attrs.frozen
class Replace:
    """A reduced Japanese regiment gets a replacement step (SNC-8.3.4)."""

    unit: str


@attrs.frozen
class Remove:
    """An interdicted Chinese reinforcement is removed for the game (SNC-11.2.2)."""

    unit: str


@attrs.frozen
class Eliminate:
    """The owner of an over-stacked hex eliminates a unit there (SNC-6.0.4)."""

    unit: str


@attrs.frozen
class Top:
    """The owner puts one of his units on top of its stack, the one the enemy sees (SNC-6.3.1,
    SNC-6.4.1; AMB-SNC-40: the owner chooses the top unit)."""

    unit: str


@attrs.frozen
class Done:
    """End the current phase or activity (SNC-5.0.3)."""


Action = (
    Declare | Move | Overrun | Attack | Join | Strike | Support | Intercept | Roll | Loss | Retreat
    | Advance | AdvanceOn | Place | Land | Delay | Replace | Remove | Eliminate | Top | Done
)  # fmt: skip
