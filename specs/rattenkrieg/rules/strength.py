"""Combat strength and its revisions (RKS-8.8.1 to RKS-8.8.3, RKS-8.12.3, RKS-9.4.1, RKS-9.5.1,
RKS-9.7.1), the judgement of a combat (RKS-8.7.1 to RKS-8.7.5), and whether a bombardment hits
(RKS-9.2.2, RKS-9.2.3, RKS-9.3.1).

Each revision is kept separate and names its clause; the options of AMB-RKS-23 decide whom the
terrain revises and whether strength has a floor.
"""

from __future__ import annotations

from specs.rattenkrieg.rules.board import Board
from specs.rattenkrieg.rules.cards import is_black, is_face, number
from specs.rattenkrieg.rules.control import occupies
from specs.rattenkrieg.rules.state import GE, SU, Combat, RKState

CITY_INFANTRY = 2  # RKS-8.8.1
CITY_PANZER = -2  # RKS-8.8.2
ASSAULT_GUN = 2  # RKS-9.4.1
MOLOTOV = 2  # RKS-9.7.1


def _floor(s: RKState, value: int) -> int:
    return max(1, value) if s.variant.is_("strength_floor", "one") else value  # AMB-RKS-23 (ii)


def terrain(b: Board, s: RKState, unit_id: str, area: str) -> int:
    """The City revision of a unit: Infantry of either side +2 (Guards by AMB-RKS-9), a German
    Panzer Division -2, a Motorized Infantry Division nothing (RKS-8.8.1 to RKS-8.8.3)."""
    if not b.is_city(area):
        return 0
    spec = b.specs[unit_id]
    infantry = {"infantry", "rifle"} | (
        {"guards"} if s.variant.is_("guards_infantry", "yes") else set()
    )
    if spec.type in infantry:
        return CITY_INFANTRY  # RKS-8.8.1: Infantry in a City Area, +2
    if spec.type == "panzer" and spec.side == GE:
        return CITY_PANZER  # RKS-8.8.2: a German Panzer Division in a City Area, -2
    return 0  # motorized (RKS-8.8.3), tank


def _count(s: RKState, effects: tuple[str, ...], name: str) -> int:
    n = effects.count(name)
    return min(n, 1) if s.variant.is_("effect_stacking", "once") else n


def combat_strength(b: Board, s: RKState, c: Combat, unit_id: str) -> int:
    """A fighting unit's strength with every revision in force in this combat."""
    spec = b.specs[unit_id]
    value = spec.strength
    defending = unit_id == c.defender
    t = 0
    if defending or s.variant.is_("terrain_side", "both"):  # AMB-RKS-23 (i): "to defend"
        t = terrain(b, s, unit_id, c.area)
    if "engineer" in c.effects and (  # RKS-9.5.1
        spec.side == SU or s.variant.is_("engineer_scope", "all")  # AMB-RKS-23 (iii)
    ):
        t = 0
    value += t
    if unit_id == c.attacker:
        if spec.side == GE and spec.type != "panzer":  # RKS-9.4.1: not a Panzer Division
            value += ASSAULT_GUN * _count(s, s.effects, "assault_gun")
        if spec.side == SU:
            value += MOLOTOV * _count(s, c.effects, "molotov")  # RKS-9.7.1
    if c.support is not None and spec.side == SU and unit_id != c.support:
        value += b.specs[c.support].strength  # RKS-8.12.3
    return _floor(s, value)


def hits(s: RKState, card: str, strength: int) -> bool:
    """A card hits when its number is at most the strength; a card without one never does
    (RKS-8.7.1, RKS-8.4.2)."""
    n = number(card, s.variant)
    return n is not None and n <= strength


def _colour_wins(side: str, card: str) -> bool:
    """The German with a black card or the Soviet with a red one (RKS-8.7.2)."""
    return is_black(card) == (side == GE)


def judgement(
    s: RKState, attack: str, a_strength: int, a_side: str, defence: str, d_strength: int
) -> tuple[str, str]:
    """The winner ("attacker", "defender" or "tie") and the clause that decided it, applying
    RKS-8.7.1 to RKS-8.7.5 in order (AMB-RKS-5 for the case where neither card hits)."""
    d_side = SU if a_side == GE else GE
    na, nd = number(attack, s.variant), number(defence, s.variant)
    ha, hd = hits(s, attack, a_strength), hits(s, defence, d_strength)
    if ha != hd:
        return ("attacker" if ha else "defender"), "RKS-8.7.1"
    if ha:
        ca, cd = _colour_wins(a_side, attack), _colour_wins(d_side, defence)
        if ca != cd:
            return ("attacker" if ca else "defender"), "RKS-8.7.2"
        assert na is not None and nd is not None
        if na != nd:
            return ("attacker" if na < nd else "defender"), "RKS-8.7.3"
        return "tie", "RKS-8.7.4"
    if s.variant.is_("neither_hits", "lower_number") and na is not None and nd is not None:
        if na != nd:
            return ("attacker" if na < nd else "defender"), "RKS-8.7.3"
        return "tie", "RKS-8.7.4"
    return "defender", "RKS-8.7.5"


def bombard_strength(b: Board, s: RKState, kind: str, target: str) -> int:
    """The target's strength after the terrain revision for Bombardment (RKS-9.2.2, as a
    defender: AMB-RKS-23 i), without it for Air Force Support (RKS-9.3.1)."""
    spec = b.specs[target]
    area = b.unit(s, target).area
    value = spec.strength
    if kind == "bombardment" and area is not None:
        value += terrain(b, s, target, area)
    return _floor(s, value)


def bombard_hits(b: Board, s: RKState, kind: str, target: str, card: str) -> bool:
    """A drawn card at least the target's strength damages it (RKS-9.2.2). A face card hits
    for the side occupying Mamayev Kurgan and misses otherwise (RKS-9.2.3); in Air Force
    Support it always misses (RKS-9.3.1)."""
    if is_face(card):  # RKS-9.2.3: hits if the bombarding side occupies Mamayev Kurgan
        return kind == "bombardment" and occupies(b, s, s.player)
    n = number(card, s.variant)
    return n is not None and n >= bombard_strength(b, s, kind, target)
