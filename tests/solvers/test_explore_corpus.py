"""Guided play that starts where a rule applies (issue 33, item 1): a corpus of seeded games of
every preset, built once and shared by every reading pair, and the readings compared at the
corpus positions where the rules asked for the option.

Every search runs on counts only (seeds, steps, positions, games; `budget=None`).
"""

from __future__ import annotations

from typing import Any

import attrs

from kernel.game import CHANCE
from kernel.roles import AssembledGame
from kernel.variants import consultations
from solvers.checking import reach
from solvers.checking.approach import option_places
from solvers.checking.corpus import Corpus, build_corpus
from solvers.checking.differences import Finding
from solvers.checking.explore import differential
from solvers.checking.steer import steer
from solvers.checking.steer_reach import steer_unreached
from solvers.checking.unreached import game_sources, prefixes
from tests.toy import PACKAGE as TOY_PACKAGE
from tools.registry import get_game
from tools.testing.witnesses import assert_witness_holds

NOMONHAN = get_game("nomonhan")
CORPUS = build_corpus(NOMONHAN, seeds=2, max_steps=2_000)


def _option(game: AssembledGame[Any, Any], name: str) -> Any:
    return next(o for o in game.catalogue.options if o.name == name)


def _from_corpus_only(game: AssembledGame[Any, Any], option: str, corpus: Corpus | None) -> Finding:
    """The pair's finding with the exhaustive search cut to one position and no guided game:
    only the corpus search may find a difference."""
    [f] = differential(
        game, _option(game, option), budget=None, games=0, exhaustive_cap=1, corpus=corpus
    )
    return f


def test_the_corpus_is_the_same_for_the_same_seeds_and_covers_every_preset() -> None:
    """Seeded, so every run (and every pair of a run) sees the same games; every preset is
    played."""
    again = build_corpus(NOMONHAN, seeds=2, max_steps=2_000)
    assert [g.actions for g in again.games] == [g.actions for g in CORPUS.games]
    assert {g.preset for g in CORPUS.games} == set(NOMONHAN.presets())
    assert CORPUS.limit == "games"


def test_a_corpus_position_is_where_the_rules_asked_for_the_option() -> None:
    """NOM-9.12 (damage_allocation): at each position the corpus lists for the option, the
    rules ask for its reading again when the step taken there is replayed; and at a position
    not listed for it they do not."""
    game = CORPUS.games[0]
    listed = {p.step for p in game.positions if "damage_allocation" in p.asked}
    assert listed
    state = NOMONHAN.initial_state(NOMONHAN.presets()[game.preset])
    for step, action in enumerate(game.actions):
        with consultations() as asked:
            if NOMONHAN.to_move(state) == CHANCE:
                NOMONHAN.chance_outcomes(state)
            else:
                NOMONHAN.legal_actions(state)
            after = NOMONHAN.apply(state, action)
        assert (asked["damage_allocation"] > 0) == (step in listed), step
        state = after


def test_the_corpus_finds_a_witness_where_play_from_the_set_up_is_not_run() -> None:
    """NOM-9.12 and NOM-9.7: with no guided game and the exhaustive search cut off, the
    corpus search alone finds where the readings part; its witness is the corpus game's log to
    that position, legal under both readings, and shows the difference. Without a corpus the
    same searches settle nothing."""
    for option in ("damage_allocation", "combat_grouping", "retreat_repeat"):
        f = _from_corpus_only(NOMONHAN, option, CORPUS)
        assert f.verdict == "differ" and f.witness is not None, (option, f.detail)
        assert f.witness.found_by == "corpus play"
        assert "corpus position" in f.detail
        logs = [
            [NOMONHAN.action_to_json(a) for a in g.actions[: len(f.witness.log)]]
            for g in CORPUS.games
            if g.preset == f.preset
        ]
        assert list(f.witness.log) in logs
        assert_witness_holds(NOMONHAN, f)
        assert _from_corpus_only(NOMONHAN, option, None).verdict == "unknown"


def test_an_option_no_corpus_position_asks_for_stays_unknown_and_says_so() -> None:
    """An option the rules never asked for in the corpus (the toy's `coin_name`) is never
    called equivalent for that: unknown, and the detail says no corpus position asked."""
    toy = TOY_PACKAGE.assemble()
    corpus = build_corpus(toy, seeds=3, max_steps=200)
    f = _from_corpus_only(toy, "coin_name", corpus)
    assert f.verdict == "unknown"
    assert "no corpus position asked for this option's reading" in f.detail


def test_a_corpus_of_another_preset_only_is_not_searched() -> None:
    """The pair's preset picks the corpus games: positions of another preset's games (other
    readings of other options) are no positions of this pair."""
    other = [g for g in CORPUS.games if g.preset != NOMONHAN.catalogue.default_preset]
    f = _from_corpus_only(NOMONHAN, "damage_allocation", attrs.evolve(CORPUS, games=tuple(other)))
    assert f.verdict == "unknown"
    assert "no corpus position asked" in f.detail


def test_the_position_cap_bounds_the_corpus_search() -> None:
    """A count, not time, bounds it: with a cap of one position the search stops there and
    says which limit it hit."""
    [f] = differential(
        NOMONHAN,
        _option(NOMONHAN, "advance_trigger"),
        budget=None,
        games=0,
        exhaustive_cap=1,
        corpus=CORPUS,
        corpus_positions=1,
    )
    assert f.verdict == "unknown"
    assert "corpus positions" in f.limit and "up to the cap of 1" in f.detail


SHORT = build_corpus(NOMONHAN, seeds=2, max_steps=8)  # stops before the first combat


def test_steered_play_reaches_where_the_rules_ask_for_an_option_the_corpus_never_met() -> None:
    """NOM-9.12 (damage_allocation): a corpus cut off before any combat never asks for the
    option; play steered by the approach level of the rules' own conditions reaches, within a
    count of positions, one where they do. Its actions replay from the set-up to it, and the
    reading is asked there."""
    assert SHORT.asked("damage_allocation", "ja") == 0
    files = game_sources(NOMONHAN)
    places = option_places(files, "damage_allocation")
    assert places
    s = steer(NOMONHAN, SHORT, "ja", places, files, nodes=300)
    assert s.reached and s.best == 0 and s.evaluated <= 300
    r = s.reached[0]
    state = NOMONHAN.initial_state(NOMONHAN.presets()["ja"])
    for action in r.actions:
        state = NOMONHAN.apply(state, action)
    assert NOMONHAN.state_to_json(state) == NOMONHAN.state_to_json(r.state)
    with consultations() as counter:
        for action in _moves(NOMONHAN, state):
            NOMONHAN.apply(state, action)
    assert counter["damage_allocation"]


def test_with_too_few_positions_steered_play_stops_at_its_count_and_says_so() -> None:
    """The count bounds it: with two positions, it evaluates two and names the limit."""
    files = game_sources(NOMONHAN)
    places = option_places(files, "damage_allocation")
    s = steer(NOMONHAN, SHORT, "ja", places, files, nodes=2)
    assert (s.evaluated, s.limit, s.reached) == (2, "steered positions", ())


def test_steered_play_gives_a_witness_that_replays() -> None:
    """NOM-9.12, NOM-9.24: where the corpus never met the option, the pair is settled by
    steered play; the witness is legal under both readings from the set-up and shows the
    difference; with the steered search given no position, the pair stays unknown and says
    why."""
    for option in ("damage_allocation", "retreat_repeat"):
        [f] = differential(
            NOMONHAN,
            _option(NOMONHAN, option),
            budget=None,
            games=0,
            exhaustive_cap=1,
            corpus=SHORT,
            steer_nodes=300,
        )
        assert f.verdict == "differ" and f.witness is not None, (option, f.detail)
        assert f.witness.found_by == "steered play"
        assert_witness_holds(NOMONHAN, f)
    [f] = differential(
        NOMONHAN,
        _option(NOMONHAN, "damage_allocation"),
        budget=None,
        games=0,
        exhaustive_cap=1,
        corpus=SHORT,
        steer_nodes=0,
    )
    assert f.verdict == "unknown"
    assert "no corpus position asked" in f.detail and "cap of 0 positions" in f.detail


def _moves(game: AssembledGame[Any, Any], state: Any) -> list[Any]:
    if game.to_move(state) == CHANCE:
        return [x for x, _ in game.chance_outcomes(state)]
    return list(game.legal_actions(state))


def test_a_clause_no_play_reached_is_reached_by_steered_play_with_a_log() -> None:
    """NOM-9.12 and NOM-9.24 (combat damage, repeated retreats): a corpus cut off before any
    combat never applies them; steered play reaches each, and the step from the position its
    log leads to applies the clause, as the clause-reach tracer (coverage) measures it."""
    reached, left = steer_unreached(NOMONHAN, SHORT, ["NOM-9.12", "NOM-9.24"], nodes=300)
    assert left == [] and {u.clause for u in reached} == {"NOM-9.12", "NOM-9.24"}
    files = game_sources(NOMONHAN)
    sites = reach.sites_of(files, prefixes(NOMONHAN))
    for u in reached:
        assert u.verdict == "reached" and u.log
        state = NOMONHAN.initial_state(NOMONHAN.presets()[u.preset])
        for data in u.log:
            state = NOMONHAN.apply(state, NOMONHAN.action_from_json(data))
        assert NOMONHAN.state_to_json(state) == u.state

        def step(at: Any = state) -> None:
            for action in _moves(NOMONHAN, at):
                NOMONHAN.apply(at, action)

        assert u.clause in reach.reached(sites, reach.lines_run(files, step))


def test_guided_play_from_corpus_positions_gives_witnesses_that_replay_from_the_set_up() -> None:
    """NOM-9.12, NOM-9.10 (damage_allocation, tank_numbers): with the one-step corpus search
    given no position, guided play whose second game starts at a corpus position where the
    rules asked for the option finds the difference (the witness kept is that game's); the
    witness (the corpus log to the position, then the game's own actions)
    replays from the set-up under both readings. Counts only: two games of 60 steps."""
    found_by = set()
    for option in ("damage_allocation", "tank_numbers"):
        [f] = differential(
            NOMONHAN,
            _option(NOMONHAN, option),
            budget=None,
            games=2,
            max_steps=60,
            exhaustive_cap=1,
            corpus=CORPUS,
            corpus_positions=0,
        )
        assert f.verdict == "differ" and f.witness is not None, (option, f.detail)
        found_by.add(f.witness.found_by)
        assert_witness_holds(NOMONHAN, f)
    assert found_by == {"guided play from a corpus position"}
