"""The toy's narration role: an action as its repr, the total as the headline, no events."""

from __future__ import annotations

from tests.toy.rules.actions import ToyAction
from tests.toy.rules.state import ToyState


class ToyNarration:
    def __init__(self, rules: object) -> None:
        self.rules = rules

    def describe(self, state: ToyState, action: ToyAction) -> str:
        return repr(action)

    def headline(self, state: ToyState) -> str:
        return f"total {state.total}"

    def events(self, before: ToyState, action: ToyAction, after: ToyState) -> list[str]:
        return []
