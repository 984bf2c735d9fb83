"""Nothing a side receives over HTTP depends on what is hidden from it (issue 15, item 2).

Two matches start from positions that differ only in what one side cannot see (the
resamplers of the no-leak tests: the opponent's hand, steps, face-down cards and the deck in
Rattenkrieg; the Japanese hidden units and decoys in Shumshu; the units beneath the top of
an enemy stack in SNC). Every request that side makes,
with its own token, must get byte-identical answers in both: its view, its log, its picture,
the chance outcomes (refused), the explanation of every action it could propose (its own
legal actions, the other side's, and actions of other positions), and the error bodies of the
illegal ones it submits.
"""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from kernel.game import CHANCE
from kernel.roles import AssembledGame
from tests.rattenkrieg import hidden as rks_hidden
from tests.rattenkrieg.test_hidden import _positions as rks_positions
from tests.shumshu import hidden as shu_hidden
from tests.shumshu.test_hidden import _positions as shu_positions
from tests.sizes import size
from tests.snc1937.test_hidden import _swapped as snc_swapped
from tools.registry import get_game
from tools.service.api import create_app

logging.getLogger("httpx").setLevel(logging.WARNING)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient[Any]]:
    with TestClient(create_app(tmp_path / "leak.db", run_jobs=False)) as c:
        yield c


def _create(client: TestClient[Any], game: AssembledGame[Any, Any], state: Any) -> dict[str, Any]:
    body = {"chance": "client", "position": game.state_to_json(state)}
    r = client.post(f"/api/games/{game.name}/matches", json=body)
    assert r.status_code == 201, r.text
    created: dict[str, Any] = r.json()
    return created


def _answers(
    client: TestClient[Any],
    game: AssembledGame[Any, Any],
    created: dict[str, Any],
    side: str,
    proposals: list[dict[str, Any]],
) -> list[tuple[int, str]]:
    """Every answer `side` gets in the match, with the match's id blanked out."""
    base = f"/api/games/{game.name}/matches/{created['id']}"
    headers = {"Authorization": f"Bearer {created['tokens'][side]}"}
    out = []
    for path in ("view", "log", "picture.svg", "chance", "state"):
        r = client.get(f"{base}/{path}", headers=headers)
        out.append((r.status_code, r.text.replace(created["id"], "ID")))
    for action in proposals:
        r = client.post(f"{base}/explain", headers=headers, json={"action": action})
        out.append((r.status_code, r.text))
        legal = r.status_code == 200 and r.json()["legal"]
        if not legal:  # an illegal submission changes nothing, so the next ones still compare
            r = client.post(f"{base}/actions", headers=headers, json={"ply": 0, "action": action})
            assert r.status_code in (400, 409, 422), r.text
            out.append((r.status_code, r.text.replace(created["id"], "ID")))
    return out


def _check(
    client: TestClient[Any],
    game: AssembledGame[Any, Any],
    positions: list[Any],
    side: str,
    resample: Callable[[Any, random.Random], Any],
    seed: int,
) -> int:
    """Compare the answers in each position and a resampled one; the number of positions
    where the resampling changed the state (so the comparison could have failed)."""
    rng = random.Random(seed)
    pool = [game.action_to_json(a) for s in positions for a in game.legal_actions(s)]
    changed = 0
    for s in positions:
        t = resample(s, rng)
        changed += t != s
        assert game.observe(t, side) == game.observe(s, side)
        own = [game.action_to_json(a) for a in game.legal_actions(s)]
        proposals = own[:6] + rng.sample(pool, min(6, len(pool)))
        a = _answers(client, game, _create(client, game, s), side, proposals)
        b = _answers(client, game, _create(client, game, t), side, proposals)
        for (code_a, text_a), (code_b, text_b) in zip(a, b, strict=True):
            assert (code_a, text_a) == (code_b, text_b), json.dumps([text_a, text_b])[:2000]
    return changed


@pytest.mark.parametrize("preset", ["standard"])
def test_rks_3_3_3_and_8_4_1_nothing_served_to_a_side_depends_on_its_opponents_hidden_cards(
    client: TestClient[Any], preset: str
) -> None:
    game = get_game("rattenkrieg")
    positions = rks_positions(5, dict(game.catalogue.preset(preset).choices), 400)
    picked = positions[:: max(1, len(positions) // size(4, 20))]
    changed = 0
    for side in game.sides:

        def resample(s: Any, rng: random.Random, side: str = side) -> Any:
            return rks_hidden.resample(s, side, rng)

        mine = [s for s in picked if game.to_move(s) == side]
        changed += _check(client, game, mine, side, resample, seed=7)
    assert changed  # the hidden cards did move


def test_shu_combat_5_nothing_served_to_the_russians_depends_on_hidden_japanese_units(
    client: TestClient[Any],
) -> None:
    game = get_game("shumshu")
    choices = dict(game.catalogue.preset(game.catalogue.default_preset).choices)
    positions = [s for s in shu_positions(3, choices, 300) if game.to_move(s) not in (CHANCE,)]
    picked = positions[:: max(1, len(positions) // size(4, 20))]
    changed = _check(client, game, picked, "RU", shu_hidden.resample, seed=11)
    assert changed


def test_snc_6_3_1_nothing_served_to_a_side_depends_on_the_units_beneath_enemy_tops(
    client: TestClient[Any],
) -> None:
    """SNC-6.3.1: two hidden enemy units of different stacks swapped (the fog-of-war test's
    swap) change nothing the side to move receives."""
    game = get_game("snc1937")
    s = game.initial_state(game.catalogue.preset("standard"))
    play_rng, rng = random.Random(3), random.Random(5)
    pairs: list[tuple[Any, Any, str]] = []
    for step in range(4000):
        side = game.to_move(s)
        if side is None or len(pairs) >= size(3, 12):
            break
        if side == CHANCE:
            s = game.apply(s, play_rng.choice(game.chance_outcomes(s))[0])
            continue
        if step % 5 == 0:
            t = snc_swapped(s, side, rng)
            if t is not None and game.observe(t, side) == game.observe(s, side):
                pairs.append((s, t, side))
        s = game.apply(s, play_rng.choice(list(game.legal_actions(s))))
    assert len(pairs) == size(3, 12)
    for s, t, side in pairs:
        assert t != s
        own = [game.action_to_json(a) for a in game.legal_actions(s)][:8]
        a = _answers(client, game, _create(client, game, s), side, own)
        b = _answers(client, game, _create(client, game, t), side, own)
        assert a == b
