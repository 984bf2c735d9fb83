"""The HTTP service killed mid-load and started again on the same SQLite file.

16 clients play random legal actions; after a count of acknowledged actions (not a timer)
the server process gets SIGKILL (or SIGTERM, the graceful variant). Started again on the same
file, the server must have kept every acknowledged action at its ply, every game must replay
to its stored state, the server must serve every match's state as stored, and play must go on
in the old matches (with their old tokens).
"""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from tests.service.http_load import (
    LoadResult,
    Server,
    check_store,
    race_failures,
    referee_states,
    resume_load,
    run_load,
)
from tools.service.store import Store


def _load_until_stopped(
    server: Server, sig: int, *, clients: int, budget: int, at: int
) -> LoadResult:
    def on_ack(count: int) -> None:
        if count == at:
            server.send(sig)

    return run_load(
        server.url,
        clients=clients,
        budget=budget,
        seed=sig,
        race_every=4,
        on_ack=on_ack,
        key=server.key,
    )


@pytest.mark.parametrize(
    ("sig", "clients", "budget", "at"),
    [(signal.SIGKILL, 16, 800, 400), (signal.SIGTERM, 8, 400, 200)],
    ids=["sigkill", "sigterm"],
)
def test_restart_keeps_every_acknowledged_action(
    tmp_path: Path, sig: int, clients: int, budget: int, at: int
) -> None:
    db = tmp_path / "restart.db"
    log = tmp_path / "server.log"
    server = Server(db, log)
    server.start()
    try:
        result = _load_until_stopped(server, sig, clients=clients, budget=budget, at=at)
        # SIGTERM: the server finishes what it has begun and exits by itself
        code = server.wait(60.0 if sig == signal.SIGTERM else 10.0)
    finally:
        server.stop(signal.SIGKILL)
    print(result.summary(), "exit", code)
    assert not result.server_errors, (result.server_errors[:5], server.stderr())
    assert not result.unexpected, result.unexpected[:5]
    assert not race_failures(result), race_failures(result)[:5]
    assert at <= len(result.acks) < budget, "the server was not stopped mid-load"
    if sig == signal.SIGKILL:
        assert code == -signal.SIGKILL
    else:
        # a graceful stop finishes the requests it has begun: nothing is applied unanswered
        assert code in (0, -signal.SIGTERM), server.stderr()
        assert "Traceback" not in server.stderr(), server.stderr()

    check = check_store(db, result, finished=sig != signal.SIGKILL)
    assert not check.lost, check.lost[:10]
    assert not check.duplicated, check.duplicated[:10]
    assert not check.not_replaying, check.not_replaying[:10]

    again = Server(db, log)
    again.key = server.key
    with again:
        matches = list(result.matches.values())
        states = referee_states(again.url, matches)
        with Store(db) as store:
            assert set(store.game_ids()) == set(result.matches)
            for match in matches:
                response = states[match.id]
                assert response.status_code == 200, response.text
                record = store.get(match.id)
                assert response.json()["ply"] == record.ply
                assert response.json()["state"] == record.state
        more = resume_load(again.url, matches, steps=5, seed=sig)
    print(more.summary())
    assert not more.server_errors, (more.server_errors[:5], again.stderr())
    assert not more.unexpected, more.unexpected[:5]
    assert more.transport_errors == 0, more.transport_details[:5]
    assert more.acks, "no old match could go on"
    assert {a.match for a in more.acks} <= set(result.matches)
    resumed = check_store(db, more)
    assert resumed.ok, (resumed.lost[:10], resumed.duplicated[:10], resumed.not_replaying[:10])
    assert check_store(db, result, finished=False).ok
