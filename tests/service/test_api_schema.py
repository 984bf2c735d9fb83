"""Schemathesis against the generated OpenAPI document, in process (ASGI): every operation,
with bodies, path and query parameters generated from the schema, never answers 5xx, and
every answer has a documented status, content type and a body that fits its schema.

Generated match ids are replaced with real matches' ids in half the cases, with the
referee's or a side's token, so that the generated actions, positions and proposals reach
the rules (most are then refused with 400/409/422, which is the point: never with 500).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import hypothesis
import pytest
import schemathesis
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.sizes import FULL
from tools.registry import get_game
from tools.service.api import create_app
from tools.service.store import Store

logging.getLogger("httpx").setLevel(logging.WARNING)

_DB = Path(__import__("tempfile").mkdtemp(prefix="wargame-schema-")) / "schema.db"
APP = create_app(_DB, run_jobs=False)
SCHEMA = schemathesis.openapi.from_asgi(
    "/openapi.json",
    APP,
    config=schemathesis.config.SchemathesisConfig.from_dict(
        {"phases": {"coverage": {"enabled": FULL}}}
    ),
)

MATCHES: dict[str, dict[str, Any]] = {}


@pytest.fixture(scope="module", autouse=True)
def matches() -> Iterator[None]:
    """One match per game (server chance), so generated requests can reach the rules."""
    with Store(_DB) as store:
        for game in ("nomonhan", "rattenkrieg", "shumshu", "snc1937"):
            record = store.create(game, get_game(game).catalogue.default_preset, chance="server")
            MATCHES[game] = {"id": record.id, "tokens": record.tokens}
    yield


def _aim(case: Any) -> None:
    """Point half the cases at a real match with a real token (which half: from the case's
    generated data, so the choice replays with it)."""
    match_id = case.path_parameters.get("match_id") if case.path_parameters else None
    if match_id is None:
        return
    game = case.path.split("/")[3]
    created = MATCHES[game]
    pick = sum(map(ord, str(match_id)))
    if pick % 2 == 0:
        return
    case.path_parameters["match_id"] = created["id"]
    roles = sorted(created["tokens"])
    role = roles[pick // 2 % len(roles)]
    case.headers["Authorization"] = f"Bearer {created['tokens'][role]}"


@SCHEMA.parametrize()
@hypothesis.settings(
    max_examples=40 if FULL else 5,
    deadline=None,
    suppress_health_check=list(hypothesis.HealthCheck),
    derandomize=True,
)
def test_every_operation_answers_as_documented_and_never_5xx(case: Any) -> None:
    _aim(case)
    case.call_and_validate(
        checks=[
            status_code_conformance,
            content_type_conformance,
            response_schema_conformance,
        ],
    )
