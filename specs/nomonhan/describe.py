"""Readable one-line descriptions of Nomonhan actions, for play logs."""

from __future__ import annotations

from typing import TYPE_CHECKING, assert_never

from specs.nomonhan.actions import (
    Action,
    Advance,
    Declare,
    Demolish,
    EndAdvance,
    EndPhase,
    EndRoll,
    Enter,
    Loss,
    Move,
    Resolve,
    Roll,
)
from specs.nomonhan.state import Combat, NomonhanState, Phase, Stage

if TYPE_CHECKING:
    from specs.nomonhan.rules import Nomonhan

_PHASE = {
    Phase.IP_MOVEMENT: "Initiative Movement Phase",
    Phase.IP_COMBAT: "Initiative Combat Phase",
    Phase.NIP_MOVEMENT: "Non-Initiative Movement Phase",
    Phase.NIP_COMBAT: "Non-Initiative Combat Phase",
}


def stage_text(state: NomonhanState) -> str:
    return (
        f"Turn {state.turn}, {_PHASE[state.phase]} ({state.phasing}), stage "
        f"{state.stage.value}, initiative {state.initiative}"
    )


def _combat(game: Nomonhan, state: NomonhanState, c: Combat) -> str:
    def name(u: str) -> str:
        return f"{game.data.unit(u).label} ({state.unit(u).hex})"

    text = (
        " + ".join(name(a) for a in c.attackers) + " vs " + " + ".join(name(d) for d in c.defenders)
    )
    return text + (" [Artillery support]" if c.support else "")


def describe(game: Nomonhan, state: NomonhanState, action: Action) -> str:
    from specs.nomonhan.strength import combat_dice, hit_chances

    unit = game.data.unit
    match action:
        case Move(u, to):
            return f"{state.phasing}: {unit(u).label} moves {state.unit(u).hex} -> {to}"
        case Enter(u, at, to):
            tail = "" if at == to else f" and moves on to {to}"
            return f"{state.phasing}: reinforcement {unit(u).label} enters at {at}{tail}"
        case Demolish():
            return "JP: the pontoon bridge is blown (NOM-OPT.5)"
        case EndPhase():
            return f"{state.phasing}: ends movement"
        case Declare(combats):
            if not combats:
                return f"{state.phasing}: declares no combat"
            return f"{state.phasing}: declares " + "; ".join(
                f"[{i}] {_combat(game, state, c)}" for i, c in enumerate(combats)
            )
        case Resolve(i):
            return f"{state.phasing}: resolves [{i}] {_combat(game, state, state.pending[i])}"
        case Roll(a, d):
            assert state.current is not None
            c = state.current.combat
            da, dd = combat_dice(game.board, state, c)
            pa, pd = hit_chances(game.board, state, c)
            need = {3: "5-6"}.get(int(1 / pa), "6")
            need_d = {3: "5-6"}.get(int(1 / pd), "6")
            diff = a - d
            verdict = (
                "no damage"
                if diff == 0
                else f"{'defender' if diff > 0 else 'attacker'} takes {abs(diff)} damage"
            )
            return (
                f"dice: {_combat(game, state, c)}: attacker {da} dice (hit on {need}) -> {a} "
                f"hits, defender {dd} dice (hit on {need_d}) -> {d} hits: {verdict}"
            )
        case Loss(u, None):
            return f"{unit(u).side}: {unit(u).label} in {state.unit(u).hex} loses a step"
        case Loss(u, to):
            return f"{unit(u).side}: {unit(u).label} retreats {state.unit(u).hex} -> {to}"
        case Advance(u, to):
            return f"{unit(u).side}: {unit(u).label} advances {state.unit(u).hex} -> {to}"
        case EndAdvance():
            return "advance ends"
        case EndRoll(face):
            box = sorted(game.data.end_roll.get(state.turn, ()))
            return f"end-of-turn die for Turn {state.turn}: {face} (game ends on {box})"
    assert_never(action)


__all__ = ["Stage", "describe", "stage_text"]
