"""Hidden information over a whole history, not one position: what the Russians see after
every step (their observation, their legal actions, the log lines) must not tell which face-down
Japanese piece went where (SHU-SETUP.1, SHU-COMBAT.5, SHU-COMBAT.6, AMB-SHU-21).

Each test plays two histories that differ only in which hidden piece did what, and compares the
Russian views step by step: a difference at any step is a leak (anyone polling the Russian view,
a bot, the HTTP page, OpenSpiel's perfect-recall information state, would learn it)."""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest

from kernel.game import CHANCE
from specs.shumshu.bots.resample import resample
from specs.shumshu.rules.actions import Action, Move, Place, ReturnDecoy
from specs.shumshu.rules.state import JP, RU, Loc, ShumshuState, Stage
from tests.shumshu.positions import GAME, RULES, B, apply_all, h, legal, position, variant

SETUP_PIECES = ("JP-IB1", "JP-IB2", "JP-IB3", "JP-TK1", "JP-DC1", "JP-DC2")
HEXES = (h("0205"), h("0303"), h("0404"), h("0603"), h("0304"), h("0404"))
"""The hexes of a set-up, step by step (two pieces share 0404)."""


def _russian_view(before: ShumshuState, action: Action, after: ShumshuState) -> dict[str, Any]:
    """All a Russian is shown after a step: the observation, the Russian legal actions (none
    while the Japanese decide) and the log lines of the step."""
    return {
        "observation": GAME.observe(after, RU),
        "legal": legal(after) if GAME.to_move(after) == RU else [],
        "line": GAME.describe(before, action),
        "events": GAME.events(before, action, after),
        "headline": GAME.headline(after),
    }


def _views(s: ShumshuState, actions: list[Action]) -> list[dict[str, Any]]:
    views = [_russian_view(s, actions[0], s) | {"line": "", "events": []}]
    for a in actions:
        t = apply_all(s, a)
        views.append(_russian_view(s, a, t))
        s = t
    return views


def _setup(order: tuple[str, ...]) -> list[Action]:
    return [Place(u, x) for u, x in zip(order, HEXES, strict=True)]


def test_shu_setup_1_swapping_the_tank_and_a_decoy_changes_no_russian_view() -> None:
    """SHU-SETUP.1, SHU-COMBAT.5: two set-ups on the same hexes, the tank and a decoy swapped:
    the Russian observation, their (no) legal actions and the log lines they are shown are the
    same after every step, up to their first decision."""
    start = GAME.initial_state(variant())
    tank_4th = _setup(("JP-IB1", "JP-IB2", "JP-IB3", "JP-TK1", "JP-DC1", "JP-DC2"))
    decoy_4th = _setup(("JP-IB1", "JP-IB2", "JP-IB3", "JP-DC1", "JP-TK1", "JP-DC2"))
    a, b = _views(start, tank_4th), _views(start, decoy_4th)
    assert len(a) == len(b) == 7
    for step, (x, y) in enumerate(zip(a, b, strict=True)):
        assert x == y, f"step {step}: the Russian views differ"
        if step < 6:
            assert x["legal"] == [] and x["observation"]["to_move"] == JP
    assert a[-1]["observation"]["to_move"] == RU and a[-1]["legal"]
    # the two set-ups do differ, for the Japanese
    end_a = apply_all(start, *tank_4th)
    end_b = apply_all(start, *decoy_4th)
    assert end_a.piece("JP-TK1").hex == h("0603") and end_b.piece("JP-TK1").hex == h("0304")
    assert GAME.observe(end_a, JP) != GAME.observe(end_b, JP)


@pytest.mark.parametrize("step", range(6))
def test_shu_setup_1_regression_the_placement_order_no_longer_shows_the_tank(step: int) -> None:
    """SHU-SETUP.1, SHU-COMBAT.5 (regression): the old set-up placed the pieces in a fixed
    order (infantry, infantry, infantry, tank, decoy, decoy), so the hex that gained a piece at
    the fourth step was the tank's in every game. Now the tank may go down at any step with
    the same Russian views as a set-up where it goes down fourth: this fails (refused, or views
    that differ) under a fixed order."""
    start = GAME.initial_state(variant())
    fixed = ("JP-IB1", "JP-IB2", "JP-IB3", "JP-TK1", "JP-DC1", "JP-DC2")
    others = [u for u in fixed if u != "JP-TK1"]
    moved = (*others[:step], "JP-TK1", *others[step:])
    assert _views(start, _setup(moved)) == _views(start, _setup(fixed))


def _decoy_due(**options: str) -> ShumshuState:
    """Turn 2, the Japanese player-turn: JP-DC1, found and removed last turn, comes back now;
    JP-IB1 stands face down in 0205."""
    s = position(
        {"RU-1-138": "0801", "JP-IB1": "0205", "JP-DC1": "removed"},
        side=JP,
        turn=2,
        options=options,
        check=False,
    )
    s = attrs.evolve(
        s,
        stage=Stage.DECOY,
        units=tuple(attrs.evolve(p, recover=2) if p.id == "JP-DC1" else p for p in s.units),
    )
    GAME.check_position(s)
    return s


def _follow(s: ShumshuState, back: Action, mover: str, to: str) -> list[dict[str, Any]]:
    return _views(s, [back, Move(mover, h(to))])


def test_shu_combat_6_a_returned_decoy_cannot_be_told_from_the_stack_it_joins() -> None:
    """SHU-COMBAT.6, SHU-COMBAT.5, AMB-SHU-21 iii (`decoy_return=reachable_held`, draft): the
    decoy comes back into a hex the Japanese hold, one more face-down counter there; whether
    the decoy or the infantry battalion then leaves the stack, the Russians see the same
    after every step (the old rule put it back alone on an empty hex: refused here, and the
    next test shows what it showed)."""
    s = _decoy_due()
    back = ReturnDecoy("JP-DC1", h("0205"))
    assert back in legal(s)
    assert all(
        {B.side_of[p.id] for p in s.units if p.loc is Loc.MAP and p.hex == a.hex} == {JP}
        for a in legal(s)
        if isinstance(a, ReturnDecoy)
    )
    t = apply_all(s, back)
    to = next(
        x.to
        for x in legal(t)
        if isinstance(x, Move) and x.unit == "JP-DC1" and Move("JP-IB1", x.to) in legal(t)
    )
    decoy_moves = _follow(s, back, "JP-DC1", str(to))
    unit_moves = _follow(s, back, "JP-IB1", str(to))
    for step, (x, y) in enumerate(zip(decoy_moves, unit_moves, strict=True)):
        assert x["observation"] == y["observation"], f"step {step}: the Russian views differ"
        assert x["legal"] == y["legal"] == []
    assert decoy_moves[1]["line"] == unit_moves[1]["line"]  # the return's line, the same


def test_shu_combat_6_a_decoy_back_alone_is_followed_by_the_russians() -> None:
    """SHU-COMBAT.6, `decoy_return=reachable_empty` (the kernel note, kept as an option): the
    decoy back alone on an empty hex is the only new counter there, and its move differs, as
    the Russians see it, from the real unit's: why draft departs from the note."""
    s = _decoy_due(decoy_return="reachable_empty")
    back = next(a for a in legal(s) if isinstance(a, ReturnDecoy))
    t = apply_all(s, back)
    to = next(
        x.to
        for x in legal(t)
        if isinstance(x, Move) and x.unit == "JP-DC1" and Move("JP-IB1", x.to) in legal(t)
    )
    decoy_moves = _follow(s, back, "JP-DC1", str(to))
    unit_moves = _follow(s, back, "JP-IB1", str(to))
    assert decoy_moves[-1]["observation"] != unit_moves[-1]["observation"]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_shu_setup_1_resampled_states_keep_the_russian_view_over_seeded_games(seed: int) -> None:
    """SHU-SETUP.1, SHU-COMBAT.5, SHU-COMBAT.6: at every step of a seeded game (the set-up in
    the order the Japanese chose included), a state drawn from the Russian observation alone
    has exactly that observation."""
    rng = random.Random(seed)
    s = GAME.initial_state(variant())
    for _ in range(60):
        if GAME.outcome(s) is not None:
            break
        seen = GAME.observe(s, RU)
        drawn = resample(RULES, seen, RU, random.Random(seed))
        assert GAME.observe(drawn, RU) == seen, s.stage
        if GAME.to_move(s) == CHANCE:
            outcomes = GAME.chance_outcomes(s)
            s = GAME.apply(s, rng.choice([a for a, _ in outcomes]))
        else:
            s = GAME.apply(s, rng.choice(list(GAME.legal_actions(s))))
