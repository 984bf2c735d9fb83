"""The arithmetic of one SNC battle: attack and defence strength, the odds column, the column
shifts and the CRT cell (the shifts themselves are `column_shifts.py`'s).

Odds live on an unbounded signed column scale, so that shifts can be added before or after the
1:3..6:1 limits are applied (AMB-SNC-2): column 0 is 1:1, column n > 0 is (n+1):1 and column
-n is 1:(n+1). So 1:3 = -2, 1:2 = -1, 2:1 = 1 and 6:1 = 5. Positive shifts are right shifts, in
the attacker's favour (SNC-10.4.0.2).

Every function is pure and takes the SNC data, the Board and the variant, with positions in the
shared form (`stacks` by hex, `reduced` unit ids), so the game flow, the legal-action
generator and the tests share the same arithmetic.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Collection, Iterable, Mapping
from fractions import Fraction

import attrs

from kernel.errors import IllegalAction, InvalidInput
from kernel.hexes import Hex, hex_name, hex_neighbors
from kernel.variants import Variant
from specs.snc1937.data.counters import UnitSpec
from specs.snc1937.data.loader import SNCData
from specs.snc1937.data.variants import CATALOGUE
from specs.snc1937.rules.board import Board
from specs.snc1937.rules.column_shifts import Shift, net_shift, shifts

LOWEST = -2  # 1:3, SNC-10.3.1.1
HIGHEST = 5  # 6:1, SNC-10.3.1.1
_CLAUSE = re.compile(r"SNC-\d+(?:\.\d+)+")
NO_COMBAT_SIDES = frozenset({"yangtze"})  # yangtze_hexside_combat=forbidden, after AMB-SNC-24


# --- the column scale ---------------------------------------------------------------------------


def base_column(attack: int, defence: int) -> int:
    """The odds column before shifts (SNC-10.3.0.1 to SNC-10.3.0.5).

    High odds: attack divided by defence, rounded down, "N:1" (26 vs 7 is 3:1, SNC-10.3.0.3).
    Poor odds: defence divided by attack, rounded UP, "1:N" (5 vs 9 is 1:2, SNC-10.3.0.5).
    """
    if attack <= 0 or defence <= 0:
        raise InvalidInput(
            f"odds need positive strengths, got {attack} vs {defence} (SNC-10.3.0.1)",
            field="odds",
            clauses=("SNC-10.3.0.1",),
        )
    if attack >= defence:
        # SNC-10.3.0.2, SNC-10.3.0.3: rounded down (26 vs 7 is 3:1)
        return attack // defence - 1
    # SNC-10.3.0.4, SNC-10.3.0.5: 1:N with N = ceil(defence / attack) (5 vs 9 is 1:2)
    return 1 - -(-defence // attack)


def column_label(column: int) -> str:
    """The printed form of a column of the unbounded scale: 0 -> "1:1", 2 -> "3:1", -1 -> "1:2"."""
    return f"{column + 1}:1" if column >= 0 else f"1:{1 - column}"


def parse_column(label: str) -> int:
    """The column of a label like "3:1" or "1:2" (the inverse of `column_label`)."""
    parts = label.split(":")
    if len(parts) != 2 or not all(p.isdigit() and int(p) > 0 for p in parts) or "1" not in parts:
        raise InvalidInput(f"expected odds like '3:1' or '1:2', got {label!r}", field="odds")
    a, d = int(parts[0]), int(parts[1])
    return a - 1 if d == 1 else 1 - d


def clamp(column: int) -> int:
    """The CRT odds limits: above 6:1 reads 6:1, below 1:3 reads 1:3 (SNC-10.3.1.1)."""
    return max(LOWEST, min(HIGHEST, column))  # SNC-10.3.1.1: read at 1:3..6:1


def final_column(base: int, net_shift: int, variant: Variant) -> int:
    """The column read on the CRT after one net shift (SNC-10.4.0.3, SNC-10.3.1.1).

    `odds_limits` (AMB-SNC-2): `clamp_after_shifts` shifts along the unbounded scale and clamps
    the final odds (9:1 with 2L is 7:1, read at 6:1); `clamp_before_shifts` clamps the basic
    odds, shifts, and clamps again (9:1 is 6:1, with 2L 4:1).
    """
    if variant.is_("odds_limits", "clamp_before_shifts"):
        return clamp(clamp(base) + net_shift)
    return clamp(base + net_shift)


# --- strengths ---------------------------------------------------------------------------------


def current_cf(spec: UnitSpec, reduced: Collection[str]) -> int:
    """The CF on the side the counter shows: the reduced value once flipped (SNC-2.2.1.11)."""
    if spec.id in reduced and spec.reduced is not None:
        return spec.reduced
    return spec.cf


def attack_factor(spec: UnitSpec, reduced: Collection[str]) -> int:
    """A unit's attack factor: static units attack with 0 and never attack (SNC-2.2.1.6,
    SNC-10.2.1); others with their current CF."""
    return 0 if spec.is_static else current_cf(spec, reduced)  # SNC-2.2.1.7: CF as in defence


def no_combat_sides(variant: Variant) -> frozenset[str]:
    """The hexside kinds beyond the TEC's all-sea and all-lake (SNC-10.4.1.9) that bar combat:
    `yangtze_hexside_combat` (found here) `forbidden` adds the Yangtze hexside, which
    AMB-SNC-24's note treats as impassable (SNC-9.4.6); `allowed` reads SNC-10.4.1.9 alone."""
    if variant.is_("yangtze_hexside_combat", "allowed"):
        return frozenset()
    return NO_COMBAT_SIDES


def attack_problem(
    data: SNCData,
    board: Board,
    target: Hex,
    attackers: Mapping[str, Hex],
    stacks: Mapping[Hex, tuple[str, ...]],
    variant: Variant | None = None,
) -> str | None:
    """Why these attackers may not attack `target` together, naming the clause; None if they
    may. Attackers are unit ids with the hex each attacks from: one target hex, any number of
    adjacent attackers from any number of hexes (SNC-10.0.5). Static units may not join an
    attack (SNC-10.2.1, SNC-10.2.3), but infantry may attack out of their hex (SNC-10.2.2).

    Attacks across a Yangtze hexside follow `yangtze_hexside_combat` (`no_combat_sides`);
    `variant` None stands for preset `standard`, for callers written before that option."""
    barred = no_combat_sides(standard_preset() if variant is None else variant)
    if not attackers:
        return "an attack needs at least one attacking unit (SNC-10.0.5)"
    defenders = stacks.get(target, ())
    if not defenders:
        return f"{hex_name(target)} holds no unit to attack (SNC-10.0.1)"
    sides = {data.unit(u).side for u in attackers}
    if len(sides) != 1:
        return "all attackers of one battle belong to one side (SNC-10.0.3)"
    (side,) = sides
    if any(data.unit(d).side == side for d in defenders):
        return f"{hex_name(target)} is not an enemy-occupied hex (SNC-10.0.1)"
    for unit, h in sorted(attackers.items()):
        spec = data.unit(unit)
        if spec.is_static:  # SNC-10.2, SNC-10.2.3: nor joins one to absorb losses
            return f"{unit} is a static unit and may never attack (SNC-10.2.1, SNC-2.2.1.6)"
        if unit not in stacks.get(h, ()):
            return f"{unit} is not in {hex_name(h)}"
        if target not in hex_neighbors(h) or not board.on_map(h):
            return f"{unit} in {hex_name(h)} is not adjacent to {hex_name(target)} (SNC-10.0.1)"
        kind = board.side_kind(h, target)
        if kind in data.tec.no_combat_across:
            return (
                f"{unit} may not attack across the {kind} hexside "
                f"{hex_name(h)}/{hex_name(target)} (SNC-10.4.1.9)"
            )
        if kind in barred:
            return (
                f"{unit} may not attack across the Yangtze hexside "
                f"{hex_name(h)}/{hex_name(target)} (SNC-9.4.6, SNC-10.4.1.9, "
                "yangtze_hexside_combat=forbidden)"
            )
    return None


@functools.cache
def standard_preset() -> Variant:
    """Preset `standard`, made once: a `Variant` is an immutable value, and every odds
    computation without a variant asks for it."""
    return CATALOGUE.preset("standard")


def attack_strength(
    data: SNCData,
    board: Board,
    target: Hex,
    attackers: Mapping[str, Hex],
    reduced: Collection[str],
) -> int:
    """The total attack strength of a land attack on `target` (SNC-10.3.0.1, SNC-10.4.1.8).

    Units attacking across a creek count 1/2 and across a river 1/3 (data.tec.attack_across);
    only those units are reduced, and the adjusted strengths are totalled and then rounded
    down once (SNC-10.4.1.8). An overrun's strength is modified the same way (SNC-9.6.4).
    """
    total = Fraction(0)
    for unit, h in attackers.items():
        spec = data.unit(unit)
        if spec.is_static:
            raise IllegalAction(
                f"{unit} is a static unit and may never attack (SNC-10.2.1)",
                clauses=("SNC-10.2.1", "SNC-2.2.1.6"),
            )
        kind = board.side_kind(h, target)
        fraction = data.tec.attack_across.get(kind, Fraction(1)) if kind else Fraction(1)
        total += attack_factor(spec, reduced) * fraction
    return math.floor(total)  # SNC-10.3.0.1: the attackers' adjusted total, rounded down once


def landing_strength(
    data: SNCData, attackers: Iterable[str], reduced: Collection[str], variant: Variant
) -> int:
    """The attack strength of an amphibious landing: CF halved, rounded down (SNC-8.4.0.5).

    `landing_halving` (AMB-SNC-13): `total` halves the sum (16 -> 8, as in section 12);
    `per_unit` halves each unit and adds. No creek or river reduction applies from the sea.
    `landing_halving_base` (found here): `current_side` halves the CF the counter shows (a
    reduced unit its reduced CF); `printed_front` halves the front's printed CF always.
    """
    front = variant.is_("landing_halving_base", "printed_front")
    factors = [attack_factor(data.unit(u), () if front else reduced) for u in attackers]
    if variant.is_("landing_halving", "per_unit"):
        return sum(f // 2 for f in factors)  # SNC-8.4.0.5: each unit halved (AMB-SNC-13)
    return sum(factors) // 2  # SNC-8.4.0.5: the total halved, rounded down (AMB-SNC-13)


def defence_strength(data: SNCData, defenders: Iterable[str], reduced: Collection[str]) -> int:
    """Every unit in the attacked hex defends with its current CF, static units included
    (SNC-10.0.4, SNC-10.2.1); a non-static unit's CF is the same in attack and defence
    (SNC-2.2.1.7): `current_cf` serves both."""
    # SNC-10.0.4: every unit in the hex defends, none refusing; SNC-2.2.1.7: its one CF
    return sum(current_cf(data.unit(u), reduced) for u in defenders)


# --- a whole battle ----------------------------------------------------------------------------


@attrs.frozen
class Odds:
    """The odds of one battle: strengths, basic column, shifts and the column read."""

    attack: int
    defence: int
    base: int
    shifts: tuple[Shift, ...]
    column: int

    @property
    def label(self) -> str:
        return column_label(self.column)

    @property
    def net(self) -> int:
        return net_shift(self.shifts)


def battle_odds(
    data: SNCData,
    board: Board,
    variant: Variant,
    target: Hex,
    attackers: Mapping[str, Hex],
    stacks: Mapping[Hex, tuple[str, ...]],
    reduced: Collection[str],
    *,
    overrun: bool = False,
    attacker_markers: int = 0,
    defender_markers: int = 0,
) -> Odds:
    """The odds of a land attack or overrun on `target` (SNC-10.3.x, SNC-10.4.x, SNC-9.6.4,
    SNC-9.6.5); raises IllegalAction when the attack is not allowed."""
    problem = attack_problem(data, board, target, attackers, stacks, variant)
    if problem is not None:
        raise IllegalAction(problem, clauses=tuple(_CLAUSE.findall(problem)))
    defenders = stacks[target]
    attack = attack_strength(data, board, target, attackers, reduced)
    defence = defence_strength(data, defenders, reduced)
    if attack <= 0:
        raise IllegalAction(
            "the attack strength rounds down to 0 (SNC-10.4.1.8)", clauses=("SNC-10.4.1.8",)
        )
    side = data.unit(next(iter(attackers))).side
    # SNC-10.4, SNC-10.4.0.1: the column shifts of the defender's terrain and fire support
    found = shifts(
        data, board, target, defenders, variant,
        attacker_side=side, attacker_hexes=frozenset(attackers.values()), stacks=stacks,
        overrun=overrun, attacker_markers=attacker_markers, defender_markers=defender_markers,
    )  # fmt: skip
    base = base_column(attack, defence)  # SNC-10.3: the basic odds of the two totals
    return Odds(attack, defence, base, found, final_column(base, net_shift(found), variant))


def landing_odds(
    data: SNCData,
    board: Board,
    variant: Variant,
    target: Hex,
    attackers: Iterable[str],
    defenders: Collection[str],
    reduced: Collection[str],
    *,
    attacker_markers: int = 0,
    defender_markers: int = 0,
) -> Odds:
    """The odds of an amphibious landing attack on `target` (SNC-8.4.0.4, SNC-8.4.0.5): halved
    strength against the landing hex's defenders, with the hex's terrain shifts and the fire
    support; never the concentric shift (AMB-SNC-27)."""
    attack = landing_strength(data, attackers, reduced, variant)  # SNC-8.4.0.4: the landing attack
    defence = defence_strength(data, defenders, reduced)
    if attack <= 0:
        raise IllegalAction(
            "the halved landing strength is 0 (SNC-8.4.0.5)", clauses=("SNC-8.4.0.5",)
        )
    found = shifts(
        data, board, target, defenders, variant,
        attacker_side="JP", landing=True,
        attacker_markers=attacker_markers, defender_markers=defender_markers,
    )  # fmt: skip
    base = base_column(attack, defence)
    return Odds(attack, defence, base, found, final_column(base, net_shift(found), variant))


def crt_result(data: SNCData, variant: Variant, column: int, face: int) -> tuple[int, int]:
    """Steps lost (attacker, defender) for a column and a die face (SNC-10.5.0.1,
    SNC-10.5.1.1); the column is clamped to the table first (SNC-10.3.1.1).

    `crt_5to1_six`: `errata` reads the cells the errata box corrects (0/4 at 5:1 on a 6,
    SNC-0.0.4) as corrected; `printed` reads the table as printed on the map.
    """
    label = column_label(clamp(column))
    if not 1 <= face <= data.crt.die:
        raise InvalidInput(f"no die face {face} (SNC-10.5.0.1)", field="face")
    corrected = data.crt.errata.get((label, face))
    if corrected is not None and variant.is_("crt_5to1_six", "errata"):
        return corrected  # SNC-0.0.4: the map errata, 0/4 at 5:1 on a 6
    # SNC-10.5, SNC-10.5.0.1, SNC-10.5.1.1: the die read under the final column, steps lost
    return data.crt.result(label, face)
