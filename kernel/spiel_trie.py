"""A `LegalTree` (`kernel.spiel_codec`) over a trie of token sequences, for large legal sets.

Split from the SNC's OpenSpiel codec (`specs/snc1937/spiel.py`), whose Chinese Move phase
offers thousands of moves: walking a trie costs the prefix's length where `table_tree` scans
every sequence at each sub-step. A leaf holds how to build its action, so a move is built only
when chosen. Free of any game and of OpenSpiel itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class Leaf:
    """A whole legal sequence in a `Trie`: the action, or how to build it (a move of a Move
    phase is built only when chosen, as the kernel's `MoveList` does)."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[[], Any]) -> None:
        self.make = make


class Trie:
    """A `LegalTree` over a trie of token sequences: a Chinese Move phase offers thousands of
    moves, and walking a trie costs the prefix's length where the adapter's table scans them
    all at each sub-step."""

    def __init__(self) -> None:
        self.root: dict[int, Any] = {}

    def add(self, seq: tuple[int, ...], leaf: Leaf) -> None:
        node = self.root
        for token in seq[:-1]:
            child = node.setdefault(token, {})
            if not isinstance(child, dict):
                raise AssertionError(f"a legal sequence is a prefix of {seq}")
            node = child
        if seq[-1] in node:
            raise AssertionError(f"two legal actions encode as {seq} (or one is its prefix)")
        node[seq[-1]] = leaf

    def _at(self, prefix: tuple[int, ...]) -> Any:
        node: Any = self.root
        for token in prefix:
            if not isinstance(node, dict) or token not in node:
                return None
            node = node[token]
        return node

    def next_ids(self, prefix: tuple[int, ...]) -> list[int]:
        node = self._at(prefix)
        return sorted(node) if isinstance(node, dict) else []

    def action_at(self, prefix: tuple[int, ...]) -> Any | None:
        node = self._at(prefix)
        return node.make() if isinstance(node, Leaf) else None


def const(action: Any) -> Callable[[], Any]:
    """How to build an action already built: the action itself."""
    return lambda: action
