"""States and actions as JSON: exact round trips, and bad input refused with the field or the
clause it breaks (RKS-2.4.1, RKS-3.5.1, RKS-3.6.2, RKS-7.5.3, RKS-8.10.6)."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from kernel.errors import IllegalAction, ImpossiblePosition, InvalidInput, WargameError
from kernel.game import CHANCE
from kernel.playout import play
from specs.rattenkrieg.rules.actions import Designate, Move
from specs.rattenkrieg.rules.state import GE, SU
from tests.rattenkrieg.positions import GAME, GREAR, SREAR, active, position
from tools.cli import commands as cli


def base() -> dict[str, Any]:
    s = position(
        {"71": (GREAR, ["2C", "3C"]), "Rifle-2": ("orlovka", ["4H"]), "13Gds": SREAR},
        hands={GE: ["5C"], SU: ["6H"]},
    )
    return GAME.state_to_json(s)


def test_state_json_round_trips_exactly() -> None:
    data = base()
    s = GAME.state_from_json(data)
    assert GAME.state_to_json(s) == data and GAME.state_from_json(json.loads(json.dumps(data))) == s


def edited(path: list[Any], value: Any) -> dict[str, Any]:
    data = copy.deepcopy(base())
    node = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return data


def unit_index(uid: str) -> int:
    return [u["id"] for u in base()["units"]].index(uid)


@pytest.mark.parametrize(
    ("path", "value", "clause"),
    [
        (["hands", "GE"], ["2C", "5C"], "RKS-2.4.1"),  # 2C is also a step of 71
        (["deck"], [], "RKS-2.4.1"),  # cards missing
        (["units", unit_index("Rifle-2"), "steps"], ["4H", "7H"], "RKS-7.5.3"),
        (["units", unit_index("71"), "area"], SREAR, "RKS-3.5.1"),
        (["control", "orlovka"], GE, "RKS-3.6.2"),
        (["units", unit_index("71"), "isolated"], True, "RKS-8.10.6"),
    ],
)
def test_impossible_positions_name_their_clause(path: list[Any], value: Any, clause: str) -> None:
    """RKS-2.4.1 (each card once), RKS-7.5.3 (no more steps than at set-up), RKS-3.5.1 (no unit
    in the enemy Rear), RKS-3.6.2 (control follows the units), RKS-8.10.6 (no isolation in a
    friendly Area)."""
    data = edited(path, value)
    if clause == "RKS-7.5.3":
        data["deck"].remove("7H")  # keep every card in one place
    with pytest.raises(ImpossiblePosition) as err:
        GAME.state_from_json(data)
    assert clause in err.value.clauses and err.value.field


@pytest.mark.parametrize(
    ("path", "value", "field"),
    [
        (["units", 0, "id"], "XX-UNKNOWN", "units[0].id"),
        (["units", 0, "area"], "atlantis", "units[0].area"),
        (["hands", "GE"], ["ZZ"], "hands.GE[0]"),
        (["turn"], "two", "turn"),
        (["stage"], "nap", "stage"),
    ],
)
def test_malformed_states_name_the_field(path: list[Any], value: Any, field: str) -> None:
    with pytest.raises(InvalidInput) as err:
        GAME.state_from_json(edited(path, value))
    assert err.value.field == field


@pytest.mark.parametrize(
    ("action", "field"),
    [
        ({"type": "designate", "unit": "XX-UNKNOWN"}, "action.unit"),
        ({"type": "move", "to": "atlantis"}, "action.to"),
        ({"type": "pay", "card": "1S"}, "action.card"),
        ({"type": "fly"}, "action.type"),
        ({"type": "play", "card": "2C", "support": "yes"}, "action.support"),
        ({"type": "discard", "cards": ["2C", "2C"], "refill": True}, "action.cards[1]"),
        ({"type": "discard", "cards": ["2C"]}, "action.refill"),
        ({"type": "play", "card": "2C"}, "action.support"),
        ({"type": "move", "to": "orlovka", "escort": None}, "action.escort"),
        ({"type": "pass", "unit": "71"}, "action.unit"),
        ({"type": {"nested": 1}}, "action.type"),
        ([], "action"),
    ],
)
def test_malformed_actions_name_the_field(action: Any, field: str) -> None:
    s = active("71", {"71": (GREAR, ["2C"])})
    with pytest.raises(InvalidInput) as err:
        GAME.apply(s, GAME.action_from_json(action))
    assert err.value.field == field


def test_an_illegal_action_names_its_clause() -> None:
    """RKS-7.1.1: nothing moves before a unit is designated, and only a friendly one is."""
    s = position({"71": (GREAR, ["2C"])})
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, Move("orlovka"))
    assert err.value.clauses == ("RKS-7.1.1",)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, Designate("Rifle-2"))
    assert err.value.clauses == ("RKS-7.1.1",)


def test_cli_errors_are_one_json_object(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Bad input never crashes: malformed JSON and impossible positions exit 2 with one JSON
    object naming the field or clause."""
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    assert cli.main(["legal", "rattenkrieg", str(bad)]) == 2
    err = json.loads(capsys.readouterr().err)
    assert err["error"] == "invalid_input" and err["field"] == "STATE"
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps(edited(["control", "orlovka"], GE)), encoding="utf-8")
    assert cli.main(["legal", "rattenkrieg", str(wrong)]) == 2
    err = json.loads(capsys.readouterr().err)
    assert err["error"] == "impossible_position"
    assert err["clauses"] == ["RKS-3.6.2", "RKS-P-CONTROL"] and err["field"] == "control.orlovka"
    good = tmp_path / "good.json"
    good.write_text(json.dumps(base()), encoding="utf-8")
    assert cli.main(["apply", "rattenkrieg", str(good), '{"type": "designate", "unit": "71"}']) == 0
    assert json.loads(capsys.readouterr().out)["acting"] == "71"


MUTATIONS: list[tuple[str, list[Any]]] = [
    ("stage", ["place", "draw", "pick", "active", "pay", "combat", "damage", "isolation"]),
    ("phase", ["setup", "reinforcement", "player_turns", "recruiting", "over"]),
    ("acting", [None, "71", "13Gds", "T-34", "16Pz"]),
    ("player", ["GE", "SU"]),
    ("combat", [None]),
    ("damage", [None, {"unit": "71", "cause": "combat"}, {"unit": "T-34", "cause": "bombardment"}]),
    ("pick", [None, {"kind": "sniper", "who": "GE"}, {"kind": "step", "who": "14Pz"}]),
    ("draws", [[], [{"kind": "bombardment", "who": "71"}], [{"kind": "hand", "who": "SU"}]]),
    ("pending", [None, {"to": "orlovka", "escort": None, "payments": 1}]),
    ("passes", [0, 1, 2]),
    ("turn", [1, 2, 6, 7]),
]


def test_edited_states_are_refused_or_playable_never_a_crash() -> None:
    """Bad input never crashes: real positions with fields changed at random either decode to
    positions the rules can go on from, or are refused with a kernel error."""
    rng = random.Random(5)
    states = []
    for seed in range(2):
        result = play(GAME, GAME.initial_state(GAME.presets()["standard"]), random.Random(seed))
        states += [GAME.state_to_json(s) for s in replay_states(list(result.actions))]
    decoded = 0
    for _ in range(400):
        data = copy.deepcopy(rng.choice(states))
        for key, values in rng.sample(MUTATIONS, rng.randint(1, 3)):
            data[key] = copy.deepcopy(rng.choice(values))
        try:
            s = GAME.state_from_json(data)
            decoded += 1
            side = GAME.to_move(s)
            if side == CHANCE:
                GAME.apply(s, GAME.chance_outcomes(s)[0][0])
            elif side is not None:
                for action in list(GAME.legal_actions(s))[:3]:
                    GAME.apply(s, action)
                    GAME.describe(s, action)
                GAME.observe(s, "GE")
        except WargameError:
            continue
    assert decoded > 50


def replay_states(actions: list[Any]) -> list[Any]:
    """Every 40th position of a replayed game."""
    s = GAME.initial_state(GAME.presets()["standard"])
    out = []
    for i, a in enumerate(actions):
        s = GAME.apply(s, a)
        if i % 40 == 0:
            out.append(s)
    return out
