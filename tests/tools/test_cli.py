"""The `wargame` command, run in-process: outputs, exit codes, and errors as one JSON object."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from kernel.wire import MAX_INPUT_BYTES
from specs.nomonhan.data.loader import DATA_FILE
from specs.nomonhan.rules.state import Phase
from tests.nomonhan.positions import GAME, JP_3TK, JP_4TK, JP_KOB, SU_36, SU_ART, position
from tests.toy import PACKAGE as TOY_PACKAGE
from tests.toy.doubles import WholeToy
from tools import playlog
from tools.cli import commands as cli
from tools.cli import data_verb, play_verbs, position_verbs
from tools.registry import get_game

ROOT = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    return json.loads(out)


def error_of(capsys: pytest.CaptureFixture[str], *argv: str, code: int = 2) -> dict[str, Any]:
    """Run a command that must fail: its exit code, and exactly one JSON object on stderr."""
    got, _, err = run(capsys, *argv)
    assert got == code, err
    assert "Traceback" not in err
    obj = json.loads(err)  # one JSON document, nothing else
    assert isinstance(obj, dict) and {"error", "message"} <= set(obj)
    assert obj.get("clauses") or obj.get("field"), obj
    return obj


def write(tmp_path: Path, name: str, data: Any) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data) if not isinstance(data, str) else data, encoding="utf-8")
    return str(path)


def initial_state(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> tuple[str, Any]:
    state = run_json(capsys, "new", "nomonhan", "--variant", "ja")
    return write(tmp_path, "state.json", state), state


def combat_position(tmp_path: Path) -> str:
    """JP-KOB in 0403 next to SU-36-149 in 0303, in the Initiative Combat Phase."""
    state = position(
        {JP_KOB: "0403", SU_36: "0303", SU_ART: "0204", JP_3TK: "0606", JP_4TK: "0607"},
        phase=Phase.IP_COMBAT,
    )
    return write(tmp_path, "combat.json", GAME.state_to_json(state))


# --- games, new, legal, apply ------------------------------------------------------------------


def test_games_lists_nomonhan_with_title_and_presets(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "games", "--json")
    (game,) = [g for g in data["games"] if g["name"] == "nomonhan"]
    assert game["title"] == "Battle of Nomonhan"
    assert game["presets"] == ["en", "ja"]
    code, out, _ = run(capsys, "games")
    assert code == 0 and "nomonhan" in out and "en, ja" in out


def test_new_prints_the_canonical_initial_state(capsys: pytest.CaptureFixture[str]) -> None:
    """Turn 1 starts with the Japanese initiative (NOM-6.1)."""
    code, out, _ = run(capsys, "new", "nomonhan", "--variant", "en", "--option", "tie=soviet")
    assert code == 0
    state = json.loads(out)
    assert out.strip() == json.dumps(state, sort_keys=True, ensure_ascii=False)
    assert state["format"] == "wargame-kernel/state" and state["turn"] == 1
    assert state["initiative"] == "JP"
    assert state["variant"]["options"]["tie"] == "soviet"
    assert state["variant"]["preset"] is None  # an override changed a reading


def test_new_apply_legal_round_trip(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path, state = initial_state(capsys, tmp_path)
    legal = run_json(capsys, "legal", "nomonhan", path)
    assert legal["to_move"] == "JP" and legal["actions"]
    action = legal["actions"][0]
    nxt = run_json(capsys, "apply", "nomonhan", path, json.dumps(action))
    assert nxt["moved"] == [action["unit"]]
    # the same action from a file, and the state from stdin
    action_path = write(tmp_path, "action.json", action)
    sys_stdin = sys.stdin
    try:
        sys.stdin = io.StringIO(json.dumps(state))
        again = run_json(capsys, "apply", "nomonhan", "-", action_path)
    finally:
        sys.stdin = sys_stdin
    assert again == nxt
    # the printed state reads back and lists the next actions
    nxt_path = write(tmp_path, "next.json", nxt)
    assert run_json(capsys, "legal", "nomonhan", nxt_path)["to_move"] == "JP"


def test_legal_for_a_side_not_to_move_is_empty(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path, _ = initial_state(capsys, tmp_path)
    assert run_json(capsys, "legal", "nomonhan", path, "--side", "SU") == {
        "to_move": "JP",
        "actions": [],
    }
    assert run_json(capsys, "legal", "nomonhan", path, "--side", "JP")["actions"]
    assert error_of(capsys, "legal", "nomonhan", path, "--side", "XX")["field"] == "--side"


def test_legal_in_a_combat_phase_lists_declarations(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The attacker declares every combat of the phase at once (NOM-9.8); a unit in an enemy
    ZOC must attack (NOM-9.2)."""
    legal = run_json(capsys, "legal", "nomonhan", combat_position(tmp_path))
    assert legal["to_move"] == "JP"
    assert legal["actions"] == [
        {
            "type": "declare",
            "combats": [{"attackers": [JP_KOB], "defenders": [SU_36], "support": False}],
        }
    ]


def test_legal_at_a_dice_roll_lists_exact_chance_outcomes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Each side's hits are rolled with exact probabilities (NOM-9.9, NOM-9.11)."""
    path = combat_position(tmp_path)
    declare = run_json(capsys, "legal", "nomonhan", path)["actions"][0]
    rolled = run_json(capsys, "apply", "nomonhan", path, json.dumps(declare))
    legal = run_json(capsys, "legal", "nomonhan", write(tmp_path, "roll.json", rolled))
    assert legal["to_move"] == "chance" and "actions" not in legal
    assert all(o["action"]["type"] == "roll" for o in legal["outcomes"])
    assert sum(Fraction(o["probability"]) for o in legal["outcomes"]) == 1
    assert all("/" in o["probability"] for o in legal["outcomes"])


# --- bad input ---------------------------------------------------------------------------------


def test_altered_legal_actions_are_refused_with_clauses_or_field(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A hex off the map breaks NOM-2.4; a real unit that may not move now or cannot reach the
    hex breaks NOM-8.1; an unknown unit id is a bad field."""
    path, _ = initial_state(capsys, tmp_path)
    actions = run_json(capsys, "legal", "nomonhan", path)["actions"]
    moves = [a for a in actions if a["type"] == "move"]
    listed = {(a["unit"], a["to"]) for a in moves}
    for i, action in enumerate(moves):
        kind = i % 4
        if kind == 0:
            altered, want = {**action, "to": "0999"}, ("clauses", "NOM-2.4")
        elif kind == 1:
            altered, want = {**action, "unit": SU_36}, ("clauses", "NOM-8.1")
        elif kind == 2:
            altered, want = {**action, "unit": "XX-NOPE"}, ("field", "action.unit")
        else:
            far = next(
                h
                for h in ("0101", "0102", "0109", "0801", "0809")
                if (action["unit"], h) not in listed
            )
            altered, want = {**action, "to": far}, ("clauses", "NOM-8.1")
        err = error_of(capsys, "apply", "nomonhan", path, json.dumps(altered))
        key, value = want
        if key == "clauses":
            assert err["error"] == "illegal_action" and value in err["clauses"], err
        else:
            assert err["error"] == "invalid_input" and err["field"] == value, err


def test_altered_declaration_is_refused_with_clauses(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A defender out of every attacker's ZOC (NOM-9.6) or a missing obliged attack (NOM-9.2)."""
    path = combat_position(tmp_path)
    declare = run_json(capsys, "legal", "nomonhan", path)["actions"][0]
    wrong = {**declare, "combats": [{**declare["combats"][0], "defenders": [SU_ART]}]}
    err = error_of(capsys, "apply", "nomonhan", path, json.dumps(wrong))
    assert err["error"] == "illegal_action" and "NOM-9.6" in err["clauses"]
    err = error_of(capsys, "apply", "nomonhan", path, '{"type": "declare", "combats": []}')
    assert "NOM-9.2" in err["clauses"]
    # the explanation (a minimal unsat core of the Z3 encoding) names the unit and its hex
    assert "Kobayashi" in err["message"] or "0403" in err["message"]
    assert "must attack: NOM-9.2" in err["message"]
    unknown = {**declare, "combats": [{**declare["combats"][0], "defenders": ["SU-NOPE"]}]}
    assert error_of(capsys, "apply", "nomonhan", path, json.dumps(unknown))["field"]


def test_malformed_json_is_invalid_input(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path, _ = initial_state(capsys, tmp_path)
    bad = write(tmp_path, "bad.json", '{"format": "wargame-kernel/state",')
    assert error_of(capsys, "legal", "nomonhan", bad)["field"] == "STATE"
    err = error_of(capsys, "apply", "nomonhan", path, '{"type": "move", "unit": ')
    assert err["error"] == "invalid_input" and err["field"] == "ACTION"
    assert error_of(capsys, "apply", "nomonhan", path, "[1, 2]")["field"] == "ACTION"


def test_two_units_in_a_hex_is_an_impossible_position(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """No stacking (NOM-8.6)."""
    _, state = initial_state(capsys, tmp_path)
    state["units"][1]["hex"] = state["units"][0]["hex"]
    err = error_of(capsys, "legal", "nomonhan", write(tmp_path, "s.json", state))
    assert err["error"] == "impossible_position" and "NOM-8.6" in err["clauses"]


def test_an_at_start_unit_on_no_hex_is_an_impossible_position(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """At-start units are set up on the map (NOM-3.1)."""
    _, state = initial_state(capsys, tmp_path)
    state["units"][0]["hex"] = None
    err = error_of(
        capsys, "apply", "nomonhan", write(tmp_path, "s.json", state), '{"type": "end_phase"}'
    )
    assert err["error"] == "impossible_position" and "NOM-3.1" in err["clauses"]


def test_unknown_game_preset_option_and_hex_are_invalid_input(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert error_of(capsys, "new", "chess")["field"] == "game"
    assert error_of(capsys, "new", "nomonhan", "--variant", "fr")["field"] == "variant"
    assert error_of(capsys, "play", "nomonhan", "--variant", "fr")["field"] == "variant"
    err = error_of(capsys, "new", "nomonhan", "--option", "tie=coin")
    assert err["field"] == "variant.options.tie" and "NOM-4.4" in err["clauses"]
    assert error_of(capsys, "new", "nomonhan", "--option", "tie")["field"] == "--option"
    assert error_of(capsys, "new", "nomonhan", "--option", "nope=x")["field"].endswith("nope")
    _, state = initial_state(capsys, tmp_path)
    state["units"][0]["hex"] = "12x4"
    assert error_of(capsys, "legal", "nomonhan", write(tmp_path, "s.json", state))["field"]


def test_missing_files_name_the_argument(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path, _ = initial_state(capsys, tmp_path)
    missing = str(tmp_path / "missing.json")
    assert error_of(capsys, "legal", "nomonhan", missing)["field"] == "STATE"
    assert error_of(capsys, "apply", "nomonhan", path, missing)["field"] == "ACTION"
    assert error_of(capsys, "apply", "nomonhan", "-", "-")["field"] == "ACTION"
    assert error_of(capsys, "play", "nomonhan", "--replay", missing)["field"] == "--replay"
    assert error_of(capsys, "data", "check", "nomonhan", "--file", missing)["field"] == "--file"


@pytest.mark.parametrize(
    ("argv", "field"),
    [
        (["frobnicate"], "COMMAND"),
        ([], "COMMAND"),
        (["legal", "nomonhan"], "STATE"),
        (["apply", "nomonhan", "s.json"], "ACTION"),
        (["play", "nomonhan", "--seed", "x"], "--seed"),
        (["play", "nomonhan", "--max-steps", "1.5"], "--max-steps"),
        (["explore", "nomonhan", "--budget", "soon"], "--budget"),
        (["legal", "nomonhan", "s.json", "--bogus"], "--bogus"),
        (["view", "nomonhan", "s.json"], "--side"),
        (["schema", "nomonhan", "board"], "KIND"),
        (["data"], "SUBCOMMAND"),
        (["data", "check"], "GAME"),
        (["render", "nomonhan", "s.json"], "--output"),
    ],
)
def test_argument_errors_are_one_json_object_with_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], field: str
) -> None:
    """argparse's refusals are reported like every other error: kind `usage`, the argument,
    and the usage line of the (sub)command."""
    err = error_of(capsys, *argv)
    assert err["error"] == "usage" and err["field"] == field, err
    assert err["usage"].startswith("usage: wargame")


def test_help_still_prints_help_and_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--help")
    assert code == 0 and "usage: wargame" in out and not err
    code, out, _ = run(capsys, "apply", "--help")
    assert code == 0 and "--side" in out


def test_unexpected_exception_is_internal_error_without_traceback(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def boom(name: str) -> None:
        raise RuntimeError("simulated bug")

    monkeypatch.setattr(position_verbs, "get_game", boom)
    code, _, err = run(capsys, "new", "nomonhan")
    assert code == 70 and "Traceback" not in err
    assert json.loads(err) == {"error": "internal_error", "message": "RuntimeError: simulated bug"}


# --- play and replay ---------------------------------------------------------------------------


def test_play_prints_header_headlines_actions_and_result(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Play starts in Turn 1 with the Japanese initiative (NOM-6.1) in the Initiative Movement
    Phase (NOM-5.1)."""
    code, out, _ = run(capsys, "play", "nomonhan", "--variant", "ja", "--seed", "3")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Battle of Nomonhan (nomonhan) · variant ja · seed 3"
    assert lines[1:3] == ["== Turn 1 · initiative JP ==", "-- Initiative Movement Phase (JP) --"]
    assert any(line.startswith("dice: ") for line in lines)
    assert lines[-1].startswith("result: ")
    code, quiet, _ = run(capsys, "play", "nomonhan", "--variant", "ja", "--seed", "3", "--quiet")
    assert quiet.splitlines() == [lines[0], lines[-1]]


def test_play_log_then_replay_reproduces_the_game_exactly(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    log = tmp_path / "game.json"
    code, played, _ = run(
        capsys, "play", "nomonhan", "--variant", "en", "--seed", "11", "--log", str(log)
    )
    assert code == 0
    data = json.loads(log.read_text(encoding="utf-8"))
    assert data["format"] == "wargame-kernel/log" and data["version"] == 2
    assert data["agent"] == {"name": "random", "seed": 11}
    assert data["game"] == "nomonhan" and data["stop"] == "ended"
    assert data["variant"]["preset"] == "en" and data["result"]["clause"]
    relog = tmp_path / "again.json"
    code, replayed, err = run(capsys, "play", "nomonhan", "--replay", str(log), "--log", str(relog))
    assert code == 0, err
    assert replayed == played
    assert json.loads(relog.read_text(encoding="utf-8")) == data
    final = write(tmp_path, "final.json", data["final_state"])
    over = run_json(capsys, "legal", "nomonhan", final)
    assert over["to_move"] is None and over["result"] == data["result"]


def test_replay_of_a_tampered_log_fails(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A changed action is refused by the rules (exit 2, naming the step); a changed final state
    is a mismatch (exit 1); a log that is not a log is malformed (exit 2)."""
    log = tmp_path / "game.json"
    run(capsys, "play", "nomonhan", "--seed", "4", "--log", str(log), "--quiet")
    data = json.loads(log.read_text(encoding="utf-8"))
    first_move = next(i for i, a in enumerate(data["actions"]) if a["type"] == "move")

    changed = json.loads(json.dumps(data))
    changed["actions"][first_move]["to"] = "0999"
    err = error_of(capsys, "play", "nomonhan", "--replay", write(tmp_path, "a.json", changed))
    assert err["error"] == "illegal_action" and err["field"] == f"actions[{first_move}]"
    assert "NOM-2.4" in err["clauses"]

    changed = json.loads(json.dumps(data))
    changed["actions"][first_move]["unit"] = "XX"
    err = error_of(capsys, "play", "nomonhan", "--replay", write(tmp_path, "b.json", changed))
    assert err["field"] == f"actions[{first_move}].unit"

    changed = json.loads(json.dumps(data))
    unit = changed["final_state"]["units"][0]
    unit["steps"] = 1 if unit["steps"] == 2 else 2
    err = error_of(
        capsys, "play", "nomonhan", "--replay", write(tmp_path, "c.json", changed), code=1
    )
    assert err["error"] == "replay_mismatch" and err["field"] == "final_state"

    changed = json.loads(json.dumps(data))
    changed["actions"].pop()
    err = error_of(
        capsys, "play", "nomonhan", "--replay", write(tmp_path, "d.json", changed), code=1
    )
    assert err["error"] == "replay_mismatch"

    for bad in ("[1]", '{"format": "wargame-kernel/state"}', "{"):
        error_of(capsys, "play", "nomonhan", "--replay", write(tmp_path, "e.json", bad))
    error_of(capsys, "play", "nomonhan", "--replay", str(log), "--seed", "5")


def test_play_at_a_step_limit_reports_the_nontermination_clauses(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A turn repeats its cycle until an initiative change (NOM-5.2, NOM-6.2): a step limit is
    reported with those clauses, exit 0, and the log replays."""
    log = tmp_path / "short.json"
    code, out, _ = run(capsys, "play", "nomonhan", "--max-steps", "5", "--log", str(log))
    assert code == 0
    last = out.splitlines()[-1]
    assert last.startswith("play did not end within 5 steps") and "NOM-5.2" in last
    code, again, err = run(capsys, "play", "nomonhan", "--replay", str(log))
    assert code == 0, err
    assert again == out


# --- data check --------------------------------------------------------------------------------


def test_data_check_passes_and_lists_provisional_records(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "data", "check", "nomonhan")
    assert code == 0
    assert "FAIL" not in out and "NOM-8.3" in out
    assert "provisional records" in out and "unit JP-KOB" in out
    data = run_json(capsys, "data", "check", "nomonhan", "--json")
    assert data["ok"] and data["provisional"] and all(f["ok"] for f in data["facts"])


def test_data_check_fails_when_a_hill_hex_is_made_clear(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Hexes 0101-0106 are hills (NOM-8.3): a map with 0104 clear fails the check."""
    text = DATA_FILE.read_text(encoding="utf-8")
    hills = '["0101", "0102", "0103", "0104", "0105", "0106"]'
    assert hills in text
    copy = write(
        tmp_path, "nomonhan.toml", text.replace(hills, '["0101", "0102", "0103", "0105", "0106"]')
    )
    code, out, _ = run(capsys, "data", "check", "nomonhan", "--file", copy)
    assert code == 1
    failed = [line for line in out.splitlines() if "FAIL" in line and line.startswith("NOM-")]
    assert len(failed) == 1 and failed[0].startswith("NOM-8.3") and "0104" in failed[0]
    code, out, _ = run(capsys, "data", "check", "nomonhan", "--file", copy, "--json")
    assert code == 1
    assert [f["clause"] for f in json.loads(out)["facts"] if not f["ok"]] == ["NOM-8.3"]


# --- the real command --------------------------------------------------------------------------


def test_console_command_runs_and_reports_errors_as_json(tmp_path: Path) -> None:
    """Run as a separate process: stdout, stderr and exit codes as a shell sees them."""
    cmd = [sys.executable, "-m", "tools.cli.commands"]
    done = subprocess.run(
        [*cmd, "play", "nomonhan", "--seed", "1", "--quiet"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1].startswith("result: ")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    done = subprocess.run(
        [*cmd, "legal", "nomonhan", str(bad)], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert json.loads(done.stderr)["error"] == "invalid_input"


def test_legal_reports_a_gap_when_no_action_satisfies_the_rules(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """NOM-9.3, NOM-9.20: read literally (must_be_attacked_scope=any_attacker), a Japanese unit
    next to the Artillery alone must be attacked, but the Artillery never attacks: `legal`
    lists no action and says why, naming the clauses."""
    state = position(
        {JP_KOB: "0205", SU_ART: "0204", JP_4TK: "0801"},
        options={"must_be_attacked_scope": "any_attacker"},
        turn=2,
        phase=Phase.IP_COMBAT,
    )
    path = tmp_path / "gap.json"
    path.write_text(json.dumps(GAME.state_to_json(state)))
    assert cli.main(["legal", "nomonhan", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["actions"] == []
    assert {"NOM-9.3", "NOM-9.20"} <= set(out["gap"]["clauses"])


# --- view, schema, apply --side ----------------------------------------------------------------

TOY = TOY_PACKAGE.assemble()


class UnpublishedToy(WholeToy):
    """The toy game as a codec not yet on wire types would be."""

    wire = None  # type: ignore[assignment]


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> None:
    """`wargame` knows the toy game (tests/kernel/toy.py) as `toy`, and `unpublished`."""

    def lookup(name: str) -> Any:
        if name == "toy":
            return TOY
        return UnpublishedToy() if name == "unpublished" else get_game(name)

    for verbs in (position_verbs, play_verbs, data_verb):
        monkeypatch.setattr(verbs, "get_game", lookup)


def validator(capsys: pytest.CaptureFixture[str], game: str, kind: str) -> Draft202012Validator:
    """The published schema of a game's document, checked to be a Draft 2020-12 schema."""
    published = run_json(capsys, "schema", game, kind)
    assert published["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(published)
    return Draft202012Validator(published)


def published(game: str) -> bool:
    return getattr(get_game(game), "wire", None) is not None


@pytest.mark.usefixtures("toy")
def test_view_prints_the_side_view_document(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The side to move sees its legal actions; the other side sees none; both see who moves."""
    start = write(tmp_path, "start.json", run_json(capsys, "new", "toy"))
    mine = run_json(capsys, "view", "toy", start, "--side", "A")
    assert {k: mine[k] for k in ("format", "version", "game", "side", "to_move", "result")} == {
        "format": "wargame-kernel/view",
        "version": 1,
        "game": "toy",
        "side": "A",
        "to_move": "A",
        "result": None,
    }
    assert mine["legal_actions"] == run_json(capsys, "legal", "toy", start)["actions"]
    assert mine["observation"]["total"] == 0
    theirs = run_json(capsys, "view", "toy", start, "--side", "B")
    assert theirs["to_move"] == "A" and theirs["legal_actions"] == []
    assert error_of(capsys, "view", "toy", start, "--side", "C")["field"] == "--side"
    assert error_of(capsys, "view", "toy", str(tmp_path / "none.json"), "--side", "A")["field"] == (
        "STATE"
    )
    check = validator(capsys, "toy", "view")
    check.validate(mine)
    check.validate(theirs)


@pytest.mark.usefixtures("toy")
def test_schema_of_each_kind_validates_the_documents_the_game_produces(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """state, action, log and view: the schemas are generated from the codec's own wire types,
    so every document the rules produce validates, and a mutated one does not."""
    log = tmp_path / "game.json"
    assert run(capsys, "play", "toy", "--seed", "2", "--log", str(log), "--quiet")[0] == 0
    data = json.loads(log.read_text(encoding="utf-8"))
    validator(capsys, "toy", "log").validate(data)
    state_schema, action_schema = (
        validator(capsys, "toy", "state"),
        validator(capsys, "toy", "action"),
    )
    state_schema.validate(data["final_state"])
    for action in data["actions"]:
        action_schema.validate(action)
    start = run_json(capsys, "new", "toy")
    state_schema.validate(start)
    assert not state_schema.is_valid({**start, "total": True})
    assert not state_schema.is_valid({**start, "extra": 1})
    assert not action_schema.is_valid({"type": "add", "amount": 3})
    err = error_of(capsys, "schema", "unpublished", "state")
    assert err["error"] == "invalid_input" and err["field"] == "game"


@pytest.mark.parametrize("name", ["nomonhan", "rattenkrieg"])
def test_schema_of_a_real_game_validates_its_documents(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str
) -> None:
    if not published(name):
        pytest.skip(f"{name}'s codec does not publish wire types yet")
    log = tmp_path / "game.json"
    assert run(capsys, "play", name, "--seed", "1", "--log", str(log), "--quiet")[0] == 0
    data = json.loads(log.read_text(encoding="utf-8"))
    validator(capsys, name, "log").validate(data)
    validator(capsys, name, "state").validate(run_json(capsys, "new", name))
    start = write(tmp_path, "start.json", run_json(capsys, "new", name))
    check = validator(capsys, name, "view")
    for side in get_game(name).sides:
        check.validate(run_json(capsys, "view", name, start, "--side", side))


@pytest.mark.parametrize("name", ["nomonhan", "rattenkrieg"])
def test_view_of_a_real_game_gives_legal_actions_to_the_side_to_move_only(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str
) -> None:
    state = run_json(capsys, "new", name)
    path = write(tmp_path, "start.json", state)
    game = get_game(name)
    to_move = game.to_move(game.state_from_json(state))
    for side in game.sides:
        doc = run_json(capsys, "view", name, path, "--side", side)
        assert doc["format"] == "wargame-kernel/view" and doc["to_move"] == to_move
        observed = game.observe(game.state_from_json(state), side)
        assert doc["observation"] == json.loads(json.dumps(observed))
        if side == to_move:
            assert doc["legal_actions"] == run_json(capsys, "legal", name, path)["actions"]
        else:
            assert doc["legal_actions"] == []


@pytest.mark.usefixtures("toy")
def test_apply_side_out_of_turn_is_refused_before_the_action_is_read(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Whatever B sends while A is to move (a legal action, nonsense, a missing file), the error
    is the same `not_your_turn`, naming who is to move; A's action is applied as the referee's."""
    start = write(tmp_path, "start.json", run_json(capsys, "new", "toy"))
    sent = ['{"type": "add", "amount": 1}', '{"type": "coin", "heads": true}', "{nonsense"]
    errors = [error_of(capsys, "apply", "toy", start, a, "--side", "B") for a in sent]
    errors.append(error_of(capsys, "apply", "toy", start, str(tmp_path / "none"), "--side", "B"))
    assert all(e == errors[0] for e in errors)
    assert errors[0] == {
        "error": "not_your_turn",
        "message": "A is to move, not B",
        "field": "--side",
    }
    moved = run_json(capsys, "apply", "toy", start, sent[0], "--side", "A")
    assert moved == run_json(capsys, "apply", "toy", start, sent[0])
    coin = write(tmp_path, "coin.json", moved)  # chance is to move: no side may act
    err = error_of(capsys, "apply", "toy", coin, '{"type": "coin", "heads": true}', "--side", "A")
    assert err["error"] == "not_your_turn" and "chance is to move" in err["message"]
    assert run_json(capsys, "apply", "toy", coin, '{"type": "coin", "heads": true}')["total"] == 2
    assert error_of(capsys, "apply", "toy", start, sent[0], "--side", "Z")["error"] == (
        "invalid_input"
    )


def test_apply_side_out_of_turn_says_the_same_whatever_the_hidden_cards(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Rattenkrieg (RKS-3.3.3: hands are hidden): the side not to move gets one error for every
    action it may send, naming a card the mover holds or not, in positions with different
    hands; it learns only who is to move, which it sees anyway."""
    game = get_game("rattenkrieg")
    variant = game.catalogue.variant(None)
    seen: set[str] = set()
    for seed in range(3):
        result = playlog.play_narrated(game, variant, seed, None, max_steps=60 + seed)
        state = result.final
        mover = game.to_move(state)
        if mover not in game.sides:
            continue
        other = next(s for s in game.sides if s != mover)
        path = write(tmp_path, f"s{seed}.json", game.state_to_json(state))
        sent = [game.action_to_json(a) for a in game.legal_actions(state)[:5]]
        sent.append({"type": "play_card", "card": "no-such-card"})
        for action in sent:
            code, _, err = run(
                capsys, "apply", "rattenkrieg", path, json.dumps(action), "--side", other
            )
            assert code == 2
            seen.add(err)
    assert len(seen) in (1, 2)  # "GE is to move, not SU" and/or "SU is to move, not GE"
    for err in seen:
        assert json.loads(err)["error"] == "not_your_turn"


def test_apply_side_on_nomonhan(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path, _ = initial_state(capsys, tmp_path)
    action = run_json(capsys, "legal", "nomonhan", path)["actions"][0]
    err = error_of(capsys, "apply", "nomonhan", path, json.dumps(action), "--side", "SU")
    assert err == {"error": "not_your_turn", "message": "JP is to move, not SU", "field": "--side"}
    assert run_json(capsys, "apply", "nomonhan", path, json.dumps(action), "--side", "JP")


# --- bounded, strict reading of files and stdin ------------------------------------------------


def test_input_files_are_bounded_and_must_be_utf8(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path, state = initial_state(capsys, tmp_path)
    bad = tmp_path / "latin1.json"
    bad.write_bytes(json.dumps(state).encode("utf-8")[:-1] + b', "x": "\xe9"}')
    err = error_of(capsys, "legal", "nomonhan", str(bad))
    assert err["field"] == "STATE" and "UTF-8" in err["message"]
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (MAX_INPUT_BYTES + 10) + b"{}")
    err = error_of(capsys, "legal", "nomonhan", str(big))
    assert err["field"] == "STATE" and str(MAX_INPUT_BYTES) in err["message"]
    assert error_of(capsys, "apply", "nomonhan", path, str(big))["field"] == "ACTION"
    assert error_of(capsys, "play", "nomonhan", "--replay", str(bad))["field"] == "--replay"
    assert error_of(capsys, "legal", "nomonhan", str(tmp_path))["field"] == "STATE"  # a directory
    deep = write(tmp_path, "deep.json", "[" * 100_000 + "]" * 100_000)
    assert error_of(capsys, "legal", "nomonhan", deep)["field"] == "STATE"
    huge = write(tmp_path, "int.json", "1" * 5000)
    assert error_of(capsys, "apply", "nomonhan", path, huge)["field"] == "ACTION"
    # an inline action whose bytes are not UTF-8 (the shell hands them over as given)
    err = error_of(capsys, "apply", "nomonhan", path, '{"type": "move", "unit": "\udcff"}')
    assert err["field"] == "ACTION" and "UTF-8" in err["message"]


def test_stdin_is_read_with_the_same_bound(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(" " * (MAX_INPUT_BYTES + 10) + "{}"))
    assert error_of(capsys, "legal", "nomonhan", "-")["field"] == "STATE"
    raw = io.BytesIO(b"{\xff}")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(raw))
    assert error_of(capsys, "legal", "nomonhan", "-")["field"] == "STATE"


def test_seed_out_of_a_logs_range_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert error_of(capsys, "play", "nomonhan", "--seed", "-1")["field"] == "--seed"
    assert error_of(capsys, "play", "nomonhan", "--seed", str(2**63))["field"] == "--seed"


def test_console_command_reports_argument_errors_as_json() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tools.cli.commands", "legal"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    err = json.loads(done.stderr)
    assert err["error"] == "usage" and err["field"] == "GAME"


def test_snc_6_3_1_render_side_draws_only_what_the_side_may_see(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """SNC-6.3.1: `render --side JP` draws the Chinese stacks as JP sees them (the top unit and
    a count), so a unit beneath the top is absent from the picture; the full picture has it.
    An unknown side is refused naming --side."""
    game = get_game("snc1937")
    state = game.initial_state(game.presets()["standard"])
    path = tmp_path / "s.json"
    path.write_text(json.dumps(game.state_to_json(state)), encoding="utf-8")
    seen = json.dumps(game.observe(state, "JP"))
    hidden = [u for u, _ in state.where if u.startswith("CH-") and u not in seen]
    assert hidden, "the set-up has Chinese units beneath the top of a stack"
    full, side = tmp_path / "full.svg", tmp_path / "jp.svg"
    assert run(capsys, "render", "snc1937", str(path), "-o", str(full))[0] == 0
    assert run(capsys, "render", "snc1937", str(path), "-o", str(side), "--side", "JP")[0] == 0
    assert hidden[0] in full.read_text(encoding="utf-8")
    assert not any(u in side.read_text(encoding="utf-8") for u in hidden)
    err = error_of(capsys, "render", "snc1937", str(path), "-o", str(side), "--side", "RU")
    assert err["field"] == "--side"
