"""Whether pieces stand on a hex once a step's own stage has moved some it does not name, read
over the count before the step and one term per piece (solvers.checking.noninterference_hexes),
on a toy board: N pieces on H hexes, the last two decoys. A raid on the hex it names (R-1)
discovers the face-down decoys there (turned face up, for all to see, and taken off the board),
then marks whether any piece still holds the hex. Two raids seen alike may find different
pieces on the hex: the mark is a question over every pair of pieces the copies may hold
there. Read over the count on the hex before the raid (the hexes' bridges) and one term per
decoy (whether it was discovered, which the raid shows), it is one identity on one copy and a
question per piece, and the raid is proved within a fixed limit; a mark that tells whether
one given piece holds the hex (a planted leak) is refuted all the same; the identity, asked
with its atoms put as fresh Booleans, is one of counting alone. A survey (R-2) marks
whether the pieces hold two hexes or more, a count over the hexes: each term is asked on its
own, and a count that tells whether two given pieces share a hex is refuted."""

from __future__ import annotations

from typing import Any

import pytest

from solvers import smt
from solvers.checking import noninterference as ni
from solvers.checking.noninterference_hexes import Hexes
from solvers.checking.noninterference_pair import (
    Pair,
    abstracted,
    prove_identities,
    rewritten_frame,
)
from solvers.checking.system import BoolVar, Conjunct, IntVar, Schema, Var
from solvers.checking.terms import B, Frame, I, Ops
from solvers.checking.unroll import template
from tests.solvers.test_noninterference_counts import HEX, UNIT, H, at, up
from tests.solvers.test_noninterference_moves import HELD, MarkSeen, N

DECOYS = (4, 5)
OFF = 0  # a discovered decoy's place: off the board
RLIMIT = 4_000_000
PIECES = ni.Pieces(
    tuple(range(N)), UNIT, tuple(at(i) for i in range(N)), hexes=tuple(range(1, H + 1))
)


def on_hex(h: int) -> ni.Bridge:
    return ni.Bridge(
        f"pieces on hex {h}", lambda o, s: o.count(o.eq(s.i(at(i)), h) for i in range(N))
    )


BRIDGES = tuple(on_hex(h) for h in range(1, H + 1))


class Raid(Schema):
    """R-1: the face-down decoys on the hex named are discovered and taken off; then whether
    any piece still holds the hex is marked."""

    name, clauses = "raid", ("R-1",)
    choices: tuple[Var, ...] = (IntVar(HEX, 1, H),)

    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        return []

    def held(self, o: Ops[B, I], s: Frame[B, I], h: I) -> B:
        return o.any(o.eq(s.i(at(i)), h) for i in range(N))

    def effect(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        h = c.i(HEX)
        found = {d: o.all([o.not_(s.b(up(d))), o.eq(s.i(at(d)), h)]) for d in DECOYS}
        after = s.evolve(
            {at(d): o.ite(found[d], OFF, s.i(at(d))) for d in DECOYS},
            {up(d): o.any([s.b(up(d)), found[d]]) for d in DECOYS},
        )
        return after.evolve(bools={HELD: self.held(o, after, h)})


class Spy(Raid):
    """The planted leak: the mark tells whether the first piece holds the hex."""

    name = "spy"

    def held(self, o: Ops[B, I], s: Frame[B, I], h: I) -> B:
        return o.eq(s.i(at(0)), h)


class Survey(Schema):
    """R-2: nothing moves; whether the pieces hold two hexes or more is marked (a count over
    the hexes of whether each is held)."""

    name, clauses = "survey", ("R-2",)
    choices: tuple[Var, ...] = ()

    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        return []

    def held(self, o: Ops[B, I], s: Frame[B, I], h: int) -> B:
        return o.any(o.eq(s.i(at(i)), h) for i in range(N))

    def effect(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        spread = o.count(self.held(o, s, h) for h in range(1, H + 1))
        return s.evolve(bools={HELD: o.le(2, spread)})


class Pairing(Survey):
    """The planted leak: the mark tells whether the first two pieces share a hex."""

    name = "pairing"

    def effect(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        same = o.count(o.all([o.eq(s.i(at(0)), h), o.eq(s.i(at(1)), h)]) for h in range(1, H + 1))
        return s.evolve(bools={HELD: o.le(1, same)})


class Board:
    """The toy system: pieces on hexes 1..H, decoys possibly off the board, the mark."""

    def __init__(self, schema: Schema) -> None:
        self.name = "raided"
        ints: list[Var] = [IntVar(at(i), OFF if i in DECOYS else 1, H) for i in range(N)]
        bools: list[Var] = [BoolVar(up(i)) for i in range(N)]
        self.variables: tuple[Var, ...] = (*ints, *bools, BoolVar(HELD))
        self.schemas: tuple[Schema, ...] = (schema,)

    def initial(self) -> dict[str, int | bool]:
        return {**{at(i): 1 for i in range(N)}, **{up(i): False for i in range(N)}, HELD: True}


class Seen(MarkSeen):
    """The other side sees the mark, the hex raided and which pieces a step turns up."""

    def label(
        self, o: Ops[Any, Any], schema: Schema, s: Frame[Any, Any], c: Frame[Any, Any]
    ) -> ni.Label:
        after = schema.effect(o, s, c)
        shown = tuple(o.all([o.not_(s.b(up(i))), after.b(up(i))]) for i in range(N))
        named = (c.i(HEX),) if HEX in c.ints else ()
        return schema.name, (*named, *shown)


def test_a_raid_is_proved_with_the_count_before() -> None:
    """R-1: two raids seen alike mark the hex alike: the mark read over the count on the hex
    before the raid (one identity on one copy) and whether each decoy was discovered (one
    question per piece), within the limit."""
    system = Board(Raid())
    hexes = Hexes(Pair(system, Seen()), PIECES)
    rewritten_frame(template(system).after(0), hexes.term)
    assert len(hexes.used) == 1  # the one disjunction, over all six pieces
    assert len(hexes.parts) == len(DECOYS)  # one term per decoy: the others stay put
    v = ni.prove(system, Seen(), bridges=BRIDGES, rlimit=RLIMIT, pieces=PIECES)
    assert v.status == "proved", v.detail


def test_a_mark_telling_one_piece_is_refuted() -> None:
    """R-1 planted: a mark that says whether the first piece holds the hex differs after two
    raids seen alike; no rewriting hides it."""
    v = ni.prove(Board(Spy()), Seen(), bridges=BRIDGES, rlimit=RLIMIT, pieces=PIECES)
    assert v.status == "refuted" and v.pair is not None
    assert HELD in v.pair.differs


def test_a_count_over_the_hexes_is_asked_term_by_term() -> None:
    """R-2: whether the pieces hold two hexes or more, in two states seen alike, is a count
    over the hexes of whether each is held: each term asked equal on its own (from the hexes'
    counts) and assumed, the mark proved equal within the limit."""
    system = Board(Survey())
    hexes = Hexes(Pair(system, Seen()), PIECES)
    rewritten_frame(template(system).after(0), hexes.term)
    assert len(hexes.parts) == H  # one term per hex
    v = ni.prove(system, Seen(), bridges=BRIDGES, rlimit=RLIMIT, pieces=PIECES)
    assert v.status == "proved", v.detail


def test_a_count_telling_two_pieces_apart_is_refuted() -> None:
    """R-2 planted: a count over the hexes of whether the first two pieces share one differs
    in two states seen alike; asking it term by term does not hide it."""
    v = ni.prove(Board(Pairing()), Seen(), bridges=BRIDGES, rlimit=RLIMIT, pieces=PIECES)
    assert v.status == "refuted" and v.pair is not None
    assert HELD in v.pair.differs


def test_an_identity_is_proved_over_its_atoms_and_a_wrong_one_refused() -> None:
    """R-1: the raid's identity, its atoms (where each piece stands, before and after) put as
    fresh Booleans, is one of counting alone, proved so within the limit; a rewriting that is
    no identity (its negation) is refused, abstracted or not."""
    system = Board(Raid())
    p = Pair(system, Seen())
    hexes = Hexes(p, PIECES)
    rewritten_frame(template(system).after(0), hexes.term)
    ((old, new),) = hexes.used
    atoms = hexes.atoms[(old.get_id(), new.get_id())]
    abstract = abstracted(p, old, new, atoms)
    assert not any(at(i) in smt.names_in(x) for x in abstract for i in range(N))
    solver = smt.Solver(finite_domain=False, rlimit=RLIMIT)
    solver.add(smt.formula(smt.Z3.not_(smt.Z3.iff(*abstract))))
    assert not solver.check()
    prove_identities(p, hexes.used, RLIMIT, hexes.atoms)
    with pytest.raises(ValueError, match="not an identity"):
        prove_identities(p, [(old, smt.Z3.not_(new))], RLIMIT, hexes.atoms)
