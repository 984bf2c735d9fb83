"""The ambiguity explorer and the gap search (`wargame explore`), and pictures of witnesses.

Every witness must replay under the Python rules and show the difference it claims; an
equivalent reading pair is proved equivalent; a planted gap is found.

Every search here that asks for a witness or a proof runs on deterministic limits only
(`budget=None`: guided games, steps, Z3's depth and rlimit, the exhaustive cap), never on a
wall-clock budget, so its verdict is the same on a loaded machine (issue 14, item 4).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest

from kernel.errors import ImpossiblePosition
from kernel.playout import play
from kernel.roles import AssembledGame
from solvers.checking import game_proofs, model_search
from solvers.checking.differences import Finding, position_key, rebind
from solvers.checking.explore import differential
from solvers.checking.explore_model import model_differential
from solvers.checking.gaps import no_action_and_endless, stuck_readings
from solvers.checking.model_search import model_of
from solvers.checking.unreached import settle_unreached
from solvers.smt import SolverFailure
from specs.nomonhan.formal import verification as nom_verification
from tests.readings import rebound
from tests.sizes import FULL
from tests.toy import PACKAGE as TOY_PACKAGE
from tools.cli import commands as cli
from tools.explore_report import write_report
from tools.game_logs import read_log
from tools.playlog import replay_log
from tools.registry import game_names, get_game
from tools.testing.witnesses import assert_witness_holds

NOMONHAN = get_game("nomonhan")

GAMES = 12  # guided games per reading pair: Nomonhan's witnesses come within the first eight
DEPTH = 2  # Z3's depth for a witness: the Nomonhan differences below are two actions in
REACH_DEPTH = 3  # Z3's depth for clause reach: NOM-9.21 and NOM-9.22 take effect three in


def _option(game: AssembledGame[Any, Any], name: str) -> Any:
    return next(o for o in game.catalogue.options if o.name == name)


def _with_model(option: str, *, depth: int = DEPTH, preset: str | None = None) -> list[Finding]:
    """The differential search on a Nomonhan option, Z3 over the symbolic model included, on
    deterministic limits only."""
    return differential(
        NOMONHAN,
        _option(NOMONHAN, option),
        preset=preset,
        budget=None,
        games=GAMES,
        depth=depth,
        models=nom_verification.symbolic_model,
    )


@pytest.mark.parametrize(
    "option", ["combat_grouping", "initiative_change", "damage_allocation", "retreat_repeat"]
)
def test_nom_witnesses_replay_and_show_the_difference(option: str) -> None:
    """NOM-9.7, NOM-6.2, NOM-9.12, NOM-9.24: a witness is found by guided play from the setup,
    replays step by step under both readings, and shows the claimed difference."""
    findings = differential(NOMONHAN, _option(NOMONHAN, option), budget=None, games=GAMES)
    assert findings and all(f.verdict == "differ" for f in findings), findings
    for f in findings:
        assert_witness_holds(NOMONHAN, f)


@pytest.mark.parametrize("option", ["combat_grouping", "must_be_attacked"])
def test_nom_z3_finds_the_shortest_witness_and_it_replays(option: str) -> None:
    """NOM-9.7, NOM-9.3: Z3 over the symbolic model finds a difference two actions from the
    setup (guided play needs more); realised as actions of the rules, the log replays under
    both readings and shows the difference."""
    findings = _with_model(option)
    assert findings
    for f in findings:
        assert f.verdict == "differ" and f.witness is not None
        assert f.witness.found_by.startswith("Z3 over the symbolic model"), f.witness.found_by
        assert len(f.witness.log) <= 2
        assert_witness_holds(NOMONHAN, f)


def test_nom_reading_the_model_does_not_encode_falls_back_to_play() -> None:
    """NOM-9.12: who allocates damage is not a variable of the model (it has no side to
    move), so the model cannot tell the readings apart; guided play finds the witness."""
    [f] = _with_model("damage_allocation")
    assert f.verdict == "differ" and f.witness is not None
    assert f.witness.found_by == "guided play"
    assert "does not encode this option" in f.detail
    assert_witness_holds(NOMONHAN, f)


def test_nom_readings_of_a_rule_switched_off_are_proved_equivalent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """NOM-OPT.5, AMB-NOM-17: under the JA preset the optional demolition is off, so what a
    demolished pontoon bridge still carries cannot matter. With the game's own proof switched
    off (it comes first otherwise: `tests/solvers/test_explore_pairs.py`), Z3 proves it on the
    model (the demolish schema is dead, so `demolished` stays false in every reachable state),
    and guided play finds no difference either."""
    monkeypatch.setattr(game_proofs, "reading_proofs", lambda game: {})
    [f] = _with_model("demolition_effect", preset="ja")
    assert f.verdict == "equivalent" and f.witness is None
    assert f.moot and "moot under ja" in f.detail  # the rules never ask for it there
    assert "proved on the symbolic model" in f.detail and "demolished" in f.detail
    # Under EN the demolition is standard: the model shows no such proof (bounded model
    # checking is not needed to see that: depth 0).
    cat = NOMONHAN.catalogue
    en = model_of(nom_verification.symbolic_model, cat.preset("en"))
    crossing = model_of(
        nom_verification.symbolic_model, cat.variant("en", {"demolition_effect": "crossing_only"})
    )
    assert en is not None and crossing is not None
    assert model_differential(en.system, crossing.system, max_depth=0).verdict != "equivalent"


@pytest.mark.skipif(not FULL, reason="about 90 s of Z3: run at full size by make bench")
def test_amb_nom_19_disturbed_combats_are_proved_not_to_arise_under_ja() -> None:
    """NOM-9.8, NOM-9.30, AMB-NOM-19: the two readings of a disturbed pending combat differ on
    the model only in states where a pending combat has lost contact; the invariant that none
    has (proved under JA, NOM-P-PENDING-IN-CONTACT) makes them equivalent there."""
    [f] = _with_model("disturbed_combats", preset="ja", depth=0)
    assert f.verdict == "equivalent" and f.witness is None, f.detail
    assert "proved invariants hold" in f.detail


def test_a_solver_failure_costs_only_the_model_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """A failing solver never stops the explorer: the pair falls back to guided play, and the
    finding says what failed."""

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise SolverFailure("z3 failed: injected")

    monkeypatch.setattr(model_search, "model_differential", broken)
    [f] = _with_model("combat_grouping")
    assert f.verdict == "differ" and f.witness is not None
    assert f.witness.found_by == "guided play"
    assert "failed: z3 failed: injected" in f.detail


def test_equivalent_readings_are_proved_equivalent() -> None:
    """A reading pair that changes nothing is proved equivalent by comparing every reachable
    position (the toy game's state space is small enough to enumerate)."""
    toy = TOY_PACKAGE.assemble()
    [f] = differential(toy, _option(toy, "coin_name"), budget=None)
    assert f.verdict == "equivalent" and f.witness is None
    assert "every one of the" in f.detail


def test_unknown_says_whether_the_situation_an_option_governs_ever_arose() -> None:
    """With exhaustive search cut off, guided play cannot prove anything; its detail says
    that the rules never asked for `coin_name` (nothing depends on it), while the gap option
    is asked for and differs."""
    toy = TOY_PACKAGE.assemble()
    [f] = differential(toy, _option(toy, "coin_name"), budget=None, games=20, exhaustive_cap=1)
    assert f.verdict == "unknown"
    assert "never asked for this option's reading" in f.detail
    assert f.limit == "positions, games" and "the limit of 20 games" in f.detail
    [g] = differential(toy, _option(toy, "gap"), budget=None, games=20, exhaustive_cap=1)
    assert g.verdict == "differ" and g.witness is not None
    assert g.witness.found_by == "guided play"
    assert_witness_holds(toy, g)


def test_a_spent_budget_stops_every_search_and_the_finding_says_so() -> None:
    """With a wall-clock budget (what `wargame explore --budget` sets), a search stops at it
    as at any other limit; here one already spent: nothing is searched, the verdict is
    unknown, and the finding names the budget as the limit hit."""
    toy = TOY_PACKAGE.assemble()
    [f] = differential(toy, _option(toy, "gap"), budget=0.0)
    assert f.verdict == "unknown" and f.witness is None
    assert f.limit == "budget" and "wall-clock budget of 0 s ran out" in f.detail


def test_differing_readings_in_a_small_game_get_an_exhaustive_witness() -> None:
    """Exhaustive search finds the shortest witness: the planted gap at total 3."""
    toy = TOY_PACKAGE.assemble()
    [f] = differential(toy, _option(toy, "gap"), budget=None)
    assert f.verdict == "differ" and f.witness is not None
    assert f.witness.found_by == "exhaustive search"
    assert_witness_holds(toy, f)


def test_planted_gap_is_found_with_a_replayable_log() -> None:
    """A test-only variant whose side to move has no action at total 3 (an obligation nothing
    satisfies) is reported as a candidate gap, with its clauses and a log that reaches it."""
    toy = TOY_PACKAGE.assemble()
    gaps = no_action_and_endless(toy, "gapped", games=10, max_steps=100)
    found = [g for g in gaps if g.kind == "no_action"]
    assert found, gaps
    gap = found[0]
    assert "TOY-1" in gap.clauses
    state = toy.initial_state(toy.presets()["gapped"])
    for data in gap.log:
        state = toy.apply(state, toy.action_from_json(data))
    assert toy.to_move(state) is not None and not toy.legal_actions(state)
    plain = no_action_and_endless(toy, "plain", games=10, max_steps=100)
    assert all(g.kind != "no_action" for g in plain)


def test_nom_clauses_no_play_reached_are_settled_on_the_model() -> None:
    """NOM-9.21 (Artillery range) is reached by Z3 three actions in, with a log the rules
    replay; NOM-OPT.5 (the demolition's effect) is proved never to apply under JA, where the
    optional rule is off, and is reached under EN."""
    found = {
        (u.clause, u.preset): u
        for u in settle_unreached(
            NOMONHAN,
            ["NOM-9.21", "NOM-OPT.5"],
            nom_verification.symbolic_model,
            None,
            depth=REACH_DEPTH,
        )
    }
    reach = found["NOM-9.21", "ja"]
    assert reach.verdict == "reached" and 0 < len(reach.log) <= 4, reach
    state = NOMONHAN.initial_state(NOMONHAN.presets()["ja"])
    for data in reach.log:
        state = NOMONHAN.apply(state, NOMONHAN.action_from_json(data))
    assert NOMONHAN.state_to_json(state) == reach.state
    assert found["NOM-OPT.5", "ja"].verdict == "never"
    assert found["NOM-OPT.5", "en"].verdict == "reached"


def test_the_unreached_clauses_share_one_budget() -> None:
    """All the checks of the clauses no play reached share `total_budget`: with none left,
    each is left a candidate that names the budget as its limit, and none runs Z3 past it."""
    out = settle_unreached(
        NOMONHAN,
        ["NOM-9.21", "NOM-9.22"],
        nom_verification.symbolic_model,
        60.0,
        depth=REACH_DEPTH,
        total_budget=0.0,
    )
    assert len(out) == 4  # two clauses under two presets
    assert {(u.verdict, u.limit) for u in out} == {("candidate", "budget")}, out


def test_an_obligation_no_action_meets_is_found_under_a_reading_no_preset_uses() -> None:
    """NOM-9.2, NOM-9.3, AMB-NOM-9 (b): with one defender per combat, an attacker obliged to
    attack next to two enemy units that must both be attacked has no legal declaration. The
    differential search reaches that position; the gap search reports it, with a log that
    reaches it under that reading."""
    findings = _with_model("combat_grouping")
    [gap] = stuck_readings(NOMONHAN, findings)
    assert gap.kind == "no_action" and gap.reading == ("combat_grouping", "one_defender")
    state = NOMONHAN.initial_state(gap.variant(NOMONHAN))
    for data in gap.log:
        state = NOMONHAN.apply(state, NOMONHAN.action_from_json(data))
    assert NOMONHAN.to_move(state) == "JP" and not NOMONHAN.legal_actions(state)
    # the clauses come from the position's unsat core, not a fixed list: the attacker fights
    # once (NOM-9.4) in a one-defender combat (NOM-9.7 under AMB-NOM-9 b), and both defenders
    # must be attacked (NOM-9.3); its own obligation to attack (NOM-9.2) is no part of it
    core = NOMONHAN.no_action_clauses(state)
    assert set(core) == {"NOM-9.3", "NOM-9.4", "NOM-9.7"}, core
    assert set(core) <= set(gap.clauses) and "NOM-9.2" not in gap.clauses
    plain = NOMONHAN.initial_state(NOMONHAN.presets()["ja"])
    for data in gap.log:
        plain = NOMONHAN.apply(plain, NOMONHAN.action_from_json(data))
    assert NOMONHAN.legal_actions(plain)  # the preset's reading has a declaration there


def test_nom_5_2_endless_play_is_found() -> None:
    """NOM-5.2: passive play repeats a position; the gap search reports it with the clauses."""
    gaps = no_action_and_endless(NOMONHAN, "ja", games=2, max_steps=1500)
    endless = [g for g in gaps if g.kind == "endless"]
    assert endless and "NOM-5.2" in endless[0].clauses


def test_report_has_pictures_logs_and_json(tmp_path: Path) -> None:
    """The report: index.html, results.json, one SVG per witness that parses and shows every
    unit on the map, and logs that `wargame play --replay` accepts."""
    findings = differential(
        NOMONHAN, _option(NOMONHAN, "combat_grouping"), budget=None, games=GAMES
    )
    gaps = no_action_and_endless(NOMONHAN, "ja", games=2, max_steps=1500)
    unreached = settle_unreached(  # one clause reached one action in under EN, one unknown
        NOMONHAN,
        ["NOM-OPT.5", "NOM-X.1"],
        nom_verification.symbolic_model,
        None,
        depth=REACH_DEPTH,
    )
    index = write_report(NOMONHAN, tmp_path, findings, gaps, unreached)
    page = index.read_text(encoding="utf-8")
    assert "combat_grouping" in page and "<img" in page
    results = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    entry = results["options"][0]
    assert entry["verdict"] == "differ" and entry["clauses"]
    assert entry["limit"] == "positions, games"  # the exhaustive cap, then guided play's games
    assert all("limit" in u for u in results["unreached"])
    svg = ElementTree.parse(tmp_path / entry["witness"]["picture"]).getroot()
    pieces = {e.get("data-piece") for e in svg.iter() if e.get("data-piece")}
    state = NOMONHAN.state_from_json(findings[0].witness.state)  # type: ignore[union-attr]
    assert {u.id for u in state.units} <= pieces
    reached = [u for u in results["unreached"] if u["verdict"] == "reached"]
    assert {(u["clause"], u["preset"]) for u in reached} == {("NOM-OPT.5", "en")}
    assert {u["clause"] for u in results["unreached"] if u["verdict"] == "candidate"} == {"NOM-X.1"}
    assert "Clauses no play reached" in page
    logs = [*entry["witness"]["logs"], *(u["log"] for u in reached)]
    for name in logs:
        log = read_log(NOMONHAN, json.loads((tmp_path / name).read_text(encoding="utf-8")))
        result = replay_log(NOMONHAN, log, None)  # raises on an illegal action or another end
        # A witness stops at its position; under one_defender it is one where JP is stuck.
        expected = {"position": "reached the logged position", "no_action": "gap:"}
        assert result.report().startswith(expected[log.stop])
    assert results["gaps"] and (tmp_path / results["gaps"][0]["log"]).exists()


def test_render_cli_draws_every_unit_and_marks_provisional_data(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`wargame render`: an SVG that parses, with every unit (on the map or off it), hex
    numbers, the rivers and bridges, and provisional data marked."""
    state_file = tmp_path / "s.json"
    initial = NOMONHAN.initial_state(NOMONHAN.presets()["en"])
    state_file.write_text(json.dumps(NOMONHAN.state_to_json(initial)), encoding="utf-8")
    out = tmp_path / "s.svg"
    assert cli.main(["render", "nomonhan", str(state_file), "-o", str(out)]) == 0
    root = ElementTree.parse(out).getroot()
    pieces = {e.get("data-piece") for e in root.iter() if e.get("data-piece")}
    assert {u.id for u in NOMONHAN.rules.data.units} <= pieces  # type: ignore[attr-defined]
    hexes = {e.get("data-hex") for e in root.iter() if e.get("data-hex")}
    assert {"0101", "0308", "0809"} <= hexes
    edges = {e.get("data-edge") for e in root.iter() if e.get("data-edge")}
    assert "0207/0308" in edges  # the pontoon bridge (NOM-8.5)
    text = out.read_text(encoding="utf-8")
    # provisional data marked: values the text does not give, the river's provisional course
    assert 'font-style="italic"' in text and 'stroke-dasharray="6,5"' in text
    assert "Provisional (not in the rules text): grid (columns, rows)" in text
    assert cli.main(["render", "nomonhan", str(tmp_path / "missing.json"), "-o", str(out)]) == 2


def test_explore_cli_rejects_unknown_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["explore", "nomonhan", "no_such_option"]) == 2
    assert "OPTION" in capsys.readouterr().err


def test_rebind_keeps_the_position() -> None:
    """Reading a position under another reading keeps it; what derives from the reading
    (here the points of a one-step Artillery read as a two-step one, NOM-4.5, NOM-4.6) is
    derived anew, not copied, so the strict codec accepts the rebound state."""
    s = NOMONHAN.initial_state(NOMONHAN.presets()["ja"])
    tie = NOMONHAN.catalogue.variant("ja", {"tie": "draw"})
    t = rebind(NOMONHAN, s, tie)
    assert (
        position_key(NOMONHAN, s) == position_key(NOMONHAN, t)
        and t.variant.reading("tie") == "draw"
    )
    en = NOMONHAN.presets()["en"]
    generic = rebind(NOMONHAN, s, en)
    before, after = NOMONHAN.state_to_json(s), NOMONHAN.state_to_json(generic)
    assert generic.variant == en
    assert {k for k in before if before[k] != after[k]} == {"variant", "points"}
    assert after["points"] != before["points"]
    # Copying the derived points instead would be refused (NOM-4.5, NOM-4.6).
    copied = {**after, "points": before["points"]}
    with pytest.raises(ImpossiblePosition):
        NOMONHAN.state_from_json(copied)
    assert NOMONHAN.state_from_json(after) == generic


@pytest.mark.parametrize("name", game_names())
def test_rebind_reads_every_game_through_its_own_codec(name: str) -> None:
    """Every game: a position from play, rebound to each reading of each option that keeps
    it possible, is the same position and round-trips through the game's strict codec."""
    game = get_game(name)
    preset = game.catalogue.default_preset
    start = game.initial_state(game.presets()[preset])
    state = play(game, start, random.Random(1), max_steps=40).final
    assert rebind(game, state, state.variant) == state
    count = 0
    for variant, other in rebound(game, preset, state):
        count += 1
        assert other.variant == variant
        assert game.state_from_json(game.state_to_json(other)) == other
    assert count


def test_rks_render_draws_the_area_map_with_every_area_and_unit(tmp_path: Path) -> None:
    """RKS-2.1.2: the area map has the twelve Stalingrad Areas and the two Rears, with control
    and every unit (in an Area or off the map), the layout marked provisional."""
    rk = get_game("rattenkrieg")
    state = rk.initial_state(rk.presets()["standard"])
    state = play(rk, state, random.Random(2), max_steps=120).final
    out = tmp_path / "r.svg"
    path = tmp_path / "r.json"
    path.write_text(json.dumps(rk.state_to_json(state)), encoding="utf-8")
    assert cli.main(["render", "rattenkrieg", str(path), "-o", str(out)]) == 0
    root = ElementTree.parse(out).getroot()
    areas = {e.get("data-area") for e in root.iter() if e.get("data-area")}
    assert len(areas) == 14
    pieces = {e.get("data-piece") for e in root.iter() if e.get("data-piece")}
    assert {u.id for u in state.units} <= pieces
    assert 'stroke-dasharray="5,3"' in out.read_text(encoding="utf-8")
