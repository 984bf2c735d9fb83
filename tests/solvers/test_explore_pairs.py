"""Reading pairs the explorer settles by itself (issue 33, items 2 and 5): a witness found by
the search around corpus positions or by guided play, replayed from the set-up under both
readings; an equivalence only by a proof over the symbolic model, never because play found no
difference.

Every search runs on counts only (seeds, games, positions, depth, rlimit; `budget=None`).
"""

from __future__ import annotations

import json
from typing import Any

import attrs
import pytest

from kernel.roles import AssembledGame
from solvers.checking import game_proofs
from solvers.checking.around import FOUND_BY, around
from solvers.checking.corpus import LEAD, build_corpus
from solvers.checking.differences import Finding, Witness, compare, same_position
from solvers.checking.explore import differential, reading_variant
from tests.toy import PACKAGE as TOY_PACKAGE
from tools.explore_report import SECOND_AT_LEAST, second_round
from tools.registry import get_game
from tools.verify import spec_verification

NOMONHAN = get_game("nomonhan")
SHUMSHU = get_game("shumshu")


def _replays(game: AssembledGame[Any, Any], f: Finding) -> Witness:
    """The finding's witness, its log legal under both readings from the set-up and leading
    both to the same position, where the difference it claims is."""
    w = f.witness
    assert w is not None
    cat = game.catalogue
    va = reading_variant(cat, f.preset, f.option, f.reading_a)
    vb = reading_variant(cat, f.preset, f.option, f.reading_b)
    a, b = game.initial_state(va), game.initial_state(vb)
    for data in w.log:
        action = game.action_from_json(data)
        a, b = game.apply(a, action), game.apply(b, action)  # raises if illegal under either
        assert same_position(game, a, b)
    assert game.state_to_json(a) == w.state
    d = w.difference
    if d.kind == "result_of_action":
        action = game.action_from_json(json.loads(d.only_a[0]))
        assert not same_position(game, game.apply(a, action), game.apply(b, action))
    else:
        diff = compare(game, a, b)
        assert diff is not None and diff.kind == d.kind
    return w


def _option(game: AssembledGame[Any, Any], name: str) -> Any:
    return game.catalogue.option(name)


def test_the_corpus_keeps_the_positions_that_led_to_each_asked_position() -> None:
    """The search around a corpus position starts where the choices leading to it were made:
    each position the corpus lists keeps the `LEAD` positions before it, which the game's own
    actions lead from to the position itself."""
    corpus = build_corpus(SHUMSHU, seeds=1, max_steps=400)
    [g] = corpus.games
    for p in g.positions:
        assert len(p.before) == min(LEAD, p.step)
        state = p.before[0] if p.before else p.state
        for action in g.actions[p.step - len(p.before) : p.step]:
            state = SHUMSHU.apply(state, action)
        assert same_position(SHUMSHU, state, p.state)


def test_shu_combat_6_decoy_discovery_differs_around_a_corpus_position() -> None:
    """SHU-COMBAT.6, SHU-COMBAT.5 (decoy_discovery, hex_attacked against when_alone): the
    search around the corpus positions where the rules asked for the option, every action
    tried, finds where the readings part; the witness replays from the set-up under both."""
    cat = SHUMSHU.catalogue
    corpus = build_corpus(SHUMSHU, seeds=24, max_steps=3_000)
    va = reading_variant(cat, "draft", "decoy_discovery", "hex_attacked")
    vb = reading_variant(cat, "draft", "decoy_discovery", "when_alone")
    r = around(SHUMSHU, corpus, va, vb, "decoy_discovery", "draft", nodes=600)
    assert r.witness is not None and r.witness.found_by == FOUND_BY
    f = Finding(
        "decoy_discovery",
        (),
        None,
        "hex_attacked",
        "when_alone",
        "draft",
        "differ",
        r.witness,
        "",
        0.0,
    )
    _replays(SHUMSHU, f)


def test_around_finds_nothing_where_the_readings_are_one() -> None:
    """A pair of equal readings (the preset's against itself) never parts: the search around
    the corpus positions expands positions and finds no witness (it cannot invent one)."""
    cat = SHUMSHU.catalogue
    corpus = build_corpus(SHUMSHU, seeds=2, max_steps=3_000)
    va = cat.preset("draft")
    r = around(SHUMSHU, corpus, va, va, "decoy_discovery", "draft", nodes=60)
    assert r.witness is None and r.expanded > 0


def test_nom_9_15_hill_defenders_differ_in_guided_play() -> None:
    """NOM-9.15 (hill_defenders, AMB-NOM-12, any_on_hill against all_on_hill under ja): guided
    play within 20 seeded games finds where the readings part; the witness replays."""
    [f] = differential(
        NOMONHAN, _option(NOMONHAN, "hill_defenders"), budget=None, games=20, exhaustive_cap=1
    )
    assert f.verdict == "differ", f.detail
    _replays(NOMONHAN, f)


def _proved(option: str, monkeypatch: pytest.MonkeyPatch | None = None) -> Finding:
    """The pair's finding with Z3 over the symbolic model (deterministic depth and rlimit) and
    two guided games; the exhaustive search cut off, so only a proof can settle it. With
    `monkeypatch`, the game's own proofs are switched off, so the proof is Z3's."""
    if monkeypatch is not None:
        monkeypatch.setattr(game_proofs, "reading_proofs", lambda game: {})
    spec = spec_verification(NOMONHAN)
    assert spec is not None
    [f] = differential(
        NOMONHAN,
        _option(NOMONHAN, option),
        budget=None,
        games=2,
        exhaustive_cap=1,
        models=spec.symbolic_model,
    )
    return f


def test_nom_opt_5_demolition_effect_is_moot_under_ja_by_z3_proof(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """NOM-OPT.5 (demolition_effect, AMB-NOM-17) under ja, where demolition is off (NOM-OPT.1):
    the pontoon is never blown, so whether a blown bridge still carries ZOC is never asked;
    with the game's own proof switched off, Z3 proves the model's transitions the same under
    both readings."""
    f = _proved("demolition_effect", monkeypatch)
    assert f.verdict == "equivalent", f.detail
    assert "proved on the symbolic model" in f.detail


def test_nom_9_17_nom_9_20_artillery_self_support_is_equivalent_under_ja_by_z3_proof(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """NOM-9.17, NOM-9.20 (artillery_self_support) under ja: with the game's own proof
    switched off, Z3 proves the model's transitions the same under allowed and other_combats
    (the declaration schemas are written differently but agree wherever ja's other readings
    let them apply)."""
    f = _proved("artillery_self_support", monkeypatch)
    assert f.verdict == "equivalent", f.detail
    assert "proved on the symbolic model" in f.detail


@pytest.mark.parametrize("option", ["demolition_effect", "artillery_self_support"])
def test_nom_the_games_own_proof_is_taken_before_z3(option: str) -> None:
    """NOM-OPT.5, NOM-9.17, NOM-9.20 under ja: the game proves these pairs over its data
    (`specs.nomonhan.formal.moot_readings`), and the explorer takes that proof first: the
    finding is equivalent with the game's proof as its detail, Z3 never asked (its depth
    stays unset) and no guided game played."""
    f = _proved(option)
    assert f.verdict == "equivalent", f.detail
    assert f.detail.startswith("proved by the game over its data"), f.detail
    assert "symbolic model" not in f.detail and f.z3_depth == -1 and not f.limit


def _unknown(option: str, a: str, b: str, seconds: float) -> Finding:
    return Finding(option, (), None, a, b, "plain", "unknown", None, "first round", seconds)


def test_a_second_round_searches_the_unknown_pairs_with_the_time_left_unused() -> None:
    """The pairs a first round left unknown are searched again with the time the others did
    not use (the toy's readings: `coin_name` changes nothing, `gap` plants a stuck position),
    and their new findings replace the first; the run's whole time stays within pairs x
    budget."""
    toy = TOY_PACKAGE.assemble()
    corpus = build_corpus(toy, seeds=2, max_steps=200)
    first = [
        _unknown("gap", "none", "stuck_at_3", 0.0),
        _unknown("coin_name", "coin", "token", 0.0),
        *[attrs.evolve(_unknown("coin_name", "coin", "token", 0.0), verdict="equivalent")] * 4,
    ]
    again = second_round(toy, first, 1.0, None, corpus)
    assert [f.verdict for f in again] == ["differ"] + ["equivalent"] * 5
    assert again[0].detail.startswith("a second round of ")
    assert again[2] is first[2]  # a settled pair is left as it was
    assert sum(f.seconds for f in again) <= 1.0 * len(first) + 1.0


def test_no_second_round_without_enough_time_left() -> None:
    """A second round as short as the first would only repeat it: with less than
    `SECOND_AT_LEAST` budgets left per unknown pair, the findings stay as they were."""
    assert SECOND_AT_LEAST > 1
    toy = TOY_PACKAGE.assemble()
    corpus = build_corpus(toy, seeds=1, max_steps=200)
    first = [
        _unknown("gap", "none", "stuck_at_3", 0.9),
        _unknown("coin_name", "coin", "token", 0.9),
    ]
    assert second_round(toy, first, 1.0, None, corpus) == first
