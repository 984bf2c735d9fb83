"""The roles of a game besides its rules, each a protocol of its own, and the game assembled.

A game's rules (`kernel.game.Game`) say what may be done; these say how a position travels as
JSON (`Codec`), reads as a log (`Narration`), looks (`Picture`), is refused when no play could
reach it (`PositionCheck`) and how the data files hold up against the text (`DataCheck`). A
game package (`kernel.package.GamePackage`) names one object per role, built from its rules, so
the rules import none of them.

Tools use several roles at once, so the kernel assembles them: `AssembledGame` has the rules'
members and every role's, each bound straight to the object that plays the role (no extra
call on the hot path), and keeps the rules as `rules` for whatever only the game's own code
knows (its board, its data).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

from kernel.data import FactResult, Provenance
from kernel.game import Game, Outcome, WireTypes
from kernel.scene import Scene
from kernel.variants import Catalogue, Variant

S = TypeVar("S")
A = TypeVar("A")
S_in = TypeVar("S_in", contravariant=True)
A_in = TypeVar("A_in", contravariant=True)


class Codec(Protocol[S, A]):
    """States and actions as versioned JSON, decoded strictly through the game's wire records
    (`wire`), so the codec and the published JSON Schemas cannot drift apart."""

    wire: WireTypes

    def state_to_json(self, state: S) -> dict[str, Any]: ...

    def state_from_json(self, data: Any) -> S:
        """Decode strictly through `wire.state`, then run the position check; raises
        InvalidInput / ImpossiblePosition naming the field (and the clause)."""
        ...

    def action_to_json(self, action: A) -> dict[str, Any]: ...

    def action_from_json(self, data: Any) -> A:
        """Decode strictly through `wire.action`; raises InvalidInput naming the field."""
        ...


class Narration(Protocol[S_in, A_in]):
    """Readable play logs."""

    def describe(self, state: S_in, action: A_in) -> str:
        """One readable line for a log: what `action` does in `state`."""
        ...

    def headline(self, state: S_in) -> str:
        """Where play stands (turn, phase, ...), one line per level, outermost first. A log
        prints the lines from the first one that differs from the previous step's headline."""
        ...

    def events(self, before: S_in, action: A_in, after: S_in) -> list[str]:
        """What `action` caused besides itself (a turn ending, units eliminated, combats
        cancelled), one readable line each naming its clause; empty when nothing else did."""
        ...


class Picture(Protocol[S_in]):
    """A position as a picture (`kernel.scene.Scene`), whole or as one side may see it."""

    def scene(self, state: S_in, side: str | None = None) -> Scene: ...


class PositionCheck(Protocol[S_in]):
    """Refuses a position no play of the rules could reach."""

    def check_position(self, state: S_in) -> None:
        """Raise ImpossiblePosition naming the JSON field and the clause. The codec runs it on
        every state it reads, and every state `apply` returns passes it; its checks include
        the spec's invariants."""
        ...


class DataCheck(Protocol):
    """The data files against what the rules text states about the components."""

    def data_facts(self, data_file: Path | None = None) -> list[FactResult]:
        """Check every fact the rules text states about the components against the data."""
        ...

    def provisional(self, data_file: Path | None = None) -> list[tuple[str, Provenance]]:
        """Data records whose values the text does not give, with their provenance."""
        ...


class AssembledGame(Generic[S, A]):
    """A game's rules with every role of its package: what tools hold (`tools.registry`).

    Each member is bound to the object that plays it when the game is assembled, so calling
    one costs what calling the role's own method costs."""

    def __init__(
        self,
        rules: Game[S, A],
        codec: Codec[S, A],
        narration: Narration[S, A],
        position: PositionCheck[S],
        data: DataCheck,
        picture: Picture[S] | None = None,
    ) -> None:
        self.rules = rules
        self.name: str = rules.name
        self.title: str = rules.title
        self.sides: tuple[str, ...] = rules.sides
        self.catalogue: Catalogue = rules.catalogue
        self.nontermination_clauses: tuple[str, ...] = rules.nontermination_clauses
        self.perfect_information: bool = rules.perfect_information
        self.presets: Callable[[], Mapping[str, Variant]] = rules.presets
        self.initial_state: Callable[[Variant], S] = rules.initial_state
        self.to_move: Callable[[S], str | None] = rules.to_move
        self.legal_actions: Callable[[S], Sequence[A]] = rules.legal_actions
        self.chance_outcomes: Callable[[S], Sequence[tuple[A, Fraction]]] = rules.chance_outcomes
        self.apply: Callable[[S, A], S] = rules.apply
        self.outcome: Callable[[S], Outcome | None] = rules.outcome
        self.observe: Callable[[S, str], dict[str, Any]] = rules.observe
        self.no_action_clauses: Callable[[S], tuple[str, ...]] = rules.no_action_clauses
        self.wire: WireTypes = codec.wire
        self.state_to_json: Callable[[S], dict[str, Any]] = codec.state_to_json
        self.state_from_json: Callable[[Any], S] = codec.state_from_json
        self.action_to_json: Callable[[A], dict[str, Any]] = codec.action_to_json
        self.action_from_json: Callable[[Any], A] = codec.action_from_json
        self.describe: Callable[[S, A], str] = narration.describe
        self.headline: Callable[[S], str] = narration.headline
        self.events: Callable[[S, A, S], list[str]] = narration.events
        self.check_position: Callable[[S], None] = position.check_position
        self.data_facts: Callable[..., list[FactResult]] = data.data_facts
        self.provisional: Callable[..., list[tuple[str, Provenance]]] = data.provisional
        self.scene: Callable[..., Scene] | None = None if picture is None else picture.scene
        self.without_unit: Callable[[S, str], S | None] | None = getattr(
            rules, "without_unit", None
        )
        self.playout_agents: Callable[[], Any] | None = getattr(rules, "playout_agents", None)
        """The rules' own playout agents (`kernel.playout.default_agents`), if they declare any."""

    def __repr__(self) -> str:
        return f"AssembledGame({self.name!r})"


def rules_of(game: Any) -> Any:
    """The rules object of `game`, whether it is an assembled game or the rules themselves:
    for what only the game's own code reads (its module, its board, its resampler)."""
    return game.rules if isinstance(game, AssembledGame) else game
