"""Fog of war (SNC-6.3.1, SNC-6.3.2): a side sees only the top unit of an enemy stack until
an attack on it is resolved, and its legal actions depend only on what it sees: swapping two
hidden enemy units between stacks changes neither its view nor its legal actions."""

from __future__ import annotations

import itertools
import random

import attrs

from kernel.game import CHANCE
from kernel.hexes import parse_hex
from specs.snc1937.data.variants import CATALOGUE
from specs.snc1937.game import SNC
from specs.snc1937.rules.state import CH, JP, SNCState
from specs.snc1937.rules.tables import stacks
from specs.snc1937.rules.top_unit import top_first

GAME = SNC()


def _swapped(s: SNCState, side: str, rng: random.Random) -> SNCState | None:
    """`s` with two hidden enemy units of different hexes exchanged, or None (a unit its owner
    put on top stays: moved to another stack it could come on top there)."""
    t = GAME.tables
    c = s.combat
    named = set(s.on_top) if c is None else {*c.attackers, *c.defenders, *s.on_top}
    hidden = []
    for h, units in stacks(s.where).items():
        if t.spec[units[0]].side == side or (c is not None and h == c.target):
            continue
        top = top_first(t, s, units)[0]
        hidden += [(u, h) for u in units if u != top and u not in named]
    rng.shuffle(hidden)
    for (a, ha), (b, hb) in itertools.pairwise(hidden):
        if ha != hb:
            where = dict(s.where)
            where[a], where[b] = hb, ha
            return attrs.evolve(s, where=tuple(sorted(where.items())))
    return None


def test_snc_6_3_1_only_the_top_unit_is_seen() -> None:
    """SNC-6.3.1: the Japanese see one Chinese unit of 3511's stack (two divisions and a
    garrison) and the stack's size; the Chinese see all of their own."""
    s = GAME.initial_state(CATALOGUE.preset("standard"))
    jp = {x["hex"]: x for x in GAME.observe(s, JP)["stacks"]}
    ch = {x["hex"]: x for x in GAME.observe(s, CH)["stacks"]}
    assert jp["3511"]["count"] == 3 and len(jp["3511"]["units"]) == 1
    assert len(ch["3511"]["units"]) == 3
    assert parse_hex("3511") in {h for _, h in s.where}


def test_snc_6_3_1_legal_actions_depend_only_on_the_view() -> None:
    """SNC-6.3.1: along seeded games, for the side to move, a state with two hidden enemy
    units swapped gives the same observation and the same legal actions."""
    rng = random.Random(5)
    checked = 0
    for seed in (3, 4):
        s = GAME.initial_state(CATALOGUE.preset("standard"))
        play_rng = random.Random(seed)
        step = 0
        while GAME.to_move(s) is not None and step < 4000:
            side = GAME.to_move(s)
            if side == CHANCE:
                s = GAME.apply(s, play_rng.choice(GAME.chance_outcomes(s))[0])
                continue
            assert side is not None
            legal = GAME.legal_actions(s)
            if step % 5 == 0:
                other = _swapped(s, side, rng)
                if other is not None and GAME.observe(other, side) == GAME.observe(s, side):
                    assert list(GAME.legal_actions(other)) == list(legal)
                    checked += 1
            s = GAME.apply(s, play_rng.choice(list(legal)))
            step += 1
    assert checked >= 20
