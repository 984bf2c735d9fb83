"""Damage and the random picks in Rattenkrieg's abstraction (`symbolic`; RKS-8.9.1, RKS-9.6.1,
AMB-RKS-7 iii): what RKS-P-PICKS states of bombardment damage over the model (`bombarded_fits`),
and the step rules of damage and the picks (`pick_rules`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solvers.checking.system import Conjunct
from solvers.checking.terms import B, Frame, I, Ops
from specs.rattenkrieg.formal.symbolic_draws import struck
from specs.rattenkrieg.formal.symbolic_state import (
    CONTROLLERS,
    SNIPER_PICK,
    STEP_PICK,
    at,
    hand,
    steps,
)
from specs.rattenkrieg.rules.state import GE, SU

if TYPE_CHECKING:
    from specs.rattenkrieg.formal.symbolic import Model


def bombarded_fits(m: Model, o: Ops[B, I], f: Frame[B, I]) -> B:
    """Damage not a combat's is a bombardment's or Air Force Support's (`dair`), of no
    T-34 (eliminated: RKS-8.12.1) and of a unit that fits as its target (`struck`)."""
    bombarded = o.all([o.not_(o.eq(f.i("dunit"), 0)), o.not_(f.b("dcombat"))])
    return o.all(
        [
            o.implies(f.b("dair"), bombarded),
            *(
                o.implies(
                    o.all([bombarded, o.eq(f.i("dunit"), k)]),
                    o.all([o.lit(u not in m.tanks), struck(m, o, f, u, f.b("dair"))]),
                )
                for u, k in m.unit_number.items()
            ),
        ]
    )


def pick_rules(m: Model, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> list[Conjunct[B]]:
    """What a step does to damage and the random picks (`damage.begin_damage`,
    `damage.apply_damage`, `damage.picked_step`, `eventcards.play_event`): damage is
    recorded for a unit on the map, which stays where it is while it is recorded, and
    bombardment or Air Force Support never records it for a T-34 (eliminated) and records
    it for a unit that fits as its target, the player, the acting unit, its Area and the
    cause staying while damage lasts; a lost step is picked at random only under
    lost_step=random, from the damaged unit's steps; the Sniper picks only for the Soviet,
    from a non-empty German hand, for the acting unit unless under
    event_timing=player_turn_too; a pick is resolved by the next step."""
    return [*_damage_rules(m, o, s, n), *_pick_made_rules(m, o, s, n)]


def _damage_rules(m: Model, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> list[Conjunct[B]]:
    """RKS-8.9.1, RKS-8.12.1, RKS-9.2.1: damage is recorded for a unit on the map, which stays
    where it is while recorded; bombardment or Air Force Support records it for no T-34, and
    for a unit that fits as its target; while damage lasts a step, the player, the acting
    unit, its Area and the damage's cause stay."""
    same = o.eq(n.i("dunit"), s.i("dunit"))
    return [
        Conjunct(
            "RKS-8.9.1",
            "damage is recorded for a unit on the map (`begin_damage`: the combat's loser, "
            "a bombarded unit), and while its record lasts the unit stays where it is (the "
            "step that moves or eliminates it ends the record, `after_damage`)",
            lambda: o.all(
                [
                    o.implies(
                        o.all([o.not_(same), o.not_(o.eq(n.i("dunit"), 0))]),
                        _placed(m, o, n, "dunit"),
                    ),
                    o.implies(o.all([same, o.not_(o.eq(s.i("dunit"), 0))]), _stays(m, o, s, n)),
                ]
            ),
        ),
        Conjunct(
            "RKS-8.12.1",
            "damage recorded anew (another unit, or another cause) by bombardment or Air "
            "Force Support is never a T-34's: a bombarded T-34 is eliminated at once "
            "(`begin_damage`, AMB-RKS-16)",
            lambda: o.implies(
                o.all(
                    [
                        o.not_(o.eq(n.i("dunit"), 0)),
                        o.not_(n.b("dcombat")),
                        o.any([o.not_(same), s.b("dcombat")]),
                    ]
                ),
                o.all(o.not_(o.eq(n.i("dunit"), m.unit_number[t])) for t in m.tanks),
            ),
        ),
        Conjunct(
            "RKS-9.2.1",
            "damage recorded anew by bombardment or Air Force Support is its drawn target's "
            "(`bombardment_draw`), a unit that fits as that event's target (`struck`: "
            "a restatement at the recording step of the checks `play_event` made); Air "
            "Force Support's damage is no other's (the projection's)",
            lambda: o.all(
                [
                    o.implies(
                        o.all(
                            [
                                o.not_(o.eq(n.i("dunit"), 0)),
                                o.not_(n.b("dcombat")),
                                o.any([o.not_(same), s.b("dcombat")]),
                            ]
                        ),
                        o.all(
                            o.implies(o.eq(n.i("dunit"), k), struck(m, o, n, u, n.b("dair")))
                            for u, k in m.unit_number.items()
                        ),
                    ),
                    o.implies(
                        n.b("dair"),
                        o.all([o.not_(o.eq(n.i("dunit"), 0)), o.not_(n.b("dcombat"))]),
                    ),
                ]
            ),
        ),
        Conjunct(
            "RKS-8.9.1",
            "while damage lasts a step (a lost step picked at random, `apply_damage`), "
            "the player, the acting unit, its Area and the damage's cause stay",
            lambda: o.implies(
                o.all([same, o.not_(o.eq(s.i("dunit"), 0))]),
                o.all(
                    [
                        o.eq(n.i("player"), s.i("player")),
                        o.eq(n.i("acting"), s.i("acting")),
                        o.iff(n.b("dair"), s.b("dair")),
                        *(
                            o.implies(o.eq(s.i("acting"), k), o.eq(n.i(at(u)), s.i(at(u))))
                            for u, k in m.unit_number.items()
                        ),
                    ]
                ),
            ),
        ),
    ]


def _pick_made_rules(m: Model, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> list[Conjunct[B]]:
    """RKS-8.9.1, RKS-9.6.1, AMB-RKS-7 iii: a lost step is picked at random only under
    lost_step=random, from the damaged unit's steps; the Sniper picks only for the Soviet,
    from a non-empty German hand; a pick is resolved by the next step."""
    opens = o.all([o.eq(s.i("pick"), 0), o.not_(o.eq(n.i("pick"), 0))])
    same = o.eq(n.i("dunit"), s.i("dunit"))
    return [
        Conjunct(
            "RKS-8.9.1",
            "a lost step is picked at random only under lost_step=random (AMB-RKS-7 iii), "
            "as the damaged unit loses a step with no card named, from its steps, its "
            "damage record staying (`apply_damage`, `lose_step_problem`)",
            lambda: o.implies(
                o.all([opens, o.eq(n.i("pick"), STEP_PICK)]),
                o.all(
                    [
                        o.lit(m.random_step),
                        same,
                        o.not_(o.eq(n.i("dunit"), 0)),
                        o.eq(n.i("pwho"), n.i("dunit")),
                        _has_step(m, o, n, "pwho"),
                    ]
                ),
            ),
        ),
        Conjunct(
            "RKS-9.6.1",
            "the Sniper's pick is made only by the Soviet player, from a non-empty German "
            "hand (`play_event`), for the acting unit unless under "
            "event_timing=player_turn_too (RKS-9.1.3, AMB-RKS-20); no other pick is made",
            lambda: o.all(
                [
                    o.implies(opens, o.le(n.i("pick"), SNIPER_PICK)),
                    o.implies(
                        o.all([opens, o.eq(n.i("pick"), SNIPER_PICK)]),
                        o.all(
                            [
                                o.eq(n.i("player"), CONTROLLERS[SU]),
                                o.le(1, n.i(hand(GE))),
                                o.any([o.lit(m.turn_events), o.not_(o.eq(n.i("acting"), 0))]),
                            ]
                        ),
                    ),
                ]
            ),
        ),
        Conjunct(
            "RKS-8.9.1",
            "a pick is resolved by the next step, a chance step (`picked_step`, "
            "`sniper_pick`); no step pick, no unit to pick from (the projection's)",
            lambda: o.all(
                [
                    o.implies(o.not_(o.eq(s.i("pick"), 0)), o.eq(n.i("pick"), 0)),
                    o.implies(o.not_(o.eq(n.i("pick"), STEP_PICK)), o.eq(n.i("pwho"), 0)),
                ]
            ),
        ),
    ]


def _placed(m: Model, o: Ops[B, I], f: Frame[B, I], v: str) -> B:
    """The unit numbered by variable `v` (if any) is on the map."""
    return o.all(
        o.implies(o.eq(f.i(v), k), o.not_(o.eq(f.i(at(u)), 0))) for u, k in m.unit_number.items()
    )


def _stays(m: Model, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> B:
    """The damaged unit stays where it is."""
    return o.all(
        o.implies(o.eq(s.i("dunit"), k), o.eq(n.i(at(u)), s.i(at(u))))
        for u, k in m.unit_number.items()
    )


def _has_step(m: Model, o: Ops[B, I], f: Frame[B, I], v: str) -> B:
    """The unit numbered by variable `v` (if any) has a step card."""
    return o.all(
        o.implies(o.eq(f.i(v), k), o.le(1, f.i(steps(u)))) for u, k in m.unit_number.items()
    )
