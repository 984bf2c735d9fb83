"""Bounded memory and work per request (issue 32, item 1), on a real server on loopback.

Twenty-four 10 MB bodies at once took the server from 124 MB to a 4.8 GB peak. Now each
route refuses more than it can legitimately receive before reading it: 24 bodies of the
largest size a route takes, 24 of 10 MB announced and 24 sent chunked must leave the
server's peak resident memory within MEMORY_BOUND of what it was, with views answered
all along. The limits are stated in the OpenAPI document.
"""

from __future__ import annotations

import asyncio
import json
import socket
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from litestar.testing import TestClient

from tests.service import hostile
from tests.service.http_load import Server
from tools.service.api import create_app
from tools.service.limits import ACTION_BODY, CREATE_BODY, JOB_BODY
from tools.service.security import H11_EVENT_BYTES, MAX_HEADER_BYTES

MEMORY_BOUND = 48 * hostile.MIB
"""The peak resident memory the flood may add: 24 bodies of the largest limit (64 KiB) are
1.5 MB; the rest is room for the allocator and the requests' Python objects."""
FLOOD = 24


def _create(server: Server) -> dict[str, Any]:
    r = httpx.post(
        f"{server.url}/api/games/nomonhan/matches",
        json={"variant": "ja"},
        headers={"Authorization": f"Bearer {server.key}"},
    )
    assert r.status_code == 201, r.text
    created: dict[str, Any] = r.json()
    return created


def test_24_maximum_and_oversized_bodies_at_once_keep_memory_bounded(tmp_path: Path) -> None:
    server = Server(tmp_path / "bounds.db", tmp_path / "server.log")
    with server:
        assert server.proc is not None
        match = _create(server)
        tally = hostile.Tally()
        target = hostile.Target.create(server.key)

        async def warm() -> None:  # every route once, so lazy imports are not counted
            await hostile.max_bodies(server.url, target, 2, tally)
            await hostile.views(server.url, match, 5, tally)

        asyncio.run(warm())
        _rss, before = hostile.memory(server.proc.pid)

        async def flood() -> None:
            await asyncio.gather(
                hostile.max_bodies(server.url, target, FLOOD, tally),
                hostile.large_bodies(server.url, target, FLOOD, 10 * hostile.MIB, tally),
                hostile.views(server.url, match, 60, tally),
            )

        asyncio.run(flood())
        _rss, after = hostile.memory(server.proc.pid)
    print(tally.statuses, dict(tally.transport), before, after)
    assert not tally.fives(), tally.fives()[:5]
    assert after - before < MEMORY_BOUND, f"peak grew {(after - before) / hostile.MIB:.0f} MB"
    assert tally.count("view", 200) == 60 + 5, tally.statuses
    maximal = tally.statuses["max_body"]
    assert maximal[201] >= 2 and set(maximal) <= {201, 429}, maximal  # 429: the create gate
    assert tally.count("announced", 413) + tally.transport["announced"] == FLOOD
    assert tally.count("announced", 413) > 0
    assert tally.count("chunked", 413) + tally.transport["chunked"] == FLOOD


def test_the_body_limits_are_stated_in_the_openapi_document(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "doc.db", run_jobs=False)) as client:
        paths = client.get("/openapi.json").json()["paths"]
    for path, limit in (
        ("/api/games/nomonhan/matches", CREATE_BODY),
        ("/api/games/nomonhan/matches/{match_id}/actions", ACTION_BODY),
        ("/api/games/nomonhan/matches/{match_id}/explain", ACTION_BODY),
        ("/api/jobs", JOB_BODY),
    ):
        operation = paths[path]["post"]
        assert f"at most {limit} bytes" in operation["description"], path
        assert {"413", "415"} <= set(operation["responses"]), path
        assert operation["requestBody"]["content"]["application/json"]["schema"], path


def test_a_body_one_byte_over_the_limit_is_413_and_at_the_limit_is_read(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "limit.db", run_jobs=False)) as client:
        url = "/api/games/nomonhan/matches"
        headers = {"Content-Type": "application/json"}
        at = hostile.padded(b'{"variant": "ja"}', CREATE_BODY)
        assert client.post(url, content=at, headers=headers).status_code == 201
        over = hostile.padded(b'{"variant": "ja"}', CREATE_BODY + 1)
        r = client.post(url, content=over, headers=headers)
        assert (r.status_code, r.json()["error"]) == (413, "too_large")


def _raw(port: int, head: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send a raw request head; the status, headers and body of the answer."""
    cut = min(len(head), H11_EVENT_BYTES - 1024)
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        for start in range(0, cut, 4096):  # in parts, as a head that long arrives
            sock.sendall(head[start : min(cut, start + 4096)])
            time.sleep(0.002)
        time.sleep(0.1)
        sock.sendall(head[cut:])  # the rest at once: read whole before the server answers
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    top, _, body = data.partition(b"\r\n\r\n")
    status_line, *header_lines = top.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (h.partition(":") for h in header_lines)}
    return int(status_line.split()[1]), headers, body


@pytest.mark.parametrize(
    ("size", "status"), [(MAX_HEADER_BYTES + 100, 431), (H11_EVENT_BYTES + 2048, 400)]
)
def test_oversized_headers_get_the_json_error_body_from_the_real_server(
    tmp_path: Path, size: int, status: int
) -> None:
    """Past the app's header limit: 431 from the app; past uvicorn's own bound on a request
    head: uvicorn's 400, with the JSON error body too (it was plain text)."""
    server = Server(tmp_path / "heads.db", tmp_path / "server.log")
    with server:
        head = b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: " + b"x" * size
        if size < H11_EVENT_BYTES:  # a whole head; the longer one is cut at its limit
            head += b"\r\nConnection: close\r\n\r\n"
        code, headers, body = _raw(server.port, head)
        assert code == status, body[:200]
        assert headers["content-type"].startswith("application/json")
        assert json.loads(body)["error"] in ("headers_too_large", "invalid_request")
        assert headers["x-content-type-options"] == "nosniff"
        ok = httpx.get(f"{server.url}/api/games")
        assert ok.status_code == 200
