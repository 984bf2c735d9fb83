"""The step rules of Rattenkrieg's abstraction (`symbolic`) about the events in force (RKS-9.1.1 to
RKS-9.8.1): how a card comes into force for the acting unit, how the events pass into a combat
and end, and who may change the player and the acting unit meanwhile (RKS-7.1.1).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from solvers.checking.system import Conjunct
from solvers.checking.terms import B, Frame, I, Ops
from specs.rattenkrieg.formal.symbolic_state import (
    BOMBARDED,
    CONTROLLERS,
    EVENT_KINDS,
    EVENT_SIDE,
    FIGHTS,
    OTHER_EVENT,
    Rules,
    ceff,
    eff,
)

if TYPE_CHECKING:
    from specs.rattenkrieg.formal.symbolic import Model


def event_rules(m: Model, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> list[Conjunct[B]]:
    """What a step does to the events in force (RKS-9.1.1 to RKS-9.8.1): an event card
    played by the acting unit puts one card of its kind in force (`eventcards.play_event`),
    a designation or the end of a Player Turn ends them (`activation.designate`,
    `sequence.end_player_turn`), a combat takes the "next combat" ones in
    (`combat.start_combat`), a tie refought under effect_duration=first_round ends them
    (`combat.judge`)."""
    rules = [*_turn_rules(o, s, n), *_record_rules(m, o, s, n), *_card_rules(m, o, s, n)]
    return [Conjunct(clause, text, make) for clause, text, make in rules]


def _turn_rules(o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> Rules[B]:
    """RKS-7.1.1, RKS-9.1.1: the player and the acting unit change only as the events end, and
    no effect but the four lasting events comes into force."""
    none_after = o.all(o.eq(n.i(eff(k)), 0) for k in EVENT_KINDS)
    return [
        (
            "RKS-7.1.1",
            "the player and the acting unit change only as the events in force end and no "
            "combat is open (a designation, the end of a Player Turn: RKS-9.4.1)",
            lambda: o.implies(
                o.any(
                    [
                        o.not_(o.eq(n.i("player"), s.i("player"))),
                        o.not_(o.eq(n.i("acting"), s.i("acting"))),
                    ]
                ),
                o.all([none_after, o.eq(n.i("fight"), 0)]),
            ),
        ),
        (
            "RKS-9.1.1",
            "no effect other than the four lasting events ever comes into force, in or out "
            "of a combat",
            lambda: o.all(
                [
                    o.le(n.i(eff(OTHER_EVENT)), s.i(eff(OTHER_EVENT))),
                    o.le(n.i(ceff(OTHER_EVENT)), s.i(ceff(OTHER_EVENT))),
                ]
            ),
        ),
    ]


def _record_rules(m: Model, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> Rules[B]:
    """RKS-9.5.1, RKS-9.2.2, RKS-8.2.2, RKS-8.7.4: a combat takes the "next combat" events in
    as it opens, a bombarded unit's record none; while a record lasts no event joins it, and a
    tie refought under effect_duration=first_round ends them."""
    opens = o.all([o.eq(s.i("fight"), 0), o.not_(o.eq(n.i("fight"), 0))])
    lasts = o.all([o.not_(o.eq(s.i("fight"), 0)), o.not_(o.eq(n.i("fight"), 0))])
    fight = FIGHTS["combat"]
    rules: Rules[B] = [
        (
            "RKS-9.5.1",
            "a combat is opened by the player (the acting unit attacks, RKS-8.2.2); it "
            "takes in the 'next combat' events in force, the Assault Gun staying with the "
            "unit (RKS-9.7.1, RKS-9.8.1), and starts with its first round",
            lambda: o.implies(
                o.all([opens, o.eq(n.i("fight"), fight)]),
                o.all(
                    [
                        o.eq(n.i("attacker"), s.i("player")),
                        o.not_(n.b("refight")),
                        o.eq(n.i(ceff("assault_gun")), 0),
                        *(
                            o.all([o.eq(n.i(ceff(k)), s.i(eff(k))), o.eq(n.i(eff(k)), 0)])
                            for k in EVENT_SIDE
                            if k != "assault_gun"
                        ),
                    ]
                ),
            ),
        ),
        (
            "RKS-9.2.2",
            "the remaining units of a bombarded unit (AMB-RKS-16) decide with no events in "
            "their record",
            lambda: o.implies(
                o.all([opens, o.eq(n.i("fight"), BOMBARDED)]),
                o.all(o.eq(n.i(ceff(k)), 0) for k in EVENT_KINDS),
            ),
        ),
        (
            "RKS-8.2.2",
            "while a combat record lasts its cause and attacker stay, and no event joins it "
            "(a new combat of the same attacker takes in none: they passed into the first; "
            "under reattack_events=effects it takes in those played before it)",
            lambda: o.implies(
                lasts,
                o.all(
                    [
                        o.eq(n.i("fight"), s.i("fight")),
                        o.eq(n.i("attacker"), s.i("attacker")),
                        # RKS-8.11.2 (option reattack_events=effects): widened by s.eff
                        *(
                            o.le(
                                n.i(ceff(k)),
                                o.add([s.i(ceff(k)), s.i(eff(k))])
                                if m.reattack_events
                                else s.i(ceff(k)),
                            )
                            for k in EVENT_KINDS
                        ),
                    ]
                ),
            ),
        ),
        (
            "RKS-9.5.1",
            "no combat record, no events in it (the projection's)",
            lambda: o.implies(
                o.eq(n.i("fight"), 0), o.all(o.eq(n.i(ceff(k)), 0) for k in EVENT_KINDS)
            ),
        ),
    ]
    if m.first_round:
        rules.append(
            (
                "RKS-8.7.4",
                "a tie refought ends the combat's events (effect_duration=first_round)",
                lambda: o.implies(
                    o.all([o.not_(s.b("refight")), n.b("refight")]),
                    o.all(o.eq(n.i(ceff(k)), 0) for k in EVENT_KINDS),
                ),
            )
        )
    return rules


def _card_rules(m: Model, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> Rules[B]:
    """RKS-9.1.1, RKS-9.1.2, RKS-9.7.1, RKS-9.4.1: a lasting event comes into force one card at
    a time, as the acting unit's event by its player, at most as many cards as there are (one
    under effect_stacking=once), and the Assault Gun never for a Panzer Division."""
    most = 1 if m.stacking_once else 2
    rules: Rules[B] = []
    for k, side in EVENT_SIDE.items():
        grows = o.lt(s.i(eff(k)), n.i(eff(k)))
        rules += [
            (
                "RKS-9.1.1",
                f"{k} comes into force only as the acting unit's event, by its player "
                f"({side}, RKS-9.1.2), outside a combat, and stays with it",
                functools.partial(
                    lambda k, side, grows: o.implies(
                        grows,
                        o.all(
                            [
                                o.eq(s.i("player"), CONTROLLERS[side]),
                                o.eq(n.i("player"), CONTROLLERS[side]),
                                # RKS-8.11.2 (option reattack_events=effects): also while
                                # a combat record lasts, before the attack again
                                o.eq(n.i("fight"), s.i("fight"))
                                if m.reattack_events
                                else o.all([o.eq(s.i("fight"), 0), o.eq(n.i("fight"), 0)]),
                                o.not_(o.eq(n.i("acting"), 0)),
                            ]
                        ),
                    ),
                    k,
                    side,
                    grows,
                ),
            ),
            (
                "RKS-9.7.1",
                f"{k} comes into force one card at a time"
                + (
                    ", and not again while in force (effect_stacking=once)"
                    if m.stacking_once
                    else ", at most the two cards there are of it (a restatement: the "
                    "abstraction does not follow which card is where)"
                ),
                functools.partial(
                    lambda k, grows: o.implies(
                        grows,
                        o.all(
                            [
                                o.eq(n.i(eff(k)), o.add([s.i(eff(k)), 1])),
                                o.le(n.i(eff(k)), most),
                            ]
                        ),
                    ),
                    k,
                    grows,
                ),
            ),
        ]
    rules.append(
        (
            "RKS-9.4.1",
            "the Assault Gun comes into force only for a unit that is no Panzer Division "
            "(refused, or played for nothing by assault_gun_on_panzer=no_effect)",
            lambda: o.implies(
                o.lt(s.i(eff("assault_gun")), n.i(eff("assault_gun"))),
                o.not_(o.among(n.i("acting"), [o.num(p) for p in m.panzers])),
            ),
        )
    )
    return rules
