"""The fast SNC draw (`resample.sampler`): the strict draw's states from the same generator,
without the state document, its decoding or the checks, for a search that draws a state per
simulation.

The first draw for an observation is the strict one (`resample._strict`); each later one takes
the parts the observation fixes from it and only the drawn parts (the hexes of the unseen units,
which are reduced, the attackers, the group moving, the tops) from its own proposal. A proposal
is refused where the position check would refuse it (`_fits`), so the states are those
`resample.resample` returns from the same generator (the tests hold the two equal, and every
fast draw to the observation and the position check, at every step of seeded games).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import attrs

from kernel.errors import ImpossiblePosition
from kernel.hexes import Hex, hex_name, parse_hex
from specs.snc1937.bots.resample import (
    ATTEMPTS,
    _combat,
    _on_top,
    _Proposal,
    _propose,
    _seen,
    _stacks,
    _strict,
    _struck,
    _unseen,
    static_homes,
    strong_enough,
)
from specs.snc1937.rules.state import JP, evolve

if TYPE_CHECKING:
    from specs.snc1937.rules.play import SNCRules
    from specs.snc1937.rules.state import SNCState
    from specs.snc1937.rules.tables import Tables


def prepared(
    game: SNCRules, observation: Mapping[str, Any], side: str
) -> Callable[[random.Random], SNCState]:
    """`resample.resample` for one observation, prepared once (module docstring)."""
    if observation["side"] != side:
        raise ValueError(f"the observation is {observation['side']}'s, not {side}'s")
    first: list[SNCState] = []
    hexes: dict[str, Hex] = {}
    pool = _unseen(game, observation)
    loc = _seen(observation)
    fixed: list[_Fixed] = []

    def draw(rng: random.Random) -> SNCState:
        for _ in range(ATTEMPTS):
            if not first:
                s = _strict(game, observation, side, rng)
                if s is not None:
                    first.append(s)
                    return s
                continue
            p = _propose(game, observation, rng, pool, loc)
            if p is None:
                continue
            if not fixed:
                fixed.append(_Fixed.of(game.tables, observation, p))
            if fixed[0].fits(game.tables, p):
                s = _built(game, observation, p, first[0], hexes, fixed[0])
                if strong_enough(game.tables, s):
                    return s
        raise ImpossiblePosition(
            f"no state with this observation found in {ATTEMPTS} draws", field="where"
        )

    return draw


@attrs.frozen
class _Fixed:
    """What every proposal for one observation shares, worked out at the first: its units on
    the map (the drawn units and the seen ones, the same at each proposal) in id order, the
    static ones among them, whether the pool's garrisons drawn are its first (SNC-9.1.3: the
    drawn units are the same at each proposal), and of each observed stack what decides
    whether its top is recorded (`resample._on_top`)."""

    units: tuple[str, ...]
    static: tuple[str, ...]
    first_of_pool: bool
    order: Mapping[str, int]
    tops: tuple[tuple[str, int, bool], ...]
    """Each observed stack's hex, its top's place in the data's order, and whether the top is
    recorded whatever is drawn beneath it (a seen unit comes before it in the data's order,
    or another of its seen units was put on top this phase)."""
    topped: frozenset[str]
    """The units the side saw put on top this phase."""

    @staticmethod
    def of(t: Tables, o: Mapping[str, Any], p: _Proposal) -> _Fixed:
        units = tuple(sorted(p.where))
        homes = static_homes(t)
        dead = set(o["dead"])
        drawn = [u in p.where or u in dead for u in t.jp_garrisons if u not in homes]
        topped = set(o["topped"])
        tops = []
        for st in o["stacks"]:
            top = st["units"][0]
            rank = t.order[top]
            seen_first = any(t.order[u] < rank or (u in topped and u != top) for u in st["units"])
            tops.append((st["hex"], rank, seen_first))
        return _Fixed(
            units,
            tuple(u for u in units if t.spec[u].is_static),
            drawn == sorted(drawn, reverse=True),
            t.order,
            tuple(tops),
            frozenset(topped),
        )

    def fits(self, t: Tables, p: _Proposal) -> bool:
        """`_fits` over the static units alone: the rest of what it asks is the same at every
        proposal (the class docstring)."""
        if not self.first_of_pool:
            return False
        return _static_fit(t, self.static, p)

    def on_top(self, o: Mapping[str, Any], stacks: Mapping[str, list[str]]) -> list[str]:
        """`resample._on_top` (AMB-SNC-40): only the drawn units beneath a top are read (an
        unseen unit is never among those put on top this phase, which the side sees)."""
        order = self.order.__getitem__
        tops: list[str] = []
        for st, (h, rank, seen_first) in zip(o["stacks"], self.tops, strict=True):
            if seen_first or (
                st["count"] > len(st["units"]) and any(order(u) < rank for u in stacks[h])
            ):
                tops.append(st["units"][0])
        return tops + sorted(self.topped.difference(tops), key=order)


def _fits(t: Tables, o: Mapping[str, Any], p: _Proposal) -> bool:
    """Whether the position check accepts the proposal's drawn parts: static units in their
    set-up hexes (SNC-2.2.1.8, SNC-9.1.1), garrisons from the pool only in cities, one to a
    city, the first of the pool in counter order (SNC-9.1.3, AMB-SNC-37), no static unit in a
    move (SNC-9.0.10). The rest of what the check asks the proposal makes true; what it does
    not ask, `strong_enough` does after. (The plain form of `_Fixed.fits`.)"""
    homes = static_homes(t)
    static = tuple(u for u in sorted(p.where) if t.spec[u].is_static)
    dead = set(o["dead"])
    drawn = [u in p.where or u in dead for u in t.jp_garrisons if u not in homes]
    return drawn == sorted(drawn, reverse=True) and _static_fit(t, static, p)


def _static_fit(t: Tables, static: tuple[str, ...], p: _Proposal) -> bool:
    """`_fits` on the static units (`static`, in id order): at home, a pool garrison in a city
    and alone there (SNC-2.2.1.8, SNC-9.1.1, SNC-9.1.3), none in the group moving
    (SNC-9.0.10)."""
    homes = static_homes(t)
    garrison_of: dict[str, str] = {}
    for u in static:
        h = p.where[u]
        if u in homes and h != homes[u]:
            return False
        if t.spec[u].side == JP:
            if u not in homes and not _is_city(t, h):
                return False
            if garrison_of.setdefault(h, u) != u:
                return False
    return not any(t.spec[u].is_static for u in p.moving)


@functools.cache
def _city_names(t: Tables) -> frozenset[str]:
    return frozenset(hex_name(h) for h in t.board.map.cities)


def _is_city(t: Tables, h: str) -> bool:
    return h in _city_names(t)


def _built(
    game: SNCRules,
    o: Mapping[str, Any],
    p: _Proposal,
    first: SNCState,
    hexes: dict[str, Hex],
    fixed: _Fixed | None = None,
) -> SNCState:
    """The proposal as a state: `first` with the drawn parts replaced (with `fixed`, what all
    proposals share read from it rather than worked out again)."""
    order = game.tables.order.__getitem__
    stacks = _stacks(p.where)
    for h in stacks:
        if h not in hexes:
            hexes[h] = parse_hex(h)
    combat = first.combat
    drawn = _combat(o, stacks, p.attackers)
    if combat is not None and drawn is not None:
        combat = attrs.evolve(
            combat, attackers=tuple(drawn["attackers"]), defenders=tuple(drawn["defenders"])
        )
    units = sorted(p.where) if fixed is None else fixed.units
    return evolve(
        first,
        where=tuple(
            zip(units, map(hexes.__getitem__, map(p.where.__getitem__, units)), strict=True)
        ),
        reduced=frozenset(p.reduced),
        done=frozenset(o["done"]) | _struck(o, p.attackers),
        moving=tuple(p.moving),
        on_top=tuple(_on_top(o, stacks, order) if fixed is None else fixed.on_top(o, stacks)),
        combat=combat,
    )
