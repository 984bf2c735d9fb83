"""After a combat is decided: the loser's damage (RKS-8.9.1 to RKS-8.9.3, RKS-8.12.5), the
defender's remaining units (RKS-8.10.1, RKS-8.10.2), and whether the attacker must go on
(RKS-8.11.1, RKS-8.11.2). Bombardment damage (RKS-9.2.2, AMB-RKS-16) uses the same choices.
"""

from __future__ import annotations

import attrs

from specs.rattenkrieg.rules.actions import Action, Isolate, LoseStep, Retreat, Sacrifice
from specs.rattenkrieg.rules.board import Board
from specs.rattenkrieg.rules.control import friendly, settle
from specs.rattenkrieg.rules.sequence import end_activation
from specs.rattenkrieg.rules.sources import combat_cards
from specs.rattenkrieg.rules.state import SU, Combat, Damage, Pick, RKState, Stage, Step, other
from specs.rattenkrieg.rules.units import eliminate, lose_step

Problem = tuple[str, str]  # (clause, what is wrong)


def retreat_areas(b: Board, s: RKState, unit_id: str, why: str = "damage") -> list[str]:
    """Adjacent friendly-controlled Areas a unit may retreat into (RKS-8.9.1): never while
    isolated (RKS-8.10.5), never into the enemy Rear (RKS-3.5.1), a Soviet unit never into the
    Soviet Rear (RKS-8.9.3; for the retreats of RKS-8.10.1 and RKS-8.11.2, `why` "isolation"
    and "continuation", by `rear_retreat_ban`); whether the own Rear is friendly is AMB-RKS-10."""
    u = b.unit(s, unit_id)
    if u.isolated or u.area is None:
        return []  # RKS-8.10.5: an isolated unit never retreats (it loses steps or dies)
    side = b.side_of[unit_id]
    return [
        a
        for a in b.adjacent[u.area]
        if friendly(b, s, side, a)
        and a != b.enemy_rear(side)
        and not (side == SU and a == b.rear[SU] and _rear_banned(s, why))
    ]


def _rear_banned(s: RKState, why: str) -> bool:
    """Whether RKS-8.9.3 bars a Soviet retreat into the Soviet Rear for a retreat of kind `why`:
    always for the loser's damage; for the remaining units (RKS-8.10.1) and a continuing
    attacker (RKS-8.11.2) by the option."""
    # RKS-8.9.3, RKS-8.10.1, RKS-8.11.2 (option rear_retreat_ban=every_retreat; damage_only)
    return why == "damage" or s.variant.is_("rear_retreat_ban", "every_retreat")


def retreat_problem(
    b: Board, s: RKState, unit_id: str, to: str, why: str = "damage"
) -> Problem | None:
    u = b.unit(s, unit_id)
    side = b.side_of[unit_id]
    if u.isolated:
        return "RKS-8.10.5", f"{unit_id} is isolated and may not retreat"
    if u.area is None or to not in b.adjacent[u.area]:
        return "RKS-8.9.1", f"{to} is not adjacent to {unit_id}'s Area"
    if to == b.enemy_rear(side):
        return "RKS-3.5.1", f"{unit_id} may not enter the enemy Rear"
    if side == SU and to == b.rear[SU] and _rear_banned(s, why):
        return "RKS-8.9.3", "a Soviet unit may not retreat into the Soviet Rear"
    if not friendly(b, s, side, to):
        return "RKS-8.9.1", f"{to} is not friendly-controlled for {side} (AMB-RKS-10)"
    return None


# --- damage -------------------------------------------------------------------------------------


def damage_choices(b: Board, s: RKState) -> list[Action]:
    """What the owner of a damaged unit may do: retreat (flipped), lose a step, or, when the
    T-34 took part in a lost combat, eliminate it instead (RKS-8.9.1, RKS-8.12.5). Bombardment
    damage allows the same, or only a step loss (AMB-RKS-16)."""
    d = s.damage
    assert d is not None
    u = b.unit(s, d.unit)
    out: list[Action] = []
    if d.cause == "combat" or s.variant.is_("bombard_damage", "combat_damage"):
        out += [Retreat(d.unit, a) for a in retreat_areas(b, s, d.unit)]
    if u.steps:
        if s.variant.is_("lost_step", "random"):
            out.append(LoseStep(d.unit, None))
        else:
            out += [LoseStep(d.unit, c) for c in sorted(u.steps)]
    t34 = _sacrificable(b, s)
    if t34 is not None:  # RKS-8.12.5: the T-34 that took part may be eliminated instead
        out.append(Sacrifice(t34))
    return out


def _sacrificable(b: Board, s: RKState) -> str | None:
    """The T-34 that took part in a combat the Soviets lost (RKS-8.12.5)."""
    d, c = s.damage, s.combat
    if d is None or c is None or d.cause != "combat" or c.loser != SU or c.support is None:
        return None
    if c.support == d.unit or b.unit(s, c.support).area is None:
        return None
    return c.support


def begin_damage(b: Board, s: RKState, unit_id: str, cause: str) -> RKState:
    """The owner of `unit_id` must take damage; a unit with no choice left is eliminated
    (RKS-8.9.2), and a bombarded T-34 is eliminated (AMB-RKS-16, RKS-8.12.1)."""
    s = attrs.evolve(s, damage=Damage(unit_id, cause), stage=Stage.DAMAGE)
    if (cause != "combat" and b.is_tank(unit_id)) or not damage_choices(b, s):
        area = b.unit(s, unit_id).area
        return after_damage(b, eliminate(b, s, unit_id), "eliminated", area)
    return s


def apply_damage(b: Board, s: RKState, action: Action) -> RKState:
    d = s.damage
    assert d is not None
    area = b.unit(s, d.unit).area
    match action:
        case Retreat(unit, to):
            s = b.update(s, unit, area=to, flipped=True)  # RKS-8.9.1
            return after_damage(b, s, "retreated", area)
        case LoseStep(unit, None):
            return attrs.evolve(s, stage=Stage.PICK, pick=Pick("step", unit))  # AMB-RKS-7 (iii)
        case LoseStep(unit, card):
            assert card is not None
            s = lose_step(b, s, unit, card)
            what = "eliminated" if b.unit(s, unit).area is None else "step"
            return after_damage(b, s, what, area)
        case Sacrifice(unit):
            return after_damage(b, eliminate(b, s, unit), "sacrificed", area)  # RKS-8.12.5
    raise TypeError(action)


def picked_step(b: Board, s: RKState, card: str) -> RKState:
    """The randomly picked step card is lost (AMB-RKS-7 iii, reading random)."""
    assert s.pick is not None
    unit = s.pick.who
    area = b.unit(s, unit).area
    s = lose_step(b, attrs.evolve(s, pick=None), unit, card)
    return after_damage(b, s, "eliminated" if b.unit(s, unit).area is None else "step", area)


def after_damage(b: Board, s: RKState, what: str, area: str | None) -> RKState:
    """Where play goes once the damage is taken (`area`: where the damaged unit stood): back to
    the activation after a bombardment, unless its target's remaining units must decide
    (AMB-RKS-16, `bombard_isolation=yes`); after a combat, the end of the activation for a
    beaten attacker (RKS-8.11.1), the defender's remaining units (RKS-8.10.1), or the
    continuation (RKS-8.11.2)."""
    d = s.damage
    assert d is not None
    s = settle(b, attrs.evolve(s, damage=None))
    if d.cause != "combat":
        if what in ("retreated", "eliminated") and _bombard_isolates(b, s, d.unit, area):
            assert area is not None and s.acting is not None
            left = Combat(area, s.acting, Step.CHOOSE, defender=d.unit, cause=d.cause)
            return next_isolation(b, attrs.evolve(s, combat=left))
        return attrs.evolve(s, stage=Stage.ACTIVE)
    c = s.combat
    assert c is not None
    if d.unit == c.attacker:
        if what in ("retreated", "eliminated"):  # RKS-8.11.1: flipped, its activation ends
            return end_activation(b, s)
        return continuation(b, s)
    if what in ("retreated", "eliminated"):
        return next_isolation(b, s)
    return continuation(b, s)


def _bombard_isolates(b: Board, s: RKState, target: str, area: str | None) -> bool:
    """Whether the target of a bombardment (RKS-9.2.2) or Air Force Support (RKS-9.3.1) that
    retreated or was eliminated leaves its side's other units in `area` to RKS-8.10.1: only by
    AMB-RKS-16 `bombard_isolation=yes`, and only where the bombarding side has a non-isolated
    unit, as the attacker does in a combat's Area."""
    if area is None or not s.variant.is_("bombard_isolation", "yes"):
        return False
    bombarding = other(b.side_of[target])
    return any(not u.isolated for u in b.units_in(s, area, bombarding))


# --- the defender's remaining units (RKS-8.10.1) ---------------------------------------------


def remaining(b: Board, s: RKState) -> list[str]:
    """The defender's units still in the Area, not isolated and not yet decided for, waiting
    for RKS-8.10.1."""
    c = s.combat
    assert c is not None
    side = other(b.side_of[c.attacker])
    return [u.id for u in b.units_in(s, c.area, side) if not u.isolated and u.id not in c.staying]


def _stay(s: RKState, units: list[str]) -> RKState:
    c = s.combat
    assert c is not None
    return attrs.evolve(s, combat=attrs.evolve(c, staying=(*c.staying, *units)))


def next_isolation(b: Board, s: RKState) -> RKState:
    """The next remaining unit to decide for; a unit with nowhere to go stays, isolated
    (RKS-8.10.2). The decisions take effect together, when every unit has one; then the
    continuation (RKS-8.11.2), or after a bombardment the activation (AMB-RKS-16)."""
    while True:
        pending = remaining(b, s)
        if not pending:
            c = s.combat
            assert c is not None
            for u in c.staying:
                s = b.update(s, u, isolated=True)  # RKS-8.10.1 (2)
            if c.cause != "combat":
                return attrs.evolve(settle(b, s), combat=None, stage=Stage.ACTIVE)
            s = attrs.evolve(s, combat=attrs.evolve(c, staying=(), isolation=None))
            return continuation(b, settle(b, s))
        if retreat_areas(b, s, pending[0], "isolation"):
            return attrs.evolve(s, stage=Stage.ISOLATION)
        s = _stay(s, pending[:1])  # RKS-8.10.2: nowhere to retreat, so isolated


def isolation_choices(b: Board, s: RKState) -> list[Action]:
    """For the first remaining unit: retreat or be isolated (RKS-8.10.1); once all must retreat
    (`isolation_choice=all_together`), only retreats."""
    c = s.combat
    assert c is not None
    unit = remaining(b, s)[0]
    out: list[Action] = [Retreat(unit, a) for a in retreat_areas(b, s, unit, "isolation")]
    if c.isolation != "retreat":
        out.append(Isolate(unit))
    return out


def apply_isolation(b: Board, s: RKState, action: Action) -> RKState:
    c = s.combat
    assert c is not None
    together = s.variant.is_("isolation_choice", "all_together")
    match action:
        case Retreat(unit, to):
            s = b.update(s, unit, area=to, flipped=True)  # RKS-8.10.1 (1)
            if together:
                s = attrs.evolve(s, combat=attrs.evolve(c, isolation="retreat"))
        case Isolate(unit):
            s = _stay(s, remaining(b, s) if together else [unit])
        case _:
            raise TypeError(action)
    return next_isolation(b, s)


# --- continuation (RKS-8.11.2) ------------------------------------------------------------------


def enemies_remain(b: Board, s: RKState) -> bool:
    """Both sides still have units in the Area: isolated defenders count or not by AMB-RKS-13."""
    c = s.combat
    assert c is not None
    side = other(b.side_of[c.attacker])
    count_isolated = s.variant.is_("isolated_remaining", "must_continue")
    return any(count_isolated or not u.isolated for u in b.units_in(s, c.area, side))


def continuation(b: Board, s: RKState) -> RKState:
    """With both sides still in the Area the attacker must attack again or retreat
    (RKS-8.11.2); otherwise the combat is over and the activation goes on (RKS-7.1.3). An
    attacker that can do neither is the `stuck_attacker` gap."""
    c = s.combat
    assert c is not None
    if b.unit(s, c.attacker).area != c.area:
        return end_activation(b, s)
    s = attrs.evolve(s, combat=attrs.evolve(c, loser=None))
    if not enemies_remain(b, s):
        return attrs.evolve(s, combat=None, stage=Stage.ACTIVE)
    if combat_cards(b, s, c.attacker) or retreat_areas(b, s, c.attacker, "continuation"):
        return attrs.evolve(s, stage=Stage.CONTINUE)
    if s.variant.is_("stuck_attacker", "loses"):
        s = eliminate(b, s, c.attacker)  # RKS-8.9.2: no retreat and no step
    return end_activation(b, settle(b, s))


def continue_retreat(b: Board, s: RKState, to: str) -> RKState:
    """The attacker retreats instead of attacking again: flipped, its action is over
    (RKS-8.11.1, RKS-8.11.2)."""
    c = s.combat
    assert c is not None
    s = b.update(s, c.attacker, area=to, flipped=True)
    return end_activation(b, settle(b, s))  # RKS-8.11.1: the retreating attacker's action ends
