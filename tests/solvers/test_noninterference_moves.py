"""Whether some piece stands on a hex once the acting piece has moved, read over the counts
before the step (solvers.checking.noninterference_moves), on the toy board of
tests/solvers/test_noninterference_counts.py. A march (M-3) moves the piece it names, then
marks, for all to see, whether any piece holds hex 1: two marches seen alike may move
different face-down pieces, so the mark is a question over every pair of pieces the two
copies may move. Read over the count on hex 1 before the march (a bridge derived from equal
observations), it is one identity on one copy, and the march is proved within a fixed limit;
a mark that tells whether one given piece holds the hex (a planted leak) is refuted all the
same, and a rewriting that is no identity is refused."""

from __future__ import annotations

from typing import Any

import pytest

from solvers.checking import noninterference as ni
from solvers.checking.noninterference_moves import Moves
from solvers.checking.noninterference_pair import Pair, prove_identities, rewritten_frame
from solvers.checking.system import BoolVar, Conjunct, IntVar, Schema, Var
from solvers.checking.terms import B, Frame, I, Ops
from solvers.checking.unroll import template
from tests.solvers.test_noninterference_counts import HEX, UNIT, Across, Board, H, at

N = 6  # pieces
RLIMIT = 4_000_000
HELD = "held"


def where(o: Ops[Any, Any], s: Frame[Any, Any], c: Frame[Any, Any]) -> Any:
    """The hex the named piece leaves, as the label shows it."""
    return o.add(o.ite(o.eq(c.i(UNIT), i), s.i(at(i)), 0) for i in range(N))


PIECES = ni.Pieces(tuple(range(N)), UNIT, tuple(at(i) for i in range(N)), where)
ON_HEX_1 = ni.Bridge("pieces on hex 1", lambda o, s: o.count(o.eq(s.i(at(i)), 1) for i in range(N)))


class March(Schema):
    """M-3: a piece moves to another hex; then whether any piece holds hex 1 is marked."""

    name, clauses = "march", ("M-3",)

    def __init__(self) -> None:
        self.choices: tuple[Var, ...] = (IntVar(UNIT, 0, N - 1), IntVar(HEX, 1, H))

    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        return [Conjunct("M-3", "to another hex", lambda: o.not_(o.eq(where(o, s, c), c.i(HEX))))]

    def held(self, o: Ops[B, I], s: Frame[B, I]) -> B:
        return o.any(o.eq(s.i(at(i)), 1) for i in range(N))

    def effect(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        moved = s.evolve({at(i): o.ite(o.eq(c.i(UNIT), i), c.i(HEX), s.i(at(i))) for i in range(N)})
        return moved.evolve(bools={HELD: self.held(o, moved)})


class Spy(March):
    """The planted leak: the mark tells whether the first piece holds hex 1."""

    name = "spy"

    def held(self, o: Ops[B, I], s: Frame[B, I]) -> B:
        return o.eq(s.i(at(0)), 1)


class Watch(Schema):
    """M-4: nothing moves; whether any piece holds hex 1 is marked."""

    name, clauses = "watch", ("M-4",)
    choices: tuple[Var, ...] = ()

    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        return []

    def effect(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        return s.evolve(bools={HELD: o.any(o.eq(s.i(at(i)), 1) for i in range(N))})


class Marked(Board):
    """The toy board with the public mark."""

    def __init__(self, *schemas: Schema) -> None:
        super().__init__(*schemas, n=N)
        self.variables = (*self.variables, BoolVar(HELD))

    def initial(self) -> dict[str, int | bool]:
        return {**super().initial(), HELD: True}


class MarkSeen(Across):
    """The other side sees the pieces' counts and the mark as it is (`HELD`)."""

    def __init__(self) -> None:
        super().__init__(N)

    def observe(self, o: Ops[Any, Any], s: Frame[Any, Any]) -> dict[str, Any]:
        return {**super().observe(o, s), HELD: s.b(HELD)}


class Seen(MarkSeen):
    """The other side sees the mark as it is."""

    def label(
        self, o: Ops[Any, Any], schema: Schema, s: Frame[Any, Any], c: Frame[Any, Any]
    ) -> ni.Label:
        """A watch is seen as it is (it names nothing)."""
        return (schema.name, ()) if schema.name == "watch" else super().label(o, schema, s, c)


def test_a_march_is_proved_with_the_count_before() -> None:
    """M-3: two marches seen alike (a face-down piece leaving one hex for another) mark hex
    1 alike: the mark read over the count on hex 1 before the march, one identity on one
    copy, within the limit."""
    v = ni.prove(Marked(March()), Seen(), bridges=(ON_HEX_1,), rlimit=RLIMIT, pieces=PIECES)
    assert v.status == "proved", v.detail


def test_a_watch_is_proved_with_the_count() -> None:
    """M-4: whether any piece holds hex 1, in two states seen alike, is read as the count on
    hex 1 being at least one (an identity on one copy) and proved equal within the limit."""
    system = Marked(Watch())
    moves = Moves(Pair(system, Seen()), PIECES, moving=False)
    rewritten_frame(template(system).after(0), moves.term)
    assert len(moves.used) == 1  # the one disjunction, over all six pieces
    prove_identities(moves.p, moves.used, RLIMIT)
    v = ni.prove(system, Seen(), bridges=(ON_HEX_1,), rlimit=RLIMIT, pieces=PIECES)
    assert v.status == "proved", v.detail


def test_a_mark_telling_one_piece_is_refuted() -> None:
    """M-3 planted: a mark that says whether the first piece holds hex 1 differs after two
    marches seen alike; no rewriting hides it."""
    v = ni.prove(Marked(Spy()), Seen(), bridges=(ON_HEX_1,), rlimit=RLIMIT, pieces=PIECES)
    assert v.status == "refuted" and v.pair is not None
    assert HELD in v.pair.differs


def test_a_rewriting_that_is_no_identity_is_refused() -> None:
    """M-3: told that the piece moved always stood where the first piece stands, the
    rewriting of the mark is no identity on one copy: refused before any question reads it."""

    def first(o: Ops[Any, Any], s: Frame[Any, Any], c: Frame[Any, Any]) -> Any:
        return s.i(at(0))

    wrong = ni.Pieces(PIECES.codes, UNIT, PIECES.at, first)
    with pytest.raises(ValueError, match="not an identity"):
        ni.prove(Marked(March()), Seen(), bridges=(ON_HEX_1,), rlimit=RLIMIT, pieces=wrong)


def test_a_count_the_side_does_not_see_is_no_bridge() -> None:
    """M-3: how many face-up and face-down pieces stand on hex 1 follows from equal
    observations; where the first piece stands does not, and is refused as a bridge."""
    system, seen = Marked(March()), Seen()
    assert ni.derive(system, seen, bridges=(ON_HEX_1,), rlimit=RLIMIT) is None
    first = ni.Bridge("the first piece's hex", lambda o, s: s.i(at(0)))
    assert ni.derive(system, seen, bridges=(first,), rlimit=RLIMIT) == first.name
