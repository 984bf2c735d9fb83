"""Pairs settled and clauses accounted for at full size (issue 33, items 2 and 3): options no
rule reads proved equivalent by a static check; one steered search toward every clause no play
reached; every clause left unreached says why.

Every search runs on counts only (positions evaluated; `budget=None`).
"""

from __future__ import annotations

import ast
from typing import Any

import pytest

from kernel.game import CHANCE
from kernel.roles import AssembledGame
from kernel.variants import consultations
from solvers.checking import reach, unread
from solvers.checking.approach import Place, clause_places, option_places, with_callers
from solvers.checking.corpus import Corpus, build_corpus
from solvers.checking.explore import differential, reading_variant
from solvers.checking.steer import NODES
from solvers.checking.steer_corpus import STEERED, extend_corpus
from solvers.checking.steer_many import steer_many
from solvers.checking.steer_reach import steer_unreached
from solvers.checking.unreached import game_sources, prefixes, settle_unreached
from solvers.checking.unreached_why import docstring_reason, refusal_reason
from tests.toy import PACKAGE as TOY_PACKAGE
from tools.registry import get_game

SNC = get_game("snc1937")
NOMONHAN = get_game("nomonhan")
SHORT = build_corpus(NOMONHAN, seeds=2, max_steps=8)  # stops before the first combat
EMPTY = Corpus((), "games")

# SNC's options that choose data or presentation, or record a source's disagreement
UNREAD = (
    "japanese_colour",  # AMB-SNC-34, SNC-1.2.1
    "example_conflicts",
    "source_gaps",
    "yangtze_form",
)
# SNC's options no rule reads whose other reading describes a game the rules do not play
UNPLAYED = (
    ("city_list", "other_candidates"),  # AMB-SNC-17, SNC-4.3.1
    ("garrison_letters", "player_choice"),  # AMB-SNC-36, SNC-13.5
)


def _option(game: AssembledGame[Any, Any], name: str) -> Any:
    return next(o for o in game.catalogue.options if o.name == name)


@pytest.mark.parametrize("name", UNREAD)
def test_snc_options_no_rule_reads_are_equivalent_by_proof_amb_snc_34(name: str) -> None:
    """SNC-1.2.1 (japanese_colour) and the other data-only options: no module of SNC but its
    catalogue names them, so every pair of every preset is equivalent by the static proof,
    with no search."""
    for preset in SNC.catalogue.presets:
        found = unread.unread_findings(SNC, _option(SNC, name), preset)
        assert found
        for f in found:
            assert (f.verdict, f.witness, f.preset) == ("equivalent", None, preset)
            assert f.detail.startswith("proved by a static check") and name in f.detail


@pytest.mark.parametrize(("name", "reading"), UNPLAYED)
def test_snc_readings_not_implemented_are_listed_not_proved_amb_snc_17_36(
    name: str, reading: str
) -> None:
    """SNC-4.3.1 (city_list, AMB-SNC-17) and SNC-13.5 (garrison_letters, AMB-SNC-36): no rule
    reads either option, but their other reading (another city list; the Chinese player
    placing the letters) is a game the rules do not play, so the static proof must not call
    the pair equivalent: under every preset the pair is listed as not implemented, with the
    catalogue's reason, by the static check and by the explorer's searches alike, and it is
    not an unknown pair."""
    option = _option(SNC, name)
    why = option.reading(reading).unplayed
    assert why and reading not in {r.name for r in option.played()}
    for preset in SNC.catalogue.presets:
        proved = unread.unread_findings(SNC, option, preset)
        assert proved is not None
        searched = differential(SNC, option, preset=preset, budget=None, exhaustive_cap=1)
        for found in (proved, searched):
            [f] = [f for f in found if f.reading_b == reading]
            assert (f.verdict, f.witness, f.preset) == ("unplayed", None, preset)
            assert f.detail == f"not implemented: {why}"
            assert all(g.verdict != "equivalent" for g in found if g.reading_b == reading)


def test_the_static_proof_agrees_with_the_exhaustive_one_on_the_toy() -> None:
    """TOY-2 (`coin_name`, no rule reads it) is proved unread, as the exhaustive search proves
    the pair equivalent; TOY-1 (`gap`, whose readings differ) is not."""
    toy = TOY_PACKAGE.assemble()
    assert unread.unread_findings(toy, _option(toy, "coin_name"))
    [f] = differential(toy, _option(toy, "coin_name"), budget=None)
    assert f.verdict == "equivalent" and "every one of the" in f.detail
    assert unread.unread_findings(toy, _option(toy, "gap")) is None


def test_an_option_the_rules_read_is_never_proved_unread_snc_0_0_4() -> None:
    """SNC-0.0.4 (crt_5to1_six) is read by the CRT lookup: no proof. Across every option of
    SNC, a proof is given only where no statement of its rules names the option."""
    assert unread.unread_option(SNC, "crt_5to1_six") is None
    files = game_sources(SNC)
    for o in SNC.catalogue.options:
        if unread.unread_option(SNC, o.name) is not None:
            assert not option_places(files, o.name), o.name


@pytest.mark.parametrize(
    ("source", "opens"),
    [
        ("v.reading(name)", True),  # a reading asked by a computed name
        ("v.is_(n, 'x')", True),
        ("dict(v.choices)", True),  # the readings wholesale
        ("v.to_json()", True),
        ("v.reading('odds_limits')", False),
        ("v.is_('odds_limits', 'x')", False),
    ],
)
def test_a_reading_asked_other_than_by_its_written_name_defeats_the_proof(
    source: str, opens: bool
) -> None:
    """The static proof holds only where the rules ask for readings by written names."""
    assert unread._asks_openly(ast.parse(source)) is opens


def test_the_catalogue_is_found_through_an_alias_and_other_uses_are_seen() -> None:
    """`option` imported under another name still defines the option; a string, a name, an
    attribute or a keyword elsewhere names it."""
    defining = ast.parse("from kernel.variants import option as _o\n_o('city_list', None)")
    assert unread._defines(defining, "city_list")
    assert not unread._defines(ast.parse("f('city_list')"), "city_list")
    for use in ("x = 'city_list'", "city_list", "v.city_list", "f(city_list=1)"):
        assert any(True for _ in unread._names(ast.parse(use), "city_list")), use
    assert not any(True for _ in unread._names(ast.parse("'city'"), "city_list"))


def _moves(game: AssembledGame[Any, Any], state: Any) -> list[Any]:
    if game.to_move(state) == CHANCE:
        return [x for x, _ in game.chance_outcomes(state)]
    return list(game.legal_actions(state))


def test_one_steered_search_reaches_nom_9_12_and_nom_9_24_together() -> None:
    """NOM-9.12 and NOM-9.24 (combat damage, repeated retreats): a corpus cut off before any
    combat never applies them; one search toward both reaches each within 300 positions, and
    the step from the position it found applies the clause, as coverage measures it."""
    files = game_sources(NOMONHAN)
    sites = reach.sites_of(files, prefixes(NOMONHAN))
    targets = {c: clause_places(sites, [c]) for c in ("NOM-9.12", "NOM-9.24")}
    many = steer_many(NOMONHAN, SHORT, "ja", targets, files, nodes=300)
    assert set(many.reached) == set(targets) and many.evaluated <= 300
    assert all(many.best[c] == 0 for c in targets)
    for clause, r in many.reached.items():
        state = NOMONHAN.initial_state(NOMONHAN.presets()["ja"])
        for action in r.actions:
            state = NOMONHAN.apply(state, action)
        assert NOMONHAN.state_to_json(state) == NOMONHAN.state_to_json(r.state)

        def step(at: Any = state) -> None:
            for action in _moves(NOMONHAN, at):
                NOMONHAN.apply(at, action)

        assert clause in reach.reached(sites, reach.lines_run(files, step))


def test_the_joint_search_stops_at_its_count_and_says_how_close_it_came() -> None:
    """With two positions to evaluate, the search stops at its count, reaches nothing that
    needs combat (NOM-9.24), and reports the closest approach level it saw."""
    files = game_sources(NOMONHAN)
    sites = reach.sites_of(files, prefixes(NOMONHAN))
    many = steer_many(
        NOMONHAN, SHORT, "ja", {"NOM-9.24": clause_places(sites, ["NOM-9.24"])}, files, nodes=2
    )
    assert (many.evaluated, many.limit, dict(many.reached)) == (2, NODES, {})
    assert many.best["NOM-9.24"] > 0


def test_every_snc_clause_left_unreached_says_why_snc_6_2_4_and_snc_10_0_5() -> None:
    """SNC-6.2.4 (an example of a legal stack) is cited only in the docstring of the stacking
    check, and SNC-10.0.5's one citation refuses an attack with no attacker (legal play never
    offers one): each reason says so, and Z3's verdict carries it."""
    why: dict[str, str] = {}
    clauses = ["SNC-6.2.4", "SNC-10.0.5"]
    reached, left = steer_unreached(SNC, EMPTY, clauses, nodes=0, why=why)
    assert (reached, left) == ([], clauses)
    assert "docstring of overstacked" in why["SNC-6.2.4"]
    assert "refuses an action" in why["SNC-10.0.5"]
    settled = settle_unreached(SNC, clauses, None, None, why=why)
    assert settled and all(why[u.clause] in u.detail for u in settled)


def test_reasons_are_given_only_where_they_hold_snc_10_4_2_1() -> None:
    """SNC-10.4.2.1 (the concentric shift) is applied by a statement that adds a shift: no
    refusal, and a statement cites it, so neither reason is given; SNC-6.2.4 (an example) is
    cited in a docstring only."""
    sites = reach.sites_of(game_sources(SNC), prefixes(SNC))
    assert refusal_reason(sites, "SNC-10.4.2.1") == ""
    assert docstring_reason(sites, "SNC-10.4.2.1") == ""
    assert docstring_reason(sites, "SNC-6.2.4")
    assert refusal_reason(sites, "SNC-6.2.4") == ""


def test_the_corpus_extended_by_steered_play_asks_for_an_option_nom_9_12() -> None:
    """NOM-9.12 (damage_allocation): a corpus cut off before any combat never asks for it; the
    corpus extended by one steered search has a game whose actions replay from the set-up to
    a position where the rules ask for it, and the pair then differs from that corpus
    position alone (no per-pair steering, no guided game), with a witness that replays."""
    assert SHORT.asked("damage_allocation", "ja") == 0
    extended = extend_corpus(NOMONHAN, SHORT, ["damage_allocation"], nodes=300)
    [g] = [g for g in extended.games if g.ended == STEERED and g.preset == "ja"]
    state = NOMONHAN.initial_state(NOMONHAN.presets()["ja"])
    for action in g.actions:
        state = NOMONHAN.apply(state, action)
    [p] = g.positions
    assert NOMONHAN.state_to_json(state) == NOMONHAN.state_to_json(p.state)
    with consultations() as counter:
        for action in _moves(NOMONHAN, state):
            NOMONHAN.apply(state, action)
    assert counter["damage_allocation"]
    [f] = differential(
        NOMONHAN,
        _option(NOMONHAN, "damage_allocation"),
        preset="ja",
        budget=None,
        games=0,
        exhaustive_cap=1,
        corpus=extended,
        steer_nodes=0,
    )
    assert f.verdict == "differ" and f.witness is not None
    va = reading_variant(NOMONHAN.catalogue, "ja", f.option, f.reading_a)
    vb = reading_variant(NOMONHAN.catalogue, "ja", f.option, f.reading_b)
    a, b = NOMONHAN.initial_state(va), NOMONHAN.initial_state(vb)
    for data in f.witness.log:
        action = NOMONHAN.action_from_json(data)
        a, b = NOMONHAN.apply(a, action), NOMONHAN.apply(b, action)  # legal under both
    assert NOMONHAN.state_to_json(a) == f.witness.state


def test_an_option_the_corpus_already_asks_for_adds_no_steered_game() -> None:
    """Only options no corpus position of a preset asked for are sought: with none, the
    corpus comes back as it was."""
    assert extend_corpus(NOMONHAN, SHORT, [], nodes=300) is SHORT


def test_a_place_whose_function_did_not_run_scores_by_its_nearest_call() -> None:
    """The call-graph approach level: a place in a function that did not run is as far as
    its own blocks plus the nearest call of its function; once the function runs, its callers
    no longer count."""
    call = Place("g.py", frozenset({30}), (range(25, 40),))
    place = Place("f.py", frozenset({10}), (range(5, 20),), (call,))
    assert place.distance({}) == 2 + 2
    assert place.distance({"g.py": {26}}) == 2 + 1  # the caller's function ran
    assert place.distance({"g.py": {30}}) == 2 + 0  # the call itself ran
    assert place.distance({"f.py": {6}, "g.py": set()}) == 1  # its own function ran
    assert place.distance({"f.py": {10}}) == 0


def test_the_concentric_option_is_approached_through_its_call_snc_10_4_2_1() -> None:
    """SNC-10.4.2.1 (AMB-SNC-27, `concentric`): the rules ask for the option inside the
    function that tests a concentric attack; its places carry the call of that function in
    the column shifts, so play that comes closer to that call scores better."""
    files = game_sources(SNC)
    places = with_callers(option_places(files, "concentric"), files)
    assert places
    calls = [c for p in places for c in p.callers]
    assert calls and all(c.path.endswith(".py") for c in calls)
    sites = reach.sites_of(files, prefixes(SNC))
    [site] = [s for s in sites.sites if "SNC-10.4.2.1" in s.clauses]
    assert any(c.path == site.path and min(c.lines) < min(site.lines) for c in calls)
