"""The situation of `bombard_isolation` (AMB-RKS-16) as a distance over a state, for
`formal.situations`: a bombarded unit leaving its Area while other units of its side stay
there beside a non-isolated unit of the bombarding side.

Under the standard preset no unit stays beside enemy units outside a combat but one: a
combat's attacker attacks again or retreats (RKS-8.11.2), a defender's remaining units
retreat or are isolated (RKS-8.10.1), so what stays is a T-34 that moved along with a beaten
attacker (RKS-8.12.4, RKS-8.11.1). The distance weighs that condition most (`BESIDE`), then
the others: a second unit of the target's side joining it, a Bombardment or Air Force Support
card in hand, an acting unit in reach, the hit, the way out.
"""

from __future__ import annotations

from collections.abc import Callable

from specs.rattenkrieg.rules.board import Board
from specs.rattenkrieg.rules.cards import event_of
from specs.rattenkrieg.rules.control import friendly
from specs.rattenkrieg.rules.damage import retreat_areas
from specs.rattenkrieg.rules.state import SIDES, SU, Phase, RKState, Stage, other

Distance = Callable[[RKState], int]

BOMBARDS = ("bombardment", "air_support")  # RKS-9.2.2, RKS-9.3.1
FAR = 4
"""Moves counted toward the target's Area at most."""
BESIDE = 3
"""The weight of each step toward a bombarding side's unit beside the target (`_beside`): the
rarest of the conditions, so the search makes it first."""
NONE = 3 + 4 * BESIDE  # no target at all: every condition of `_left_behind` missing


def _leaves(b: Board, s: RKState, target: str) -> bool:
    """Whether bombardment damage (AMB-RKS-16, `bombard_damage=combat_damage`) may take
    `target` out of its Area: a T-34 is eliminated, a unit without steps is eliminated, and
    any unit with a retreat may retreat (RKS-8.9.1, RKS-8.9.2)."""
    return b.is_tank(target) or not b.unit(s, target).steps or bool(retreat_areas(b, s, target))


def _left_behind(b: Board, s: RKState, target: str) -> int:
    """The conditions missing for `target`'s leaving to leave others to RKS-8.10.1 under
    `bombard_isolation=yes`: another non-isolated unit of its side in its Area, a non-isolated
    unit of the bombarding side there (as the attacker in a combat's Area; `_beside`), and a
    way out."""
    area = b.unit(s, target).area
    assert area is not None
    side = b.side_of[target]
    mine = _joined(b, s, area, target)
    return mine + BESIDE * _beside(b, s, area, other(side)) + (not _leaves(b, s, target))


def _joined(b: Board, s: RKState, area: str, target: str) -> int:
    """How far `target`'s side is from another non-isolated unit in `area` (0: it has one):
    1 + the moves of its nearest face-up unit there when the Area is its own, entered freely
    (RKS-7.2.1), at most 1 + `FAR`."""
    side = b.side_of[target]
    fighting = s.combat.attacker if s.combat is not None else None  # it never stays
    others = [
        u
        for u in s.units
        if b.side_of[u.id] == side and u.id not in (target, fighting) and u.area is not None
    ]
    if any(u.area == area and not u.isolated for u in others):
        return 0
    if not friendly(b, s, side, area):
        return 1 + FAR  # entering it means a combat, after which one side is gone (RKS-7.3.2)
    starts = {u.area for u in others if not u.flipped and not u.isolated}
    seen, ring = {area}, [area]
    for n in range(FAR):
        if starts.intersection(ring):
            return 1 + n
        ring = [a for x in ring for a in b.adjacent[x] if a not in seen]
        seen.update(ring)
    return 1 + FAR


def _beside(b: Board, s: RKState, area: str, side: str) -> int:
    """How far `side` is from a non-isolated unit in `area` outside a combat (0: it has one).
    A combat's attacker never stays beside the defender's units: it attacks again or retreats
    (RKS-8.11.2). What stays is a T-34 that moved along with the beaten attacker (RKS-8.12.4,
    RKS-8.11.1): 1 while that combat is fought, 2 while a face-up T-34 stands with a Soviet
    unit next to `area` (RKS-8.12.4), 3 while it is on the map; 4 otherwise."""
    tank = next((u for u in s.units if b.is_tank(u.id) and u.area is not None), None)
    c = s.combat
    if c is not None and c.area == area and b.side_of[c.attacker] == side:
        here = side == SU and tank is not None and tank.area == area and not tank.isolated
        return 1 if here else 4
    if any(not u.isolated for u in b.units_in(s, area, side)):
        return 0
    if side != SU or tank is None or tank.isolated:
        return 4
    assert tank.area is not None
    along = not tank.flipped and sum(1 for _ in b.units_in(s, tank.area, SU)) > 1
    return 2 if along and area in b.adjacent[tank.area] else 3


def _targets(b: Board, s: RKState, side: str) -> list[tuple[str, int]]:
    """Enemy units `side` could bombard, outside the enemy Rear (RKS-9.2.4) and not the
    attacker of a combat under way, each with 0 when its acting unit is with it or next to it
    (RKS-9.2.1), else 1."""
    acting = s.acting if s.acting is not None and b.side_of[s.acting] == side else None
    here = None if acting is None else b.unit(s, acting).area
    near = set() if here is None else {here, *b.adjacent[here]}
    rear = b.enemy_rear(side)
    fighting = s.combat.attacker if s.combat is not None else None  # it never stays (RKS-8.11.2)
    return [
        (u.id, 0 if u.area in near else 1)
        for u in s.units
        if b.side_of[u.id] == other(side)
        and u.area is not None
        and u.area != rear
        and u.id != fighting
    ]


def _bombarding(b: Board, s: RKState, side: str) -> int:
    """The conditions missing for `side` to bombard a unit whose leaving leaves others to
    RKS-8.10.1: its turn, a Bombardment or Air Force Support card in hand (RKS-9.1.1,
    RKS-9.1.2), an acting unit at its operations (RKS-7.1.2) with the target in reach
    (RKS-9.2.1), and the target's conditions (`_left_behind`)."""
    held = any(event_of(side, card) in BOMBARDS for card in s.hand(side))
    acting = s.acting is not None and s.stage == Stage.ACTIVE and side == s.player
    near = min((_left_behind(b, s, t) + far for t, far in _targets(b, s, side)), default=NONE)
    return (side != s.player) + (not held) + (not acting) + near


def bombard_isolation(b: Board) -> Distance:
    """bombard_isolation (AMB-RKS-16; RKS-9.2.2, RKS-9.3.1, RKS-8.10.1): the readings part when
    a bombarded unit retreats or is eliminated while other units of its side stay in its Area
    with a non-isolated unit of the bombarding side (under this preset, mostly a T-34 left in
    an Area its moving unit was beaten out of, RKS-8.12.4): they are left to RKS-8.10.1 (`yes`)
    or not (`no`). 0: the damaged unit's owner to choose, with a retreat and those conditions
    met, or a card to draw that, if it hits, eliminates such a target (a T-34, AMB-RKS-16, or a
    unit with neither a step nor a retreat, RKS-8.9.2); else the conditions missing
    (`_bombarding`), one more before the card is drawn."""

    def distance(s: RKState) -> int:
        if s.stage == Stage.DAMAGE and s.damage is not None and s.damage.cause != "combat":
            return _left_behind(b, s, s.damage.unit)
        if s.stage == Stage.DRAW and s.draws and s.draws[0].kind in BOMBARDS:
            target = s.draws[0].who
            gone = b.is_tank(target) or not (b.unit(s, target).steps or retreat_areas(b, s, target))
            missing = _left_behind(b, s, target)
            return 0 if gone and not missing else 1 + missing
        if s.phase != Phase.PLAYER_TURNS:
            return 2 + 3 + NONE  # every condition of `_bombarding` missing
        return 2 + min(_bombarding(b, s, side) for side in SIDES)

    return distance
