"""The parts of SNC's fast draw worked out once per observation (`bots.sample_fast._Fixed`) against
their plain forms in `bots.resample` and `bots.sample_fast._fits`, on every proposal of seeded
positions, refused ones included: the same units in the same order, the same verdict of the
position check's rules on the drawn static units (SNC-2.2.1.8, SNC-9.1.1, SNC-9.1.3,
AMB-SNC-37, SNC-9.0.10) and the same recorded tops (AMB-SNC-40)."""

from __future__ import annotations

import random
from typing import Any

from specs.snc1937.bots.resample import _on_top, _propose, _stacks, _unseen
from specs.snc1937.bots.sample_fast import _fits, _Fixed
from tests.sizes import size
from tools.registry import get_game
from tools.testing.histories import play_history, states

PROPOSALS = 6
"""Proposals compared per state and side."""


def _positions() -> list[Any]:
    game = get_game("snc1937")
    variant = game.catalogue.variant(None, {})
    history = play_history(game, variant, random.Random("fast-parts"), size(500, 2000))
    return list(states(game, history))[::3]


def test_fixed_parts_are_the_plain_ones_on_every_proposal() -> None:
    """SNC-6.3.1: for each side's observation, every proposal's state units, static-unit
    verdict and recorded tops are what the plain functions give; both verdicts are met."""
    game = get_game("snc1937")
    rules: Any = game.rules
    t = rules.tables
    order = t.order.__getitem__
    verdicts: set[bool] = set()
    tops_recorded = 0
    for i, s in enumerate(_positions()):
        if game.to_move(s) is None:
            break
        for side in game.sides:
            o = game.observe(s, side)
            pool = _unseen(rules, o)
            rng = random.Random(f"{i}/{side}")
            fixed: _Fixed | None = None
            for _ in range(PROPOSALS):
                p = _propose(rules, o, rng, pool)
                if p is None:
                    continue
                fixed = fixed or _Fixed.of(t, o, p)
                assert fixed.units == tuple(sorted(p.where))
                verdict = fixed.fits(t, p)
                assert verdict == _fits(t, o, p), (i, side)
                verdicts.add(verdict)
                stacks = _stacks(p.where)
                tops = fixed.on_top(o, stacks)
                assert tops == _on_top(o, stacks, order), (i, side)
                tops_recorded += bool(tops)
    assert verdicts == {True, False}
    assert tops_recorded > 0
