"""Readable Nomonhan play logs: one line per action, headlines and the events an action causes.

A log names units by their ids, the same names actions use in JSON, so a line of a log can be
turned back into a `wargame apply` argument. Events name the clause that made them happen.
"""

from __future__ import annotations

from typing import assert_never

from specs.nomonhan.rules.actions import (
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
from specs.nomonhan.rules.rules_object import NomonhanRules
from specs.nomonhan.rules.state import Combat, NomonhanState, Phase, Stage
from specs.nomonhan.rules.strength import combat_dice, hit_chances, ja_artillery

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


def headline(state: NomonhanState) -> str:
    """Turn and initiative, then the phase (or the end-of-turn roll): a log prints the lines
    that changed, so a new phase gets one line and a new turn two."""
    turn = f"== Turn {state.turn} · initiative {state.initiative} =="
    if state.stage == Stage.OVER:
        return f"{turn}\n-- Game over --"
    if state.stage == Stage.END_ROLL:
        return f"{turn}\n-- End of Turn {state.turn}: end-of-turn die (NOM-5.4) --"
    return f"{turn}\n-- {_PHASE[state.phase]} ({state.phasing}) --"


def _combat(state: NomonhanState, c: Combat) -> str:
    def name(u: str) -> str:
        return f"{u} ({state.unit(u).hex})"

    text = (
        " + ".join(name(a) for a in c.attackers) + " vs " + " + ".join(name(d) for d in c.defenders)
    )
    return text + (" [Artillery support]" if c.support else "")


def describe(game: NomonhanRules, state: NomonhanState, action: Action) -> str:
    who = game.to_move(state)
    match action:
        case Move(u, to):
            return f"{who}: {u} moves {state.unit(u).hex} -> {to}"
        case Enter(u, at, to):
            tail = "" if at == to else f" and moves on to {to}"
            return f"{who}: reinforcement {u} enters at {at}{tail} (NOM-8.8)"
        case Demolish():
            return "JP: the pontoon bridge is blown (NOM-OPT.5)"
        case EndPhase():
            return f"{who}: ends movement"
        case Declare(combats):
            if not combats:
                return f"{who}: declares no combat"
            return f"{who}: declares " + "; ".join(
                f"[{i}] {_combat(state, c)}" for i, c in enumerate(combats)
            )
        case Resolve(i):
            return f"{who}: resolves [{i}] {_combat(state, state.pending[i])}"
        case Roll(a, d):
            assert state.current is not None
            c = state.current.combat
            da, dd = combat_dice(game.board, state, c)
            pa, pd = hit_chances(game.board, state, c)
            diff = a - d
            verdict = (
                "no damage (NOM-9.12)"
                if diff == 0
                else f"{'defender' if diff > 0 else 'attacker'} takes {abs(diff)} damage (NOM-9.12)"
            )
            return (
                f"dice: {_combat(state, c)}: attacker {da} dice (hit on {_faces(pa)}) -> {a} "
                f"hits, defender {dd} dice (hit on {_faces(pd)}) -> {d} hits: {verdict}"
            )
        case Loss(u, None):
            return f"{who}: {u} in {state.unit(u).hex} loses a step"
        case Loss(u, to):
            return f"{who}: {u} retreats {state.unit(u).hex} -> {to}"
        case Advance(u, to):
            return f"{who}: {u} advances {state.unit(u).hex} -> {to}"
        case EndAdvance():
            return f"{who}: advance ends"
        case EndRoll(face):
            box = sorted(game.data.end_roll.get(state.turn, ()))
            return f"end-of-turn die for Turn {state.turn}: {face} (game ends on {box})"
    assert_never(action)


def _faces(p: object) -> str:
    """The faces that hit for a per-die hit chance (1/3: 5-6, 1/6: 6)."""
    return {"1/3": "5-6", "1/6": "6"}.get(str(p), str(p))


def events(
    game: NomonhanRules, before: NomonhanState, action: Action, after: NomonhanState
) -> list[str]:
    """What `action` caused besides itself, in the order it happened."""
    out: list[str] = []
    if isinstance(action, EndPhase) and after.phase != before.phase + 1:
        skipped = Phase(before.phase + 1)
        out.append(f"{_PHASE[skipped]}: no unit in contact, no combat (NOM-9.6)")
    out += _initiative(game, before, action, after)
    out += _losses(game, before, after)
    out += _dropped(before, action, after)
    out += _artillery(game, before, after)
    for u in sorted(after.withdrawn - before.withdrawn):
        out.append(
            f"reinforcement {u} is lost: its side had no Movement Phase in Turn "
            f"{before.turn} (AMB-NOM-18)"
        )
    if after.stage == Stage.OVER:
        return out
    if after.turn != before.turn:
        out.append(
            f"Turn {after.turn} begins: the initiative passes to {after.initiative} (NOM-6.4)"
        )
    elif (
        after.phase == Phase.IP_MOVEMENT
        and after.stage == Stage.MOVE
        and before.phase in (Phase.NIP_MOVEMENT, Phase.NIP_COMBAT)
    ):
        out.append(
            f"no initiative change: Turn {after.turn} goes on with another cycle of phases "
            "(NOM-5.2)"
        )
    return out


def _initiative(
    game: NomonhanRules, before: NomonhanState, action: Action, after: NomonhanState
) -> list[str]:
    """A unit of the initiative player retreated or lost a step: the turn ends (NOM-6.2)."""
    if not isinstance(action, Loss) or before.turn_ending or after.stage == Stage.OVER:
        return []
    if game.data.unit(action.unit).side != before.initiative:
        return []
    how = "lost a step" if action.retreat_to is None else "retreated"
    if after.turn_ending:
        when = " when this combat is over (AMB-NOM-6)"
    elif after.variant.is_("initiative_change", "immediate"):
        when = " at once: the rest of this combat is void (AMB-NOM-6)"
    else:
        when = ""
    return [
        f"initiative change (NOM-6.2): {action.unit} of the initiative player "
        f"{before.initiative} {how}; Turn {before.turn} ends{when}"
    ]


def _losses(game: NomonhanRules, before: NomonhanState, after: NomonhanState) -> list[str]:
    out = []
    for b, a in zip(before.units, after.units, strict=True):
        if b.steps > 0 and a.steps == 0:
            ja_art = ja_artillery(after.variant, game.data.unit(b.id))
            out.append(f"{b.id} is eliminated ({'NOM-9.28' if ja_art else 'NOM-9.24'})")
    return out


def _dropped(before: NomonhanState, action: Action, after: NomonhanState) -> list[str]:
    """Declared combats that left the queue without being fought: cancelled by the end of the
    turn (NOM-6.3) or of the game, or dropped because their units lost contact (AMB-NOM-19)."""
    queued = list(action.combats) if isinstance(action, Declare) else list(before.pending)
    gone = [c for c in queued if c not in after.pending]
    cur = after.current
    if after.stage == Stage.ROLL and cur is not None and cur != before.current:
        for c in gone:
            if (
                set(cur.combat.attackers) <= set(c.attackers)
                and set(cur.combat.defenders) <= set(c.defenders)
                and cur.combat.support == c.support
            ):
                gone.remove(c)  # the combat that starts now
                break
    if not gone:
        return []
    if after.stage == Stage.OVER:
        why = "the game is over"
    elif after.turn != before.turn or (
        after.stage == Stage.END_ROLL and before.stage != Stage.END_ROLL
    ):
        why = "the turn ended (NOM-6.3)"
    else:
        why = "its units are no longer in contact (AMB-NOM-19)"
    return [f"combat {_combat(before, c)} is cancelled: {why}" for c in gone]


def _artillery(game: NomonhanRules, before: NomonhanState, after: NomonhanState) -> list[str]:
    if before.artillery_used == after.artillery_used:
        return []
    art = game.data.artillery.id if game.data.artillery is not None else "the Artillery"
    if after.variant.is_("artillery_rules", "ja"):
        if after.artillery_used:
            return [f"{art} is flipped: it has given its support (NOM-9.19)"]
        return [f"{art} is flipped back face-up (NOM-9.19)"]
    if after.artillery_used:
        return [f"{art} has given its support (NOM-9.17)"]
    return [f"{art} may support again (NOM-9.17)"]


class NomonhanNarration:
    """The narration role (`kernel.roles.Narration`) of the rules it is built from."""

    def __init__(self, rules: NomonhanRules) -> None:
        self.rules = rules

    def describe(self, state: NomonhanState, action: Action) -> str:
        return describe(self.rules, state, action)

    def headline(self, state: NomonhanState) -> str:
        return headline(state)

    def events(self, before: NomonhanState, action: Action, after: NomonhanState) -> list[str]:
        return events(self.rules, before, action, after)


__all__ = ["NomonhanNarration", "Stage", "describe", "events", "headline", "stage_text"]
