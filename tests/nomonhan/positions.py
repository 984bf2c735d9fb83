"""Building Nomonhan test positions by hand: units on named hexes, a phase and a stage.

Units not listed are eliminated, except reinforcements (GT units), which stay waiting off the
map unless listed in `eliminated`. The initiative follows the turn (NOM-6.5) unless given.
"""

from __future__ import annotations

from typing import Any, cast

import attrs

from kernel.errors import IllegalAction
from kernel.hexes import parse_hex
from kernel.roles import AssembledGame
from kernel.variants import Variant
from specs.nomonhan import PACKAGE
from specs.nomonhan.game import Nomonhan
from specs.nomonhan.rules.actions import Action
from specs.nomonhan.rules.state import NomonhanState, Phase, Stage, UnitState
from specs.nomonhan.rules.strength import full_steps


class NomonhanGame(AssembledGame[NomonhanState, Action]):
    """The assembled game as the tests read it: its rules are Nomonhan's (`rules.board`,
    `rules.data`)."""

    rules: Nomonhan


GAME = cast(NomonhanGame, PACKAGE.assemble())
assert isinstance(GAME.rules, Nomonhan)

JP_KOB, JP_3TK, JP_4TK, JP_YAM = "JP-KOB", "JP-3TK", "JP-4TK", "JP-YAM"
SU_36, SU_9, SU_615, SU_ART, SU_11TK = "SU-36-149", "SU-9", "SU-6-15", "SU-ART", "SU-11TK"


def variant(preset: str = "ja", **options: str) -> Variant:
    """A preset with some options set to other readings."""
    return GAME.catalogue.variant(preset, options)


def position(
    units: dict[str, str],
    *,
    preset: str = "ja",
    options: dict[str, str] | None = None,
    steps: dict[str, int] | None = None,
    eliminated: tuple[str, ...] = (),
    turn: int = 1,
    initiative: str | None = None,
    phase: Phase = Phase.IP_MOVEMENT,
    stage: Stage | None = None,
    **fields: Any,
) -> NomonhanState:
    """A state with `units` (id -> hex) on the map; see the module docstring."""
    v = variant(preset, **(options or {}))
    steps = steps or {}
    out = []
    for spec in GAME.rules.data.units:
        if spec.id in units:
            out.append(
                UnitState(
                    spec.id, parse_hex(units[spec.id]), steps.get(spec.id, full_steps(v, spec))
                )
            )
        elif spec.gt is not None and spec.id not in eliminated:
            out.append(UnitState(spec.id, None, spec.full_steps))
        else:
            out.append(UnitState(spec.id, None, 0))
    if stage is None:
        stage = Stage.MOVE if phase.is_movement else Stage.DECLARE
    return NomonhanState(
        variant=v,
        turn=turn,
        initiative=initiative or ("JP" if turn % 2 else "SU"),
        phase=phase,
        stage=stage,
        units=tuple(out),
        **fields,
    )


def apply_all(state: NomonhanState, *actions: Action) -> NomonhanState:
    for action in actions:
        state = GAME.apply(state, action)
    return state


def legal(state: NomonhanState) -> list[Action]:
    return list(GAME.legal_actions(state))


def clauses_of_illegal(state: NomonhanState, action: Action) -> tuple[str, ...]:
    """The clauses named when `action` is refused; fails the test if it is accepted."""
    try:
        GAME.apply(state, action)
    except IllegalAction as exc:
        return exc.clauses
    raise AssertionError(f"{action} was accepted")


def hexes_of(state: NomonhanState) -> dict[str, str]:
    return {u.id: str(u.hex) for u in state.units if u.hex is not None}


def with_units(state: NomonhanState, **hexes: str) -> NomonhanState:
    """Move some units (keyword: id with '-' as '_') to other hexes."""
    moved = {k.replace("_", "-"): v for k, v in hexes.items()}
    return attrs.evolve(
        state,
        units=tuple(
            UnitState(u.id, parse_hex(moved[u.id]), u.steps) if u.id in moved else u
            for u in state.units
        ),
    )
