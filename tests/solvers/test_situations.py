"""Play steered toward a game's own situation (`solvers.checking.situations`), wired into the
explorer (`solvers.checking.situated`), on the toy game: its `gap` option (TOY-1) parts the
readings only at a total of 3 with no toss pending, a position a corpus cut off at the
set-up never reaches. Every search runs on counts only (`budget=None`)."""

from __future__ import annotations

from typing import Any

from solvers.checking.corpus import build_corpus
from solvers.checking.differences import Finding
from solvers.checking.situated import on_the_way
from solvers.checking.situations import reading_situations, toward
from tests.toy import PACKAGE as TOY_PACKAGE
from tests.toy.rules.actions import Add, Coin, Pass
from tests.toy.rules.state import ToyState
from tools.testing.witnesses import assert_witness_holds, situation_only

STUCK_AT = 3  # the total at which `gap=stuck_at_3` leaves no action (TOY-1)


def _gap_distance(state: ToyState) -> int:
    """TOY-1 (gap): 0 where the side to move is at a total of 3 (the stuck reading leaves it
    no action there); otherwise the total still missing plus one for a toss pending; far
    once the total is past 3 (it never comes down)."""
    if state.total > STUCK_AT:
        return 100
    return (STUCK_AT - state.total) + int(state.coin)


def _toy(situations: dict[str, Any] | None) -> Any:
    """The toy assembled anew, its rules offering `situations` (None: no hook at all)."""
    game = TOY_PACKAGE.assemble()
    if situations is not None:
        rules: Any = game.rules
        rules.reading_situations = lambda: situations  # the hook as a game's rules define it
    return game


# one step per game: every corpus position is the set-up, where both readings agree
SHORT = build_corpus(TOY_PACKAGE.assemble(), seeds=2, max_steps=1)


def _gap(game: Any, situation_nodes: int) -> Finding:
    """The gap pair under `plain` with no exhaustive search, no corpus position compared, no
    search around them and no guided game: only the situation search may find a
    difference."""
    f = situation_only(game, "gap", SHORT, situation_nodes)
    return f


def test_a_game_without_the_hook_offers_no_situation() -> None:
    """No `reading_situations()` on the rules, no situation; with it, the game's mapping."""
    assert reading_situations(_toy(None)) == {}
    assert set(reading_situations(_toy({"gap": _gap_distance}))) == {"gap"}


def test_toward_reaches_the_gap_situation_from_the_set_up_within_a_few_positions() -> None:
    """TOY-1: from the corpus's set-up positions (distance 3) the search reaches a total of 3
    with no toss pending within 10 positions; the actions it gives reach that position from
    the set-up, where the two readings of `gap` answer differently (no action at all under
    `stuck_at_3`)."""
    game = _toy(None)
    s = toward(game, SHORT, "plain", _gap_distance, nodes=10)
    assert s.reached and s.evaluated <= 10 and s.best == 0
    here = s.reached[0]
    state = game.initial_state(game.presets()["plain"])
    for action in here.actions:
        state = game.apply(state, action)
    assert state == here.state and _gap_distance(state) == 0
    va, vb = (game.catalogue.variant("plain", {"gap": r}) for r in ("none", "stuck_at_3"))
    at_a = game.initial_state(va).__class__(va, state.total, state.side)
    at_b = game.initial_state(vb).__class__(vb, state.total, state.side)
    assert game.legal_actions(at_a) and not game.legal_actions(at_b)


def test_toward_stops_at_its_count_of_positions() -> None:
    """A distance that is never 0 stops the search at its cap of positions evaluated, and
    says so; the closest distance it saw is the one the measure gave."""
    s = toward(_toy(None), SHORT, "plain", lambda state: 1, nodes=7)
    assert (s.evaluated, s.limit, s.reached, s.best) == (7, "situation positions", (), 1)


def test_the_gap_pair_differs_only_thanks_to_the_situation() -> None:
    """TOY-1 (gap): with the same counts, the pair is `differ` when the game states the
    situation (the witness found by play steered toward it, and it replays from the set-up
    under both readings), and `unknown` when it does not."""
    found = _gap(_toy({"gap": _gap_distance}), situation_nodes=20)
    assert found.verdict == "differ", found.detail
    assert found.witness is not None
    assert found.witness.found_by == "play steered toward the situation"
    assert "steered toward the situation" in found.detail
    assert_witness_holds(_toy(None), found)
    without = _gap(_toy(None), situation_nodes=20)
    assert without.verdict == "unknown" and without.witness is None
    assert "steered toward the situation" not in without.detail


def test_a_situation_never_reached_leaves_the_pair_unknown_and_says_why() -> None:
    """TOY-1: a measure under which no position is at distance 0 settles nothing; the detail
    names the positions evaluated, the closest distance seen and the cap that stopped it."""
    f = _gap(_toy({"gap": lambda state: 2}), situation_nodes=5)
    assert f.verdict == "unknown"
    assert "evaluated 5 positions, none at distance 0" in f.detail
    assert "the closest at distance 2" in f.detail and "cap of 5 positions" in f.detail
    assert "situation positions" in f.limit


def test_the_situation_search_compares_the_readings_at_the_positions_it_reaches() -> None:
    """TOY-2 (coin_name, two names for the same rules): with every position called a
    situation, the search compares the readings at the first position it evaluates and
    within 4 steps of it, up to its cap of 4 x 3 positions expanded, finds no difference, and
    says so: play found no difference, which never makes the pair equivalent."""
    game = _toy({"coin_name": lambda state: 0})
    f = situation_only(game, "coin_name", SHORT, 3)
    assert f.verdict == "unknown" and f.witness is None
    assert "1 at distance 0, and found no difference there nor within 4 steps" in f.detail
    assert "(12 positions expanded; the search around them reached its cap of 12" in f.detail


def test_a_log_of_one_reading_gives_the_first_place_the_readings_part_on_the_way() -> None:
    """TOY-1: a log legal under `gap=none` that goes on past a total of 3 with no toss
    pending is refused there under `stuck_at_3`; the witness is the log up to that position,
    where the legal actions differ, and it replays from the set-up under both readings."""
    game = _toy(None)
    va, vb = (game.catalogue.variant("plain", {"gap": r}) for r in ("none", "stuck_at_3"))
    actions = [Add(2), Coin(True), Add(1), Coin(False), Pass()]
    w = on_the_way(game, va, vb, actions)
    assert w is not None and w.difference.kind == "actions"
    assert [game.action_from_json(x) for x in w.log] == actions[:2]
    assert w.state["total"] == STUCK_AT
    assert on_the_way(game, va, va, actions) is None  # the same reading never parts
