"""A load driver for `wargame serve`: a real uvicorn server in a subprocess on loopback, and
many concurrent httpx clients (asyncio tasks) that create matches and play random legal
actions with the referee token until an action budget is used.

Shared by tests/service/test_load.py, tests/service/test_restart.py and bench/service.py
(one implementation). Every acknowledged submission (200) is recorded as an `Ack` so that the
store can be checked afterwards (`check_store`): each acknowledged action at the ply it was
submitted against, no ply acknowledged twice, every game replaying to its stored state. Some
clients race: they send two submissions against the same ply of one match at once, and
exactly one of them must succeed (the other: 409 stale_submission).

Everything is bounded by counts (actions, attempts), never by the clock; the client timeouts
are generous and only keep a broken server from hanging the caller.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import random
import secrets
import signal
import socket
import ssl
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import msgspec

ROOT = Path(__file__).resolve().parents[2]

DEFAULT_MIX: tuple[tuple[str, str | None, int], ...] = (
    ("nomonhan", "ja", 10),
    ("nomonhan", "en", 10),
    ("rattenkrieg", None, 1),
    ("shumshu", None, 1),
)
"""(game, preset or None for the default, weight): what the clients create matches of."""

CLIENT_TIMEOUT = httpx.Timeout(120.0, connect=30.0)

SSL = ssl.create_default_context()
"""Shared by every client: httpx would otherwise load the CA bundle again per client (0.1 s
of CPU each), although on loopback nothing is encrypted."""


LIMITS = httpx.Limits(keepalive_expiry=1.0)
"""Idle connections are dropped by the client after 1 s, well before uvicorn closes them (5 s):
else a request sent just as the server closes its idle connection fails without an answer (a
racing client's second connection idles between races)."""


def async_client() -> httpx.AsyncClient:
    return httpx.AsyncClient(timeout=CLIENT_TIMEOUT, verify=SSL, limits=LIMITS)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """`python -m tools.cli.commands serve` on 127.0.0.1 in a subprocess; its stderr goes to a file
    (`log`) so that a traceback can be read after a 5xx."""

    def __init__(
        self,
        db: Path,
        log: Path,
        port: int | None = None,
        *,
        create_rate: float = 100_000.0,
        create_burst: int = 10_000,
        extra: Sequence[str] = (),
    ) -> None:
        self.db = db
        self.log = log
        self.port = free_port() if port is None else port
        self.key = secrets.token_urlsafe(32)
        """The server's key (creating needs it); the same across restarts of this Server."""
        self.create_rate = create_rate
        self.create_burst = create_burst
        self.extra = list(extra)
        self.proc: subprocess.Popen[bytes] | None = None
        self.sent: set[int] = set()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, attempts: int = 300) -> None:
        """Start the server and wait until GET /api/games answers 200 (at most `attempts`
        polls, 0.1 s apart). When another process took the free port meanwhile, start again
        on another (at most three times)."""
        for _ in range(3):
            if self._start(attempts):
                return
            self.port = free_port()
        raise RuntimeError(f"no free port for the server: {self.stderr()}")

    def _start(self, attempts: int) -> bool:
        offset = self.log.stat().st_size if self.log.exists() else 0
        with self.log.open("ab") as err:
            serve = ["serve", "--db", str(self.db), "--host", "127.0.0.1", "--port", str(self.port)]
            serve += ["--create-rate", str(self.create_rate)]
            serve += ["--create-burst", str(self.create_burst), *self.extra]
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "tools.cli.commands", *serve],
                cwd=ROOT,
                stdout=subprocess.DEVNULL,
                stderr=err,
                env={
                    **os.environ,
                    "PYTHONUNBUFFERED": "1",
                    "PYTHONFAULTHANDLER": "1",
                    "WARGAME_SERVER_KEY": self.key,
                },
            )
        with httpx.Client(timeout=5.0, verify=SSL) as client:
            for _ in range(attempts):
                if self.proc.poll() is not None:
                    said = self.stderr(offset)
                    if "address already in use" in said.lower():
                        return False
                    code = self.proc.returncode
                    raise RuntimeError(f"the server exited with {code}: {said}")
                try:
                    if client.get(f"{self.url}/api/games").status_code == 200:
                        return True
                except httpx.TransportError:
                    pass
                time.sleep(0.1)
        self.stop(signal.SIGKILL)
        raise RuntimeError(f"the server did not answer after {attempts} attempts: {self.stderr()}")

    def stop(self, sig: int = signal.SIGTERM, wait: float = 60.0) -> int | None:
        """Send `sig` and wait for the process to end (its exit code)."""
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.sent.add(sig)
            self.proc.send_signal(sig)
        try:
            return self.proc.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()

    def wait(self, timeout: float = 60.0) -> int | None:
        """Wait for the process to end by itself (its exit code; None if it did not)."""
        if self.proc is None:
            return None
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def send(self, sig: int) -> None:
        """Send `sig` without waiting (SIGKILL: no chance to finish anything)."""
        if self.proc is not None and self.proc.poll() is None:
            self.sent.add(sig)
            self.proc.send_signal(sig)

    def crashed(self) -> int | None:
        """The signal the server died of by itself (e.g. SIGSEGV), None otherwise."""
        code = None if self.proc is None else self.proc.poll()
        if code is None or code >= 0 or -code in self.sent:
            return None
        return -code

    def kill(self) -> None:
        self.send(signal.SIGKILL)

    def stderr(self, offset: int = 0) -> str:
        """What the server wrote to stderr (from byte `offset`), its last 20,000 characters."""
        try:
            with self.log.open("rb") as f:
                f.seek(offset)
                return f.read().decode("utf-8", errors="replace")[-20_000:]
        except OSError:
            return ""

    def __enter__(self) -> Server:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


@dataclass(frozen=True)
class Ack:
    """An acknowledged (200) submission: `action` submitted against `ply`; the server
    answered at `returned` (later than `ply + 1` when it drew chance steps after it)."""

    game: str
    match: str
    ply: int
    action: Any
    returned: int


@dataclass
class Match:
    game: str
    id: str
    tokens: dict[str, str]
    ply: int
    legal: list[Any]
    over: bool = False


@dataclass
class Problem:
    """A response that should not have happened (a 5xx, an unexpected status)."""

    request: str
    status: int
    body: str


@dataclass
class Race:
    match: str
    ply: int
    statuses: tuple[int, int]
    errors: tuple[str, str]


@dataclass
class LoadResult:
    acks: list[Ack] = field(default_factory=list)
    matches: dict[str, Match] = field(default_factory=dict)
    statuses: Counter[int] = field(default_factory=Counter)
    server_errors: list[Problem] = field(default_factory=list)
    unexpected: list[Problem] = field(default_factory=list)
    races: list[Race] = field(default_factory=list)
    transport_errors: int = 0
    transport_details: list[str] = field(default_factory=list)
    games_ended: int = 0
    gaps: int = 0
    requests: int = 0
    elapsed: float = 0.0
    latencies: dict[str, list[float]] = field(default_factory=dict)

    def summary(self) -> str:
        rate = len(self.acks) / self.elapsed if self.elapsed else 0.0
        per_game = Counter(a.game for a in self.acks)
        return (
            f"{len(self.acks)} actions acknowledged in {self.elapsed:.1f} s ({rate:.0f}/s) "
            f"{dict(sorted(per_game.items()))}, "
            f"{self.requests} requests, {len(self.matches)} matches "
            f"({self.games_ended} ended), {len(self.races)} races, statuses "
            f"{dict(sorted(self.statuses.items()))}, transport errors {self.transport_errors}"
        )


def decode(response: httpx.Response) -> Any:
    """A response's JSON body (msgspec: the clients share the cores with the server)."""
    return msgspec.json.decode(response.content)


def _error(response: httpx.Response) -> str:
    """The `error` of an error body ("" for a 200 or a body that is not ours)."""
    if response.status_code == 200:
        return ""
    try:
        return str(decode(response).get("error", ""))
    except (msgspec.DecodeError, AttributeError):
        return ""


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Load:
    """The shared state of one run: the budget, what was acknowledged, what went wrong."""

    def __init__(
        self,
        url: str,
        *,
        budget: int,
        mix: Sequence[tuple[str, str | None, int]] = DEFAULT_MIX,
        race_every: int = 0,
        on_ack: Callable[[int], None] | None = None,
        key: str | None = None,
    ) -> None:
        self.url = url
        self.key = key
        self.budget = budget
        self.mix = list(mix)
        self.race_every = race_every
        self.on_ack = on_ack
        self.result = LoadResult()
        self.stopped = False

    def _time(self, kind: str, seconds: float) -> None:
        self.result.latencies.setdefault(kind, []).append(seconds)

    async def request(
        self,
        client: httpx.AsyncClient,
        kind: str,
        method: str,
        path: str,
        *,
        token: str | None = None,
        body: Any = None,
    ) -> httpx.Response | None:
        """One request; None when the server cannot be reached (then the run stops)."""
        start = time.perf_counter()
        try:
            response = await client.request(
                method,
                self.url + path,
                headers=_auth(token) if token else None,
                json=body,
            )
        except httpx.TransportError as exc:
            self.result.transport_errors += 1
            self.result.transport_details.append(f"{method} {path}: {type(exc).__name__} {exc}")
            self.stopped = True
            return None
        self._time(kind, time.perf_counter() - start)
        self.result.requests += 1
        self.result.statuses[response.status_code] += 1
        if response.status_code >= 500:
            problem = Problem(
                f"{method} {path} {json.dumps(body)}", response.status_code, response.text
            )
            self.result.server_errors.append(problem)
        return response

    def _unexpected(self, request: str, response: httpx.Response) -> None:
        if response.status_code < 500:
            self.result.unexpected.append(Problem(request, response.status_code, response.text))

    @property
    def done(self) -> bool:
        return self.stopped or len(self.result.acks) >= self.budget

    async def new_match(self, client: httpx.AsyncClient, rng: random.Random) -> Match | None:
        weights = [w for _g, _p, w in self.mix]
        game, preset, _w = rng.choices(self.mix, weights=weights)[0]
        body: dict[str, Any] = {"chance": "server"}
        if preset is not None:
            body["variant"] = preset
        path = f"/api/games/{game}/matches"
        response = await self.request(client, "create", "POST", path, token=self.key, body=body)
        if response is None:
            return None
        if response.status_code != 201:
            self._unexpected(f"POST {path}", response)
            self.stopped = True
            return None
        created = decode(response)
        tokens: dict[str, str] = created["tokens"]
        match = Match(game, created["id"], tokens, created["ply"], [])
        self.result.matches[match.id] = match
        state = await self.request(
            client,
            "state",
            "GET",
            f"/api/games/{game}/matches/{match.id}/state",
            token=tokens["referee"],
        )
        if state is None or not self._take(match, state):
            return None
        return match

    def _take(self, match: Match, response: httpx.Response, body: Any = None) -> bool:
        """Read a referee state response (`body`: its decoded JSON when already decoded) into
        `match`; False when it is not one."""
        if response.status_code != 200:
            self._unexpected(f"{match.game} {match.id}", response)
            return False
        if body is None:
            body = decode(response)
        match.ply = int(body["ply"])
        match.legal = list(body["legal_actions"])
        if body["to_move"] is None:
            match.over = True
            self.result.games_ended += 1
        elif not match.legal:
            match.over = True  # a gap in the rules (no legal action): start another match
            self.result.gaps += 1
        return True

    def _acked(self, match: Match, ply: int, action: Any, returned: int) -> None:
        self.result.acks.append(Ack(match.game, match.id, ply, action, returned))
        if self.on_ack is not None:
            self.on_ack(len(self.result.acks))

    async def act(self, client: httpx.AsyncClient, match: Match, rng: random.Random) -> bool:
        """Submit one random legal action (False when the run must stop)."""
        action = rng.choice(match.legal)
        ply = match.ply
        path = f"/api/games/{match.game}/matches/{match.id}/actions"
        response = await self.request(
            client,
            "action",
            "POST",
            path,
            token=match.tokens["referee"],
            body={"ply": ply, "action": action},
        )
        if response is None:
            return False
        if response.status_code != 200:
            self._unexpected(f"POST {path} ply={ply} action={json.dumps(action)}", response)
            return False
        body = decode(response)
        self._acked(match, ply, action, int(body["ply"]))
        return self._take(match, response, body)

    async def race(self, client: httpx.AsyncClient, match: Match, rng: random.Random) -> bool:
        """Two submissions against the same ply at once (two random legal actions): exactly
        one must be acknowledged, the other refused with 409 stale_submission."""
        ply = match.ply
        actions = [rng.choice(match.legal), rng.choice(match.legal)]
        path = f"/api/games/{match.game}/matches/{match.id}/actions"
        token = match.tokens["referee"]
        responses = await asyncio.gather(
            *(
                self.request(
                    client, "action", "POST", path, token=token, body={"ply": ply, "action": a}
                )
                for a in actions
            )
        )
        bodies = [None if r is None or r.status_code != 200 else decode(r) for r in responses]
        for action, body in zip(actions, bodies, strict=True):
            if body is not None:  # recorded even if both won: check_store finds the duplicate
                self._acked(match, ply, action, int(body["ply"]))
        first, second = responses
        if first is None or second is None:
            return False
        self.result.races.append(
            Race(
                match.id,
                ply,
                (first.status_code, second.status_code),
                (_error(first), _error(second)),
            )
        )
        winners = [(r, b) for r, b in zip(responses, bodies, strict=True) if b is not None]
        if len(winners) != 1:
            return False
        response, body = winners[0]
        assert response is not None
        return self._take(match, response, body)

    async def client(self, index: int, seed: int) -> None:
        rng = random.Random(f"{seed}/{index}")
        racer = self.race_every > 0 and index % self.race_every == 0
        async with async_client() as client:
            match: Match | None = None
            while not self.done:
                if match is None or match.over:
                    match = await self.new_match(client, rng)
                    if match is None:
                        return
                    continue
                if racer and rng.random() < 0.25:
                    ok = await self.race(client, match, rng)
                else:
                    ok = await self.act(client, match, rng)
                if not ok:
                    return

    async def resume_client(self, match: Match, steps: int, seed: int) -> None:
        """Play up to `steps` more actions in an existing match, from its current state."""
        rng = random.Random(f"{seed}/{match.id}")
        async with async_client() as client:
            path = f"/api/games/{match.game}/matches/{match.id}/state"
            response = await self.request(
                client, "state", "GET", path, token=match.tokens["referee"]
            )
            match.over = False
            if response is None or not self._take(match, response):
                return
            for _ in range(steps):
                if match.over or self.stopped or not await self.act(client, match, rng):
                    return

    async def resume(self, matches: Sequence[Match], steps: int, seed: int = 0) -> LoadResult:
        start = time.perf_counter()
        await asyncio.gather(*(self.resume_client(m, steps, seed) for m in matches))
        self.result.elapsed = time.perf_counter() - start
        return self.result

    async def run(self, clients: int, seed: int = 0) -> LoadResult:
        start = time.perf_counter()
        await asyncio.gather(*(self.client(i, seed) for i in range(clients)))
        self.result.elapsed = time.perf_counter() - start
        return self.result


def run_load(
    url: str,
    *,
    clients: int,
    budget: int,
    seed: int = 0,
    mix: Sequence[tuple[str, str | None, int]] = DEFAULT_MIX,
    race_every: int = 0,
    on_ack: Callable[[int], None] | None = None,
    key: str | None = None,
) -> LoadResult:
    """Run `clients` concurrent clients until `budget` actions are acknowledged (or the
    server stops answering); `key` is the server's (to create matches)."""
    load = Load(url, budget=budget, mix=mix, race_every=race_every, on_ack=on_ack, key=key)
    return asyncio.run(load.run(clients, seed))


def resume_load(url: str, matches: Sequence[Match], *, steps: int, seed: int = 0) -> LoadResult:
    """Play up to `steps` more actions in each of `matches` (copies: the originals keep the
    state they were left in), each match by its own client."""
    copies = [Match(m.game, m.id, dict(m.tokens), m.ply, list(m.legal), m.over) for m in matches]
    load = Load(url, budget=len(copies) * steps)
    return asyncio.run(load.resume(copies, steps, seed))


def referee_states(url: str, matches: Sequence[Match]) -> dict[str, httpx.Response]:
    """GET .../state of each match with its referee token, one request after another."""
    out: dict[str, httpx.Response] = {}
    with httpx.Client(timeout=CLIENT_TIMEOUT, verify=SSL) as client:
        for m in matches:
            out[m.id] = client.get(
                f"{url}/api/games/{m.game}/matches/{m.id}/state", headers=_auth(m.tokens["referee"])
            )
    return out


# --- checks ------------------------------------------------------------------------------------


@dataclass
class StoreCheck:
    lost: list[str] = field(default_factory=list)
    duplicated: list[str] = field(default_factory=list)
    not_replaying: list[str] = field(default_factory=list)
    games: int = 0
    stored_actions: int = 0

    @property
    def ok(self) -> bool:
        return not (self.lost or self.duplicated or self.not_replaying)


def check_store(db: Path, result: LoadResult, *, finished: bool = True) -> StoreCheck:
    """Compare the acknowledged submissions with the stored logs: each action at the ply it
    was submitted against, each (match, ply) acknowledged once, and each match's acks a chain
    (the next submitted against the ply the previous one returned). With `finished` (the
    server was not killed mid-request), each match also stands at its last returned ply.
    Every stored game must replay to its stored state."""
    from tools.service.store import Store

    check = StoreCheck()
    per_ply = Counter((a.match, a.ply) for a in result.acks)
    check.duplicated += [
        f"{m} ply {p} acknowledged {n} times" for (m, p), n in per_ply.items() if n > 1
    ]
    by_match: dict[str, list[Ack]] = {}
    for ack in result.acks:
        by_match.setdefault(ack.match, []).append(ack)
    with Store(db) as store:
        for match_id, acks in by_match.items():
            log = store.log(match_id)
            for ack in acks:
                if ack.ply >= len(log) or log[ack.ply] != ack.action:
                    stored = log[ack.ply] if ack.ply < len(log) else None
                    check.lost.append(
                        f"{ack.game} {match_id} ply {ack.ply}: acknowledged "
                        f"{json.dumps(ack.action)}, stored {json.dumps(stored)}"
                    )
                if ack.returned <= ack.ply or ack.returned > len(log):
                    check.lost.append(
                        f"{ack.game} {match_id} ply {ack.ply}: returned ply {ack.returned}, "
                        f"{len(log)} stored"
                    )
            ordered = sorted(acks, key=lambda a: a.ply)
            for before, after in itertools.pairwise(ordered):
                if after.ply != before.returned:
                    check.lost.append(
                        f"{match_id}: acknowledged at ply {before.ply} returning "
                        f"{before.returned}, next acknowledged at ply {after.ply}"
                    )
            if finished and ordered and store.get(match_id).ply != ordered[-1].returned:
                check.lost.append(
                    f"{match_id}: stored ply {store.get(match_id).ply}, last acknowledged "
                    f"returned {ordered[-1].returned}"
                )
        for game_id in store.game_ids():
            check.games += 1
            check.stored_actions += store.get(game_id).ply
            if not store.replay(game_id):
                check.not_replaying.append(game_id)
    return check


def race_failures(result: LoadResult) -> list[Race]:
    """The races that did not end with exactly one 200 and one 409 stale_submission."""
    return [
        r
        for r in result.races
        if sorted(r.statuses) != [200, 409] or "stale_submission" not in r.errors
    ]
