"""Who may create (issue 32, items 2 and 6): the server's key, the page's cookie, open mode,
per-client rates, the bounded job queue and budget, cancelling by the creator, the CORS
policy and the headers every answer carries."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from tools.service.api import create_app
from tools.service.auth import COOKIE
from tools.service.jobs import MAX_BUDGET, MAX_QUEUED
from tools.service.security import allowed_hosts, page_policy
from tools.service.store import Store

KEY = "k" * 43
NOM = "/api/games/nomonhan"
JOB = {"kind": "explore", "game": "nomonhan", "budget": 2}


@pytest.fixture
def keyed(tmp_path: Path) -> Iterator[TestClient[Any]]:
    app = create_app(tmp_path / "auth.db", run_jobs=False, key=KEY)
    with TestClient(app) as c:
        yield c


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_creating_a_match_or_a_job_needs_the_servers_key(keyed: TestClient[Any]) -> None:
    for url, body in ((f"{NOM}/matches", {"variant": "ja"}), ("/api/jobs", JOB)):
        refused = keyed.post(url, json=body)
        assert refused.status_code == 401 and "/enter?key=" in refused.json()["message"]
        assert keyed.post(url, json=body, headers=_bearer("k" * 42)).status_code == 401
        r = keyed.post(url, json=body, headers=_bearer(KEY))
        assert r.status_code in (201, 202), r.text
    with Store(keyed.app.state.service.db_path) as store:
        assert len(store.game_ids()) == 1 and len(store.jobs()) == 1


def test_the_printed_link_sets_the_key_as_a_cookie_for_the_page(keyed: TestClient[Any]) -> None:
    """`/enter?key=` (what `wargame serve` prints) sets an HttpOnly SameSite=Strict cookie and
    opens `/`; the page's own requests then create; a request naming another origin with
    that cookie is refused (a cookie goes with whoever's page asks)."""
    assert keyed.get("/enter?key=wrong", follow_redirects=False).status_code == 401
    r = keyed.get(f"/enter?key={KEY}", follow_redirects=False)
    assert (r.status_code, r.headers["location"]) == (303, "/")
    cookie = r.headers["set-cookie"]
    assert "httponly" in cookie.lower() and "samesite=strict" in cookie.lower()
    assert keyed.cookies.get(COOKIE) == KEY
    assert keyed.post(f"{NOM}/matches", json={}).status_code == 201
    own = {"Origin": "http://testserver.local"}
    assert keyed.post(f"{NOM}/matches", json={}, headers=own).status_code == 201
    other = {"Origin": "http://evil.example"}
    assert keyed.post(f"{NOM}/matches", json={}, headers=other).status_code == 403


def test_open_mode_creates_without_a_key(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "open.db", run_jobs=False)) as c:
        assert c.post(f"{NOM}/matches", json={}).status_code == 201
        assert c.get("/enter", follow_redirects=False).status_code == 303


def test_each_client_creates_at_most_its_rate(tmp_path: Path) -> None:
    """A burst of 5, then 429 with Retry-After; a match's play is not rate limited."""
    app = create_app(tmp_path / "rate.db", run_jobs=False, create_per_minute=1, create_burst=5)
    with TestClient(app) as c:
        answers = [c.post(f"{NOM}/matches", json={}) for _ in range(8)]
        assert [r.status_code for r in answers] == [201] * 5 + [429] * 3
        assert answers[-1].json()["error"] == "rate_limited"
        assert int(answers[-1].headers["retry-after"]) >= 1
        created = answers[0].json()
        view = c.get(
            f"{NOM}/matches/{created['id']}/view", headers=_bearer(created["tokens"]["JP"])
        )
        assert view.status_code == 200


def test_the_job_queue_and_each_budget_are_bounded(keyed: TestClient[Any]) -> None:
    r = keyed.post("/api/jobs", json={**JOB, "budget": MAX_BUDGET + 1}, headers=_bearer(KEY))
    assert (r.status_code, r.json()["field"]) == (400, "budget")
    for _ in range(MAX_QUEUED):
        assert keyed.post("/api/jobs", json=JOB, headers=_bearer(KEY)).status_code == 202
    r = keyed.post("/api/jobs", json=JOB, headers=_bearer(KEY))
    assert (r.status_code, r.json()["error"]) == (429, "queue_full")


def test_a_job_is_cancelled_by_its_creators_token_only(keyed: TestClient[Any]) -> None:
    started = keyed.post("/api/jobs", json=JOB, headers=_bearer(KEY)).json()
    other = keyed.post("/api/jobs", json=JOB, headers=_bearer(KEY)).json()
    assert started["token"] and started["token"] != other["token"]
    url = f"/api/jobs/{started['id']}"
    assert keyed.get(url).json()["token"] is None  # shown once
    assert keyed.delete(url).status_code == 401
    assert keyed.delete(url, headers=_bearer(other["token"])).status_code == 403
    assert keyed.delete(url, headers=_bearer(KEY)).status_code == 403  # the key is no creator
    r = keyed.delete(url, headers=_bearer(started["token"]))
    assert (r.status_code, r.json()["status"]) == (200, "cancelled")
    assert keyed.get(f"/api/jobs/{other['id']}").json()["status"] == "queued"


def test_no_other_origin_is_granted_cors_unless_named(tmp_path: Path) -> None:
    preflight = {
        "Origin": "http://evil.example",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type",
    }
    with TestClient(create_app(tmp_path / "cors.db", run_jobs=False)) as c:
        r = c.options(f"{NOM}/matches", headers=preflight)
        assert "access-control-allow-origin" not in r.headers
    app = create_app(tmp_path / "cors2.db", run_jobs=False, cors_origins=("http://a.example",))
    with TestClient(app) as c:
        r = c.options(f"{NOM}/matches", headers={**preflight, "Origin": "http://a.example"})
        assert r.headers.get("access-control-allow-origin") == "http://a.example"
        r = c.options(f"{NOM}/matches", headers=preflight)
        assert r.headers.get("access-control-allow-origin") != "http://evil.example"


def test_every_answer_carries_the_security_headers(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "headers.db", run_jobs=False)) as c:
        for path in ("/", "/api/games", "/openapi.json", "/api/jobs/none", "/static/style.css"):
            h = c.get(path).headers
            assert h["x-content-type-options"] == "nosniff", path
            assert h["x-frame-options"] == "DENY", path
            assert h["referrer-policy"] == "no-referrer", path
            csp = h["content-security-policy"]
            assert "frame-ancestors 'none'" in csp and "default-src 'none'" in csp, path
        page = c.get("/")
        assert "script-src 'self'" in page.headers["content-security-policy"]
        assert "unsafe-inline" not in page.headers["content-security-policy"]
        assert c.get("/favicon.ico").status_code in (200, 204)
        docs = c.get("/schema")
        assert docs.status_code == 200 and docs.json()["openapi"].startswith("3.1")


def test_a_pages_inline_script_is_allowed_by_its_hash_only() -> None:
    policy = page_policy("<p>x</p><script>go()</script><script src='/a.js'></script>")
    assert "'sha256-" in policy and policy.count("'sha256-") == 1
    assert "unsafe-inline" not in policy


def test_a_loopback_server_answers_loopback_host_names_only(tmp_path: Path) -> None:
    hosts = allowed_hosts("127.0.0.1")
    assert hosts is not None and "localhost" in hosts and allowed_hosts("0.0.0.0") is None
    app = create_app(tmp_path / "hosts.db", run_jobs=False, hosts=hosts)
    with TestClient(app, base_url="http://127.0.0.1:8000") as c:
        assert c.get("/api/games").status_code == 200
        r = c.get("/api/games", headers={"Host": "evil.example:8000"})
        assert (r.status_code, r.json()["error"]) == (400, "bad_host")


def test_a_body_that_stalls_is_refused_with_408(tmp_path: Path) -> None:
    """A client that sends part of a body and then nothing holds its connection no longer
    than the body's time (`body_seconds`, 0.3 s here): 408 with the JSON error body."""
    import asyncio
    import json

    app = create_app(tmp_path / "slow.db", run_jobs=False, body_seconds=0.3)
    sent: list[Any] = []
    parts = [{"type": "http.request", "body": b'{"variant": ', "more_body": True}]

    async def receive() -> Any:
        if parts:
            return parts.pop()
        await asyncio.sleep(3600)  # the rest never comes
        raise AssertionError("not reached")

    async def send(message: Any) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": f"{NOM}/matches",
        "raw_path": f"{NOM}/matches".encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver"), (b"content-type", b"application/json")],
        "client": ("127.0.0.1", 5000),
        "server": ("testserver", 80),
        "state": {},
    }
    asyncio.run(asyncio.wait_for(app(scope, receive, send), 30))  # type: ignore[arg-type]
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    assert start["status"] == 408, body
    assert json.loads(body)["error"] == "body_timeout"


def test_serve_refuses_a_short_key_and_a_rate_of_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tools.cli.commands import main

    short = tmp_path / "key"
    short.write_text("tooshort\n")
    assert main(["serve", "--db", str(tmp_path / "x.db"), "--key-file", str(short)]) == 2
    assert '"field": "key"' in capsys.readouterr().err
    assert main(["serve", "--db", str(tmp_path / "x.db"), "--create-rate", "0"]) == 2
    assert '"field": "--create-rate"' in capsys.readouterr().err


def test_a_token_learns_its_role_without_a_refused_request(tmp_path: Path) -> None:
    """The referee's page asked /view first and was refused (a console error on each load):
    /role names the token's role for every token, and refuses others as /view does."""
    with TestClient(create_app(tmp_path / "role.db", run_jobs=False)) as c:
        created = c.post(f"{NOM}/matches", json={}).json()
        url = f"{NOM}/matches/{created['id']}/role"
        for role, token in created["tokens"].items():
            r = c.get(url, headers=_bearer(token))
            assert (r.status_code, r.json()["role"], r.json()["ply"]) == (200, role, 0)
        assert c.get(url).status_code == 401
        other = c.post(f"{NOM}/matches", json={}).json()
        assert c.get(url, headers=_bearer(other["tokens"]["JP"])).status_code == 403
