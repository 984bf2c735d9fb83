"""Benchmark of the HTTP service (`wargame serve`) on loopback: requests per second and the
p50/p99 latency of reading a side's view (GET .../view with the side's token) and of
submitting actions (POST .../actions with the referee's token: random legal actions of
Nomonhan, chance drawn by the server), with many concurrent clients.

    python -m bench.service [--clients 32] [--views 6000] [--actions 3000] [--no-hostile]

The server runs in a subprocess (uvicorn, one process) on a fresh SQLite file; the clients
are asyncio tasks with httpx in this process, so on a small machine they share its cores with
the server. The driver is tests/service/http_load.py (run this from the repository's root),
the same one the load and restart tests use. Exits 1 when any request failed.

In the same run, the same clients measure a minimal Litestar app on the same uvicorn
(bench/service_minimal.py: a small view, a small JSON action, no database, no rules), so the
service's rates read against what the framework alone does on this machine. Then the
hostile-client attack of tests/service/test_hostile.py runs at full size.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from tests.service.http_load import ROOT, Load, Match, Problem, Server, async_client, free_port

MIX = (("nomonhan", "ja", 1), ("nomonhan", "en", 1))


def percentile(values: list[float], q: float) -> float:
    """The `q` quantile of `values` (nearest rank)."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def _matches(load: Load, count: int, seed: int) -> list[Match]:
    rng = random.Random(f"{seed}/matches")
    async with async_client() as http:
        made = [await load.new_match(http, rng) for _ in range(count)]
    return [m for m in made if m is not None]


async def _views(load: Load, matches: list[Match], total: int, seed: int) -> float:
    """`total` GET .../view requests by one client per match, each reading its match's view
    with one side's token or the other's; the seconds they took."""
    remaining = [total]

    async def client(index: int, match: Match) -> None:
        rng = random.Random(f"{seed}/view/{index}")
        sides = sorted(r for r in match.tokens if r != "referee")
        path = f"/api/games/{match.game}/matches/{match.id}/view"
        async with async_client() as http:
            while remaining[0] > 0 and not load.stopped:
                remaining[0] -= 1
                token = match.tokens[rng.choice(sides)]
                response = await load.request(http, "view", "GET", path, token=token)
                if response is not None and response.status_code != 200:
                    problem = Problem(f"GET {path}", response.status_code, response.text[:500])
                    load.result.unexpected.append(problem)

    start = time.perf_counter()
    await asyncio.gather(*(client(i, m) for i, m in enumerate(matches)))
    return time.perf_counter() - start


def _minimal(clients: int, views: int, actions: int) -> dict[str, tuple[int, float, list[float]]]:
    """(count, seconds, latencies) of views and actions on the minimal app."""
    port = free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "bench.service_minimal:app",
            "--port",
            str(port),
            "--log-level",
            "warning",
            "--no-access-log",
        ],
        cwd=ROOT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                if httpx.get(url + "/view").status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.1)
        return {
            "view": asyncio.run(_drive(url, "GET", "/view", clients, views)),
            "action": asyncio.run(_drive(url, "POST", "/action", clients, actions)),
        }
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)


async def _drive(
    url: str, method: str, path: str, clients: int, total: int
) -> tuple[int, float, list[float]]:
    remaining = [total]
    latencies: list[float] = []

    async def client() -> None:
        async with async_client() as http:
            while remaining[0] > 0:
                remaining[0] -= 1
                body = {"ply": 0, "action": {"type": "end_phase"}} if method == "POST" else None
                start = time.perf_counter()
                response = await http.request(method, url + path, json=body)
                latencies.append(time.perf_counter() - start)
                assert response.status_code == 200, response.text

    start = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(clients)))
    return len(latencies), time.perf_counter() - start, latencies


def _row(name: str, kind: str, count: int, seconds: float, lat: list[float]) -> str:
    rate = count / seconds if seconds else 0.0
    return (
        f"{name:<8} {kind:<8} {count:>7} {seconds:>8.1f} {rate:>8.0f} "
        f"{1000 * percentile(lat, 0.50):>8.1f} {1000 * percentile(lat, 0.99):>8.1f}"
    )


def bench(clients: int, views: int, actions: int, seed: int, db: Path) -> int:
    server = Server(db, db.with_suffix(".log"))
    with server:
        load = Load(server.url, budget=actions, mix=MIX, key=server.key)
        matches = asyncio.run(_matches(load, clients, seed))
        view_seconds = asyncio.run(_views(load, matches, views, seed))
        load.result.latencies.pop("state", None)
        load.result.latencies.pop("create", None)
        result = asyncio.run(load.run(clients, seed))
    rows = [("view", view_seconds), ("action", result.elapsed)]
    minimal = _minimal(clients, views, actions)
    print(
        f"wargame serve on loopback: {clients} concurrent clients, nomonhan ja/en, "
        f"chance drawn by the server; beside it the minimal Litestar app (same uvicorn)"
    )
    print(
        f"{'app':<8} {'request':<8} {'count':>7} {'seconds':>8} {'req/s':>8} "
        f"{'p50 ms':>8} {'p99 ms':>8}"
    )
    for kind, seconds in rows:
        lat = result.latencies.get(kind, [])
        print(_row("service", kind, len(lat), seconds, lat))
        print(_row("minimal", kind, *minimal[kind]))
    failures = result.server_errors + result.unexpected
    if failures or result.transport_errors:
        print(f"FAILED: {result.summary()}", file=sys.stderr)
        for problem in failures[:5]:
            print(f"  {problem}", file=sys.stderr)
        for detail in result.transport_details[:5]:
            print(f"  {detail}", file=sys.stderr)
        print(server.stderr()[-5000:], file=sys.stderr)
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.service", description=__doc__)
    parser.add_argument("--clients", type=int, default=32, help="concurrent clients")
    parser.add_argument("--views", type=int, default=6000, help="GET .../view requests")
    parser.add_argument("--actions", type=int, default=3000, help="acknowledged actions")
    parser.add_argument("--seed", type=int, default=1, help="seed of the clients' choices")
    parser.add_argument("--db", type=Path, default=None, help="SQLite file (default: a temp)")
    parser.add_argument("--no-hostile", action="store_true", help="skip the hostile clients")
    args = parser.parse_args(argv)
    if args.db is not None:
        return bench(args.clients, args.views, args.actions, args.seed, args.db)
    with tempfile.TemporaryDirectory(prefix="bench-service-") as tmp:
        code = bench(args.clients, args.views, args.actions, args.seed, Path(tmp) / "bench.db")
    if args.no_hostile:
        return code
    with tempfile.TemporaryDirectory(prefix="bench-hostile-") as tmp:
        return code or hostile(Path(tmp))


def hostile(tmp: Path) -> int:
    """The hostile-client attack of tests/service/test_hostile.py at full size."""
    from tests.service.test_hostile import FULL, run_attack

    start = time.perf_counter()
    out = run_attack(tmp, FULL)
    tally = out["tally"]
    load = out["load"]
    print(
        f"hostile clients at full size ({FULL}) in {time.perf_counter() - start:.1f} s: "
        f"peak memory +{out['grew'] / 2**20:.0f} MB, 5xx {len(tally.fives())}, "
        f"honest play: {load.result.summary()}"
    )
    for kind, statuses in sorted(tally.statuses.items()):
        print(f"  {kind:<14} {dict(sorted(statuses.items()))}")
    failed = tally.fives() or load.result.server_errors or load.result.unexpected
    return 1 if failed or out["crashed"] or not load.result.acks else 0


if __name__ == "__main__":
    sys.exit(main())
