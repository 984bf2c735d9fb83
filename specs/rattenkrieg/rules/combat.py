"""One combat, from the choice of the defending unit to the judgement (RKS-8.1.1 to
RKS-8.7.5, RKS-8.12.3, RKS-9.8.1).

A round is: attack declaration, defence declaration, raises, judgement (RKS-8.3.1). Under
General Chuikov the German places his cards first and face up (RKS-9.8.1, AMB-RKS-20). A tie
discards the cards and repeats the round with the same units (RKS-8.7.4, AMB-RKS-24).
"""

from __future__ import annotations

import attrs

from specs.rattenkrieg.rules.board import Board
from specs.rattenkrieg.rules.damage import begin_damage
from specs.rattenkrieg.rules.pile import discard
from specs.rattenkrieg.rules.sequence import end_activation
from specs.rattenkrieg.rules.sources import combat_cards
from specs.rattenkrieg.rules.state import (
    GE,
    HAND,
    SU,
    Combat,
    Placed,
    RKState,
    Stage,
    Step,
    other,
)
from specs.rattenkrieg.rules.strength import combat_strength, hits, judgement

Problem = tuple[str, str]
NEXT_COMBAT = ("engineer", "molotov", "chuikov")  # RKS-9.5.1, RKS-9.7.1, RKS-9.8.1


def attacker_side(b: Board, c: Combat) -> str:
    return b.side_of[c.attacker]


def fighter(b: Board, c: Combat, side: str) -> str | None:
    """The unit fighting for `side` (RKS-8.2.1)."""
    return c.attacker if side == attacker_side(b, c) else c.defender


def chuikov(c: Combat) -> bool:
    """The German places first in this combat (RKS-9.8.1)."""
    return "chuikov" in c.effects


def to_move(b: Board, c: Combat) -> str:
    a = attacker_side(b, c)
    if c.step == Step.ATTACK:
        return a
    if c.step == Step.RAISE:
        assert c.raiser is not None
        return c.raiser
    return other(a)  # CHOOSE, DEFENCE


def defenders(b: Board, s: RKState, area: str, attacker: str) -> list[str]:
    """Enemy units in the Area the defender may choose from (RKS-8.2.3), isolated ones too."""
    return [u.id for u in b.units_in(s, area, other(b.side_of[attacker]))]


def start_combat(b: Board, s: RKState) -> RKState:
    """The acting unit fights in its Area (RKS-8.1.1, RKS-8.2.2), its owner the attacker as the
    player of the Player Turn (RKS-8.1.3); the "next combat" events in force go into this
    combat (RKS-9.5.1, RKS-9.7.1, RKS-9.8.1)."""
    acting = s.acting
    assert acting is not None
    area = b.unit(s, acting).area
    assert area is not None
    effects = tuple(e for e in s.effects if e in NEXT_COMBAT)
    if (
        s.stage == Stage.CONTINUE
        and s.combat is not None
        and s.variant.is_("reattack_effects", "carried")
    ):  # RKS-8.11.2, RKS-9.5.1, RKS-9.7.1, RKS-9.8.1 (option reattack_effects=carried)
        effects = (*s.combat.effects, *effects)
    # RKS-8.1.3, RKS-8.2.2: the acting unit attacks, for the player of the Player Turn
    c = Combat(area=area, attacker=acting, step=Step.CHOOSE, effects=effects)
    s = attrs.evolve(
        s,
        combat=c,
        stage=Stage.COMBAT,
        acted=True,
        effects=tuple(e for e in s.effects if e not in NEXT_COMBAT),
    )
    choices = defenders(b, s, area, acting)
    if len(choices) == 1:
        return choose_defender(b, s, choices[0])
    return s


def choose_defender_problem(b: Board, s: RKState, unit: str) -> Problem | None:
    c = s.combat
    assert c is not None
    if unit not in defenders(b, s, c.area, c.attacker):
        return "RKS-8.2.3", f"{unit} is not a defending unit in {b.name(c.area)}"
    return None


def choose_defender(b: Board, s: RKState, unit: str) -> RKState:
    """The defender's fighting unit, fixed for the whole combat (RKS-8.2.3, RKS-8.2.4)."""
    c = s.combat
    assert c is not None
    # RKS-8.2.1, RKS-8.2.4: one unit against one, the defender's fixed for the whole combat
    return begin_round(b, attrs.evolve(s, combat=attrs.evolve(c, defender=unit)))


def begin_round(b: Board, s: RKState) -> RKState:
    """A round of declarations (RKS-8.3.1): the attacker first, or the German first under
    General Chuikov (RKS-9.8.1). An attacker with no card to place is the `stuck_attacker` gap."""
    c = s.combat
    assert c is not None
    c = attrs.evolve(
        c, attack=None, defence=None, spent=(), support=None, raiser=None, raises=0, loser=None
    )
    s = attrs.evolve(s, combat=c, stage=Stage.COMBAT)
    if not combat_cards(b, s, c.attacker):
        if s.variant.is_("stuck_attacker", "stays"):
            return end_activation(b, s)
        s = attrs.evolve(s, combat=attrs.evolve(c, loser=attacker_side(b, c)))
        return begin_damage(b, s, c.attacker, "combat")
    first = Step.DEFENCE if chuikov(c) else Step.ATTACK
    return attrs.evolve(s, combat=attrs.evolve(c, step=first))


# --- placing cards ------------------------------------------------------------------------------


def t34_for_support(b: Board, s: RKState) -> str | None:
    """A T-34 in the combat's Area other than the fighting Soviet unit (RKS-8.12.3)."""
    c = s.combat
    assert c is not None
    soviet = fighter(b, c, SU)
    for u in b.units_in(s, c.area, SU):
        if b.is_tank(u.id) and u.id != soviet:
            return u.id
    return None


def play_problem(b: Board, s: RKState, card: str, support: bool) -> Problem | None:
    """Whether the side to move may put `card` down now, and add the T-34 if `support`."""
    c = s.combat
    assert c is not None
    side = to_move(b, c)
    unit = fighter(b, c, side)
    assert unit is not None
    if card not in {x for x, _ in combat_cards(b, s, unit)}:
        u = b.unit(s, unit)
        if u.isolated and card in s.hand(side):
            return "RKS-8.10.4", f"isolated {unit} may use only its own step cards"
        if b.is_tank(unit) and card not in s.hand(side):
            return "RKS-8.12.2", "the T-34 fights with hand cards only"
        return "RKS-8.4.1", f"{card} is neither in {side}'s hand nor a step of {unit}"
    origin = HAND if card in s.hand(side) else unit
    defending = side != attacker_side(b, c)
    if (
        defending
        and origin != HAND
        and s.variant.is_("step_bluff", "prohibited")
        and not hits(s, card, combat_strength(b, s, c, unit))
    ):
        return "RKS-8.5.3", f"the defender may not bluff with step card {card} (AMB-RKS-8)"
    if support:
        first = c.step == (Step.DEFENCE if defending else Step.ATTACK)
        if side != SU:
            return "RKS-8.12.3", "only the Soviet adds the T-34"
        if not first and s.variant.is_("t34_support_card", "first_card"):
            # RKS-8.12.3, RKS-8.3.1 (option t34_support_card=first_card; any_card: a raise too)
            return "RKS-8.12.3", "the Soviet adds the T-34 with his first card of a round"
        if t34_for_support(b, s) is None:
            return "RKS-8.12.3", f"no other T-34 is in {b.name(c.area)}"
        if not defending and s.variant.is_("t34_support", "defence_only"):
            return "RKS-8.12.3", "the T-34 adds its strength only in defence (AMB-RKS-15)"
    return None


def play(b: Board, s: RKState, card: str, support: bool) -> RKState:
    """Put a card on the table: the attack declaration (RKS-8.4.1), the defence declaration
    (RKS-8.5.2) or a raise replacing the player's card, which is lost after the result
    (RKS-8.6.1, AMB-RKS-6)."""
    c = s.combat
    assert c is not None
    side = to_move(b, c)
    unit = fighter(b, c, side)
    assert unit is not None
    open_ = (
        side == GE
        and chuikov(c)
        and (c.step != Step.RAISE or s.variant.is_("chuikov_raises", "german_first"))
    )
    if card in s.hand(side):
        origin = HAND
        s = s.with_hand(side, s.hand(side) - {card})
    else:
        origin = unit
        steps = b.unit(s, unit).steps
        s = b.update(s, unit, steps=steps - {card})
        if not open_:  # RKS-3.3.3: the opponent no longer knows which step is which
            s = attrs.evolve(s, exposed=s.exposed - steps)
    placed = Placed(side, card, origin, open_)
    if support:
        c = attrs.evolve(c, support=t34_for_support(b, s))
    attacking = side == attacker_side(b, c)
    if c.step == Step.RAISE:
        old = c.attack if attacking else c.defence
        assert old is not None
        c = attrs.evolve(c, spent=(*c.spent, old), raises=c.raises + 1)
    c = attrs.evolve(c, attack=placed) if attacking else attrs.evolve(c, defence=placed)
    s = attrs.evolve(s, combat=c)
    match c.step:
        case Step.ATTACK:
            return _to_raises(s) if chuikov(c) else _step(s, Step.DEFENCE)
        case Step.DEFENCE:
            # RKS-8.5.2: the defender contested with a card from his hand or the unit's steps
            return _step(s, Step.ATTACK) if chuikov(c) else _to_raises(s)
        case _:
            if s.variant.is_("raising", "one_each") and c.raises >= 2:
                return judge(b, s)
            return attrs.evolve(s, combat=attrs.evolve(c, raiser=other(side)))


def _step(s: RKState, step: Step) -> RKState:
    assert s.combat is not None
    return attrs.evolve(s, combat=attrs.evolve(s.combat, step=step))


def _to_raises(s: RKState) -> RKState:
    """The raises begin with the attacker (RKS-8.6.1), or with the German under General
    Chuikov by AMB-RKS-20 (iii)."""
    c = s.combat
    assert c is not None and c.attack is not None
    first = c.attack.side
    if chuikov(c) and s.variant.is_("chuikov_raises", "german_first"):  # RKS-9.8.1
        first = GE
    return attrs.evolve(s, combat=attrs.evolve(c, step=Step.RAISE, raiser=first))


def accept_problem(b: Board, s: RKState) -> Problem | None:
    c = s.combat
    assert c is not None
    if c.step == Step.RAISE:
        defending = c.raiser != attacker_side(b, c)
        if not (defending and c.raises >= 1 and s.variant.is_("raise_then_accept", "yes")):
            return "RKS-8.6.2", "after the declarations only a raise or no raise (AMB-RKS-6)"
        return None
    if c.step != Step.DEFENCE:
        return "RKS-8.5.1", "only the defender accepts damage, at his declaration"
    if c.refight and s.variant.is_("tie_refight", "cards_only"):
        assert c.defender is not None
        playable = [x for x, _ in combat_cards(b, s, c.defender)]
        if any(play_problem(b, s, x, False) is None for x in playable):
            return "RKS-8.7.4", "after a tie the defender fights again (AMB-RKS-24 b)"
    return None


def accept(b: Board, s: RKState) -> RKState:
    """The defender takes the damage without contest (RKS-8.5.1). The attacker's card is
    discarded or returned unseen (AMB-RKS-7 ii); cards of a contest given up are lost. No card
    is revealed: cards are revealed only at judgement (RKS-8.7.1), so they go face down unless
    `discard_faces=face_up`."""
    c = s.combat
    assert c is not None and c.defender is not None
    defender = c.defender
    table = [*c.spent, *(p for p in (c.defence,) if p is not None)]
    if c.attack is not None:
        if c.defence is None and s.variant.is_("uncontested_card", "returned"):
            s = _return(b, s, c.attack)
        else:
            table.append(c.attack)
    s = _dispose(b, s, table)
    c = _cleared(c)
    s = attrs.evolve(s, combat=attrs.evolve(c, loser=other(attacker_side(b, c))))
    return begin_damage(b, s, defender, "combat")


def stand(b: Board, s: RKState) -> RKState:
    """No raise: the raising ends (RKS-8.6.1, RKS-8.6.2) and the cards are judged."""
    return judge(b, s)


# --- judgement ----------------------------------------------------------------------------------


def judge(b: Board, s: RKState) -> RKState:
    """Reveal and judge (RKS-8.7.1 to RKS-8.7.5). The cards on the table are lost (RKS-8.6.1,
    AMB-RKS-7); a tie repeats the round (RKS-8.7.4); the loser takes damage (RKS-8.9.1)."""
    c = s.combat
    assert c is not None and c.attack is not None and c.defence is not None
    defender = c.defender
    assert defender is not None
    a_side = attacker_side(b, c)
    winner, _ = judgement(
        s,
        c.attack.card,
        combat_strength(b, s, c, c.attacker),
        a_side,
        c.defence.card,
        combat_strength(b, s, c, defender),
    )
    shown = []
    for judged in (c.attack, c.defence):
        if (
            judged.origin != HAND
            and winner != "tie"  # RKS-8.7.4: after a tie both cards are discarded
            and s.variant.is_("played_step", "returned")
            and b.unit(s, judged.origin).area is not None
        ):
            s = _return(b, s, judged, exposed=True)
        else:
            shown.append(judged)
    s = _dispose(b, s, list(c.spent))  # replaced by a raise, never revealed (RKS-8.6.1)
    s = _dispose(b, s, shown, revealed=True)  # revealed at judgement (RKS-8.7.1)
    c = _cleared(c)
    if winner == "tie":
        effects = c.effects if s.variant.is_("effect_duration", "through_repeats") else ()
        s = attrs.evolve(s, combat=attrs.evolve(c, refight=True, effects=effects))
        return begin_round(b, s)  # RKS-8.7.4, RKS-8.2.4: the round again, the same units
    loser = a_side if winner == "defender" else other(a_side)
    s = attrs.evolve(s, combat=attrs.evolve(c, loser=loser))
    return begin_damage(b, s, c.attacker if loser == a_side else defender, "combat")


def _cleared(c: Combat) -> Combat:
    """The combat with its table cleared, once the cards are lost or returned."""
    return attrs.evolve(c, attack=None, defence=None, spent=(), raiser=None)


def _return(b: Board, s: RKState, p: Placed, *, exposed: bool = False) -> RKState:
    """A card back where it came from (AMB-RKS-7)."""
    if p.origin == HAND:
        return s.with_hand(p.side, s.hand(p.side) | {p.card})
    s = b.update(s, p.origin, steps=b.unit(s, p.origin).steps | {p.card})
    return attrs.evolve(s, exposed=s.exposed | {p.card}) if exposed else s


def _dispose(b: Board, s: RKState, table: list[Placed], *, revealed: bool = False) -> RKState:
    """Cards on the table are lost: to the discard pile, face up only if `revealed` by the
    judgement (RKS-8.7.1) and the `discard_faces` reading says so."""
    s = discard(s, (p.card for p in table if p.origin == HAND), revealed=revealed)
    return discard(s, (p.card for p in table if p.origin != HAND), steps=True, revealed=revealed)
