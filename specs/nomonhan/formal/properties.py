"""Nomonhan's properties: what its rules guarantee in every reachable position, or do not.

Each property is declared twice under one ID: as a `kernel.properties.Property` whose check is
plain Python over `NomonhanState` (run after every step of playouts), and as a formal statement
over the symbolic model (`formal`), which the prover proves or refutes. Expected verdicts are
per preset; `wargame verify nomonhan` holds the prover to them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping

from kernel.properties import Property, Verdict
from kernel.variants import Variant
from solvers.checking.prover import Formal, Invariant, Lemma, StepInvariant, Terminates
from solvers.checking.terms import B, Frame, I, Ops
from specs.nomonhan.formal import invariants as inv
from specs.nomonhan.formal.invariants import BOARD, Breach
from specs.nomonhan.formal.symbolic import (
    ADVANCE,
    DAMAGE,
    END_ROLL,
    MOVE,
    OVER,
    PICK,
    ROLL,
    SIDE_CODE,
)
from specs.nomonhan.formal.symbolic_play import Model
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


# --- formal statements over the symbolic model ---------------------------------------------------


def formal(m: Model) -> dict[str, Formal]:
    """Each property's statement over the model `m`, with the lemmas its proof assumes."""
    t = m.t
    changed_in_combat = Lemma(
        "an initiative change is pending only during a combat's damage or advance",
        _changed_in_combat,
    )
    out: dict[str, Formal] = {
        INITIATIVE_ENDS_TURN: StepInvariant(_InitiativeEndsTurn(m), lemmas=(changed_in_combat,)),
        INITIATIVE_PARITY: Invariant(
            lambda o, s: o.iff(s.b("jp_ini"), o.eq(o.mod(s.i("turn"), 2), 1))
        ),
        NO_STACKING: Invariant(
            lambda o, s: o.all(
                o.implies(m.on_map(o, s, u), o.not_(o.eq(s.i(m.pos[u]), s.i(m.pos[v]))))
                for u in t.units
                for v in t.units
                if u < v
            )
        ),
        ZOC_EXIT: StepInvariant(
            lambda o, s, n: o.any(
                [
                    _stage_in(o, s, DAMAGE, ADVANCE),
                    o.all(o.not_(_left_zoc(m, o, s, n, u)) for u in t.units),
                ]
            )
        ),
        POINTS: Invariant(lambda o, s: o.all(_points(m, o, s, side) for side in ("JP", "SU"))),
        PENDING_IN_CONTACT: Invariant(
            lambda o, s: _pending_in_contact(m, o, s), lemmas=_pending_lemmas(m)
        ),
        OFF_MAP: Invariant(lambda o, s: _off_map(m, o, s)),
        REINFORCEMENTS_ON_TIME: Invariant(
            lambda o, s: _on_time(m, o, s),
            lemmas=(
                Lemma(
                    "each stage's records appear only in their stage (NOM-P-STAGE-RECORDS)",
                    lambda o, s: _stage_records(m, o, s),
                ),
            ),
        ),
        SUDDEN_DEATH: Invariant(lambda o, s: _sudden_death(m, o, s)),
        STAGE_RECORDS: Invariant(lambda o, s: _stage_records(m, o, s)),
        ENDS: Terminates(depth=6),
    }
    art = t.art
    if art is not None:
        out[ARTILLERY_NO_RETREAT] = StepInvariant(
            lambda o, s, n: o.not_(
                o.all(
                    [
                        o.eq(s.i("stage"), DAMAGE),
                        m.on_map(o, n, art),
                        o.not_(o.eq(n.i(m.pos[art]), s.i(m.pos[art]))),
                    ]
                )
            ),
            depth=8,
        )
    return out


def _stage_in(o: Ops[B, I], s: Frame[B, I], *stages: int) -> B:
    return o.any(o.eq(s.i("stage"), x) for x in stages)


def _left_zoc(m: Model, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I], u: int) -> B:
    """Unit `u` was in an enemy ZOC in `s` and is in another hex of the map in `n`."""
    moved = o.all([m.on_map(o, n, u), o.not_(o.eq(n.i(m.pos[u]), s.i(m.pos[u])))])
    return o.all([m.in_enemy_zoc(o, s, u), moved])


def _changed_in_combat(o: Ops[B, I], s: Frame[B, I]) -> B:
    return o.implies(s.b("changed"), _stage_in(o, s, DAMAGE, ADVANCE))


def _nip_moved(o: Ops[B, I], s: Frame[B, I]) -> B:
    return o.implies(o.eq(s.i("phase"), 4), s.b("nip_moved"))


def _pending_in_resolution(m: Model, o: Ops[B, I], s: Frame[B, I]) -> B:
    return o.implies(
        o.any(o.not_(o.eq(s.i(m.pend[u]), 0)) for u in m.t.units),
        _stage_in(o, s, PICK, ROLL, DAMAGE, ADVANCE),
    )


def _current_in_resolution(m: Model, o: Ops[B, I], s: Frame[B, I]) -> B:
    return o.implies(
        o.any(s.b(m.cur[u]) for u in m.t.units), _stage_in(o, s, ROLL, DAMAGE, ADVANCE)
    )


def _pending_lemmas(m: Model) -> tuple[Lemma, ...]:
    t = m.t
    return (
        Lemma(
            "combats are pending only while combats are resolved",
            lambda o, s: _pending_in_resolution(m, o, s),
        ),
        Lemma(
            "a combat is being resolved only at the roll, damage and advance stages",
            lambda o, s: _current_in_resolution(m, o, s),
        ),
        Lemma(
            "a unit of the combat being resolved is not pending",
            lambda o, s: o.all(o.implies(s.b(m.cur[u]), o.eq(s.i(m.pend[u]), 0)) for u in t.units),
        ),
    )


def _pending_in_contact(m: Model, o: Ops[B, I], s: Frame[B, I]) -> B:
    t = m.t
    return o.all(
        o.implies(
            o.all([o.not_(o.eq(s.i(m.pend[u]), 0)), m.on_map(o, s, u)]),
            o.any(
                o.all(
                    [
                        o.eq(s.i(m.pend[v]), s.i(m.pend[u])),
                        m.on_map(o, s, v),
                        m.touch(o, s, u, v),
                    ]
                )
                for v in t.of_side[m.enemy(u)]
            ),
        )
        for u in t.units
    )


def _points(m: Model, o: Ops[B, I], s: Frame[B, I], side: str) -> B:
    t = m.t
    removed = [
        o.sub(t.weight(u) * t.full(u), o.add([s.i(m.steps[u])] * t.weight(u)))
        for u in t.units
        if t.side[u] != side
    ]
    return o.eq(s.i(f"pts.{side}"), o.add(removed))


def _steps_are(o: Ops[B, I], s: Frame[B, I], m: Model, u: int, *values: int) -> B:
    return o.any(o.eq(s.i(m.steps[u]), v) for v in values)


def _off_map(m: Model, o: Ops[B, I], s: Frame[B, I]) -> B:
    """NOM-P-OFF-MAP over the model."""
    t = m.t
    parts = []
    for u in t.units:
        off = o.not_(m.on_map(o, s, u))
        parts.append(o.implies(_steps_are(o, s, m, u, 0), off))
        kept = (0,) if t.specs[u].gt is None else (0, t.full(u))
        parts.append(o.implies(off, _steps_are(o, s, m, u, *kept)))
    return o.all(parts)


def _on_time(m: Model, o: Ops[B, I], s: Frame[B, I]) -> B:
    """NOM-P-REINFORCEMENTS-ON-TIME over the model."""
    t = m.t
    parts = []
    for u in t.units:
        gt = t.specs[u].gt
        if gt is None:
            continue
        turn = s.i("turn")
        arrived = o.any(
            [
                o.lt(gt, turn),
                o.all(
                    [
                        o.eq(turn, gt),
                        o.any([m.initiative(o, s, u), o.lt(2, s.i("phase")), s.b("nip_moved")]),
                    ]
                ),
            ]
        )
        waiting = o.all([o.not_(m.on_map(o, s, u)), _steps_are(o, s, m, u, t.full(u))])
        parts.append(o.implies(o.not_(arrived), waiting))
    return o.all(parts)


def _sudden_death(m: Model, o: Ops[B, I], s: Frame[B, I]) -> B:
    """NOM-P-SUDDEN-DEATH over the model."""
    t = m.t
    art_dead = o.lit(False) if t.art is None else _steps_are(o, s, m, t.art, 0)
    tanks = t.jp_tanks
    tanks_dead = o.all(_steps_are(o, s, m, u, 0) for u in tanks) if tanks else o.lit(False)

    def won_by(side: str) -> B:
        return o.all([o.eq(s.i("stage"), OVER), o.eq(s.i("winner"), SIDE_CODE[side])])

    return o.all(
        [
            o.implies(art_dead, won_by("JP")),
            o.implies(o.all([tanks_dead, o.not_(art_dead)]), won_by("SU")),
        ]
    )


def _stage_records(m: Model, o: Ops[B, I], s: Frame[B, I]) -> B:
    """NOM-P-STAGE-RECORDS over the model."""
    t = m.t
    stage = s.i("stage")
    leads = o.count(o.eq(s.i(m.pend[u]), u + 1) for u in t.units)
    resolving = _stage_in(o, s, ROLL, DAMAGE, ADVANCE)
    return o.all(
        [
            o.iff(o.eq(stage, MOVE), o.any([o.eq(s.i("phase"), 1), o.eq(s.i("phase"), 3)])),
            _nip_moved(o, s),
            *(
                o.implies(
                    s.b(m.moved[u]),
                    o.all([o.eq(stage, MOVE), m.phasing(o, s, u), m.on_map(o, s, u)]),
                )
                for u in t.units
            ),
            _pending_in_resolution(m, o, s),
            o.implies(o.eq(stage, PICK), o.le(2, leads)),
            _current_in_resolution(m, o, s),
            o.implies(resolving, o.any(s.b(m.cur[u]) for u in t.units)),
            o.implies(o.eq(stage, ROLL), o.eq(s.i("loser"), 0)),
            o.implies(_stage_in(o, s, DAMAGE, ADVANCE), o.not_(o.eq(s.i("loser"), 0))),
            _changed_in_combat(o, s),
        ]
    )


class _InitiativeEndsTurn:
    """NOM-P-INITIATIVE-ENDS-TURN over one step `s` -> `n` of the model."""

    def __init__(self, m: Model) -> None:
        self.m = m

    def __call__(self, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> B:
        m = self.m
        t = m.t
        flip = o.not_(o.iff(s.b("jp_ini"), n.b("jp_ini")))
        nothing = o.all(
            [
                *(o.eq(n.i(m.pend[u]), 0) for u in t.units),
                *(o.not_(n.b(m.cur[u])) for u in t.units),
            ]
        )
        new_turn = o.all(
            [
                flip,
                o.eq(n.i("turn"), o.add([s.i("turn"), 1])),
                o.eq(n.i("phase"), 1),
                o.eq(n.i("stage"), MOVE),
                nothing,
                o.not_(n.b("changed")),
            ]
        )
        over = o.eq(n.i("stage"), OVER)
        same_turn = o.eq(n.i("turn"), s.i("turn"))
        roll_due = o.all([o.eq(n.i("stage"), END_ROLL), same_turn, nothing])
        turn_over = o.any([over, roll_due, new_turn])
        ip_loss = o.all(
            [
                o.eq(s.i("stage"), DAMAGE),
                o.any(
                    o.all(
                        [
                            m.initiative(o, s, u),
                            o.any(
                                [
                                    o.lt(n.i(m.steps[u]), s.i(m.steps[u])),
                                    o.not_(o.eq(n.i(m.pos[u]), s.i(m.pos[u]))),
                                ]
                            ),
                        ]
                    )
                    for u in t.units
                ),
            ]
        )
        same_combat = o.all([n.b("changed"), _stage_in(o, n, DAMAGE, ADVANCE), same_turn])
        return o.all(
            [
                o.implies(o.all([flip, o.not_(over)]), new_turn),
                o.implies(ip_loss, o.any([n.b("changed"), turn_over])),
                o.implies(s.b("changed"), o.any([same_combat, turn_over])),
                o.implies(o.eq(s.i("stage"), END_ROLL), o.any([over, new_turn])),
            ]
        )
