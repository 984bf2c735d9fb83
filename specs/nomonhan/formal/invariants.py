"""What each of Nomonhan's state invariants says about one concrete position.

Each function returns a `Breach` (the JSON path of the offending value, the clauses it breaks,
and a sentence) or None. The same function is the property's `state_check` in `properties`
(where the prover proves its formal form over the symbolic model), the check after every step
of the playout tests, and part of the position check (`position`), which refuses a position
that breaks one with the property ID and the clauses: each invariant is written once.

The checks read the variant where the rules do, so that each holds under every reading its
property claims (see `properties.HOLDS_UNDER`), including readings the symbolic model does not
encode (`end_roll_timing=at_change` puts the end-of-turn roll inside a combat).
"""

from __future__ import annotations

from typing import NamedTuple

from specs.nomonhan.data.loader import DATA_FILE, load_data
from specs.nomonhan.rules.board import Board, carries_zoc
from specs.nomonhan.rules.sequence import points, sudden_death_condition
from specs.nomonhan.rules.state import NomonhanState, Phase, Stage
from specs.nomonhan.rules.strength import full_steps

BOARD = Board(load_data(DATA_FILE))
_INDEX = {s.id: i for i, s in enumerate(BOARD.data.units)}


class Breach(NamedTuple):
    """Why a position breaks an invariant: where (a JSON path in the state document), which
    clauses, and a sentence saying what cannot be."""

    field: str
    clauses: tuple[str, ...]
    message: str


def initiative_parity(state: NomonhanState) -> Breach | None:
    """Japan holds the initiative in odd turns, the Soviets in even turns (NOM-6.5)."""
    want = "JP" if state.turn % 2 == 1 else "SU"
    if state.initiative == want:
        return None
    return Breach(
        "initiative",
        ("NOM-6.5",),
        f"in Turn {state.turn} the initiative is {want}'s, not {state.initiative}'s (Japan "
        "holds it in odd turns, the Soviets in even turns)",
    )


def no_stacking(state: NomonhanState) -> Breach | None:
    """No two units in one hex (NOM-8.6)."""
    seen: dict[object, str] = {}
    for i, u in enumerate(state.units):
        if u.hex is None:
            continue
        if u.hex in seen:
            return Breach(
                f"units[{i}].hex",
                ("NOM-8.6",),
                f"{u.id} and {seen[u.hex]} are both in {u.hex}: no two units share a hex",
            )
        seen[u.hex] = u.id
    return None


def off_map(state: NomonhanState) -> Breach | None:
    """A unit is off the map only when eliminated, or when it is a reinforcement that has not
    arrived (and so is at full strength); an eliminated unit is off the map (NOM-3.1, NOM-3.2,
    NOM-3.4, NOM-9.24)."""
    for i, u in enumerate(state.units):
        spec = BOARD.data.unit(u.id)
        if u.steps == 0 and u.hex is not None:
            return Breach(
                f"units[{i}].hex",
                ("NOM-9.24",),
                f"{u.id} has no step left, so it is eliminated and off the map",
            )
        if u.hex is not None or u.steps == 0:
            continue
        if spec.gt is None:
            return Breach(
                f"units[{i}].hex",
                ("NOM-3.1", "NOM-3.2"),
                f"{u.id} is on no hex but is neither eliminated nor a reinforcement",
            )
        full = full_steps(state.variant, spec)
        if u.steps != full:
            return Breach(
                f"units[{i}].steps",
                ("NOM-3.4", "NOM-9.24"),
                f"{u.id} is off the map with {u.steps} of its {full} steps: a reinforcement "
                "waits at full strength and, once arrived, leaves the map only eliminated",
            )
    return None


def may_have_arrived(state: NomonhanState, side: str, gt: int) -> bool:
    """Whether a GT `gt` reinforcement of `side` can have entered by now: after its turn, or in
    its turn once its side has had a Movement Phase (the IP's comes first; the NIP's is phase
    3, and `nip_moved_this_turn` records it once over) (NOM-3.4, NOM-8.8)."""
    if state.turn != gt:
        return state.turn > gt
    return (
        side == state.initiative
        or state.phase in (Phase.NIP_MOVEMENT, Phase.NIP_COMBAT)
        or state.nip_moved_this_turn
    )


def reinforcements_on_time(state: NomonhanState) -> Breach | None:
    """No reinforcement is on the map, or has lost a step, before its side's Movement Phase
    of its turn (NOM-3.4, NOM-8.8)."""
    for i, u in enumerate(state.units):
        spec = BOARD.data.unit(u.id)
        if spec.gt is None or may_have_arrived(state, spec.side, spec.gt):
            continue
        when = (
            f"before Turn {spec.gt}"
            if state.turn < spec.gt
            else f"in Turn {spec.gt} before a {spec.side} Movement Phase"
        )
        if u.hex is not None:
            return Breach(
                f"units[{i}].hex",
                ("NOM-3.4", "NOM-8.8"),
                f"{u.id} is a reinforcement for Turn {spec.gt}: it cannot be on the map {when}",
            )
        full = full_steps(state.variant, spec)
        if u.steps != full:
            return Breach(
                f"units[{i}].steps",
                ("NOM-3.4", "NOM-8.8"),
                f"{u.id} is a reinforcement for Turn {spec.gt}: it cannot have lost a step {when}",
            )
    return None


def sudden_death(state: NomonhanState) -> Breach | None:
    """The game ends the moment the Artillery, or both Japanese tank regiments, are eliminated,
    with that clause and that winner (NOM-4.1, NOM-4.2)."""
    met = sudden_death_condition(BOARD, state)
    if met is None:
        return None
    clause, reason, winner = met
    if state.stage != Stage.OVER:
        return Breach("stage", (clause,), f"{reason}, so the game is over ({clause})")
    result = state.result
    if result is not None and (result.clause, result.winner) != (clause, winner):
        return Breach(
            "result.clause" if result.clause != clause else "result.winner",
            (clause,),
            f"{reason}: the game ended there ({clause}), a {winner} win",
        )
    return None


def stage_records(state: NomonhanState) -> Breach | None:
    """Each stage's records appear only in their stage (NOM-5.1, NOM-8.1, NOM-9.8, NOM-9.12,
    NOM-6.2): Movement Phases only move; the NIP's Combat Phase follows its Movement Phase;
    units marked as moved are the mover's, on the map, in
    a Movement Phase; combats are pending only while they are resolved; a combat is under way
    exactly at the roll, damage and advance (and, under `end_roll_timing=at_change`, at an
    end-of-turn roll made inside it); its loser is known from the damage on; the attacker picks
    among two combats or more; an initiative change waits only for its combat to finish."""
    stage, cur = state.stage, state.current
    if (stage == Stage.MOVE) != state.phase.is_movement:
        return Breach(
            "stage",
            ("NOM-5.1",),
            f"stage {stage.value} cannot happen in the {state.phase.name.lower()} phase: a "
            "Movement Phase only moves, a Combat Phase never does",
        )
    if state.phase == Phase.NIP_COMBAT and not state.nip_moved_this_turn:
        return Breach(
            "nip_moved_this_turn",
            ("NOM-5.1",),
            "the NIP Combat Phase comes after the NIP Movement Phase, so the NIP has moved "
            "this turn",
        )
    rolling_in_combat = stage == Stage.END_ROLL and cur is not None
    if rolling_in_combat and not state.variant.is_("end_roll_timing", "at_change"):
        return Breach(
            "current",
            ("NOM-5.4", "NOM-6.2"),
            "the end-of-turn roll is made after the combat that ends the turn, not inside it "
            "(end_roll_timing=after_combat, AMB-NOM-5)",
        )
    in_combat = stage in (Stage.ROLL, Stage.DAMAGE, Stage.ADVANCE) or rolling_in_combat
    if state.pending and not (in_combat or stage == Stage.PICK):
        return Breach(
            "pending",
            ("NOM-9.8",),
            f"no combat is pending at stage {stage.value}: combats are declared and resolved "
            "in their Combat Phase",
        )
    if stage == Stage.PICK and len(state.pending) < 2:
        return Breach(
            "pending",
            ("NOM-9.8",),
            f"the attacker picks the next combat among two or more, and {len(state.pending)} "
            "is pending (a single combat is resolved at once)",
        )
    if (cur is not None) != in_combat:
        need = "needs a combat being resolved" if in_combat else "has no combat being resolved"
        return Breach("current", ("NOM-9.8",), f"stage {stage.value} {need}")
    if cur is not None and (cur.loser is None) != (stage == Stage.ROLL):
        return Breach(
            "current.loser",
            ("NOM-9.12",),
            "the side taking the damage is known once the dice are rolled, and only then"
            if stage == Stage.ROLL
            else f"stage {stage.value} needs the side taking the damage (null before the roll)",
        )
    if state.turn_ending and not (stage in (Stage.DAMAGE, Stage.ADVANCE) or rolling_in_combat):
        return Breach(
            "turn_ending",
            ("NOM-6.2",),
            f"an initiative change waits only for its combat's damage and advance, not at stage "
            f"{stage.value}",
        )
    for k, uid in enumerate(sorted(state.moved)):
        u = state.unit(uid)
        side = BOARD.side_of[uid]
        if stage != Stage.MOVE or side != state.phasing or u.hex is None:
            return Breach(
                f"moved[{k}]",
                ("NOM-8.1",),
                f"{uid} cannot have moved in this phase: only units of the side moving "
                f"({state.phasing}) move, in a Movement Phase, and stay on the map",
            )
    return None


def pending_in_contact(state: NomonhanState) -> Breach | None:
    """Every unit of a pending combat still on the map touches an enemy unit of that combat
    (AMB-NOM-19: no pending combat has been disturbed) (NOM-9.8, NOM-9.30)."""

    def touching(x: str, ys: tuple[str, ...]) -> bool:
        hx = state.unit(x).hex
        return hx is None or any(
            (hy := state.unit(y).hex) is not None
            and hy in BOARD.neighbors(hx)
            and carries_zoc(BOARD, state.variant, state.demolished, hx, hy)
            for y in ys
        )

    for i, c in enumerate(state.pending):
        for role, units, foes in (
            ("attackers", c.attackers, c.defenders),
            ("defenders", c.defenders, c.attackers),
        ):
            for k, u in enumerate(units):
                if not touching(u, foes):
                    return Breach(
                        f"pending[{i}].{role}[{k}]",
                        ("NOM-9.8", "NOM-9.6"),
                        f"{u} is in no contact with the enemy units of its pending combat: "
                        "a declared combat is in contact, and only its own participants move "
                        "before it is resolved",
                    )
    return None


def _steps(state: NomonhanState, uid: str) -> int:
    i = _INDEX[uid]
    u = state.units[i] if i < len(state.units) else None
    return (u if u is not None and u.id == uid else state.unit(uid)).steps


def enemy_steps_removed(state: NomonhanState) -> dict[str, int]:
    """Points by definition: 2 per enemy tank step removed, 1 per other step (NOM-4.5, 4.6)."""
    out = {"JP": 0, "SU": 0}
    for spec in BOARD.data.units:
        enemy = "SU" if spec.side == "JP" else "JP"
        lost = full_steps(state.variant, spec) - _steps(state, spec.id)
        out[enemy] += (2 if spec.is_tank else 1) * lost
    return out


def points_match(state: NomonhanState) -> Breach | None:
    """The rules' points, and a finished game's, are the enemy steps removed (NOM-4.5,
    NOM-4.6, NOM-4.3)."""
    expected = enemy_steps_removed(state)
    if points(BOARD, state) != expected:
        return Breach(
            "points", ("NOM-4.5", "NOM-4.6"), f"the points are not the steps removed {expected}"
        )
    if state.result is not None and dict(state.result.points) != expected:
        return Breach(
            "result.points",
            ("NOM-4.3", "NOM-4.5", "NOM-4.6"),
            f"the final points {dict(state.result.points)} are not the enemy steps each side "
            f"removed {expected}",
        )
    return None
