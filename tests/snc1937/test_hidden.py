"""Fog of war (SNC-6.3.1, SNC-6.3.2): a side sees only the top unit of an enemy stack until
an attack on it is resolved, and its legal actions depend only on what it sees: swapping two
hidden enemy units between stacks changes neither its view nor its legal actions."""

from __future__ import annotations

import itertools
import random

import attrs
import pytest

from kernel.game import CHANCE
from kernel.hexes import parse_hex
from specs.snc1937.data.variants import CATALOGUE
from specs.snc1937.game import SNC
from specs.snc1937.rules.actions import Attack, Declare, Join, Strike
from specs.snc1937.rules.state import CH, JP, Order, SNCState
from specs.snc1937.rules.tables import stacks
from specs.snc1937.rules.top_unit import top_first

GAME = SNC()


def _swapped(s: SNCState, side: str, rng: random.Random) -> SNCState | None:
    """`s` with two hidden enemy units of different hexes exchanged, or None (a unit its owner
    put on top stays: moved to another stack it could come on top there; a static unit stays
    in its hex, SNC-2.2.1.8: the swap must give a position play can reach)."""
    t = GAME.tables
    c = s.combat
    named = set(s.on_top) if c is None else {*c.attackers, *c.defenders, *s.on_top}
    hidden = []
    for h, units in stacks(s.where).items():
        if t.spec[units[0]].side == side or (c is not None and h == c.target):
            continue
        top = top_first(t, s, units)[0]
        hidden += [(u, h) for u in units if u != top and u not in named and not t.spec[u].is_static]
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


def _attack_on_3511(seen: str, *units: str) -> SNCState:
    """GT 1, the Japanese attack 3511 with `units`, at their fire support (SNC-11.1.1)."""
    s = GAME.initial_state(CATALOGUE.variant("standard", {"attackers_seen": seen}))
    s = GAME.apply(attrs.evolve(s, side=JP), Declare(Order.FIGHT_FIGHT))
    s = GAME.apply(s, Attack(parse_hex("3511")))
    for u in units:
        s = GAME.apply(s, Join(u))
    return GAME.apply(s, Strike())


@pytest.mark.parametrize(("seen", "told_apart"), [("declared_open", True), ("tops_only", False)])
def test_snc_6_3_1_whether_a_unit_beneath_a_top_attacks(seen: str, told_apart: bool) -> None:
    """SNC-6.3.1, SNC-10.0.5 (attackers_seen): an SNLF beneath the top of 3512's stack joins
    SNLF 3's attack on 3511 or not. Under declared_open the Chinese view tells the two attacks
    apart; under tops_only it does not. The Japanese view always does."""
    s = GAME.initial_state(CATALOGUE.preset("standard"))
    here = top_first(GAME.tables, s, stacks(s.where)[parse_hex("3512")])
    below = next(u for u in here[1:] if u.startswith("JP-SNLF"))
    alone = _attack_on_3511(seen, "JP-SNLF3")
    joined = _attack_on_3511(seen, below, "JP-SNLF3")
    assert (GAME.observe(alone, CH) != GAME.observe(joined, CH)) is told_apart
    assert GAME.observe(alone, JP) != GAME.observe(joined, JP)
