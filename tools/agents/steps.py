"""The game's steps as one search meets them again: a determinization equal to one drawn before is
replaced by that very state, and the listing and the successors of a state already stepped from
are kept by its identity, so a descent that repeats an earlier one (the same drawn state, the
same actions, the same dice) asks the rules nothing twice.

The rules are pure functions of the state, so an equal state lists the same actions and steps to
equal states: the search grows the same tree from the same generator with or without it (the
tests hold the two equal). A search that draws a different state each time gains nothing but
loses little: one hash per determinization, one dictionary look-up per step. Everything kept is
dropped with the search (one decision), so no state outlives it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kernel.game import Game


class Steps:
    """`game`'s `legal_actions` and `apply`, remembered for one search (module docstring)."""

    __slots__ = ("_after", "_drawn", "_listed", "game")

    def __init__(self, game: Game[Any, Any]) -> None:
        self.game = game
        self._drawn: dict[Any, Any] | None = {}
        """Each determinization met, by value; None once a state turns out unhashable."""
        self._listed: dict[int, tuple[Any, Sequence[Any]]] = {}
        self._after: dict[tuple[int, Any], tuple[Any, Any]] = {}

    def drawn(self, state: Any) -> Any:
        """The determinization met before that equals `state`, else `state` (then kept)."""
        if self._drawn is None:
            return state
        try:
            return self._drawn.setdefault(state, state)
        except TypeError:  # a game whose states cannot be hashed: no sharing
            self._drawn = None
            return state

    def legal_actions(self, state: Any) -> Sequence[Any]:
        """`game.legal_actions(state)`, listed once per state object."""
        kept = self._listed.get(id(state))
        if kept is not None and kept[0] is state:  # kept alive here: no other state has its id
            return kept[1]
        legal = self.game.legal_actions(state)
        self._listed[id(state)] = (state, legal)
        return legal

    def apply(self, state: Any, action: Any) -> Any:
        """`game.apply(state, action)`, stepped once per state object and action."""
        key = (id(state), action)
        kept = self._after.get(key)
        if kept is not None and kept[0] is state:
            return kept[1]
        after = self.game.apply(state, action)
        self._after[key] = (state, after)
        return after
