"""The choices route the play page builds actions with: the kernel's sub-decisions (the game's
OpenSpiel codec), one step at a time, for the side to move only."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from tools.registry import get_game, get_package
from tools.service.api import create_app

GAMES = ("nomonhan", "rattenkrieg", "shumshu")


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Any:
    db = Path(tmp_path_factory.mktemp("choices")) / "games.db"
    with TestClient(create_app(db, run_jobs=False)) as c:
        yield c


def _match(client: Any, game: str) -> tuple[str, dict[str, str]]:
    r = client.post(f"/api/games/{game}/matches", json={"seed": 7})
    assert r.status_code == 201, r.text
    body = r.json()
    return body["id"], body["tokens"]


def _get(client: Any, game: str, match: str, token: str, prefix: str = "") -> Any:
    q = f"?prefix={prefix}" if prefix else ""
    return client.get(
        f"/api/games/{game}/matches/{match}/choices{q}",
        headers={"Authorization": f"Bearer {token}"},
    )


@pytest.mark.parametrize("game", GAMES)
def test_the_choices_are_the_codecs_sub_decisions_of_the_legal_actions(
    client: Any, game: str
) -> None:
    """Walking the first choice at every step ends on an action; the first ids offered are
    exactly the first tokens of the legal actions' codec sequences, with the codec's labels."""
    match, tokens = _match(client, game)
    g = get_game(game)
    codec: Any = get_package(game).spiel(g)[0].codec  # type: ignore[misc]
    view = client.get(
        f"/api/games/{game}/matches/{match}/state",
        headers={"Authorization": f"Bearer {tokens['referee']}"},
    ).json()
    side = view["to_move"]
    legal = [g.action_from_json(a) for a in view["legal_actions"]]
    first = sorted({codec.tokens(a)[0] for a in legal})
    body = _get(client, game, match, tokens[side]).json()
    assert [c["id"] for c in body["next"]] == first
    assert all(c["label"] == codec.token_string(c["id"]) for c in body["next"])
    prefix: list[int] = []
    while body["action"] is None:
        prefix.append(body["next"][0]["id"])
        body = _get(client, game, match, tokens[side], ".".join(map(str, prefix))).json()
    assert body["action"] in view["legal_actions"]
    assert [c["id"] for c in body["prefix"]] == prefix


@pytest.mark.parametrize("game", GAMES)
def test_only_the_side_to_move_asks_and_a_prefix_must_begin_a_legal_action(
    client: Any, game: str
) -> None:
    match, tokens = _match(client, game)
    sides = get_game(game).sides
    body = _get(client, game, match, tokens["referee"]).json()
    waiting = next(s for s in sides if s != body["to_move"])
    assert _get(client, game, match, tokens[waiting]).status_code == 409
    assert _get(client, game, match, "not-a-token").status_code == 401
    bad = _get(client, game, match, tokens[body["to_move"]], "999999999")
    assert bad.status_code == 400 and bad.json()["field"] == "prefix"
    assert _get(client, game, match, tokens[body["to_move"]], "1.x").status_code == 400
