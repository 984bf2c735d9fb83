"""Nomonhan's combat declarations served by the Z3 layer (NOM-9.2 to NOM-9.8, NOM-9.17-9.21).

`combat_problem` fills the solvers' plain description from a state: the contacts of `front`,
who must attack (NOM-9.2, less NOM-9.13 on a hill), who must be attacked (NOM-9.3 under its
readings), the grouping (NOM-9.7, AMB-NOM-9), the Artillery as a supporter with its range
reading and the reasons it may be unavailable. `declarations` lists the legal declarations from
the solver; `declare.legal_declarations` stays as the plain-Python oracle.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping

from kernel.hexes import hex_distance
from solvers.queries import assignments as solver
from solvers.queries.combat import (
    MANY,
    ONE_TARGET,
    Assignment,
    CombatProblem,
    Contact,
    Reason,
    Rules,
    Supporter,
)
from solvers.queries.combat import Combat as Fight
from solvers.queries.combat_explain import why_none
from specs.nomonhan.rules.board import Board
from specs.nomonhan.rules.declare import (
    MAX_ARTILLERY_RANGE,
    artillery_beset,
    declaration_problems,
    front,
    legal_declarations,
    v_fixed_order,
)
from specs.nomonhan.rules.state import Combat, NomonhanState

RULES = Rules(
    contact=Reason(
        ("NOM-9.6",),
        "{unit} is not in contact with {target} (adjacent, not across a river without a bridge)",
    ),
    attack_once=Reason(("NOM-9.4",), "{unit} attacks more than once"),
    defend_once=Reason(("NOM-9.5",), "{target} is attacked more than once"),
    grouping=Reason(
        ("NOM-9.7",),
        "the units of one combat must form one connected group in contact "
        "(one defender per combat under combat_grouping=one_defender, AMB-NOM-9)",
    ),
    attack_all=Reason(
        ("NOM-9.14",),
        "{unit} is not on a hill and must attack every enemy unit in its ZOC (AMB-NOM-9)",
    ),
    static=Reason(("NOM-9.20",), "{unit} cannot attack in this phase"),
    support_once=Reason(("NOM-9.17",), "{unit} may support only one attack"),
    support_range=Reason(
        ("NOM-9.21",), "the combat is beyond the range of 3 of {unit} (AMB-NOM-13)"
    ),
    not_in_front=Reason(("NOM-9.1",), "{unit} is not a unit that may fight in this combat"),
)


def combat_problem(board: Board, state: NomonhanState) -> CombatProblem:
    """The plain description of this Combat Phase's declaration, for the solvers."""
    v = state.variant
    data = board.data
    f = front(board, state)
    rank = f.order.__getitem__

    attackers = tuple(sorted(f.attackers, key=rank))
    targets = tuple(sorted(f.defenders, key=rank))
    side_on_map = {
        u.id for u in state.units if u.hex is not None and data.unit(u.id).side == f.attacker_side
    }
    names = _Names(board, state)
    must_attack = {
        a: Reason(("NOM-9.2",), f"{names[a]} is in an enemy ZOC and must attack") for a in f.obliged
    }
    must_defend = {
        d: Reason(("NOM-9.3",), f"{names[d]} is in an attacker's ZOC and must be attacked")
        for d in f.must_defend
    }
    return CombatProblem(  # NOM-9.4, NOM-9.5: the solver puts a unit in one combat at most
        attackers=attackers,
        targets=targets,
        contacts=tuple(Contact(a, d) for a in attackers for d in sorted(f.contacts[a], key=rank)),
        grouping=ONE_TARGET if v.is_("combat_grouping", "one_defender") else MANY,  # NOM-9.7
        must_attack=must_attack,
        must_be_attacked=must_defend,
        attack_all=f.obliged if v.is_("attacker_targets", "all_adjacent") else frozenset(),
        static=frozenset(side_on_map - set(attackers)),
        supporters=_artillery(board, state, attackers, targets),
        names=names,
        rules=RULES,
    )


class _Names(Mapping[str, str]):
    """Unit names for explanations ("4th Tank Regiment in 0305"), made only when asked for."""

    def __init__(self, board: Board, state: NomonhanState) -> None:
        self._board = board
        self._hexes = {u.id: u.hex for u in state.units if u.hex is not None}

    def __getitem__(self, unit: str) -> str:
        name = self._board.data.unit(unit).name
        return f"{name} in {self._hexes[unit]}" if unit in self._hexes else name

    def __iter__(self) -> Iterator[str]:
        return iter(self._hexes)

    def __len__(self) -> int:
        return len(self._hexes)


def _artillery(
    board: Board,
    state: NomonhanState,
    attackers: tuple[str, ...],
    targets: tuple[str, ...],
) -> tuple[Supporter, ...]:
    """The Artillery as a supporter (NOM-9.17-9.21, AMB-NOM-13, AMB-NOM-14)."""
    v = state.variant
    art = board.data.artillery
    if art is None:
        return ()
    here = state.unit(art.id).hex
    unavailable: Reason | None = None
    if here is None:
        unavailable = Reason(("NOM-9.17",), "there is no Soviet Artillery on the map to support")
    elif state.phasing != art.side:
        unavailable = Reason(
            ("NOM-9.17",), "the Artillery supports Soviet attacks only, never a defence"
        )
    elif state.artillery_used:
        unavailable = Reason(
            ("NOM-9.17",), "the Artillery has already supported (once per period, AMB-NOM-14)"
        )
    elif v.is_("artillery_adjacency", "banned") and artillery_beset(board, state):
        unavailable = Reason(
            ("NOM-9.18",), "a Japanese unit is adjacent to the Artillery: it cannot support"
        )
    reading = v.reading("artillery_range_to")
    pool = {
        "defender_hex": targets,
        "attacker_hex": attackers,
        "any_participant": attackers + targets,
    }[reading]
    hexes = {u.id: u.hex for u in state.units}
    reach = frozenset(
        u
        for u in pool
        if here is not None
        and (h := hexes[u]) is not None
        and hex_distance(here, h) <= MAX_ARTILLERY_RANGE  # NOM-9.21: support up to range 3
    )
    return (Supporter(art.id, reach, 1, unavailable),)


def to_declaration(assignment: Assignment) -> tuple[Combat, ...]:
    """The problem lists units in data order, so the solver's canonical form is the game's
    (`declare.canonical`)."""
    return tuple(Combat(c.attackers, c.targets, bool(c.supporters)) for c in assignment)


def to_assignment(combats: tuple[Combat, ...], artillery: str | None) -> Assignment:
    return tuple(
        Fight(c.attackers, c.defenders, (artillery,) if c.support and artillery else ())
        for c in combats
    )


def _beyond_solver(state: NomonhanState) -> bool:
    """Readings the solvers' problem cannot state: combats that are not one connected group
    (combat_connection=free: `solvers.queries.combat.MANY` is connected) are served by the
    plain-Python
    oracle `declare.legal_declarations`."""
    return state.variant.is_("combat_connection", "free")


def _self_supported(board: Board, state: NomonhanState, decl: tuple[Combat, ...]) -> bool:
    """The Artillery supports the combat it attacks in, which artillery_self_support=
    other_combats forbids (NOM-9.17); a solver `Supporter` reaches a combat by any of its
    units, so the Z3 layer's answers are filtered."""
    art = board.data.artillery
    return (
        art is not None
        and any(c.support and art.id in c.attackers for c in decl)
        and state.variant.is_("artillery_self_support", "other_combats")
    )  # the reading is asked for only where it decides (an explorer counts the asks)


def declarations(board: Board, state: NomonhanState) -> list[tuple[Combat, ...]]:
    """Every legal declaration, generated by Z3; with the resolution order fixed in advance
    (AMB-NOM-11) every order of each set of combats is a declaration of its own."""
    if _beyond_solver(state):
        return legal_declarations(board, state)
    out: list[tuple[Combat, ...]] = []
    for assignment in solver.assignments(combat_problem(board, state)):
        decl = to_declaration(assignment)
        if _self_supported(board, state, decl):
            continue
        if v_fixed_order(state):
            out.extend(itertools.permutations(decl))
        else:
            out.append(decl)
    return out


def why_no_declaration(board: Board, state: NomonhanState) -> tuple[str, ...]:
    """The clauses whose obligations collide where no declaration is legal, from a minimal
    unsat core of the declaration's encoding (`solvers.queries.combat_explain.why_none`); empty when
    one is legal. Under combat_connection=free (served by the plain oracle) the obligations
    to attack and be attacked (NOM-9.2, NOM-9.3) and the one-combat rules (NOM-9.4, NOM-9.5)."""
    if _beyond_solver(state):
        return () if legal_declarations(board, state) else ("NOM-9.2", "NOM-9.3", "NOM-9.4")
    reasons = why_none(combat_problem(board, state))
    return tuple(dict.fromkeys(c for r in reasons for c in r.clauses))


def count_declarations(board: Board, state: NomonhanState) -> int:
    """How many declarations there are, without listing them (orders counted as above)."""
    if (
        v_fixed_order(state)
        or _beyond_solver(state)
        or (
            state.variant.is_("artillery_rules", "generic")  # else the Artillery never attacks
            and state.variant.is_("artillery_self_support", "other_combats")
        )
    ):
        return len(declarations(board, state))
    return solver.count(combat_problem(board, state))


def explain_declaration(
    board: Board, state: NomonhanState, combats: tuple[Combat, ...]
) -> list[Reason]:
    """The rules a declaration breaks, from a minimal unsat core (empty when it is legal);
    from `declare.declaration_problems` where the solver's problem cannot state the reading."""
    if _beyond_solver(state) or _self_supported(board, state, combats):
        return [
            Reason((clause,), text) for clause, text in declaration_problems(board, state, combats)
        ]
    art = board.data.artillery
    problem = combat_problem(board, state)
    return solver.explain(problem, to_assignment(combats, art.id if art else "SU-ART"))
