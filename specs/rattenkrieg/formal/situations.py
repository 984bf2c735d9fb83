"""Where two readings of a Rattenkrieg option answer differently: each option's situation as a
distance over a state (`reading_situations`, offered to the ambiguity explorer by the game:
`game.Rattenkrieg`, `solvers.checking.situations`).

A distance is 0 at a position where the readings' inputs differ, so that the next step (an
action, or a card drawn) may show the difference; elsewhere it counts the situation's
conditions still missing, nearest first, so that a best-first search from played positions
closes in on it. Every condition is the rules' own predicate, computed with the rules' own
helpers (strengths, judgement, retreats, the refill target), never a position written by
hand. bombard_isolation's is in `situations_bombard`.

The "next combat" events (Combat Engineer, Molotov Cocktail, General Chuikov: RKS-9.5.1,
RKS-9.7.1, RKS-9.8.1) share one approach (`effect_level`): a card of the event in the hand of
the side to play, an acting unit of that side, the event played (in force for it,
`RKState.effects`), the moves to an enemy to fight, then a combat with the event in force.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from specs.rattenkrieg.formal.situations_bombard import bombard_isolation
from specs.rattenkrieg.rules.board import Board
from specs.rattenkrieg.rules.cards import event_of
from specs.rattenkrieg.rules.combat import NEXT_COMBAT, attacker_side, fighter
from specs.rattenkrieg.rules.eventcards import LASTING, event_problem
from specs.rattenkrieg.rules.sequence import recruiting_order, refill_target
from specs.rattenkrieg.rules.sources import combat_cards
from specs.rattenkrieg.rules.state import GE, SIDES, SU, Combat, Phase, RKState, Stage, Step, other
from specs.rattenkrieg.rules.strength import combat_strength, judgement

Distance = Callable[[RKState], int]

FAR = 4
"""Moves counted toward an enemy at most (the map's widest gap, Rear to Rear, is shorter)."""
IN_FORCE, HELD, ACTING = 1, 1 + FAR + 1, 1
"""The steps of `effect_level`: a combat with the event is 0; the event in force for the acting
unit `IN_FORCE` plus the moves to an enemy (`hops`); the card held `HELD` (+`ACTING` with no
acting unit of that side, +2 while every enemy unit is in its Rear); no card of it `NO_CARD`,
above them all."""
NO_CARD = HELD + ACTING + 3


def hops(b: Board, s: RKState, unit: str) -> int:
    """Moves from `unit`'s Area to the nearest Area with an enemy unit it may attack (0: one is
    in its own Area, RKS-7.1.2, RKS-8.1.1; none in the enemy Rear, RKS-3.5.1), at most `FAR`,
    and two more when there is no such Area at all (the enemy still in its Rear)."""
    here = b.unit(s, unit).area
    if here is None:
        return FAR
    enemy = other(b.side_of[unit])
    rear = b.enemy_rear(b.side_of[unit])
    held = {u.area for u in s.units if b.side_of[u.id] == enemy and u.area not in (None, rear)}
    if not held:
        return FAR + 2  # every enemy unit in its Rear or off the map: none to fight
    seen, ring = {here}, [here]
    for n in range(FAR):
        if held.intersection(ring):
            return n
        ring = [a for x in ring for a in b.adjacent[x] if a not in seen and a != rear]
        seen.update(ring)
    return FAR


def effect_level(b: Board, s: RKState, kinds: Iterable[str]) -> int:
    """How far play is from a combat with one of the "next combat" events `kinds` in force
    (RKS-9.5.1, RKS-9.7.1, RKS-9.8.1): 0 once it is; then the event in force for the acting
    unit (and its moves to an enemy), a card of it in the playing side's hand (RKS-9.1.3),
    none (`NO_CARD`)."""
    wanted = tuple(kinds)
    c = s.combat
    if c is not None and c.cause == "combat" and any(k in c.effects for k in wanted):
        return 0
    if s.phase != Phase.PLAYER_TURNS:
        return NO_CARD
    if s.acting is not None and any(k in s.effects for k in wanted):
        return IN_FORCE + hops(b, s, s.acting)
    if any(event_of(s.player, card) in wanted for card in s.hand(s.player)):
        acting = s.acting is not None and s.stage == Stage.ACTIVE
        unit = s.acting or next(u.id for u in s.units if b.side_of[u.id] == s.player)
        return HELD + (0 if acting else ACTING) + (2 if hops(b, s, unit) > FAR else 0)
    return NO_CARD


def _combat_with(b: Board, s: RKState, kinds: Iterable[str]) -> Combat | None:
    """The combat under way when one of `kinds` is in force in it (None otherwise)."""
    return s.combat if effect_level(b, s, kinds) == 0 else None


def chuikov_raises(b: Board) -> Distance:
    """chuikov_raises (AMB-RKS-20 iii; RKS-9.8.1, RKS-8.6.1): the readings part when the
    Soviet attacker, under General Chuikov, puts his declaration after the German's: the raises
    then begin with the German (`german_first`) or with the attacker (`declaration_only`).
    0: a combat with Chuikov in force at the Soviet's declaration (RKS-9.8.1: the German has
    put his card); 1 and 2: at the German's declaration, at the choice of defender."""

    def distance(s: RKState) -> int:
        c = _combat_with(b, s, ("chuikov",))
        if c is None:
            return effect_level(b, s, ("chuikov",)) + 3
        if s.stage != Stage.COMBAT:
            return 3
        return {Step.ATTACK: 0, Step.DEFENCE: 1, Step.CHOOSE: 2}.get(c.step, 3)

    return distance


def _tie(b: Board, s: RKState, c: Combat, attack: str, defence: str) -> bool:
    """Whether the round is a tie (RKS-8.7.4) with `attack` and `defence` on the table."""
    assert c.defender is not None
    a_strength = combat_strength(b, s, c, c.attacker)
    d_strength = combat_strength(b, s, c, c.defender)
    return judgement(s, attack, a_strength, attacker_side(b, c), defence, d_strength)[0] == "tie"


def _cards(b: Board, s: RKState, c: Combat, side: str) -> list[str]:
    """The cards `side` may put down in the combat (RKS-8.4.1, RKS-8.5.2, RKS-8.10.4)."""
    unit = fighter(b, c, side)
    return [] if unit is None else [card for card, _ in combat_cards(b, s, unit)]


DEAD = NO_CARD + 5
"""A combat in which no card either side may still put down makes a tie: above every position
before a combat (`effect_duration`), so the search turns back to others."""


def _tie_level(b: Board, s: RKState, c: Combat) -> int:
    """How far the round is from a tie that letting the cards stand would judge: 0 with the
    cards on the table a tie at the raises; 1 when the side to put a card down (a raise, or the
    second declaration) holds one that makes it a tie; 2 when one of each side's cards would
    at the first declaration; 3 at the raises otherwise (the other side may still answer);
    4 before the declarations; `DEAD` when no card left makes one, or once the round is judged
    (the repeat of a tie aside, the combat's next round is a new combat: RKS-8.11.2)."""
    if s.stage != Stage.COMBAT:
        return DEAD  # judged: the damage and what follows (RKS-8.9.1 to RKS-8.11.2)
    if c.step == Step.CHOOSE or c.defender is None:
        return 4
    a_side = attacker_side(b, c)
    attack, defence = c.attack, c.defence
    mine = _cards(b, s, c, a_side)
    theirs = _cards(b, s, c, other(a_side))
    if attack is not None and defence is not None:
        if c.step == Step.RAISE and _tie(b, s, c, attack.card, defence.card):
            return 0
        if c.raiser == a_side and any(_tie(b, s, c, x, defence.card) for x in mine):
            return 1
        if c.raiser != a_side and any(_tie(b, s, c, attack.card, x) for x in theirs):
            return 1
        return 3
    if attack is not None:
        return 1 if any(_tie(b, s, c, attack.card, x) for x in theirs) else DEAD
    if defence is not None:
        return 1 if any(_tie(b, s, c, x, defence.card) for x in mine) else DEAD
    return 2 if any(_tie(b, s, c, x, y) for x in mine for y in theirs) else DEAD


def _tie_near(b: Board, s: RKState) -> bool:
    """Whether the acting unit could fight an enemy unit in its Area or next to it with a pair
    of cards (one each) that makes a tie (RKS-8.7.4), the events in force counted."""
    acting = s.acting
    if acting is None:
        return False
    here = b.unit(s, acting).area
    assert here is not None
    effects = tuple(e for e in s.effects if e in NEXT_COMBAT)
    mine = [card for card, _ in combat_cards(b, s, acting)]
    for u in s.units:
        if b.side_of[u.id] == b.side_of[acting] or u.area not in (here, *b.adjacent[here]):
            continue
        c = Combat(u.area, acting, Step.ATTACK, defender=u.id, effects=effects)
        theirs = [card for card, _ in combat_cards(b, s, u.id)]
        if any(_tie(b, s, c, x, y) for x in mine for y in theirs):
            return True
    return False


def effect_duration(b: Board) -> Distance:
    """effect_duration (AMB-RKS-20 iv; RKS-9.5.1, RKS-9.7.1, RKS-9.8.1, RKS-8.7.4): the
    readings part when a combat with a "next combat" event in force is a tie: the repeat keeps
    the event (`through_repeats`) or drops it (`first_round`). 0: at the raises (RKS-8.6.1)
    with the cards on the table a tie (RKS-8.7.3, RKS-8.7.4), so letting them stand judges it;
    above it, the cards that would make one (`_tie_level`), then the event's approach, one
    more while no enemy within reach could make a tie with the acting unit (`_tie_near`)."""

    def distance(s: RKState) -> int:
        c = _combat_with(b, s, NEXT_COMBAT)
        if c is None:
            level = effect_level(b, s, NEXT_COMBAT)
            return level + 4 + (level <= IN_FORCE + 1 and not _tie_near(b, s))
        return _tie_level(b, s, c)

    return distance


def reattack_effects(b: Board) -> Distance:
    """reattack_effects (found here; RKS-8.11.2, RKS-9.5.1, RKS-9.7.1, RKS-9.8.1): the
    readings part when the attacker of a combat fought with a "next combat" event must attack
    again (both sides remain): the event is spent or carried into the new combat. 0: that
    decision (`Stage.CONTINUE`) with the event in the combat's record and a card to attack
    again with (RKS-8.4.1); 1: the combat still under way; 2: no card to attack with, so only
    a retreat is left."""

    def distance(s: RKState) -> int:
        c = _combat_with(b, s, NEXT_COMBAT)
        if c is None:
            return effect_level(b, s, NEXT_COMBAT) + 1
        if s.stage != Stage.CONTINUE:
            return 1
        return 0 if combat_cards(b, s, c.attacker) else 2  # RKS-8.4.1: a card to attack with

    return distance


LASTING_OF = {
    GE: tuple(k for k in LASTING if k in ("assault_gun", "engineer")),  # RKS-9.1.1: black Q, K
    SU: tuple(k for k in LASTING if k in ("molotov", "chuikov")),  # RKS-9.1.2: red Q, K
}
"""The events of each side that stay in force for the acting unit (RKS-9.4.1 to RKS-9.8.1)."""


def _playable(b: Board, s: RKState, card: str) -> bool:
    """The acting unit may play `card` as its event now (RKS-9.1.3; not an Assault Gun for a
    Panzer Division under assault_gun_on_panzer=not_played, RKS-9.4.1)."""
    return event_problem(b, s, card, None) is None


def effect_stacking(b: Board) -> Distance:
    """effect_stacking (AMB-RKS-20 iv; RKS-9.4.1, RKS-9.7.1): the readings part when an acting
    unit plays a second card of an event already in force for it: the second adds its +2
    (`stack`) or nothing (`once`). Each event has two cards (RKS-9.1.1, RKS-9.1.2), and an
    activation draws none, so both must be in hand when it starts. 0: the acting unit's side
    holds a card of an event in force for it, at its operations (RKS-7.1.2); else two for each
    card of one event still to come into the hand, one for the event not yet in force, one
    with no acting unit of that side at its operations."""

    def distance(s: RKState) -> int:
        best = 2 * 2 + 1 + ACTING
        if s.phase != Phase.PLAYER_TURNS:
            return best
        for side in SIDES:
            acting = s.acting is not None and b.side_of[s.acting] == side
            ready = acting and s.stage == Stage.ACTIVE and side == s.player
            for kind in LASTING_OF[side]:
                cards = [card for card in s.hand(side) if event_of(side, card) == kind]
                held = len(cards)
                if ready and kind in s.effects and any(_playable(b, s, x) for x in cards):
                    return 0
                best = min(best, 2 * max(0, 2 - held) + 1 + (0 if ready else ACTING))
        return best

    return distance


def hand_limit(b: Board) -> Distance:
    """hand_limit (AMB-RKS-19; RKS-3.4.1, RKS-10.1.2, RKS-10.2.1): the readings part at a
    Recruiting Phase discard (RKS-10.1.1) of a hand larger than the refill target (3 cards, or
    4 for the side occupying Mamayev Kurgan): a hard limit makes the player discard down to it.
    0: that discard; else the cards a side still to discard lacks for it, plus one unless that
    side is discarding now."""

    def distance(s: RKState) -> int:
        if s.phase == Phase.RECRUITING:
            first, second = recruiting_order(s)
            now = s.stage == Stage.DISCARD
            sides = {s.player: 0 if now else 1}
            if s.player == first:
                sides[second] = 1
        elif s.phase in (Phase.PLAYER_TURNS, Phase.REINFORCEMENT):
            sides = {side: 1 for side in SIDES}
        else:
            return 1 + refill_target(b, s, GE)
        return min(
            max(0, refill_target(b, s, side) + 1 - len(s.hand(side))) + extra
            for side, extra in sides.items()
        )

    return distance


def reading_situations(b: Board) -> Mapping[str, Distance]:
    """The option -> distance mapping the explorer asks for
    (`solvers.checking.situations`), each bound to the game's board."""
    return {
        "bombard_isolation": bombard_isolation(b),
        "hand_limit": hand_limit(b),
        "chuikov_raises": chuikov_raises(b),
        "effect_duration": effect_duration(b),
        "effect_stacking": effect_stacking(b),
        "reattack_effects": reattack_effects(b),
    }
