"""A full Shumshu state drawn from one side's observation alone, for searches that must not see
what their side may not (SHU-COMBAT.5, SHU-COMBAT.6, SHU-SETUP.1, SHU-SETUP.2).

The Japanese see everything, so for them the state is rebuilt exactly. The Russians see a
face-down Japanese piece (decoys included, AMB-SHU-30) only as one more piece in its hex, the
Paramushir units as a count, and an eliminated unit that left face down not at all
(`eliminated_face=as_it_was`). What is drawn for them:
- which hidden counter is which: the hidden Japanese counters are dealt to the face-down places
  on the map, the Paramushir pool and the face-down eliminated pile by a uniform shuffle, where
  each counter's kind may be (a decoy is never eliminated, SHU-COMBAT.6; a Shumshu piece leaves
  the pool at set-up, SHU-SETUP.1; during set-up the pieces already down are any of the
  Shumshu pieces, placed in the order the Japanese choose);
- which hidden counters moved this player-turn, attack in each declared attack, defend, rout or
  withdraw, or may advance: uniform among the hidden counters where the rules put such units
  (a decoy never attacks nor defends, AMB-SHU-30; attackers next to their target,
  SHU-COMBAT.1; defenders in the attacked hex, SHU-STACK.3; victors among the attackers,
  SHU-COMBAT.13).
Each draw is kept only if it has exactly the observation and the position check accepts it
(rejection), so the result is uniform over the deals above that are consistent; the roles are
drawn given the deal, so a deal is weighted as the proposal weights it, not exactly uniformly.
What the Russians learnt earlier (a counter seen when it was revealed, then hidden again) is
ignored: only the current observation is used.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from kernel.errors import ImpossiblePosition, InvalidInput
from kernel.hexes import Hex, hex_name, parse_hex
from specs.shumshu.io.codec import state_from_json
from specs.shumshu.io.observation import HIDDEN
from specs.shumshu.rules.state import JP, Combat, Loc, Piece, ShumshuState

if TYPE_CHECKING:
    from specs.shumshu.rules.reader import ShumshuRules

ATTEMPTS = 2000
"""Draws tried before giving up: the rejection keeps only states with the exact observation."""

_OBSERVATION_ONLY = ("side", "to_move", "player", "face_down", "paramushir", "moved_face_down")


def _hidden_unit(uid: str, loc: str, hex_id: str | None) -> dict[str, Any]:
    return {
        "id": uid,
        "loc": loc,
        "hex": hex_id,
        "disrupted": False,
        "recover": 0,
        "revealed": False,
    }


class _Draw:
    """One proposal: a deal of the hidden counters, then their roles."""

    def __init__(self, game: ShumshuRules, o: Mapping[str, Any], rng: random.Random) -> None:
        self.game = game
        self.o = o
        self.rng = rng
        b = game.board
        self.order = b.order
        visible = {u["id"] for u in o["units"]}
        self.secret = [u.id for u in b.data.units if u.id not in visible]
        self.where: dict[str, tuple[str, str | None]] = {}

    def deal(self) -> bool:
        """Counters to the face-down places: False when this shuffle breaks a kind's places."""
        b = self.game.board
        o = self.o
        places: list[tuple[str, str | None]] = [
            ("map", h) for h, n in sorted(o["face_down"].items()) for _ in range(n)
        ]
        seen_pool = sum(1 for u in o["units"] if u["loc"] == "pool" and b.side_of[u["id"]] == JP)
        places += [("pool", None)] * (o["paramushir"] - seen_pool)
        places += [("gone", None)] * (len(self.secret) - len(places))
        if len(places) != len(self.secret):
            raise ImpossiblePosition("more face-down places than hidden counters", field="units")
        units = list(self.secret)
        if o["stage"] == "setup":
            # SHU-SETUP.1: the Shumshu pieces are set up one by one in the order the Japanese
            # choose, so any of them may be among those already down
            on_map = sum(1 for kind, _ in places if kind == "map")
            shumshu = [u for u in units if b.unit(u).setup == "shumshu"]
            self.rng.shuffle(shumshu)
            first = shumshu[:on_map]
            rest = [u for u in units if u not in first]
            maps = [p for p in places if p[0] == "map"]
            self.rng.shuffle(maps)
            others = [p for p in places if p[0] != "map"]
            self.rng.shuffle(others)
            self.where = dict(zip(first + rest, maps + others, strict=True))
        else:
            self.rng.shuffle(places)
            self.where = dict(zip(units, places, strict=True))
        for u, (kind, _) in self.where.items():
            spec = b.unit(u)
            if kind == "gone" and spec.is_decoy:  # SHU-COMBAT.6: a decoy is removed, not lost
                return False
            if kind == "pool" and spec.setup == "shumshu" and o["stage"] != "setup":
                return False  # SHU-SETUP.1
        return True

    def on_map(self, hexes: set[str] | None, *, real: bool = True) -> list[str]:
        return [
            u
            for u, (kind, h) in self.where.items()
            if kind == "map"
            and (hexes is None or h in hexes)
            and not (real and self.game.board.unit(u).is_decoy)
        ]

    def pick(self, names: Sequence[str], candidates: Sequence[str]) -> list[str] | None:
        """`names` with each HIDDEN replaced by a distinct candidate, in the data's order."""
        k = sum(1 for n in names if n == HIDDEN)
        if k == 0:
            return list(names)
        pool = sorted(set(candidates), key=self.order.__getitem__)
        if len(pool) < k:
            return None
        chosen = self.rng.sample(pool, k)
        return sorted([n for n in names if n != HIDDEN] + chosen, key=self.order.__getitem__)

    def near(self, hex_id: str) -> set[str]:
        b = self.game.board
        return {hex_name(h) for h in b.neighbors(parse_hex(hex_id))}

    def state(self) -> dict[str, Any] | None:
        """The deal and its roles as a state document, or None when the roles cannot fit."""
        o = self.o
        b = self.game.board
        roles = self.roles()
        if roles is None:
            return None
        units = {u["id"]: dict(u) for u in o["units"]}
        for u, (kind, h) in self.where.items():
            units[u] = _hidden_unit(u, kind, h)
        data: dict[str, Any] = {k: v for k, v in o.items() if k not in _OBSERVATION_ONLY}
        data.update(
            format="wargame-kernel/state",
            version=1,
            side=o["player"],
            units=[units[u.id] for u in b.data.units],
            acted=sorted(o["acted"], key=self.order.__getitem__),  # the codec's order
            **roles,
        )
        return data

    def roles(self) -> dict[str, Any] | None:
        """Who moved, attacks, defends, routs and may advance among the hidden counters, as
        the document's `moved`, `pending` and `fight`; None when they cannot fit."""
        o = self.o
        b = self.game.board
        movers = [
            u
            for u in self.secret
            if not (b.unit(u).is_decoy and o["variant"]["options"].get("decoy_movement") == "fixed")
        ]
        if o["moved_face_down"] > len(movers):
            return None
        moved = [*o["moved"], *self.rng.sample(movers, o["moved_face_down"])]
        used: set[str] = set()
        pending = []
        for c in o["pending"]:  # SHU-COMBAT.1: attackers next to their target
            free = [u for u in self.on_map(self.near(c["hex"])) if u not in used]
            attackers = self.pick(c["attackers"], free)
            if attackers is None:
                return None
            used |= set(attackers)
            pending.append({"hex": c["hex"], "attackers": attackers})
        f = o["fight"]
        fight = None
        if f is not None:
            fight = dict(f)
            free = [u for u in self.on_map(self.near(f["hex"]) | {f["hex"]}) if u not in used]
            attackers = self.pick(f["attackers"], free)
            defenders = self.pick(f["defenders"], self.on_map({f["hex"]}))
            if attackers is None or defenders is None:
                return None
            hidden_defenders = [d for d in defenders if d not in f["defenders"]]
            retreating = self.pick(f["retreating"], hidden_defenders + self.on_map({f["hex"]}))
            winners = self.pick(f["winners"], [a for a in attackers if a not in f["attackers"]])
            if retreating is None or winners is None:
                return None
            fight.update(
                attackers=attackers, defenders=defenders, retreating=retreating, winners=winners
            )
        moved.sort(key=self.order.__getitem__)
        return {"moved": moved, "pending": pending, "fight": fight}

    def built(self, first: ShumshuState, roles: Mapping[str, Any]) -> ShumshuState:
        """The deal and its roles as a state: `first` (a state with the same observation) with
        the hidden counters and their roles replaced."""
        units = tuple(
            p if p.id not in self.where else _piece(p.id, *self.where[p.id]) for p in first.units
        )
        pending = tuple(Combat(_hex(c["hex"]), tuple(c["attackers"])) for c in roles["pending"])
        fight = first.fight
        f = roles["fight"]
        if fight is not None and f is not None:
            fight = attrs.evolve(
                fight,
                attackers=tuple(f["attackers"]),
                defenders=tuple(f["defenders"]),
                retreating=tuple(f["retreating"]),
                winners=tuple(f["winners"]),
            )
        return attrs.evolve(
            first, units=units, moved=frozenset(roles["moved"]), pending=pending, fight=fight
        )


@functools.cache
def _hex(name: str) -> Hex:
    return parse_hex(name)


def _piece(uid: str, loc: str, hex_id: str | None) -> Piece:
    """A hidden counter as `_hidden_unit` writes it."""
    return Piece(uid, Loc(loc), None if hex_id is None else _hex(hex_id), False, 0, False)


def sampler(
    game: ShumshuRules, observation: Mapping[str, Any], side: str
) -> Callable[[random.Random], ShumshuState]:
    """`resample` for one observation, prepared once: the first state is the strict draw's;
    each later one takes the parts the observation fixes from it and only the hidden counters
    and their roles from its own deal, without the document, the decoding, the position check
    and the comparison of observations: a deal that fits is exact (the tests hold each such
    draw to both, and equal to `resample`'s from the same generator)."""
    if observation["side"] != side:
        raise ValueError(f"the observation is {observation['side']}'s, not {side}'s")
    first: list[ShumshuState] = []

    def draw(rng: random.Random) -> ShumshuState:
        if not first:
            first.append(resample(game, observation, side, rng))
            return first[0]
        for _ in range(ATTEMPTS):
            proposal = _Draw(game, observation, rng)
            if not proposal.deal():
                continue
            roles = proposal.roles()
            if roles is not None:
                return proposal.built(first[0], roles)
        raise ImpossiblePosition(
            f"no state with this observation found in {ATTEMPTS} draws", field="units"
        )

    return draw


def resample(
    game: ShumshuRules, observation: Mapping[str, Any], side: str, rng: random.Random
) -> ShumshuState:
    """A state `side` cannot tell from the real one: `game.observe(result, side) ==
    observation`, and the position check accepts it. Raises ImpossiblePosition when no draw
    in `ATTEMPTS` fits (none has been seen to in play)."""
    if observation["side"] != side:
        raise ValueError(f"the observation is {observation['side']}'s, not {side}'s")
    for _ in range(ATTEMPTS):
        draw = _Draw(game, observation, rng)
        if not draw.deal():
            continue
        data = draw.state()
        if data is None:
            continue
        try:
            s = state_from_json(game, data)
        except (ImpossiblePosition, InvalidInput):
            continue
        if game.observe(s, side) == observation:
            return s
    raise ImpossiblePosition(
        f"no state with this observation found in {ATTEMPTS} draws", field="units"
    )
