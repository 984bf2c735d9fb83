"""Hostile clients at once on one loopback server (issue 32, item 7), bounded by counts.

While honest clients play their matches (racing two submissions against one ply every third
step), others flood it with creations with and without the key, with explore jobs of the
largest budget with and without the key, with bodies of the largest size a route takes,
with 10 MB bodies announced and chunked, and with slow bodies. Afterwards: no 5xx anywhere,
the server's peak memory within MEMORY_BOUND of where it started, nothing created or queued
without the key, no more creations than the client's rate nor jobs than the queue allows,
every acknowledged action stored at its ply, every race won exactly once, and every match
replaying to its stored state. `make bench` runs it at full size (bench/service_hostile.py).
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.service import hostile
from tests.service.http_load import Load, Match, Server, async_client, check_store, race_failures
from tests.sizes import size
from tools.service.jobs import MAX_QUEUED
from tools.service.store import Store

MEMORY_BOUND = {False: 64 * hostile.MIB, True: 128 * hostile.MIB}
"""The peak resident memory the attack may add, quick and at full size (four times the
attackers): it added 4.7 GB before the limits, from 24 bodies of 10 MB."""
RATE = 1.0
"""The server's creations a minute per client after the burst (`--create-rate`): one, so
that the attack's few minutes add a creation or two at most."""
BURST = 20
"""The server's creations at once per client (`wargame serve --create-burst`): the honest
clients' matches are made first, within it."""


@dataclass(frozen=True)
class Sizes:
    matches: int
    steps: int
    creations: int
    jobs: int
    bodies: int
    slow: int


QUICK = Sizes(matches=6, steps=30, creations=60, jobs=30, bodies=24, slow=12)
FULL = Sizes(matches=16, steps=150, creations=600, jobs=200, bodies=96, slow=48)


async def _matches(load: Load, count: int) -> list[Match]:
    rng = random.Random(7)
    async with async_client() as http:
        made = [await load.new_match(http, rng) for _ in range(count)]
    return [m for m in made if m is not None]


async def _attack(server: Server, load: Load, matches: list[Match], s: Sizes) -> Any:
    tally = hostile.Tally()
    target = {"game": matches[0].game, "id": matches[0].id, "tokens": matches[0].tokens}
    bodies = hostile.Target.explain(target)
    results = await asyncio.gather(
        hostile.honest_play(load, matches, s.steps, seed=3),
        hostile.creation_flood(server.url, server.key, s.creations, tally),
        hostile.creation_flood(server.url, None, s.creations, tally),
        hostile.job_flood(server.url, server.key, s.jobs, tally),
        hostile.job_flood(server.url, None, s.jobs, tally),
        hostile.max_bodies(server.url, bodies, s.bodies, tally),
        hostile.large_bodies(server.url, bodies, s.bodies, 10 * hostile.MIB, tally),
        hostile.slow_bodies(server.url, target, s.slow, tally),
        hostile.views(server.url, target, s.steps, tally),
    )
    started: list[Any] = list(results[3] or [])
    await hostile.cancel_all(server.url, started, tally)
    return tally, started


def run_attack(tmp: Path, s: Sizes) -> dict[str, Any]:
    """The attack on a fresh server; what the checks need (also used by the benchmark)."""
    db = tmp / "hostile.db"
    server = Server(db, tmp / "server.log", create_rate=RATE, create_burst=BURST)
    with server:
        assert server.proc is not None
        load = Load(server.url, budget=10**9, key=server.key)
        matches = asyncio.run(_matches(load, s.matches))
        _rss, before = hostile.memory(server.proc.pid)
        start = time.perf_counter()
        tally, started = asyncio.run(_attack(server, load, matches, s))
        load.result.elapsed = time.perf_counter() - start
        _rss, after = hostile.memory(server.proc.pid)
        crashed = server.crashed()
    return {
        "db": db,
        "server": server,
        "load": load,
        "matches": matches,
        "tally": tally,
        "started": started,
        "grew": after - before,
        "crashed": crashed,
    }


def test_hostile_clients_at_once_get_no_5xx_and_lose_nothing(tmp_path: Path) -> None:
    s = FULL if size(0, 1) else QUICK
    out = run_attack(tmp_path, s)
    tally: hostile.Tally = out["tally"]
    load: Load = out["load"]
    print(tally.statuses, dict(tally.transport), load.result.summary(), out["grew"])
    assert out["crashed"] is None
    assert not tally.fives(), tally.fives()[:5]
    assert not load.result.server_errors, load.result.server_errors[:5]
    assert not load.result.unexpected, load.result.unexpected[:5]
    assert load.result.transport_errors == 0, load.result.transport_details[:5]
    bound = MEMORY_BOUND[s is FULL]
    assert out["grew"] < bound, f"peak grew {out['grew'] / hostile.MIB:.0f} MB"
    # nothing without the key (the key the server printed as its link)
    assert f"/enter?key={out['server'].key} " in out["server"].stderr()
    assert tally.statuses["create_nokey"] == {401: s.creations}
    assert tally.statuses["job_nokey"] == {401: s.jobs}
    # creation within the client's rate, jobs within the queue, each cancelled by its token
    created = tally.count("create", 201)
    refilled = 1 + int(RATE * load.result.elapsed / 60)  # the rate's minutes: the clock's
    assert len(out["matches"]) == s.matches, tally.statuses
    assert created + s.matches <= BURST + refilled, tally.statuses
    assert set(tally.statuses["create"]) <= {201, 429}
    assert len(out["started"]) <= MAX_QUEUED
    assert tally.count("cancel", 200) == len(out["started"])
    with Store(out["db"]) as store:
        assert len(store.game_ids()) == len(out["matches"]) + created
        assert all(j.status == "cancelled" for j in store.jobs()), store.jobs()
    # honest play: every acknowledged action stored, every race won once, every match replays
    assert len(load.result.acks) >= len(out["matches"]), load.result.summary()
    assert load.result.races and not race_failures(load.result), race_failures(load.result)[:5]
    check = check_store(out["db"], load.result)
    assert not check.lost and not check.duplicated, (check.lost[:5], check.duplicated[:5])
    assert not check.not_replaying, check.not_replaying[:5]
    assert tally.count("view", 200) == s.steps
    maximal = tally.statuses["max_body"]  # the explain gate: 2 at work, 64 waiting, 429 past
    assert set(maximal) <= {200, 429} and maximal[200] >= min(s.bodies, 2 + 64), maximal
    for kind in ("announced", "chunked"):  # refused, or the connection closed on the rest
        assert tally.count(kind, 413) + tally.transport[kind] == s.bodies, kind
    slow = tally.statuses["slow"]
    # a body of spaces is no JSON: 400; one still arriving after 30 s (a crowded machine) 408
    assert set(slow) <= {400, 408}, slow
