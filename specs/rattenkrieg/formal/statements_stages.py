"""Rattenkrieg's formal statements of play's stages and their records (RKS-P-STAGES,
RKS-P-COMBATANTS, RKS-P-PICKS, RKS-P-SEQUENCE), read over the projection of
`specs.rattenkrieg.formal.symbolic`; the verification module's docstring argues why each implies its
property and which step rules it rests on.
"""

from __future__ import annotations

from solvers.checking.terms import B, Frame, I, Ops
from specs.rattenkrieg.formal import (
    invariants_sequence,
    symbolic_records,
)
from specs.rattenkrieg.formal.symbolic import Model
from specs.rattenkrieg.formal.symbolic_combatants import supporters
from specs.rattenkrieg.formal.symbolic_picks import bombarded_fits
from specs.rattenkrieg.formal.symbolic_state import (
    CONTROLLERS,
    DRAW_KINDS,
    PHASES,
    SNIPER_PICK,
    STAGES,
    STEP_PICK,
    at,
    hand,
    steps,
)
from specs.rattenkrieg.rules.sequence import LAST_TURN
from specs.rattenkrieg.rules.state import GE, SU, Phase, Stage


def stages(m: Model, o: Ops[B, I], s: Frame[B, I]) -> B:
    """RKS-5.1.1, RKS-3.1.1, RKS-4.1.1, RKS-7.3.1, RKS-3.4.3 (`invariants_sequence.stages`, the part
    of RKS-P-SEQUENCE proved): each phase has only its stages (`invariants_sequence.PHASE_STAGES`),
    set-up is Turn 1 with the Soviet player, a Reinforcement Phase is in Turn 2 or later and the
    game ends in Turn 6; a result, a move waiting for its card and queued draws exist exactly in
    their stages (over, pay, draw); the acting unit is the player's, present in the stages of its
    operations and for a bombardment's or Air Force Support's draw, absent elsewhere (but in a
    pick); and the Turn is at least 1. Over the projection (`won` is non-zero exactly with a result,
    `pending` with a waiting move, `ndraws` is the queue's length, `dkind` the first draw's kind)
    this is `invariants_sequence.stages` read word for word, and one more conjunct (a Player Turns
    draw is a recruit's, a bombardment's or Air Force Support's, as RKS-P-DRAWS has it too) that
    makes it inductive."""
    phase, stage = s.i("phase"), s.i("stage")
    busy = o.not_(o.eq(s.i("acting"), 0))
    acting = [x for x in STAGES if x in invariants_sequence.ACTING]
    idle = (Stage.PLACE, Stage.PLAYER_TURN, Stage.DISCARD, Stage.OVER)
    aimed = [o.num(DRAW_KINDS.index(k) + 1) for k in ("bombardment", "air_support")]
    return o.all(
        [
            o.le(1, s.i("turn")),
            *(
                o.implies(
                    o.eq(phase, PHASES.index(p)),
                    o.among(stage, [o.num(STAGES.index(x)) for x in STAGES if x in ok]),
                )
                for p, ok in invariants_sequence.PHASE_STAGES.items()
            ),
            o.implies(
                o.eq(phase, PHASES.index(Phase.SETUP)),
                o.all([o.eq(s.i("turn"), 1), o.eq(s.i("player"), CONTROLLERS[SU])]),
            ),
            o.implies(o.eq(phase, PHASES.index(Phase.REINFORCEMENT)), o.le(2, s.i("turn"))),
            o.implies(o.eq(phase, PHASES.index(Phase.OVER)), o.eq(s.i("turn"), LAST_TURN)),
            o.iff(o.not_(o.eq(s.i("won"), 0)), o.eq(stage, STAGES.index(Stage.OVER))),
            o.iff(s.b("pending"), o.eq(stage, STAGES.index(Stage.PAY))),
            o.iff(o.le(1, s.i("ndraws")), o.eq(stage, STAGES.index(Stage.DRAW))),
            # the acting unit: the player's, in the stages of its operations and for a
            # bombardment's draw, none where a Player Turn starts, outside the Player Turns, or
            # for a recruit's draw (a Player Turns draw is of one of these kinds: RKS-P-DRAWS
            # says so too; here it makes the statement inductive, stronger than the predicate)
            *(
                o.implies(o.eq(s.i("acting"), k), o.eq(s.i("player"), CONTROLLERS[m.side[u]]))
                for u, k in m.unit_number.items()
            ),
            o.implies(o.among(stage, [o.num(STAGES.index(x)) for x in acting]), busy),
            o.implies(
                o.any(
                    [
                        o.not_(o.eq(phase, PHASES.index(Phase.PLAYER_TURNS))),
                        o.among(stage, [o.num(STAGES.index(x)) for x in idle]),
                    ]
                ),
                o.not_(busy),
            ),
            o.implies(
                o.all(
                    [
                        o.eq(phase, PHASES.index(Phase.PLAYER_TURNS)),
                        o.eq(stage, STAGES.index(Stage.DRAW)),
                    ]
                ),
                o.all(
                    [
                        o.iff(busy, o.among(s.i("dkind"), aimed)),
                        o.among(s.i("dkind"), [o.num(DRAW_KINDS.index("steps") + 1), *aimed]),
                    ]
                ),
            ),
        ]
    )


def combatants(m: Model, o: Ops[B, I], s: Frame[B, I]) -> B:
    """RKS-8.2.2, RKS-8.2.3, RKS-8.12.3 (`invariants_combat.combatants`, the part of RKS-P-COMBAT
    proved first): a combat record's Area is a Stalingrad Area, its attacker the acting unit, the
    player's, its defender (once
    chosen) a unit of the other side, its support none or a Soviet T-34; with no record, none of
    these (the projection's). Over the projection
    (`cunit`, `cdef`, `csup`: the record's units by number, 0 for none; `attacker` the
    attacker's side) this is `invariants_combat.combatants` read word for word."""
    fight = o.not_(o.eq(s.i("fight"), 0))
    side_of = [
        o.implies(o.eq(s.i(v), k), o.eq(s.i(w), CONTROLLERS[m.side[u]]))
        for u, k in m.unit_number.items()
        for v, w in (("acting", "player"), ("cunit", "attacker"))
    ]
    enemy = [
        o.implies(o.eq(s.i("cdef"), k), o.not_(o.eq(s.i("attacker"), CONTROLLERS[m.side[u]])))
        for u, k in m.unit_number.items()
    ]
    return o.all(
        [
            *side_of,
            o.implies(
                o.not_(fight),
                o.all(o.eq(s.i(v), 0) for v in ("cunit", "cdef", "csup", "carea")),
            ),
            o.implies(
                fight,
                o.all(
                    [
                        o.not_(o.eq(s.i("acting"), 0)),
                        o.eq(s.i("cunit"), s.i("acting")),
                        o.among(s.i("carea"), [o.num(m.areas[a]) for a in m.stalingrad]),
                        *enemy,
                        o.among(s.i("csup"), supporters(m, o)),
                    ]
                ),
            ),
        ]
    )


def picks(m: Model, o: Ops[B, I], s: Frame[B, I]) -> B:
    """RKS-8.9.1, RKS-8.12.1, RKS-9.2.1, RKS-9.6.1, AMB-RKS-7 iii (`invariants_aftermath.picks`, the
    part of RKS-P-AFTERMATH proved): the damaged unit is on the map; unless its damage is a
    combat's, it is no T-34 (a bombarded T-34 is eliminated) and fits as its event's target
    (`symbolic_picks.bombarded_fits`); a random step pick is the damaged unit's, under
    lost_step=random, and it has a step; the Sniper's pick is the Soviet's from a non-empty German
    hand, for the acting unit unless under event_timing=player_turn_too; there is no other pick.
    Over the projection (`dunit`, `pwho`: units by number, 0 for none; `dcombat`, `dair`: damage
    caused by a combat, by Air Force Support; `pick` its kind, any other pick `STRAY_PICK`) this is
    `invariants_aftermath.picks` read word for word (`dair` only with other damage, which the
    projection makes true)."""
    pick, dunit, pwho = s.i("pick"), s.i("dunit"), s.i("pwho")
    return o.all(
        [
            *(
                o.implies(o.eq(dunit, k), o.not_(o.eq(s.i(at(u)), 0)))
                for u, k in m.unit_number.items()
            ),
            bombarded_fits(m, o, s),
            o.le(pick, SNIPER_PICK),
            o.implies(
                o.eq(pick, STEP_PICK),
                o.all(
                    [
                        o.lit(m.random_step),
                        o.not_(o.eq(dunit, 0)),
                        o.eq(pwho, dunit),
                        *(
                            o.implies(o.eq(pwho, k), o.le(1, s.i(steps(u))))
                            for u, k in m.unit_number.items()
                        ),
                    ]
                ),
            ),
            o.implies(
                o.eq(pick, SNIPER_PICK),
                o.all(
                    [
                        o.eq(s.i("player"), CONTROLLERS[SU]),
                        o.le(1, s.i(hand(GE))),
                        o.any([o.lit(m.turn_events), o.not_(o.eq(s.i("acting"), 0))]),
                    ]
                ),
            ),
        ]
    )


def sequenced(m: Model, o: Ops[B, I], s: Frame[B, I]) -> B:
    """RKS-5.1.1, RKS-5.1.2, RKS-7.1.1, RKS-8.2.2, RKS-10.3.1 (`invariants_sequence.sequenced`): the
    statement of RKS-P-STAGES, and the player after the Recruiting Phase, the passes, the combat,
    damage and pick records of each stage, the acting unit and its flags, and the flips
    (`symbolic_records.after_recruiting`, `passes_fit`, `records_fit`, `acting_fits`, `flips_fit`).
    Over the projection (`passes`, `acted`, `recruited`: the position's; `dcombat`: damage caused by
    a combat) this is `invariants_sequence.sequenced` read word for word, stronger only where
    `stages` says and in excluding a pick of any other kind (as RKS-P-PICKS does), so it implies
    it."""
    return o.all(
        [
            stages(m, o, s),
            symbolic_records.after_recruiting(m, o, s),
            symbolic_records.passes_fit(o, s),
            symbolic_records.records_fit(m, o, s),
            symbolic_records.acting_fits(m, o, s),
            symbolic_records.flips_fit(m, o, s),
        ]
    )
