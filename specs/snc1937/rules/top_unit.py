"""The top unit of a stack (SNC-6.3.1, SNC-6.4.1; AMB-SNC-40): the only unit of an enemy stack a
player sees until combat reveals the rest, chosen by the stack's owner.

The owner puts a unit on top with `Top` between his moves, attacks and placements; each unit at
most once a phase (`SNCState.topped`), since the order of a stack is otherwise insignificant
(SNC-6.4.1) and without the limit play could go on for ever.
"""

from __future__ import annotations

from collections.abc import Iterable

from kernel.hexes import Hex
from specs.snc1937.rules.actions import Top
from specs.snc1937.rules.memo import identity_memo
from specs.snc1937.rules.state import Phase, SNCState, Step, evolve
from specs.snc1937.rules.tables import Tables, stacks


def top_first(t: Tables, s: SNCState, units: Iterable[str]) -> tuple[str, ...]:
    """A stack top unit first (SNC-6.3.1): the one its owner last put on top (AMB-SNC-40: the
    owner chooses), else the first in the data's order; the rest beneath in the data's
    order (their order is insignificant, SNC-6.4.1)."""
    ordered = sorted(units, key=t.order.__getitem__)  # SNC-6.4.1: any order will do, data's
    top = next((u for u in s.on_top if u in ordered), None)
    if top is None:
        return tuple(ordered)
    return (top, *(u for u in ordered if u != top))


def tops(t: Tables, s: SNCState) -> list[Top]:
    """The units the phasing player may put on top of his stacks, between his moves,
    attacks and placements (SNC-6.3.1; AMB-SNC-40: the owner chooses the top unit). Each
    unit goes on top at most once a phase (`topped`): the order of a stack is otherwise
    insignificant (SNC-6.4.1), and without the limit play could go on for ever."""
    if s.moving or s.step != Step.MAIN or s.phase not in (Phase.OPS1, Phase.OPS2, Phase.REINF):
        return []
    out: list[Top] = []
    latest = {u: i for i, u in enumerate(s.on_top)}  # put on top latest first
    topped = s.topped
    for side, ordered, offers in _piles(t, s.where):
        if side == s.side:
            # as `top_first` puts it: the unit of the stack last put on top, else the first
            put = [latest[u] for u in ordered if u in latest] if latest else None
            top = s.on_top[min(put)] if put else ordered[0]
            offered = offers.get(top)
            if offered is None:  # made once per position and top unit
                offered = offers[top] = tuple([_top(u) for u in ordered if u != top])
            if topped and not topped.isdisjoint(ordered):
                offered = tuple([a for a in offered if a.unit not in topped])
            out.extend(offered)
    return out


_TOPS: dict[str, Top] = {}


def _top(unit: str) -> Top:
    """`Top(unit)`, made once per unit: an action is an immutable value, and the listing of
    every Move or Fight phase step offers the same ones again."""
    action = _TOPS.get(unit)
    if action is None:
        action = _TOPS[unit] = Top(unit)
    return action


Pile = tuple[str, tuple[str, ...], dict[str, tuple[Top, ...]]]


@identity_memo
def _piles(t: Tables, where: tuple[tuple[str, Hex], ...]) -> tuple[Pile, ...]:
    """The stacks of two units or more, in hex order: each one's side, its units in the
    data's order (`top_first` before any is put on top), and by top unit the `Top` of each
    other unit, filled as `tops` asks (the first unit's from the start)."""
    st = stacks(where)
    known = _known_piles(t)
    out = []
    for h in sorted([h for h, us in st.items() if len(us) > 1]):
        units = st[h]
        pile = known.get(units)
        if pile is None:  # a stack's pile depends on its units only: made once for them
            ordered = tuple(sorted(units, key=t.order.__getitem__))
            offers = {ordered[0]: tuple([_top(u) for u in ordered[1:]])}
            if len(known) >= PILES:
                known.clear()
            pile = known[units] = (t.spec[units[0]].side, ordered, offers)
        out.append(pile)
    return tuple(out)


PILES = 4096  # piles kept per data set before they are made afresh

_PILES: dict[int, tuple[Tables, dict[tuple[str, ...], Pile]]] = {}


def _known_piles(t: Tables) -> dict[tuple[str, ...], Pile]:
    """The piles made so far for the units of `t`'s data, by a stack's units (in unit order);
    kept with `t` alive, so that its id stays its own."""
    got = _PILES.get(id(t))
    if got is None or got[0] is not t:
        got = _PILES[id(t)] = (t, {})
    return got[1]


def put_on_top(s: SNCState, unit: str) -> SNCState:
    """`unit` goes on top of its stack, once this phase (AMB-SNC-40)."""
    on_top = (unit, *(u for u in s.on_top if u != unit))
    return evolve(s, on_top=on_top, topped=s.topped | {unit})
