"""Whether some hidden piece stands on a hex, in a state a step runs into, written over the
counts before the step (`solvers.checking.noninterference`).

A step that moves the piece its actor choice names, then runs into a stage that asks whether
any of the counted pieces stands on hex H, reads, piece by piece,

    ite(actor == code_j, TO, at_j) == H    for each counted piece j,

a disjunction over the pieces. Two copies of the step may move different hidden pieces, so
comparing the two disjunctions is a case split over every pair of pieces the copies may pick.
The disjunction is the same as a term over the count before the step:

    (J and TO == H) or count_before(H) - [J and WHERE == H] >= 1,

where J says the actor is one of those pieces and WHERE is where the acting piece stood, as
the step's observable part shows it (J and the count over the pieces the disjunction names,
two or more). A disjunction over pieces the step does not move, at_j == H, is count(H) >= 1.
Each identity is about one copy only: it is proved on one copy where it is used (a case split
over the N pieces, not N x N), then the copies' terms are rewritten with it. J and WHERE are
seen in the step's label, and the counts before are equal in two states the observer cannot
tell apart (the bridges, derived first, or the observation's own counts), so equal terms after
follow by congruence. Any other disjunction is left as it is.
"""

from __future__ import annotations

from typing import Any

from solvers import smt
from solvers.checking import noninterference_hexes
from solvers.checking.noninterference_counts import Pieces
from solvers.checking.noninterference_pair import Pair, prove_identities, rewritten_frame


def _code(cond: Any, actor: Any) -> int | None:
    """The piece code `cond` compares the actor with (actor == code), else None."""
    if not smt.is_eq(cond):
        return None
    a, b = cond.arg(0), cond.arg(1)
    if a.eq(actor) and smt.is_int_value(b):
        return int(b.as_long())
    if b.eq(actor) and smt.is_int_value(a):
        return int(a.as_long())
    return None


class Moves:
    """The rewriting of one schema's state after (module docstring): the identities used,
    each to be proved on one copy (`prove_identities`) before any question reads the rewritten
    terms."""

    def __init__(self, p: Pair, pieces: Pieces, moving: bool) -> None:
        """`moving`: the schema has the actor choice, `pieces` says where the actor stands
        (else only pieces that stay are read over their count)."""
        self.p = p
        self.codes = pieces.codes
        self.actor: Any = None
        self.where: Any = None
        if moving and pieces.actor is not None and pieces.where is not None:
            self.actor = p.t.choice.ints[pieces.actor]
            self.where = pieces.where(p.ops, p.t.cur, p.t.choice)
        cur = p.t.cur.ints
        self.var = [cur[a] for a in pieces.at]
        self.at = {v.get_id(): (j, v) for j, v in enumerate(self.var)}
        self.used: list[tuple[Any, Any]] = []  # (a group's disjunction, its rewriting)
        self._done: dict[int, Any] = {}

    def atom(self, e: Any) -> tuple[int, Any, Any] | None:
        """(piece index, TO, H) when `e` is ite(actor == code_j, TO, at_j) == H; (piece
        index, None, H) when it is at_j == H (a piece the step does not move)."""
        if not smt.is_eq(e) or not smt.is_int(e.arg(0)):
            return None
        lhs, h = e.arg(0), e.arg(1)
        still = self.at.get(lhs.get_id())
        if still is not None and lhs.eq(still[1]):
            return still[0], None, h
        if self.actor is None or not smt.is_ite(lhs):
            return None
        var = self.at.get(lhs.arg(2).get_id())
        if var is None or not lhs.arg(2).eq(var[1]):
            return None
        j = var[0]
        if _code(lhs.arg(0), self.actor) != self.codes[j]:
            return None
        return j, lhs.arg(1), h

    def rewritten(self, e: Any) -> Any:
        """A disjunction with the atoms of two or more counted pieces at one (TO, H)
        replaced by the term over their count before; None when it has none."""
        groups: dict[tuple[int, int], list[tuple[int, Any, Any, Any]]] = {}
        for child in e.children():
            found = self.atom(child)
            if found is not None:
                j, to, h = found
                key = (-1 if to is None else to.get_id(), h.get_id())
                groups.setdefault(key, []).append((j, to, h, child))
        many = [g for g in groups.values() if len({x[0] for x in g}) > 1]
        if not many:
            return None
        o = smt.Z3
        gone = {x[3].get_id() for g in many for x in g}
        parts = [c for c in e.children() if c.get_id() not in gone]
        for g in many:
            to, h = g[0][1], g[0][2]
            js = sorted({x[0] for x in g})
            count = self.p.ops.count(o.eq(self.var[j], h) for j in js)
            if to is None:
                new = o.le(1, count)
            else:
                mine = o.any(o.eq(self.actor, self.codes[j]) for j in js)
                left = o.ite(o.all([mine, o.eq(self.where, h)]), 1, 0)
                new = o.any([o.all([mine, o.eq(to, h)]), o.le(1, o.sub(count, left))])
            self.used.append((o.any(x[3] for x in g), new))
            parts.append(new)
        return o.any(parts)

    def term(self, e: Any) -> Any:
        """`e` with every such disjunction rewritten (bottom up, shared subterms once)."""
        return smt.bottom_up(e, self._done, self._visit)

    def _visit(self, e: Any) -> Any:
        new = self.rewritten(e) if smt.is_or(e) else None
        return e if new is None else new


def rewrite(p: Pair, k: int, pieces: Pieces | None, rlimit: int) -> None:
    """Schema k's state after read over the counts before (module docstring), once per
    schema, when `pieces` names the pieces' positions; each identity used is proved on one
    copy first; for a schema with no actor, the pieces on a hex its stages read once they
    have moved pieces it does not name are read so first (`noninterference_hexes`)."""
    if pieces is None or not pieces.at or k in p.looked:
        return
    p.looked.add(k)
    moving = pieces.actor in {v.name for v in p.system.schemas[k].choices}
    moves = Moves(p, pieces, moving)
    first = noninterference_hexes.rewrite(p, k, pieces, rlimit)
    frame = rewritten_frame(p.t.after(k) if first is None else first[0], moves.term)
    if moves.used:  # the disjunctions rewritten, the rest kept as they were
        prove_identities(p, moves.used, rlimit)
    if moves.used or first is not None:
        p.rewrite(k, frame, None if first is None else first[1])
