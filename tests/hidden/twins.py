"""Per game: what the rules text hides from a side (a predicate on the whole state, written from
the clauses, not from the game's observation), the twins of a seeded history that rename such
hidden identities, and doubled games with a leak planted in one role.

The predicates decide how long a pair is compared (`tools.testing.histories.compare`): a
renamed identity that the rules show (a card judged face up, a piece revealed by combat, a unit
on top of its stack) ends the comparison, since from there the two runs may rightly differ.
"""

from __future__ import annotations

import copy
import itertools
import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import attrs

from kernel.errors import IllegalAction, ImpossiblePosition, InvalidInput
from kernel.roles import AssembledGame
from specs.rattenkrieg.rules.state import RKState, other
from specs.shumshu.rules.actions import Place
from specs.shumshu.rules.state import Loc, ShumshuState
from specs.snc1937.rules.state import SNCState
from specs.snc1937.rules.tables import stacks
from specs.snc1937.rules.top_unit import top_first
from tools.registry import get_game
from tools.testing.histories import History, play_history, states, swap, twin

Game = AssembledGame[Any, Any]
Pair = tuple[History, History, Callable[[Any], bool]]
"""A history, its twin, and the predicate that both keep the renamed identities hidden."""

RKS: Game = get_game("rattenkrieg")
SHU: Game = get_game("shumshu")
SNC: Game = get_game("snc1937")
RKS_BOARD: Any = RKS.rules.board  # type: ignore[attr-defined]
SNC_TABLES: Any = SNC.rules.tables  # type: ignore[attr-defined]


# --- Rattenkrieg: cards (RKS-3.3.3, RKS-3.4.1, RKS-8.4.1, RKS-8.5.2; AMB-RKS-7) -------------------


def rks_hidden_card(s: RKState, side: str, card: str) -> bool:
    """`card` is unknown to `side`: in the deck (RKS-3.4.1), in the opponent's hand (RKS-3.3.3),
    one of the opponent's step cards not shown to both (AMB-RKS-7), a discarded or removed card
    lying face down (`discard_faces`), or the opponent's card face down on the combat table
    (RKS-8.4.1, RKS-8.5.2)."""
    opp = other(side)
    if card in s.deck or card in s.hand(opp):
        return True
    if card in (s.discards | s.removed):
        return card not in s.face_up
    for u in s.units:
        if card in u.steps:
            return RKS_BOARD.side_of[u.id] == opp and card not in s.exposed
    c = s.combat
    if c is not None:
        for p in (c.attack, c.defence, *c.spent):
            if p is not None and p.card == card:
                return p.side == opp and not p.open
    return False


def rks_pairs(
    seed: int, side: str, steps: int, pairs: int, variant: Any | None = None
) -> Iterator[Pair]:
    """Twins of one seeded game that swap a card the opponent held (a card dealt to its hand)
    with a card then still in the deck, both hidden from `side` up to that step: the deal and
    every play of the swapped cards follow the swap (the same draws, other cards). The pairs
    hidden longest come first."""
    v = RKS.presets()["standard"] if variant is None else variant
    h = play_history(RKS, v, random.Random(seed), steps)
    seq = states(RKS, h)
    hidden_for = {c: _prefix(seq, rks_hidden_card, side, c) for c in seq[0].deck}
    held = {c for s in seq for c in s.hand(other(side)) if hidden_for[c] > seq.index(s)}
    candidates = [
        (min(hidden_for[x], hidden_for[y]), x, y)
        for x in sorted(held)
        for y in sorted(hidden_for)
        if y not in held and hidden_for[y] > 1
    ]
    for _, x, y in sorted(candidates, key=lambda c: -c[0])[:pairs]:
        yield h, twin(h, swap(x, y)), _all_hidden(rks_hidden_card, side, (x, y))


def _prefix(seq: Sequence[Any], test: Callable[[Any, str, str], bool], side: str, i: str) -> int:
    """How many states from the start keep `i` hidden from `side`."""
    return next((k for k, s in enumerate(seq) if not test(s, side, i)), len(seq))


def _all_hidden(test: Callable[[Any, str, str], bool], side: str, ids: Sequence[str]) -> Any:
    return lambda s: all(test(s, side, i) for i in ids)


# --- Shumshu: face-down pieces (SHU-SETUP.1, SHU-COMBAT.5, SHU-COMBAT.6) -------------------------


def shu_hidden_piece(s: ShumshuState, side: str, unit: str) -> bool:
    """A Japanese piece the Russians cannot identify: face down on the map until revealed or
    disrupted (SHU-COMBAT.5), on Paramushir or waiting to be set up (SHU-SETUP.1), or
    eliminated face down."""
    p = s.piece(unit)
    if p.loc is Loc.MAP:
        return not (p.revealed or p.disrupted)
    return p.loc is Loc.POOL or not p.revealed


SETUP = ("JP-IB1", "JP-IB2", "JP-IB3", "JP-TK1", "JP-DC1", "JP-DC2")
"""The Japanese Shumshu pieces, in the data's order (the old fixed set-up order)."""


def shu_pairs(history: History, swaps: Sequence[tuple[str, str]]) -> Iterator[Pair]:
    for x, y in swaps:
        yield history, twin(history, swap(x, y)), _all_hidden(shu_hidden_piece, "RU", (x, y))


def fixed_order_setup(game: Game) -> Game:
    """The old set-up as a doubled game: the Japanese pieces go down in the data's order
    (infantry, infantry, infantry, tank, decoy, decoy), any other placement refused."""
    rules = game.rules
    doubled = copy.copy(game)

    def waiting(s: ShumshuState) -> str | None:
        return next((p.id for p in s.units if p.id in SETUP and p.loc is Loc.POOL), None)

    def legal_actions(s: ShumshuState) -> Sequence[Any]:
        nxt = waiting(s)
        return [a for a in rules.legal_actions(s) if not isinstance(a, Place) or a.unit == nxt]

    def apply(s: ShumshuState, a: Any) -> ShumshuState:
        if isinstance(a, Place) and a.unit != waiting(s):
            raise IllegalAction(
                f"{waiting(s)} is the next piece to set up", clauses=("SHU-SETUP.1",)
            )
        after: ShumshuState = rules.apply(s, a)
        return after

    doubled.legal_actions = legal_actions
    doubled.apply = apply
    return doubled


def fixed_setup_history() -> History:
    """The set-up of tests/shumshu/test_hidden_history.py, in the old fixed order."""
    from tests.shumshu.positions import h

    hexes = ("0205", "0303", "0404", "0603", "0304", "0404")
    start = SHU.initial_state(SHU.presets()["draft"])
    return History(start, tuple(Place(u, h(x)) for u, x in zip(SETUP, hexes, strict=True)))


# --- SNC: the units under a stack's top (SNC-6.3.1, SNC-6.4.1; AMB-SNC-40) ------------------------


def snc_hidden_unit(s: SNCState, side: str, unit: str) -> bool:
    """An enemy unit `side` cannot see: on the map under the top of its stack (SNC-6.3.1: only
    the top unit is seen), in no combat under way (an attacked stack is shown, the attackers
    are declared openly, SNC-6.3.1, SNC-10.0.5)."""
    t = SNC_TABLES
    where = dict(s.where)
    if unit not in where or t.spec[unit].side == side:
        return False
    here = stacks(s.where)[where[unit]]
    if top_first(t, s, here)[0] == unit:
        return False
    c = s.combat
    return c is None or (c.target != where[unit] and unit not in c.attackers)


def snc_swapped(s: SNCState, a: str, b: str) -> SNCState:
    """`s` with units `a` and `b` in each other's hex."""
    where = dict(s.where)
    moved = {a: where[b], b: where[a]}
    return attrs.evolve(s, where=tuple((u, moved.get(u, h)) for u, h in s.where))


def snc_pairs(
    seed: int, side: str, steps: int, pairs: int, preset: str = "standard"
) -> Iterator[Pair]:
    """Twins of one seeded game that swap two enemy units standing under the tops of their
    stacks at the start: in two stacks, the set-up differs; in one, which of them moves,
    fights or is culled later. Every order that names them follows the swap. The pairs
    hidden longest come first."""
    v = SNC.presets()[preset]
    h = play_history(SNC, v, random.Random(seed), steps)
    seq = states(SNC, h)
    start = dict(h.start.where)
    hidden_for = {u: _prefix(seq, snc_hidden_unit, side, u) for u in start}
    candidates = [
        (min(hidden_for[x], hidden_for[y]), x, y)
        for x, y in itertools.combinations(sorted(start), 2)
        if hidden_for[x] and hidden_for[y]
    ]
    found = 0
    for _, x, y in sorted(candidates, key=lambda c: -c[0]):
        swapped = snc_swapped(h.start, x, y)
        hidden = _all_hidden(snc_hidden_unit, side, (x, y))
        if not hidden(swapped) or not _accepted(SNC, swapped):
            continue  # the other unit would be on top there, or the stack over the limit
        yield h, twin(h, swap(x, y), swapped), hidden
        found += 1
        if found == pairs:
            return


def _accepted(game: Game, s: Any) -> bool:
    try:
        game.check_position(s)
    except (ImpossiblePosition, InvalidInput):
        return False
    return True
