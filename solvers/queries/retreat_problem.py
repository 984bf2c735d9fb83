"""A retreat as plain data (`RetreatProblem`): opaque hex labels, adjacency, the start hex, how
many hexes the unit must retreat, and each rule that bars a step (`NoEntry`, `NoCrossing`,
`NoEnd`, `OffMap`, `Revisit`, `Progress`, `MaxHexes`), with the clauses it encodes and a
sentence a player understands; and why a path breaks one (`Breach`, `reason`,
`shape_problem`). The Z3 encoding that generates, counts and checks paths is
`solvers.queries.retreat`'s; `solvers.queries.retreat_oracle` computes the same by plain search.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Literal

import attrs

from kernel.errors import InvalidInput
from solvers.reasons import Reason

Path = tuple[str, ...]


def _labels(xs: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(set(xs)))


def _clauses(xs: Iterable[str]) -> tuple[str, ...]:
    return tuple(xs)


def _hex_set(xs: Iterable[str]) -> frozenset[str]:
    return frozenset(xs)


@attrs.frozen
class Rule:
    """Clause IDs and the reason a step is barred, worded to follow "... into 0306: "."""

    clauses: tuple[str, ...] = attrs.field(converter=_clauses)
    text: str


@attrs.frozen
class NoEntry:
    """The unit may not enter `hex` (an enemy ZOC, a friendly unit, a neutral hex...)."""

    hex: str
    rule: Rule


@attrs.frozen
class NoCrossing:
    """The unit may not step from `source` into adjacent `to` (a river, a blown bridge)."""

    source: str
    to: str
    rule: Rule


@attrs.frozen
class NoEnd:
    """The unit may pass through `hex` but not end its retreat there (overstacking...)."""

    hex: str
    rule: Rule


Prohibition = NoEntry | NoCrossing | NoEnd


@attrs.frozen
class OffMap:
    """Hexes that stand for leaving the map. Where `allowed`, entering one ends the retreat
    (`rule` says what that means, e.g. elimination); otherwise `rule` bars entering them."""

    hexes: frozenset[str] = attrs.field(converter=_hex_set)
    allowed: bool
    rule: Rule


@attrs.frozen
class Revisit:
    """Limits on entering a hex again: `not_back` bars the hex just left, `never` bars every hex
    already occupied on this retreat, the start hex included."""

    kind: Literal["not_back", "never"]
    rule: Rule


def _sorted_items(m: Mapping[str, int] | Iterable[tuple[str, int]]) -> tuple[tuple[str, int], ...]:
    items = m.items() if isinstance(m, Mapping) else m
    return tuple(sorted(items))


@attrs.frozen
class Progress:
    """Each hex entered must be strictly farther than the hex left, by `distance` (from the
    start, from the nearest attacker, ...). Hexes without a distance are exempt."""

    distance: tuple[tuple[str, int], ...] = attrs.field(converter=_sorted_items)
    rule: Rule


@attrs.frozen
class MaxHexes:
    """The unit may retreat at most `count` hexes (0: it may not retreat at all)."""

    count: int
    rule: Rule


def _prohibitions(xs: Iterable[Prohibition]) -> tuple[Prohibition, ...]:
    return tuple(xs)


def _pairs(pairs: Iterable[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    out = {(a, b) if a < b else (b, a) for a, b in pairs}
    if any(a == b for a, b in out):
        raise InvalidInput("a hex is not adjacent to itself", field="adjacent")
    return tuple(sorted(out))


@attrs.frozen
class RetreatProblem:
    """One unit's retreat of `length` hexes from `start`, with every rule that bars a step.

    `step_rule` names the rule that a retreat moves one adjacent hex per point (its clauses back
    an explanation of a jump or of a path of the wrong length). The order of `prohibitions` is
    the order in which explanations list the rules one step breaks.
    """

    unit: str
    hexes: tuple[str, ...] = attrs.field(converter=_labels)
    adjacent: tuple[tuple[str, str], ...] = attrs.field(converter=_pairs)
    start: str
    length: int
    step_rule: Rule
    prohibitions: tuple[Prohibition, ...] = attrs.field(default=(), converter=_prohibitions)
    off_map: OffMap | None = None
    revisit: Revisit | None = None
    progress: Progress | None = None
    max_hexes: MaxHexes | None = None
    _neighbors: dict[str, tuple[str, ...]] = attrs.field(
        init=False, eq=False, hash=False, repr=False
    )

    def __attrs_post_init__(self) -> None:
        table: dict[str, list[str]] = {}
        for a, b in self.adjacent:
            table.setdefault(a, []).append(b)
            table.setdefault(b, []).append(a)
        object.__setattr__(self, "_neighbors", {h: tuple(sorted(ns)) for h, ns in table.items()})
        known = set(self.hexes)
        named = [self.start, *(h for pair in self.adjacent for h in pair)]
        for p in self.prohibitions:
            named.extend((p.source, p.to) if isinstance(p, NoCrossing) else (p.hex,))
        if self.off_map is not None:
            named.extend(self.off_map.hexes)
        unknown = sorted(set(named) - known)
        if unknown:
            raise InvalidInput(f"hexes not in the problem: {unknown}", field="hexes")
        if self.length < 0:
            raise InvalidInput("a retreat length is never negative", field="length")
        if self.off_map is not None and self.start in self.off_map.hexes:
            raise InvalidInput("a retreat starts on the map", field="start")

    def neighbors(self, h: str) -> tuple[str, ...]:
        """The hexes adjacent to `h`, sorted."""
        return self._neighbors.get(h, ())

    def exits(self) -> frozenset[str]:
        """Off-map hexes that end a retreat (empty unless leaving the map is allowed)."""
        om = self.off_map
        return om.hexes if om is not None and om.allowed else frozenset()


# --- breaches: one rule broken at one step, shared with the oracle ---------------------------

Kind = Literal["max", "step", "off_map", "prohibition", "revisit", "progress"]
_RANK: dict[str, int] = {"max": 0, "step": 1, "off_map": 2, "prohibition": 3, "revisit": 4}


@attrs.frozen
class Breach:
    """Rule `kind` (for a prohibition, `problem.prohibitions[index]`) broken by the hex the
    path enters at `step` (1-based)."""

    step: int
    kind: Kind
    index: int = 0

    def key(self) -> tuple[int, int, int]:
        """Explanations list breaches by step, then in the order the rules are given."""
        return self.step, _RANK.get(self.kind, 5), self.index


def reason(problem: RetreatProblem, path: Path, breach: Breach) -> Reason:
    """The sentence for one breach of `path`, e.g. "2nd Battalion may not retreat from 0305
    into 0306: it is in an enemy ZOC"."""
    i = min(breach.step, len(path))  # a retreat that left the map ends where it left
    here = path[i - 1]
    before = path[i - 2] if i >= 2 else problem.start
    rule = _rule(problem, breach)
    p = problem.prohibitions[breach.index] if breach.kind == "prohibition" else None
    if isinstance(p, NoEnd):
        return Reason(
            rule.clauses, f"{problem.unit} may not end its retreat in {here}: {rule.text}"
        )
    return Reason(
        rule.clauses, f"{problem.unit} may not retreat from {before} into {here}: {rule.text}"
    )


def _rule(problem: RetreatProblem, breach: Breach) -> Rule:
    if breach.kind == "max":
        assert problem.max_hexes is not None
        return problem.max_hexes.rule
    if breach.kind == "off_map":
        assert problem.off_map is not None
        return problem.off_map.rule
    if breach.kind == "prohibition":
        return problem.prohibitions[breach.index].rule
    if breach.kind == "revisit":
        assert problem.revisit is not None
        return problem.revisit.rule
    if breach.kind == "progress":
        assert problem.progress is not None
        return problem.progress.rule
    return problem.step_rule


def shape_problem(problem: RetreatProblem, path: Sequence[str]) -> Reason | None:
    """Why `path` is not even the shape of a retreat (wrong length, a hex after leaving the
    map), or None. Raises InvalidInput for a hex the problem does not know."""
    known = set(problem.hexes)
    for h in path:
        if h not in known:
            raise InvalidInput(f"{h!r} is not a hex of this retreat", field="path")
    exits = problem.exits()
    for h in path[:-1]:
        if h in exits:
            assert problem.off_map is not None
            rule = problem.off_map.rule
            return Reason(
                rule.clauses,
                f"{problem.unit} has left the map at {h} and retreats no further: {rule.text}",
            )
    ended = bool(path) and path[-1] in exits
    if len(path) == problem.length or (ended and len(path) < problem.length):
        return None
    return Reason(
        problem.step_rule.clauses,
        f"{problem.unit} must retreat {problem.length} hex(es), not {len(path)}: "
        f"{problem.step_rule.text}",
    )
