"""The position check: refuse what no play of the rules could reach, naming the JSON field, the
clause and the invariant it breaks.

The check is the spec's invariants (`properties.invariants`), written once and run here on
every position the codec reads and on every position a test builds: each card in exactly one
place, hands and steps within the rules' maxima, every unit on the map or accounted for,
control as the units make it, each stage with its records and each record with its stage, the
queued draws, pending moves, picks, combats and damage the rules make, the events in force,
the faces of the discards by `discard_faces`, and the result.

Which invariants run: those expected to hold under the variant's preset, or, for a variant
that names no preset, those expected to hold under every preset. Every invariant is stated to
hold under every reading (its finder asks the reading where it depends on one, and the
random-variant playouts check it under random readings), so in fact all of them run.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from kernel.errors import ImpossiblePosition
from kernel.variants import Variant
from specs.rattenkrieg.formal.properties import Invariant, invariants
from specs.rattenkrieg.rules.board import Board
from specs.rattenkrieg.rules.state import RKState

if TYPE_CHECKING:
    from specs.rattenkrieg.rules.play import RattenkriegRules


@functools.cache
def _invariants(b: Board) -> tuple[Invariant, ...]:
    return invariants(b)


def applicable(b: Board, variant: Variant) -> tuple[Invariant, ...]:
    """The invariants expected to hold under `variant`: under its preset, or under every
    preset for a variant with readings of its own."""
    found = _invariants(b)
    if variant.preset is not None:
        return tuple(i for i in found if i.prop.expected.get(variant.preset) == "holds")
    return tuple(i for i in found if set(i.prop.expected.values()) == {"holds"})


def check_position(game: RattenkriegRules, s: RKState) -> None:
    """Refuse what no play of the rules could reach: ImpossiblePosition naming the field, the
    clause and the invariant (property ID) of the first breach."""
    for inv in applicable(game.board, s.variant):
        breach = inv.find(s)
        if breach is not None:
            raise ImpossiblePosition(
                f"{breach.field}: {breach.message} ({breach.clause}; invariant {inv.prop.id})",
                clauses=(breach.clause, inv.prop.id),
                field=breach.field,
            )


class RattenkriegPositionCheck:
    """The position check role (`kernel.roles.PositionCheck`) of the rules it is built from."""

    def __init__(self, rules: RattenkriegRules) -> None:
        self.rules = rules

    def check_position(self, state: RKState) -> None:
        """Refuse a position no play could reach, naming the field, the clause and the
        invariant (`check_position`)."""
        check_position(self.rules, state)
