"""Helpers for the sequence, initiative, victory and movement tests.

`QUIET` puts every at-start unit on the map with only one contact: Kobayashi (JP) in 0503 next
to 36/149 (SU) in 0504. Both sudden-death units (the Artillery and a Japanese tank) are on the
map and out of reach, so a step loss in that one combat ends nothing but, perhaps, the turn.
"""

from __future__ import annotations

import heapq
from typing import Any

from kernel.hexes import Hex, hex_neighbors, parse_hex
from specs.nomonhan.data.loader import UnitSpec
from specs.nomonhan.rules.actions import Declare, Loss, Roll
from specs.nomonhan.rules.board import BLOWN, PONTOON, RIVER, Board
from specs.nomonhan.rules.state import Combat, NomonhanState, Phase, other
from tests.nomonhan.positions import (
    GAME,
    JP_3TK,
    JP_4TK,
    JP_KOB,
    JP_YAM,
    SU_9,
    SU_11TK,
    SU_36,
    SU_615,
    SU_ART,
    apply_all,
    position,
)

BOARD: Board = GAME.rules.board

QUIET: dict[str, str] = {
    JP_KOB: "0503",
    JP_3TK: "0807",
    JP_4TK: "0809",
    SU_36: "0504",
    SU_9: "0107",
    SU_615: "0105",
    SU_ART: "0103",
}

# Reinforcements out of the way (for positions after Turn 1 that are not about them).
NO_GT = (JP_YAM, SU_11TK)

# The unit of each side in the one contact of QUIET.
FIGHTER = {"JP": JP_KOB, "SU": SU_36}


NAMES = {
    "JP_KOB": JP_KOB,
    "JP_3TK": JP_3TK,
    "JP_4TK": JP_4TK,
    "JP_YAM": JP_YAM,
    "SU_36": SU_36,
    "SU_9": SU_9,
    "SU_615": SU_615,
    "SU_ART": SU_ART,
    "SU_11TK": SU_11TK,
}


def quiet(**moves: str | None) -> dict[str, str]:
    """QUIET with some units elsewhere, or (None) eliminated; keywords are the unit constants'
    names (JP_KOB="0605", SU_36=None)."""
    out = dict(QUIET)
    for name, where in moves.items():
        if where is None:
            out.pop(NAMES[name], None)
        else:
            out[NAMES[name]] = where
    return out


def contact(
    turn: int = 1,
    phase: Phase = Phase.IP_COMBAT,
    *,
    units: dict[str, str] | None = None,
    preset: str = "ja",
    options: dict[str, str] | None = None,
    steps: dict[str, int] | None = None,
    **fields: Any,
) -> NomonhanState:
    """A QUIET position (or `units`) in the given turn and phase."""
    return position(
        QUIET if units is None else units,
        preset=preset,
        options=options,
        steps=steps,
        turn=turn,
        phase=phase,
        **fields,
    )


def fight(state: NomonhanState, attacker_hits: int, defender_hits: int) -> NomonhanState:
    """Declare the one QUIET combat (the phasing side attacks) and roll the given hits."""
    attacker = FIGHTER[state.phasing]
    defender = FIGHTER[other(state.phasing)]
    return apply_all(
        state, Declare((Combat((attacker,), (defender,)),)), Roll(attacker_hits, defender_hits)
    )


def ip_loses(state: NomonhanState, retreat_to: str | None = None) -> NomonhanState:
    """In a combat phase of a QUIET position: the initiative player's unit takes one damage
    point, as a step loss or (with `retreat_to`) a retreat."""
    ip_attacks = state.phasing == state.initiative
    rolled = fight(state, 0, 1) if ip_attacks else fight(state, 1, 0)
    to = parse_hex(retreat_to) if retreat_to is not None else None
    return apply_all(rolled, Loss(FIGHTER[state.initiative], to))


def points_of(state: NomonhanState) -> dict[str, int]:
    assert state.result is not None
    return dict(state.result.points)


# --- an independent statement of the movement rules, for property tests --------------------


def crossable(state: NomonhanState, spec: UnitSpec, a: Hex, b: Hex) -> bool:
    """Whether `spec` may step from `a` into adjacent `b`, read straight from the map data:
    rivers without a bridge never (NOM-8.4), a blown pontoon never (NOM-OPT.5), the pontoon
    by reading (NOM-8.5)."""
    kind = BOARD.hexside_kind(a, b, state.demolished)
    if kind in (RIVER, BLOWN):
        return False
    if kind == PONTOON:
        if state.variant.is_("pontoon_users", "not_tanks"):
            return spec.type != "tank"
        return spec.type in ("infantry", "cavalry")
    return True


HILLS = frozenset(parse_hex(f"01{r:02d}") for r in range(1, 7))  # NOM-8.3, from the text


def reference_destinations(state: NomonhanState, unit_id: str) -> set[Hex]:
    """Where a unit may end its move, by a plain search over (hex, MP left) written from the
    rules text: 1 MP per clear hex, 2 per hill, stop on entering an EZOC, never through or
    into another unit (friendly units passable under pass_through=friendly)."""
    spec = GAME.rules.data.unit(unit_id)
    start = state.unit(unit_id).hex
    assert start is not None
    occ = {u.hex: u.id for u in state.units if u.hex is not None}
    enemy_zoc: set[Hex] = set()
    for h, uid in occ.items():
        if GAME.rules.data.unit(uid).side != spec.side:
            for n in hex_neighbors(h):
                if n in BOARD.map.hexes and zoc_reaches(state, h, n):
                    enemy_zoc.add(n)
    through_friends = state.variant.is_("pass_through", "friendly")
    best: dict[Hex, int] = {start: spec.ma}
    queue = [(-spec.ma, start)]
    while queue:
        neg, here = heapq.heappop(queue)
        if -neg < best[here] or (here != start and here in enemy_zoc):
            continue
        for n in hex_neighbors(here):
            if n not in BOARD.map.hexes or not crossable(state, spec, here, n):
                continue
            cost = 2 if n in HILLS else 1
            holder = occ.get(n)
            passable = through_friends and GAME.rules.data.unit(holder or unit_id).side == spec.side
            if holder is not None and holder != unit_id and not passable:
                continue
            left = -neg - cost
            if left >= 0 and left > best.get(n, -1):
                best[n] = left
                heapq.heappush(queue, (-left, n))
    return {h for h in best if h != start and h not in occ}


def zoc_reaches(state: NomonhanState, a: Hex, b: Hex) -> bool:
    """ZOC reaches from `a` into adjacent `b` (NOM-7.4, AMB-NOM-16, AMB-NOM-17)."""
    kind = BOARD.hexside_kind(a, b, state.demolished)
    if kind == RIVER:
        return False
    if kind == PONTOON:
        return state.variant.is_("pontoon_is_bridge", "yes")
    if kind == BLOWN:
        return state.variant.is_("pontoon_is_bridge", "yes") and state.variant.is_(
            "demolition_effect", "crossing_only"
        )
    return True
