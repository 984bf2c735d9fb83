"""Lazy lists of legal actions: built only where they are read.

A step with many choices (every hex a reinforcement may arrive at, for every unit due) costs
little to count but much to build. `Mapped` lists the actions made from cheap items (hexes,
pairs) and builds only the one read; `Chain` lists parts one after another without copying
them. Both are read-only `Sequence`s in the order a plain list would have, so a seeded agent
picks the same action; a membership test asks each part, and `Mapped` answers it from its
items when it is told how to read an action back into one.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Generic, TypeVar, overload

T = TypeVar("T")
I = TypeVar("I")  # noqa: E741 - the item type


class LazySequence(Sequence[T]):
    """A read-only sequence whose items are made when read; equal to any other sequence with
    the same items, as a list compares."""

    __hash__ = None  # type: ignore[assignment]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, str):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    def __repr__(self) -> str:
        return f"{type(self).__name__}({list(self)!r})"


class Mapped(LazySequence[T], Generic[I, T]):
    """`make(item)` for each of `items`, built when read. `back` reads a value into the item
    it would be made from (None when no item makes it), so that membership needs no building."""

    def __init__(
        self,
        make: Callable[[I], T],
        items: Sequence[I],
        back: Callable[[object], I | None] | None = None,
    ) -> None:
        self.make = make
        self.items = items
        self.back = back
        self._set: frozenset[I] | None = None

    def __len__(self) -> int:
        return len(self.items)

    @overload
    def __getitem__(self, i: int) -> T: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[T]: ...

    def __getitem__(self, i: int | slice) -> T | Sequence[T]:
        if isinstance(i, slice):
            return [self.make(x) for x in self.items[i]]
        return self.make(self.items[i])

    def __iter__(self) -> Iterator[T]:
        return map(self.make, self.items)

    def __contains__(self, value: object) -> bool:
        if self.back is None:
            return any(v == value for v in self)
        item = self.back(value)
        if item is None:
            return False
        if self._set is None:
            self._set = frozenset(self.items)
        return item in self._set


class Chain(LazySequence[T]):
    """The parts one after another, none copied; reading item i finds its part by bisection."""

    def __init__(self, parts: Iterable[Sequence[T]]) -> None:
        self.parts: list[Sequence[T]] = []
        self.starts: list[int] = []
        n = 0
        for part in parts:
            size = len(part)
            if size:
                self.parts.append(part)
                self.starts.append(n)
                n += size
        self.size = n

    def __len__(self) -> int:
        return self.size

    @overload
    def __getitem__(self, i: int) -> T: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[T]: ...

    def __getitem__(self, i: int | slice) -> T | Sequence[T]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self.size))]
        if i < 0:
            i += self.size
        if not 0 <= i < self.size:
            raise IndexError(i)
        k = bisect.bisect_right(self.starts, i) - 1
        return self.parts[k][i - self.starts[k]]

    def __iter__(self) -> Iterator[T]:
        return itertools.chain.from_iterable(self.parts)

    def __contains__(self, value: object) -> bool:
        return any(value in part for part in self.parts)
