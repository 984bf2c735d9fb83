"""Stacking limits (SNC-6.0.x, SNC-6.1.1, SNC-6.2.x): whether one hex's units are within the
limit, and the owner's legal choices of eliminations when they are not.

A hex is given as its unit ids; fire support markers are no units and never appear in one, so
they stack free (SNC-6.1.1). Opposing units never share a hex (SNC-6.0.1). The Japanese limit is
five units, read per `japanese_stack` (AMB-SNC-9); the Chinese limit is three division
equivalents, counted as exact fractions, with statics per `static_de` (AMB-SNC-10). When a
check finds a hex over the limit, its owner eliminates units of his choice until it complies
(SNC-6.0.4); `cull_choices` lists those choices. When the checks happen and over which hexes
(SNC-6.0.2, SNC-6.0.3; AMB-SNC-8) is the sequence of play's business; `hexes_to_check` says
which hexes a check covers.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction

from kernel.hexes import Hex
from kernel.variants import Variant
from specs.snc1937.data.counters import UnitSpec
from specs.snc1937.data.loader import SNCData

JAPANESE_LIMIT = 5  # SNC-6.2.1
CHINESE_LIMIT = Fraction(3)  # SNC-6.2.3
SNLF = "SNLF"  # the SNLF battalions' `division` in the counter data (SNC-6.2.2)


def division_equivalents(spec: UnitSpec, variant: Variant) -> Fraction:
    """A Chinese unit's DE (SNC-6.2.3): regular brigade 1/2, regular division 1, elite brigade
    1, elite division 3/2. The text gives statics (garrisons, TP, PPC) no value: none under
    static_de=zero, a regular unit of their size under by_size (AMB-SNC-10)."""
    if spec.side != "CH":
        raise ValueError(f"{spec.id} is not Chinese: division equivalents are Chinese (SNC-6.2.3)")
    division = spec.size == "XX"
    if spec.arm == "elite":
        return Fraction(3, 2) if division else Fraction(1)
    if spec.is_static and variant.is_("static_de", "zero"):
        return Fraction(0)
    return Fraction(1) if division else Fraction(1, 2)


def chinese_de(units: Iterable[str], data: SNCData, variant: Variant) -> Fraction:
    """The division equivalents of Chinese units together (SNC-6.2.3)."""
    return sum((division_equivalents(data.unit(u), variant) for u in units), Fraction(0))


def _japanese_groups(units: Sequence[str], data: SNCData, variant: Variant) -> list[int]:
    """The sizes of the division groups in a Japanese stack: units of one division together;
    the SNLF battalions as one division (SNC-6.2.2) when any are together, or only when all
    four are (`snlf_partial_division`, found here); any other unit alone."""
    all_snlf = {u.id for u in data.units if u.division == SNLF}
    snlf_division = variant.is_("snlf_partial_division", "any_together") or all_snlf <= set(units)
    groups: dict[str, int] = {}
    for u in units:
        spec = data.unit(u)
        key = spec.division or u
        if key == SNLF and not snlf_division:
            key = u
        groups[key] = groups.get(key, 0) + 1
    return sorted(groups.values(), reverse=True)


def stacking_problem(units: Sequence[str], data: SNCData, variant: Variant) -> str | None:
    """Why the units of one hex break the stacking rules, naming the clause, or None."""
    sides = {data.unit(u).side for u in units}
    if len(sides) > 1:
        return "SNC-6.0.1: opposing ground units may never be in the same hex"
    if not units:
        return None
    if sides == {"CH"}:
        de = chinese_de(units, data, variant)
        if de > CHINESE_LIMIT:
            return f"SNC-6.2.3: {de} Chinese division equivalents in one hex (limit 3)"
        return None
    if len(units) > JAPANESE_LIMIT:
        return f"SNC-6.2.1: {len(units)} Japanese units in one hex (limit 5)"
    if variant.is_("japanese_stack", "division_plus_one"):
        groups = _japanese_groups(units, data, variant)
        if len(units) - groups[0] > 1:
            return (
                "SNC-6.2.1: a Japanese stack is the regiments of one division and one other "
                "unit (japanese_stack=division_plus_one, AMB-SNC-9)"
            )
    return None


def within_limits(units: Sequence[str], data: SNCData, variant: Variant) -> bool:
    """Whether one hex's units are within the stacking rules (SNC-6.0.1, SNC-6.2.x)."""
    return stacking_problem(units, data, variant) is None  # SNC-6.0, SNC-6.2: the limits


def _bound_ok(units: Sequence[str], data: SNCData, variant: Variant) -> bool:
    """A necessary condition for compliance that every subset of a compliant set keeps, so the
    search may prune on it: at most five Japanese units, at most 3 DE."""
    if units and data.unit(units[0]).side == "CH":
        return chinese_de(units, data, variant) <= CHINESE_LIMIT
    return len(units) <= JAPANESE_LIMIT


def cull_choices(
    units: Sequence[str], data: SNCData, variant: Variant
) -> tuple[tuple[str, ...], ...]:
    """The owner's legal choices of units to eliminate from an over-stacked hex (SNC-6.0.4):
    each is a set whose removal brings the hex within limits and none of whose units could
    have been kept (no compliant set removes fewer of them), or under overstack_cull=fewest
    only the smallest such sets (found here). A hex within limits has one choice, nothing.
    Each choice lists its units in id order; choices come by size, then ids."""
    if len({data.unit(u).side for u in units}) > 1:
        raise ValueError("SNC-6.0.1: opposing ground units may never be in the same hex")
    ordered = tuple(sorted(set(units)))
    if within_limits(ordered, data, variant):
        return ((),)
    compliant: list[frozenset[int]] = []

    def grow(kept: tuple[int, ...], start: int) -> None:
        members = [ordered[i] for i in kept]
        if within_limits(members, data, variant):
            compliant.append(frozenset(kept))
        for i in range(start, len(ordered)):
            if _bound_ok([*members, ordered[i]], data, variant):
                grow((*kept, i), i + 1)

    grow((), 0)
    maximal = _maximal(compliant)
    everyone = frozenset(range(len(ordered)))
    culls = sorted(
        (tuple(ordered[i] for i in sorted(everyone - kept)) for kept in maximal),
        key=lambda c: (len(c), c),
    )
    if variant.is_("overstack_cull", "fewest"):
        fewest = len(culls[0])
        culls = [c for c in culls if len(c) == fewest]
    return tuple(culls)


def _maximal(sets: list[frozenset[int]]) -> list[frozenset[int]]:
    """The sets of the list no other set of the list strictly contains: every proper subset of
    a listed set is dominated (compliance need not pass to subsets, AMB-SNC-9 with all_four)."""
    dominated: set[frozenset[int]] = set()
    for s in sets:
        members = sorted(s)
        for size in range(len(members)):
            dominated.update(frozenset(c) for c in itertools.combinations(members, size))
    return [s for s in sets if s not in dominated]


def hexes_to_check(
    stacks: Mapping[Hex, tuple[str, ...]],
    data: SNCData,
    variant: Variant,
    *,
    phasing: str,
    after_combat: Iterable[Hex] | None = None,
) -> tuple[Hex, ...]:
    """The hexes a stacking check covers, in hex order (SNC-6.0.2, SNC-6.0.3; AMB-SNC-8).

    At the end of an Operations Phase of movement (check (a), `after_combat` None): the phasing
    player's hexes, or both players' under movement_check_side=both_players. After a combat
    (check (b), `after_combat` the combat's hexes: target and attackers'): both players' units
    in those hexes under stacking_check=combat_hexes, every hex under global."""
    occupied = {h: us for h, us in stacks.items() if us}
    if after_combat is None:  # SNC-6.0.2 (a): at the end of a movement Operations Phase
        both = variant.is_("movement_check_side", "both_players")
        return tuple(
            sorted(h for h, us in occupied.items() if both or data.unit(us[0]).side == phasing)
        )
    if variant.is_("stacking_check", "global"):
        return tuple(sorted(occupied))  # SNC-6.0.3: both players, every hex (AMB-SNC-8)
    # SNC-6.0.2 (b), SNC-6.0.3: after a combat, both players' units in its hexes
    return tuple(sorted(set(after_combat) & set(occupied)))


def overstacked(
    stacks: Mapping[Hex, tuple[str, ...]],
    hexes: Iterable[Hex],
    data: SNCData,
    variant: Variant,
) -> tuple[Hex, ...]:
    """Those of `hexes` whose units break the limits, in hex order (SNC-6.0.4)."""
    return tuple(
        sorted(h for h in set(hexes) if not within_limits(stacks.get(h, ()), data, variant))
    )
