"""The HTTP service under load: a real uvicorn server in a subprocess and 32 concurrent
clients playing 10,000 random legal actions (2,000 in `make test`; mostly Nomonhan, some
Rattenkrieg and Shumshu) with the referee token; some of them race two submissions against one ply.

Bounded by action counts, never by the clock. Checked afterwards against the SQLite file: no
5xx, no acknowledged action lost or moved (each sits in the stored log at the ply it was
submitted against, with the server's chance steps around it), no ply acknowledged twice (and
of every race exactly one submission won, the other was told 409 stale_submission), every
stored game replays to its stored state. About a minute at full size on a two-core machine
(tests/service/http_load.py is the driver; `python -m bench.service` the benchmark).
"""

from __future__ import annotations

from pathlib import Path

from tests.service.http_load import Server, check_store, race_failures, run_load
from tests.sizes import size

CLIENTS = 32
ACTIONS = size(2_000, 10_000)  # tests.sizes: 10,000 in make bench


def test_concurrent_clients_lose_nothing(tmp_path: Path) -> None:
    db = tmp_path / "load.db"
    server = Server(db, tmp_path / "server.log")
    with server:
        result = run_load(
            server.url, clients=CLIENTS, budget=ACTIONS, seed=15, race_every=4, key=server.key
        )
    print(result.summary())
    assert not result.server_errors, (result.server_errors[:5], server.stderr())
    assert not result.unexpected, result.unexpected[:5]
    assert result.transport_errors == 0, result.transport_details[:5]
    assert len(result.acks) >= ACTIONS
    assert {a.game for a in result.acks} >= {"nomonhan"}
    assert result.races, "no race was run"
    assert not race_failures(result), race_failures(result)[:5]
    check = check_store(db, result)
    assert not check.lost, check.lost[:10]
    assert not check.duplicated, check.duplicated[:10]
    assert not check.not_replaying, check.not_replaying[:10]
    assert check.games == len(result.matches)
