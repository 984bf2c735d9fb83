"""The report a rules editor reads (issue 14, item 5): each witness as the readable play log
(the JSON kept folded away and in the files), a plain-language account of what differs and
what happens next, and the shortest witness the shrinking finds."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kernel.roles import AssembledGame
from solvers.checking.differences import Finding
from solvers.checking.explore import reading_variant
from solvers.checking.side_by_side import along
from tests.toy import PACKAGE as TOY_PACKAGE
from tools import explore_report
from tools.cli import commands as cli
from tools.explore_account import account
from tools.explore_report import write_report
from tools.playlog import narrate
from tools.registry import get_game

TOY = TOY_PACKAGE.assemble()
NOMONHAN = get_game("nomonhan")

PASS = {"type": "pass"}
ADD1 = {"type": "add", "amount": 1}
TAILS = {"type": "coin", "heads": False}
LONG = (PASS, PASS, ADD1, TAILS, PASS, PASS, ADD1, TAILS, PASS, ADD1, TAILS)

# Nomonhan, preset ja: JP's Kobayashi attacks two Soviet units and loses the roll; the retreat
# that follows is an initiative change (NOM-6.2), which ends the turn at once or only after
# the combat (AMB-NOM-6).
RETREAT = (
    {"to": "0305", "type": "move", "unit": "JP-KOB"},
    {"type": "end_phase"},
    {
        "combats": [
            {"attackers": ["JP-KOB"], "defenders": ["SU-36-149", "SU-9"], "support": False}
        ],
        "type": "declare",
    },
    {"attacker_hits": 0, "defender_hits": 2, "type": "roll"},
)


def _finding(
    game: AssembledGame[Any, Any], option: str, ra: str, rb: str, log: tuple[Any, ...], preset: str
) -> Finding:
    """A finding whose witness is where `log` leads under both readings."""
    cat = game.catalogue
    va = reading_variant(cat, preset, option, ra)
    vb = reading_variant(cat, preset, option, rb)
    w = along(game, va, vb, [game.action_from_json(a) for a in log], "guided play")
    assert w is not None
    clauses = next(o for o in cat.options if o.name == option).clauses
    return Finding(option, clauses, None, ra, rb, preset, "differ", w, "", 0.0)


def test_the_witness_is_shown_as_the_play_log_with_the_json_folded_away(tmp_path: Path) -> None:
    f = _finding(TOY, "gap", "none", "stuck_at_3", LONG, "plain")
    write_report(TOY, tmp_path, [f], [], [])
    page = (tmp_path / "index.html").read_text(encoding="utf-8")
    variant = reading_variant(TOY.catalogue, "plain", "gap", "none")
    lines = narrate(TOY, variant, LONG)
    assert lines[0] == "total 0" and "Add(amount=1)" in lines
    narrative = page.index("<pre class='playlog'>")
    assert page.index("\n".join(lines), narrative) == narrative + len("<pre class='playlog'>")
    # the JSON log: folded in a <details>, with the replayable files to download
    folded = page.index("<details class='json'>")
    assert narrative < folded
    assert page.index("{&quot;type&quot;: &quot;pass&quot;}") > folded
    assert "download>gap--none--stuck_at_3-a.json</a>" in page
    results = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    [entry] = results["options"]
    assert entry["witness"]["log"] == list(LONG)  # the JSON log is kept in results.json
    for name in entry["witness"]["logs"]:
        logged = json.loads((tmp_path / name).read_text(encoding="utf-8"))
        assert logged["actions"] == list(LONG)


def test_the_account_says_in_words_which_actions_one_reading_allows_and_why_not_the_other(
    tmp_path: Path,
) -> None:
    f = _finding(NOMONHAN, "combat_grouping", "many_to_many", "one_defender", RETREAT[:2], "ja")
    said = account(NOMONHAN, f)
    assert said[0] == "After 2 actions from the set-up, JP is to move, and the readings allow " + (
        "different actions."
    )
    assert said[1].startswith("Only under many_to_many, JP may play: JP: declares")
    assert said[2] == "Under one_defender, nothing is allowed that the other refuses."
    assert "What happens next" in said[3] and "Under one_defender the rules refuse it" in said[3]
    assert "NOM-9.7" in said[3]
    assert all("{" not in line for line in said)  # words, not JSON
    write_report(NOMONHAN, tmp_path, [f], [], [])
    page = (tmp_path / "index.html").read_text(encoding="utf-8")
    for line in said:
        assert f"<p class='account'>{line.replace('>', '&gt;')}</p>" in page
    results = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    assert results["options"][0]["witness"]["account"] == said


def test_the_account_of_an_action_that_leads_to_different_positions_names_what_changes() -> None:
    f = _finding(NOMONHAN, "initiative_change", "finish_combat", "immediate", RETREAT, "ja")
    assert f.witness is not None and f.witness.difference.kind == "result_of_action"
    said = account(NOMONHAN, f)
    assert "“JP: JP-KOB" in said[0] and "allowed by both readings" in said[0]
    assert said[1].startswith("Under finish_combat: initiative change (NOM-6.2)")
    assert said[2].startswith("Under immediate: initiative change (NOM-6.2)")
    assert "Turn 2 begins" in said[2] and "Turn 2 begins" not in said[1]
    assert "turn: 1 under finish_combat, 2 under immediate" in said[3]
    assert "current: set under finish_combat, none under immediate" in said[3]


def test_explore_shrinks_each_witness_and_the_report_says_from_what(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    long = _finding(TOY, "gap", "none", "stuck_at_3", LONG, "plain")

    def found(game: Any, option: Any, **kw: Any) -> list[Finding]:
        return [long]

    monkeypatch.setattr(explore_report, "differential", found)
    findings, _, _ = explore_report.explore(TOY, "gap", None, 1.0)
    [f] = findings
    assert f.witness is not None and len(f.witness.log) == 6 and f.witness.shrunk_from == 11
    write_report(TOY, tmp_path, findings, [], [])
    page = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert "6 actions, shrunk from 11" in page
    results = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    assert results["options"][0]["witness"]["actions"] == 6
    assert results["options"][0]["witness"]["shrunk_from"] == 11


def test_the_account_of_a_set_up_difference_names_what_differs_in_it() -> None:
    """AMB-NOM-3: the two scorings give the set-up different points (NOM-4.5, NOM-4.6)."""
    f = _finding(NOMONHAN, "scoring", "enemy_eliminated", "own_remaining", (), "ja")
    assert f.witness is not None and f.witness.difference.kind == "setup"
    [said] = account(NOMONHAN, f)
    assert said.startswith("The two readings set the game up differently, before any action: ")
    assert "points.JP: 0 under enemy_eliminated, 10 under own_remaining" in said


def test_each_reading_s_log_of_a_set_up_difference_replays_to_its_own_set_up(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """AMB-NOM-15 (NOM-9.19, NOM-9.28): where the readings set the game up differently (the
    Artillery's steps), each reading's log file records that reading's own set-up, so
    `wargame play --replay` replays both (reading A's position read under B is not B's)."""
    f = _finding(NOMONHAN, "artillery_rules", "ja", "generic", (), "ja")
    assert f.witness is not None and f.witness.difference.kind == "setup"
    write_report(NOMONHAN, tmp_path, [f], [], [])
    [entry] = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))["options"]
    finals = set()
    for name in entry["witness"]["logs"]:
        code = cli.main(["play", "nomonhan", "--replay", str(tmp_path / name), "--quiet"])
        capsys.readouterr()
        assert code == 0, name
        finals.add(json.dumps(json.loads((tmp_path / name).read_text())["final_state"]))
    assert len(finals) == 2  # the two set-ups differ: each log has its own
