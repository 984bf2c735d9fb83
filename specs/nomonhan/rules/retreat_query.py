"""A Nomonhan retreat as a `solvers.queries.retreat` problem: the paths a unit may take for n
points.

Each damage point taken as a retreat moves the unit one hex (NOM-9.24), so n points spent on
one unit's retreat trace a path of n hexes; every hex entered obeys the one-point rules of
`resolve.retreat_problem`, per reading, and the reasons are listed in the order that function
tests them, so an explanation names the clause it would name. Other units stay where they are
while this one retreats.
"""

from __future__ import annotations

from kernel.hexes import hex_name
from solvers.queries.retreat_problem import (
    MaxHexes,
    NoCrossing,
    NoEntry,
    Prohibition,
    RetreatProblem,
    Rule,
)
from specs.nomonhan.rules.board import Board, can_cross, enemy_zoc_hexes, occupancy
from specs.nomonhan.rules.state import NomonhanState
from specs.nomonhan.rules.strength import ja_artillery

STEP = Rule(("NOM-9.24",), "a retreat moves one adjacent hex per damage point")
FRIEND = Rule(("NOM-9.26",), "a friendly unit is there")
ENEMY = Rule(("NOM-8.6",), "an enemy unit is there")
EZOC = Rule(("NOM-9.25",), "it is in an enemy ZOC")
ARTILLERY = Rule(("NOM-9.28",), "the Soviet Artillery may not retreat: it loses its step")
ONCE = Rule(("NOM-9.24",), "a unit retreats at most one hex in a combat (AMB-NOM-20)")
_CROSSING = {"pontoon": "NOM-8.5", "blown": "NOM-OPT.5"}


def retreat_query(board: Board, state: NomonhanState, unit_id: str, points: int) -> RetreatProblem:
    """The retreat of `unit_id`, on the map in `state`, by `points` hexes."""
    spec = board.data.unit(unit_id)
    here = state.unit(unit_id).hex
    assert here is not None, f"{unit_id} is not on the map"
    v = state.variant
    occ = {h: u for h, u in occupancy(state).items() if u.id != unit_id}
    rules: list[Prohibition] = []
    for h, u in sorted(occ.items()):
        rules.append(NoEntry(hex_name(h), FRIEND if board.side_of[u.id] == spec.side else ENEMY))
    for a in sorted(board.map.hexes):
        for b in board.neighbors(a):
            if not can_cross(board, v, state.demolished, spec, a, b):
                kind = board.hexside_kind(a, b, state.demolished)
                rule = Rule(
                    (_CROSSING.get(kind, "NOM-8.4"),),
                    f"it may not cross the {kind} hexside (AMB-NOM-20)",
                )
                rules.append(NoCrossing(hex_name(a), hex_name(b), rule))
    rules.extend(
        NoEntry(hex_name(h), EZOC) for h in sorted(enemy_zoc_hexes(board, state, spec.side, occ))
    )
    return RetreatProblem(
        unit=spec.name,
        hexes=[hex_name(h) for h in board.map.hexes],
        adjacent=[(hex_name(a), hex_name(b)) for a in board.map.hexes for b in board.neighbors(a)],
        start=hex_name(here),
        length=points,
        step_rule=STEP,
        prohibitions=rules,
        max_hexes=_max_hexes(board, state, unit_id),
    )


def _max_hexes(board: Board, state: NomonhanState, unit_id: str) -> MaxHexes | None:
    """The JA Artillery never retreats (NOM-9.28); under AMB-NOM-20 (i) reading `once` a unit
    retreats one hex per combat at most."""
    v = state.variant
    if ja_artillery(v, board.data.unit(unit_id)):
        return MaxHexes(0, ARTILLERY)
    if v.is_("retreat_repeat", "once"):
        done = state.current is not None and unit_id in state.current.retreated
        return MaxHexes(0 if done else 1, ONCE)
    return None
