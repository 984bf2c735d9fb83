"""Face cards played as events (RKS-9.1.1 to RKS-9.8.2).

Events are operations of the acting unit, played from the hand and discarded (RKS-9.1.3,
AMB-RKS-20). Bombardment and Air Force Support draw a card from the deck (a chance step) and
damage the target when it hits (RKS-9.2.2, RKS-9.3.1); the Sniper's card is picked at random
(RKS-9.6.1, a chance step). The other events stay in force for the acting unit: Assault Gun
until its action ends (RKS-9.4.1), Combat Engineer, Molotov Cocktail and General Chuikov for
its next combat (RKS-9.5.1, RKS-9.7.1, RKS-9.8.1).
"""

from __future__ import annotations

import attrs

from specs.rattenkrieg.rules.board import Board
from specs.rattenkrieg.rules.cards import event_of
from specs.rattenkrieg.rules.damage import begin_damage, continuation
from specs.rattenkrieg.rules.pile import can_draw, discard, refresh_deck
from specs.rattenkrieg.rules.sequence import end_player_turn
from specs.rattenkrieg.rules.sources import event_cards, may_operate
from specs.rattenkrieg.rules.state import GE, HAND, SU, DrawFor, Pick, RKState, Stage
from specs.rattenkrieg.rules.strength import bombard_hits
from specs.rattenkrieg.rules.units import spend_step

Problem = tuple[str, str]
WITHOUT_UNIT = ("sniper", "chuikov")  # events whose text names no acting unit (AMB-RKS-20 ii)
LASTING = ("assault_gun", "engineer", "molotov", "chuikov")


def event_problem(b: Board, s: RKState, card: str, target: str | None) -> Problem | None:
    """Whether the player may play `card` as an event now, against `target` if it needs one."""
    side = s.player
    kind = event_of(side, card)
    table = "RKS-9.1.1" if side == GE else "RKS-9.1.2"
    if kind is None:
        return table, f"{card} is not a face card; only face cards are events"
    if card not in {c for c, _ in event_cards(b, s)}:
        return "RKS-9.1.3", f"{card} is not in {side}'s hand (events come from the hand)"
    if s.stage == Stage.CONTINUE:
        # RKS-8.11.2, RKS-7.1.3 (option reattack_events=none; effects: the events for the
        # re-attack may come first)
        if s.variant.is_("reattack_events", "none"):
            return "RKS-8.11.2", "the attacker must attack again or retreat"
        if kind not in LASTING:
            return "RKS-8.11.2", f"before attacking again only an event for the unit ({kind})"
    if s.acting is None:
        if not (
            s.variant.is_("event_timing", "player_turn_too")
            and (kind == "sniper" or (kind == "chuikov" and target is not None))
        ):
            return "RKS-9.1.3", "an event is an operation of the acting unit (AMB-RKS-20)"
    elif not may_operate(b, s):
        return "RKS-7.1.3", "the acting unit may operate only as far as there is a card"
    if kind in ("bombardment", "air_support"):
        return _target_problem(b, s, kind, target)
    if kind == "chuikov" and target is not None:
        if b.side_of[target] != SU or b.unit(s, target).area is None:
            return "RKS-9.8.2", f"{target} is not a Soviet unit on the map"
        if not b.unit(s, target).flipped:
            return "RKS-9.8.2", f"{target} is already face up"
        return None
    if target is not None:
        return table, f"this event ({kind}) takes no target"
    if (
        kind == "assault_gun"
        and _on_panzer(b, s)
        and not s.variant.is_("assault_gun_on_panzer", "no_effect")
    ):
        return "RKS-9.4.1", "Assault Gun does nothing for a Panzer Division"
    return None


def _on_panzer(b: Board, s: RKState) -> bool:
    """The acting unit is a Panzer Division, for which the Assault Gun does nothing (RKS-9.4.1)."""
    return s.acting is not None and b.specs[s.acting].type == "panzer"


def _target_problem(b: Board, s: RKState, kind: str, target: str | None) -> Problem | None:
    clause = "RKS-9.2.1" if kind == "bombardment" else "RKS-9.3.1"
    assert s.acting is not None
    if target is None:
        return clause, f"name the enemy unit for the {kind.replace('_', ' ')}"
    t = b.unit(s, target)
    if b.side_of[target] == s.player or t.area is None:
        return clause, f"{target} is not an enemy unit on the map"
    here = b.unit(s, s.acting).area
    assert here is not None
    if t.area != here and t.area not in b.adjacent[here]:
        return clause, f"{target} is neither in {b.name(here)} nor next to it"
    if t.area == b.enemy_rear(s.player):
        return "RKS-9.2.4", "units in the enemy Rear may not be bombarded"
    if kind == "bombardment" and s.player == GE and b.is_tank(target):
        return "RKS-9.2.5", "the Germans may not bombard the T-34 (Air Force Support may)"
    if not can_draw(s):
        return "RKS-3.4.3", "no card is left to draw"
    return None


def play_event(b: Board, s: RKState, card: str, target: str | None) -> RKState:
    """The card is discarded and its event happens (RKS-9.1.3)."""
    side = s.player
    kind = event_of(side, card)
    assert kind is not None
    origin = dict(event_cards(b, s))[card]
    if origin == HAND:  # an event is played openly (RKS-9.1.3): its card is revealed
        s = discard(s.with_hand(side, s.hand(side) - {card}), (card,), revealed=True)
    else:
        s = spend_step(b, s, origin, card, revealed=True)  # AMB-RKS-20 (i), hand_or_step
    if s.acting is not None:
        s = attrs.evolve(s, acted=True)
    if kind in ("bombardment", "air_support"):
        assert target is not None
        return refresh_deck(attrs.evolve(s, stage=Stage.DRAW, draws=(DrawFor(kind, target),)))
    if kind == "sniper":
        if s.hand(GE):
            return attrs.evolve(s, stage=Stage.PICK, pick=Pick("sniper", GE))  # RKS-9.6.1
        return after_event(b, s)
    if kind == "chuikov" and target is not None:
        return after_event(b, b.update(s, target, flipped=False))  # RKS-9.8.2
    if kind == "assault_gun" and _on_panzer(b, s):
        return after_event(b, s)  # played for nothing (assault_gun_on_panzer=no_effect)
    in_force = s.effects
    if s.stage == Stage.CONTINUE and s.combat is not None:
        # RKS-8.11.2, RKS-9.7.1 (option reattack_effects=spent: the last combat's events are
        # spent now; carried: they stay in force for the re-attack)
        c = s.combat
        if s.variant.is_("reattack_effects", "spent"):
            c = attrs.evolve(c, effects=())
            s = attrs.evolve(s, combat=c)
        in_force = (*s.effects, *c.effects)
    if kind in in_force and s.variant.is_("effect_stacking", "once"):
        return after_event(b, s)
    return after_event(b, attrs.evolve(s, effects=(*s.effects, kind)))


def after_event(b: Board, s: RKState) -> RKState:
    """Back to the acting unit, or the end of a Player Turn spent on an event (AMB-RKS-20)."""
    if s.acting is not None:
        if s.stage == Stage.CONTINUE:  # RKS-8.11.2 (option reattack_events=effects)
            return continuation(b, attrs.evolve(s, pick=None))
        return attrs.evolve(s, stage=Stage.ACTIVE, pick=None)
    s = attrs.evolve(s, pick=None)
    return end_player_turn(b, s, s.variant.is_("pass_rule", "every_turn"))


def bombardment_draw(b: Board, s: RKState, card: str) -> RKState:
    """The drawn card damages the target if it hits (RKS-9.2.2, RKS-9.2.3, RKS-9.3.1); it is
    then discarded."""
    head = s.draws[0]
    s = refresh_deck(attrs.evolve(s, deck=s.deck - {card}, draws=()))  # RKS-3.4.3
    s = discard(s, (card,), revealed=True)  # both players see the card drawn (RKS-9.2.2)
    if bombard_hits(b, s, head.kind, head.who, card):
        return begin_damage(b, s, head.who, head.kind)
    return after_event(b, s)


def sniper_pick(b: Board, s: RKState, card: str) -> RKState:
    """The German card picked at random is discarded (RKS-9.6.1), face down unless every
    discard lies face up (`discard_faces`)."""
    s = discard(s.with_hand(GE, s.hand(GE) - {card}), (card,))
    return after_event(b, s)
