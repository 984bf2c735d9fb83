"""The step rules that make and end the records of each stage in Rattenkrieg's abstraction
(`symbolic`; RKS-5.1.2, RKS-7.1.1, RKS-8.2.2, RKS-10.3.1): `record_rules_of_stages` and its
parts. What RKS-P-SEQUENCE states of these records is in `symbolic_records`; the rules are
apart from it so that each module keeps one job.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solvers.checking.system import Conjunct
from solvers.checking.terms import B, Frame, I, Ops
from specs.rattenkrieg.formal.invariants_sequence import FIGHTING
from specs.rattenkrieg.formal.symbolic_records import OPERATED, flips_fit
from specs.rattenkrieg.formal.symbolic_sequence import TURN_OPENS
from specs.rattenkrieg.formal.symbolic_state import (
    DRAW,
    PHASES,
    PLAYER_TURNS,
    RECRUITING,
    REINFORCEMENT,
    SETUP,
    STAGES,
    STEP_PICK,
    at,
    flip,
    in_stages,
    iso,
    stage_is,
)
from specs.rattenkrieg.rules.state import Phase, Stage

if TYPE_CHECKING:
    from specs.rattenkrieg.formal.symbolic import Model


def record_rules_of_stages(
    m: Model, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]
) -> list[Conjunct[B]]:
    """The records each stage has (`invariants_sequence.sequenced` beyond
    `invariants_sequence.stages`), as what a step does to them: the player through the Reinforcement
    Phase and the game's end, the passes, the combat, damage and pick records as play enters and
    leaves their stages, the acting unit's flags, and the flips of set-up, the Reinforcement Phase
    and the game's end."""
    later = [o.num(REINFORCEMENT), o.num(PHASES.index(Phase.OVER))]
    return [
        Conjunct(
            "RKS-10.1.1",
            "a step that ends in a Reinforcement Phase or the game's end keeps the player: "
            "it is a step of the Reinforcement Phase, or the refill of the player last to "
            "refill that ends the Recruiting Phase (`after_refill`, `end_turn`)",
            lambda: o.implies(
                o.among(n.i("phase"), later),
                o.all(
                    [
                        o.eq(n.i("player"), s.i("player")),
                        o.any(
                            [
                                o.eq(s.i("phase"), REINFORCEMENT),
                                o.all(
                                    [
                                        o.eq(s.i("phase"), RECRUITING),
                                        o.eq(s.i("player"), m.second),
                                    ]
                                ),
                            ]
                        ),
                    ]
                ),
            ),
        ),
        Conjunct(
            "RKS-5.1.2",
            "only a step of the Player Turns that stays in them counts passes or keeps them "
            "(`end_player_turn`; `start_player_turns`, `start_recruiting_phase` and "
            "`start_turn` clear them)",
            lambda: o.implies(
                n.b("passes"),
                o.all([o.eq(s.i("phase"), PLAYER_TURNS), o.eq(n.i("phase"), PLAYER_TURNS)]),
            ),
        ),
        *stage_record_rules(m, o, s, n),
        *flag_rules(m, o, s, n),
        *flip_rules(m, o, s, n),
    ]


def stage_record_rules(m: Model, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> list[Conjunct[B]]:
    """How the combat, damage and pick records come and go with their stages (RKS-8.3.1,
    RKS-8.9.1, RKS-9.6.1): each is made as play enters its stage, lasts while play stays in
    its stages (a combat also through its damage, damage through a lost step's pick), and
    play leaves a stage of damage or a pick as its step resolves it."""
    fight = [o.not_(o.eq(f.i("fight"), 0)) for f in (s, n)]
    dmg = [o.not_(o.eq(f.i("dunit"), 0)) for f in (s, n)]
    picked = [o.not_(o.eq(f.i("pick"), 0)) for f in (s, n)]
    fighting = [in_stages(o, f, FIGHTING) for f in (s, n)]
    damage_stage = [o.eq(f.i("stage"), STAGES.index(Stage.DAMAGE)) for f in (s, n)]
    pick_stage = [o.eq(f.i("stage"), STAGES.index(Stage.PICK)) for f in (s, n)]
    return [
        Conjunct(
            "RKS-8.3.1",
            "a combat record is opened as play enters a combat's stages (`start_combat`, "
            "AMB-RKS-16's remaining units) or, the attacker having no card, its damage "
            "(`begin_round`); while it lasts play stays in its stages or its damage; play "
            "enters the combat's stages only with a record, and a step within them keeps it",
            lambda: o.all(
                [
                    o.implies(o.all([fight[1], o.not_(fight[0])]), o.any([fighting[1], dmg[1]])),
                    o.implies(o.all([fight[1], fight[0]]), o.any([fighting[1], dmg[1]])),
                    o.implies(o.all([fighting[1], o.not_(fighting[0])]), fight[1]),
                    o.implies(o.all([fighting[1], fighting[0], fight[0]]), fight[1]),
                ]
            ),
        ),
        Conjunct(
            "RKS-8.9.1",
            "damage is made as play enters the damage stage (`begin_damage`), a combat's "
            "with the combat and no other with one; it lasts a step only as the damage "
            "stage's step picks a lost step at random (AMB-RKS-7 iii), keeping its cause "
            "and combat; play enters the damage stage only with damage, and its step "
            "leaves it (`apply_damage`); no damage, no cause (the projection's)",
            lambda: o.all(
                [
                    o.implies(
                        o.all([dmg[1], o.not_(dmg[0])]),
                        o.all(
                            [
                                damage_stage[1],
                                o.not_(damage_stage[0]),
                                o.iff(n.b("dcombat"), fight[1]),
                            ]
                        ),
                    ),
                    o.implies(
                        o.all([dmg[1], dmg[0]]),
                        o.all(
                            [
                                damage_stage[0],
                                pick_stage[1],
                                o.eq(n.i("pick"), STEP_PICK),
                                o.iff(n.b("dcombat"), s.b("dcombat")),
                                o.iff(fight[1], fight[0]),
                            ]
                        ),
                    ),
                    o.implies(o.all([damage_stage[1], o.not_(damage_stage[0])]), dmg[1]),
                    o.implies(damage_stage[0], o.not_(damage_stage[1])),
                    o.implies(o.not_(dmg[1]), o.not_(n.b("dcombat"))),
                ]
            ),
        ),
        Conjunct(
            "RKS-9.6.1",
            "a pick is made as play enters the pick stage (`apply_damage`, `play_event`), "
            "play enters it only with a pick, and its step leaves it (`picked_step`, "
            "`sniper_pick`)",
            lambda: o.all(
                [
                    o.implies(o.all([picked[1], o.not_(picked[0])]), pick_stage[1]),
                    o.implies(o.all([pick_stage[1], o.not_(pick_stage[0])]), picked[1]),
                    o.implies(pick_stage[0], o.not_(pick_stage[1])),
                ]
            ),
        ),
    ]


def flag_rules(m: Model, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> list[Conjunct[B]]:
    """The acting unit's flags (RKS-7.1.2, RKS-7.4.2, RKS-7.5.1): it is designated on the
    map face up and stays so while it acts; it has operated by the time it fights, draws or
    picks, and stays so; a recruit is remembered only under recruit_turn=extra, and bars
    another."""
    keeps = o.all([o.eq(n.i("acting"), s.i("acting")), o.not_(o.eq(s.i("acting"), 0))])
    designates = o.all(
        [
            stage_is(o, s, TURN_OPENS),
            stage_is(o, n, ((Phase.PLAYER_TURNS, Stage.ACTIVE),)),
        ]
    )
    operated = [in_stages(o, f, OPERATED) for f in (s, n)]
    busy = o.not_(o.eq(n.i("acting"), 0))
    recruit_draw = o.all([o.eq(n.i("phase"), PLAYER_TURNS), o.eq(n.i("stage"), DRAW), o.not_(busy)])

    def placed(u: str, f: Frame[B, I]) -> B:
        return o.all([o.not_(o.eq(f.i(at(u)), 0)), o.not_(f.b(flip(u)))])

    return [
        Conjunct(
            "RKS-7.4.2",
            "a unit is designated on the map face up (`designate_problem`), and a step "
            "that keeps it acting neither flips it nor takes it off the map (one that does "
            "ends its activation: `end_activation`, `after_damage`, `continuation`)",
            lambda: o.all(
                o.implies(
                    o.eq(n.i("acting"), k),
                    o.all(
                        [
                            o.implies(designates, placed(u, n)),
                            o.implies(o.all([keeps, placed(u, s)]), placed(u, n)),
                        ]
                    ),
                )
                for u, k in m.unit_number.items()
            ),
        ),
        Conjunct(
            "RKS-7.1.2",
            "the acting unit has operated as play enters a combat, its damage, a draw or a "
            "pick (`start_combat`, `play_event`), and stays so while it acts; only an "
            "acting unit operates, and a designation or the end of a Player Turn clears it "
            "(`designate`, `end_player_turn`)",
            lambda: o.all(
                [
                    o.implies(o.all([busy, operated[1], o.not_(operated[0])]), n.b("acted")),
                    o.implies(o.all([keeps, s.b("acted")]), n.b("acted")),
                    o.implies(o.all([n.b("acted"), o.not_(s.b("acted"))]), busy),
                    o.implies(o.not_(o.eq(n.i("acting"), s.i("acting"))), o.not_(n.b("acted"))),
                ]
            ),
        ),
        Conjunct(
            "RKS-7.5.1",
            "a recruit is remembered as it ends, back at the start of the Player Turn, only "
            "under recruit_turn=extra (AMB-RKS-18 b, `after_recruit`); the memory lasts "
            "only in the Player Turns, and bars another recruit's draw (`recruit_problem`)",
            lambda: o.all(
                [
                    o.implies(
                        o.all([n.b("recruited"), o.not_(s.b("recruited"))]),
                        o.all([o.lit(m.recruit_extra), stage_is(o, n, TURN_OPENS)]),
                    ),
                    o.implies(n.b("recruited"), o.eq(n.i("phase"), PLAYER_TURNS)),
                    o.implies(o.all([s.b("recruited"), n.b("recruited")]), o.not_(recruit_draw)),
                ]
            ),
        ),
    ]


def flip_rules(m: Model, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> list[Conjunct[B]]:
    """The flips where no unit acts (RKS-7.4.1, RKS-10.3.1, AMB-RKS-25): set-up flips and
    isolates none; the Recruiting Phase ends with every unit face up, but those arriving or
    reviving flipped under arrival_state=flipped; a Reinforcement Phase's draws flip none."""
    later = [o.num(REINFORCEMENT), o.num(PHASES.index(Phase.OVER))]
    in_setup = o.all([o.eq(s.i("phase"), SETUP), o.eq(n.i("phase"), SETUP)])
    ends_recruiting = o.all([o.eq(s.i("phase"), RECRUITING), o.among(n.i("phase"), later)])
    reinforcing = o.all([o.eq(s.i("phase"), REINFORCEMENT), o.eq(n.i("phase"), REINFORCEMENT)])
    may_flip = flips_fit(m, o, n)
    return [
        Conjunct(
            "RKS-3.1.1",
            "a step of set-up (a placing, the deal) flips and isolates no unit",
            lambda: o.implies(
                in_setup,
                o.all(
                    o.all(
                        [
                            o.implies(n.b(flip(u)), s.b(flip(u))),
                            o.implies(n.b(iso(u)), s.b(iso(u))),
                        ]
                    )
                    for u in m.units
                ),
            ),
        ),
        Conjunct(
            "RKS-10.3.1",
            "the end of the Recruiting Phase turns every unit face up (`after_refill`), "
            "and the next Turn's arrivals and a revived unit come flipped only under "
            "arrival_state=flipped (AMB-RKS-25, `start_turn`, `revive`)",
            lambda: o.implies(ends_recruiting, may_flip),
        ),
        Conjunct(
            "RKS-6.2.2",
            "a draw of a Reinforcement Phase flips no unit (it deals an arrival its steps)",
            lambda: o.implies(
                reinforcing, o.all(o.implies(n.b(flip(u)), s.b(flip(u))) for u in m.units)
            ),
        ),
    ]
