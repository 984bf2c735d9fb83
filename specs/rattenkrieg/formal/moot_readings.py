"""Reading pairs of Rattenkrieg that cannot differ, proved over the game's data
(`reading_proofs`, offered to the ambiguity explorer by the game: `game.Rattenkrieg`).

Each proof computes, under both readings, every value the option's reading feeds into, for
every input the rules can give it, and compares them: the combat strength of every fighting
unit (RKS-8.8.1 to RKS-8.8.3, RKS-8.12.3, RKS-9.4.1, RKS-9.5.1, RKS-9.7.1) and the strength
of every bombardment target (RKS-9.2.2, RKS-9.3.1). The inputs are finite: the units and
Areas of the data, the T-34s that may support, and the events in force, which the position
check holds to the acting side's own (`invariants_operations.EVENTS_OF`, RKS-9.1.1), the
"next combat" ones in the combat, two cards of each at most (RKS-9.1.1). These two readings
are read nowhere else (`rules.strength` is the one module that names them), so equal values
everywhere mean the same game. A single difference, under the variants handed in, makes the
proof fail (None), so a preset whose other readings let the two part ways gets no proof.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import attrs

from kernel.variants import Variant
from specs.rattenkrieg.formal.invariants_operations import EVENTS_OF, NEXT_COMBAT
from specs.rattenkrieg.rules.board import Board
from specs.rattenkrieg.rules.state import Combat, RKState, Step
from specs.rattenkrieg.rules.strength import bombard_strength, combat_strength

MOST = 2
"""Cards of each event in the deck (RKS-9.1.1): the most of one event in force at once."""

BOMBARDS = ("bombardment", "air_support")  # RKS-9.2.2, RKS-9.3.1

Proof = Callable[[Variant, Variant], str | None]


def _counts(events: tuple[str, ...]) -> Iterator[tuple[str, ...]]:
    """Every multiset of `events` with at most `MOST` cards of each."""
    for ns in itertools.product(range(MOST + 1), repeat=len(events)):
        yield tuple(e for e, n in zip(events, ns, strict=True) for _ in range(n))


def combats(b: Board) -> Iterator[tuple[Combat, tuple[str, ...]]]:
    """Every combat `combat_strength` can be asked about, with the acting player's events in
    force (`RKState.effects`): each pair of units of opposite sides as attacker and defender,
    each Area, each T-34 support or none (RKS-8.12.3), each count of the attacker side's
    "next combat" events in the combat and of its other events for the acting unit
    (RKS-9.1.1, RKS-9.5.1)."""
    t34 = [u for u, spec in b.specs.items() if spec.type == "tank"]
    for attacker, defender in itertools.permutations(b.specs, 2):
        side = b.specs[attacker].side
        if side == b.specs[defender].side:
            continue
        mine = EVENTS_OF[side]
        next_combat = tuple(e for e in mine if e in NEXT_COMBAT)
        acting = tuple(e for e in mine if e not in NEXT_COMBAT)
        for area, support in itertools.product(b.areas, [None, *t34]):
            for in_combat, own in itertools.product(_counts(next_combat), _counts(acting)):
                c = Combat(area, attacker, Step.RAISE, defender, support=support, effects=in_combat)
                yield c, own


def _combat_differs(b: Board, sa: RKState, sb: RKState) -> tuple[int, str | None]:
    """How many combat strengths were compared, and the first that differs (None: none)."""
    n = 0
    for c, own in combats(b):
        xa, xb = attrs.evolve(sa, effects=own), attrs.evolve(sb, effects=own)
        for unit in (c.attacker, c.defender):
            assert unit is not None
            n += 1
            if combat_strength(b, xa, c, unit) != combat_strength(b, xb, c, unit):
                return n, f"{unit} in {c}"
    return n, None


def _bombard_differs(b: Board, sa: RKState, sb: RKState) -> tuple[int, str | None]:
    """How many bombardment strengths were compared (every unit in every Area, by each kind),
    and the first that differs (None: none)."""
    n = 0
    for unit, area, kind in itertools.product(b.specs, b.areas, BOMBARDS):
        placed = attrs.evolve(b.unit(sa, unit), area=area)
        xa, xb = b.with_unit(sa, placed), b.with_unit(sb, placed)
        n += 1
        if bombard_strength(b, xa, kind, unit) != bombard_strength(b, xb, kind, unit):
            return n, f"{unit} in {area} by {kind}"
    return n, None


def strengths_agree(game: Any, va: Variant, vb: Variant, what: str, clauses: str) -> str | None:
    """The proof that every strength is the same under `va` and `vb` (None: one differs)."""
    b: Board = game.board
    sa, sb = game.initial_state(va), game.initial_state(vb)
    combat_n, differs = _combat_differs(b, sa, sb)
    if differs is not None:
        return None
    bombard_n, differs = _bombard_differs(b, sa, sb)
    if differs is not None:
        return None
    return (
        f"proved by the game over its data: {what}; all {combat_n} combat strengths (every "
        "unit as attacker or defender against every enemy, in every Area, with every T-34 "
        "support or none and every count of the attacker side's events in force) and all "
        f"{bombard_n} bombardment strengths (every unit in every Area, by Bombardment and by "
        f"Air Force Support) are the same under both readings ({clauses})"
    )


def strength_floor(game: Any, va: Variant, vb: Variant) -> str | None:
    """strength_floor (AMB-RKS-23 ii, RKS-8.8.2): a floor of 1 changes nothing when no
    revised strength falls below 1 (the weakest unit has 1 and only gains; the one negative
    revision is a Panzer Division's -2 in a City Area, on 7)."""
    return strengths_agree(
        game,
        va,
        vb,
        "no revised strength falls below 1, so the floor never applies",
        "RKS-8.8.1 to RKS-8.8.3, RKS-8.12.3, RKS-9.2.2, RKS-9.3.1, RKS-9.4.1, RKS-9.5.1, RKS-9.7.1",
    )


def engineer_scope(game: Any, va: Variant, vb: Variant) -> str | None:
    """engineer_scope (AMB-RKS-23 iii, RKS-9.5.1): the Combat Engineer is in force only in
    the German acting unit's combat (RKS-9.1.1), so the one German unit it could revise is
    the attacker, and with terrain_side=defender (AMB-RKS-23 i) an attacker has no City
    revision to cancel; with terrain_side=both it has, and the proof fails."""
    return strengths_agree(
        game,
        va,
        vb,
        "the Combat Engineer is the German attacker's event and cancels only a City revision "
        "the attacker does not have under this terrain_side",
        "RKS-8.8.1, RKS-8.8.2, RKS-9.1.1, RKS-9.5.1",
    )


def reading_proofs(game: Any) -> Mapping[str, Proof]:
    """The option -> proof mapping the explorer asks for (`solvers.checking.game_proofs`),
    each bound to `game` (the rules: their board and set-up)."""

    def bound(proof: Callable[[Any, Variant, Variant], str | None]) -> Proof:
        return lambda va, vb: proof(game, va, vb)

    return {"strength_floor": bound(strength_floor), "engineer_scope": bound(engineer_scope)}
