"""A count of hidden pieces compared piece by piece (`solvers.checking.noninterference`).

Two copies of a step that each move a hidden piece may move different ones: asked whole,
equal counts after are a question over every pair of pieces the two copies may pick (a case
split the arithmetic solver does not finish within any limit tried). The count is instead cut
into parts whose equality says the same:

    count(after) = count(before) + A + sum over pieces j of R_j,

where A is the change of the summand of the piece the step's actor choice names (zero
without such a choice) and R_j the change of piece j's summand when the actor is another
piece. The identity holds by construction in each copy (the summands are the count's own
named indicators), the counts before are equal by the relation, so A equal in the two copies
and each R_j equal give equal counts after by linear arithmetic alone. Each of those is a
question about one piece (or the one the actor names) with no count in it. Where one of them
fails (a piece's change seen only in the total, say), the count is asked whole instead
(`noninterference_search.ask`): a failed part is no leak, only a question the parts do not
settle.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import attrs

from solvers import smt
from solvers.checking.noninterference_names import Indicators, NamingOps
from solvers.checking.noninterference_pair import Pair
from solvers.checking.terms import Frame, Ops

PART = "~"  # a part's name: its count's, this mark, and the part

Question = tuple[str, Any, Any]
"""A name (the component it serves), and a term over the first copy and one over the second
that must be equal."""


Where = Callable[[Ops[Any, Any], Frame[Any, Any], Frame[Any, Any]], Any]
"""Where the piece the actor choice names stands before a step, as the step's label shows it."""


@attrs.frozen
class Pieces:
    """What the observer counts: every count is a sum over `codes` (the pieces' values of the
    actor choice, in the order the observer counts them); `actor` is the choice that names the
    piece a step acts on, when a schema has it. With `at` (each piece's position variable, in
    the order of `codes`) and `where`, whether some piece stands on a hex once the actor has
    moved is read over the counts before the step (`noninterference_moves`); with `hexes`
    (the values a count per hex is known equal at), whether and how many stand on a hex a
    step's stages read (`noninterference_hexes`)."""

    codes: tuple[int, ...]
    actor: str | None = None
    at: tuple[str, ...] = ()
    where: Where | None = None
    hexes: tuple[int, ...] = ()


class Counting(NamingOps):
    """`NamingOps` that keeps each count's summands (the named indicators, in order)."""

    def __init__(self, names: Indicators) -> None:
        super().__init__(names)
        self.made: dict[int, tuple[Any, list[Any]]] = {}

    def count(self, items: Iterable[Any]) -> Any:
        named = [self.names.name(x) for x in items]
        term = self.add(named)
        self.made[id(term)] = (term, named)  # the term kept alive: its id stays its own
        return term


def summands(p: Pair, k: int | None) -> dict[str, list[Any]]:
    """Each count's summands in the state before (k None) or after schema k."""
    ops = Counting(p.names)
    frame = p.t.cur if k is None else p.after(k)
    seen = p.observer.observe(ops, frame)
    out: dict[str, list[Any]] = {}
    for name, term in seen.items():
        made = ops.made.get(id(term))
        if made is not None and made[0] is term:
            out[name] = made[1]
    return out


def questions(
    p: Pair, k: int, same: frozenset[str], pieces: Pieces, names: Iterable[str]
) -> dict[str, list[Question]]:
    """The parts of each count in `names` for two steps of schema k (module docstring),
    by count. A count none of whose summands the step changes has no part."""
    before, after = summands(p, None), summands(p, k)
    ch = p.t.choice.ints
    actor = ch.get(pieces.actor) if pieces.actor is not None else None
    if actor is not None and pieces.actor not in {v.name for v in p.system.schemas[k].choices}:
        actor = None
    o = smt.Z3
    out: dict[str, list[Question]] = {}
    for name in names:
        if name not in before or name not in after:
            continue
        b, a = before[name], after[name]
        if len(a) != len(pieces.codes) or len(b) != len(pieces.codes):
            raise ValueError(f"count {name!r} is not over the {len(pieces.codes)} pieces")
        changed = [j for j in range(len(a)) if not smt.structurally_equal(a[j], b[j])]
        parts: list[Question] = []
        for j in changed:
            delta = o.sub(a[j], b[j])
            part = delta if actor is None else o.ite(o.eq(actor, pieces.codes[j]), 0, delta)
            parts.append(_question(p, f"{name}{PART}{j}", part, same))
        if actor is not None and changed:
            chosen = o.add(
                o.ite(o.eq(actor, pieces.codes[j]), o.sub(a[j], b[j]), 0) for j in changed
            )
            parts.append(_question(p, f"{name}{PART}actor", chosen, same))
        out[name] = parts
    return out


def _question(p: Pair, name: str, term: Any, same: frozenset[str]) -> Question:
    term = smt.simplify(term)
    return name, term, p.second(term, same)


def violated(model: smt.Model, chunk: Iterable[Question]) -> list[str]:
    """The names of the questions in `chunk` whose two terms differ in `model`."""
    return [n for n, a, b in chunk if smt.value_of(model, a) != smt.value_of(model, b)]


def component(name: str) -> str:
    """The count a part's name serves (a whole component's name is its own)."""
    return name.split(PART, 1)[0]


def is_part(name: str) -> bool:
    """A question about a part of a count, not a whole component."""
    return PART in name
