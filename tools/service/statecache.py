"""Decoded states by (match id, ply), shared by every Store of the process.

A stored ply's state never changes once committed, so a hit saves decoding and checking the
stored JSON again. Only committed states are put here (`Store._transaction`), so a process
never serves a state that another process's commit contradicts."""

from __future__ import annotations

import threading
from typing import Any


class _States:
    """A bounded map from (match id, ply) to its decoded state (the oldest quarter goes
    when it is full)."""

    def __init__(self, size: int = 4096) -> None:
        self._lock = threading.Lock()
        self._items: dict[tuple[str, int], Any] = {}
        self._size = size

    def get(self, key: tuple[str, int]) -> Any:
        with self._lock:
            return self._items.get(key)

    def put(self, key: tuple[str, int], state: Any) -> None:
        with self._lock:
            if len(self._items) >= self._size:
                for old in list(self._items)[: self._size // 4]:
                    del self._items[old]
            self._items[key] = state


STATES = _States()
