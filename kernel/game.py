"""The Game contract every spec implements, so that every tool works on every game.

Modelled on OpenSpiel (chance is a player with `chance_outcomes`) and pgx (pure `apply`
returning a new state). States and actions are frozen attrs classes. `Game` is the rules; a
game's other roles (codec, narration, picture, position check, data check) are in
`kernel.roles`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, Final, Generic, Protocol, TypeVar

import attrs

from kernel.variants import Catalogue, Variant

CHANCE: Final = "chance"
"""`to_move` returns this when the next step is a dice roll, shuffle or draw."""

S = TypeVar("S")
A = TypeVar("A")


def _sorted_points(
    points: Mapping[str, int] | tuple[tuple[str, int], ...],
) -> tuple[tuple[str, int], ...]:
    return tuple(sorted(dict(points).items()))


@attrs.frozen
class Outcome:
    """How a finished game ended: the winner (None for a draw), points, and the deciding clause."""

    winner: str | None
    points: tuple[tuple[str, int], ...] = attrs.field(converter=_sorted_points, default=())
    clause: str = ""
    reason: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "points": dict(self.points),  # side -> points
            "clause": self.clause,
            "reason": self.reason,
        }


@attrs.frozen
class WireTypes:
    """A game's wire types (`kernel.wire.Record` classes): the classes its codec decodes with
    and its published JSON Schemas are generated from, so the two cannot drift apart."""

    state: Any
    """The state document, envelope included."""
    action: Any
    """The action document: a tagged union on `type`."""
    observation: Any
    """What one side may know (`observe`), the body of a view document."""


class Game(Protocol, Generic[S, A]):
    """The rules of one game as pure functions over immutable states. The rules only: how a
    position travels as JSON, reads as a log, looks, is refused when no play could reach it,
    and how the data files hold up against the text are roles of their own (`kernel.roles`),
    built from the rules by the game's package (`kernel.package`)."""

    name: str
    title: str
    sides: tuple[str, ...]
    catalogue: Catalogue
    nontermination_clauses: tuple[str, ...]
    """Clauses that let play go on without end, named when a playout detects a cycle."""
    perfect_information: bool
    """True when every side sees the whole state (`observe` hides nothing): then the other
    side's moves, chance outcomes and the full picture may be shown to every side."""

    def presets(self) -> Mapping[str, Variant]: ...

    def initial_state(self, variant: Variant) -> S: ...

    def to_move(self, state: S) -> str | None:
        """A side, CHANCE, or None when the game is over."""
        ...

    def legal_actions(self, state: S) -> Sequence[A]:
        """Every legal action of the side to move, in a stable order (empty for CHANCE)."""
        ...

    def chance_outcomes(self, state: S) -> Sequence[tuple[A, Fraction]]:
        """Each chance action with its exact probability; empty unless CHANCE is to move."""
        ...

    def apply(self, state: S, action: A) -> S:
        """The next state; raises IllegalAction naming the clauses the action breaks."""
        ...

    def outcome(self, state: S) -> Outcome | None: ...

    def observe(self, state: S, side: str) -> dict[str, Any]:
        """What `side` may know of `state`, as JSON-ready data of `wire.observation`'s form."""
        ...

    def no_action_clauses(self, state: S) -> tuple[str, ...]:
        """For a position where the side to move has no legal action although the game is not
        over (a gap in the rules): the clauses whose obligations cannot all be met."""
        ...


class UnitRemoval(Protocol[S]):
    """An optional hook a game may add beside `Game` (not part of it: most games need none).
    Tools that shrink a witness look for it with `getattr(game, "without_unit", None)` and
    fall back to editing the state JSON when a game has none; a game whose position check
    keeps every unit on the map (or accounted for as eliminated) needs it for a unit ever to
    be taken off."""

    def without_unit(self, state: S, unit: str) -> S | None:
        """The position `state` with `unit` taken out of play in the way the rules know
        (eliminated, with whatever the rules do with its cards or markers), a position
        `check_position` accepts; None when the unit cannot be taken out there (it is not on
        the map, the rules know no way to remove it at that point, or its removal would end the
        game)."""
        ...
