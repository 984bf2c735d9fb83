"""Rattenkrieg's invariants of a combat's record (RKS-P-COMBAT, RKS-P-COMBATANTS): who fights
where, the step, the cards on the table and whose they are, the raises, the T-34's support, and
a bombarded unit's remaining units.
"""

from __future__ import annotations

from specs.rattenkrieg.formal.breach import Breach
from specs.rattenkrieg.rules import combat
from specs.rattenkrieg.rules.board import Board
from specs.rattenkrieg.rules.sources import combat_cards
from specs.rattenkrieg.rules.state import GE, HAND, SU, Combat, Placed, RKState, Stage, Step, other


def on_table(c: Combat) -> list[Placed]:
    """The cards on the combat table: the attack, the defence and the spent ones (RKS-8.6.1)."""
    return [p for p in (c.attack, c.defence, *c.spent) if p is not None]


def table_clear(c: Combat) -> bool:
    """No card on the table and no raiser: the cards are lost after the result (RKS-8.6.1)."""
    return c.attack is None and c.defence is None and not c.spent and c.raiser is None


def combat_fits(b: Board, s: RKState) -> Breach | None:
    """A combat's record fits its stage and step: who fights where, the cards on the table
    and whose they are, the raises, the T-34's support (RKS-8.1.1 to RKS-8.7.5,
    RKS-8.10.4, RKS-8.12.2, RKS-8.12.3, RKS-9.8.1)."""
    c = s.combat
    if c is None:
        return None
    found = combatants(b, s)  # who fights, and where
    if found is not None:
        return found
    a_side = b.side_of[c.attacker]
    for i, uid in enumerate(c.staying):
        if b.side_of[uid] == a_side or b.unit(s, uid).area != c.area or b.unit(s, uid).isolated:
            return Breach(
                f"combat.staying[{i}]",
                "RKS-8.10.1",
                f"{uid} is not a remaining defender in the Area",
            )
    if c.isolation is not None and not s.variant.is_("isolation_choice", "all_together"):
        return Breach("combat.isolation", "RKS-8.10.1", "per_unit decides unit by unit")
    if c.cause != "combat":
        return _bombarded(b, s, c)
    attacker_here = b.unit(s, c.attacker).area == c.area
    defender_here = c.defender is not None and b.unit(s, c.defender).area == c.area
    if not attacker_here:
        return Breach("combat.area", "RKS-8.1.1", "the attacker is in the combat Area")
    deciding = (c.staying or c.isolation is not None) and s.stage != Stage.ISOLATION
    if deciding:
        return Breach("combat.staying", "RKS-8.10.1", "remaining units decide in isolation")
    if s.stage == Stage.COMBAT:
        return _round(b, s, c, defender_here)
    if c.defender is None:
        return Breach("combat.defender", "RKS-8.2.3", "a decided combat has a defender")
    if not table_clear(c):
        return Breach("combat.attack", "RKS-8.6.1", "after the result the cards are lost")
    if s.stage == Stage.CONTINUE:
        if c.loser is not None:
            return Breach("combat.loser", "RKS-8.11.2", "the next combat has no loser yet")
        return None
    if c.loser is None:
        return Breach("combat.loser", "RKS-8.9.1", "the combat has a loser by now")
    if s.stage == Stage.ISOLATION:
        if c.loser == a_side or defender_here:
            return Breach(
                "combat.defender",
                "RKS-8.10.1",
                "the defending unit lost and left the Area before the others decide",
            )
        return None
    # DAMAGE, or the random pick of the step lost (AMB-RKS-7 iii)
    assert s.damage is not None
    if not defender_here:
        return Breach("combat.defender", "RKS-8.1.1", "the defender is in the combat Area")
    loser = combat.fighter(b, c, c.loser)
    if s.damage.unit != loser:
        return Breach("damage.unit", "RKS-8.9.1", f"the losing unit {loser} takes damage")
    return None


def combatants(b: Board, s: RKState) -> Breach | None:
    """The part of `combat_fits` proved first over the abstraction (RKS-P-COMBATANTS): a
    combat is fought in a Stalingrad Area, its attacker is the acting unit, its defender an
    enemy unit, its support a Soviet T-34 (RKS-3.5.1, RKS-8.2.2, RKS-8.2.3, RKS-8.12.3). The
    rest of `combat_fits` (the units present, the remaining units, the step, the cards on the
    table, their origins and openness, the raises, the bombarded record) is proved with it as
    RKS-P-COMBAT under raising=one_each (both presets), and tested on playouts otherwise."""
    c = s.combat
    if c is None:
        return None
    if c.area not in b.index:
        return Breach("combat.area", "RKS-3.5.1", "combats are fought in Stalingrad Areas")
    if s.acting != c.attacker:
        return Breach("combat.attacker", "RKS-8.2.2", "the attacker is the acting unit")
    if c.defender is not None and b.side_of[c.defender] == b.side_of[c.attacker]:
        return Breach("combat.defender", "RKS-8.2.3", "the defender is an enemy unit")
    if c.support is not None and (b.side_of[c.support] != SU or not b.is_tank(c.support)):
        return Breach("combat.support", "RKS-8.12.3", "only a T-34 supports")
    return None


def _bombarded(b: Board, s: RKState, c: Combat) -> Breach | None:
    """The remaining units of a bombarded unit's side (AMB-RKS-16, bombard_isolation=yes)."""
    ok = (
        s.stage == Stage.ISOLATION
        and s.variant.is_("bombard_isolation", "yes")
        and c.step == Step.CHOOSE
        and c.defender is not None
        and b.unit(s, c.defender).area != c.area
        and table_clear(c)
        and c.loser is None
        and c.raises == 0
        and c.support is None
        and not c.refight
        and (c.cause == "bombardment" or b.side_of[c.attacker] == GE)
        and any(not u.isolated for u in b.units_in(s, c.area, other(b.side_of[c.defender])))
    )
    if not ok:
        return Breach(
            "combat.cause",
            "RKS-9.2.2",
            "after a bombardment only its target's remaining units decide (AMB-RKS-16)",
        )
    return None


def _round(b: Board, s: RKState, c: Combat, defender_here: bool) -> Breach | None:
    """A round of declarations and raises (RKS-8.3.1)."""
    a_side = b.side_of[c.attacker]
    if c.loser is not None:
        return Breach("combat.loser", "RKS-8.7.1", "the cards are not judged yet")
    if c.step == Step.CHOOSE:
        if c.defender is not None or on_table(c) or c.raiser or c.raises or c.support:
            return Breach("combat", "RKS-8.2.3", "the defender has not chosen his unit yet")
        if len(combat.defenders(b, s, c.area, c.attacker)) < 2:
            return Breach("combat.step", "RKS-8.2.3", "the defender chooses among several")
        return None
    if not defender_here:
        return Breach("combat.defender", "RKS-8.1.1", "the defender is in the combat Area")
    chuikov = "chuikov" in c.effects
    want = {
        Step.ATTACK: (False, chuikov),
        Step.DEFENCE: (not chuikov, False),
        Step.RAISE: (True, True),
    }[c.step]
    if (c.attack is not None, c.defence is not None) != want:
        return Breach("combat", "RKS-8.3.1", f"combat step {c.step.value} has other cards")
    if (c.raiser is not None) != (c.step == Step.RAISE):
        return Breach("combat.raiser", "RKS-8.6.1", "a raiser only while raising")
    if c.raises != len(c.spent) or (c.step != Step.RAISE and c.raises):
        return Breach("combat.raises", "RKS-8.6.1", "each raise replaced one card")
    if c.step == Step.ATTACK and not combat_cards(b, s, c.attacker):
        return Breach("combat.step", "RKS-8.4.1", "the attacker has a card to declare with")
    first = a_side
    if chuikov and s.variant.is_("chuikov_raises", "german_first"):
        first = GE
    if c.step == Step.RAISE:
        if s.variant.is_("raising", "one_each") and c.raises > 1:
            return Breach("combat.raises", "RKS-8.6.2", "one raise each (AMB-RKS-6)")
        if c.raiser != (first if c.raises % 2 == 0 else other(first)):
            return Breach("combat.raiser", "RKS-8.6.2", "the raisers take turns")
    for i, p in enumerate(c.spent):
        if p.side != (first if i % 2 == 0 else other(first)):
            return Breach(f"combat.spent[{i}]", "RKS-8.6.2", "raises alternate")
    return _cards_on_table(b, s, c, chuikov)


def _cards_on_table(b: Board, s: RKState, c: Combat, chuikov: bool) -> Breach | None:
    """The cards on the table are the fighters' own, from the hand or the fighter's steps,
    open only by General Chuikov; a T-34 adds only to a Soviet card of its Area (RKS-8.4.1,
    RKS-8.10.4, RKS-8.12.2, RKS-8.12.3, RKS-9.8.1)."""
    a_side = b.side_of[c.attacker]
    assert c.defender is not None
    fighter = {a_side: c.attacker, other(a_side): c.defender}
    german_first = s.variant.is_("chuikov_raises", "german_first")
    labelled = [
        *((f"combat.spent[{i}]", p) for i, p in enumerate(c.spent)),
        ("combat.attack", c.attack),
        ("combat.defence", c.defence),
    ]
    ge_cards = 0
    su_card = False
    for field, p in labelled:
        if p is None:
            continue
        unit = fighter[p.side]
        current = p is c.attack or p is c.defence
        if current and p.side != (a_side if p is c.attack else other(a_side)):
            return Breach(f"{field}.side", "RKS-8.4.1", "the card is the other side's")
        if p.origin not in (HAND, unit):
            return Breach(f"{field}.origin", "RKS-8.4.1", f"from the hand or {unit}'s steps")
        if p.origin == unit and b.specs[unit].steps == 0:
            return Breach(f"{field}.origin", "RKS-8.12.2", f"{unit} has no step cards")
        if p.origin == HAND and b.unit(s, unit).isolated:
            return Breach(f"{field}.origin", "RKS-8.10.4", f"isolated {unit} uses its steps")
        if p.side == GE:
            ge_cards += 1
            should = chuikov and (ge_cards == 1 or german_first)
        else:
            su_card = True
            should = False
        if p.open != should:
            return Breach(f"{field}.open", "RKS-9.8.1", "only General Chuikov opens cards")
    if c.support is not None:
        defending = a_side != SU
        ok = (
            su_card
            and b.unit(s, c.support).area == c.area
            and c.support != fighter[SU]
            and not (not defending and s.variant.is_("t34_support", "defence_only"))
        )
        if not ok:
            return Breach(
                "combat.support", "RKS-8.12.3", "a T-34 of the Area adds to the Soviet card"
            )
    return None
