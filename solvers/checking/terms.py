"""Terms written once and read two ways: as Z3 formulas (to prove) or as Python values (to
evaluate on a concrete position).

A symbolic model is written against `Ops`. `solvers.smt.Z3Ops` turns every operation into a Z3
term; `Concrete` computes plain booleans and integers, short-circuiting `all`/`any` and indexing
`case` directly. The refinement check evaluates the very functions the prover proves things
about, so a proof and the check against the Python rules cannot speak of two different models.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Generic, Protocol, TypeVar

B = TypeVar("B")
I = TypeVar("I")  # noqa: E741 - the integer-term type, next to B for booleans
T = TypeVar("T")


class Ops(Protocol[B, I]):
    """The vocabulary of a symbolic model: Boolean and bounded-integer terms."""

    def lit(self, value: bool) -> B: ...

    def num(self, value: int) -> I: ...

    def all(self, items: Iterable[B]) -> B: ...

    def any(self, items: Iterable[B]) -> B: ...

    def not_(self, a: B) -> B: ...

    def implies(self, a: B, b: B) -> B: ...

    def iff(self, a: B, b: B) -> B: ...

    def eq(self, a: I, b: I | int) -> B: ...

    def le(self, a: I | int, b: I | int) -> B: ...

    def lt(self, a: I | int, b: I | int) -> B: ...

    def add(self, items: Iterable[I | int]) -> I: ...

    def sub(self, a: I | int, b: I | int) -> I: ...

    def mod(self, a: I | int, k: int) -> I:
        """`a` modulo a positive constant `k`."""
        ...

    def ite(self, c: B, a: I | int, b: I | int) -> I: ...

    def bite(self, c: B, a: B, b: B) -> B: ...

    def count(self, items: Iterable[B]) -> I: ...

    def among(self, a: I | int, items: Sequence[I]) -> B:
        """`a` equals one of `items`."""
        ...

    def case(self, i: I, f: Callable[[int], B], domain: Sequence[int]) -> B:
        """`f(i)` for an `i` known to lie in `domain` (false outside it)."""
        ...

    def known(self, a: B) -> bool | None:
        """The value of `a` when it is a concrete truth value, else None."""
        ...

    def value(self, a: I) -> int | None:
        """The value of `a` when it is a concrete number, else None."""
        ...

    def same(self, a: Any, b: Any) -> bool:
        """`a` and `b` are one term (so a merge need not build an if-then-else)."""
        ...


class Concrete:
    """`Ops` over Python values: evaluation of a model on one concrete position."""

    def lit(self, value: bool) -> bool:
        return value

    def num(self, value: int) -> int:
        return value

    def all(self, items: Iterable[bool]) -> bool:
        return all(items)

    def any(self, items: Iterable[bool]) -> bool:
        return any(items)

    def not_(self, a: bool) -> bool:
        return not a

    def implies(self, a: bool, b: bool) -> bool:
        return (not a) or b

    def iff(self, a: bool, b: bool) -> bool:
        return a == b

    def eq(self, a: int, b: int) -> bool:
        return a == b

    def le(self, a: int, b: int) -> bool:
        return a <= b

    def lt(self, a: int, b: int) -> bool:
        return a < b

    def add(self, items: Iterable[int]) -> int:
        return sum(items)

    def sub(self, a: int, b: int) -> int:
        return a - b

    def mod(self, a: int, k: int) -> int:
        return a % k

    def ite(self, c: bool, a: int, b: int) -> int:
        return a if c else b

    def bite(self, c: bool, a: bool, b: bool) -> bool:
        return a if c else b

    def count(self, items: Iterable[bool]) -> int:
        return sum(1 for x in items if x)

    def among(self, a: int, items: Sequence[int]) -> bool:
        return a in items

    def case(self, i: int, f: Callable[[int], bool], domain: Sequence[int]) -> bool:
        return i in domain and f(i)

    def known(self, a: bool) -> bool | None:
        return a

    def value(self, a: int) -> int | None:
        return a

    def same(self, a: Any, b: Any) -> bool:
        return bool(a == b)


CONCRETE = Concrete()


class Frame(Generic[B, I]):
    """One state (or one step's choices) of a model: integer and Boolean terms by name.

    `memo` caches what a model derives from the frame (occupancy, zones of control, reach),
    so guards and effects that ask the same question share one term."""

    __slots__ = ("bools", "ints", "memo")

    def __init__(self, ints: Mapping[str, I], bools: Mapping[str, B]) -> None:
        self.ints = dict(ints)
        self.bools = dict(bools)
        self.memo: dict[Any, Any] = {}

    def i(self, name: str) -> I:
        return self.ints[name]

    def b(self, name: str) -> B:
        return self.bools[name]

    def evolve(
        self,
        ints: Mapping[str, I] | None = None,
        bools: Mapping[str, B] | None = None,
        *,
        keep_memo: bool = False,
    ) -> Frame[B, I]:
        """A new frame with some values replaced. Derived values are carried over only with
        `keep_memo`, which the caller may pass when none they depend on has changed."""
        out = Frame({**self.ints, **(ints or {})}, {**self.bools, **(bools or {})})
        if keep_memo:
            out.memo = self.memo
        return out

    def cached(self, key: Any, make: Callable[[], T]) -> T:
        if key not in self.memo:
            self.memo[key] = make()
        value: T = self.memo[key]
        return value

    def values(self) -> dict[str, Any]:
        return {**self.ints, **self.bools}


def merge(
    o: Ops[B, I], c: B, then: Callable[[], Frame[B, I]], other: Callable[[], Frame[B, I]]
) -> Frame[B, I]:
    """`then()` if `c` else `other()`: one branch when `c` is known, else both, merged name by
    name (unchanged names stay one term)."""
    k = o.known(c)
    if k is not None:
        return then() if k else other()
    a, b = then(), other()
    ints = {n: v if o.same(v, b.ints[n]) else o.ite(c, v, b.ints[n]) for n, v in a.ints.items()}
    bools = {
        n: v if o.same(v, b.bools[n]) else o.bite(c, v, b.bools[n]) for n, v in a.bools.items()
    }
    return Frame(ints, bools)
