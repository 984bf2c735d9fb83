"""SNC's one-hex retreat after a landing as a solver problem (SNC-8.4.0.9, SNC-8.4.1.3).

`retreat_problem` describes the retreat of one unit as a
`solvers.queries.retreat_problem.RetreatProblem`: one hex (SNC-8.4.0.9 "retreats them one
hex"), never into a hex no unit may enter (3513, water,
SNC-0.0.1, SNC-9.4.6) nor across a Yangtze, all-sea or all-lake hexside (SNC-9.4.6), never into
a hex holding enemy units (SNC-9.0.12), and into an enemy ZOC only under
`retreat_into_ezoc=allowed` (AMB-SNC-11). A garrison (static) step never retreats: it is
eliminated (SNC-8.4.0.9), which is the solver's `MaxHexes(0)`. No legal destination means the
unit is eliminated. `specs/snc1937/rules/retreat.py` is the plain oracle held equal to it by tests.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from kernel.hexes import Hex, hex_name, parse_hex
from kernel.variants import Variant
from solvers.queries import retreat as solver
from solvers.queries.retreat_problem import (
    MaxHexes,
    NoCrossing,
    NoEntry,
    Prohibition,
    RetreatProblem,
    Rule,
)
from solvers.reasons import Reason
from specs.snc1937.data.loader import SNCData
from specs.snc1937.rules.board import Board
from specs.snc1937.rules.zoc import enemy, hexes_of_side, zoc_hexes

STEP = Rule(("SNC-8.4.0.9",), "a landing's survivors retreat exactly one hex")
NO_ENTRY = Rule(("SNC-0.0.1", "SNC-9.4.6"), "no unit may enter it")
NO_CROSSING = Rule(("SNC-9.4.6",), "no unit may cross that hexside")
ENEMY = Rule(("SNC-9.0.12",), "it holds enemy units")
EZOC = Rule(("AMB-SNC-11",), "it is in an enemy ZOC (retreat_into_ezoc=forbidden)")
GARRISON = Rule(("SNC-8.4.0.9",), "garrison steps are eliminated instead of retreating")


def retreat_problem(
    board: Board,
    data: SNCData,
    variant: Variant,
    stacks: Mapping[Hex, tuple[str, ...]],
    unit: str,
    frm: Hex,
) -> RetreatProblem:
    """The one-hex retreat of `unit` from `frm` (module docstring); the enemy's ZOC comes from
    its units in `stacks`."""
    spec = data.unit(unit)
    around = board.neighbors(frm)
    foes = hexes_of_side(data, stacks, enemy(spec.side))
    ezoc = (
        zoc_hexes(board, data, variant, stacks, enemy(spec.side))
        if variant.is_("retreat_into_ezoc", "forbidden")
        else frozenset()
    )
    start = hex_name(frm)
    rules: list[Prohibition] = []
    for n in around:
        name = hex_name(n)
        if not board.enterable(n):
            rules.append(NoEntry(name, NO_ENTRY))
        if board.side_kind(frm, n) in data.tec.prohibited_sides:
            rules.append(NoCrossing(start, name, NO_CROSSING))
        if n in foes:
            rules.append(NoEntry(name, ENEMY))
        if n in ezoc:
            rules.append(NoEntry(name, EZOC))
    return RetreatProblem(
        unit=unit,
        hexes=(start, *(hex_name(n) for n in around)),
        adjacent=tuple((start, hex_name(n)) for n in around),
        start=start,
        length=1,
        step_rule=STEP,
        prohibitions=tuple(rules),
        max_hexes=MaxHexes(0, GARRISON) if spec.is_static else None,
    )


def destinations(
    board: Board,
    data: SNCData,
    variant: Variant,
    stacks: Mapping[Hex, tuple[str, ...]],
    unit: str,
    frm: Hex,
) -> tuple[Hex, ...]:
    """The hexes the solver finds `unit` may retreat into, in hex order; empty: eliminated
    (SNC-8.4.0.9, AMB-SNC-11)."""
    problem = retreat_problem(board, data, variant, stacks, unit, frm)
    return tuple(sorted(parse_hex(x) for x in solver.destinations(problem)))


def explain(
    board: Board,
    data: SNCData,
    variant: Variant,
    stacks: Mapping[Hex, tuple[str, ...]],
    unit: str,
    frm: Hex,
    path: Sequence[Hex],
) -> list[Reason]:
    """Why retreating `unit` from `frm` along `path` (the hexes entered) is illegal, each reason
    naming its clauses; empty when it is legal."""
    problem = retreat_problem(board, data, variant, stacks, unit, frm)
    known = set(problem.hexes)
    names = [hex_name(x) for x in path]
    if any(x not in known for x in names):
        return [Reason(STEP.clauses, f"{unit} may only retreat into a hex next to {problem.start}")]
    return solver.explain(problem, names)
