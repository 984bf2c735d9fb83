"""Rattenkrieg's immutable state: units with their step cards, the piles, the hands, control,
and where in the turn play stands.

Every card is in exactly one place: the deck (the cards nobody has seen, in no order), the
discard pile, a hand, a unit's steps, a combat's table, or (by one reading of AMB-RKS-7) out of
play. Which discarded or removed cards lie face up is the `discard_faces` option's (found here):
`face_up` records them. Nothing derivable is stored: hits, strengths and the side to move
follow from the rest.
Control is stored because it outlasts the units that took it (RKS-3.6.1, AMB-RKS-11).
"""

from __future__ import annotations

import enum

import attrs

from kernel.game import Outcome
from kernel.variants import Variant

GE = "GE"
SU = "SU"
SIDES = (GE, SU)


def other(side: str) -> str:
    return SU if side == GE else GE


class Phase(enum.Enum):
    """The parts of a game: set-up, then per turn the phases of RKS-5.1.1."""

    SETUP = "setup"
    REINFORCEMENT = "reinforcement"  # RKS-6.1.1, RKS-6.2.1 (and the T-34's return, RKS-6.3.1)
    PLAYER_TURNS = "player_turns"  # RKS-5.1.2
    RECRUITING = "recruiting"  # RKS-10.1.1
    OVER = "over"


class Stage(enum.Enum):
    """Who decides next, and what."""

    PLACE = "place"  # the Soviet player places the Rifles (RKS-3.1.1)
    DRAW = "draw"  # chance: a card from the deck (RKS-3.3.1, RKS-3.4.1, RKS-7.5.1, RKS-9.2.2)
    PICK = "pick"  # chance: a card picked at random from known ones (RKS-9.6.1, AMB-RKS-7)
    PLAYER_TURN = "player_turn"  # designate, recruit or pass (RKS-7.1.1, RKS-7.5.1)
    ACTIVE = "active"  # the acting unit's operations (RKS-7.1.2)
    PAY = "pay"  # the card for entering an empty enemy Area (RKS-7.3.1)
    COMBAT = "combat"  # a combat's declarations and raises (RKS-8.3.1)
    DAMAGE = "damage"  # the loser's (or the bombarded unit's) choice (RKS-8.9.1)
    ISOLATION = "isolation"  # the defender's remaining units (RKS-8.10.1)
    CONTINUE = "continue"  # the attacker attacks again or retreats (RKS-8.11.2)
    DISCARD = "discard"  # the Recruiting Phase discard (RKS-10.1.1)
    OVER = "over"


PLAYER_TURN_STAGES: tuple[Stage, ...] = (
    Stage.PLAYER_TURN,
    Stage.ACTIVE,
    Stage.PAY,
    Stage.COMBAT,
    Stage.DAMAGE,
    Stage.ISOLATION,
    Stage.CONTINUE,
    Stage.DRAW,
    Stage.PICK,
)
"""The stages of the Player Turns, its opening first (RKS-5.1.2, RKS-7.1.1 to RKS-9.8.2)."""


class Step(enum.Enum):
    """The steps of one combat round (RKS-8.3.1)."""

    CHOOSE = "choose"  # the defender picks its unit (RKS-8.2.3)
    ATTACK = "attack"  # RKS-8.4.1
    DEFENCE = "defence"  # RKS-8.5.1
    RAISE = "raise"  # RKS-8.6.1, RKS-8.6.2


@attrs.frozen
class Unit:
    id: str
    area: str | None = None  # None: not yet arrived, or eliminated
    steps: frozenset[str] = frozenset()  # its step cards (RKS-3.3.4)
    flipped: bool = False  # on its back side (RKS-7.4.1)
    isolated: bool = False  # RKS-8.10.1


@attrs.frozen
class Placed:
    """A card put on the table in combat: whose, which, where from, and whether it is face up
    (General Chuikov, RKS-9.8.1). Where it came from is public: a hand or a unit's steps."""

    side: str
    card: str
    origin: str  # "hand" or the id of the unit whose step it was
    open: bool = False


HAND = "hand"


@attrs.frozen
class Combat:
    """One combat of the acting unit (RKS-8.1.1 to RKS-8.7.5), kept until its result is applied.
    By one reading of AMB-RKS-16 a bombardment's target leaving its Area opens such a record
    (`cause` "bombardment" or "air_support") only for RKS-8.10.1, the target as `defender`."""

    area: str
    attacker: str  # the acting unit (RKS-8.2.2)
    step: Step
    defender: str | None = None  # chosen by the defender (RKS-8.2.3), fixed (RKS-8.2.4)
    attack: Placed | None = None
    defence: Placed | None = None
    spent: tuple[Placed, ...] = ()  # cards replaced by a raise, lost after the result (RKS-8.6.1)
    support: str | None = None  # a T-34 adding its strength (RKS-8.12.3)
    raiser: str | None = None  # the side that may raise now (RKS-8.6.1)
    raises: int = 0  # raises made this round (AMB-RKS-6)
    effects: tuple[str, ...] = ()  # "next combat" events in force (RKS-9.5.1, 9.7.1, 9.8.1)
    refight: bool = False  # this round repeats a tie (RKS-8.7.4)
    loser: str | None = None  # the losing side, once judged or accepted (RKS-8.9.1)
    isolation: str | None = None  # "retreat" once the remaining units must all retreat
    staying: tuple[str, ...] = ()  # remaining units to be isolated when all have decided
    cause: str = "combat"  # or the bombardment whose target left the Area (AMB-RKS-16)


@attrs.frozen
class Damage:
    """A unit that must take damage, and why: "combat" (RKS-8.9.1), "bombardment" (RKS-9.2.2)
    or "air_support" (RKS-9.3.1)."""

    unit: str
    cause: str


@attrs.frozen
class DrawFor:
    """Where the next card drawn from the deck goes: a unit's steps ("steps", unit id), a hand
    ("hand", side), or a bombardment / air support against a unit ("bombardment",
    "air_support", target id)."""

    kind: str
    who: str


@attrs.frozen
class Pick:
    """A card picked at random among known ones: from the German hand by the Sniper ("sniper",
    RKS-9.6.1), or the step a unit loses ("step", unit id; AMB-RKS-7 reading random)."""

    kind: str
    who: str


@attrs.frozen
class PendingMove:
    """A move into an empty enemy-controlled Area waiting for its card(s) (RKS-7.3.1)."""

    to: str
    escort: str | None
    payments: int


@attrs.frozen(cache_hash=True)
class RKState:
    variant: Variant
    turn: int
    phase: Phase
    stage: Stage
    player: str  # whose Player Turn it is, or who discards / places
    units: tuple[Unit, ...]  # in data order
    control: tuple[str | None, ...]  # per Stalingrad Area in data order (RKS-3.6.1)
    deck: frozenset[str]
    discards: frozenset[str] = frozenset()
    removed: frozenset[str] = frozenset()  # step cards out of play (AMB-RKS-7 reading removed)
    hand_ge: frozenset[str] = frozenset()
    hand_su: frozenset[str] = frozenset()
    exposed: frozenset[str] = frozenset()  # step cards both sides have seen (AMB-RKS-7)
    face_up: frozenset[str] = frozenset()  # discarded or removed cards both sides see
    eliminated: tuple[tuple[str, int], ...] = ()  # unit and the turn it was eliminated
    passes: int = 0  # consecutive passes (RKS-5.1.2)
    acting: str | None = None  # the designated unit (RKS-7.1.1)
    acted: bool = False  # the acting unit has performed an operation (AMB-RKS-1)
    recruited: bool = False  # a recruit was made this Player Turn (AMB-RKS-18 reading extra)
    effects: tuple[str, ...] = ()  # events in force for the acting unit (RKS-9.4.1 ...)
    pending: PendingMove | None = None
    combat: Combat | None = None
    damage: Damage | None = None
    draws: tuple[DrawFor, ...] = ()
    pick: Pick | None = None
    result: Outcome | None = None

    def hand(self, side: str) -> frozenset[str]:
        return self.hand_ge if side == GE else self.hand_su

    def with_hand(self, side: str, cards: frozenset[str]) -> RKState:
        if side == GE:
            return attrs.evolve(self, hand_ge=cards)
        return attrs.evolve(self, hand_su=cards)

    def eliminated_in(self, unit_id: str) -> int | None:
        for u, turn in self.eliminated:
            if u == unit_id:
                return turn
        return None
