"""Counts of hidden pieces asked in parts (solvers.checking.noninterference_counts), on a toy
board: N pieces on H hexes, each face up (seen where it stands) or face down (seen only in the
count of face-down pieces per hex). A move names its piece, masked while it is face down,
with the hex it leaves and the hex it enters (M-1). Two moves from states that look alike may
move different face-down pieces: asked whole, equal counts after are a question over every
pair of pieces the two copies may move; asked in parts (the moved piece's change, and each
other piece's), each part is a question about one piece. The parts are proved within a limit
the whole question exhausts; a move that hides the hex it enters (a planted leak) is refuted
all the same; and a step that changes pieces it does not name (a sweep, M-2), whose parts
differ between two states though its counts do not, is proved by the count asked whole."""

from __future__ import annotations

from typing import Any

from solvers.checking import noninterference as ni
from solvers.checking.system import BoolVar, Conjunct, IntVar, Schema, Var
from solvers.checking.terms import B, Frame, I, Ops

N, H = 8, 4  # pieces, hexes
RLIMIT = 4_000_000
UNIT, HEX = "c_unit", "c_hex"
PIECES = ni.Pieces(tuple(range(N)), UNIT)


def at(i: int) -> str:
    return f"at.{i}"


def up(i: int) -> str:
    return f"up.{i}"


class Move(Schema):
    """M-1: a piece moves to another hex; it stays as it was, face up or down."""

    name, clauses = "move", ("M-1",)

    def __init__(self, n: int = N) -> None:
        self.n = n
        self.choices: tuple[Var, ...] = (IntVar(UNIT, 0, n - 1), IntVar(HEX, 1, H))

    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        where = o.add(o.ite(o.eq(c.i(UNIT), i), s.i(at(i)), 0) for i in range(self.n))
        return [Conjunct("M-1", "to another hex", lambda: o.not_(o.eq(where, c.i(HEX))))]

    def effect(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        moved = {at(i): o.ite(o.eq(c.i(UNIT), i), c.i(HEX), s.i(at(i))) for i in range(self.n)}
        return s.evolve(moved)


class Sneak(Move):
    """The planted leak: a move whose observable part leaves out the hex a face-down piece
    enters."""

    name = "sneak"


class Sweep(Schema):
    """M-2: every face-down piece on the hex named goes to hex 1 (no piece is named)."""

    name, clauses = "sweep", ("M-2",)
    choices: tuple[Var, ...] = (IntVar(HEX, 2, H),)

    def __init__(self, n: int = N) -> None:
        self.n = n

    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        return []

    def effect(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        swept = {
            at(i): o.ite(
                o.all([o.not_(s.b(up(i))), o.eq(s.i(at(i)), c.i(HEX))]), o.num(1), s.i(at(i))
            )
            for i in range(self.n)
        }
        return s.evolve(swept)


class Board:
    """The toy system (`solvers.checking.system.System`)."""

    def __init__(self, *schemas: Schema, n: int = N) -> None:
        self.name, self.n = "board", n
        ints: list[Var] = [IntVar(at(i), 1, H) for i in range(n)]
        self.variables: tuple[Var, ...] = (*ints, *(BoolVar(up(i)) for i in range(n)))
        self.schemas: tuple[Schema, ...] = schemas

    def initial(self) -> dict[str, int | bool]:
        n = self.n
        return {**{at(i): 1 for i in range(n)}, **{up(i): i % 2 == 0 for i in range(n)}}


class Across:
    """The other side: face-up pieces where they stand, face-down ones counted per hex."""

    side = "across"

    def __init__(self, n: int = N) -> None:
        self.n = n

    def observe(self, o: Ops[Any, Any], s: Frame[Any, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for i in range(self.n):
            out[up(i)] = s.b(up(i))
            out[at(i)] = o.ite(s.b(up(i)), s.i(at(i)), -1)
        for h in range(1, H + 1):
            out[f"face_down.{h}"] = o.count(
                o.all([o.not_(s.b(up(i))), o.eq(s.i(at(i)), h)]) for i in range(self.n)
            )
        return out

    def label(
        self, o: Ops[Any, Any], schema: Schema, s: Frame[Any, Any], c: Frame[Any, Any]
    ) -> ni.Label:
        if schema.name == "sweep":
            return schema.name, (c.i(HEX),)
        unit = c.i(UNIT)
        masked = o.any(o.all([o.eq(unit, i), o.not_(s.b(up(i)))]) for i in range(self.n))
        where = o.add(o.ite(o.eq(unit, i), s.i(at(i)), 0) for i in range(self.n))
        seen = (o.ite(masked, -1, unit), where)
        if schema.name == "sneak":  # the hex entered, shown only for a face-up piece
            return schema.name, (*seen, o.ite(masked, -1, c.i(HEX)))
        return schema.name, (*seen, c.i(HEX))


def test_moves_of_face_down_pieces_are_proved_in_parts() -> None:
    """M-1: two moves seen alike (a face-down piece leaving one hex for another) leave the
    counts alike, proved one piece at a time."""
    v = ni.prove(Board(Move()), Across(), rlimit=RLIMIT, pieces=PIECES)
    assert v.status == "proved", v.detail


def test_the_whole_count_exhausts_the_limit_the_parts_keep_to() -> None:
    """M-1: the same question, each count asked whole, is not settled within that limit (the
    two copies' choice of piece, eight by eight): the parts are what the proof needs."""
    v = ni.prove(Board(Move()), Across(), rlimit=RLIMIT)
    assert v.status == "unknown", v.detail


def test_a_move_hiding_the_hex_it_enters_is_refuted_in_parts() -> None:
    """M-1 planted: with the hex entered left out of what is seen, two moves seen alike leave
    different counts; the parts do not hide it."""
    v = ni.prove(Board(Sneak()), Across(), rlimit=RLIMIT, pieces=PIECES)
    assert v.status == "refuted" and v.pair is not None
    assert any(n.startswith("face_down.") for n in v.pair.differs)


def test_a_step_whose_parts_differ_is_asked_whole() -> None:
    """M-2: a sweep moves whichever face-down pieces stand on the hex, so one piece's change
    differs between two states alike to the other side while each count's does not: the
    parts fail, the count asked whole is proved."""
    few = 3  # the count asked whole: a question over pairs of pieces, kept small
    pieces = ni.Pieces(tuple(range(few)), UNIT)
    v = ni.prove(Board(Sweep(few), n=few), Across(few), rlimit=RLIMIT, pieces=pieces)
    assert v.status == "proved", v.detail
