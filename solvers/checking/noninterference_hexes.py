"""Whether, and how many, hidden pieces stand on a hex in a state a step runs into, once the
step's own stages have moved some of them (decoys discovered on an attacked hex), written over
the count before the step and one term per piece (`solvers.checking.noninterference`).

A stage that asks whether some piece of a subset S of the counted pieces stands on hex H (a
disjunction) or how many do (a sum of their indicators), each under a condition G common to
the pieces, reads piece j's position as the step left it: an equation phi_j whose left side is
at_j or a term that falls back to it (ite(c, X, at_j)). Two copies may hold different hidden
pieces on H, so the two disjunctions differ piece by piece though the counts agree. Each is
the same as a term over the count before the step:

    Or_{j in S} (G and phi_j)   =  G and 1 <= C(H) + sum over the pieces j of e_j
    sum_{j in S} [G and phi_j]  =  ite(G, C(H) + sum over the pieces j of e_j, 0)

where C(H) counts every piece on H before the step (for H a term other than a state
variable, read among the hexes' counts: ite(H == h, C(h), ...)), e_j = [phi_j] - [at_j == H]
for a piece of S and -[at_j == H] for one outside it. The identity is about one copy: proved
where it is used (a question over the N pieces). C(h) is equal in two states the observer
cannot tell apart (the bridges), and each e_j is a question about one piece (`parts`), asked
in the pair before the observation and assumed once proved (a piece the step turns face up is
named in its label, one it leaves face down stays where it was), so equal terms after follow
by congruence and linear arithmetic; a part left unproved is not assumed. The step's
observable part, whose terms read the state after, is rewritten alike. A sum over other things
than pieces (the hexes, whether each is attacked) has its terms asked so too (`Hexes.tally`).
"""

from __future__ import annotations

from typing import Any

from solvers import smt
from solvers.checking.noninterference_counts import Pieces
from solvers.checking.noninterference_pair import Label, Pair, prove_identities, rewritten_frame
from solvers.checking.terms import Frame

TALLY = 3  # the fewest terms of a sum whose terms are asked one by one (`Hexes.tally`)

Atom = tuple[int, Any, Any]
"""A piece's index, its equation phi_j, and the hex H it compares with."""


def _kind(e: Any) -> str:
    return str(e.decl().name())


def conjuncts(e: Any) -> list[Any]:
    """`e`'s conjuncts, nested conjunctions flattened."""
    if _kind(e) != "and":
        return [e]
    return [x for c in e.children() for x in conjuncts(c)]


class Hexes:
    """The rewriting of one schema's state after (module docstring): the identities used, each
    proved on one copy (`prove_identities`) before any question reads the rewritten terms,
    and the parts e_j, each to be proved equal in the two copies before it is assumed."""

    def __init__(self, p: Pair, pieces: Pieces) -> None:
        self.p = p
        cur = p.t.cur.ints
        self.var = [cur[a] for a in pieces.at]
        self.at = {v.get_id(): j for j, v in enumerate(self.var)}
        self.hexes = pieces.hexes
        self.named = {v.get_id() for v in cur.values()}  # a hex a state variable names
        self.used: list[tuple[Any, Any]] = []  # (a group's old term, over C(H) as it is)
        self.atoms: dict[tuple[int, int], list[Any]] = {}  # what each identity is one over
        self.parts: dict[int, Any] = {}  # the terms e_j, by id
        self._done: dict[int, Any] = {}

    def atom(self, e: Any) -> Atom | None:
        """(piece index, e, H) when `e` is at_j == H or ite(c, X, at_j) == H."""
        if not smt.is_eq(e) or not smt.is_int(e.arg(0)):
            return None
        lhs = e.arg(0)
        if smt.is_ite(lhs):
            lhs = lhs.arg(2)
        j = self.at.get(lhs.get_id())
        if j is None or not lhs.eq(self.var[j]):
            return None
        return j, e, e.arg(1)

    def _split(self, cond: Any) -> tuple[tuple[int, ...], list[Any], Atom] | None:
        """A condition as (the ids of its other conjuncts, those conjuncts, its one atom)."""
        parts = conjuncts(cond)
        found = [(i, a) for i, c in enumerate(parts) if (a := self.atom(c)) is not None]
        if len(found) != 1:
            return None
        i, a = found[0]
        rest = parts[:i] + parts[i + 1 :]
        return tuple(sorted(x.get_id() for x in rest)), rest, a

    def on(self, h: Any) -> Any:
        """The pieces on H before the step."""
        o = smt.Z3
        return self.p.ops.count(o.eq(v, h) for v in self.var)

    def _summand(self, e: Any) -> Any | None:
        """The condition a count's summand indicates: ite(cond, 1, 0) or a named indicator."""
        if _one_zero(e):
            return e.arg(0)
        name = str(e) if smt.is_int(e) and e.num_args() == 0 else None
        return self.p.names.items.get(name) if name is not None else None

    def count(self, h: Any) -> Any:
        """C(H): the pieces on H before the step; for H a term other than a state variable
        (whose count is a bridge of its own, split on its values), read among the hexes'
        counts: ite(H == h, C(h), ...) ending in C(H) itself, the same term by construction
        (a term with h in place of H is the term at H == h), so no solver is asked."""
        o = smt.Z3
        if smt.is_int_value(h) or h.get_id() in self.named:
            return self.on(h)
        out = self.on(h)
        for x in reversed(self.hexes):
            out = o.ite(o.eq(h, x), self.on(x), out)
        return out

    def total(self, group: list[Atom], plain: bool) -> Any | None:
        """C(H) + sum of the e_j (module docstring), C(H) the count at H as it is when
        `plain`; None when a piece comes twice."""
        js = [a[0] for a in group]
        if len(set(js)) != len(js):
            return None
        o, names = smt.Z3, self.p.names
        h = group[0][2]
        terms = [self.on(h) if plain else self.count(h)]
        mine = {a[0]: a[1] for a in group}
        for j, v in enumerate(self.var):
            home = o.eq(v, h)
            phi = mine.get(j)
            if phi is not None and smt.structurally_equal(phi, home):
                continue
            e = o.sub(names.name(phi) if phi is not None else 0, names.name(home))
            self.parts[e.get_id()] = e
            terms.append(e)
        return o.add(terms)

    def rewritten(self, e: Any, summed: bool) -> Any | None:
        """A disjunction (`summed` False) or a sum of indicators ite(cond, 1, 0) with two or
        more pieces' atoms under one G and H rewritten; None when it has none."""
        o = smt.Z3
        groups: dict[tuple[Any, ...], list[tuple[Any, list[Any], Atom]]] = {}
        for child in e.children():
            cond = child
            if summed:
                cond = self._summand(child)
                if cond is None:
                    continue
            found = self._split(cond)
            if found is not None:
                key = (*found[0], -1, found[2][2].get_id())
                groups.setdefault(key, []).append((child, found[1], found[2]))
        gone: set[int] = set()
        kept: list[Any] = []
        for g in groups.values():
            if len(g) < 2 or (not summed and len(g) == len(self.var) and all(map(_bare, g))):
                continue  # every piece at_j == H: count(H) >= 1 (`noninterference_moves`)
            atoms = [x[2] for x in g]
            total, plain = self.total(atoms, False), self.total(atoms, True)
            if total is None or plain is None:
                continue
            common = o.all(g[0][1])
            if summed:
                new = o.ite(common, total, 0)
                used = (o.add(x[0] for x in g), o.ite(common, plain, 0))
            else:
                new = o.all([common, o.le(1, total)])
                used = (o.any(x[0] for x in g), o.all([common, o.le(1, plain)]))
            self.used.append(used)
            homes = [o.eq(v, atoms[0][2]) for v in self.var]
            self.atoms[(used[0].get_id(), used[1].get_id())] = [
                *g[0][1],
                *(a[1] for a in atoms),
                *homes,
            ]
            gone |= {x[0].get_id() for x in g}
            kept.append(new)
        if not gone:
            return None
        rest = [c for c in e.children() if c.get_id() not in gone]
        return o.add([*rest, *kept]) if summed else o.any([*rest, *kept])

    def term(self, e: Any) -> Any:
        """`e` with every such disjunction and sum rewritten (bottom up, shared subterms once)."""
        return smt.bottom_up(e, self._done, self._visit)

    def _visit(self, e: Any) -> Any:
        kind = _kind(e)
        if kind not in ("or", "+"):
            return e
        new = self.rewritten(e, kind == "+")
        if new is not None:
            return new
        if kind == "+":
            self.tally(e)
        return e

    def tally(self, e: Any) -> None:
        """A sum of three or more terms ite(c, a, 0) with no piece's atom among them (a count
        over hexes, say, of whether each is attacked): each term a part, to be asked equal in
        the two copies on its own (the pair settles each, not the sum at once)."""
        terms = [c for c in e.children() if _counted(c)]
        if len(terms) >= TALLY and not any(self._split(c.arg(0)) for c in terms):
            self.parts.update((c.get_id(), c) for c in terms)


def _bare(x: tuple[Any, list[Any], Atom]) -> bool:
    """A disjunct that is at_j == H alone."""
    return not x[1] and x[0].eq(x[2][1]) and not smt.is_ite(x[2][1].arg(0))


def _counted(e: Any) -> bool:
    """ite(c, a, 0) for a number a."""
    if not smt.is_ite(e):
        return False
    a, b = e.arg(1), e.arg(2)
    return bool(smt.is_int_value(a) and smt.is_int_value(b) and b.as_long() == 0)


def _one_zero(e: Any) -> bool:
    """ite(c, 1, 0), a count's summand."""
    return _counted(e) and e.arg(1).as_long() == 1


def rewrite(p: Pair, k: int, pieces: Pieces, rlimit: int) -> tuple[Frame[Any, Any], Label] | None:
    """Schema k's state after and observable part (whose terms read the state after) with
    the pieces on a hex read over the counts before (module docstring), for a schema with no
    actor choice when `pieces` names the hexes; each identity used is proved on one copy
    first, the parts kept for the pair (`Pair.facts`). None when nothing was rewritten."""
    if not pieces.hexes or pieces.actor in {v.name for v in p.system.schemas[k].choices}:
        return None
    hexes = Hexes(p, pieces)
    new = rewritten_frame(p.t.after(k), hexes.term)
    if not hexes.used and not hexes.parts:
        return None
    # C(H) read among the hexes' counts is C(H) itself by construction (`count`): each identity
    # is asked over C(H) as it is (asked together, the solver does not settle the two in 20M)
    prove_identities(p, hexes.used, rlimit, hexes.atoms)
    p.facts[k] = list(hexes.parts.values())
    name, terms = p.label(k)
    return new, (name, tuple(hexes.term(x) for x in terms))
