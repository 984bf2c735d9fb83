"""Rattenkrieg as a picture: the area map, control, the units in each Area and off the map.

The printed map's layout is not in the text, so the Areas are laid out from the adjacency
alone: columns by distance from the German Rear (so the Volga side and the Soviet Rear end up on
the right), rows in data order. The whole layout is therefore provisional, which the note says
once; an Area is drawn dashed when its name is not in the text, a unit's strength marked when
its strength is not.

The picture is drawn from a side's observation (`observe.observation`), never from the cards
of the state, so it cannot show more than that side may know. The referee's picture (no
`side`) shows no card at all: step counts, the number of cards in each hand and in the deck,
never their faces. A side's picture (`side`) adds what that side sees (RKS-3.3.3, RKS-3.4.1,
RKS-8.4.1, RKS-8.5.2): its own hand and its own units' step cards by name; of the opponent's
units only the step cards both players saw returned (AMB-RKS-7), the rest as "?"; the
opponent's hand as a count; the deck as a count; of the discard pile and the cards out of play
the sizes and only the cards lying face up (`discard_faces`); and the combat's table cards
face down unless they are the side's own or lie face up (RKS-8.4.1, RKS-8.5.2, RKS-9.8.1).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kernel.data import Provenance
from kernel.scene import Piece, Region, Scene
from specs.rattenkrieg.data.variants import CATALOGUE
from specs.rattenkrieg.io.narration import headline
from specs.rattenkrieg.io.observation import observation
from specs.rattenkrieg.io.wire_observation import ObservationRecord, ObservedPlaced
from specs.rattenkrieg.rules.board import Board
from specs.rattenkrieg.rules.sequence import LAST_TURN
from specs.rattenkrieg.rules.state import GE, SU, RKState, other

if TYPE_CHECKING:
    from specs.rattenkrieg.rules.play import RattenkriegRules

SIDES = ((GE, "#555555"), (SU, "#c0392b"))


def _layout(board: Board) -> dict[str, tuple[float, float]]:
    start = next(a.id for a in board.data.areas if a.kind == "rear" and a.side == GE)
    depth = {start: 0}
    frontier = [start]
    while frontier:
        nxt = []
        for a in frontier:
            for b in board.adjacent[a]:
                if b not in depth:
                    depth[b] = depth[a] + 1
                    nxt.append(b)
        frontier = nxt
    for a in board.areas:
        depth.setdefault(a, max(depth.values()) + 1)
    columns: dict[int, list[str]] = {}
    for a in board.areas:  # data order within a column
        columns.setdefault(depth[a], []).append(a)
    last = max(columns) or 1
    out = {}
    for d, ids in columns.items():
        for i, a in enumerate(ids):
            out[a] = (d / last, (i + 0.5) / len(ids))
    return out


def _control(board: Board, state: RKState, view: ObservationRecord, area: str) -> str | None:
    """The side controlling `area` (control.controller, from the public fields): for a Rear
    its owner, if Rears count as controlled (AMB-RKS-10); for a Stalingrad Area the stored
    control."""
    if board.is_rear(area):
        if state.variant.is_("rear_control", "own_rear_friendly"):
            return board.areas[area].side
        return None
    return view.control[area]


def _steps(count: int, cards: list[str], faces: bool) -> str:
    """A counter's steps: their number, or with faces the cards the side sees and a "?" for
    each it does not (RKS-3.3.3)."""
    if not faces or not cards:
        return f"{count} step(s)"
    return " ".join([*cards, *["?"] * (count - len(cards))])


def _placed(p: ObservedPlaced) -> str:
    """A table card as the side sees it: face down unless its own or face up (RKS-8.4.1)."""
    origin = "the hand" if p.origin == "hand" else p.origin
    face = "face down" if p.card == "face-down" else p.card + (" (face up)" if p.open else "")
    return f"{p.side} {face} from {origin}"


def _combat(board: Board, view: ObservationRecord) -> list[str]:
    """The combat under way as the side sees it (RKS-8.4.1, RKS-8.5.2)."""
    c = view.combat
    if c is None:
        return []
    against = f" {c.defender}" if c.defender else ""
    lines = [f"combat in {board.name(c.area)}: {c.attacker} attacks{against}"]
    table = [f"attack {_placed(c.attack)}"] if c.attack else []
    table += [f"defence {_placed(c.defence)}"] if c.defence else []
    table += [f"replaced {_placed(p)}" for p in c.spent]
    if table:
        lines.append("  table: " + " · ".join(table))
    return lines


def _cards(cards: list[str]) -> str:
    return ", ".join(cards) if cards else "none"


def scene(game: RattenkriegRules, state: RKState, headline: str, side: str | None = None) -> Scene:
    """The position as a picture: the referee's (no card faces), or with `side` as that side
    may see it (RKS-3.3.3, RKS-3.4.1, RKS-8.4.1, RKS-8.5.2). Either way drawn from an
    observation; the referee's leaves every card face out."""
    board = game.board
    faces = side is not None
    # The referee draws from a side's observation with every card face left out: what is
    # drawn then is public, the same in both sides' observations.
    view = observation(game, state, side or GE)
    place = _layout(board)
    regions = tuple(
        Region(
            a.name,
            a.kind,
            *place[a.id],
            _control(board, state, view, a.id),
            _given_not(a.provenance, "name"),
            a.id,
        )
        for a in board.data.areas
    )
    name = {a.id: a.name for a in board.data.areas}
    links = tuple((name[a], name[b]) for a, b in board.data.borders + board.data.arrows)
    specs = {u.id: u for u in board.data.units}
    pieces = []
    for u in view.units:
        spec = specs[u.id]
        notes = [n for n, on in (("flipped", u.flipped), ("isolated", u.isolated)) if on]
        if u.area is None:
            notes.append(f"arrives turn {spec.arrives}" if spec.arrives else "not on the map")
        pieces.append(
            Piece(
                u.id,
                name[u.area] if u.area is not None else None,
                spec.side,
                u.id,
                str(spec.strength),
                _steps(u.steps, list(u.cards), faces),
                ", ".join(notes),
                _given_not(spec.provenance, "strength"),
            )
        )
    provisional = [
        n + (f" ({', '.join(p.provisional)})" if p.provisional else "")
        for n, p in board.data.records
        if p.is_provisional
    ]
    held = [a for a in board.arrows if _control(board, state, view, a) == GE]
    victory = (
        f"Victory (RKS-4.1.1): {GE} holds {len(held)} of the {len(board.arrows)} Areas joined "
        f"to the Soviet Rear" + (f" ({', '.join(board.name(a) for a in held)})" if held else "")
    )
    counts = view.hand_counts
    panel = tuple(headline.splitlines())
    if side is None:
        scores: tuple[str, ...] = (
            f"Hands: {GE} {counts.GE} cards, {SU} {counts.SU} cards (faces hidden)"
            f" · deck {view.deck_count} cards · discards {view.discard_count}",
            victory,
        )
    else:
        opp = other(side)
        opp_count = counts.GE if opp == GE else counts.SU
        scores = (
            f"{side} hand: {_cards(list(view.hand))} · {opp} hand: {opp_count} cards, face down"
            f" (RKS-3.4.1) · deck {view.deck_count} cards",
            f"discards {view.discard_count}, face up: {_cards(list(view.discards))}"
            f" · out of play {view.removed_count}, face up: {_cards(list(view.removed))}",
            victory,
        )
        panel += (
            f"as {side} sees it: its own cards, the opponent's as counts or face down "
            "(RKS-3.3.3, RKS-3.4.1, RKS-8.4.1)",
            *_combat(board, view),
        )
    return Scene(
        title=f"Rattenkrieg Stalingrad · {CATALOGUE.name_of(state.variant)}",
        panel=panel,
        regions=regions,
        links=links,
        pieces=tuple(pieces),
        sides=SIDES,
        provisional_note="the area layout (drawn from the adjacency), and "
        + ", ".join(provisional),
        turn=state.turn,
        turns=LAST_TURN,
        scores=scores,
    )


def _given_not(p: Provenance, field: str) -> bool:
    """Whether the text does not give this field of a record (its data file says so)."""
    return p.source == "provisional" or field in p.provisional


class RattenkriegPicture:
    """The picture role (`kernel.roles.Picture`) of the rules it is built from."""

    def __init__(self, rules: RattenkriegRules) -> None:
        self.rules = rules

    def scene(self, state: RKState, side: str | None = None) -> Scene:
        """The position as a picture (kernel.scene), for `wargame render`; with `side`, as that
        side may see it (RKS-3.3.3, RKS-3.4.1, RKS-8.4.1, RKS-8.5.2): its own cards by name,
        the opponent's as counts or face down."""
        return scene(self.rules, state, headline(self.rules, state), side)
