"""The sequence of play in Rattenkrieg's abstraction (`symbolic`, RKS-5.1.1): where a step of each
phase and stage may lead (`SEQUENCE_STEPS`, `sequence_rules`), which steps change the Turn, the
result, the move waiting for its card and the queued draws as play enters and leaves their
stages, and who acts (`acting_rules`, RKS-7.1.1).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from solvers.checking.system import Conjunct
from solvers.checking.terms import B, Frame, I, Ops
from specs.rattenkrieg.formal.symbolic_state import (
    CONTROLLERS,
    DRAW,
    DRAW_KINDS,
    PLAYER_TURNS,
    RECRUITING,
    REINFORCEMENT,
    SETUP,
    STAGES,
    stage_is,
)
from specs.rattenkrieg.rules.state import PLAYER_TURN_STAGES, Phase, Stage

if TYPE_CHECKING:
    from specs.rattenkrieg.formal.symbolic import Model


Node = tuple[Phase, Stage]
PT_NODES: tuple[Node, ...] = tuple((Phase.PLAYER_TURNS, st) for st in PLAYER_TURN_STAGES)
"""The stages of the Player Turns (RKS-5.1.2, RKS-7.1.1 to RKS-9.8.2)."""
TURN_OPENS: tuple[Node, ...] = ((Phase.PLAYER_TURNS, Stage.PLAYER_TURN),)
TURN_DRAWS: tuple[Node, ...] = ((Phase.PLAYER_TURNS, Stage.DRAW), (Phase.PLAYER_TURNS, Stage.PICK))
RECRUITING_OPENS: Node = (Phase.RECRUITING, Stage.DISCARD)
SEQUENCE_STEPS: tuple[tuple[str, str, tuple[Node, ...], tuple[Node, ...]], ...] = (
    (
        "RKS-3.1.1",
        "placing a Rifle (`sequence.place`) leaves the next one to place, or with the last "
        "queues the deal of set-up (RKS-3.4.1, `start_deal`)",
        ((Phase.SETUP, Stage.PLACE),),
        ((Phase.SETUP, Stage.PLACE), (Phase.SETUP, Stage.DRAW)),
    ),
    (
        "RKS-3.4.1",
        "a draw of the set-up deal leaves the rest of the deal, or with the last opens Turn 1's "
        "Player Turns (`after_draws`, `start_player_turns`, RKS-5.1.3)",
        ((Phase.SETUP, Stage.DRAW),),
        ((Phase.SETUP, Stage.DRAW), *TURN_OPENS),
    ),
    (
        "RKS-6.2.2",
        "a draw of a Reinforcement Phase leaves the rest of the arrivals' steps, or with the "
        "last opens the Player Turns (`after_draws`, RKS-5.1.1)",
        ((Phase.REINFORCEMENT, Stage.DRAW),),
        ((Phase.REINFORCEMENT, Stage.DRAW), *TURN_OPENS),
    ),
    (
        "RKS-7.1.1",
        "from the start of a Player Turn: a designation goes to the acting unit's operations "
        "(`designate`), a recruit to its step's draw (RKS-7.5.1), an event under "
        "event_timing=player_turn_too to its draw or pick; else (a pass, or a recruit or event "
        "with nothing to draw or pick) the Player Turn ends: the next one starts or, after "
        "two passes in succession, the Recruiting Phase opens with its first discard "
        "(`end_player_turn`, `start_recruiting_phase`, RKS-5.1.2)",
        TURN_OPENS,
        (*TURN_OPENS, (Phase.PLAYER_TURNS, Stage.ACTIVE), *TURN_DRAWS, RECRUITING_OPENS),
    ),
    (
        "RKS-5.1.2",
        "a step of the acting unit (an event, move, payment, attack, combat declaration, "
        "damage, remaining unit's decision, continuation, draw or pick) ends in a stage of the "
        "Player Turns or, ending the second Player Turn in succession that passes, opens the "
        "Recruiting Phase with its first discard (`end_player_turn`, `start_recruiting_phase`)",
        PT_NODES[1:],
        (*PT_NODES, RECRUITING_OPENS),
    ),
    (
        "RKS-10.1.1",
        "a discard of the Recruiting Phase, or a draw of its refill, queues or takes the "
        "refill, hands the discard to the second player, or after the second player's refill "
        "ends the Turn: the next Turn opens with its Reinforcement Phase (its arrivals' draws) "
        "or, with no arrival, its Player Turns; after Turn 6 the game ends (`after_refill`, "
        "`end_turn`, `start_turn`, `victory`)",
        ((Phase.RECRUITING, Stage.DISCARD), (Phase.RECRUITING, Stage.DRAW)),
        (
            (Phase.RECRUITING, Stage.DISCARD),
            (Phase.RECRUITING, Stage.DRAW),
            (Phase.REINFORCEMENT, Stage.DRAW),
            *TURN_OPENS,
            (Phase.OVER, Stage.OVER),
        ),
    ),
)
"""Where a step from each phase and stage may lead (`sequence_rules`), per stage and the
action kinds taken there, by `specs.rattenkrieg.rules.sequence`. The game over has no step
(RKS-4.1.2)."""


def sequence_rules(m: Model, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> list[Conjunct[B]]:
    """Where each step of a phase and stage may lead (`SEQUENCE_STEPS`, per stage and
    action kind, `sequence`), which steps change the Turn, and the records a step makes or
    ends as it enters or leaves a stage: the result (`sequence.victory`), the move waiting
    for its card (`activation.move`, `activation.pay`), the queued draws
    (`sequence.queue_draws`, `sequence.next_draw`)."""
    out = [
        Conjunct(
            clause,
            text,
            functools.partial(
                lambda fro, to: o.implies(stage_is(o, s, fro), stage_is(o, n, to)),
                fro,
                to,
            ),
        )
        for clause, text, fro, to in SEQUENCE_STEPS
    ]
    recruiting = o.eq(s.i("phase"), RECRUITING)
    next_turn = o.any([o.eq(n.i("phase"), REINFORCEMENT), o.eq(n.i("phase"), PLAYER_TURNS)])
    out += [
        Conjunct(
            "RKS-5.1.1",
            "only the end of a Recruiting Phase changes the Turn, opening the next one "
            "(its Reinforcement Phase or its Player Turns) with the Turn one more "
            "(`sequence.end_turn`, `sequence.start_turn`)",
            lambda: o.implies(
                o.not_(o.eq(n.i("turn"), s.i("turn"))),
                o.all([recruiting, next_turn, o.eq(n.i("turn"), o.add([s.i("turn"), 1]))]),
            ),
        ),
        Conjunct(
            "RKS-3.1.1",
            "the steps of set-up (placing the Rifles, the deal) keep the player: the Soviet "
            "places first",
            lambda: o.implies(
                o.all([o.eq(s.i("phase"), SETUP), o.eq(n.i("phase"), SETUP)]),
                o.eq(n.i("player"), s.i("player")),
            ),
        ),
        *acting_rules(m, o, s, n),
        *_stage_records(o, s, n),
    ]
    return out


def _stage_records(o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> list[Conjunct[B]]:
    """The records a step makes or ends as it enters or leaves a stage: the result
    (RKS-4.1.1), the move waiting for its card (RKS-7.3.1), the queued draws (RKS-3.4.3)."""
    over, pay, draw = STAGES.index(Stage.OVER), STAGES.index(Stage.PAY), DRAW
    return [
        Conjunct(
            "RKS-4.1.1",
            "the end of Turn 6's Recruiting Phase ends the game with its result "
            "(`sequence.victory`), and no step that does not end it gives a result",
            lambda: o.all(
                [
                    o.implies(_enters(o, s, n, over), o.not_(o.eq(n.i("won"), 0))),
                    o.implies(_neither(o, s, n, over), o.eq(n.i("won"), s.i("won"))),
                ]
            ),
        ),
        Conjunct(
            "RKS-7.3.1",
            "a Move into an empty enemy Area waits for its card in the pay stage "
            "(`activation.move`); a payment leaves the move waiting there, or completes it "
            "and returns to the acting unit (`activation.pay`); no other step makes or "
            "ends a waiting move",
            lambda: o.all(
                [
                    o.implies(_enters(o, s, n, pay), n.b("pending")),
                    o.implies(
                        o.eq(s.i("stage"), pay),
                        o.any(
                            [
                                o.all([o.eq(n.i("stage"), pay), n.b("pending")]),
                                o.all(
                                    [
                                        o.eq(n.i("stage"), STAGES.index(Stage.ACTIVE)),
                                        o.not_(n.b("pending")),
                                    ]
                                ),
                            ]
                        ),
                    ),
                    o.implies(_neither(o, s, n, pay), o.iff(n.b("pending"), s.b("pending"))),
                ]
            ),
        ),
        Conjunct(
            "RKS-3.4.3",
            "a step that queues draws enters the draw stage with them "
            "(`sequence.queue_draws`, a bombardment's `play_event`); a draw takes the head "
            "of the queue and play stays in the draw stage while draws are queued "
            "(`sequence.next_draw`: the queue dropped when no card is left), moving on "
            "with none; no other step queues or takes a draw",
            lambda: o.all(
                [
                    o.implies(_enters(o, s, n, draw), o.le(1, n.i("ndraws"))),
                    o.implies(
                        o.eq(s.i("stage"), draw),
                        o.iff(o.eq(n.i("stage"), draw), o.le(1, n.i("ndraws"))),
                    ),
                    o.implies(_neither(o, s, n, draw), o.eq(n.i("ndraws"), s.i("ndraws"))),
                ]
            ),
        ),
    ]


def _enters(o: Ops[B, I], s: Frame[B, I], n: Frame[B, I], stage: int) -> B:
    """The step enters `stage` (by number)."""
    return o.all([o.not_(o.eq(s.i("stage"), stage)), o.eq(n.i("stage"), stage)])


def _neither(o: Ops[B, I], s: Frame[B, I], n: Frame[B, I], stage: int) -> B:
    """Neither the position before the step nor the one after is in `stage` (by number)."""
    return o.all([o.not_(o.eq(s.i("stage"), stage)), o.not_(o.eq(n.i("stage"), stage))])


def acting_rules(m: Model, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> list[Conjunct[B]]:
    """Who acts (RKS-7.1.1): a designation makes the player's unit act, it acts until the
    Player Turn ends (`end_player_turn` clears it), a recruit and a pick with no unit
    acting end the Player Turn they are made in."""
    start, active = stage_is(o, s, TURN_OPENS), (Phase.PLAYER_TURNS, Stage.ACTIVE)
    ends = (*TURN_OPENS, RECRUITING_OPENS)
    turn_draw = ((Phase.PLAYER_TURNS, Stage.DRAW),)
    recruit = o.eq(n.i("dkind"), DRAW_KINDS.index("steps") + 1)
    designates = o.all([start, stage_is(o, n, (active,))])

    def own(u: str) -> B:
        return o.eq(n.i("player"), CONTROLLERS[m.side[u]])

    return [
        Conjunct(
            "RKS-7.1.1",
            "a step from the start of a Player Turn to the acting unit's operations is a "
            "designation: a unit of the player acts (`designate_problem`, `designate`)",
            lambda: o.implies(designates, m.acting_is(o, n, own)),
        ),
        Conjunct(
            "RKS-7.1.1",
            "the acting unit changes only by a designation, or to none as the Player Turn "
            "ends (the next one starts, or the Recruiting Phase: `end_player_turn`); the "
            "player changes only with no unit acting",
            lambda: o.all(
                [
                    o.implies(
                        o.not_(o.eq(n.i("acting"), s.i("acting"))),
                        o.any(
                            [
                                designates,
                                o.all([o.eq(n.i("acting"), 0), stage_is(o, n, ends)]),
                            ]
                        ),
                    ),
                    o.implies(o.not_(o.eq(n.i("player"), s.i("player"))), o.eq(n.i("acting"), 0)),
                ]
            ),
        ),
        Conjunct(
            "RKS-5.1.2",
            "a step that starts a Player Turn, or leaves the Player Turns, leaves no unit "
            "acting (`end_player_turn`, `start_player_turns`)",
            lambda: o.implies(
                o.any([stage_is(o, n, TURN_OPENS), o.not_(o.eq(n.i("phase"), PLAYER_TURNS))]),
                o.eq(n.i("acting"), 0),
            ),
        ),
        Conjunct(
            "RKS-7.5.1",
            "a draw of the Player Turns is queued for a recruit's step exactly when it is "
            "made from the start of a Player Turn (a recruit, `recruit`; a bombardment or "
            "Air Force Support is the acting unit's, RKS-9.2.1), and the recruit's draw "
            "ends it: the player designates or passes next under recruit_turn=extra "
            "(AMB-RKS-18 b), else the Player Turn ends (`after_recruit`)",
            lambda: o.all(
                [
                    o.implies(
                        o.all(
                            [
                                stage_is(o, n, turn_draw),
                                o.not_(stage_is(o, s, turn_draw)),
                            ]
                        ),
                        o.iff(start, recruit),
                    ),
                    o.implies(
                        o.all(
                            [
                                stage_is(o, s, turn_draw),
                                o.eq(s.i("dkind"), DRAW_KINDS.index("steps") + 1),
                            ]
                        ),
                        stage_is(o, n, ends),
                    ),
                ]
            ),
        ),
        Conjunct(
            "RKS-9.6.1",
            "a pick with no unit acting (the Sniper's, played at the start of a Player Turn "
            "under event_timing=player_turn_too) ends the Player Turn (`after_event`)",
            lambda: o.implies(
                o.all(
                    [
                        stage_is(o, s, ((Phase.PLAYER_TURNS, Stage.PICK),)),
                        o.eq(s.i("acting"), 0),
                    ]
                ),
                stage_is(o, n, ends),
            ),
        ),
    ]
