"""Rattenkrieg's actions and their stable JSON form.

Granularity follows the rules: a Player Turn designates one unit (RKS-7.1.1) whose operations
are one action each (RKS-7.1.2); paying for a move is its own choice of card (RKS-7.3.1); each
card put on the table in combat is one action (RKS-8.4.1 to RKS-8.6.2); every draw from the deck
and every random pick is a chance action naming its card. The Recruiting Phase discard is one
action naming its cards (RKS-10.1.1): one decision of the rules, one line of a log; its choices
are listed lazily (`legal.DiscardChoices`), never all built.

The JSON form is `wire_actions.ActionRecord`, a union tagged on "type", decoded strictly
(`specs.rattenkrieg.io.actions`).
"""

from __future__ import annotations

import attrs


@attrs.frozen
class Place:
    """The Soviet player puts a Rifle on a Normal Area at set-up (RKS-3.1.1)."""

    unit: str
    area: str


@attrs.frozen
class Draw:
    """Chance: this card comes off the deck (RKS-3.4.3)."""

    card: str


@attrs.frozen
class Pick:
    """Chance: this card is picked at random from known ones (RKS-9.6.1, AMB-RKS-7)."""

    card: str


@attrs.frozen
class Designate:
    """The unit that acts in this Player Turn (RKS-7.1.1)."""

    unit: str


@attrs.frozen
class Recruit:
    """Flip a unit in the own Rear and give it a step from the deck (RKS-7.5.1)."""

    unit: str


@attrs.frozen
class Pass:
    """Designate no unit (RKS-5.1.2, AMB-RKS-1)."""


@attrs.frozen
class Move:
    """The acting unit moves to an adjacent Area, with a T-34 moving along (RKS-8.12.4)."""

    to: str
    escort: str | None = None


@attrs.frozen
class Pay:
    """The card discarded to enter an empty enemy-controlled Area (RKS-7.3.1)."""

    card: str


@attrs.frozen
class Attack:
    """Combat against an enemy unit in the acting unit's Area (AMB-RKS-21, RKS-8.11.2)."""


@attrs.frozen
class Event:
    """A face card played as an event (RKS-9.1.1, RKS-9.1.2), with its target unit if any:
    the unit bombarded (RKS-9.2.1) or flipped face up by General Chuikov (RKS-9.8.2)."""

    card: str
    target: str | None = None


@attrs.frozen
class End:
    """The acting unit does nothing more: it is flipped (RKS-7.4.1)."""


@attrs.frozen
class Defend:
    """The defender's choice of the unit that fights (RKS-8.2.3)."""

    unit: str


@attrs.frozen
class Play:
    """A card put face down in combat: a declaration or a raise (RKS-8.4.1, RKS-8.5.2,
    RKS-8.6.1); `support` adds the T-34's strength (RKS-8.12.3)."""

    card: str
    support: bool = False


@attrs.frozen
class Accept:
    """The defender takes the damage without contest (RKS-8.5.1)."""


@attrs.frozen
class Stand:
    """No raise (RKS-8.6.1)."""


@attrs.frozen
class Retreat:
    """A unit retreats into an adjacent friendly Area and is flipped (RKS-8.9.1, RKS-8.10.1,
    RKS-8.11.2)."""

    unit: str
    to: str


@attrs.frozen
class LoseStep:
    """A unit loses a step card (RKS-8.9.1); None when the card is picked at random."""

    unit: str
    card: str | None = None


@attrs.frozen
class Sacrifice:
    """The T-34 is eliminated instead of the retreat or the step loss (RKS-8.12.5)."""

    unit: str


@attrs.frozen
class Isolate:
    """A remaining defender stays in the Area, isolated (RKS-8.10.1)."""

    unit: str


@attrs.frozen
class Discard:
    """The Recruiting Phase discard, any number of cards (RKS-10.1.1), and whether the player
    then fills his hand up from the deck, which he may (RKS-10.1.2); `draw`, only under
    `refill_amount=partial`, draws that many cards, fewer than the refill would."""

    cards: frozenset[str]
    refill: bool = True
    draw: int | None = None


Action = (
    Place
    | Draw
    | Pick
    | Designate
    | Recruit
    | Pass
    | Move
    | Pay
    | Attack
    | Event
    | End
    | Defend
    | Play
    | Accept
    | Stand
    | Retreat
    | LoseStep
    | Sacrifice
    | Isolate
    | Discard
)

CHANCE_TYPES = (Draw, Pick)
