"""Combat assignments as a plain problem description, shared by the Z3 generator and the oracle.

A spec fills in a `CombatProblem` from its state: who may attack whom (the contact relation, with
the hexside crossed), who must attack, who must be attacked, how units group into combats, the
supporters that may add to one combat, and per-hexside limits. Every rule carries the clause IDs
it encodes (`Rules`), so an explanation names rules, not formulas. Solvers never import specs.

An assignment is a tuple of `Combat`s in canonical order. Two groupings exist:
- `ONE_TARGET`: each combat has one target (a unit or a hex stack) and any attackers in contact
  with it; each attacker joins at most one combat.
- `MANY`: a combat is any group of attackers and targets that is connected by contacts; each
  attacker and each target is in at most one combat (Nomonhan's many-against-many reading).
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from solvers.reasons import Reason

__all__ = ["Reason"]

ONE_TARGET = "one_target"
MANY = "many"


_DEFAULT_TEXT = {
    "contact": Reason((), "{unit} is not in contact with {target}"),
    "attack_once": Reason((), "{unit} attacks more than once"),
    "defend_once": Reason((), "{target} is attacked more than once"),
    "must_attack": Reason((), "{unit} must attack"),
    "must_be_attacked": Reason((), "{target} must be attacked"),
    "grouping": Reason((), "the units of one combat do not form a legal group"),
    "attack_all": Reason((), "{unit} must attack every enemy unit it is in contact with"),
    "also_attack": Reason((), "{target} is adjacent to an attacker and must be attacked"),
    "static": Reason((), "{unit} never attacks"),
    "hexside_limit": Reason((), "at most {limit} units may attack across {hexside}"),
    "support_once": Reason((), "{unit} may support at most {limit} combat(s)"),
    "support_range": Reason((), "{unit} cannot reach that combat"),
    "not_in_front": Reason((), "{unit} is not a unit of this combat phase"),
}


@attrs.frozen
class Rules:
    """The reason given when each kind of constraint is broken (override per game)."""

    contact: Reason = _DEFAULT_TEXT["contact"]
    attack_once: Reason = _DEFAULT_TEXT["attack_once"]
    defend_once: Reason = _DEFAULT_TEXT["defend_once"]
    must_attack: Reason = _DEFAULT_TEXT["must_attack"]
    must_be_attacked: Reason = _DEFAULT_TEXT["must_be_attacked"]
    grouping: Reason = _DEFAULT_TEXT["grouping"]
    attack_all: Reason = _DEFAULT_TEXT["attack_all"]
    also_attack: Reason = _DEFAULT_TEXT["also_attack"]
    static: Reason = _DEFAULT_TEXT["static"]
    hexside_limit: Reason = _DEFAULT_TEXT["hexside_limit"]
    support_once: Reason = _DEFAULT_TEXT["support_once"]
    support_range: Reason = _DEFAULT_TEXT["support_range"]
    not_in_front: Reason = _DEFAULT_TEXT["not_in_front"]


@attrs.frozen
class Contact:
    """`attacker` may attack `target`, across `hexside` (None where no limit applies)."""

    attacker: str
    target: str
    hexside: str | None = None


@attrs.frozen
class Supporter:
    """A unit that may add to combats (e.g. artillery): a combat is within reach when any of
    its units is in `reach`. `unavailable` says why it may support nothing at all now."""

    id: str
    reach: frozenset[str]
    max_combats: int = 1
    unavailable: Reason | None = None


@attrs.frozen(eq=False)
class CombatProblem:
    attackers: tuple[str, ...]  # units that may attack, in canonical order
    targets: tuple[str, ...]  # units or stacks that may be attacked, in canonical order
    contacts: tuple[Contact, ...]
    grouping: str = ONE_TARGET
    must_attack: Mapping[str, Reason] = attrs.Factory(dict)  # attacker -> why it must
    must_be_attacked: Mapping[str, Reason] = attrs.Factory(dict)  # target -> why it must be
    attack_all: frozenset[str] = frozenset()  # attackers that must attack all their contacts
    also_attack: Mapping[str, frozenset[str]] = attrs.Factory(dict)  # if it attacks, these too
    static: frozenset[str] = frozenset()  # units that never attack
    hexside_limits: Mapping[str, int] = attrs.Factory(dict)  # hexside -> most attackers across
    supporters: tuple[Supporter, ...] = ()
    names: Mapping[str, str] = attrs.Factory(dict)  # id -> name for explanations
    rules: Rules = Rules()

    def __attrs_post_init__(self) -> None:
        """Refuses an `also_attack` target that is not one of `targets`: the layer could
        neither attack it nor tell a reason, and dropping it would change the answer."""
        if self.also_attack:
            known = set(self.targets)
            for attacker, ts in self.also_attack.items():
                missing = sorted(t for t in ts if t not in known)
                if missing:
                    raise ValueError(
                        f"CombatProblem.also_attack[{attacker!r}] names {', '.join(missing)}, "
                        "not among CombatProblem.targets: list every unit that must also be "
                        "attacked as a target"
                    )

    def name(self, unit: str) -> str:
        return self.names.get(unit, unit)

    def contacts_of(self, attacker: str) -> list[Contact]:
        return [c for c in self.contacts if c.attacker == attacker]


@attrs.frozen(order=True)
class Combat:
    """One combat: attackers and targets in canonical order, and the supporters it has."""

    attackers: tuple[str, ...]
    targets: tuple[str, ...]
    supporters: tuple[str, ...] = ()


Assignment = tuple[Combat, ...]


def order_of(problem: CombatProblem) -> dict[str, int]:
    ids = (*problem.attackers, *problem.targets, *(s.id for s in problem.supporters))
    out: dict[str, int] = {}
    for i, unit in enumerate(ids):
        out.setdefault(unit, i)
    return out


def canonical(problem: CombatProblem, assignment: Assignment) -> Assignment:
    """The listed form: units of each combat in problem order, combats by their units."""
    order = order_of(problem)

    def rank(u: str) -> int:
        return order.get(u, len(order))

    combats = [
        Combat(
            tuple(sorted(c.attackers, key=rank)),
            tuple(sorted(c.targets, key=rank)),
            tuple(sorted(c.supporters, key=rank)),
        )
        for c in assignment
    ]
    return tuple(
        sorted(
            combats,
            key=lambda c: (tuple(map(rank, c.attackers)), tuple(map(rank, c.targets))),
        )
    )
