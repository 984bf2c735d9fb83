"""Shumshu's attack declarations served by the solver layer (SHU-COMBAT.1 to SHU-COMBAT.4).

`combat_problem` fills the solvers' plain description from a position: attackers are units,
targets are enemy hexes (a hex is attacked as a stack), contacts carry the hexside crossed with
its limit of 2 Russian or 3 Japanese units (SHU-COMBAT.3), and "UnDsrptd Jpns units or Russ
rgts adj to attacking units must also be attacked" is the solvers' `also_attack` (SHU-COMBAT.4,
SHU-RGT.4). A declaration is made one unit at a time (`Join`): a unit may join an attack when
some legal declaration extends the pairs joined so far, which the solver answers on the problem
with those pairs fixed. `declare.py` is the plain-Python oracle held equal to it by tests.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping, Sequence

from kernel.errors import IllegalAction
from kernel.hexes import Hex, hex_name, parse_hex
from solvers.queries import assignments as solver
from solvers.queries.combat import ONE_TARGET, Assignment, CombatProblem, Contact, Reason, Rules
from solvers.queries.combat import Combat as Fight
from specs.shumshu.rules.board import Board
from specs.shumshu.rules.declare import (
    Declaration,
    Front,
    Pair,
    canonical,
    declaration_problems,
    front,
)
from specs.shumshu.rules.state import RU, ShumshuState


def _rules(f: Front) -> Rules:
    return _rules_of(f.side, f.obligation_clause)


@functools.cache
def _rules_of(side: str, obligation_clause: str) -> Rules:
    """The reasons a declaration by `side` is refused with: made once per side."""
    who = "undisrupted Japanese units" if side == RU else "a Russian regiment"
    return Rules(
        contact=Reason(
            ("SHU-COMBAT.1", "SHU-COMBAT.2"), "{unit} is not next to enemy units in {target}"
        ),
        attack_once=Reason(("SHU-COMBAT.1",), "{unit} attacks more than once"),
        defend_once=Reason(("SHU-COMBAT.1",), "{target} is attacked in two combats"),
        must_attack=Reason(("SHU-COMBAT.1",), "{unit} was joined to an attack"),
        grouping=Reason(("SHU-COMBAT.1",), "an attack is made into one hex"),
        also_attack=Reason(
            (obligation_clause,),
            f"{{target}} holds {who} next to an attacking unit and must also be attacked",
        ),
        static=Reason(("SHU-COMBAT.1",), "{unit} cannot attack now"),
        hexside_limit=Reason(
            ("SHU-COMBAT.3",),
            f"at most {{limit}} {'Russian' if side == RU else 'Japanese'} units may attack "
            "across hexside {hexside}",
        ),
        not_in_front=Reason(("SHU-COMBAT.1",), "{unit} is not a unit that may attack now"),
    )


class _Names(Mapping[str, str]):
    """Names for explanations: units with their hex, targets as "hex 0603"; read from the
    position only when an explanation asks (a legal declaration needs none)."""

    def __init__(self, s: ShumshuState) -> None:
        self._s = s
        self._known: dict[str, Hex] | None = None

    @property
    def _hexes(self) -> dict[str, Hex]:
        if self._known is None:
            self._known = {p.id: p.hex for p in self._s.units if p.hex is not None}
        return self._known

    def __getitem__(self, key: str) -> str:
        if key in self._hexes:
            return f"{key} in {self._hexes[key]}"
        return f"hex {key}"

    def __iter__(self) -> Iterator[str]:
        return iter(self._hexes)

    def __len__(self) -> int:
        return len(self._hexes)


def combat_problem(
    b: Board, s: ShumshuState, fixed: Sequence[Pair] = (), idle: frozenset[str] = frozenset()
) -> CombatProblem:
    """The plain description of this combat phase's declaration; `fixed` pairs are forced
    (their attacker attacks that hex and no other) and `idle` attackers may not attack."""
    f = front(b, s)
    forced = dict(fixed)
    attackers = tuple(a for a in f.attackers if a not in idle)
    contacts: list[Contact] = []
    for a in attackers:
        for t in f.contacts[a]:
            if a not in forced or forced[a] == t:
                contacts.append(Contact(a, hex_name(t), f.hexsides[a, t]))
    obliged = {hex_name(h) for a in attackers for h in f.obliged[a]}
    targets = tuple(sorted({c.target for c in contacts} | obliged))
    rules = _rules(f)
    return CombatProblem(
        attackers=attackers,
        targets=targets,
        contacts=tuple(contacts),
        grouping=ONE_TARGET,
        must_attack={a: rules.must_attack.format(unit=a) for a in forced if a in attackers},
        also_attack={
            a: frozenset(hex_name(h) for h in f.obliged[a]) for a in attackers if f.obliged[a]
        },
        static=frozenset(f.barred) | idle,
        hexside_limits={c.hexside: f.limit for c in contacts if c.hexside is not None},
        names=_Names(s),
        rules=rules,
    )


def to_assignment(pairs: Sequence[Pair]) -> Assignment:
    by_hex: dict[str, list[str]] = {}
    for a, h in pairs:
        by_hex.setdefault(hex_name(h), []).append(a)
    return tuple(Fight(tuple(atts), (t,)) for t, atts in sorted(by_hex.items()))


def to_declaration(b: Board, assignment: Assignment) -> Declaration:
    return canonical(b, ((a, parse_hex(c.targets[0])) for c in assignment for a in c.attackers))


def declarations(b: Board, s: ShumshuState) -> Iterator[Declaration]:
    """Every legal declaration, lazily, from the solver."""
    for assignment in solver.assignments(combat_problem(b, s)):
        yield to_declaration(b, assignment)


def extends(b: Board, s: ShumshuState, pairs: Sequence[Pair]) -> bool:
    """Whether some legal declaration contains `pairs` and, of the attackers up to the last
    one joined (in data order), no other: a declaration made one unit at a time in data order
    can still be completed."""
    if not pairs:
        return True
    f = front(b, s)
    chosen = dict(pairs)
    if len(chosen) != len(pairs) or any(
        a not in f.attackers or t not in f.contacts[a] for a, t in chosen.items()
    ):
        return False
    last = max(f.attackers.index(a) for a in chosen)
    idle = frozenset(a for a in f.attackers[: last + 1] if a not in chosen)
    return solver.first(combat_problem(b, s, pairs, idle)) is not None


def join_ok(b: Board, s: ShumshuState, pairs: Sequence[Pair], unit: str, target: Hex) -> bool:
    """Whether `unit` may join the attack into `target` after `pairs`: it comes after them
    in data order, and the declaration can still be completed (`extends`). Kept for the
    last questions asked: the check of a join asks what the listing asked of the position."""
    return _join_ok(b, s, tuple(pairs), unit, target)


@functools.lru_cache(maxsize=256)
def _join_ok(b: Board, s: ShumshuState, pairs: Declaration, unit: str, target: Hex) -> bool:
    f = front(b, s)
    if unit not in f.attackers:
        return False
    rank = f.attackers.index(unit)
    if any(a not in f.attackers or f.attackers.index(a) >= rank for a, _ in pairs):
        return False
    return extends(b, s, (*pairs, (unit, target)))


def declaration_ok(b: Board, s: ShumshuState, pairs: Sequence[Pair]) -> bool:
    """Whether the pairs joined so far are a whole legal declaration: the problem with them
    fixed and every other attacker idle has a solution. Kept for the last questions asked,
    as `join_ok`."""
    return _declaration_ok(b, s, tuple(pairs))


@functools.lru_cache(maxsize=64)
def _declaration_ok(b: Board, s: ShumshuState, pairs: Declaration) -> bool:
    f = front(b, s)
    chosen = dict(pairs)
    if len(chosen) != len(pairs) or any(
        a not in f.attackers or t not in f.contacts[a] for a, t in chosen.items()
    ):
        return False
    idle = frozenset(a for a in f.attackers if a not in chosen)
    return solver.first(combat_problem(b, s, pairs, idle)) is not None


def explain(b: Board, s: ShumshuState, pairs: Sequence[Pair]) -> list[Reason]:
    """The rules a declaration breaks, from the solver's unsat cores (empty when legal)."""
    return solver.explain(combat_problem(b, s), to_assignment(pairs))


def declaration_error(
    b: Board, s: ShumshuState, pairs: Sequence[Pair], joining: str | None = None
) -> IllegalAction:
    """Why a declaration (or a join) is refused: its broken rules by clause; a join that
    breaks nothing yet but cannot be completed says what completing it would break."""
    problems = declaration_problems(b, s, pairs)
    f = front(b, s)
    if joining is not None and joining in f.attackers:
        joined = [a for a, _ in pairs if a != joining]
        rank = f.attackers.index(joining)
        later = [a for a in joined if a in f.attackers and f.attackers.index(a) > rank]
        if later:
            problems = [
                (
                    "SHU-COMBAT.1",
                    f"units join attacks in data order: {joining} comes before {later[-1]}",
                )
            ]
    if not problems:
        reasons = explain(b, s, pairs)
        problems = [(r.clauses[0], r.text) for r in reasons if r.clauses]
    if not problems:
        problems = [
            (
                "SHU-COMBAT.4",
                "no legal declaration includes this attack: the hexes next to its attackers "
                "that must also be attacked cannot all be, within the hexside limits "
                "(SHU-COMBAT.3)",
            )
        ]
    clauses = tuple(dict.fromkeys(c for c, _ in problems))
    return IllegalAction("; ".join(f"{m} ({c})" for c, m in problems), clauses=clauses)
