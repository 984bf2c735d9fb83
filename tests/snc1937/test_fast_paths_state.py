"""The SNC's state fast paths against a plain reference (issue 34): the faster copy of a state
(`state.evolve`), `tables.put` inserting placed units in unit order, the memo of the
reinforcements due, and the identity memos themselves (`rules/memo.py`); each compared with the
plain form on positions from the seeded playouts of both presets that
`test_fast_paths_movement` collects, and each broken on purpose to show the comparison
catches it.
"""

from __future__ import annotations

import pickle
import random
from typing import Any

import attrs
import pytest

from kernel.hexes import Hex
from specs.snc1937 import game as _game  # noqa: F401 - the rules load through the game first
from specs.snc1937.rules import position_views, reinforcement_steps, state, tables
from specs.snc1937.rules.memo import identity_memo
from specs.snc1937.rules.position_views import MASK
from specs.snc1937.rules.state import CH, JP, SNCState, evolve
from tests.snc1937.test_fast_paths_movement import ANY, T


def _due_differences() -> list[str]:
    out = []
    for i, s in enumerate(ANY):
        for side in (CH, JP):
            want = [u for u, gt in s.trt if gt <= s.turn and T.spec[u].side == side]
            if reinforcement_steps.due(s, side, T) != want:
                out.append(f"position {i}: {side} due")
    return out


def test_snc_8_0_4_due_matches_the_trt() -> None:
    """SNC-8.0.4, SNC-5.4.1: the reinforcements due, memoized, are the TRT's."""
    assert _due_differences() == []


def _evolve_differences() -> list[str]:
    rng = random.Random(3)
    names = [f.name for f in attrs.fields(SNCState)]
    out = []
    for i, s in enumerate(ANY):
        hash(s)  # a state whose hash is kept: the copy must not keep it
        for name in names:  # each field changed alone, then three together
            changes = {n: getattr(rng.choice(ANY), n) for n in [name, *rng.sample(names, 2)]}
            one = {name: changes[name]}
            if evolve(s, **one) != attrs.evolve(s, **one):
                out.append(f"position {i}: {name}")
            if hash(evolve(s, **one)) != hash(attrs.evolve(s, **one)):
                out.append(f"position {i}: hash after {name}")
            if evolve(s, **changes) != attrs.evolve(s, **changes):
                out.append(f"position {i}: {sorted(changes)}")
    return out


def test_evolve_matches_attrs_evolve() -> None:
    """The faster copy of a state is `attrs.evolve`'s, for every field."""
    assert _evolve_differences() == []


def _put_differences() -> list[str]:
    """SNC-2.1.2: `tables.put` (pairs kept, new ones inserted in unit order) against the
    position rebuilt from a dict of every unit's hex."""
    rng = random.Random(5)
    out = []
    for i, s in enumerate(ANY):
        hexes = [h for _, h in s.where]
        moves: dict[str, Hex | None] = {rng.choice(s.where)[0]: rng.choice(hexes)}
        off = sorted(set(T.spec) - {u for u, _ in s.where})
        moves.update({u: rng.choice(hexes) for u in off[:2]})
        where = {u: h for u, h in s.where if u not in moves}
        where.update({u: h for u, h in moves.items() if h is not None})
        if tables.put(s, moves).where != tuple(sorted(where.items())):
            out.append(f"position {i}: put")
    return out


def test_put_inserts_in_unit_order() -> None:
    """SNC-2.1.2: units moved and placed land where a plain rebuild puts them."""
    assert _put_differences() == []


def test_identity_memo_keeps_values_by_object() -> None:
    """An identity memo answers for the very object it computed for; an equal but distinct
    object is computed again, equal."""
    calls: list[tuple[int, ...]] = []

    @identity_memo
    def total(xs: tuple[int, ...]) -> int:
        calls.append(xs)
        return sum(xs)

    a = tuple(range(50))
    b = tuple(range(50))
    assert total(a) == total(a) == total(b) == sum(a)
    assert len(calls) == 2 and calls[0] is a and calls[1] is b


# --- sabotage: each fast path broken on purpose is caught ----------------------------------------


def test_a_sabotaged_due_memo_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A memo of the units due that drops the last one (SNC-8.0.4) is caught."""
    real = reinforcement_steps._due
    monkeypatch.setattr(reinforcement_steps, "_due", lambda *args: real(*args)[:-1])
    assert _due_differences()


def test_a_sabotaged_evolve_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A copy that writes a change into the wrong field is caught."""

    def swapped(obj: object, name: str, values: dict[str, Any]) -> None:
        object.__setattr__(obj, name, {**values, "turn": values["mp"], "mp": values["turn"]})

    monkeypatch.setattr(state, "_set", swapped)
    assert _evolve_differences()


def test_a_copy_keeping_the_old_hash_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A copy that keeps the hash of the state it was made from is caught."""
    monkeypatch.setattr(state, "_HASH", "not_the_hash")
    assert _evolve_differences()


def test_a_sabotaged_put_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A `put` that appends placed units instead of inserting them in order is caught."""

    class Appending:
        @staticmethod
        def insort(seq: list[Any], item: Any, key: Any = None) -> None:
            seq.append(item)

    monkeypatch.setattr(tables, "bisect", Appending)
    assert _put_differences()


def _hash_differences() -> list[str]:
    """A position `put` made, hashed from the one it was made from (`where_hash`), against
    the same position built afresh and hashed pair by pair."""
    rng = random.Random(7)
    out = []
    position_views.where_hash.cache_clear()  # type: ignore[attr-defined]
    for i, s in enumerate(ANY):
        position_views.locations(s.where)  # both known: the new position's hash is worked
        position_views.where_hash(s.where)  # out from them
        hexes = [h for _, h in s.where]
        moves: dict[str, Hex | None] = {u: rng.choice(hexes) for u, _ in rng.sample(s.where, 2)}
        moves[rng.choice(s.where)[0]] = None
        made = tables.put(s, moves)
        fresh = attrs.evolve(made, where=tuple(list(made.where)))
        if made == fresh and hash(made) != hash(fresh):
            out.append(f"position {i}: hash")
        if position_views.where_hash(made.where) != sum(map(hash, made.where)) & MASK:
            out.append(f"position {i}: where_hash")
    return out


def test_snc_2_1_2_a_position_hashed_from_its_moves_hashes_as_when_built_afresh() -> None:
    """SNC-2.1.2: a position is its units' hexes, and its hash says so however it was made."""
    assert _hash_differences() == []


def test_a_hash_missing_the_units_moved_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A position hashed as if it were the one it was made from is caught."""
    real = position_views.made_from

    def movesless(where: Any) -> Any:
        made = real(where)
        return None if made is None else (made[0], made[1], {})

    monkeypatch.setattr(position_views, "made_from", movesless)
    assert _hash_differences()


def test_a_pickled_state_hashes_afresh() -> None:
    """A kept hash is not carried by a pickle (string hashes differ between processes)."""
    s = ANY[-1]
    hash(s)
    again = pickle.loads(pickle.dumps(s))
    assert again == s and "_kept_hash" not in {k for k, v in again.__dict__.items() if v}
    assert hash(again) == hash(s)
