"""Lazy action lists (`kernel.choices`) read as the plain lists they stand for: the same items
in the same order (a seeded agent picks by index), the same length, indexing, slices and
membership."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import given
from hypothesis import strategies as st

from kernel.choices import Chain, Mapped

PARTS = st.lists(st.lists(st.integers(-5, 5), max_size=6), max_size=6)


def _double(x: int) -> int:
    return 2 * x


def _half(value: object) -> int | None:
    return value // 2 if isinstance(value, int) and value % 2 == 0 else None


def _lazy(parts: list[list[int]], back: bool) -> Chain[int]:
    return Chain(Mapped(_double, p, _half if back else None) for p in parts)


def _plain(parts: list[list[int]]) -> list[int]:
    return [2 * x for p in parts for x in p]


@given(PARTS, st.booleans())
def test_a_chain_reads_as_its_plain_list(parts: list[list[int]], back: bool) -> None:
    lazy, plain = _lazy(parts, back), _plain(parts)
    assert len(lazy) == len(plain)
    assert list(lazy) == plain and lazy == plain
    assert [lazy[i] for i in range(-len(plain), len(plain))] == plain + plain
    assert lazy[1:-1] == plain[1:-1] and lazy[::2] == plain[::2]
    for value in range(-12, 13):
        assert (value in lazy) == (value in plain)


@given(PARTS)
def test_index_out_of_range_is_an_index_error(parts: list[list[int]]) -> None:
    lazy = _lazy(parts, True)
    for i in (len(lazy), -len(lazy) - 1):
        try:
            lazy[i]
        except IndexError:
            continue
        raise AssertionError(f"{i} read from a list of {len(lazy)}")


def test_a_wrong_read_back_is_told_apart() -> None:
    """A `back` that reads values wrongly answers membership wrongly: the plain comparison of
    the tests above would catch it."""
    lazy = Mapped(_double, [1, 2], lambda v: v if isinstance(v, int) else None)
    plain: Sequence[int] = [2, 4]
    assert any((v in lazy) != (v in plain) for v in range(6))
