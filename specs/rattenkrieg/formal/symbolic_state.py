"""The state of Rattenkrieg's abstraction (`specs.rattenkrieg.formal.symbolic`, whose docstring
says what is modelled): its variables and their names, the numbering of the phases, stages,
controllers, winners, draw kinds, events, combat records and picks, and the clauses that say how
each kind of variable changes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from solvers.checking.system import BoolVar, IntVar, Var
from solvers.checking.terms import B, Frame, I, Ops
from specs.rattenkrieg.rules.state import GE, SIDES, SU, Phase, Stage

if TYPE_CHECKING:
    from specs.rattenkrieg.formal.symbolic import Model

Rules = list[tuple[str, str, Callable[[], B]]]
"""Step rules as (clause, text, the conjunct's term made on demand), before they are made
`Conjunct`s."""


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
REINFORCEMENT = PHASES.index(Phase.REINFORCEMENT)
DRAW_KINDS: tuple[str, ...] = ("steps", "hand", "bombardment", "air_support")
"""The head draw's kind by number from 1 (0: no draw)."""
STAGES: tuple[Stage, ...] = tuple(Stage)
"""The stages by number, in the order of `Stage`."""
PLACE, DRAW = STAGES.index(Stage.PLACE), STAGES.index(Stage.DRAW)
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
EVENT_SIDE: dict[str, str] = {"assault_gun": GE, "engineer": GE, "molotov": SU, "chuikov": SU}
"""The events that stay in force (`specs.rattenkrieg.rules.eventcards.LASTING`) and whose they are
(RKS-9.1.1, RKS-9.1.2)."""
OTHER_EVENT = "other"
"""Any other kind of effect in force (none ever is)."""
EVENT_KINDS: tuple[str, ...] = (*EVENT_SIDE, OTHER_EVENT)
FIGHTS: dict[str | None, int] = {None: 0, "combat": 1}
"""The combat record by number: 0 none, 1 a combat, 2 a bombarded unit's remaining units
(AMB-RKS-16: any other cause)."""
BOMBARDED = 2

STEP_PICK, SNIPER_PICK, STRAY_PICK = 1, 2, 3
"""A random pick by number (0: none): a lost step's (AMB-RKS-7 iii), the Sniper's from the German
hand (RKS-9.6.1), any other."""


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


def eff(kind: str) -> str:
    """How many cards of event `kind` are in force for the acting unit (`RKState.effects`)."""
    return f"eff.{kind}"


def ceff(kind: str) -> str:
    """How many cards of event `kind` are in force in the combat (`Combat.effects`)."""
    return f"ceff.{kind}"


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
    "player": ("RKS-7.1.1", "RKS-9.1.1"),
    "acting": ("RKS-7.1.1", "RKS-9.4.1"),
    "fight": ("RKS-9.5.1", "RKS-9.2.2", "RKS-8.2.2"),
    "attacker": ("RKS-9.5.1", "RKS-8.2.2"),
    "refight": ("RKS-8.7.4",),
    "eff": ("RKS-9.1.1", "RKS-9.4.1", "RKS-9.5.1", "RKS-9.7.1", "RKS-7.1.1"),
    "ceff": ("RKS-9.5.1", "RKS-9.2.2", "RKS-8.7.4", "RKS-8.2.2"),
    "stage": ("RKS-3.1.1", "RKS-3.3.1"),
    "ndraws": ("RKS-3.3.1", "RKS-3.4.1"),
    "dealing": ("RKS-3.3.1", "RKS-3.4.1"),
    "deck": ("RKS-3.4.3",),
    "dkind": ("RKS-7.5.1", "RKS-9.2.1"),
    "dwho": ("RKS-7.5.1", "RKS-9.2.1"),
    "arrivals": ("RKS-6.1.2", "RKS-6.2.2"),
    "refills": ("RKS-10.1.2",),
    "pending": ("RKS-7.3.1", "RKS-7.1.2"),
    "pto": ("RKS-7.3.1", "RKS-7.1.2"),
    "escort": ("RKS-8.12.4", "RKS-7.1.2"),
    "payments": ("RKS-7.3.1", "RKS-7.1.2"),
    "cunit": ("RKS-8.2.2",),
    "cdef": ("RKS-8.2.3",),
    "csup": ("RKS-8.12.3",),
    "carea": ("RKS-8.2.2",),
    "dunit": ("RKS-8.9.1",),
    "pick": ("RKS-8.9.1", "RKS-9.6.1"),
    "pwho": ("RKS-8.9.1",),
    "passes": ("RKS-5.1.2",),
    "acted": ("RKS-7.1.2",),
    "recruited": ("RKS-7.5.1",),
    "dcombat": ("RKS-8.9.1",),
    "dair": ("RKS-9.3.1",),
}
"""The clauses that say how each kind of variable changes (named when it differs)."""


def variables(m: Model) -> list[Var]:
    """The model's variables, in a fixed order: the places, counts and flags of the game
    (`_places`), then the records of where play stands (`_records`)."""
    return [*_places(m), *_records(m)]


def _places(m: Model) -> list[Var]:
    """The Turn, the phase, the result, control; per side its hand and its cards on the table;
    per unit its Area, steps, elimination record, markers and whether it acted; per card its
    places and faces, and the cards that are none of the 52."""
    out: list[Var] = [
        IntVar("turn", 0, None),
        BoolVar("placing"),
        IntVar("phase", 0, len(PHASES) - 1),
        IntVar("won", 0, max(WINNERS.values())),
        BoolVar("worded"),
        *(BoolVar(held(a)) for a in m.arrows),
        *(IntVar(ctl(a), 0, max(CONTROLLERS.values())) for a in m.stalingrad),
    ]
    for side in SIDES:
        out += [IntVar(hand(side), 0, None), IntVar(table(side), 0, None)]
    for u in m.units:
        out += [IntVar(at(u), 0, len(m.areas)), IntVar(steps(u), 0, None)]
        out += [IntVar(elim(u), 0, None), IntVar(eturn(u), 0, None)]
        out += [BoolVar(flip(u)), BoolVar(iso(u)), BoolVar(acts(u))]
    out += [IntVar(card(c), 0, None) for c in m.cards]
    out += [IntVar(ALIEN, 0, None), IntVar(STRAY, 0, None)]
    out += [BoolVar(face(k, c)) for c in m.cards for k in FACE_KINDS]
    return out


def _records(m: Model) -> list[Var]:
    """The player and the acting unit, the events in force, the combat record, the move
    waiting for its card, the stage and the queued draws, damage and the picks, and the acting
    unit's flags."""
    units, areas = len(m.units), len(m.areas)
    return [
        IntVar("player", CONTROLLERS[GE], CONTROLLERS[SU]),
        IntVar("acting", 0, units),
        IntVar("fight", 0, BOMBARDED),
        IntVar("attacker", 0, max(CONTROLLERS.values())),
        BoolVar("refight"),
        *(IntVar(eff(k), 0, None) for k in EVENT_KINDS),
        *(IntVar(ceff(k), 0, None) for k in EVENT_KINDS),
        BoolVar("pending"),
        IntVar("pto", 0, areas),
        IntVar("escort", 0, units),
        IntVar("payments", 0, None),
        IntVar("stage", 0, len(STAGES) - 1),
        IntVar("ndraws", 0, None),
        BoolVar("dealing"),
        # DRAWS: the deck's size, the head draw, and what the queue is
        IntVar("deck", 0, None),
        IntVar("dkind", 0, len(DRAW_KINDS)),
        IntVar("dwho", 0, units),
        BoolVar("arrivals"),
        BoolVar("refills"),
        # COMBATANTS: the combat record's attacker, defender, T-34 support and Area
        IntVar("cunit", 0, units),
        IntVar("cdef", 0, units),
        IntVar("csup", 0, units),
        IntVar("carea", 0, areas),
        # PICKS: the damaged unit, the random pick's kind and its unit
        IntVar("dunit", 0, units),
        IntVar("pick", 0, STRAY_PICK),
        IntVar("pwho", 0, units),
        # SEQUENCE: the passes, the acting unit's flags, the damage's cause
        BoolVar("passes"),
        BoolVar("acted"),
        BoolVar("recruited"),
        BoolVar("dcombat"),
        # AFTERMATH: whether the damage is Air Force Support's
        BoolVar("dair"),
    ]


def stage_is(o: Ops[B, I], f: Frame[B, I], nodes: tuple[tuple[Phase, Stage], ...]) -> B:
    """The position's phase and stage are one of `nodes`."""
    return o.any(
        o.all([o.eq(f.i("phase"), PHASES.index(p)), o.eq(f.i("stage"), STAGES.index(st))])
        for p, st in nodes
    )


def in_stages(o: Ops[B, I], f: Frame[B, I], stages: frozenset[Stage]) -> B:
    """The position's stage is one of `stages`."""
    return o.among(f.i("stage"), [o.num(STAGES.index(x)) for x in STAGES if x in stages])
