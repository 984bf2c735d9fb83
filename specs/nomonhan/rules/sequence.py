"""The sequence of play: phases, the repeating cycle, initiative change and the game's end
(NOM-4, NOM-5, NOM-6)."""

from __future__ import annotations

from kernel.game import Outcome
from specs.nomonhan.rules import resolve
from specs.nomonhan.rules.board import Board
from specs.nomonhan.rules.declare import any_contact
from specs.nomonhan.rules.state import NomonhanState, Phase, Stage, other, replace
from specs.nomonhan.rules.strength import full_steps


def end_movement_phase(board: Board, state: NomonhanState) -> NomonhanState:
    """Movement is followed by the same side's Combat Phase (NOM-5.1)."""
    nip = state.phase == Phase.NIP_MOVEMENT
    state = replace(
        state,
        phase=Phase(state.phase + 1),  # NOM-5.1: a Movement Phase, then that side's Combat
        stage=Stage.DECLARE,
        moved=frozenset(),
        nip_moved_this_turn=state.nip_moved_this_turn or nip,
    )
    if not any_contact(board, state):
        return end_combat_phase(board, state)
    return state


def end_combat_phase(board: Board, state: NomonhanState) -> NomonhanState:
    """After (2) comes (3); after (4), with no initiative change, the cycle starts again in the
    same turn with the same IP (NOM-5.2). The Artillery is flipped back (NOM-9.19)."""
    # NOM-9.19: the Artillery is turned face-up at the end of the Combat Phase (per_turn: kept)
    used = state.artillery_used and state.variant.is_("artillery_frequency", "per_turn")
    # NOM-5.1 after (2) comes (3); NOM-5.2 after (4) the cycle repeats in the same turn
    nxt = Phase.NIP_MOVEMENT if state.phase == Phase.IP_COMBAT else Phase.IP_MOVEMENT
    return replace(
        state, phase=nxt, stage=Stage.MOVE, pending=(), current=None, artillery_used=used
    )


def after_combat(board: Board, state: NomonhanState) -> NomonhanState:
    """A combat is over: end the turn if the initiative changed in it, else the next combat."""
    state = replace(state, current=None)
    if state.turn_ending:  # NOM-5.3: the initiative changed in this combat, the turn ends
        return end_turn(board, state)
    if not state.pending:
        return end_combat_phase(board, state)
    if len(state.pending) > 1 and state.variant.is_("resolution_order", "chosen_each"):
        return replace(state, stage=Stage.PICK)
    return resolve.start_combat(board, state, 0)


def initiative_change(board: Board, state: NomonhanState) -> NomonhanState:
    """An IP unit retreated or lost a step in combat (NOM-6.2). Under `immediate` the turn ends
    now; under `finish_combat` this combat is completed first (AMB-NOM-6). The end-of-turn roll
    may be made now (AMB-NOM-5)."""
    v = state.variant
    if v.is_("initiative_change", "immediate"):  # NOM-5.3: the turn ends at once
        return end_turn(board, replace(state, current=None))
    state = replace(state, turn_ending=True)
    if (
        v.is_("end_roll_timing", "at_change")
        and not state.end_rolled
        and state.turn in board.data.end_roll
    ):
        return replace(state, stage=Stage.END_ROLL)
    return resolve.continue_damage(board, state)


def end_turn(board: Board, state: NomonhanState) -> NomonhanState:
    """The turn ends at once: pending combats are cancelled (NOM-5.3, NOM-6.3), the Artillery
    is flipped back, reinforcements that had no phase may be lost (AMB-NOM-18), and the
    end-of-turn roll is made where due (NOM-5.4)."""
    withdrawn = state.withdrawn
    if state.variant.is_("reinforcement_timing", "lost"):
        withdrawn = withdrawn | _missed(board, state)
    state = replace(
        state,
        pending=(),  # NOM-6.3: paired combats not yet resolved are cancelled
        current=None,
        turn_ending=False,
        artillery_used=False,  # NOM-9.19: the Artillery is turned face-up again
        withdrawn=withdrawn,
        stage=Stage.END_ROLL,
    )
    if state.turn in board.data.end_roll and not state.end_rolled:
        return state
    return next_turn(board, state)


def _missed(board: Board, state: NomonhanState) -> frozenset[str]:
    """GT-n reinforcements of a side that had no Movement Phase in turn n."""
    out = set()
    for spec in board.data.units:
        u = state.unit(spec.id)
        if spec.gt == state.turn and u.hex is None and u.steps > 0:
            had_phase = spec.side == state.initiative or state.nip_moved_this_turn
            if not had_phase:
                out.add(spec.id)
    return frozenset(out)


def apply_end_roll(board: Board, state: NomonhanState, face: int) -> NomonhanState:
    """The game ends if the die shows a number printed in the turn's box (NOM-5.4)."""
    if face in board.data.end_roll.get(state.turn, frozenset()):
        return finish(
            board,
            state,
            "NOM-5.4",
            f"end-of-turn die showed {face} at the end of Turn {state.turn}",
        )
    if state.current is not None:  # rolled at the change, the combat goes on (AMB-NOM-5)
        return resolve.continue_damage(board, replace(state, end_rolled=True))
    return next_turn(board, state)


def next_turn(board: Board, state: NomonhanState) -> NomonhanState:
    """The next turn begins with the other side's initiative (NOM-6.4, NOM-6.6, NOM-6.7), unless
    the game ends automatically after Turn 8 (NOM-5.5)."""
    if state.variant.is_("game_end", "turn8") and state.turn >= board.data.turn_boxes:
        return finish(board, state, "NOM-5.5", f"automatic end after Turn {state.turn}")
    return replace(
        state,
        turn=state.turn + 1,  # NOM-6.6: the Turn marker advances to the next box
        initiative=other(state.initiative),  # NOM-6.4: the initiative passes to the other side
        phase=Phase.IP_MOVEMENT,  # NOM-6.7: the new IP starts with his Movement Phase
        stage=Stage.MOVE,
        moved=frozenset(),
        nip_moved_this_turn=False,
        end_rolled=False,
        pending=(),
        current=None,
        turn_ending=False,
    )


def points(board: Board, state: NomonhanState) -> dict[str, int]:
    """Victory points (NOM-4.5, NOM-4.6; AMB-NOM-3 for whose steps count)."""
    score = {"JP": 0, "SU": 0}
    enemy = state.variant.is_("scoring", "enemy_eliminated")
    for spec, u in zip(board.data.units, state.units, strict=True):
        if u.id != spec.id:  # units are kept in data order; look it up if not
            u = state.unit(spec.id)
        weight = 2 if spec.is_tank else 1  # NOM-4.5 tank steps 2 VP, NOM-4.6 others 1 VP
        if spec.id in state.withdrawn:
            continue
        full, steps = full_steps(state.variant, spec), u.steps
        if enemy:  # NOM-4.5, NOM-4.6 (JA): VP for the enemy's steps eliminated
            score[other(spec.side)] += weight * (full - steps)
        elif u.hex is not None:
            score[spec.side] += weight * steps
    return score


def sudden_death_condition(board: Board, state: NomonhanState) -> tuple[str, str, str] | None:
    """The sudden-death condition a position meets, as (clause, reason, winner), or None:
    the Artillery eliminated, Japan wins (NOM-4.1); both Japanese tank regiments eliminated,
    the Soviets win (NOM-4.2). The Artillery is looked at first, as `sudden_death` does."""
    art = board.data.artillery
    if art is not None and state.unit(art.id).steps == 0:
        return "NOM-4.1", "the Soviet Artillery is eliminated", "JP"
    tanks = [s for s in board.data.units if s.side == "JP" and s.is_tank and s.gt is None]
    if tanks and all(state.unit(s.id).steps == 0 for s in tanks):
        return "NOM-4.2", "both Japanese tank regiments are eliminated", "SU"
    return None


def sudden_death(board: Board, state: NomonhanState) -> NomonhanState | None:
    """Artillery eliminated: Japan wins (NOM-4.1). Both Japanese tanks eliminated: the Soviets
    win (NOM-4.2). Checked the moment a step is lost."""
    met = sudden_death_condition(board, state)
    if met is None:
        return None
    clause, reason, winner = met
    return finish(board, state, clause, reason, winner)


def points_winner(state: NomonhanState, score: dict[str, int]) -> tuple[str | None, str]:
    """Who wins on points, and why in words: more points (NOM-4.3); a tie is a Soviet win
    (NOM-4.4) or no winner (AMB-NOM-2), by reading."""
    jp, su = score["JP"], score["SU"]
    if jp != su:
        return ("JP" if jp > su else "SU"), f"points {jp}-{su} (NOM-4.3)"
    if state.variant.is_("tie", "soviet"):
        return "SU", f"points tied {jp}-{su} (NOM-4.4)"
    return None, f"points tied {jp}-{su}, no winner (AMB-NOM-2)"


def finish(
    board: Board, state: NomonhanState, clause: str, reason: str, winner: str | None = None
) -> NomonhanState:
    """End the game; without a sudden-death winner, points decide (NOM-4.3, NOM-4.4)."""
    score = points(board, state)
    if winner is None:
        winner, why = points_winner(state, score)
        reason += f"; {why}"
    return replace(
        state,
        stage=Stage.OVER,
        current=None,
        pending=(),
        turn_ending=False,
        result=Outcome(winner, score, clause, reason),
    )
