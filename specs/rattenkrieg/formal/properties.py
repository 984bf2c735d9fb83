"""Rattenkrieg's properties: what the rules must keep true in every position and step, for
tests, playouts, the prover (kernel.properties) and the position check.

Each invariant is written once, as a function of the map and counter set and a position that
finds where the position breaks it (the JSON field, the clause and what is wrong, a `Breach`) or
returns None: the cards' in `invariants_cards`, the map's in `invariants_map`, the sequence of
play's in `invariants_sequence`, set-up's and the queued draws' in `invariants_draws`, the acting
unit's operations' in `invariants_operations`, a combat's in `invariants_combat`, and what follows
a result in `invariants_aftermath`. `INVARIANTS` lists them; `invariants(b)` binds them to one map.
Each one's `Property.state_check` is its function's "no breach"; `validate.check_position` runs the
same functions on every position it reads and names the field, the clause and the property ID
of the first breach. Each invariant finder may assume that the invariants before it in
`invariants(b)` hold.

Expected verdicts are per preset. Every invariant here is stated so that it holds under every
reading (where it depends on one, its statement says which), so each is expected to hold under
every preset, and the random-variant playouts check them under random readings. Play can go on
without end (RKS-7.2.1: a unit "may move endlessly" between friendly-controlled Areas), so
`RKS-P-ENDS` is expected to fail; the witness is a lasso found by `kernel.playout`.
`RKS-P-LOOP` shows why everything else ends: no step of the Player Turn loop adds face-up units
or hand cards, and every activation or recruit flips a unit, so the number of Player Turns that
are not passes is bounded.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable
from typing import Any

import attrs

from kernel.properties import Property, Verdict
from specs.rattenkrieg.data.variants import PRESETS
from specs.rattenkrieg.formal import (
    invariants_aftermath,
    invariants_cards,
    invariants_combat,
    invariants_draws,
    invariants_map,
    invariants_operations,
    invariants_sequence,
)
from specs.rattenkrieg.formal.breach import Breach
from specs.rattenkrieg.formal.invariants_combat import on_table
from specs.rattenkrieg.rules.actions import Designate, Move, Recruit
from specs.rattenkrieg.rules.board import Board
from specs.rattenkrieg.rules.cards import DECK
from specs.rattenkrieg.rules.state import HAND, Phase, RKState


@attrs.frozen
class Invariant:
    """An invariant property and the function that finds its breach in a position."""

    prop: Property
    find: Callable[[RKState], Breach | None]


def card_places(s: RKState) -> Counter[str]:
    """How many places hold each card: deck, discards, out of play, hands, steps, the table."""
    places: Counter[str] = Counter()
    for pile in (s.deck, s.discards, s.removed, s.hand_ge, s.hand_su):
        places.update(pile)
    for u in s.units:
        places.update(u.steps)
    if s.combat is not None:
        places.update(p.card for p in on_table(s.combat))
    return places


def cards_accounted(s: RKState) -> bool:
    """Each of the 52 cards is in exactly one place (RKS-2.4.1, RKS-3.4.2)."""
    places = card_places(s)
    return set(places) == DECK and all(n == 1 for n in places.values())


def actors(action: Any) -> frozenset[str]:
    """The units an action makes act (RKS-P-FLIPPED): the unit designated (RKS-7.1.1) or
    recruiting (RKS-7.5.1), the T-34 moving along (RKS-8.12.4)."""
    if isinstance(action, Designate | Recruit):
        return frozenset({action.unit})
    if isinstance(action, Move) and action.escort is not None:
        return frozenset({action.escort})
    return frozenset()


def loop_measure(s: RKState) -> int:
    """Face-up units on the map, plus hand cards, plus hand cards on the combat table (which
    may go back to the hand, AMB-RKS-7 ii)."""
    face_up = sum(1 for u in s.units if u.area is not None and not u.flipped)
    table = 0
    if s.combat is not None:
        table = sum(1 for p in on_table(s.combat) if p.origin == HAND)
    return face_up + len(s.hand_ge) + len(s.hand_su) + table


Find = Callable[[Board, RKState], Breach | None]
"""An invariant's finder: the first breach of the invariant in a position on a map, or None."""

INVARIANTS: tuple[tuple[str, tuple[str, ...], str, Find], ...] = (
    (
        "RKS-P-CARDS",
        ("RKS-2.4.1", "RKS-3.4.2", "RKS-3.4.3"),
        "the 52 cards are always all accounted for: each is in the deck, the discards, a "
        "hand, a unit's steps, on the combat table, or out of play",
        invariants_cards.cards,
    ),
    (
        "RKS-P-STEPS",
        ("RKS-3.3.1", "RKS-7.5.3", "RKS-8.12.1"),
        "no unit ever has more steps than at set-up",
        invariants_cards.steps,
    ),
    (
        "RKS-P-HAND",
        ("RKS-3.4.1", "RKS-10.1.2", "RKS-10.2.1"),
        "no hand holds more than 4 cards, and before the first Recruiting Phase no more "
        "than was dealt: hands grow only by the deal and the refill",
        invariants_cards.hands,
    ),
    (
        "RKS-P-FACES",
        ("RKS-3.3.3", "RKS-3.4.3", "RKS-8.7.1"),
        "the face-up cards are discarded or removed ones, all of them or none as "
        "`discard_faces` says; exposed step cards and removed cards exist only by the "
        "readings of AMB-RKS-7 that make them",
        invariants_cards.faces,
    ),
    (
        "RKS-P-REAR",
        ("RKS-3.5.1",),
        "no unit is ever in the enemy Rear",
        invariants_map.rears_respected,
    ),
    (
        "RKS-P-UNITS",
        ("RKS-3.1.1", "RKS-3.2.1", "RKS-6.1.1", "RKS-6.2.1", "RKS-8.9.2", "RKS-6.3.1"),
        "every unit is on the map, eliminated once in a turn played since it arrived, "
        "still to come as a reinforcement, or a Rifle still to be placed",
        invariants_map.units_accounted,
    ),
    (
        "RKS-P-CONTROL",
        ("RKS-3.6.1", "RKS-3.6.2", "RKS-3.6.3", "RKS-8.10.6"),
        "control follows the definition: an Area whose counted (non-isolated) units are of "
        "one side belongs to it, an Area has no controller only by AMB-RKS-11 b, and no "
        "unit is isolated where its own side controls",
        invariants_map.control_defined,
    ),
    (
        "RKS-P-SEQUENCE",
        ("RKS-5.1.1", "RKS-5.1.2", "RKS-7.1.1", "RKS-8.2.2", "RKS-10.3.1"),
        "each phase has its stages and each stage its records: a combat, damage, a pending "
        "move, queued draws, a random pick, an acting unit and a result appear only where "
        "the rules make them (proved whole; its part RKS-P-STAGES is proved first)",
        invariants_sequence.sequenced,
    ),
    (
        "RKS-P-STAGES",
        ("RKS-5.1.1", "RKS-3.1.1", "RKS-4.1.1", "RKS-7.3.1", "RKS-3.4.3"),
        "the part of RKS-P-SEQUENCE proved first over the abstraction: each phase has its "
        "stages, set-up is Turn 1 with the Soviet player, Reinforcement Phases come from "
        "Turn 2 and the game ends in Turn 6; a result, a move waiting for its card and "
        "queued draws exist exactly in their stages",
        invariants_sequence.stages,
    ),
    (
        "RKS-P-SETUP",
        ("RKS-3.1.1", "RKS-3.1.2", "RKS-3.2.1", "RKS-3.3.1", "RKS-3.4.1", "RKS-3.6.1"),
        "during set-up the units stand where they start, the Rifles go one by one on the "
        "Normal Areas, and the steps and hands are dealt in order",
        invariants_draws.set_up,
    ),
    (
        "RKS-P-DRAWS",
        ("RKS-3.4.3", "RKS-6.1.2", "RKS-6.2.2", "RKS-7.5.1", "RKS-9.2.2", "RKS-10.1.2"),
        "every queued draw is one the rules make at that point: a reinforcement's steps, a "
        "refill up to the hand's target, a recruit's step, a bombardment's card",
        invariants_draws.draws_fit,
    ),
    (
        "RKS-P-PAY",
        ("RKS-7.3.1", "RKS-8.12.4", "RKS-8.10.3"),
        "a move waiting for its card enters an adjacent empty enemy Area, and there is a "
        "card to pay with",
        invariants_operations.pending_fits,
    ),
    (
        "RKS-P-EFFECTS",
        ("RKS-9.1.1", "RKS-9.1.2", "RKS-9.4.1", "RKS-9.5.1", "RKS-9.7.1", "RKS-9.8.1"),
        "the events in force are the acting side's, at most as many as there are cards",
        invariants_operations.effects_fit,
    ),
    (
        "RKS-P-COMBAT",
        ("RKS-8.1.1", "RKS-8.2.2", "RKS-8.2.3", "RKS-8.3.1", "RKS-8.6.1", "RKS-8.12.3"),
        "a combat's record fits its stage and step: the acting unit attacks an enemy unit "
        "of its Area, the cards on the table are the fighters' own, raises alternate "
        "(proved over the abstraction with its part RKS-P-COMBATANTS under raising=one_each, "
        "both presets; tested on playouts under raising=alternating)",
        invariants_combat.combat_fits,
    ),
    (
        "RKS-P-COMBATANTS",
        ("RKS-8.2.2", "RKS-8.2.3", "RKS-8.12.3", "RKS-3.5.1"),
        "the part of RKS-P-COMBAT proved first over the abstraction: a combat is fought in a "
        "Stalingrad Area, its attacker is the acting unit, its defender an enemy unit, its "
        "support a Soviet T-34",
        invariants_combat.combatants,
    ),
    (
        "RKS-P-AFTERMATH",
        ("RKS-8.9.1", "RKS-8.9.2", "RKS-8.10.2", "RKS-8.11.2", "RKS-9.2.2", "RKS-9.6.1"),
        "damage, a random pick, the remaining units and the continuation each wait for a "
        "decision the rules ask for (proved over the abstraction with its part RKS-P-PICKS)",
        invariants_aftermath.aftermath,
    ),
    (
        "RKS-P-PICKS",
        ("RKS-8.9.1", "RKS-8.12.1", "RKS-9.2.1", "RKS-9.6.1"),
        "the part of RKS-P-AFTERMATH proved over the abstraction: the damaged unit is on "
        "the map and, if bombarded, no T-34 and its event's target, a random step pick is "
        "the damaged unit's (lost_step=random) and it has a step, the Sniper picks for the "
        "Soviet from a non-empty German hand",
        invariants_aftermath.picks,
    ),
    (
        "RKS-P-RESULT",
        ("RKS-4.1.1",),
        "a finished game's result is the victory condition's",
        invariants_sequence.result_fits,
    ),
)
"""Each invariant's ID, clauses, statement and finder, in the order the position check runs
them (each finder may assume that those before it hold)."""


def invariants(b: Board) -> tuple[Invariant, ...]:
    """The invariants, bound to one map and counter set, in the order the position check
    runs them."""
    holds: dict[str, Verdict] = dict.fromkeys(PRESETS, "holds")
    return tuple(
        _invariant(pid, clauses, statement, holds, functools.partial(find, b))
        for pid, clauses, statement, find in INVARIANTS
    )


def _invariant(
    pid: str,
    clauses: tuple[str, ...],
    statement: str,
    expected: dict[str, Verdict],
    find: Callable[[RKState], Breach | None],
) -> Invariant:
    """The property of an invariant whose breaches `find` finds: it holds where none is."""
    prop = Property(
        pid, clauses, statement, "invariant", expected, state_check=lambda s: find(s) is None
    )
    return Invariant(prop, find)


def properties(b: Board) -> tuple[Property, ...]:
    """The properties, bound to one map and counter set."""
    holds: dict[str, Verdict] = dict.fromkeys(PRESETS, "holds")
    fails: dict[str, Verdict] = dict.fromkeys(PRESETS, "fails")

    def flipped_idle(before: RKState, action: Any, after: RKState) -> bool:
        return not any(b.unit(before, u).flipped for u in actors(action))

    def loop_never_grows(before: RKState, action: Any, after: RKState) -> bool:
        if not (before.phase == after.phase == Phase.PLAYER_TURNS and before.turn == after.turn):
            return True
        return loop_measure(after) <= loop_measure(before)

    return (
        *(i.prop for i in invariants(b)),
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
