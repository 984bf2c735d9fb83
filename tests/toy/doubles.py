"""The toy playing every role in one object (`WholeToy`), for tests that plant a weakness in
one role by overriding one method (a codec that skips the position check, rules that apply any
addition), and `assembled`, which hands such an object to the tools as an assembled game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kernel.data import FactResult, Provenance
from kernel.roles import AssembledGame
from tests.toy.formal.facts import ToyDataCheck
from tests.toy.formal.position import check_position
from tests.toy.game import Toy
from tests.toy.io import codec
from tests.toy.io.codec import ToyCodec
from tests.toy.io.narration import ToyNarration
from tests.toy.rules.actions import ToyAction
from tests.toy.rules.state import ToyState


class WholeToy(Toy):
    """The toy's rules and every role of its package, as one object to override."""

    wire = ToyCodec.wire

    def data_facts(self, data_file: Path | None = None) -> list[FactResult]:
        return ToyDataCheck(self).data_facts(data_file)

    def provisional(self, data_file: Path | None = None) -> list[tuple[str, Provenance]]:
        return ToyDataCheck(self).provisional(data_file)

    def state_to_json(self, state: ToyState) -> dict[str, Any]:
        return codec.state_to_json(state)

    def state_from_json(self, data: Any) -> ToyState:
        state = codec.state_from_json(data)
        self.check_position(state)
        return state

    def check_position(self, state: ToyState) -> None:
        check_position(state)

    def action_to_json(self, action: ToyAction) -> dict[str, Any]:
        return codec.action_to_json(action)

    def action_from_json(self, data: Any) -> ToyAction:
        return codec.action_from_json(data)

    def describe(self, state: ToyState, action: ToyAction) -> str:
        return ToyNarration(self).describe(state, action)

    def headline(self, state: ToyState) -> str:
        return ToyNarration(self).headline(state)

    def events(self, before: ToyState, action: ToyAction, after: ToyState) -> list[str]:
        return []


def assembled(whole: WholeToy) -> AssembledGame[Any, Any]:
    """`whole` as the tools take a game: every role played by the one object."""
    picture = whole if callable(getattr(whole, "scene", None)) else None
    return AssembledGame(whole, whole, whole, whole, whole, picture)  # type: ignore[arg-type]
