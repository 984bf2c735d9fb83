"""The projection of a Rattenkrieg position onto the abstraction's variables
(`specs.rattenkrieg.formal.symbolic`, whose docstring says what each stands for): what the model
sees of a position, with the units the step that led to it made act (`properties.actors`, which
the link reads from that step). The refinement check compares these projections of every
concrete step with the model's step rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from specs.rattenkrieg.formal import symbolic_combat
from specs.rattenkrieg.formal.invariants_combat import on_table
from specs.rattenkrieg.formal.properties import card_places
from specs.rattenkrieg.formal.symbolic_state import (
    ALIEN,
    BOMBARDED,
    CONTROLLERS,
    DRAW_KINDS,
    EVENT_KINDS,
    EVENT_SIDE,
    FACE_KINDS,
    FIGHTS,
    PHASES,
    SNIPER_PICK,
    STAGES,
    STEP_PICK,
    STRAY,
    STRAY_PICK,
    WINNERS,
    acts,
    at,
    card,
    ceff,
    ctl,
    eff,
    elim,
    eturn,
    face,
    flip,
    hand,
    held,
    iso,
    steps,
    table,
)
from specs.rattenkrieg.rules import sequence
from specs.rattenkrieg.rules.board import Board
from specs.rattenkrieg.rules.cards import DECK
from specs.rattenkrieg.rules.state import GE, HAND, SIDES, RKState, Stage

if TYPE_CHECKING:
    from specs.rattenkrieg.formal.symbolic import Model

Values = dict[str, int | bool]


def project(m: Model, b: Board, state: RKState, acted: frozenset[str]) -> Values:
    """The model's view of `state`, `acted` being the units the step that led to it made act
    (none if no step is known), every variable of `m` in the order of its groups below."""
    return {
        **_game(m, b, state),
        **_units(m, state, acted),
        **_combat(m, b, state),
        **_flags(state),
        **symbolic_combat.project(m, state),  # COMBAT: the round, table, aftermath
        **_picks(m, state),
        **_effects(state),
        **_draws(m, state),
        **_pending(m, state),
        **_cards(m, state),
    }


def _game(m: Model, b: Board, state: RKState) -> Values:
    """The Turn, the placing, the phase, the result and its wording (RKS-4.1.1), the arrow
    Areas the Germans hold (RKS-3.5.2) and who controls each Stalingrad Area (RKS-3.6.1)."""
    r = state.result
    worded = True
    if r is not None:
        due = sequence.victory(b, state).result
        worded = due is not None and attrs.evolve(r, winner=due.winner) == due
    out: Values = {
        "turn": state.turn,
        "placing": state.stage == Stage.PLACE,
        "phase": PHASES.index(state.phase),
        "won": 0 if r is None else WINNERS[r.winner],
        "worded": worded,
    }
    for a in m.arrows:
        out[held(a)] = state.control[b.index[a]] == GE
    for a in m.stalingrad:
        out[ctl(a)] = CONTROLLERS[state.control[b.index[a]]]
    return out


def _units(m: Model, state: RKState, acted: frozenset[str]) -> Values:
    """Per side its hand and its hand cards on the combat table (AMB-RKS-7 ii); per unit
    whether it acted, its Area, steps, elimination record and markers."""
    out: Values = {}
    placed = [] if state.combat is None else on_table(state.combat)
    for side in SIDES:
        out[hand(side)] = len(state.hand(side))
        out[table(side)] = sum(1 for p in placed if p.origin == HAND and p.side == side)
    records = [uid for uid, _ in state.eliminated]
    when = dict(state.eliminated)
    for u in state.units:
        out[acts(u.id)] = u.id in acted
        out[at(u.id)] = 0 if u.area is None else m.areas[u.area]
        out[steps(u.id)] = len(u.steps)
        out[elim(u.id)] = records.count(u.id)
        out[eturn(u.id)] = when.get(u.id, 0)
        out[flip(u.id)] = u.flipped
        out[iso(u.id)] = u.isolated
    return out


def _combat(m: Model, b: Board, state: RKState) -> Values:
    """The player and the acting unit; the combat record's cause, attacker side and refight
    flag, and (COMBATANTS) its attacker, defender, T-34 support and Area."""
    fight = state.combat
    return {
        "player": CONTROLLERS[state.player],
        "acting": 0 if state.acting is None else m.unit_number[state.acting],
        "fight": 0 if fight is None else FIGHTS.get(fight.cause, BOMBARDED),
        "attacker": 0 if fight is None else CONTROLLERS[b.side_of[fight.attacker]],
        "refight": fight is not None and fight.refight,
        "cunit": 0 if fight is None else m.unit_number[fight.attacker],
        "cdef": 0 if fight is None or fight.defender is None else m.unit_number[fight.defender],
        "csup": 0 if fight is None or fight.support is None else m.unit_number[fight.support],
        "carea": 0 if fight is None else m.areas[fight.area],
    }


def _flags(state: RKState) -> Values:
    """(SEQUENCE) Whether passes are counted, the acting unit's flags, and the damage's cause:
    a combat's, or Air Force Support's."""
    return {
        "passes": state.passes > 0,
        "acted": state.acted,
        "recruited": state.recruited,
        "dcombat": state.damage is not None and state.damage.cause == "combat",
        "dair": state.damage is not None and state.damage.cause == "air_support",
    }


def _picks(m: Model, state: RKState) -> Values:
    """(PICKS) The damaged unit, the random pick's kind and its unit: a lost step's from a
    unit, the Sniper's from the German hand, or any other pick (`STRAY_PICK`)."""
    pick = state.pick
    out: Values = {
        "dunit": 0 if state.damage is None else m.unit_number[state.damage.unit],
        "pick": 0 if pick is None else STRAY_PICK,
        "pwho": 0,
    }
    if pick is not None and pick.kind == "step" and pick.who in m.unit_number:
        out["pick"], out["pwho"] = STEP_PICK, m.unit_number[pick.who]
    if pick is not None and pick.kind == "sniper" and pick.who == GE:
        out["pick"] = SNIPER_PICK
    return out


def _effects(state: RKState) -> Values:
    """Per kind of lasting event, how many of its cards are in force for the acting unit and
    in the combat."""
    in_combat = () if state.combat is None else state.combat.effects
    out: Values = {}
    for k in EVENT_KINDS:
        out[eff(k)] = _events(state.effects, k)
        out[ceff(k)] = _events(in_combat, k)
    return out


def _events(effects: tuple[str, ...], kind: str) -> int:
    """How many of `effects` are of `kind` (`OTHER_EVENT`: none of the lasting events)."""
    if kind in EVENT_SIDE:
        return effects.count(kind)
    return sum(1 for e in effects if e not in EVENT_SIDE)


def _draws(m: Model, state: RKState) -> Values:
    """The stage, the queued draws and whether they are the set-up deal's last ones, (DRAWS)
    the deck's size, the head draw's kind and target, and whether the queue is the last of
    the Turn's arrivals or all the player's refill."""
    deal = m.deal
    rest = len(deal) - len(state.draws)
    head = state.draws[0] if state.draws else None
    who = 0
    if head is not None:
        who = CONTROLLERS[head.who] if head.kind == "hand" else m.unit_number[head.who]
    arriving = m.arrivals.get(state.turn, ())
    left = len(arriving) - len(state.draws)
    return {
        "stage": STAGES.index(state.stage),
        "ndraws": len(state.draws),
        "dealing": rest >= 0 and list(state.draws) == list(deal[rest:]),
        "deck": len(state.deck),
        "dkind": 0 if head is None else DRAW_KINDS.index(head.kind) + 1,
        "dwho": who,
        "arrivals": left >= 0 and list(state.draws) == list(arriving[left:]),
        "refills": all(d.kind == "hand" and d.who == state.player for d in state.draws),
    }


def _pending(m: Model, state: RKState) -> Values:
    """The move waiting for its card: its Area, its T-34 and the payments due (RKS-7.3.1)."""
    move = state.pending
    return {
        "pending": move is not None,
        "pto": 0 if move is None else m.areas[move.to],
        "escort": 0 if move is None or move.escort is None else m.unit_number[move.escort],
        "payments": 0 if move is None else move.payments,
    }


def _cards(m: Model, state: RKState) -> Values:
    """Per card of the 52 how many places hold it and its faces (face up, out of play,
    removed, exposed, a unit's step), and how many cards that are none of the 52 lie in the
    places and in the face-up, exposed, removed and discarded sets."""
    out: Values = {}
    places = card_places(state)
    for c in m.cards:
        out[card(c)] = places[c]
    out[ALIEN] = sum(n for c, n in places.items() if c not in DECK)
    out_of_play = state.discards | state.removed
    piles = (state.face_up, state.exposed, state.removed, state.discards)
    out[STRAY] = sum(len(pile - DECK) for pile in piles)
    on_units = frozenset(c for u in state.units for c in u.steps)
    sets = (state.face_up, out_of_play, state.removed, state.exposed, on_units)
    for c in m.cards:
        for kind, pile in zip(FACE_KINDS, sets, strict=True):
            out[face(kind, c)] = c in pile
    return out
