"""Strict input over HTTP exactly as on the command line (issue 32, item 3).

One hostile corpus of actions goes to `wargame apply` (the action as its ACTION argument) and
to the service (the same action as the `action` of an explain body): each must be refused by
both with the same error kind and the same field (the document's root named `ACTION` by the
command line and `body` by the service). Then the HTTP-only refusals: a body of the wrong
media type (415), nesting at every depth up to far beyond the limit (400, never 500), types
never coerced (`"ply": "0"`), an integer too long to read naming its field, and oversized
headers answered with the JSON error body.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from kernel.wire import MAX_DEPTH
from tools.cli.commands import main
from tools.service.api import create_app
from tools.service.security import MAX_HEADER_BYTES

NOM = "/api/games/nomonhan"
JSON = {"Content-Type": "application/json"}
MOVE = '"type": "move", "unit": "JP-3TK"'

CORPUS: list[tuple[str, str]] = [
    ("duplicate key", "{" + MOVE + ', "to": "0505", "to": "0606"}'),
    ("duplicate tag", '{"type": "move", "type": "end_phase", "unit": "JP-3TK", "to": "0505"}'),
    ("int for a hex", "{" + MOVE + ', "to": 505}'),
    ("integer overflow", "{" + MOVE + ', "to": 123456789012345678901234567890}'),
    ("negative overflow", '{"type": "roll", "attacker_hits": -99999999999999, "defender_hits": 0}'),
    ("string for an int", '{"type": "roll", "attacker_hits": "1", "defender_hits": 0}'),
    ("bool for an int", '{"type": "roll", "attacker_hits": true, "defender_hits": 0}'),
    ("float for an int", '{"type": "roll", "attacker_hits": 1.0, "defender_hits": 0}'),
    ("NaN", '{"type": "roll", "attacker_hits": NaN, "defender_hits": 0}'),
    ("Infinity", '{"type": "roll", "attacker_hits": Infinity, "defender_hits": 0}'),
    ("huge exponent", '{"type": "roll", "attacker_hits": 1e999, "defender_hits": 0}'),
    ("unknown field", "{" + MOVE + ', "to": "0505", "via": "0404"}'),
    ("unknown tag", '{"type": "fly"}'),
    ("missing field", '{"type": "move", "unit": "JP-3TK"}'),
    ("null for a string", "{" + MOVE + ', "to": null}'),
    ("lone surrogate", '{"type": "move", "unit": "JP-\\ud800", "to": "0505"}'),
    ("non-ASCII id", '{"type": "move", "unit": "JP-3TK\u00e9", "to": "0505"}'),
    ("too deep", '{"type": ' + "[" * 40 + "]" * 40 + "}"),
    ("deeper", '{"type": ' + "[" * 1000 + "]" * 1000 + "}"),
    ("truncated", "{" + MOVE + ', "to": "05'),
    ("trailing data", "{" + MOVE + ', "to": "0505"} {}'),
    ("invalid UTF-8", '{"type": "move", "unit": "\udcff", "to": "0505"}'),
]


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient[Any]]:
    db = tmp_path_factory.mktemp("strict") / "strict.db"
    with TestClient(create_app(db, run_jobs=False)) as c:
        yield c


@pytest.fixture(scope="module")
def match(client: TestClient[Any]) -> dict[str, Any]:
    r = client.post(f"{NOM}/matches", json={"variant": "ja"})
    assert r.status_code == 201, r.text
    created: dict[str, Any] = r.json()
    return created


def _root(field: str | None) -> str:
    """A field with the document's root and the codec's `action.` prefix taken off."""
    field = field or ""
    for root in ("ACTION", "body"):
        if field == root:
            return "$"
        field = field.removeprefix(root + ".")
    return field.removeprefix("action.")


def _cli(text: str, state: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    code = main(["apply", "nomonhan", str(state), text])
    err = capsys.readouterr().err
    assert code != 0, f"the command line accepted {text[:80]!r}"
    body: dict[str, Any] = json.loads(err.strip().splitlines()[-1])
    return body


def _http(client: TestClient[Any], match: dict[str, Any], text: str) -> tuple[int, Any]:
    raw = b'{"action": ' + text.encode("utf-8", "surrogateescape") + b"}"
    r = client.post(
        f"{NOM}/matches/{match['id']}/explain",
        content=raw,
        headers={**JSON, "Authorization": f"Bearer {match['tokens']['JP']}"},
    )
    return r.status_code, r.json()


@pytest.mark.parametrize(("case", "text"), CORPUS, ids=[c for c, _t in CORPUS])
def test_the_same_hostile_action_is_refused_alike_on_the_command_line_and_over_http(
    case: str,
    text: str,
    client: TestClient[Any],
    match: dict[str, Any],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    state = tmp_path / "state.json"
    assert main(["new", "nomonhan", "--variant", "ja"]) == 0
    state.write_text(capsys.readouterr().out)
    cli = _cli(text, state, capsys)
    status, body = _http(client, match, text)
    assert status == 400, (case, status, body)
    assert body["error"] == cli["error"] == "invalid_input", (case, body, cli)
    assert _root(body.get("field")) == _root(cli.get("field")), (case, body, cli)


def test_an_integer_too_long_names_its_field_on_both(
    client: TestClient[Any], match: dict[str, Any]
) -> None:
    """The refusal names `ply`, not the whole body (it said `body` before)."""
    raw = b'{"ply": 100000000000000000000000, "action": {"type": "end_phase"}}'
    r = client.post(
        f"{NOM}/matches/{match['id']}/actions",
        content=raw,
        headers={**JSON, "Authorization": f"Bearer {match['tokens']['JP']}"},
    )
    assert (r.status_code, r.json()["field"]) == (400, "ply")


@pytest.mark.parametrize("ply", ['"0"', "0.0", "true", "null", "[0]"])
def test_no_type_is_coerced(client: TestClient[Any], match: dict[str, Any], ply: str) -> None:
    """`"ply": "0"` was taken for 0; every other type than an integer is refused now."""
    raw = b'{"ply": ' + ply.encode() + b', "action": {"type": "end_phase"}}'
    r = client.post(
        f"{NOM}/matches/{match['id']}/actions",
        content=raw,
        headers={**JSON, "Authorization": f"Bearer {match['tokens']['JP']}"},
    )
    assert (r.status_code, r.json()["field"]) == (400, "ply"), r.text


@pytest.mark.parametrize("depth", [1, 2, MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1, 100, 1000, 5000])
def test_nesting_at_any_depth_is_400_never_500(
    client: TestClient[Any], match: dict[str, Any], depth: int
) -> None:
    """msgspec's RecursionError at depth 1,000 was a 500: the strict reader refuses past
    MAX_DEPTH before any decoder recurses, and a shallower document is refused as the wrong
    type (an action is no array)."""
    raw = b'{"ply": 0, "action": ' + b"[" * depth + b"]" * depth + b"}"
    r = client.post(
        f"{NOM}/matches/{match['id']}/actions",
        content=raw,
        headers={**JSON, "Authorization": f"Bearer {match['tokens']['JP']}"},
    )
    assert r.status_code == 400 and r.json()["error"] == "invalid_input", r.text
    expected = "body" if depth + 1 > MAX_DEPTH else "action"
    assert r.json()["field"] == expected


@pytest.mark.parametrize(
    "media",
    ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data", "", "json"],
)
def test_every_post_takes_application_json_only(
    client: TestClient[Any], match: dict[str, Any], media: str
) -> None:
    """A body of another type is 415 on every POST (a page of another origin can send those
    without a CORS preflight), decided before the body is read."""
    headers = {"Content-Type": media} if media else {}
    auth = {"Authorization": f"Bearer {match['tokens']['JP']}"}
    at = f"{NOM}/matches/{match['id']}"
    body = b'{"ply": 0, "action": {"type": "end_phase"}}'
    for url, extra in (
        (f"{NOM}/matches", {}),
        (f"{at}/actions", auth),
        (f"{at}/explain", auth),
        ("/api/jobs", {}),
    ):
        r = client.post(url, content=body, headers={**headers, **extra})
        assert (r.status_code, r.json()["error"]) == (415, "unsupported_media_type"), url
    ok = client.post(
        f"{at}/explain",
        content=b'{"action": {"type": "end_phase"}}',
        headers={"Content-Type": "application/json; charset=utf-8", **auth},
    )
    assert ok.status_code == 200


def test_oversized_headers_get_the_json_error_body(client: TestClient[Any]) -> None:
    r = client.get("/api/games", headers={"X-Padding": "x" * (MAX_HEADER_BYTES + 1)})
    assert r.status_code == 431
    assert r.json()["error"] == "headers_too_large"
    assert r.headers["content-type"] == "application/json"
    assert client.get("/api/games", headers={"X-Padding": "x" * 1000}).status_code == 200
