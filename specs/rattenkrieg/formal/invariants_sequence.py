"""Rattenkrieg's invariants of the sequence of play (RKS-P-SEQUENCE, RKS-P-STAGES,
RKS-P-RESULT): each phase with its stages, each stage with its records, the acting unit and its
flags, the flips where no unit acts, and the result.
"""

from __future__ import annotations

from specs.rattenkrieg.formal.breach import Breach
from specs.rattenkrieg.rules import sequence
from specs.rattenkrieg.rules.board import Board
from specs.rattenkrieg.rules.state import PLAYER_TURN_STAGES, SU, Phase, RKState, Stage

# Which stages each phase has (RKS-5.1.1), and which records each stage has.
PHASE_STAGES: dict[Phase, frozenset[Stage]] = {
    Phase.SETUP: frozenset({Stage.PLACE, Stage.DRAW}),
    Phase.REINFORCEMENT: frozenset({Stage.DRAW}),
    Phase.PLAYER_TURNS: frozenset(PLAYER_TURN_STAGES),
    Phase.RECRUITING: frozenset({Stage.DISCARD, Stage.DRAW}),
    Phase.OVER: frozenset({Stage.OVER}),
}
FIGHTING = frozenset({Stage.COMBAT, Stage.CONTINUE, Stage.ISOLATION})
ACTING = frozenset(
    {Stage.ACTIVE, Stage.PAY, Stage.COMBAT, Stage.DAMAGE, Stage.ISOLATION, Stage.CONTINUE}
)


def _phase_breach(s: RKState) -> Breach | None:
    """Where the phase itself is out of sequence (RKS-5.1.1, RKS-3.1.1, RKS-4.1.1): a stage
    the phase does not have, set-up outside Turn 1 or not the Soviet's, a Reinforcement Phase
    in Turn 1, the end before Turn 6."""
    stage, phase = s.stage, s.phase
    if stage not in PHASE_STAGES[phase]:
        return Breach("stage", "RKS-5.1.1", f"the {phase.value} phase has no {stage.value}")
    if phase == Phase.SETUP and (s.turn != 1 or s.player != SU):
        return Breach("player", "RKS-3.1.1", "set-up is Turn 1, the Soviet placing first")
    if phase == Phase.REINFORCEMENT and s.turn < 2:
        return Breach("turn", "RKS-5.1.1", "Reinforcement Phases begin in Turn 2")
    if phase == Phase.OVER and s.turn != sequence.LAST_TURN:
        return Breach("turn", "RKS-4.1.1", "the game ends at the end of Turn 6")
    return None


def sequenced(b: Board, s: RKState) -> Breach | None:
    """Each phase has its stages and each stage its records: a combat, damage, a pending
    move, queued draws, a random pick, an acting unit and a result appear only where the rules
    make them (RKS-5.1.1, RKS-5.1.2, RKS-7.1.1, RKS-8.2.2, RKS-10.1.1, RKS-10.3.1)."""
    stage, phase = s.stage, s.phase
    if (breach := _phase_breach(s)) is not None:
        return breach
    if phase in (Phase.REINFORCEMENT, Phase.OVER) and s.player != sequence.recruiting_order(s)[1]:
        return Breach(
            "player",
            "RKS-10.1.1",
            "the player last to refill in the Recruiting Phase is still the player",
        )
    if phase != Phase.PLAYER_TURNS and s.passes:
        return Breach("passes", "RKS-5.1.2", "passes are counted only in the Player Turns")
    records: list[tuple[str, bool, bool, str]] = [
        # (field, present, allowed here, clause)
        (
            "combat",
            s.combat is not None,
            stage in FIGHTING
            or (
                stage in (Stage.DAMAGE, Stage.PICK)
                and s.damage is not None
                and s.damage.cause == "combat"
            ),
            "RKS-8.2.2" if s.acting is None else "RKS-8.3.1",
        ),
        (
            "damage",
            s.damage is not None,
            stage == Stage.DAMAGE
            or (stage == Stage.PICK and s.pick is not None and s.pick.kind == "step"),
            "RKS-8.9.1",
        ),
        ("pending", s.pending is not None, stage == Stage.PAY, "RKS-7.3.1"),
        ("draws", bool(s.draws), stage == Stage.DRAW, "RKS-3.4.3"),
        ("pick", s.pick is not None, stage == Stage.PICK, "RKS-9.6.1"),
        ("result", s.result is not None, stage == Stage.OVER, "RKS-4.1.1"),
    ]
    needed = {
        "combat": stage in FIGHTING,
        "damage": stage == Stage.DAMAGE,
        "pending": stage == Stage.PAY,
        "draws": stage == Stage.DRAW,
        "pick": stage == Stage.PICK,
        "result": stage == Stage.OVER,
    }
    for field, present, allowed, clause in records:
        if present and not allowed:
            return Breach(field, clause, f"stage {stage.value} has no {field}")
        if needed[field] and not present:
            return Breach(field, clause, f"stage {stage.value} needs {field}")
    if s.damage is not None and (s.damage.cause == "combat") != (s.combat is not None):
        return Breach("damage.cause", "RKS-8.9.1", "combat damage comes with its combat")
    return _acting(b, s) or _flips(b, s)


def stages(b: Board, s: RKState) -> Breach | None:
    """The part of `sequenced` proved over the abstraction (RKS-P-STAGES): each phase has
    its stages, set-up is Turn 1 with the Soviet player, Reinforcement Phases come from
    Turn 2, the game ends in Turn 6, and a result, a move waiting for its card and queued
    draws exist exactly in their stages (RKS-5.1.1, RKS-3.1.1, RKS-4.1.1, RKS-7.3.1,
    RKS-3.4.3, RKS-7.1.1). The rest of `sequenced` (the combat, damage and
    pick records, the acting unit, the flips, the passes, the player after the Recruiting
    Phase) is proved with it, from step rules of its own (RKS-P-SEQUENCE)."""
    stage, phase = s.stage, s.phase
    if (breach := _phase_breach(s)) is not None:
        return breach
    for field, present, here, clause in (
        ("result", s.result is not None, Stage.OVER, "RKS-4.1.1"),
        ("pending", s.pending is not None, Stage.PAY, "RKS-7.3.1"),
        ("draws", bool(s.draws), Stage.DRAW, "RKS-3.4.3"),
    ):
        if present != (stage == here):
            return Breach(field, clause, f"{field} exactly in stage {here.value}")
    idle = phase != Phase.PLAYER_TURNS or stage in (Stage.PLAYER_TURN, Stage.PLACE)
    aimed = s.draws[0].kind in ("bombardment", "air_support") if s.draws else False
    if stage in ACTING or (stage == Stage.DRAW and not idle and aimed):
        if s.acting is None:
            return Breach("acting", "RKS-7.1.1", f"stage {stage.value} needs an acting unit")
    elif (idle or stage in (Stage.DISCARD, Stage.OVER, Stage.DRAW)) and s.acting is not None:
        return Breach("acting", "RKS-7.1.1", f"stage {stage.value} has no acting unit")
    if s.acting is not None and b.side_of[s.acting] != s.player:
        return Breach("acting", "RKS-7.1.1", "the acting unit belongs to the player")
    return None


def _acting(b: Board, s: RKState) -> Breach | None:
    """The acting unit, its flags and the events in force fit the stage (RKS-7.1.1,
    RKS-7.1.2, RKS-7.4.2, RKS-7.5.1)."""
    stage = s.stage
    if stage in ACTING:
        need: bool | None = True
    elif stage == Stage.DRAW:
        kind = s.draws[0].kind if s.draws else ""
        need = s.phase == Phase.PLAYER_TURNS and kind in ("bombardment", "air_support")
    elif stage == Stage.PICK:
        need = True if s.pick is not None and s.pick.kind == "step" else None
    else:
        need = False
    if s.acting is None:
        if need:
            return Breach("acting", "RKS-7.1.1", f"stage {stage.value} needs an acting unit")
        if s.acted or s.effects:
            field = "acted" if s.acted else "effects"
            return Breach(field, "RKS-7.1.2", "only an acting unit operates")
    else:
        if need is False:
            return Breach("acting", "RKS-7.1.1", f"stage {stage.value} has no acting unit")
        u = b.unit(s, s.acting)
        if b.side_of[s.acting] != s.player:
            return Breach("acting", "RKS-7.1.1", "the acting unit belongs to the player")
        if u.area is None or u.flipped:
            return Breach(
                "acting", "RKS-7.4.2", "the acting unit is on the map and not yet flipped"
            )
        in_combat = stage in (Stage.COMBAT, Stage.CONTINUE, Stage.ISOLATION, Stage.DAMAGE)
        if not s.acted and (in_combat or stage in (Stage.DRAW, Stage.PICK)):
            return Breach("acted", "RKS-7.1.2", "the acting unit has operated by now")
    if s.recruited:
        if s.phase != Phase.PLAYER_TURNS or not s.variant.is_("recruit_turn", "extra"):
            return Breach(
                "recruited",
                "RKS-7.5.1",
                "a recruit leaves the Player Turn to the player only by AMB-RKS-18 b",
            )
        if stage == Stage.DRAW and s.acting is None:
            return Breach("recruited", "RKS-7.5.1", "one recruit per Player Turn")
    return None


def _flips(b: Board, s: RKState) -> Breach | None:
    """No unit is flipped in set-up, and after the Recruiting Phase only an arrival or a
    revived unit under arrival_state=flipped is (RKS-7.4.1, RKS-10.3.1, AMB-RKS-25)."""
    if s.phase not in (Phase.SETUP, Phase.REINFORCEMENT, Phase.OVER):
        return None
    late = s.variant.is_("arrival_state", "flipped")
    for i, u in enumerate(s.units):
        spec = b.specs[u.id]
        if s.phase == Phase.SETUP and (u.flipped or u.isolated):
            return Breach(f"units[{i}]", "RKS-7.4.1", "no unit is flipped before it acts")
        arrived = spec.revives_in is not None or (
            s.phase == Phase.REINFORCEMENT and spec.arrives == s.turn
        )
        if u.flipped and not (late and arrived):
            return Breach(
                f"units[{i}].flipped",
                "RKS-10.3.1",
                f"{u.id} is flipped, but the Recruiting Phase turned every unit face up",
            )
    return None


def result_fits(b: Board, s: RKState) -> Breach | None:
    """The result is the victory condition's at the end of Turn 6 (RKS-4.1.1)."""
    if s.result is None:
        return None
    due = sequence.victory(b, s).result
    if s.result != due:
        return Breach("result", "RKS-4.1.1", f"the result at this position is {due}")
    return None
