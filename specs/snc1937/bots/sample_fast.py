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
    _stacks,
    _strict,
    _struck,
    _unseen,
    static_homes,
    strong_enough,
)
from specs.snc1937.rules.state import JP

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

    def draw(rng: random.Random) -> SNCState:
        for _ in range(ATTEMPTS):
            if not first:
                s = _strict(game, observation, side, rng)
                if s is not None:
                    first.append(s)
                    return s
                continue
            p = _propose(game, observation, rng, pool)
            if p is not None and _fits(game.tables, observation, p):
                s = _built(game, observation, p, first[0], hexes)
                if strong_enough(game.tables, s):
                    return s
        raise ImpossiblePosition(
            f"no state with this observation found in {ATTEMPTS} draws", field="where"
        )

    return draw


def _fits(t: Tables, o: Mapping[str, Any], p: _Proposal) -> bool:
    """Whether the position check accepts the proposal's drawn parts: static units in their
        set-up hexes (SNC-2.2.1.8, SNC-9.1.1), garrisons from the pool only in cities, one to a
        city, the first of the pool in counter order (SNC-9.1.3, AMB-SNC-37), no static unit in a
        move (SNC-9.0.10). The rest of what the check asks the proposal makes true; what it does not
    ask, `strong_enough` does after."""
    homes = static_homes(t)
    garrison_of: dict[str, str] = {}
    for u in sorted(p.where):
        spec = t.spec[u]
        if not spec.is_static:
            continue
        h = p.where[u]
        if u in homes and h != homes[u]:
            return False
        if spec.side == JP:
            if u not in homes and not _is_city(t, h):
                return False
            if garrison_of.setdefault(h, u) != u:
                return False
    dead = set(o["dead"])
    drawn = [u in p.where or u in dead for u in t.jp_garrisons if u not in homes]
    if drawn != sorted(drawn, reverse=True):
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
) -> SNCState:
    """The proposal as a state: `first` with the drawn parts replaced."""
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
    return attrs.evolve(
        first,
        where=tuple((u, hexes[p.where[u]]) for u in sorted(p.where)),
        reduced=frozenset(p.reduced),
        done=frozenset(o["done"]) | _struck(o, p.attackers),
        moving=tuple(p.moving),
        on_top=tuple(_on_top(o, stacks, order)),
        combat=combat,
    )
