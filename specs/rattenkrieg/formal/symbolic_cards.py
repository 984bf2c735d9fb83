"""The step rules of Rattenkrieg's abstraction (`symbolic`) about the cards and the hands: how many
places hold each card and how it turns face up or down, is exposed or leaves the game
(RKS-3.3.3, RKS-3.4.3, RKS-8.7.1, the readings of discard_faces and AMB-RKS-7); how a hand grows
(RKS-3.4.1, RKS-10.1.2, RKS-10.2.1); and the face-up units General Chuikov turns in the Player
Turn loop (RKS-9.8.2, event_source=hand).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solvers.checking.system import Conjunct
from solvers.checking.terms import B, Frame, I, Ops
from specs.rattenkrieg.formal.symbolic_state import FACE_KINDS, RECRUITING, SETUP, Rules, card, face
from specs.rattenkrieg.rules.cards import MAX_HAND
from specs.rattenkrieg.rules.sequence import START_HAND
from specs.rattenkrieg.rules.state import SU

if TYPE_CHECKING:
    from specs.rattenkrieg.formal.symbolic import Model


def card_rules(m: Model, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I], c: str) -> list[Conjunct[B]]:
    """How many places hold card `c` (RKS-3.4.3), and how it turns face up or down, is
    exposed or leaves the game (RKS-3.3.3, RKS-3.4.3, RKS-8.7.1; the readings of
    discard_faces and AMB-RKS-7)."""
    up, out, gone, exp, step = (s.b(face(k, c)) for k in FACE_KINDS)
    up2, out2, gone2, exp2, step2 = (n.b(face(k, c)) for k in FACE_KINDS)
    about = frozenset({c})
    rules: Rules[B] = [
        (
            "RKS-3.4.3",
            f"{c} lies in as many places after the step as before (RKS-3.4.2)",
            lambda: o.eq(n.i(card(c)), s.i(card(c))),
        ),
        (
            "RKS-8.7.1",
            f"{c} turns face up only as it lies out of play (RKS-3.4.3)",
            lambda: o.implies(o.all([o.not_(up), up2]), out2),
        ),
        (
            "RKS-3.4.3",
            f"{c} leaving the discards (the reshuffle) turns face down",
            lambda: o.implies(o.all([out, o.not_(out2)]), o.not_(up2)),
        ),
        (
            "RKS-3.3.3",
            f"{c} leaving the units' steps is no longer exposed",
            lambda: o.implies(o.all([step, o.not_(step2)]), o.not_(exp2)),
        ),
        (
            "RKS-3.3.3",
            f"{c} is exposed only as a unit's step"
            + (" (played_step=returned, AMB-RKS-7 i)" if m.returned else ": never"),
            lambda: o.implies(o.all([o.not_(exp), exp2]), o.all([step2, o.lit(m.returned)])),
        ),
        (
            "RKS-3.4.3",
            f"{c} leaves the game only "
            + ("by used_steps=removed (AMB-RKS-7 iv)" if m.removing else "never"),
            lambda: o.implies(o.all([o.not_(gone), gone2]), o.lit(m.removing)),
        ),
    ]
    if m.faces == "face_up":
        rules += [
            (
                "RKS-8.7.1",
                f"{c} put out of play lies face up (discard_faces=face_up)",
                lambda: o.implies(o.all([o.not_(out), out2]), up2),
            ),
            (
                "RKS-8.7.1",
                f"{c} stays face up while out of play (discard_faces=face_up)",
                lambda: o.implies(o.all([out, out2, up]), up2),
            ),
        ]
    if m.faces == "face_down":
        rules.append(
            (
                "RKS-8.7.1",
                f"{c} never turns face up (discard_faces=face_down)",
                lambda: o.implies(o.not_(up), o.not_(up2)),
            )
        )
    return [Conjunct(clause, text, make, about=about) for clause, text, make in rules]


def hand_rules(
    m: Model, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I], side: str
) -> list[Conjunct[B]]:
    """RKS-3.4.1, RKS-10.1.2, RKS-10.2.1: a hand (with its cards on the table) grows only in
    set-up up to what is dealt, or in the Recruiting Phase up to 4."""

    def grows() -> B:
        before, after = m.held_cards(o, s, side), m.held_cards(o, n, side)
        phase = s.i("phase")
        return o.implies(
            o.lt(before, after),
            o.any(
                [
                    o.all([o.eq(phase, SETUP), o.le(after, START_HAND[side])]),
                    o.all([o.eq(phase, RECRUITING), o.le(after, MAX_HAND)]),
                ]
            ),
        )

    text = (
        f"the {side} hand, with its cards on the combat table, grows only in set-up up to "
        f"{START_HAND[side]} (RKS-3.4.1) or in the Recruiting Phase up to {MAX_HAND} "
        "(RKS-10.2.1)"
    )
    return [Conjunct("RKS-10.1.2", text, grows, about=frozenset({side}))]


def chuikov_rule(m: Model, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> B:
    """RKS-9.8.2 (event_source=hand): in the Player Turn loop the face-up units on the map
    grow in number only by General Chuikov, by at most one for each card leaving the Soviet
    hand (with its cards on the table)."""
    risen = o.sub(m.face_ups(o, n), m.face_ups(o, s))
    paid = o.sub(m.held_cards(o, s, SU), m.held_cards(o, n, SU))
    return o.implies(m.in_the_loop(o, s, n), o.le(risen, paid))
