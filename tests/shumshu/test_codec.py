"""States and actions as strict JSON, and positions no play could reach refused by clause
(SHU-STACK.1, SHU-LAND.3, SHU-SEQ.2, SHU-SETUP.1, SHU-SETUP.3, SHU-RGT.1, SHU-COMBAT.1)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from kernel.errors import ImpossiblePosition, InvalidInput
from specs.shumshu.rules.actions import Commit, Defend, Done, Join, Move, Roll
from specs.shumshu.rules.state import Stage
from tests.shumshu.positions import GAME, h, position
from tools.cli import commands as cli

BASE = {"RU-1-138": "0801", "RU-2-138": "0801", "JP-IB1": "0205", "JP-DC1": "0702"}


def doc(**kw: Any) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(json.dumps(GAME.state_to_json(position(BASE, **kw))))
    return out


def test_states_and_actions_round_trip() -> None:
    s = position(BASE, beachhead=h("0801"))
    assert GAME.state_from_json(json.loads(json.dumps(GAME.state_to_json(s)))) == s
    for a in (
        Move("RU-1-138", h("0702")),
        Join("RU-1-138", h("0702")),
        Done(),
        Roll(3),
        Commit(True, False, False),
        Defend(("JP-IB1",)),
    ):
        assert GAME.action_from_json(GAME.action_to_json(a)) == a


@pytest.mark.parametrize(
    ("edit", "field"),
    [
        (lambda d: d.update(extra=1), "extra"),
        (lambda d: d.update(ships=True), "ships"),
        (lambda d: d.update(turn=9), "turn"),
        (lambda d: d["units"][0].update(hex="0101"), "units[0].hex"),
        (lambda d: d["units"].reverse(), "units[0].id"),
        (lambda d: d.update(moved=["RU-2-138", "RU-1-138"]), "moved[1]"),
    ],
)
def test_malformed_states_are_refused_naming_the_field(edit: Any, field: str) -> None:
    d = doc()
    edit(d)
    with pytest.raises(InvalidInput) as exc:
        GAME.state_from_json(d)
    assert exc.value.field == field


def test_shu_stack_1_and_other_impossible_positions_name_their_clause() -> None:
    """SHU-STACK.1, SHU-LAND.3, SHU-SEQ.2, SHU-SETUP.3, SHU-RGT.1, SHU-COMBAT.1: positions no
    play could reach are refused with the clause they break."""
    cases: list[tuple[Any, str]] = [
        (lambda d: d["units"][0].update(hex="0801"), "SHU-STACK.1"),  # IB1 among the Russians
        (lambda d: d.update(turn=7), "SHU-SEQ.2"),
        (lambda d: d.update(stage="setup", side="JP"), "SHU-SETUP.3"),
        (lambda d: d.update(beachhead="0402"), "SHU-LAND.5"),
        (
            lambda d: d.update(
                pending=[{"hex": "0205", "attackers": ["RU-1-138"]}], stage="declare"
            ),
            "SHU-COMBAT.1",
        ),
    ]
    for edit, clause in cases:
        d = doc()
        edit(d)
        with pytest.raises(ImpossiblePosition) as exc:
            GAME.state_from_json(d)
        assert clause in exc.value.clauses, (clause, exc.value.message)
    early = doc()
    at = next(i for i, u in enumerate(early["units"]) if u["id"] == "RU-AT")
    early["units"][at].update(loc="map", hex="0801")
    early["at_arrived"] = True
    with pytest.raises(ImpossiblePosition) as exc:
        GAME.state_from_json(early)
    assert "SHU-SETUP.3" in exc.value.clauses
    formed = doc()
    rgt = next(i for i, u in enumerate(formed["units"]) if u["id"] == "RU-138")
    formed["units"][rgt].update(loc="map", hex="0801")
    with pytest.raises(ImpossiblePosition) as exc:
        GAME.state_from_json(formed)
    assert "SHU-RGT.1" in exc.value.clauses


def test_schema_and_view_commands(capsys: pytest.CaptureFixture[str], tmp_path: Any) -> None:
    """The published schemas come from the wire records; the view is one side's."""
    for kind in ("state", "action", "view", "log"):
        assert cli.main(["schema", "shumshu", kind]) == 0
        assert json.loads(capsys.readouterr().out)["$schema"].endswith("2020-12/schema")
    path = tmp_path / "s.json"
    path.write_text(json.dumps(doc(stage=Stage.MOVE)), encoding="utf-8")
    assert cli.main(["view", "shumshu", str(path), "--side", "RU"]) == 0
    view = json.loads(capsys.readouterr().out)
    assert view["observation"]["face_down"] == {"0205": 1, "0702": 1}
