"""Rattenkrieg as a symbolic transition system: an over-approximating abstraction of the rules,
for proofs of some invariants of `specs.rattenkrieg.properties` (`wargame verify rattenkrieg`).

**Why an abstraction.** An exact model of Rattenkrieg (which card lies where and who has seen
it, a combat's table with its raises and events, the queued draws and picks) would
repeat the Python rules in Z3. The properties proved here do not need it: each follows from
what any one step may do to a few counts, places and flags, whatever the step is.

**What is modelled.** Per unit: the Area it is in (0: off the map; the Areas numbered in data
order from 1, the two Rears first), how many step cards it holds (RKS-3.3.4), whether it is
flipped (RKS-7.4.1) or isolated (RKS-8.10.1), how often and in which Turn it is recorded
eliminated (RKS-8.9.2, RKS-6.3.1), and whether it acted in the step that led to the position
(was designated, recruited or moved along: a fact of that step's action, which the link reads
from it; none at set-up). Per card of the 52: in how many places it lies (the deck,
the discards, out of play, a hand, a unit's steps, the combat table:
`specs.rattenkrieg.properties.card_places`), and whether it is face up, out of play (discarded
or removed), removed, exposed, and a unit's step (RKS-3.3.3, AMB-RKS-7); and how many cards
that are none of the 52 lie in the places, and in the face-up, exposed, removed and discarded
sets. Per side: its hand size, and how many cards it has put on the combat table from its hand
(AMB-RKS-7 ii lets such a card go back). Globally: the Turn, the phase (RKS-5.1.1), whether
the Rifles are being placed (RKS-3.1.1), the result as its winner (0: none, 1: German, 2:
Soviet, 3: a draw) and whether its clause and wording are those RKS-4.1.1 gives in the
position, whether the Germans control each of the three arrow Areas (RKS-3.5.2), and who
controls each Stalingrad Area (0: none, 1: German, 2: Soviet; RKS-3.6.1).
Everything else (which card is where, the stage, the combat record, events in force, draws,
picks) is left out: a step may change the modelled values in any way the step rules below
allow, which is more than the rules allow (an over-approximation). The step rules are the same
under every reading but four, which follow the variant: discard_faces (faces), played_step and
used_steps (AMB-RKS-7 i, iv), event_source (General Chuikov from the hand) and
contested_control (AMB-RKS-11: a contested Area keeps its controller or has none).

**The step rules** (one schema, `step`, whose choices are the next state; each conjunct cites
the clauses it stands for):

- nothing happens once the game has a result (RKS-4.1.2: the game ends with Turn 6);
- the step that gives the game its result ends Turn 6 and gives it to the German exactly when
  he controls the three arrow Areas after it, else to the Soviet, worded as RKS-4.1.1 words it;
- Turn 1's set-up and Player Turns are entered only from themselves, and the Turn never goes
  back (RKS-5.1.1: the phases of a turn come in order, and Turn 1 has no Reinforcement Phase);
- a unit that comes to an Area (moves, retreats, moves along, is placed, arrives or revives)
  never comes to the enemy Rear (RKS-3.5.1);
- a unit that acts in a step (is designated, recruits, or moves along with the acting unit) is
  face up before it (RKS-7.4.2, RKS-7.5.2, RKS-8.12.4, RKS-10.3.1, RKS-9.8.2: a flipped unit
  takes no action until turned face up in the Recruiting Phase or by General Chuikov);
- a unit gains step cards (the deal, a reinforcement's steps, a recruit, a step card back from
  the table) only up to its original number (RKS-3.3.1, RKS-6.1.2, RKS-6.2.2, RKS-7.5.3,
  RKS-8.12.1: the T-34 has none);
- a unit leaves the map only eliminated, recorded once in the Turn the step ends in; its
  record changes only so, or as it revives (which clears it), and keeps its Turn; it comes back
  only with its record cleared (RKS-8.9.2, RKS-6.3.1); leaving the map it sheds its steps and
  markers, and off it gains none (RKS-3.3.2); a reinforcement comes onto the map only from its
  Turn on, and is on it as its Turn comes (RKS-6.1.1, RKS-6.2.1); the placing of the Rifles
  ends only with every Rifle on the map, and is not taken up again (RKS-3.1.1);
- no card is made or lost: each of the 52 lies in as many places after a step as before, and no
  other card appears (RKS-2.4.1, RKS-3.4.2, RKS-3.4.3: a draw, discard, reshuffle, payment,
  declaration or loss moves a card from one place to one other);
- a card turns face up only as it lies out of play, and turns face down as it leaves it (the
  reshuffle); under discard_faces=face_up a card put out of play lies face up and stays so,
  under face_down no card turns face up (RKS-8.7.1, RKS-3.4.3); a card is exposed only as a
  unit's step under played_step=returned, and leaving the units' steps is no longer exposed
  (RKS-3.3.3); a card leaves the game only under used_steps=removed (RKS-3.4.3, AMB-RKS-7);
- a side's hand, with its hand cards on the combat table, grows only in set-up, up to what is
  dealt (RKS-3.4.1), or in the Recruiting Phase, up to 4 (RKS-10.1.2, RKS-10.2.1);
- every step ends with control as the units make it (the rules settle it after every action):
  a Stalingrad Area whose counted units (not isolated, RKS-3.6.3) are of one side only is that
  side's (RKS-3.6.2); an Area has no controller only under contested_control=uncontrolled, and
  then exactly when both sides' counted units are in it (RKS-3.6.1, AMB-RKS-11); and no unit
  on the map is isolated in a Rear or in an Area its side controls (RKS-8.10.6);
- under event_source=hand, in the Player Turn loop (one Turn, the Player Turns before and
  after) the face-up units on the map grow in number only by General Chuikov, by at most one
  for each card leaving the Soviet hand (RKS-9.8.2).

**Why that is sound for the invariants.** Every concrete step, projected, must satisfy these
conjuncts: the refinement check (`solvers.refinement`, direction (a)) verifies it on seeded
playouts of every preset, naming the clause of any conjunct a step breaks. Then every position
play reaches projects to a reachable model state (with the actors of the step that led to it),
every step of play to a model step, and an invariant proved over the model holds in it (each
formal statement in `specs.rattenkrieg.verification` implies its property of the projected
position or step). The converse direction (b) does not hold and is not checked
(`exact = False`): the model has steps no action takes, so a counterexample found over it is
only a candidate.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from kernel.variants import Variant
from solvers.abstraction import AbstractModel
from solvers.system import BoolVar, Conjunct, IntVar, Schema, Var
from solvers.terms import B, Frame, I, Ops
from specs.rattenkrieg.board import Board
from specs.rattenkrieg.cards import DECK, sort_cards
from specs.rattenkrieg.sequence import LAST_TURN, START_HAND
from specs.rattenkrieg.state import GE, SIDES, SU, Phase
from specs.rattenkrieg.wire import MAX_HAND

NEXT = "next."
"""The prefix of the choices that give the next state (a choice named like a state variable
would be that variable to the solver)."""

PHASES: tuple[Phase, ...] = tuple(Phase)
"""The phases by number, in the order of `Phase`."""
SETUP, PLAYER_TURNS, RECRUITING = (
    PHASES.index(Phase.SETUP),
    PHASES.index(Phase.PLAYER_TURNS),
    PHASES.index(Phase.RECRUITING),
)
CONTROLLERS: dict[str | None, int] = {None: 0, GE: 1, SU: 2}
"""An Area's controller by number (0: none, AMB-RKS-11 b)."""
WINNERS: dict[str | None, int] = {GE: 1, SU: 2, None: 3}
"""The result's winner by number (0: no result)."""
ALIEN = "alien"
LOOP_PART = "loop"
"""What the Player Turn loop's rule is `about` (a proof by parts assumes it with the hands')."""
STRAY = "stray"
FACE_KINDS = ("up", "out", "gone", "exp", "step")
"""Per card: face up, out of play (discarded or removed), removed, exposed, a unit's step."""


def renamed(v: Var) -> Var:
    return IntVar(NEXT + v.name, v.lo, v.hi) if isinstance(v, IntVar) else BoolVar(NEXT + v.name)


def at(u: str) -> str:
    return f"at.{u}"


def steps(u: str) -> str:
    return f"steps.{u}"


def card(c: str) -> str:
    return f"card.{c}"


def elim(u: str) -> str:
    return f"elim.{u}"


def eturn(u: str) -> str:
    return f"eturn.{u}"


def flip(u: str) -> str:
    return f"flip.{u}"


def iso(u: str) -> str:
    return f"iso.{u}"


def ctl(area: str) -> str:
    """Who controls Stalingrad Area `area` (`CONTROLLERS`)."""
    return f"ctl.{area}"


def acts(u: str) -> str:
    """`u` acted in the step that led to the position (is designated, recruits or moves along):
    a fact of the step's action, which the link reads from it."""
    return f"acts.{u}"


def face(kind: str, c: str) -> str:
    return f"{kind}.{c}"


def hand(side: str) -> str:
    return f"hand.{side}"


def table(side: str) -> str:
    return f"table.{side}"


def held(area: str) -> str:
    return f"ge.{area}"


CLAUSES: dict[str, tuple[str, ...]] = {
    "at": ("RKS-3.5.1",),
    "steps": ("RKS-3.3.1", "RKS-7.5.3", "RKS-8.12.1"),
    "card": ("RKS-2.4.1", "RKS-3.4.2", "RKS-3.4.3"),
    ALIEN: ("RKS-2.4.1",),
    STRAY: ("RKS-2.4.1",),
    "up": ("RKS-8.7.1", "RKS-3.4.3"),
    "out": ("RKS-3.4.3",),
    "gone": ("RKS-3.4.3",),
    "exp": ("RKS-3.3.3",),
    "step": ("RKS-3.3.3",),
    "hand": ("RKS-3.4.1", "RKS-10.1.2", "RKS-10.2.1"),
    "table": ("RKS-3.4.1", "RKS-10.1.2", "RKS-10.2.1"),
    "turn": ("RKS-5.1.1", "RKS-4.1.2"),
    "placing": ("RKS-3.1.1",),
    "elim": ("RKS-8.9.2", "RKS-6.3.1"),
    "eturn": ("RKS-8.9.2",),
    "flip": ("RKS-3.3.2", "RKS-9.8.2"),
    "iso": ("RKS-3.3.2", "RKS-8.10.6"),
    "ctl": ("RKS-3.6.1", "RKS-3.6.2", "RKS-3.6.3"),
    "acts": ("RKS-7.4.2", "RKS-7.5.2", "RKS-8.12.4", "RKS-10.3.1", "RKS-9.8.2"),
    "phase": ("RKS-5.1.1",),
    "won": ("RKS-4.1.1", "RKS-4.1.2"),
    "worded": ("RKS-4.1.1",),
    "ge": ("RKS-4.1.1", "RKS-3.6.2"),
}
"""The clauses that say how each kind of variable changes (named when it differs)."""


class StepSchema(Schema):
    """Any one action or chance outcome of the rules, as what it may do to the modelled counts
    and places (module docstring)."""

    name = "step"

    def __init__(self, model: Model) -> None:
        self.m = model
        self.choices = tuple(renamed(v) for v in model.variables)
        self.clauses = tuple(dict.fromkeys(c for group in CLAUSES.values() for c in group))

    def effect(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        return self.m.next_of(c)

    def guard(self, o: Ops[B, I], s: Frame[B, I], choice: Frame[B, I]) -> list[Conjunct[B]]:
        m = self.m
        n = m.next_of(choice)
        out: list[Conjunct[B]] = []

        def add(clause: str, text: str, make: Callable[[], B], about: str = "") -> None:
            out.append(Conjunct(clause, text, make, about=frozenset({about} if about else ())))

        add(
            "RKS-4.1.2",
            "nothing happens once the game has a result",
            lambda: o.eq(s.i("won"), 0),
        )
        add(
            "RKS-4.1.1",
            "the step that gives the result ends Turn 6 and gives it to the German exactly "
            "when he controls the three arrow Areas after it, else to the Soviet, worded as "
            "RKS-4.1.1 words it",
            lambda: o.implies(
                o.all([o.eq(s.i("won"), 0), o.not_(o.eq(n.i("won"), 0))]),
                o.all(
                    [
                        o.eq(n.i("turn"), LAST_TURN),
                        n.b("worded"),
                        o.eq(n.i("won"), o.ite(m.germans_hold(o, n), WINNERS[GE], WINNERS[SU])),
                    ]
                ),
            ),
        )
        add(
            "RKS-5.1.1",
            "Turn 1's set-up and Player Turns are entered only from themselves",
            lambda: o.implies(m.first_turn(o, n), m.first_turn(o, s)),
        )
        add("RKS-5.1.1", "the Turn never goes back", lambda: o.le(s.i("turn"), n.i("turn")))
        if m.chuikov_from_hand:
            add(
                "RKS-9.8.2",
                "in the Player Turn loop the face-up units on the map grow in number only by "
                "General Chuikov, by at most one for each card leaving the Soviet hand",
                lambda: m.chuikov_rule(o, s, n),
                LOOP_PART,
            )
        add(
            "RKS-3.1.1",
            "the placing of the Rifles, once over, is not taken up again",
            lambda: o.implies(o.not_(s.b("placing")), o.not_(n.b("placing"))),
        )
        for u in m.units:
            out.extend(m.unit_rules(o, s, n, u))
        for a in m.stalingrad:
            add(
                "RKS-3.6.2",
                f"every step ends with {a}'s control as its counted units make it: theirs if "
                "of one side only (RKS-3.6.3: isolated ones do not count), none only if both "
                "sides' are there under contested_control=uncontrolled (AMB-RKS-11), else a "
                "side (RKS-3.6.1)",
                functools.partial(m.area_settled, o, n, a),
                a,
            )
        add(
            "RKS-2.4.1",
            "no card that is none of the 52 appears",
            lambda: o.all([o.eq(n.i(ALIEN), s.i(ALIEN)), o.eq(n.i(STRAY), s.i(STRAY))]),
        )
        for c in m.cards:
            out.extend(m.card_rules(o, s, n, c))
        for side in SIDES:
            out.extend(m.hand_rules(o, s, n, side))
        return out


class Model(AbstractModel):
    """The abstraction's variables, its one schema and what it knows of each unit (its side,
    its original steps) and of the map (the Rears, the arrow Areas)."""

    next_prefix = NEXT

    def __init__(self, board: Board, variant: Variant) -> None:
        super().__init__()
        self.name = "rattenkrieg-abstract"
        self.variant = variant
        self.board = board
        self.areas: dict[str, int] = {a.id: i + 1 for i, a in enumerate(board.data.areas)}
        self.units: tuple[str, ...] = tuple(u.id for u in board.data.units)
        self.side = {u: board.side_of[u] for u in self.units}
        self.enemy_rear = {u: self.areas[board.enemy_rear(self.side[u])] for u in self.units}
        self.most_steps = {u: board.specs[u].steps for u in self.units}
        self.arrives = {u: board.specs[u].arrives for u in self.units}
        self.rifles = frozenset(board.rifles)
        self.chuikov_from_hand = variant.is_("event_source", "hand")  # AMB-RKS-20 (i)
        self.cards: tuple[str, ...] = tuple(sort_cards(DECK))
        self.arrows: tuple[str, ...] = board.arrows
        self.stalingrad: tuple[str, ...] = board.stalingrad
        self.uncontrolled = variant.is_("contested_control", "uncontrolled")  # AMB-RKS-11 (b)
        variables: list[Var] = [
            IntVar("turn", 0, None),
            BoolVar("placing"),
            IntVar("phase", 0, len(PHASES) - 1),
            IntVar("won", 0, max(WINNERS.values())),
            BoolVar("worded"),
            *(BoolVar(held(a)) for a in self.arrows),
            *(IntVar(ctl(a), 0, max(CONTROLLERS.values())) for a in self.stalingrad),
        ]
        for side in SIDES:
            variables += [IntVar(hand(side), 0, None), IntVar(table(side), 0, None)]
        for u in self.units:
            variables += [IntVar(at(u), 0, len(self.areas)), IntVar(steps(u), 0, None)]
            variables += [IntVar(elim(u), 0, None), IntVar(eturn(u), 0, None)]
            variables += [BoolVar(flip(u)), BoolVar(iso(u)), BoolVar(acts(u))]
        variables += [IntVar(card(c), 0, None) for c in self.cards]
        variables += [IntVar(ALIEN, 0, None), IntVar(STRAY, 0, None)]
        variables += [BoolVar(face(k, c)) for c in self.cards for k in FACE_KINDS]
        self.faces = variant.reading("discard_faces")
        self.returned = variant.is_("played_step", "returned")
        self.removing = variant.is_("used_steps", "removed")
        self.variables = tuple(variables)
        self.schemas = (StepSchema(self),)

    def germans_hold(self, o: Ops[B, I], f: Frame[B, I]) -> B:
        """The Germans control the three Areas joined to the Soviet Rear (RKS-3.5.2)."""
        return o.all(f.b(held(a)) for a in self.arrows)

    def present(self, o: Ops[B, I], f: Frame[B, I], area: str, side: str) -> B:
        """A unit of `side` that counts for control (not isolated, RKS-3.6.3) is in `area`."""
        where = self.areas[area]
        return o.any(
            [
                o.all([o.eq(f.i(at(u)), where), o.not_(f.b(iso(u)))])
                for u in self.units
                if self.side[u] == side
            ]
        )

    def area_settled(self, o: Ops[B, I], f: Frame[B, I], area: str) -> B:
        """RKS-3.6.1, RKS-3.6.2, RKS-3.6.3, AMB-RKS-11: `area`'s control is its counted units'
        side if they are of one side only; none only under contested_control=uncontrolled, and
        there exactly when both sides' counted units are in it."""
        ge, su = self.present(o, f, area, GE), self.present(o, f, area, SU)
        c = f.i(ctl(area))
        none = o.eq(c, CONTROLLERS[None])
        out = [
            o.implies(o.all([ge, o.not_(su)]), o.eq(c, CONTROLLERS[GE])),
            o.implies(o.all([su, o.not_(ge)]), o.eq(c, CONTROLLERS[SU])),
        ]
        if self.uncontrolled:
            out.append(o.implies(o.all([ge, su]), none))
        else:
            out.append(o.not_(none))
        return o.all(out)

    def isolation_settled(self, o: Ops[B, I], f: Frame[B, I], u: str) -> B:
        """RKS-8.10.6: `u`, isolated on the map, is in a Stalingrad Area its side does not
        control (not in a Rear)."""
        mine = CONTROLLERS[self.side[u]]
        return o.implies(
            f.b(iso(u)),
            o.all(
                [
                    o.implies(
                        o.eq(f.i(at(u)), where),
                        o.lit(False)
                        if a not in self.stalingrad
                        else o.not_(o.eq(f.i(ctl(a)), mine)),
                    )
                    for a, where in self.areas.items()
                ]
            ),
        )

    @staticmethod
    def marked(o: Ops[B, I], f: Frame[B, I], u: str) -> B:
        """`u` is flipped or isolated (RKS-7.4.1, RKS-8.10.1)."""
        return o.any([f.b(flip(u)), f.b(iso(u))])

    @staticmethod
    def face_up(o: Ops[B, I], f: Frame[B, I], u: str) -> B:
        """`u` is on the map face up."""
        return o.all([o.not_(o.eq(f.i(at(u)), 0)), o.not_(f.b(flip(u)))])

    def face_ups(self, o: Ops[B, I], f: Frame[B, I]) -> I:
        """How many units are on the map face up."""
        return o.count(self.face_up(o, f, u) for u in self.units)

    @staticmethod
    def in_the_loop(o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> B:
        """A step of the Player Turn loop: in the Player Turns before and after, in one Turn."""
        return o.all(
            [
                o.eq(s.i("phase"), PLAYER_TURNS),
                o.eq(n.i("phase"), PLAYER_TURNS),
                o.eq(s.i("turn"), n.i("turn")),
            ]
        )

    def chuikov_rule(self, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I]) -> B:
        """RKS-9.8.2 (event_source=hand): in the Player Turn loop the face-up units on the map
        grow in number only by General Chuikov, by at most one for each card leaving the Soviet
        hand (with its cards on the table)."""
        risen = o.sub(self.face_ups(o, n), self.face_ups(o, s))
        paid = o.sub(self.held_cards(o, s, SU), self.held_cards(o, n, SU))
        return o.implies(self.in_the_loop(o, s, n), o.le(risen, paid))

    @staticmethod
    def first_turn(o: Ops[B, I], f: Frame[B, I]) -> B:
        """Turn 1 before its Recruiting Phase: set-up or the Player Turns."""
        phase = f.i("phase")
        return o.all([o.eq(f.i("turn"), 1), o.any([o.eq(phase, SETUP), o.eq(phase, PLAYER_TURNS)])])

    @staticmethod
    def held_cards(o: Ops[B, I], f: Frame[B, I], side: str) -> I:
        """A side's hand with its hand cards on the combat table."""
        return o.add([f.i(hand(side)), f.i(table(side))])

    def hand_rules(
        self, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I], side: str
    ) -> list[Conjunct[B]]:
        """RKS-3.4.1, RKS-10.1.2, RKS-10.2.1: a hand (with its cards on the table) grows only in
        set-up up to what is dealt, or in the Recruiting Phase up to 4."""

        def grows() -> B:
            before, after = self.held_cards(o, s, side), self.held_cards(o, n, side)
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

    def unit_rules(self, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I], u: str) -> list[Conjunct[B]]:
        """Where unit `u` may come (RKS-3.5.1), how many step cards it may gain (RKS-7.5.3), and
        that it acts only face up (RKS-7.4.2)."""
        here, there = s.i(at(u)), n.i(at(u))
        rear, most = self.enemy_rear[u], self.most_steps[u]
        about = frozenset({u})
        return [
            Conjunct(
                "RKS-3.5.1",
                f"{u} never comes to the enemy Rear",
                lambda: o.implies(o.not_(o.eq(there, here)), o.not_(o.eq(there, rear))),
                about=about,
            ),
            Conjunct(
                "RKS-7.5.3",
                f"{u} gains step cards only up to its original {most} (RKS-3.3.1, RKS-6.1.2, "
                "RKS-8.12.1)",
                lambda: o.implies(o.lt(s.i(steps(u)), n.i(steps(u))), o.le(n.i(steps(u)), most)),
                about=about,
            ),
            Conjunct(
                "RKS-7.4.2",
                f"{u} acts (is designated, recruits or moves along) only face up before the "
                "step (RKS-7.5.2, RKS-8.12.4, RKS-10.3.1, RKS-9.8.2)",
                lambda: o.implies(n.b(acts(u)), o.not_(s.b(flip(u)))),
                about=about,
            ),
            Conjunct(
                "RKS-8.10.6",
                f"every step ends with {u}, if isolated on the map, in a Stalingrad Area its "
                "side does not control",
                lambda: self.isolation_settled(o, n, u),
                about=about,
            ),
            *self.record_rules(o, s, n, u),
        ]

    def record_rules(
        self, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I], u: str
    ) -> list[Conjunct[B]]:
        """How unit `u` leaves the map and comes onto it, and its elimination record (RKS-8.9.2,
        RKS-6.3.1, RKS-6.1.1, RKS-6.2.1, RKS-3.3.2, RKS-3.1.1)."""
        here, there = s.i(at(u)), n.i(at(u))
        gone, gone2 = s.i(elim(u)), n.i(elim(u))
        leaves = o.all([o.not_(o.eq(here, 0)), o.eq(there, 0)])
        comes = o.all([o.eq(here, 0), o.not_(o.eq(there, 0))])
        about = frozenset({u})
        rules: list[tuple[str, str, Callable[[], B]]] = [
            (
                "RKS-8.9.2",
                f"{u} leaves the map only eliminated, recorded once in the Turn the step ends in",
                lambda: o.implies(
                    leaves,
                    o.all([o.eq(gone, 0), o.eq(gone2, 1), o.eq(n.i(eturn(u)), n.i("turn"))]),
                ),
            ),
            (
                "RKS-8.9.2",
                f"{u}'s elimination record changes only as it leaves the map, or as it revives "
                "(RKS-6.3.1), which clears it",
                lambda: o.implies(
                    o.not_(o.eq(gone2, gone)), o.any([leaves, o.all([comes, o.eq(gone2, 0)])])
                ),
            ),
            (
                "RKS-8.9.2",
                f"{u}'s elimination record keeps its Turn",
                lambda: o.implies(
                    o.all([o.eq(gone2, gone), o.not_(o.eq(gone, 0))]),
                    o.eq(n.i(eturn(u)), s.i(eturn(u))),
                ),
            ),
            (
                "RKS-6.3.1",
                f"{u} comes back onto the map only with its elimination record cleared",
                lambda: o.implies(comes, o.eq(gone2, 0)),
            ),
            (
                "RKS-3.3.2",
                f"{u} leaving the map sheds its steps and markers; off it, it gains none",
                lambda: o.implies(
                    o.eq(there, 0),
                    o.all(
                        [
                            o.implies(
                                o.not_(o.eq(here, 0)),
                                o.all([o.eq(n.i(steps(u)), 0), o.not_(self.marked(o, n, u))]),
                            ),
                            o.implies(
                                o.eq(here, 0),
                                o.all(
                                    [
                                        o.le(n.i(steps(u)), s.i(steps(u))),
                                        o.implies(n.b(flip(u)), s.b(flip(u))),
                                        o.implies(n.b(iso(u)), s.b(iso(u))),
                                    ]
                                ),
                            ),
                        ]
                    ),
                ),
            ),
        ]
        arrives = self.arrives[u]
        if arrives is not None:
            clause = "RKS-6.1.1" if self.side[u] == GE else "RKS-6.2.1"
            rules += [
                (
                    clause,
                    f"{u} comes onto the map only from Turn {arrives} on",
                    lambda: o.implies(comes, o.le(arrives, n.i("turn"))),
                ),
                (
                    clause,
                    f"{u} is on the map as Turn {arrives} comes",
                    lambda: o.implies(
                        o.all([o.lt(s.i("turn"), arrives), o.le(arrives, n.i("turn"))]),
                        o.not_(o.eq(there, 0)),
                    ),
                ),
            ]
        if u in self.rifles:
            rules.append(
                (
                    "RKS-3.1.1",
                    f"the placing of the Rifles ends only with {u} on the map",
                    lambda: o.implies(
                        o.all([s.b("placing"), o.not_(n.b("placing"))]), o.not_(o.eq(there, 0))
                    ),
                )
            )
        return [Conjunct(clause, text, make, about=about) for clause, text, make in rules]

    def card_rules(self, o: Ops[B, I], s: Frame[B, I], n: Frame[B, I], c: str) -> list[Conjunct[B]]:
        """How many places hold card `c` (RKS-3.4.3), and how it turns face up or down, is
        exposed or leaves the game (RKS-3.3.3, RKS-3.4.3, RKS-8.7.1; the readings of
        discard_faces and AMB-RKS-7)."""
        up, out, gone, exp, step = (s.b(face(k, c)) for k in FACE_KINDS)
        up2, out2, gone2, exp2, step2 = (n.b(face(k, c)) for k in FACE_KINDS)
        about = frozenset({c})
        rules: list[tuple[str, str, Callable[[], B]]] = [
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
                + (" (played_step=returned, AMB-RKS-7 i)" if self.returned else ": never"),
                lambda: o.implies(o.all([o.not_(exp), exp2]), o.all([step2, o.lit(self.returned)])),
            ),
            (
                "RKS-3.4.3",
                f"{c} leaves the game only "
                + ("by used_steps=removed (AMB-RKS-7 iv)" if self.removing else "never"),
                lambda: o.implies(o.all([o.not_(gone), gone2]), o.lit(self.removing)),
            ),
        ]
        if self.faces == "face_up":
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
        if self.faces == "face_down":
            rules.append(
                (
                    "RKS-8.7.1",
                    f"{c} never turns face up (discard_faces=face_down)",
                    lambda: o.implies(o.not_(up), o.not_(up2)),
                )
            )
        return [Conjunct(clause, text, make, about=about) for clause, text, make in rules]
