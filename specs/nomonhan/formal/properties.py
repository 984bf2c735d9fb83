"""Nomonhan's properties: what its rules guarantee in every reachable position, or do not.

Each property is declared twice under one ID: as a `kernel.properties.Property` whose check is
plain Python over `NomonhanState` (run after every step of playouts), here, and as a formal
statement over the symbolic model (`specs.nomonhan.formal.statements`), which the prover proves
or refutes. Expected verdicts are per preset; `wargame verify nomonhan` holds the prover to
them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping

from kernel.properties import Property, Verdict
from kernel.variants import Variant
from specs.nomonhan.formal import invariants as inv
from specs.nomonhan.formal.invariants import BOARD, Breach
from specs.nomonhan.rules.actions import Action
from specs.nomonhan.rules.board import in_enemy_zoc, occupancy
from specs.nomonhan.rules.state import NomonhanState, Phase, Stage

INITIATIVE_ENDS_TURN = "NOM-P-INITIATIVE-ENDS-TURN"
INITIATIVE_PARITY = "NOM-P-INITIATIVE-PARITY"
NO_STACKING = "NOM-P-NO-STACKING"
ZOC_EXIT = "NOM-P-ZOC-EXIT"
ARTILLERY_NO_RETREAT = "NOM-P-ARTILLERY-NO-RETREAT"
POINTS = "NOM-P-POINTS"
PENDING_IN_CONTACT = "NOM-P-PENDING-IN-CONTACT"
OFF_MAP = "NOM-P-OFF-MAP"
REINFORCEMENTS_ON_TIME = "NOM-P-REINFORCEMENTS-ON-TIME"
SUDDEN_DEATH = "NOM-P-SUDDEN-DEATH"
STAGE_RECORDS = "NOM-P-STAGE-RECORDS"
ENDS = "NOM-P-ENDS"

BREACHES: dict[str, Callable[[NomonhanState], Breach | None]] = {
    STAGE_RECORDS: inv.stage_records,
    OFF_MAP: inv.off_map,
    REINFORCEMENTS_ON_TIME: inv.reinforcements_on_time,
    INITIATIVE_PARITY: inv.initiative_parity,
    NO_STACKING: inv.no_stacking,
    SUDDEN_DEATH: inv.sudden_death,
    POINTS: inv.points_match,
    PENDING_IN_CONTACT: inv.pending_in_contact,
}
"""Each state invariant's concrete form, saying where a position breaks it (`invariants`), in
the order the position check asks them: the stage's records first, the pieces next."""

HOLDS_UNDER: dict[str, tuple[tuple[str, str], ...]] = {
    POINTS: (("scoring", "enemy_eliminated"),),
    PENDING_IN_CONTACT: (("advance_units", "participants"),),
}
"""The readings an invariant's truth rests on; one not listed holds under every reading. The
expected verdicts per preset follow from these (a test holds them together), and so does the
set of invariants checked in a variant that is no preset (`invariants_for`)."""

# --- concrete checks over NomonhanState ----------------------------------------------------------


def _new_turn(before: NomonhanState, after: NomonhanState) -> bool:
    """`after` is the first position of the turn after `before`'s: the new IP's Movement
    Phase, nothing pending and no combat under way (NOM-5.3, NOM-6.3, NOM-6.4, NOM-6.7)."""
    return (
        after.turn == before.turn + 1
        and after.initiative != before.initiative
        and after.phase == Phase.IP_MOVEMENT
        and after.stage == Stage.MOVE
        and not after.pending
        and after.current is None
        and not after.turn_ending
    )


def _turn_over(before: NomonhanState, after: NomonhanState) -> bool:
    """The turn of `before` has ended in `after`: game over, end-of-turn roll due with nothing
    pending (NOM-5.4), or the next turn begun."""
    return (
        after.stage == Stage.OVER
        or (after.stage == Stage.END_ROLL and after.turn == before.turn and not after.pending)
        or _new_turn(before, after)
    )


def _ip_loss(before: NomonhanState, after: NomonhanState) -> bool:
    """An initiative-player unit retreated or lost a step in this step (NOM-6.2)."""
    if before.stage != Stage.DAMAGE:
        return False
    return any(
        BOARD.side_of[old.id] == before.initiative and (new.steps < old.steps or new.hex != old.hex)
        for old, new in zip(before.units, after.units, strict=True)
    )


def initiative_ends_turn(before: NomonhanState, action: Action, after: NomonhanState) -> bool:
    flipped = after.initiative != before.initiative and after.stage != Stage.OVER
    if flipped and not _new_turn(before, after):
        return False
    if _ip_loss(before, after) and not (after.turn_ending or _turn_over(before, after)):
        return False
    if before.turn_ending:
        same_combat = (
            after.turn_ending
            and after.stage in (Stage.DAMAGE, Stage.ADVANCE)
            and after.turn == before.turn
        )
        if not (same_combat or _turn_over(before, after)):
            return False
    return not (
        before.stage == Stage.END_ROLL
        and not (after.stage == Stage.OVER or _new_turn(before, after))
    )


def zoc_exit(before: NomonhanState, action: Action, after: NomonhanState) -> bool:
    if before.stage in (Stage.DAMAGE, Stage.ADVANCE):
        return True
    occ = occupancy(before)
    for old, new in zip(before.units, after.units, strict=True):
        if old.hex is None or new.hex is None or old.hex == new.hex:
            continue
        if in_enemy_zoc(BOARD, before, BOARD.side_of[old.id], old.hex, occ):
            return False
    return True


def artillery_no_retreat(before: NomonhanState, action: Action, after: NomonhanState) -> bool:
    art = BOARD.data.artillery
    if art is None or before.stage != Stage.DAMAGE:
        return True
    old, new = before.unit(art.id), after.unit(art.id)
    return new.hex is None or new.hex == old.hex


def _holds(pid: str) -> Callable[[NomonhanState], bool]:
    breach = BREACHES[pid]
    return lambda state: breach(state) is None


def initiative_parity(state: NomonhanState) -> bool:
    return inv.initiative_parity(state) is None


def no_stacking(state: NomonhanState) -> bool:
    return inv.no_stacking(state) is None


def pending_in_contact(state: NomonhanState) -> bool:
    return inv.pending_in_contact(state) is None


def points_match(state: NomonhanState) -> bool:
    return inv.points_match(state) is None


enemy_steps_removed = inv.enemy_steps_removed


def applies(prop: Property, variant: Variant) -> bool:
    """Whether a state invariant holds in every reachable position of `variant`: by its
    expected verdict under a preset; in a variant that is no preset, when the variant has
    every reading the invariant rests on (`HOLDS_UNDER`)."""
    if prop.state_check is None:
        return False
    if variant.preset is not None:
        return prop.expected.get(variant.preset) == "holds"
    return all(variant.is_(option, reading) for option, reading in HOLDS_UNDER.get(prop.id, ()))


@functools.lru_cache(maxsize=64)
def invariants_for(variant: Variant) -> tuple[Property, ...]:
    """The state invariants a position of `variant` must satisfy: those proved (or expected to
    hold) for it, which the position check runs (`position`), in `BREACHES` order."""
    order = list(BREACHES)
    held = [p for p in properties() if applies(p, variant)]
    return tuple(sorted(held, key=lambda p: order.index(p.id)))


def properties() -> tuple[Property, ...]:
    """Every property of Nomonhan, by topic."""
    return (
        *_initiative_properties(),
        *_board_properties(),
        *_combat_properties(),
        *_off_map_properties(),
        *_course_properties(),
    )


_BOTH: Mapping[str, Verdict] = {"ja": "holds", "en": "holds"}
"""The expected verdicts of a property that holds under every preset (shared: read only)."""


def _initiative_properties() -> tuple[Property, ...]:
    """The initiative: it passes only by ending the turn, and it alternates between the sides
    (NOM-5.3, NOM-6.1 to NOM-6.5, NOM-6.7)."""
    return (
        Property(
            INITIATIVE_ENDS_TURN,
            ("NOM-5.3", "NOM-6.2", "NOM-6.3", "NOM-6.4", "NOM-6.7"),
            "A change of initiative ends the turn at once: from an IP unit's retreat or step "
            "loss in combat no other combat starts; the next position after that combat (and "
            "any end-of-turn roll) is the new turn's initiative Movement Phase, with the "
            "initiative passed to the other side and no combat of the old turn pending.",
            "step",
            _BOTH,
            step_check=initiative_ends_turn,
            formal="initiative flips => next turn, phase 1, move stage, nothing pending; IP loss "
            "=> changed or turn over; changed => same combat (damage/advance) or turn over; "
            "end roll => game over or next turn",
        ),
        Property(
            INITIATIVE_PARITY,
            ("NOM-6.5", "NOM-6.1", "NOM-6.4"),
            "The Japanese hold the initiative in odd turns and the Soviets in even turns.",
            "invariant",
            _BOTH,
            state_check=initiative_parity,
            formal="jp_ini <=> turn mod 2 = 1",
        ),
    )


def _board_properties() -> tuple[Property, ...]:
    """Where units stand and go: never stacked, out of an enemy ZOC only after combat, the
    Soviet Artillery never retreating (NOM-7.2, NOM-7.3, NOM-8.6, NOM-9.28)."""
    return (
        Property(
            NO_STACKING,
            ("NOM-8.6", "NOM-9.26", "NOM-9.29", "NOM-9.30", "NOM-9.31", "NOM-8.8", "NOM-8.9"),
            "No two units ever share a hex, after movement, retreat, advance and reinforcement.",
            "invariant",
            _BOTH,
            state_check=no_stacking,
            formal="for all units u != v on the map: pos(u) != pos(v)",
        ),
        Property(
            ZOC_EXIT,
            ("NOM-7.3", "NOM-7.2", "NOM-9.24", "NOM-9.31"),
            "No unit ever leaves an enemy ZOC except by retreat or advance after combat.",
            "step",
            _BOTH,
            step_check=zoc_exit,
            formal="a unit in an enemy ZOC that changes hex (and stays on the map) does so at the "
            "damage or advance stage",
        ),
        Property(
            ARTILLERY_NO_RETREAT,
            ("NOM-9.28",),
            "The Soviet Artillery never retreats (JA; under EN's generic Artillery it may).",
            "step",
            {"ja": "holds", "en": "fails"},
            step_check=artillery_no_retreat,
            formal="at the damage stage the Artillery's hex does not change unless it is removed",
        ),
    )


def _combat_properties() -> tuple[Property, ...]:
    """What combat leaves: points that count the enemy steps removed, declared combats
    undisturbed until resolved (NOM-4.3, NOM-4.5, NOM-4.6, NOM-9.8, NOM-9.30)."""
    return (
        Property(
            POINTS,
            ("NOM-4.5", "NOM-4.6", "NOM-4.3"),
            "Each side's points always equal the enemy steps it has removed, 2 per tank step and "
            "1 per other step.",
            "invariant",
            _BOTH,
            state_check=points_match,
            formal="pts(side) = sum over enemy units of weight * (full steps - steps)",
        ),
        Property(
            PENDING_IN_CONTACT,
            ("NOM-9.8", "NOM-9.30", "NOM-6.3"),
            "A declared combat is never disturbed before it is resolved: every unit of a "
            "pending combat still on the map touches an enemy unit of that combat. Only "
            "participants advance under JA, so AMB-NOM-19 cannot arise there; under EN any "
            "friendly unit may advance, and a defender of a pending combat can move away.",
            "invariant",
            {"ja": "holds", "en": "fails"},
            state_check=pending_in_contact,
            formal="pend(u) != 0 and u on the map => some enemy v on the map with pend(v) = "
            "pend(u) touches u",
        ),
    )


def _off_map_properties() -> tuple[Property, ...]:
    """Units off the map: eliminated, or reinforcements waiting at full strength for their
    turn (NOM-3.1, NOM-3.2, NOM-3.4, NOM-8.8, NOM-9.24)."""
    return (
        Property(
            OFF_MAP,
            ("NOM-3.1", "NOM-3.2", "NOM-3.4", "NOM-9.24"),
            "A unit is off the map only when it is eliminated or is a reinforcement that has not "
            "arrived, at full strength; an eliminated unit is never on the map.",
            "invariant",
            _BOTH,
            state_check=_holds(OFF_MAP),
            formal="steps(u) = 0 => pos(u) = 0; pos(u) = 0 => steps(u) = 0 for an at-start unit, "
            "steps(u) in {0, full(u)} for a reinforcement",
        ),
        Property(
            REINFORCEMENTS_ON_TIME,
            ("NOM-3.4", "NOM-8.8"),
            "A reinforcement stays off the map at full strength until its side's first Movement "
            "Phase of its turn: before Turn GT, and in Turn GT before its side has moved when it "
            "is the non-initiative player's.",
            "invariant",
            _BOTH,
            state_check=_holds(REINFORCEMENTS_ON_TIME),
            formal="not (turn > gt(u) or turn = gt(u) and (u is the IP's or phase >= 3 or "
            "nip_moved)) => pos(u) = 0 and steps(u) = full(u)",
        ),
    )


def _course_properties() -> tuple[Property, ...]:
    """The course of the game: sudden death, each stage's records in their stage, and whether
    play always ends (NOM-4.1, NOM-4.2, NOM-5.1, NOM-5.2, NOM-5.4, NOM-5.5)."""
    return (
        Property(
            SUDDEN_DEATH,
            ("NOM-4.1", "NOM-4.2"),
            "The game is over the moment the Soviet Artillery is eliminated (a Japanese win) or "
            "both Japanese tank regiments are (a Soviet win).",
            "invariant",
            _BOTH,
            state_check=_holds(SUDDEN_DEATH),
            formal="steps(art) = 0 => over and winner JP; steps(tanks) = 0 and steps(art) > 0 => "
            "over and winner SU",
        ),
        Property(
            STAGE_RECORDS,
            ("NOM-5.1", "NOM-8.1", "NOM-9.8", "NOM-9.12", "NOM-6.2"),
            "Each stage's records appear only in their stage: a Movement Phase only moves, and "
            "its moved units are the mover's, on the map; the NIP's Combat Phase follows its "
            "Movement Phase; combats are pending only while they "
            "are resolved, and picked among two or more; a combat is under way exactly at the "
            "roll, damage and advance, with a loser from the damage on; an initiative change "
            "waits only for its combat's damage and advance.",
            "invariant",
            _BOTH,
            state_check=_holds(STAGE_RECORDS),
            formal="move <=> phase 1 or 3; phase 4 => nip_moved; moved(u) => move, u phasing, on "
            "the map; pend => pick, roll, damage or advance; pick => two combats or more; cur "
            "<=> roll, damage or advance; roll => no loser; damage or advance => a loser; "
            "changed => damage or advance",
        ),
        Property(
            ENDS,
            ("NOM-5.2", "NOM-5.4", "NOM-5.5", "NOM-6.2"),
            "The game always ends. It does not: a turn ends only at an initiative change, so "
            "two sides that avoid contact repeat the cycle of phases for ever.",
            "ends",
            {"ja": "fails", "en": "fails"},
            formal="no reachable lasso (a reachable state from which play returns to itself)",
        ),
    )
