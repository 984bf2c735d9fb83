"""Rattenkrieg's properties: what the rules must keep true in every position and step, for
tests, playouts and the prover (kernel.properties).

Expected verdicts are per preset. Play can go on without end (RKS-7.2.1: a unit "may move
endlessly" between friendly-controlled Areas), so `RKS-P-ENDS` is expected to fail; the
witness is a lasso found by `kernel.playout`. `RKS-P-LOOP` shows why everything else ends: no
step of the Player Turn loop adds face-up units or hand cards, and every activation or recruit
flips a unit, so the number of Player Turns that are not passes is bounded.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from kernel.properties import Property, Verdict
from specs.rattenkrieg.actions import Designate, Move, Recruit
from specs.rattenkrieg.board import Board
from specs.rattenkrieg.cards import DECK
from specs.rattenkrieg.control import control_by_definition
from specs.rattenkrieg.state import HAND, Phase, RKState
from specs.rattenkrieg.variants import PRESETS


def card_places(s: RKState) -> Counter[str]:
    """How many places hold each card: deck, discards, out of play, hands, steps, the table."""
    places: Counter[str] = Counter()
    for pile in (s.deck, s.discards, s.removed, s.hand_ge, s.hand_su):
        places.update(pile)
    for u in s.units:
        places.update(u.steps)
    if s.combat is not None:
        c = s.combat
        places.update(p.card for p in (c.attack, c.defence, *c.spent) if p is not None)
    return places


def cards_accounted(s: RKState) -> bool:
    """Each of the 52 cards is in exactly one place (RKS-2.4.1, RKS-3.4.2)."""
    places = card_places(s)
    return set(places) == DECK and all(n == 1 for n in places.values())


def loop_measure(s: RKState) -> int:
    """Face-up units on the map, plus hand cards, plus hand cards on the combat table (which
    may go back to the hand, AMB-RKS-7 ii)."""
    face_up = sum(1 for u in s.units if u.area is not None and not u.flipped)
    table = 0
    if s.combat is not None:
        c = s.combat
        table = sum(
            1 for p in (c.attack, c.defence, *c.spent) if p is not None and p.origin == HAND
        )
    return face_up + len(s.hand_ge) + len(s.hand_su) + table


def properties(b: Board) -> tuple[Property, ...]:
    """The properties, bound to one map and counter set."""
    holds: dict[str, Verdict] = dict.fromkeys(PRESETS, "holds")
    fails: dict[str, Verdict] = dict.fromkeys(PRESETS, "fails")

    def steps_capped(s: RKState) -> bool:
        return all(len(u.steps) <= b.specs[u.id].steps for u in s.units)

    def control_defined(s: RKState) -> bool:
        for i, area in enumerate(b.stalingrad):
            if control_by_definition(b, s, area, s.control[i]) != s.control[i]:
                return False
        return not any(
            u.isolated
            and u.area is not None
            and (b.is_rear(u.area) or s.control[b.index[u.area]] == b.side_of[u.id])
            for u in s.units
        )

    def rears_respected(s: RKState) -> bool:
        return all(u.area != b.enemy_rear(b.side_of[u.id]) for u in s.units)

    def flipped_idle(before: RKState, action: Any, after: RKState) -> bool:
        actor: list[str] = []
        if isinstance(action, Designate | Recruit):
            actor.append(action.unit)
        if isinstance(action, Move) and action.escort is not None:
            actor.append(action.escort)
        return not any(b.unit(before, u).flipped for u in actor)

    def loop_never_grows(before: RKState, action: Any, after: RKState) -> bool:
        if not (before.phase == after.phase == Phase.PLAYER_TURNS and before.turn == after.turn):
            return True
        return loop_measure(after) <= loop_measure(before)

    return (
        Property(
            "RKS-P-CARDS",
            ("RKS-2.4.1", "RKS-3.4.2", "RKS-3.4.3"),
            "the 52 cards are always all accounted for: each is in the deck, the discards, a "
            "hand, a unit's steps, on the combat table, or out of play",
            "invariant",
            holds,
            state_check=cards_accounted,
        ),
        Property(
            "RKS-P-STEPS",
            ("RKS-3.3.1", "RKS-7.5.3"),
            "no unit ever has more steps than at set-up",
            "invariant",
            holds,
            state_check=steps_capped,
        ),
        Property(
            "RKS-P-FLIPPED",
            ("RKS-7.4.2", "RKS-7.5.2", "RKS-8.12.4", "RKS-10.3.1", "RKS-9.8.2"),
            "a flipped unit takes no action (is not designated, does not recruit, does not "
            "move along) until it is turned face up in the Recruiting Phase or by Chuikov",
            "step",
            holds,
            step_check=flipped_idle,
        ),
        Property(
            "RKS-P-CONTROL",
            ("RKS-3.6.2", "RKS-3.6.3", "RKS-8.10.6"),
            "control follows the definition: an Area whose counted (non-isolated) units are of "
            "one side belongs to it, and no unit is isolated where its own side controls",
            "invariant",
            holds,
            state_check=control_defined,
        ),
        Property(
            "RKS-P-REAR",
            ("RKS-3.5.1",),
            "no unit is ever in the enemy Rear",
            "invariant",
            holds,
            state_check=rears_respected,
        ),
        Property(
            "RKS-P-LOOP",
            ("RKS-5.1.2", "RKS-7.4.1", "RKS-7.5.1", "RKS-9.8.2"),
            "no step of the Player Turn loop raises face-up units plus hand cards, and each "
            "activation or recruit flips a unit: only boundedly many Player Turns are not passes",
            "step",
            holds,
            step_check=loop_never_grows,
        ),
        Property(
            "RKS-P-ENDS",
            ("RKS-5.1.2", "RKS-7.2.1"),
            "the Player Turn loop always ends: fails, because a unit may shuttle between two "
            "friendly-controlled Areas without end (RKS-7.2.1)",
            "ends",
            fails,
        ),
    )
