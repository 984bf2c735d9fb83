"""The records of each stage in Rattenkrieg's abstraction (`symbolic`; RKS-5.1.2, RKS-7.1.1,
RKS-8.2.2, RKS-10.3.1): what RKS-P-SEQUENCE states of them over the model beyond RKS-P-STAGES
(`after_recruiting`, `passes_fit`, `records_fit`, `acting_fits`, `flips_fit`); the step rules
that make and end them are in `symbolic_record_rules`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solvers.checking.terms import B, Frame, I, Ops
from specs.rattenkrieg.formal.invariants_sequence import ACTING, FIGHTING
from specs.rattenkrieg.formal.symbolic_state import (
    CONTROLLERS,
    DRAW,
    DRAW_KINDS,
    EVENT_KINDS,
    PHASES,
    PLAYER_TURNS,
    REINFORCEMENT,
    SETUP,
    SNIPER_PICK,
    STAGES,
    STEP_PICK,
    at,
    eff,
    flip,
    in_stages,
    iso,
)
from specs.rattenkrieg.rules.state import Phase, Stage

if TYPE_CHECKING:
    from specs.rattenkrieg.formal.symbolic import Model

OPERATED = frozenset(
    {Stage.COMBAT, Stage.CONTINUE, Stage.ISOLATION, Stage.DAMAGE, Stage.DRAW, Stage.PICK}
)
"""The stages by which the acting unit has operated (RKS-7.1.2, `invariants_sequence.sequenced`)."""


def after_recruiting(m: Model, o: Ops[B, I], f: Frame[B, I]) -> B:
    """RKS-10.1.1: in a Reinforcement Phase and at the game's end the player is the one last
    to refill in the Recruiting Phase."""
    later = o.among(f.i("phase"), [o.num(REINFORCEMENT), o.num(PHASES.index(Phase.OVER))])
    return o.implies(later, o.eq(f.i("player"), m.second))


def passes_fit(o: Ops[B, I], f: Frame[B, I]) -> B:
    """RKS-5.1.2: passes are counted only in the Player Turns."""
    return o.implies(f.b("passes"), o.eq(f.i("phase"), PLAYER_TURNS))


def records_fit(m: Model, o: Ops[B, I], f: Frame[B, I]) -> B:
    """RKS-8.2.2, RKS-8.3.1, RKS-8.9.1, RKS-9.6.1 (`invariants_sequence.sequenced`'s records): a
    combat record exists in the stages of a combat, and in damage or a pick only with the
    combat's damage; damage in its stage, or in a lost step's pick; a pick in its stage;
    combat damage exactly with its combat; no pick is of another kind."""
    fight, dmg = o.not_(o.eq(f.i("fight"), 0)), o.not_(o.eq(f.i("dunit"), 0))
    pick, stage = f.i("pick"), f.i("stage")
    fighting = in_stages(o, f, FIGHTING)
    damage_stage = o.eq(stage, STAGES.index(Stage.DAMAGE))
    pick_stage = o.eq(stage, STAGES.index(Stage.PICK))
    return o.all(
        [
            o.le(pick, SNIPER_PICK),
            o.implies(
                fight,
                o.any(
                    [
                        fighting,
                        o.all([o.any([damage_stage, pick_stage]), dmg, f.b("dcombat")]),
                    ]
                ),
            ),
            o.implies(dmg, o.any([damage_stage, o.all([pick_stage, o.eq(pick, STEP_PICK)])])),
            o.implies(o.not_(o.eq(pick, 0)), pick_stage),
            o.implies(fighting, fight),
            o.implies(damage_stage, dmg),
            o.implies(pick_stage, o.not_(o.eq(pick, 0))),
            o.implies(dmg, o.iff(f.b("dcombat"), fight)),
            o.implies(o.not_(dmg), o.not_(f.b("dcombat"))),
        ]
    )


def acting_fits(m: Model, o: Ops[B, I], f: Frame[B, I]) -> B:
    """RKS-7.1.1, RKS-7.1.2, RKS-7.4.2, RKS-7.5.1 (`invariants_sequence.sequenced`'s acting unit):
    a unit acts exactly where its stage needs one (in its operations, for a bombardment's
    or Air Force Support's draw, for a lost step's pick; a Sniper's pick either way); with
    none acting, nothing has operated and no event is in force; the acting unit is the
    player's, on the map and face up, and has operated by the time it fights, draws or
    picks; a recruit is remembered only in the Player Turns under recruit_turn=extra
    (AMB-RKS-18 b), and never with a recruit's draw queued and no unit acting."""
    stage, busy = f.i("stage"), o.not_(o.eq(f.i("acting"), 0))
    aimed = [o.num(DRAW_KINDS.index(k) + 1) for k in ("bombardment", "air_support")]
    draw_stage = o.eq(stage, DRAW)
    pick_stage = o.eq(stage, STAGES.index(Stage.PICK))
    aimed_draw = o.all([draw_stage, o.eq(f.i("phase"), PLAYER_TURNS), o.among(f.i("dkind"), aimed)])
    operating = in_stages(o, f, ACTING)
    need = o.any([operating, aimed_draw, o.all([pick_stage, o.eq(f.i("pick"), STEP_PICK)])])
    needless = o.all([o.not_(operating), o.not_(pick_stage), o.not_(aimed_draw)])
    operated = in_stages(o, f, OPERATED)

    def fit(u: str) -> B:
        return o.all(
            [
                o.eq(f.i("player"), CONTROLLERS[m.side[u]]),
                o.not_(o.eq(f.i(at(u)), 0)),
                o.not_(f.b(flip(u))),
            ]
        )

    return o.all(
        [
            o.implies(
                o.not_(busy),
                o.all(
                    [
                        o.not_(need),
                        o.not_(f.b("acted")),
                        *(o.eq(f.i(eff(k)), 0) for k in EVENT_KINDS),
                    ]
                ),
            ),
            o.implies(
                busy,
                o.all(
                    [
                        o.not_(needless),
                        *(
                            o.implies(o.eq(f.i("acting"), k), fit(u))
                            for u, k in m.unit_number.items()
                        ),
                        o.implies(operated, f.b("acted")),
                    ]
                ),
            ),
            o.implies(
                f.b("recruited"),
                o.all(
                    [
                        o.lit(m.recruit_extra),
                        o.eq(f.i("phase"), PLAYER_TURNS),
                        o.not_(o.all([draw_stage, o.not_(busy)])),
                    ]
                ),
            ),
        ]
    )


def flips_fit(m: Model, o: Ops[B, I], f: Frame[B, I]) -> B:
    """RKS-7.4.1, RKS-10.3.1, AMB-RKS-25 (`invariants_sequence.sequenced`'s flips): in set-up no
    unit is flipped or isolated; in set-up, a Reinforcement Phase and at the game's end a
    unit is flipped only under arrival_state=flipped, as it revives (RKS-6.3.1) or arrives
    in this Reinforcement Phase."""
    phase = f.i("phase")
    setup, reinforcing = o.eq(phase, SETUP), o.eq(phase, REINFORCEMENT)
    quiet = o.any([setup, reinforcing, o.eq(phase, PHASES.index(Phase.OVER))])

    def may_flip(u: str) -> B:
        arrives = m.arrives[u]
        arrived = o.any(
            [
                o.lit(u in m.revives),
                o.lit(False)
                if arrives is None
                else o.all([reinforcing, o.eq(f.i("turn"), arrives)]),
            ]
        )
        return o.all([o.lit(m.late), arrived])

    return o.all(
        o.all(
            [
                o.implies(setup, o.all([o.not_(f.b(flip(u))), o.not_(f.b(iso(u)))])),
                o.implies(o.all([quiet, f.b(flip(u))]), may_flip(u)),
            ]
        )
        for u in m.units
    )
