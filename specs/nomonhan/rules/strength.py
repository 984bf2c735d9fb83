"""Combat strengths and dice of a Nomonhan combat (NOM-9.9 to NOM-9.22)."""

from __future__ import annotations

from fractions import Fraction

from kernel.chance import binomial, hit_probability
from kernel.variants import Variant
from specs.nomonhan.data.loader import UnitSpec
from specs.nomonhan.rules.board import Board, across_bridge
from specs.nomonhan.rules.state import Combat, NomonhanState


def ja_artillery(v: Variant, spec: UnitSpec) -> bool:
    """The Artillery read as JA reads it: one step, never attacks, defends at 1, never retreats
    (NOM-9.19, NOM-9.20, NOM-9.28; option artillery_rules, AMB-NOM-15)."""
    return spec.type == "artillery" and v.is_("artillery_rules", "ja")


def full_steps(v: Variant, spec: UnitSpec) -> int:
    """Steps of a counter at full strength: two when it has a reduced reverse side (NOM-2.5,
    NOM-9.24). Under the JA reading the Artillery has one step: its reverse side only marks
    that it has supported (NOM-9.19, NOM-9.28, AMB-NOM-15)."""
    return 1 if ja_artillery(v, spec) else spec.full_steps


def _values(spec: UnitSpec, steps: int) -> tuple[int, ...]:
    if steps < spec.full_steps and spec.reduced is not None:
        return spec.reduced  # NOM-2.5: a flipped counter fights with its reverse side
    return spec.printed


def attack_strength(v: Variant, spec: UnitSpec, steps: int) -> int:
    """Tanks attack with their attack number (NOM-9.10; which one is AMB-NOM-22)."""
    values = _values(spec, steps)
    if spec.is_tank and len(values) == 2:  # NOM-9.10: a tank attacks with its attack number
        return values[0] if v.is_("tank_numbers", "left_attack") else values[1]
    return values[0]


def defence_strength(v: Variant, spec: UnitSpec, steps: int) -> int:
    """Tanks defend with their defence number (NOM-9.10); the Artillery defends at 1 under the
    JA reading (NOM-9.20)."""
    if ja_artillery(v, spec):
        return 1  # NOM-9.20: the Artillery defends at 1
    values = _values(spec, steps)
    if spec.is_tank and len(values) == 2:  # NOM-9.10: a tank defends with its defence number
        return values[1] if v.is_("tank_numbers", "left_attack") else values[0]
    return values[0]


def can_attack(v: Variant, spec: UnitSpec) -> bool:
    """The Artillery never attacks under the JA reading (NOM-9.20)."""
    return not ja_artillery(v, spec)


def combat_dice(board: Board, state: NomonhanState, combat: Combat) -> tuple[int, int]:
    """Dice rolled by attacker and defender: total strengths, Artillery support +1 to the
    Soviet attacker (NOM-9.17), +1 to the defender for an attack across a bridge (NOM-9.22)."""
    v = state.variant
    data = board.data
    att = sum(attack_strength(v, data.unit(a), state.unit(a).steps) for a in combat.attackers)
    dfn = sum(defence_strength(v, data.unit(d), state.unit(d).steps) for d in combat.defenders)
    if combat.support:
        att += 1  # NOM-9.17: the supported Soviet attack rolls one more die
    if any(
        (ah := state.unit(a).hex) is not None
        and (dh := state.unit(d).hex) is not None
        and dh in board.neighbors(ah)
        and across_bridge(board, v, state.demolished, ah, dh)
        for a in combat.attackers
        for d in combat.defenders
    ):
        dfn += 1  # NOM-9.22: an attack across a bridge, +1 to the defender
    return att, dfn


def hill_attack(board: Board, state: NomonhanState, combat: Combat) -> bool:
    """The combat is an attack against a hill (NOM-9.15; mixed hexes per AMB-NOM-12)."""
    on_hill = [board.is_hill(h) for d in combat.defenders if (h := state.unit(d).hex) is not None]
    if not on_hill:
        return False
    if state.variant.is_("hill_defenders", "all_on_hill"):
        return all(on_hill)
    return any(on_hill)


def hit_chances(board: Board, state: NomonhanState, combat: Combat) -> tuple[Fraction, Fraction]:
    """Per-die hit chance of attacker and defender: 5-6 (NOM-9.11), only 6 against a hill
    (NOM-9.15) for the attacker, or both sides by reading (AMB-NOM-12); from a hill as usual
    (NOM-9.16)."""
    normal, six = hit_probability(2), hit_probability(1)
    if not hill_attack(board, state, combat):
        return normal, normal  # NOM-9.11: a 5 or a 6 is a hit
    both = state.variant.is_("hill_hits", "both_sides")
    return six, (six if both else normal)  # NOM-9.15: against a hill only a 6 hits


def roll_outcomes(
    board: Board, state: NomonhanState, combat: Combat
) -> list[tuple[tuple[int, int], Fraction]]:
    """Each (attacker hits, defender hits) with its exact probability (NOM-2.3, NOM-9.9)."""
    att, dfn = combat_dice(board, state, combat)
    pa, pd = hit_chances(board, state, combat)
    ba, bd = binomial(att, pa), binomial(dfn, pd)  # NOM-9.9: one die per strength point
    return [((i, j), ba[i] * bd[j]) for i in range(att + 1) for j in range(dfn + 1)]
