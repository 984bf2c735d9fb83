"""Nomonhan's properties stated over the symbolic model: each property's formal statement (the
invariant or step invariant the prover proves or refutes, with the lemmas its proof assumes),
under the same IDs as the plain-Python checks of `specs.nomonhan.formal.properties`."""

from __future__ import annotations

from solvers.checking.prover import Formal, Invariant, Lemma, StepInvariant, Terminates
from solvers.checking.terms import B, Frame, I, Ops
from specs.nomonhan.formal.properties import (
    ARTILLERY_NO_RETREAT,
    ENDS,
    INITIATIVE_ENDS_TURN,
    INITIATIVE_PARITY,
    NO_STACKING,
    OFF_MAP,
    PENDING_IN_CONTACT,
    POINTS,
    REINFORCEMENTS_ON_TIME,
    STAGE_RECORDS,
    SUDDEN_DEATH,
    ZOC_EXIT,
)
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
