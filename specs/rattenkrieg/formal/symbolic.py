"""Rattenkrieg as a symbolic transition system: an over-approximating abstraction of the rules,
for proofs of some invariants of `specs.rattenkrieg.formal.properties` (`wargame verify
rattenkrieg`).

**Why an abstraction.** An exact model of Rattenkrieg (which card lies where and who has seen
it, a combat's table with its raises, the picks, every queued draw) would repeat the Python
rules in Z3. The properties proved here do not need it: each follows from what any one step
may do to a few counts, places, flags and records, whatever the step is.

**What is modelled.** Per unit: the Area it is in (0: off the map; the Areas numbered in data
order from 1, the two Rears first), how many step cards it holds (RKS-3.3.4), whether it is
flipped (RKS-7.4.1) or isolated (RKS-8.10.1), how often and in which Turn it is recorded
eliminated (RKS-8.9.2, RKS-6.3.1), and whether it acted in the step that led to the position
(was designated, recruited or moved along: a fact of that step's action, which the link reads
from it; none at set-up). Per card of the 52: in how many places it lies (the deck, the
discards, out of play, a hand, a unit's steps, the combat table:
`specs.rattenkrieg.formal.properties.card_places`), and whether it is face up, out of play
(discarded
or removed), removed, exposed, and a unit's step (RKS-3.3.3, AMB-RKS-7); and how many cards that
are none of the 52 lie in the places, and in the face-up, exposed, removed and discarded sets.
Per side: its hand size, and how many cards it has put on the combat table from its hand
(AMB-RKS-7 ii lets such a card go back). Globally: the Turn, the phase (RKS-5.1.1), whether the
Rifles are being placed (RKS-3.1.1), the result as its winner (0: none, 1: German, 2: Soviet, 3:
a draw) and whether its clause and wording are those RKS-4.1.1 gives in the position, whether
the Germans control each of the three arrow Areas (RKS-3.5.2), and who controls each Stalingrad
Area (0: none, 1: German, 2: Soviet; RKS-3.6.1). Of the records of where play stands: the stage
(`Stage` by number), the player and the acting unit (by number from 1), how many draws are
queued and whether they are the last ones of the set-up deal (`sequence.deal_queue` once every
Rifle is placed) or of the Turn's arrivals (`sequence.arrival_queue`) or all the player's
refill, the first draw's kind and target, the deck's size, the events in force (per lasting
event, how many of its cards are in force for the acting unit and in the combat), the combat
record's cause (none, a combat, a bombarded unit's remaining units: AMB-RKS-16), its attacker's
side and whether it refights a tie, its attacker, defender and T-34 support (units by number)
and Area, the damaged unit, whether its damage is a combat's or Air Force Support's, the
random pick's kind (a lost
step's, the Sniper's) and unit, the move waiting for its card (its Area, its T-34, the payments
due: RKS-7.3.1), whether passes are counted (RKS-5.1.2), and whether the acting unit has operated
(RKS-7.1.2) and a recruit was made this Player Turn (AMB-RKS-18 b); the combat's loser and which
remaining units stay (`specs.rattenkrieg.formal.symbolic_aftermath`); the combat's step, raiser,
raises, loser, staying units and isolation choice, and its attack, defence and first spent card
(side, origin, openness: `specs.rattenkrieg.formal.symbolic_combat`). Everything else (which card
is where, the spent cards after the first, the damage's other causes, the draws after the
first in the Player Turns, how many passes) is left out: a step may change the modelled values in
any way the step rules allow, which is more than the rules allow (an over-approximation).
The step rules are the same under every reading but these, which follow the variant:
discard_faces (faces), played_step and used_steps (AMB-RKS-7 i, iv), event_source (General
Chuikov from the hand), contested_control (AMB-RKS-11: a contested Area keeps its controller or
has none), effect_stacking and effect_duration (AMB-RKS-20), t34_escort (AMB-RKS-15 iv: the
payments due), occupying (AMB-RKS-17: the refill target), refill_amount (a partial refill),
reattack_events (events before a re-attack), lost_step (AMB-RKS-7 iii: a random pick),
event_timing (the Sniper with no unit acting), recruiting_order (the second refiller),
recruit_turn (a recruit remembered) and arrival_state (units arriving flipped).

**The step rules** are in `specs.rattenkrieg.formal.symbolic_steps` (its docstring lists them,
each with the clauses it stands for).

**Why that is sound for the invariants.** Every concrete step, projected, must satisfy these
conjuncts: the refinement check (`solvers.checking.refinement`, direction (a)) verifies it on seeded
playouts of every preset, naming the clause of any conjunct a step breaks. Then every position
play reaches projects to a reachable model state (with the actors of the step that led to it),
every step of play to a model step, and an invariant proved over the model holds in it (each
formal statement in `specs.rattenkrieg.formal.verification` implies its property of the projected
position or step). The converse direction (b) does not hold and is not checked
(`exact = False`): the model has steps no action takes, so a counterexample found over it is
only a candidate.
"""

from __future__ import annotations

from collections.abc import Callable

from kernel.variants import Variant
from solvers.checking.abstraction import AbstractModel
from solvers.checking.terms import B, Frame, I, Ops
from specs.rattenkrieg.formal import (
    symbolic_combat,
)
from specs.rattenkrieg.formal.symbolic_aftermath import Aftermath
from specs.rattenkrieg.formal.symbolic_state import (
    CONTROLLERS,
    NEXT,
    PLAYER_TURNS,
    SETUP,
    at,
    ctl,
    flip,
    hand,
    held,
    iso,
    table,
    variables,
)
from specs.rattenkrieg.formal.symbolic_steps import StepSchema
from specs.rattenkrieg.rules import sequence
from specs.rattenkrieg.rules.board import Board
from specs.rattenkrieg.rules.cards import DECK, sort_cards
from specs.rattenkrieg.rules.sequence import LAST_TURN
from specs.rattenkrieg.rules.state import GE, SIDES, SU, DrawFor


class Model(AbstractModel):
    """The abstraction's variables, its one schema and what it knows of each unit (its side,
    its original steps) and of the map (the Rears, the arrow Areas), read once from the map and
    counter set and the variant."""

    next_prefix = NEXT

    def __init__(self, board: Board, variant: Variant) -> None:
        super().__init__()
        self.name = "rattenkrieg-abstract"
        self.variant = variant
        self.board = board
        self._read_map(board)
        self._read_units(board)
        self._read_readings(variant)
        self._read_setup(board, variant)
        self.aftermath = Aftermath(self)  # AFTERMATH: reads COMBAT's loser and staying units
        # COMBAT's variables (the round, table, aftermath) after the others
        self.variables = (*variables(self), *symbolic_combat.variables(self))
        self.schemas = (StepSchema(self),)

    def _read_map(self, board: Board) -> None:
        """The Areas by number (in data order from 1, the Rears first), the arrow and the
        Stalingrad Areas, each Area's Stalingrad neighbours, each side's Rear, Mamayev Kurgan."""
        self.areas: dict[str, int] = {a.id: i + 1 for i, a in enumerate(board.data.areas)}
        self.arrows: tuple[str, ...] = board.arrows
        self.stalingrad: tuple[str, ...] = board.stalingrad
        self.adjacent = {
            self.areas[a]: tuple(self.areas[x] for x in board.adjacent[a] if x in self.stalingrad)
            for a in self.areas
        }
        self.own_rear = {side: self.areas[board.rear[side]] for side in SIDES}
        self.mk = board.mamayev_kurgan

    def _read_units(self, board: Board) -> None:
        """The units (by number from 1) and what the model knows of each, and the 52 cards."""
        self.units: tuple[str, ...] = tuple(u.id for u in board.data.units)
        self.unit_number = {u: i + 1 for i, u in enumerate(self.units)}
        self.side = {u: board.side_of[u] for u in self.units}
        self.enemy_rear = {u: self.areas[board.enemy_rear(self.side[u])] for u in self.units}
        self.most_steps = {u: board.specs[u].steps for u in self.units}
        self.arrives = {u: board.specs[u].arrives for u in self.units}
        self.rifles = frozenset(board.rifles)
        self.panzers = tuple(
            self.unit_number[u] for u in self.units if board.specs[u].type == "panzer"
        )
        self.tanks = tuple(u for u in self.units if board.is_tank(u))
        self.revives = frozenset(u for u in self.units if board.specs[u].revives_in is not None)
        self.cards: tuple[str, ...] = tuple(sort_cards(DECK))

    def _read_readings(self, variant: Variant) -> None:
        """The readings the step rules follow (the module docstring lists them)."""
        self.chuikov_from_hand = variant.is_("event_source", "hand")  # AMB-RKS-20 (i)
        self.uncontrolled = variant.is_("contested_control", "uncontrolled")  # AMB-RKS-11 (b)
        self.faces = variant.reading("discard_faces")
        self.returned = variant.is_("played_step", "returned")
        self.removing = variant.is_("used_steps", "removed")
        self.stacking_once = variant.is_("effect_stacking", "once")
        self.first_round = variant.is_("effect_duration", "first_round")
        self.reattack_events = variant.is_("reattack_events", "effects")
        self.random_step = variant.is_("lost_step", "random")  # AMB-RKS-7 (iii)
        self.turn_events = variant.is_("event_timing", "player_turn_too")  # AMB-RKS-20
        self.occupying = variant.reading("occupying")
        self.partial_refill = variant.is_("refill_amount", "partial")
        self.paid_each = variant.is_("t34_escort", "flipped_paid_each")
        self.recruit_extra = variant.is_("recruit_turn", "extra")  # AMB-RKS-18 (b)
        self.late = variant.is_("arrival_state", "flipped")  # AMB-RKS-25

    def _read_setup(self, board: Board, variant: Variant) -> None:
        """Where each unit starts, the Normal Areas the Rifles go to, the deal of set-up, each
        Turn's arrivals and the player last to refill."""
        self.setup_area = {u: self.area_number(board.specs[u].setup) for u in self.units}
        self.normal = tuple(self.areas[a] for a in board.normal_areas)
        if len(self.rifles) > len(self.normal):  # else set-up may stop with Rifles unplaced
            raise ValueError("more Rifles than Normal Areas")
        placed = sequence.initial_state(board, variant)
        for r, a in zip(board.rifles, board.normal_areas, strict=False):
            placed = board.update(placed, r, area=a)
        self.deal: tuple[DrawFor, ...] = tuple(sequence.deal_queue(board, placed))
        """The deal of set-up once every Rifle is placed (`sequence.deal_queue`)."""
        self.second = CONTROLLERS[sequence.recruiting_order(placed)[1]]
        """The player last to refill in the Recruiting Phase (RKS-10.1.1)."""
        self.arrivals = {
            t: tuple(sequence.arrival_queue(board, t)) for t in range(2, LAST_TURN + 1)
        }

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

    @staticmethod
    def first_turn(o: Ops[B, I], f: Frame[B, I]) -> B:
        """Turn 1 before its Recruiting Phase: set-up or the Player Turns."""
        phase = f.i("phase")
        return o.all([o.eq(f.i("turn"), 1), o.any([o.eq(phase, SETUP), o.eq(phase, PLAYER_TURNS)])])

    @staticmethod
    def held_cards(o: Ops[B, I], f: Frame[B, I], side: str) -> I:
        """A side's hand with its hand cards on the combat table."""
        return o.add([f.i(hand(side)), f.i(table(side))])

    def acting_is(self, o: Ops[B, I], f: Frame[B, I], what: Callable[[str], B]) -> B:
        """A unit acts, and `what` holds of it."""
        return o.any(o.all([o.eq(f.i("acting"), k), what(u)]) for u, k in self.unit_number.items())

    def area_number(self, area: str | None) -> int:
        """`area` by number (0: off the map)."""
        return 0 if area is None else self.areas[area]
