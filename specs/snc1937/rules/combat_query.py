"""SNC's attacks of a Fight phase served by the solver layer (SNC-10.0.x, SNC-10.2.x).

`combat_problem` fills the solvers' plain description (`solvers.queries.combat.CombatProblem`)
from a position: attackers are the phasing side's units, targets are enemy-occupied hexes (every
unit of the hex defends, SNC-10.0.4, so a hex is attacked as one stack), a contact is a unit
next to the hex across a hexside an attack may cross (SNC-10.0.1, SNC-10.4.1.9, and a Yangtze
hexside as option `yangtze_hexside_combat` reads it, `crossable`). The grouping is
`ONE_TARGET`: one target hex per attack, any number of adjacent
attackers from any hexes (SNC-10.0.5), factors never split (SNC-10.0.6), each unit attacks at
most once and each hex is attacked at most once (SNC-10.0.7, SNC-10.0.8). Attackers are
units, not stacks, so units of one stack may attack different hexes or stay out
(SNC-10.0.9), and nothing bounds the number of attacks (SNC-10.1.1). Attacking is
voluntary (SNC-10.0.2): nothing must attack and nothing must be attacked. Static units never
attack (SNC-10.2.1, SNC-10.2.3) but infantry in their hex may (SNC-10.2.2).

SNC declares attacks one at a time and resolves each before the next (SNC-10.1.2), so the game
needs the legal *next* attacks: `legal_attacks` asks the solver, target by target, for the
attacker groups of that hex; units that have attacked already (`attacked`) and hexes holding a
unit attacked already (`defended`) are left out of the problem. One rule is arithmetic and not
part of the combat description: the adjusted attack strength must not round down to 0
(SNC-10.4.1.8, `odds.battle_odds`); it is applied to the solver's groups here, and explained
here. Each attack carries whether it earns the concentric shift (`column_shifts.concentric`,
SNC-10.4.2.x) and the fire-support kinds the attacker may add (`fire_support.eligible_kinds`,
SNC-11.x). `attacks_oracle.py` is the plain enumeration held equal to it by tests.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping

import attrs

from kernel.hexes import Hex, hex_name, parse_hex
from kernel.variants import Variant
from solvers.queries import assignments as solver
from solvers.queries.combat import ONE_TARGET, Combat, CombatProblem, Contact, Reason, Rules
from specs.snc1937.data.loader import SNCData
from specs.snc1937.rules.board import Board
from specs.snc1937.rules.column_shifts import concentric
from specs.snc1937.rules.fire_support import KINDS, eligible_kinds
from specs.snc1937.rules.odds import attack_strength, no_combat_sides, standard_preset

RULES = Rules(
    contact=Reason(
        ("SNC-10.0.1", "SNC-10.0.5", "SNC-10.4.1.9"),
        "{unit} is not adjacent to {target} across a hexside an attack may cross",
    ),
    attack_once=Reason(("SNC-10.0.6", "SNC-10.0.7"), "{unit} attacks more than once"),
    defend_once=Reason(("SNC-10.0.6", "SNC-10.0.8"), "{target} is attacked more than once"),
    grouping=Reason(("SNC-10.0.5",), "one attack targets exactly one hex"),
    static=Reason(("SNC-10.2.1", "SNC-10.2.3"), "{unit} is a static unit and never attacks"),
    not_in_front=Reason(("SNC-10.0.3",), "{unit} is not a unit that may attack now"),
)
ALREADY_ATTACKED = Reason(("SNC-10.0.7",), "{unit} has already attacked this phase")
ALREADY_DEFENDED = Reason(("SNC-10.0.8",), "{target} holds a unit already attacked this phase")
NO_ATTACKERS = Reason(("SNC-10.0.5",), "an attack needs at least one attacking unit")
NOT_ENEMY = Reason(("SNC-10.0.1", "SNC-10.0.3"), "{target} is not an enemy-occupied hex")
ZERO_STRENGTH = Reason(("SNC-10.4.1.8",), "the attack strength rounds down to 0")


@attrs.frozen
class Attack:
    """One legal next attack: the target hex, the attacking units (in problem order) with the
    hex each attacks from, whether it earns the Japanese concentric 1R (SNC-10.4.2.1 to
    SNC-10.4.2.3, AMB-SNC-27) and the fire-support kinds its attacker may add (SNC-11.0.x,
    SNC-11.1.3, SNC-11.4.2)."""

    target: Hex
    attackers: tuple[str, ...]
    froms: tuple[Hex, ...]
    concentric: bool
    fire_support: tuple[str, ...]


def _where(stacks: Mapping[Hex, tuple[str, ...]]) -> dict[str, Hex]:
    return {u: h for h, ids in stacks.items() for u in ids}


def _variant(variant: Variant | None) -> Variant:
    """`variant` None stands for preset `standard` (as in `odds.attack_problem`)."""
    return standard_preset() if variant is None else variant


def crossable(data: SNCData, board: Board, frm: Hex, target: Hex, variant: Variant) -> bool:
    """Whether an attack may go from `frm` into the adjacent `target`: not across an all-sea or
    all-lake hexside (SNC-10.4.1.9), nor across the hexsides `odds.no_combat_sides` adds under
    option `yangtze_hexside_combat` (found here): a Yangtze hexside under `forbidden`
    (SNC-9.4.6, AMB-SNC-24's note), none under `allowed` (SNC-10.4.1.9 alone)."""
    if target not in board.neighbors(frm):
        return False
    kind = board.side_kind(frm, target)
    return kind not in data.tec.no_combat_across and kind not in no_combat_sides(variant)


class _Names(Mapping[str, str]):
    """Names for explanations: units with their hex, targets as "hex 3511"."""

    def __init__(self, where: Mapping[str, Hex]) -> None:
        self._where = where

    def __getitem__(self, key: str) -> str:
        if key in self._where:
            return f"{key} in {hex_name(self._where[key])}"
        return f"hex {key}"

    def __iter__(self) -> Iterator[str]:
        return iter(self._where)

    def __len__(self) -> int:
        return len(self._where)


def combat_problem(
    data: SNCData,
    board: Board,
    stacks: Mapping[Hex, tuple[str, ...]],
    side: str,
    *,
    variant: Variant | None = None,
    attacked: Collection[str] = frozenset(),
    defended: Collection[str] = frozenset(),
    only: Hex | None = None,
    everyone: bool = False,
) -> CombatProblem:
    """The attacks `side` may still make this phase as the solvers' plain description (module
    docstring); `only` restricts the targets to one hex. Units in `attacked` have attacked
    already (SNC-10.0.7); hexes holding a unit of `defended` were attacked already
    (SNC-10.0.8). Every static unit of `side` is listed as `static` (SNC-10.2.1). With
    `everyone`, units and enemy hexes without a contact are listed too, so an explanation
    can name the contact rule they break rather than call them strangers. `variant` decides
    which hexsides an attack may cross (`crossable`); None stands for preset `standard`."""
    v = _variant(variant)
    done, hit = frozenset(attacked), frozenset(defended)
    where = _where(stacks)
    foes = {
        h
        for h, ids in stacks.items()
        if ids
        and board.on_map(h)
        and all(data.unit(u).side != side for u in ids)
        and hit.isdisjoint(ids)
        and (only is None or h == only)
    }
    attackers: list[str] = []
    contacts: list[Contact] = []
    static: set[str] = set()
    for h in sorted(stacks):
        if not board.on_map(h):
            continue
        for u in stacks[h]:
            spec = data.unit(u)
            if spec.side != side:
                continue
            if spec.is_static:  # SNC-2.2.1.6, SNC-10.2.1, SNC-10.2.3: it never attacks
                static.add(u)
                continue
            if u in done:  # SNC-10.0.6: a unit's factors go to one battle only
                continue
            mine = [t for t in board.neighbors(h) if t in foes and crossable(data, board, h, t, v)]
            if mine or everyone:
                attackers.append(u)
                contacts.extend(Contact(u, hex_name(t)) for t in sorted(mine))
    named = foes if everyone else {parse_hex(c.target) for c in contacts}
    targets = tuple(hex_name(t) for t in sorted(named))
    return CombatProblem(
        attackers=tuple(attackers),
        targets=targets,
        contacts=tuple(contacts),
        grouping=ONE_TARGET,
        static=frozenset(static),
        names=_Names(where),
        rules=RULES,
    )


def _attack(
    data: SNCData,
    board: Board,
    variant: Variant,
    stacks: Mapping[Hex, tuple[str, ...]],
    side: str,
    combat: Combat,
    available: Collection[str],
) -> Attack:
    where = _where(stacks)
    target = parse_hex(combat.targets[0])
    froms = tuple(where[a] for a in combat.attackers)
    hexes = frozenset(froms)
    return Attack(
        target=target,
        attackers=combat.attackers,
        froms=froms,
        concentric=side == "JP"
        and not board.is_city(target)
        and concentric(data, target, hexes, stacks, variant),
        fire_support=eligible_kinds(
            board,
            variant,
            owner=side,
            attacking=True,
            target=target,
            attacker_hexes=hexes,
            available=available,
        ),
    )


def strong_enough(
    data: SNCData,
    board: Board,
    stacks: Mapping[Hex, tuple[str, ...]],
    reduced: Collection[str],
    target: Hex,
    attackers: Collection[str],
) -> bool:
    """The adjusted attack strength does not round down to 0 (SNC-10.4.1.8)."""
    where = _where(stacks)
    return attack_strength(data, board, target, {a: where[a] for a in attackers}, reduced) > 0


def contacts_by_target(
    data: SNCData,
    board: Board,
    stacks: Mapping[Hex, tuple[str, ...]],
    side: str,
    *,
    variant: Variant | None = None,
    attacked: Collection[str] = frozenset(),
    defended: Collection[str] = frozenset(),
    only: Hex | None = None,
) -> dict[Hex, tuple[str, ...]]:
    """Each enemy hex `side` may still attack, in hex order, with every unit that may attack it
    now in problem order: the contacts of `combat_problem` (SNC-10.0.1, SNC-10.0.5 to
    SNC-10.0.8, SNC-10.2.1, SNC-10.4.1.9); `only` restricts it to one hex. Read from the
    stacks directly rather than through the named problem (the same contacts, in its order)."""
    v = _variant(variant)
    done, hit = frozenset(attacked), frozenset(defended)
    unit = data.unit
    foes = {
        h
        for h, ids in stacks.items()
        if ids
        and (only is None or h == only)
        and hit.isdisjoint(ids)
        and board.on_map(h)
        and all(unit(u).side != side for u in ids)
    }
    out: dict[Hex, list[str]] = {}
    if not foes:
        return {}
    nb = board.neighbors
    for h in sorted({n for f in foes for n in nb(f) if n in stacks}):  # next to a target
        if not board.on_map(h):
            continue
        near = [t for t in nb(h) if t in foes]
        mine: list[Hex] | None = None
        for u in stacks[h]:
            spec = unit(u)
            # SNC-10.2.1: a static unit never attacks; SNC-10.0.6: one battle per unit
            if spec.side != side or spec.is_static or u in done:
                continue
            if mine is None:  # SNC-10.4.1.9, SNC-9.4.6: the hexsides an attack may cross
                mine = sorted(t for t in near if crossable(data, board, h, t, v))
            # SNC-10.2.2: a unit attacks out of its hex, static units in it or not
            for t in mine:
                out.setdefault(t, []).append(u)
    return {t: tuple(out[t]) for t in sorted(out)}


def attack_targets(
    data: SNCData,
    board: Board,
    stacks: Mapping[Hex, tuple[str, ...]],
    reduced: Collection[str],
    side: str,
    *,
    variant: Variant | None = None,
    attacked: Collection[str] = frozenset(),
    defended: Collection[str] = frozenset(),
) -> tuple[Hex, ...]:
    """The hexes, in hex order, on which `side` may declare a next attack: those with a legal
    attack in `legal_attacks`. The strength only grows as attackers join, so a hex qualifies
    exactly when all its possible attackers together do not round down to 0 (SNC-10.4.1.8),
    and a declaration begun there can always be completed."""
    found = contacts_by_target(
        data, board, stacks, side, attacked=attacked, defended=defended, variant=variant
    )
    return tuple(
        t for t, units in found.items() if strong_enough(data, board, stacks, reduced, t, units)
    )


def legal_attacks(
    data: SNCData,
    board: Board,
    variant: Variant,
    stacks: Mapping[Hex, tuple[str, ...]],
    reduced: Collection[str],
    side: str,
    *,
    attacked: Collection[str] = frozenset(),
    defended: Collection[str] = frozenset(),
    available: Collection[str] = KINDS,
) -> Iterator[Attack]:
    """Every legal next attack of `side`, lazily: targets in hex order, and for each target the
    solver's attacker groups in its canonical order (SNC-10.0.5 to SNC-10.0.8, SNC-10.1.2,
    SNC-10.2.x, SNC-10.4.1.8, SNC-10.4.1.9). `available` is the fire support not yet used
    (SNC-11.1.5)."""
    whole = combat_problem(
        data, board, stacks, side, attacked=attacked, defended=defended, variant=variant
    )
    for t in whole.targets:
        target = parse_hex(t)
        problem = combat_problem(
            data, board, stacks, side,
            attacked=attacked, defended=defended, only=target, variant=variant,
        )  # fmt: skip
        for assignment in solver.assignments(problem):
            if not assignment:
                continue  # no attack at all: attacking is voluntary (SNC-10.0.2)
            (combat,) = assignment
            if strong_enough(data, board, stacks, reduced, target, combat.attackers):
                yield _attack(data, board, variant, stacks, side, combat, available)


def explain_attack(
    data: SNCData,
    board: Board,
    stacks: Mapping[Hex, tuple[str, ...]],
    reduced: Collection[str],
    side: str,
    target: Hex,
    attackers: Collection[str],
    *,
    variant: Variant | None = None,
    attacked: Collection[str] = frozenset(),
    defended: Collection[str] = frozenset(),
) -> list[Reason]:
    """Why `attackers` may not attack `target` now, each reason naming its clauses (empty when
    the attack is legal). What the combat description leaves out is checked here: an empty
    attack, a hex that is not an enemy stack, units or a hex already used this phase
    (SNC-10.0.7, SNC-10.0.8) and a strength of 0 (SNC-10.4.1.8); the rest comes from the
    solver's unsat cores on the whole phase's problem."""
    where = _where(stacks)
    names = _Names(where)
    units = list(attackers)
    if not units:
        return [NO_ATTACKERS]
    defenders = stacks.get(target, ())
    t = hex_name(target)
    out: list[Reason] = []
    if not defenders or any(data.unit(u).side == side for u in defenders):
        return [NOT_ENEMY.format(target=f"hex {t}")]
    if not frozenset(defended).isdisjoint(defenders):
        out.append(ALREADY_DEFENDED.format(target=f"hex {t}"))
    done = frozenset(attacked)
    out += [ALREADY_ATTACKED.format(unit=names[u]) for u in units if u in done]
    rest = tuple(u for u in units if u not in done)
    if out:
        return out
    problem = combat_problem(
        data, board, stacks, side,
        attacked=attacked, defended=defended, everyone=True, variant=variant,
    )  # fmt: skip
    out += solver.explain(problem, (Combat(rest, (t,)),))
    if not out and not strong_enough(data, board, stacks, reduced, target, rest):
        out.append(ZERO_STRENGTH)
    return out


def check_attack(
    data: SNCData,
    board: Board,
    stacks: Mapping[Hex, tuple[str, ...]],
    reduced: Collection[str],
    side: str,
    target: Hex,
    attackers: Collection[str],
    *,
    variant: Variant | None = None,
    attacked: Collection[str] = frozenset(),
    defended: Collection[str] = frozenset(),
) -> bool:
    """Whether `attackers` may attack `target` as the next attack (`explain_attack` is empty)."""
    return not explain_attack(
        data, board, stacks, reduced, side, target, attackers,
        attacked=attacked, defended=defended, variant=variant,
    )  # fmt: skip
