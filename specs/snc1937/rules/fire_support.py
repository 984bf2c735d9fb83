"""Fire-support markers: which a side may add to one battle, the naval gunfire geometry, the
Chinese air intervention against a Japanese air marker, and the order of commitment.

Pure functions listing the eligible choices; the game flow keeps which markers are still
available (set aside when used, SNC-11.1.5; when they return is `fire_support_refresh`,
AMB-SNC-7) and passes them in. Each marker added is one column in its owner's favour
(SNC-11.1.2), counted by `column_shifts.shifts`.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Collection, Iterable
from fractions import Fraction

import attrs

from kernel.hexes import Hex
from kernel.variants import Variant
from specs.snc1937.rules.board import Board

ARTILLERY = "artillery"
AIR = "air"
NAVAL = "naval_gunfire"
AMPHIBIOUS = "amphibious"
KINDS = (ARTILLERY, AIR, NAVAL, AMPHIBIOUS)  # the four categories, SNC-11.0.1 (data.MARKER_KINDS)
OWNERS = {ARTILLERY: ("CH", "JP"), AIR: ("JP",), NAVAL: ("JP",), AMPHIBIOUS: ("JP",)}
YANGTZE_TERRAIN = frozenset({"yangtze", "estuary"})  # estuary_is_yangtze=yes
RIVER_ONLY = frozenset({"yangtze"})  # estuary_is_yangtze=no


# --- naval gunfire geometry --------------------------------------------------------------------


def yangtze_terrain(variant: Variant) -> frozenset[str]:
    """The hex terrains that are "the Yangtze" for naval gunfire (SNC-11.4.2, SNC-11.4.3):
    `estuary_is_yangtze` (found here) `yes` counts the estuary, the river's mouth; `no` only
    the Yangtze terrain itself (SNC-9.3.1 names them apart)."""
    # SNC-9.3.1: the Yangtze and the Yangtze Estuary are terrain types of their own
    return YANGTZE_TERRAIN if variant.is_("estuary_is_yangtze", "yes") else RIVER_ONLY


def _touches_yangtze(board: Board, variant: Variant, h: Hex) -> bool:
    return _touches(board, yangtze_terrain(variant), h)


@functools.lru_cache(maxsize=4096)
def _touches(board: Board, water: frozenset[str], h: Hex) -> bool:
    """A fact of the map (asked of the same hexes at every naval gunfire offer)."""
    return any(
        board.terrain(n) in water or board.side_kind(h, n) == "yangtze" for n in board.neighbors(h)
    )


def adjacent_to_yangtze(board: Board, variant: Variant, h: Hex) -> bool:
    """The land hex `h` touches the Yangtze: a Yangtze hex (an estuary hex too under
    `estuary_is_yangtze=yes`) next to it, or a Yangtze hexside (both forms are on the map,
    AMB-SNC-24)."""
    return board.is_land(h) and _touches_yangtze(board, variant, h)


def adjacent_to_navigable_huangpu(board: Board, h: Hex) -> bool:
    """`h` has a hexside on the Huangpu below the Naval Navigation line (map data)."""
    return any(board.navigable(h, n) for n in board.neighbors(h))


def one_hex_inland_from_yangtze(board: Board, variant: Variant, h: Hex) -> bool:
    """A land hex one hex inland from the Yangtze (SNC-11.4.2). `naval_inland_basis` (found
    here): `land_hex_by_yangtze`, next to a land hex that touches the Yangtze;
    `any_hex_by_yangtze`, next to any hex, water included, that touches it."""
    if not board.is_land(h):
        return False
    any_hex = variant.is_("naval_inland_basis", "any_hex_by_yangtze")
    return any(
        (any_hex or board.is_land(n)) and _touches_yangtze(board, variant, n)
        for n in board.neighbors(h)
    )


def naval_attack_hex(board: Board, variant: Variant, h: Hex) -> bool:
    """A hex from or into which naval gunfire may support an attack: adjacent to the Yangtze or
    the navigable Huangpu, or one hex inland from the Yangtze (SNC-11.4.2)."""
    return (
        adjacent_to_yangtze(board, variant, h)
        or adjacent_to_navigable_huangpu(board, h)
        or one_hex_inland_from_yangtze(board, variant, h)
    )


def naval_defence_hex(board: Board, variant: Variant, h: Hex) -> bool:
    """A defender's hex naval gunfire may support: adjacent to the Yangtze or the navigable
    Huangpu, but not merely one hex inland (SNC-11.4.3)."""
    return adjacent_to_yangtze(board, variant, h) or adjacent_to_navigable_huangpu(board, h)


def naval_attack_allowed(
    board: Board, variant: Variant, target: Hex, attacker_hexes: Collection[Hex]
) -> bool:
    """Whether an attack on `target` from `attacker_hexes` may have naval gunfire
    (SNC-11.4.2). `naval_gunfire_adjacent` (AMB-SNC-32) says what must be near the water: the
    `defender_hex`, an `attacker_hex`, or `either`. A landing passes no attacker hexes: its
    units are placed next to the landing hex (SNC-8.4.0.3), which then stands for them."""
    froms = attacker_hexes or (target,)
    defender = naval_attack_hex(board, variant, target)
    attacker = any(naval_attack_hex(board, variant, h) for h in froms)
    if variant.is_("naval_gunfire_adjacent", "attacker_hex"):
        return attacker
    if variant.is_("naval_gunfire_adjacent", "either"):
        return defender or attacker
    return defender


# --- what may be added -------------------------------------------------------------------------


def eligible_kinds(
    board: Board,
    variant: Variant,
    *,
    owner: str,
    attacking: bool,
    target: Hex,
    attacker_hexes: Collection[Hex] = (),
    landing: bool = False,
    available: Collection[str] = KINDS,
) -> tuple[str, ...]:
    """The marker kinds `owner` may add to this battle, at most one of each (SNC-11.1.3).

    In attack any marker its side owns (SNC-11.0.1, SNC-11.0.2): the Chinese only artillery;
    amphibious invasion support only to a landing (SNC-11.0.4, SNC-11.1.6); naval gunfire only
    where SNC-11.4.2 allows. In defence only Japanese naval gunfire, in a hex next to the
    Yangtze or navigable Huangpu (SNC-11.0.3, SNC-11.1.4, SNC-11.4.3): naval gunfire is the
    one kind that supports both attacks and defences (SNC-11.4.1). `available` is what the
    owner has not yet used this phase (SNC-11.1.5).
    """
    out = []
    for kind in KINDS:
        if kind not in available or owner not in OWNERS[kind]:
            continue  # SNC-11.0.1: not this side's kind; SNC-11.1.5: set aside when used
        if not attacking:  # SNC-11.0.3: in defence only naval gunfire
            if kind == NAVAL and naval_defence_hex(board, variant, target):
                # SNC-11.1.4, SNC-11.4.1, SNC-11.4.3: Japanese naval gunfire in defence, next to
                # the Yangtze or the navigable Huangpu
                out.append(kind)
            continue
        if kind == AMPHIBIOUS and not landing:
            continue  # SNC-11.0.4, SNC-11.1.6: amphibious support only in a landing
        if kind == NAVAL and not naval_attack_allowed(board, variant, target, attacker_hexes):
            continue  # SNC-11.4, SNC-11.4.2: attacking naval gunfire only near the water
        out.append(kind)  # SNC-11.0.2: any marker may support an attack
    return tuple(out)


def marker_choices(kinds: Iterable[str]) -> tuple[tuple[str, ...], ...]:
    """Every set of markers a side may commit from its eligible kinds, none included: one of
    each category at most (SNC-11.1.3), smallest sets first, in KINDS order."""
    ordered = [k for k in KINDS if k in set(kinds)]
    return tuple(
        combo for n in range(len(ordered) + 1) for combo in itertools.combinations(ordered, n)
    )


def support_problem(
    board: Board,
    variant: Variant,
    markers: Collection[str],
    *,
    owner: str,
    attacking: bool,
    target: Hex,
    attacker_hexes: Collection[Hex] = (),
    landing: bool = False,
    available: Collection[str] = KINDS,
) -> str | None:
    """Why `owner` may not commit `markers` to this battle (clause named), or None."""
    chosen = list(markers)
    if len(set(chosen)) != len(chosen):
        return "at most one marker of each category per battle (SNC-11.1.3)"
    allowed = eligible_kinds(
        board, variant, owner=owner, attacking=attacking, target=target,
        attacker_hexes=attacker_hexes, landing=landing, available=available,
    )  # fmt: skip
    for kind in chosen:
        if kind not in KINDS:
            return f"no fire-support marker kind {kind!r} (SNC-11.0.1)"
        if kind in allowed:
            continue
        if kind not in available:
            return f"the {kind} marker is already used or not held (SNC-11.1.5)"
        if owner not in OWNERS[kind]:
            return f"only the Japanese have {kind} markers (SNC-11.0.1)"
        if not attacking:
            if kind != NAVAL:
                return "only Japanese naval gunfire may support a defence (SNC-11.0.3)"
            return "defensive naval gunfire only next to the Yangtze or Huangpu (SNC-11.4.3)"
        if kind == AMPHIBIOUS:
            return "amphibious invasion support only in an amphibious assault (SNC-11.0.4)"
        return "naval gunfire only for attacks next to the Yangtze or Huangpu (SNC-11.4.2)"
    return None


# --- order of commitment -----------------------------------------------------------------------

DECLARE, REVEAL, ATTACKER_SUPPORT, DEFENDER_SUPPORT, CHINESE_AIR, RESOLVE = (
    "declare", "reveal", "attacker_support", "defender_support", "chinese_air", "resolve",
)  # fmt: skip


def support_steps(variant: Variant) -> tuple[str, ...]:
    """The steps of one battle for the game flow: the attacker commits fire support, then the
    defender (SNC-11.1.1); a Japanese air marker may draw the Chinese air roll as it is added
    (SNC-11.3.1). `fog_fire_support` (AMB-SNC-40): the defending stack is revealed before
    (`reveal_then_support`) or after (`support_then_reveal`) the attacker commits."""
    if variant.is_("fog_fire_support", "support_then_reveal"):
        # SNC-11.1.1: the attacker's markers, then the defender's
        return (DECLARE, ATTACKER_SUPPORT, CHINESE_AIR, REVEAL, DEFENDER_SUPPORT, RESOLVE)
    # SNC-11.1.1: the attacker's markers, then the defender's
    return (DECLARE, REVEAL, ATTACKER_SUPPORT, CHINESE_AIR, DEFENDER_SUPPORT, RESOLVE)


# --- Chinese air support -----------------------------------------------------------------------


@attrs.frozen
class AirRoll:
    """The effect of one Chinese air-support die: the Japanese air marker (or interdiction)
    is cancelled on a 6, and Chinese air support is gone for the game on a 1."""

    face: int
    cancelled: bool
    chinese_air_lost: bool


def chinese_air_roll(face: int) -> AirRoll:
    """One Chinese air-support roll (SNC-11.3.2, SNC-11.3.3): on a 6 the Japanese air marker is
    aborted and adds no shift (or the interdiction is disrupted); on a 1 Chinese air support
    may not be used for the rest of the game; 2 to 5 have no effect."""
    if not 1 <= face <= 6:
        raise ValueError(f"a die face is 1 to 6, got {face}")
    return AirRoll(face, face == 6, face == 1)


AIR_ROLLS = tuple((Fraction(1, 6), chinese_air_roll(f)) for f in range(1, 7))  # one die


def chinese_air_may_intervene(
    variant: Variant, *, air_lost: bool, attempts_this_phase: int
) -> bool:
    """Whether the Chinese may roll against a Japanese air marker just added (SNC-11.3.1):
    never once a 1 was rolled (SNC-11.3.2); `chinese_air` (AMB-SNC-31) allows every attempt
    (`unlimited`) or one per phase (`once_per_phase`)."""
    if air_lost:
        return False
    # SNC-11.3.1: the Chinese may roll against the air marker (AMB-SNC-31)
    return attempts_this_phase == 0 or variant.is_("chinese_air", "unlimited")
