"""Nomonhan's properties: what its rules guarantee in every reachable position, or do not.

Each property is declared twice under one ID: as a `kernel.properties.Property` whose check is
plain Python over `NomonhanState` (run after every step of playouts), and as a formal statement
over the symbolic model (`formal`), which the prover proves or refutes. Expected verdicts are
per preset; `wargame verify nomonhan` holds the prover to them.
"""

from __future__ import annotations

from typing import Any

from kernel.properties import Property
from solvers.prover import Formal, Invariant, Lemma, StepInvariant, Terminates
from solvers.terms import B, Frame, I, Ops
from specs.nomonhan.actions import Action
from specs.nomonhan.board import Board, carries_zoc, in_enemy_zoc, occupancy
from specs.nomonhan.data import DATA_FILE, load_data
from specs.nomonhan.sequence import points
from specs.nomonhan.state import NomonhanState, Phase, Stage
from specs.nomonhan.strength import full_steps
from specs.nomonhan.symbolic import ADVANCE, DAMAGE, END_ROLL, MOVE, OVER, PICK, ROLL
from specs.nomonhan.symbolic_play import Model

INITIATIVE_ENDS_TURN = "NOM-P-INITIATIVE-ENDS-TURN"
INITIATIVE_PARITY = "NOM-P-INITIATIVE-PARITY"
NO_STACKING = "NOM-P-NO-STACKING"
ZOC_EXIT = "NOM-P-ZOC-EXIT"
ARTILLERY_NO_RETREAT = "NOM-P-ARTILLERY-NO-RETREAT"
POINTS = "NOM-P-POINTS"
PENDING_IN_CONTACT = "NOM-P-PENDING-IN-CONTACT"
ENDS = "NOM-P-ENDS"

BOARD = Board(load_data(DATA_FILE))

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


def initiative_parity(state: NomonhanState) -> bool:
    return (state.initiative == "JP") == (state.turn % 2 == 1)


def no_stacking(state: NomonhanState) -> bool:
    hexes = [u.hex for u in state.units if u.hex is not None]
    return len(hexes) == len(set(hexes))


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


def pending_in_contact(state: NomonhanState) -> bool:
    """Every unit of a pending combat still on the map touches an enemy unit of that combat
    (AMB-NOM-19: no pending combat has been disturbed)."""

    def touching(x: str, ys: tuple[str, ...]) -> bool:
        hx = state.unit(x).hex
        return hx is None or any(
            (hy := state.unit(y).hex) is not None
            and hy in BOARD.neighbors(hx)
            and carries_zoc(BOARD, state.variant, state.demolished, hx, hy)
            for y in ys
        )

    return all(
        all(touching(a, c.defenders) for a in c.attackers)
        and all(touching(d, c.attackers) for d in c.defenders)
        for c in state.pending
    )


def enemy_steps_removed(state: NomonhanState) -> dict[str, int]:
    """Points by definition: 2 per enemy tank step removed, 1 per other step (NOM-4.5, 4.6)."""
    out = {"JP": 0, "SU": 0}
    for spec in BOARD.data.units:
        enemy = "SU" if spec.side == "JP" else "JP"
        lost = full_steps(state.variant, spec) - state.unit(spec.id).steps
        out[enemy] += (2 if spec.is_tank else 1) * lost
    return out


def points_match(state: NomonhanState) -> bool:
    expected = enemy_steps_removed(state)
    if points(BOARD, state) != expected:
        return False
    return state.result is None or dict(state.result.points) == expected


def properties() -> tuple[Property, ...]:
    both: dict[str, Any] = {"ja": "holds", "en": "holds"}
    return (
        Property(
            INITIATIVE_ENDS_TURN,
            ("NOM-5.3", "NOM-6.2", "NOM-6.3", "NOM-6.4", "NOM-6.7"),
            "A change of initiative ends the turn at once: from an IP unit's retreat or step "
            "loss in combat no other combat starts; the next position after that combat (and "
            "any end-of-turn roll) is the new turn's initiative Movement Phase, with the "
            "initiative passed to the other side and no combat of the old turn pending.",
            "step",
            both,
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
            both,
            state_check=initiative_parity,
            formal="jp_ini <=> turn mod 2 = 1",
        ),
        Property(
            NO_STACKING,
            ("NOM-8.6", "NOM-9.26", "NOM-9.29", "NOM-9.30", "NOM-9.31", "NOM-8.8", "NOM-8.9"),
            "No two units ever share a hex, after movement, retreat, advance and reinforcement.",
            "invariant",
            both,
            state_check=no_stacking,
            formal="for all units u != v on the map: pos(u) != pos(v)",
        ),
        Property(
            ZOC_EXIT,
            ("NOM-7.3", "NOM-7.2", "NOM-9.24", "NOM-9.31"),
            "No unit ever leaves an enemy ZOC except by retreat or advance after combat.",
            "step",
            both,
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
        Property(
            POINTS,
            ("NOM-4.5", "NOM-4.6", "NOM-4.3"),
            "Each side's points always equal the enemy steps it has removed, 2 per tank step and "
            "1 per other step.",
            "invariant",
            both,
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
        lambda o, s: o.implies(s.b("changed"), _stage_in(o, s, DAMAGE, ADVANCE)),
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


def _pending_lemmas(m: Model) -> tuple[Lemma, ...]:
    t = m.t
    return (
        Lemma(
            "combats are pending only while combats are resolved",
            lambda o, s: o.implies(
                o.any(o.not_(o.eq(s.i(m.pend[u]), 0)) for u in t.units),
                _stage_in(o, s, PICK, ROLL, DAMAGE, ADVANCE),
            ),
        ),
        Lemma(
            "a combat is being resolved only at the roll, damage and advance stages",
            lambda o, s: o.implies(
                o.any(s.b(m.cur[u]) for u in t.units), _stage_in(o, s, ROLL, DAMAGE, ADVANCE)
            ),
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
