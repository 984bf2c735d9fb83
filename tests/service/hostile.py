"""Hostile clients for `wargame serve`, shared by tests/service/test_bounds.py,
tests/service/test_hostile.py and bench/service_hostile.py: floods of creation, of jobs, of
maximum-size and oversized bodies, of slow bodies, run at once against one server on
loopback while honest clients play (`http_load.Load`). Every count is fixed by the caller;
the clock only bounds how long a broken server may hang the driver.

The server's memory is read from /proc (`VmHWM`, the peak resident set, and `VmRSS`).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from tests.service.http_load import async_client
from tools.service.limits import ACTION_BODY, CREATE_BODY, JOB_BODY

MIB = 1024 * 1024


def memory(pid: int) -> tuple[int, int]:
    """(resident, peak resident) of process `pid`, in bytes (Linux /proc)."""
    fields: dict[str, int] = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            fields[name] = int(value.split()[0]) * 1024
    return fields["VmRSS"], fields["VmHWM"]


def padded(document: bytes, size: int) -> bytes:
    """`document` padded with spaces to exactly `size` bytes (still the same JSON)."""
    return document + b" " * (size - len(document))


@dataclass
class Tally:
    """What the hostile clients were answered: statuses by kind of attack, and the
    transport errors (a connection the server closed on an oversized body)."""

    statuses: dict[str, Counter[int]] = field(default_factory=dict)
    transport: Counter[str] = field(default_factory=Counter)
    bodies: list[str] = field(default_factory=list)

    def add(self, kind: str, response: httpx.Response | None) -> None:
        if response is None:
            self.transport[kind] += 1
            return
        self.statuses.setdefault(kind, Counter())[response.status_code] += 1
        if response.status_code >= 500:
            self.bodies.append(f"{kind}: {response.status_code} {response.text[:300]}")

    def fives(self) -> list[str]:
        return self.bodies

    def count(self, kind: str, status: int) -> int:
        return self.statuses.get(kind, Counter())[status]


async def _send(
    http: httpx.AsyncClient, tally: Tally, kind: str, method: str, url: str, **kw: Any
) -> httpx.Response | None:
    try:
        response = await http.request(method, url, **kw)
    except httpx.TransportError:
        response = None
    tally.add(kind, response)
    return response


async def _slow(size: int, pieces: int) -> AsyncIterator[bytes]:
    """A body sent in `pieces` parts with a pause between them (a slow client)."""
    part = max(1, size // pieces)
    for _ in range(pieces):
        await asyncio.sleep(0.05)
        yield b" " * part


def _json(key: str | None) -> dict[str, str]:
    headers = {"Content-Type": "application/json"}
    if key is not None:
        headers["Authorization"] = f"Bearer {key}"
    return headers


@dataclass(frozen=True)
class Target:
    """Where bodies are sent: a route, its credential and a valid document for it."""

    path: str
    token: str
    document: bytes
    limit: int

    @classmethod
    def create(cls, key: str) -> Target:
        return cls("/api/games/nomonhan/matches", key, b'{"variant": "ja", "seed": 1}', CREATE_BODY)

    @classmethod
    def explain(cls, match: dict[str, Any]) -> Target:
        path = f"/api/games/{match['game']}/matches/{match['id']}/explain"
        document = b'{"action": {"type": "end_phase"}}'
        return cls(path, match["tokens"]["referee"], document, ACTION_BODY)


async def max_bodies(url: str, target: Target, count: int, tally: Tally) -> None:
    """`count` bodies at once, each exactly the route's limit (valid JSON)."""
    body = padded(target.document, target.limit)
    async with async_client() as http:
        await asyncio.gather(
            *(
                _send(
                    http,
                    tally,
                    "max_body",
                    "POST",
                    url + target.path,
                    content=body,
                    headers=_json(target.token),
                )
                for _ in range(count)
            )
        )


async def large_bodies(url: str, target: Target, count: int, size: int, tally: Tally) -> None:
    """`count` bodies of `size` bytes at once, announced by Content-Length (refused from the
    header: 413) and as many sent chunked, without a length (refused at the limit)."""

    async def chunked() -> AsyncIterator[bytes]:
        sent = 0
        while sent < size:
            yield b" " * min(MIB, size - sent)
            sent += MIB

    async with async_client() as http:
        path = url + target.path
        announced = {**_json(target.token), "Content-Length": str(size)}
        await asyncio.gather(
            *(
                _send(http, tally, "announced", "POST", path, content=chunked(), headers=announced)
                for _ in range(count)
            ),
            *(
                _send(
                    http,
                    tally,
                    "chunked",
                    "POST",
                    path,
                    content=chunked(),
                    headers=_json(target.token),
                )
                for _ in range(count)
            ),
        )


async def slow_bodies(url: str, match: dict[str, Any], count: int, tally: Tally) -> None:
    """`count` explain bodies trickled in 10 pieces each, all at once."""
    at = f"{url}/api/games/{match['game']}/matches/{match['id']}/explain"
    headers = _json(match["tokens"]["referee"])
    async with async_client() as http:
        await asyncio.gather(
            *(
                _send(
                    http,
                    tally,
                    "slow",
                    "POST",
                    at,
                    content=_slow(ACTION_BODY // 2, 10),
                    headers=headers,
                )
                for _ in range(count)
            )
        )


async def creation_flood(url: str, key: str | None, count: int, tally: Tally) -> None:
    """`count` creations at once (with the key, or without: `key` None)."""
    kind = "create" if key is not None else "create_nokey"
    async with async_client() as http:
        await asyncio.gather(
            *(
                _send(
                    http,
                    tally,
                    kind,
                    "POST",
                    url + "/api/games/nomonhan/matches",
                    json={"variant": "en"},
                    headers=_json(key),
                )
                for _ in range(count)
            )
        )


async def job_flood(url: str, key: str | None, count: int, tally: Tally) -> list[Any]:
    """`count` explore jobs of the largest budget at once; the jobs accepted (id, token)."""
    kind = "job" if key is not None else "job_nokey"
    body = {"kind": "explore", "game": "nomonhan", "budget": 300}
    async with async_client() as http:
        answers = await asyncio.gather(
            *(
                _send(http, tally, kind, "POST", url + "/api/jobs", json=body, headers=_json(key))
                for _ in range(count)
            )
        )
    assert JOB_BODY > 0
    return [r.json() for r in answers if r is not None and r.status_code == 202]


async def views(url: str, match: dict[str, Any], count: int, tally: Tally) -> None:
    """`count` honest view reads, one after another."""
    at = f"{url}/api/games/{match['game']}/matches/{match['id']}/view"
    headers = {"Authorization": f"Bearer {match['tokens']['JP']}"}
    async with async_client() as http:
        for _ in range(count):
            await _send(http, tally, "view", "GET", at, headers=headers)


async def honest_play(load: Any, matches: list[Any], steps: int, seed: int) -> None:
    """Each match played `steps` more actions by its own client with the referee token,
    every third step a race of two submissions against one ply (`http_load.Load`)."""
    import random

    async def one(match: Any) -> None:
        rng = random.Random(f"{seed}/{match.id}")
        async with async_client() as http:
            path = f"/api/games/{match.game}/matches/{match.id}/state"
            response = await load.request(http, "state", "GET", path, token=match.tokens["referee"])
            if response is None or not load._take(match, response):
                return
            for step in range(steps):
                if match.over or load.stopped:
                    return
                act = load.race if step % 3 == 2 else load.act
                if not await act(http, match, rng):
                    return

    await asyncio.gather(*(one(m) for m in matches))


async def cancel_all(url: str, started: list[Any], tally: Tally) -> None:
    """Cancel each job started, with its own token."""
    async with async_client() as http:
        for job in started:
            headers = {"Authorization": f"Bearer {job['token']}"}
            await _send(
                http, tally, "cancel", "DELETE", f"{url}/api/jobs/{job['id']}", headers=headers
            )
