"""Shorthands for the Combat Phase tests (NOM §9).

`combat_position` is `positions.position` in a Combat Phase, with two bystanders parked far
from the action unless a test places them: the Soviet Artillery (its elimination would end the
game, NOM-4.1) and the 4th Tank Regiment (losing both Japanese tanks would end it, NOM-4.2).
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from kernel.hexes import Hex, parse_hex
from specs.nomonhan.rules.actions import Declare, Loss, Resolve, Roll
from specs.nomonhan.rules.state import Combat, NomonhanState, Phase, Stage
from specs.nomonhan.rules.strength import combat_dice, hit_chances
from tests.nomonhan.positions import GAME, JP_4TK, SU_ART, apply_all, legal, position

PARK = {SU_ART: "0809", JP_4TK: "0801"}  # out of reach of every test's units


def combat_position(
    units: dict[str, str],
    *,
    phase: Phase = Phase.IP_COMBAT,
    park: bool = True,
    **kwargs: Any,
) -> NomonhanState:
    """A Combat Phase position (Japanese initiative unless the turn is even)."""
    placed = dict(units)
    if park:
        for unit, where in PARK.items():
            placed.setdefault(unit, where)
    return position(placed, phase=phase, **kwargs)


def c(
    attackers: str | tuple[str, ...], defenders: str | tuple[str, ...], support: bool = False
) -> Combat:
    """One combat; a single unit may be given as a bare id."""
    atts = (attackers,) if isinstance(attackers, str) else attackers
    defs = (defenders,) if isinstance(defenders, str) else defenders
    return Combat(atts, defs, support)


def declare(*combats: Combat) -> Declare:
    return Declare(tuple(combats))


def legal_declarations(state: NomonhanState) -> set[tuple[Combat, ...]]:
    """The declarations the game lists as legal, as a set of combat tuples."""
    assert state.stage == Stage.DECLARE
    out = set()
    for action in legal(state):
        assert isinstance(action, Declare)
        out.add(action.combats)
    return out


def decls(*declarations: Iterable[Combat]) -> set[tuple[Combat, ...]]:
    return {tuple(d) for d in declarations}


def dice(state: NomonhanState, combat: Combat) -> tuple[int, int]:
    return combat_dice(GAME.rules.board, state, combat)


def chances(state: NomonhanState, combat: Combat) -> tuple[Fraction, Fraction]:
    return hit_chances(GAME.rules.board, state, combat)


def rolling(state: NomonhanState, *combats: Combat) -> NomonhanState:
    """Declare `combats` and, if needed, pick the first one: the state awaits its roll."""
    state = apply_all(state, declare(*combats))
    if state.stage == Stage.PICK:
        state = apply_all(state, Resolve(0))
    assert state.stage == Stage.ROLL, state.stage
    return state


def roll_distribution(state: NomonhanState) -> dict[tuple[int, int], Fraction]:
    out: dict[tuple[int, int], Fraction] = {}
    for action, p in GAME.chance_outcomes(state):
        assert isinstance(action, Roll)
        out[action.attacker_hits, action.defender_hits] = p
    return out


def loss_options(state: NomonhanState) -> set[tuple[str, str | None]]:
    """The legal damage choices as (unit, retreat hex name or None for a step loss)."""
    out: set[tuple[str, str | None]] = set()
    for action in legal(state):
        assert isinstance(action, Loss)
        out.add((action.unit, None if action.retreat_to is None else str(action.retreat_to)))
    return out


def retreats_of(state: NomonhanState, unit: str) -> set[str]:
    return {h for u, h in loss_options(state) if u == unit and h is not None}


def hx(name: str) -> Hex:
    return parse_hex(name)


def where(state: NomonhanState, unit: str) -> str | None:
    h = state.unit(unit).hex
    return None if h is None else str(h)
