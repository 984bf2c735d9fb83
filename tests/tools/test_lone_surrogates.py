"""A lone surrogate escape in JSON input (`\\ud800` to `\\udfff` without its pair) stands for
no character: every game's command refuses it as bad input naming the field (exit 2), never as
an internal error (exit 70)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kernel.errors import InvalidInput
from kernel.wire import parse_json
from tools.cli import commands as cli
from tools.registry import game_names, get_game


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ('{"\\ud800": 1}', "STATE"),
        ('{"units": [{"id": "a\\udfff"}]}', "STATE.units[0].id"),
        ('{"a": {"\\udc00b": 1}}', "STATE.a"),
        ('["\\ud83d"]', "STATE[0]"),
    ],
)
def test_parse_json_names_the_field_of_a_lone_surrogate(text: str, field: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        parse_json(text, what="STATE")
    assert caught.value.field == field and "lone surrogate" in caught.value.message


def test_a_surrogate_pair_is_one_character_and_passes() -> None:
    assert parse_json('{"a": "\\ud83d\\ude00"}', what="STATE") == {"a": "\U0001f600"}


@pytest.mark.parametrize("game", game_names())
@pytest.mark.parametrize("verb", ["legal", "view"])
def test_every_game_refuses_a_lone_surrogate_with_exit_2(
    game: str, verb: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "state.json"
    path.write_text('{"\\ud800": 1}', encoding="utf-8")
    side = ["--side", get_game(game).sides[0]] if verb == "view" else []
    argv = [verb, game, str(path), *side]
    assert cli.main(argv) == 2
    error = json.loads(capsys.readouterr().err)
    assert error["error"] == "invalid_input" and "lone surrogate" in error["message"]
