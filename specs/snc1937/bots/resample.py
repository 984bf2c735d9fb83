"""A full SNC state drawn from one side's observation alone, for searches that must not see what
their side may not (SNC-6.3.1, SNC-6.3.2; AMB-SNC-40).

A side sees its own units, and of each enemy stack the top unit and the count (the whole stack
once an attack on it is resolved, SNC-6.3.1). The Turn Record Track, the dead pile and the elite
units waiting to return are open, so the enemy units not seen are exactly the enemy's units
that are nowhere in the open, and all but the Japanese garrisons (whose pool is off the map,
SNC-9.1.3) are under enemy tops. What is drawn:
- which unseen unit lies under which top: the units that must be on the map (a static unit
  set up on the map among them: it is there or dead, SNC-2.2.1.8, SNC-3.1.4) and the first
  garrisons of the pool in counter order needed to fill the remaining places (SNC-9.1.3,
  AMB-SNC-37: the only choice the position check accepts) are dealt to the places by a uniform
  shuffle, except that a static unit goes to its set-up hex (SNC-2.2.1.8, SNC-9.1.1) and the
  declared attackers (open, SNC-10.0.5) to places next to their target (or in it), uniformly
  among those; a uniform shuffle kept only where those hold draws the same deals;
- whether each unseen two-step unit is reduced (SNC-2.2.1.12): independently with probability
  1/2, uniform over what the observation allows;
- under attackers_seen=tops_only, for the defender, the attackers beneath the attacker's tops
  (`_attackers`): each mobile unit dealt next to the target with probability 1/2 (an overrun's
  all in one stack, SNC-9.6.2);
- a move under way (SNC-9.0.10) whose group the side cannot see: an overrun's group is its
  declared attackers, in one stack next to the target (SNC-9.6.3); otherwise one enemy stack
  is chosen uniformly and each of its unseen units is in the group with probability 1/2 (at
  least one).
Fixed rather than drawn, as the observation allows any value: unseen units have not moved,
arrived or been put on top this phase and join no group whose units are partly seen (`done`,
`arrived`, `movable`, `moving`, `topped`); `on_top` holds just the tops that are not first in
the data's order (AMB-SNC-40: the owner's last choice, which decides the top alone while it
stays). Where a stacking check leads once over (`after_stack`) and the units culled in it so far
(`culled`, SNC-6.0.4) are public and observed, so they are copied.
A draw is kept only if it has exactly the observation and the position check accepts it
(rejection). What the side learnt earlier and no longer sees (a stack shown during a combat)
is ignored: only the current observation is used. `sampler` gives the same draws without the
state document and the checks (`bots.sample_fast`), for a search that draws one per simulation.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import attrs

from kernel.errors import ImpossiblePosition, InvalidInput
from kernel.hexes import hex_adjacent, hex_name, parse_hex
from specs.snc1937.io.observation import observe
from specs.snc1937.io.state_codec import state_from_json
from specs.snc1937.rules import combat_query
from specs.snc1937.rules.state import Step, other
from specs.snc1937.rules.tables import stacks

if TYPE_CHECKING:
    from specs.snc1937.rules.play import SNCRules
    from specs.snc1937.rules.state import SNCState
    from specs.snc1937.rules.tables import Tables

ATTEMPTS = 200
"""Draws tried before giving up: the rejection keeps only states with the exact observation."""

_OBSERVATION_ONLY = ("side", "to_move", "player", "stacks")


@attrs.frozen
class _Proposal:
    """What one proposal draws: every unit's hex on the map (seen and drawn), the drawn units,
    the combat's attackers and the group whose move is under way, the reduced units."""

    where: dict[str, str]
    placed: list[str]
    attackers: list[str]
    moving: list[str]
    reduced: set[str]


def _propose(
    game: SNCRules,
    o: Mapping[str, Any],
    rng: random.Random,
    pool: tuple[list[str], list[str]] | None = None,
    loc: Mapping[str, str] | None = None,
) -> _Proposal | None:
    """One proposal, or None when this deal cannot fit; `pool` is `_unseen`'s answer and `loc`
    `_seen`'s, when known already."""
    t = game.tables
    order = t.order.__getitem__
    placed, places = _unseen(game, o) if pool is None else pool
    loc = _seen(o) if loc is None else loc
    where = _deal(o, placed, places, loc, rng, static_homes(t))
    if where is None:
        return None
    attackers = _attackers(game, o, placed, where, loc, rng)
    if attackers is None:
        return None
    moving = _moving(o, placed, where, loc, order, rng, attackers)
    if moving is None:
        return None
    where.update(loc)  # the seen units where they are seen
    reduced = set(o["reduced"]) | {
        u for u in placed if t.spec[u].steps == 2 and rng.random() < 0.5
    }  # SNC-2.2.1.12
    return _Proposal(where, placed, attackers, moving, reduced)


def _seen(o: Mapping[str, Any]) -> dict[str, str]:
    """The hex of each unit the side sees on the map."""
    return {u: st["hex"] for st in o["stacks"] for u in st["units"]}


def _stacks(where: Mapping[str, str]) -> dict[str, list[str]]:
    stacks: dict[str, list[str]] = {}
    for u, h in where.items():
        stacks.setdefault(h, []).append(u)
    return stacks


def _document(game: SNCRules, o: Mapping[str, Any], p: _Proposal) -> dict[str, Any]:
    """The proposal as a state document."""
    order = game.tables.order.__getitem__
    stacks = _stacks(p.where)
    data: dict[str, Any] = {k: v for k, v in o.items() if k not in _OBSERVATION_ONLY}
    data.update(
        format="wargame-kernel/state",
        version=1,
        side=o["player"],
        where=[{"unit": u, "hex": p.where[u]} for u in sorted(p.where)],
        reduced=sorted(p.reduced, key=order),
        dead=sorted(o["dead"], key=order),
        done=sorted(set(o["done"]) | _struck(o, p.attackers), key=order),
        arrived=sorted(o["arrived"], key=order),
        movable=sorted(o["movable"], key=order),
        moving=p.moving,
        topped=sorted(o["topped"], key=order),
        on_top=_on_top(o, stacks, order),
        combat=_combat(o, stacks, p.attackers),
    )
    return data


def _unseen(game: SNCRules, o: Mapping[str, Any]) -> tuple[list[str], list[str]]:
    """The enemy units not in the open that lie under enemy tops, and the places under those
    tops: every unseen unit but the garrisons of the pool, and the first of the pool in
    counter order for the places left (SNC-9.1.3, AMB-SNC-37). The garrisons set up on the map
    (SNC-3.1.4) are not in the pool: static, they are in their set-up hexes or dead."""
    t = game.tables
    enemy = other(o["side"])
    seen = {u for st in o["stacks"] for u in st["units"]}
    open_ = seen | {x["unit"] for x in o["trt"]} | set(o["dead"]) | set(o["elite"])
    unseen = [u for u in t.spec if t.spec[u].side == enemy and u not in open_]
    places = [
        st["hex"]
        for st in o["stacks"]
        if st["side"] == enemy
        for _ in range(st["count"] - len(st["units"]))
    ]
    homes = static_homes(t)
    garrisons = {u for u in t.jp_garrisons if u not in homes}  # the pool (SNC-9.1.3)
    needed = [u for u in unseen if u not in garrisons]
    spare = sorted((u for u in unseen if u in garrisons), key=t.jp_garrisons.index)
    if not len(needed) <= len(places) <= len(unseen):
        raise ImpossiblePosition("the unseen units do not fill the enemy stacks", field="where")
    return needed + spare[: len(places) - len(needed)], places  # SNC-9.1.3, AMB-SNC-37


def _deal(
    o: Mapping[str, Any],
    placed: list[str],
    places: list[str],
    loc: Mapping[str, str],
    rng: random.Random,
    homes: Mapping[str, str],
) -> dict[str, str] | None:
    """The hex of each unseen unit: a static unit to its set-up hex (SNC-2.2.1.8, SNC-9.1.1),
    then a uniform shuffle of the places left, the declared attackers first to places next to
    their target (SNC-10.0.5; an overrun's in one stack, SNC-9.6.3); None when they do not fit
    there. (Each static unit takes one place of its hex whatever the shuffle, so the deals are
    those of a uniform shuffle kept where the static units are at home.)"""
    c = o["combat"]
    attackers = [] if c is None else [u for u in c["attackers"] if u in set(placed)]
    where: dict[str, str] = {}
    free = list(places)
    for u in placed:
        home = homes.get(u)
        if home is not None:
            if home not in free:
                return None
            free.remove(home)
            where[u] = home
    rng.shuffle(free)
    if attackers:  # SNC-10.0.5: declared attackers stand next to their target
        target = parse_hex(c["target"])
        near = [h for h in free if h == c["target"] or hex_adjacent(parse_hex(h), target)]
        if c["overrun"]:  # SNC-9.6.3: an overrun is made by the moving group, one stack
            shown = {loc[u] for u in c["attackers"] if u in loc}
            hexes = sorted(shown) if shown else sorted(set(near))
            rng.shuffle(hexes)
            near = [h for h in near if hexes and h == hexes[0]]
        if len(near) < len(attackers):
            return None
        for u, h in zip(attackers, near, strict=False):
            where[u] = h
            free.remove(h)
    rest = [u for u in placed if u not in where]
    rng.shuffle(rest)
    where.update(zip(rest, free, strict=True))
    return where


def _moving(
    o: Mapping[str, Any],
    placed: list[str],
    where: Mapping[str, str],
    loc: Mapping[str, str],
    order: Callable[[str], int],
    rng: random.Random,
    attackers: list[str],
) -> list[str] | None:
    """The group whose move is under way (SNC-9.0.10): an overrun's declared attackers
    (SNC-9.6.3); the one shown; or, wholly unseen, part of one stack's unseen units (None when
    there is none)."""
    c = o["combat"]
    moving = list(o["moving"])
    if c is not None and c["overrun"] and o["step"] != "join":  # SNC-9.6.3: the move under way
        moving = [u for u in attackers if u in where or u in loc]
    elif (o["mp"] or o["overrun_next"]) and not moving:
        # SNC-9.0.10: a move under way, wholly unseen: part of one stack's unseen units
        hexes = sorted({h for u, h in where.items() if u in set(placed)})
        if not hexes:
            return None
        h = rng.choice(hexes)
        group = [u for u in placed if where[u] == h]
        moving = [u for u in group if rng.random() < 0.5] or [rng.choice(group)]
        moving.sort(key=order)
    return moving


def _on_top(
    o: Mapping[str, Any], stacks: Mapping[str, list[str]], order: Callable[[str], int]
) -> list[str]:
    """AMB-SNC-40: the shown top is on top; recorded where the data's order would not put it
    (or another unit of its stack was put on top this phase), then the rest put on top."""
    topped = set(o["topped"])
    tops: list[str] = []
    for st in o["stacks"]:
        here = stacks[st["hex"]]
        top = st["units"][0]
        if top != min(here, key=order) or any(u in topped and u != top for u in here):
            tops.append(top)
    return tops + sorted(topped - set(tops), key=order)


def _attackers(
    game: SNCRules,
    o: Mapping[str, Any],
    placed: list[str],
    where: Mapping[str, str],
    loc: Mapping[str, str],
    rng: random.Random,
) -> list[str] | None:
    """The combat's attackers: the declared ones as seen, and under attackers_seen=tops_only,
    seen by the defender, also some unseen ones beneath the attacker's tops (SNC-6.3.1,
    SNC-10.0.5): each mobile unit dealt next to the target joins with probability 1/2; an
    overrun's group is one stack (SNC-9.6.2), that of its seen units or, none seen, a uniform
    choice among the stacks next to the target, with at least one unit. None when the draw
    cannot fit."""
    c = o["combat"]
    if c is None:
        return []
    shown = list(c["attackers"])
    fogged = o["variant"]["options"].get("attackers_seen") == "tops_only"
    if not fogged or o["side"] == o["player"]:
        return shown
    t = game.tables
    target = parse_hex(c["target"])
    near = {
        u: h
        for u, h in where.items()
        if hex_adjacent(parse_hex(h), target) and not t.spec[u].is_static
    }  # SNC-10.0.5, SNC-10.2.1: mobile units next to the target
    if c["overrun"]:  # SNC-9.6.2: one stack
        hexes = sorted({loc[u] for u in shown if u in loc} or set(near.values()))
        if not hexes:
            return shown if shown else None
        h = rng.choice(hexes)
        near = {u: x for u, x in near.items() if x == h}
    hidden = [u for u in placed if u in near and rng.random() < 0.5]
    if not shown and not hidden:
        return None  # an attack has an attacker (SNC-10.0.5)
    return shown + hidden


def _struck(o: Mapping[str, Any], attackers: list[str]) -> set[str]:
    """Unseen attackers of an attack already launched have attacked this phase (SNC-10.0.7)."""
    c = o["combat"]
    if c is None or c["overrun"] or o["step"] == "join":
        return set()
    return set(attackers) - set(c["attackers"])


def _combat(
    o: Mapping[str, Any], stacks: Mapping[str, list[str]], attackers: list[str]
) -> dict[str, Any] | None:
    """The combat under way with its drawn `attackers`, its defenders the whole stack where the
    view leaves them out (SNC-6.3.1, SNC-10.0.4)."""
    c = o["combat"]
    if c is None:
        return None
    combat = dict(c) | {"attackers": attackers}
    hidden = {Step.JOIN}  # the steps whose view leaves the defenders out (SNC-6.3.1)
    if o["variant"]["options"].get("fog_fire_support") == "support_then_reveal":
        hidden |= {Step.SUPPORT_A, Step.AIR_ASK, Step.AIR_ROLL}  # AMB-SNC-40
    if Step(o["step"]) in hidden and c["target"] in stacks:
        combat["defenders"] = sorted(stacks[c["target"]])  # SNC-10.0.4: the whole stack
    return combat


def resample(
    game: SNCRules, observation: Mapping[str, Any], side: str, rng: random.Random
) -> SNCState:
    """A state `side` cannot tell from the real one: `game.observe(result, side) ==
    observation`, and the position check accepts it. Raises ImpossiblePosition when no draw
    in `ATTEMPTS` fits."""
    if observation["side"] != side:
        raise ValueError(f"the observation is {observation['side']}'s, not {side}'s")
    for _ in range(ATTEMPTS):
        s = _strict(game, observation, side, rng)
        if s is not None:
            return s
    raise ImpossiblePosition(
        f"no state with this observation found in {ATTEMPTS} draws", field="where"
    )


def _strict(
    game: SNCRules, observation: Mapping[str, Any], side: str, rng: random.Random
) -> SNCState | None:
    """One proposal decoded and checked, or None when it is refused."""
    p = _propose(game, observation, rng)
    if p is None:
        return None
    try:
        s = state_from_json(game, _document(game, observation, p))
    except (ImpossiblePosition, InvalidInput):
        return None
    return s if observe(game, s, side) == observation and strong_enough(game.tables, s) else None


STRUCK = frozenset({Step.SUPPORT_A, Step.AIR_ASK, Step.AIR_ROLL, Step.SUPPORT_D, Step.ROLL})
"""The steps of a land attack after its attackers struck and before its die is rolled."""


def strong_enough(t: Tables, s: SNCState) -> bool:
    """A land attack that has struck has an adjusted strength above 0 (SNC-10.4.1.8: it could
    not strike otherwise, `combat_choices.may_strike`), so a draw that leaves its attackers too
    weak (unseen attackers drawn reduced) is not a state play could reach: its die could not
    be rolled. The position check does not ask this."""
    c = s.combat
    if c is None or c.landing or s.step not in STRUCK:
        return True
    return combat_query.strong_enough(
        t.data, t.board, stacks(s.where), s.reduced, c.target, c.attackers
    )


@functools.cache
def static_homes(t: Tables) -> dict[str, str]:
    """Each static unit set up on the map, with its set-up hex (SNC-3.1.4)."""
    return {
        u: hex_name(h)
        for a in t.data.setup.at_start
        for u, h in a.place.items()
        if t.spec[u].is_static
    }


def sampler(
    game: SNCRules, observation: Mapping[str, Any], side: str
) -> Callable[[random.Random], SNCState]:
    """`resample` for one observation, prepared once (`bots.sample_fast`)."""
    from specs.snc1937.bots.sample_fast import prepared

    return prepared(game, observation, side)
