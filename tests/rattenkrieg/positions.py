"""Building Rattenkrieg positions for tests: units where a test wants them, the cards it names,
every other card in the deck, control as the units make it, checked like a decoded state.

A unit the test leaves out is off the map as the rules allow: still to come if it arrives in a
later turn, otherwise eliminated in the turn it could first be (RKS-P-UNITS)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from kernel.game import CHANCE
from kernel.roles import AssembledGame
from specs.rattenkrieg import PACKAGE
from specs.rattenkrieg.game import Rattenkrieg
from specs.rattenkrieg.rules.actions import Action, Discard, Draw, Pick
from specs.rattenkrieg.rules.cards import DECK
from specs.rattenkrieg.rules.control import settle
from specs.rattenkrieg.rules.state import GE, SU, Phase, RKState, Stage, Unit

GAME: AssembledGame[RKState, Action] = PACKAGE.assemble()


def _rules_of(game: AssembledGame[RKState, Action]) -> Rattenkrieg:
    """The rules object of the assembled game (`GAME.rules`), as the dispatcher it is."""
    assert isinstance(game.rules, Rattenkrieg)
    return game.rules


GAME_RULES = _rules_of(GAME)
B = GAME_RULES.board
CATALOGUE = GAME.catalogue

# Areas of the shipped (provisional) map, by role where the text names them.
GREAR = B.rear[GE]
SREAR = B.rear[SU]
TW = B.tractor_works
MK = B.mamayev_kurgan
ARROWS = B.arrows


def position(
    units: Mapping[str, Any],
    *,
    hands: Mapping[str, Iterable[str]] | None = None,
    discards: Iterable[str] = (),
    turn: int = 2,
    stage: Stage = Stage.PLAYER_TURN,
    phase: Phase = Phase.PLAYER_TURNS,
    player: str = GE,
    control: Mapping[str, str | None] | None = None,
    flipped: Iterable[str] = (),
    isolated: Iterable[str] = (),
    options: Mapping[str, str] | None = None,
    **fields: Any,
) -> RKState:
    """A legal position: `units` maps ids to an Area or (Area, step cards); unlisted units are off
    the map, not yet arrived or eliminated (unless `eliminated` says when). Control starts
    Soviet (or as given) and then follows the units (RKS-3.6.2)."""
    variant = CATALOGUE.variant("standard", options or {})
    flipped, isolated = set(flipped), set(isolated)
    unit_list = []
    used: list[str] = []
    gone = dict(fields.pop("eliminated", ()))
    for spec in B.data.units:
        place = units.get(spec.id)
        if place is None:
            unit_list.append(Unit(spec.id))
            arrives = spec.arrives or 1
            if arrives <= turn and phase != Phase.SETUP:
                gone.setdefault(spec.id, arrives)
            continue
        area, steps = (place, ()) if isinstance(place, str) else place
        used += steps
        unit_list.append(
            Unit(spec.id, area, frozenset(steps), spec.id in flipped, spec.id in isolated)
        )
    hands = hands or {}
    hand_ge, hand_su = frozenset(hands.get(GE, ())), frozenset(hands.get(SU, ()))
    used += [*hand_ge, *hand_su, *discards]
    assert len(used) == len(set(used)), "a card is used twice"
    ctrl = dict.fromkeys(B.stalingrad, SU) | dict(control or {})
    if variant.is_("discard_faces", "face_up"):
        fields.setdefault("face_up", frozenset(discards) | fields.get("removed", frozenset()))
    s = RKState(
        variant=variant,
        turn=turn,
        phase=phase,
        stage=stage,
        player=player,
        units=tuple(unit_list),
        control=tuple(ctrl[a] for a in B.stalingrad),
        deck=DECK - set(used),
        discards=frozenset(discards),
        hand_ge=hand_ge,
        hand_su=hand_su,
        eliminated=tuple(sorted(gone.items())),
        **fields,
    )
    s = settle(B, s)
    GAME.check_position(s)
    return s


def active(unit: str, units: Mapping[str, Any], **kw: Any) -> RKState:
    """`unit` designated and about to operate (RKS-7.1.1)."""
    side = B.side_of[unit]
    return position(units, stage=Stage.ACTIVE, player=side, acting=unit, **kw)


def run(s: RKState, *actions: Action) -> RKState:
    """Apply actions in order (chance ones included), each checked by the rules."""
    for a in actions:
        s = GAME.apply(s, a)
    return s


def draw(s: RKState, *cards: str) -> RKState:
    """Resolve chance steps with the named cards, in order."""
    for c in cards:
        assert GAME.to_move(s) == CHANCE, GAME.to_move(s)
        s = GAME.apply(s, Pick(c) if s.stage == Stage.PICK else Draw(c))
    return s


def legal(s: RKState) -> list[Action]:
    return list(GAME.legal_actions(s))


def unit(s: RKState, unit_id: str) -> Unit:
    return B.unit(s, unit_id)


def with_options(s: RKState, **options: str) -> RKState:
    return attrs.evolve(s, variant=CATALOGUE.variant("standard", options))


def finish_recruiting(s: RKState) -> RKState:
    """Discard nothing, refill with whatever comes, for both sides (RKS-10.1.1, RKS-10.1.2)."""
    while s.phase == Phase.RECRUITING:
        if GAME.to_move(s) == CHANCE:
            s = GAME.apply(s, GAME.chance_outcomes(s)[0][0])
        else:
            s = GAME.apply(s, Discard(frozenset()))
    return s
