"""The HTTP service's contract (issue 15, items 1 to 3): access by token, status codes, what
each role may do, server-drawn chance and the random agent, explanations by clause, exact
chance probabilities, the log as each reader may see it, and jobs that outlive the server."""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from kernel.game import CHANCE
from tools.cli.commands import main
from tools.registry import get_game
from tools.service.api import create_app
from tools.service.jobs import JobRunner, run_job
from tools.service.store import Store

logging.getLogger("httpx").setLevel(logging.WARNING)

NOM = "/api/games/nomonhan"
JSON = {"Content-Type": "application/json"}


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "api.db"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient[Any]]:
    with TestClient(create_app(db, run_jobs=False)) as c:
        yield c


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _create(client: TestClient[Any], game: str = "nomonhan", **body: Any) -> dict[str, Any]:
    r = client.post(f"/api/games/{game}/matches", json=body)
    assert r.status_code == 201, r.text
    created: dict[str, Any] = r.json()
    return created


def test_games_list_every_game_with_sides_presets_and_options(client: TestClient[Any]) -> None:
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    assert set(games) == {"nomonhan", "rattenkrieg", "shumshu", "snc1937"}
    nom = games["nomonhan"]
    assert nom["sides"] == ["JP", "SU"] and set(nom["presets"]) == {"ja", "en"}
    assert nom["perfect_information"] and not games["rattenkrieg"]["perfect_information"]
    tie = next(o for o in nom["options"] if o["name"] == "tie")
    assert tie["clauses"] and len(tie["readings"]) >= 2
    assert client.get(NOM).json() == nom


def test_openapi_is_generated_with_every_games_own_action_schema(client: TestClient[Any]) -> None:
    doc = client.get("/openapi.json").json()
    assert doc["openapi"].startswith("3.1")
    submit = doc["components"]["schemas"]["NomonhanSubmit"]["properties"]["action"]
    refs = {x["$ref"].rsplit("/", 1)[1] for x in submit["oneOf"]}
    assert {"Move", "Declare", "Roll", "EndRoll"} <= refs
    assert "/api/games/snc1937/matches/{match_id}/actions" in doc["paths"]


def test_create_returns_a_token_per_side_and_the_referees(client: TestClient[Any]) -> None:
    created = _create(client, variant="en")
    assert set(created["tokens"]) == {"JP", "SU", "referee"}
    assert len(set(created["tokens"].values())) == 3
    assert created["links"]["JP"].endswith("#token=" + created["tokens"]["JP"])
    state = client.get(
        f"{NOM}/matches/{created['id']}/state", headers=_auth(created["tokens"]["referee"])
    ).json()
    assert state["variant"]["preset"] == "en" and state["ply"] == 0


def test_missing_wrong_and_foreign_tokens_get_401_or_403_without_detail(
    client: TestClient[Any],
) -> None:
    a, b = _create(client), _create(client)
    url = f"{NOM}/matches/{a['id']}"
    assert client.get(f"{url}/view").status_code == 401
    assert client.get(f"{url}/view", headers={"Authorization": "Basic x"}).status_code == 401
    r = client.get(f"{url}/view", headers=_auth("no-such-token"))
    assert (r.status_code, r.json()) == (401, {"error": "unauthorized"})
    r = client.get(f"{url}/view", headers=_auth(b["tokens"]["JP"]))  # another match's
    assert (r.status_code, r.json()) == (403, {"error": "forbidden"})
    for path in ("state",):  # the referee's alone
        assert client.get(f"{url}/{path}", headers=_auth(a["tokens"]["JP"])).status_code == 403
    r = client.get(f"{url}/view?side=SU", headers=_auth(a["tokens"]["JP"]))
    assert r.status_code == 403  # a side reads its own view only


def test_unknown_match_game_and_route_are_404(client: TestClient[Any]) -> None:
    created = _create(client)
    token = _auth(created["tokens"]["referee"])
    assert client.get(f"{NOM}/matches/nope/state", headers=token).status_code == 404
    r = client.get(f"/api/games/shumshu/matches/{created['id']}/state", headers=token)
    assert r.status_code == 404  # a nomonhan match is no shumshu match
    assert client.get("/api/games/chess").status_code == 404
    assert client.get("/api/jobs/nope").json()["error"] == "unknown_game"


def test_bad_input_is_400_naming_the_field_never_500(client: TestClient[Any]) -> None:
    created = _create(client)
    url = f"{NOM}/matches/{created['id']}/actions"
    token = _auth(created["tokens"]["JP"])
    r = client.post(url, headers={**token, **JSON}, content=b"{not json")
    assert r.status_code == 400 and r.json()["error"] == "invalid_input"
    r = client.post(url, headers=token, json={"ply": "zero", "action": {"type": "end_phase"}})
    assert (r.status_code, r.json()["field"]) == (400, "ply")
    r = client.post(url, headers=token, json={"ply": 0, "action": {"type": "fly"}})
    assert r.status_code == 400 and r.json()["field"].startswith("action")
    r = client.post(url, headers=token, json={"ply": 0, "action": {"type": "move", "unit": "X"}})
    assert r.status_code == 400
    r = client.post(
        f"{NOM}/matches", json={"variant": {"preset": "ja", "options": {"tie": "nonsense"}}}
    )
    assert r.status_code == 400 and "tie" in r.json()["field"]
    r = client.post(f"{NOM}/matches", json={"agents": {"JP": "random", "SU": "random"}})
    assert (r.status_code, r.json()["field"]) == (400, "agents")


def test_a_side_acts_only_on_its_turn_and_against_the_current_ply(
    client: TestClient[Any],
) -> None:
    """NOM-5.1: JP moves first. SU is refused before its action is read (409 not_your_turn);
    a second submission against the same ply is 409 stale_submission naming the ply."""
    created = _create(client, variant="ja")
    url = f"{NOM}/matches/{created['id']}"
    jp, su = _auth(created["tokens"]["JP"]), _auth(created["tokens"]["SU"])
    view = client.get(f"{url}/view", headers=jp).json()
    assert view["view"]["to_move"] == "JP" and view["view"]["legal_actions"]
    assert client.get(f"{url}/view", headers=su).json()["view"]["legal_actions"] == []
    action = view["view"]["legal_actions"][0]
    r = client.post(f"{url}/actions", headers=su, json={"ply": 0, "action": action})
    assert (r.status_code, r.json()["error"]) == (409, "not_your_turn")
    r = client.post(f"{url}/actions", headers=jp, json={"ply": 0, "action": action})
    assert r.status_code == 200 and r.json()["ply"] >= 1
    r = client.post(f"{url}/actions", headers=jp, json={"ply": 0, "action": action})
    assert (r.status_code, r.json()["error"]) == (409, "stale_submission")
    assert r.json()["expected_ply"] >= 1
    assert len(Store(created_db(client)).log(created["id"])) == r.json()["expected_ply"]


def created_db(client: TestClient[Any]) -> str:
    return str(client.app.state.service.db_path)


def test_an_illegal_action_is_422_naming_its_clauses_and_explain_says_the_same(
    client: TestClient[Any],
) -> None:
    created = _create(client, variant="ja")
    url = f"{NOM}/matches/{created['id']}"
    jp = _auth(created["tokens"]["JP"])
    declare = {"type": "declare", "combats": []}  # NOM-5.1: not in the Movement Phase
    r = client.post(f"{url}/explain", headers=jp, json={"action": declare})
    explained = r.json()
    assert r.status_code == 200 and explained["legal"] is False
    assert explained["error"]["clauses"] and explained["error"]["clauses"][0].startswith("NOM-")
    r = client.post(f"{url}/actions", headers=jp, json={"ply": 0, "action": declare})
    assert r.status_code == 422 and r.json()["clauses"] == explained["error"]["clauses"]
    legal = client.get(f"{url}/view", headers=jp).json()["view"]["legal_actions"][0]
    ok = client.post(f"{url}/explain", headers=jp, json={"action": legal}).json()
    assert ok["legal"] and ok["description"]
    su = _auth(created["tokens"]["SU"])
    r = client.post(f"{url}/explain", headers=su, json={"action": legal})
    assert (r.status_code, r.json()["error"]) == (409, "not_your_turn")


def _play_to_chance(client: TestClient[Any], url: str, referee: dict[str, str]) -> dict[str, Any]:
    """The referee plays seeded random legal actions until chance is to move."""
    rng = random.Random(3)
    for _ in range(3000):
        state: dict[str, Any] = client.get(f"{url}/state", headers=referee).json()
        if state["to_move"] == CHANCE:
            return state
        assert state["legal_actions"], state
        pick = rng.choice(state["legal_actions"])
        r = client.post(
            f"{url}/actions", headers=referee, json={"ply": state["ply"], "action": pick}
        )
        assert r.status_code == 200, r.text
    raise AssertionError("chance never came to move")


def test_nom_9_9_chance_outcomes_have_exact_probabilities_and_the_referee_submits_them(
    client: TestClient[Any],
) -> None:
    """With chance="client" the referee submits the dice; their outcomes come with exact
    fractions summing to 1; a side may read them (Nomonhan hides nothing) but not roll."""
    created = _create(client, variant="ja", chance="client")
    url = f"{NOM}/matches/{created['id']}"
    referee = _auth(created["tokens"]["referee"])
    state = _play_to_chance(client, url, referee)
    chance = client.get(f"{url}/chance", headers=_auth(created["tokens"]["SU"])).json()
    assert chance["to_move"] == CHANCE
    total = sum(Fraction(o["probability"]) for o in chance["outcomes"])
    assert total == 1 and all(
        "/" in o["probability"] or o["probability"] == "1" for o in chance["outcomes"]
    )
    outcome = chance["outcomes"][0]["action"]
    r = client.post(
        f"{url}/actions",
        headers=_auth(created["tokens"]["JP"]),
        json={"ply": state["ply"], "action": outcome},
    )
    assert (r.status_code, r.json()["error"]) == (409, "not_your_turn")
    r = client.post(
        f"{url}/actions", headers=referee, json={"ply": state["ply"], "action": outcome}
    )
    assert r.status_code == 200
    log = client.get(f"{url}/log", headers=referee).json()["entries"]
    assert (
        log[-1]["by"] == CHANCE and log[-1]["probability"] == chance["outcomes"][0]["probability"]
    )


def test_server_chance_and_the_random_agent_play_their_steps_at_once(
    client: TestClient[Any], db: Path
) -> None:
    """Against the random agent with server-drawn chance, the client only ever sees its own
    side to move (or the end), and every step the server took is in the log and replays."""
    created = _create(client, variant="en", agents={"SU": "random"})
    url = f"{NOM}/matches/{created['id']}"
    jp = _auth(created["tokens"]["JP"])
    view = client.get(f"{url}/view", headers=jp).json()
    for _ in range(3000):
        if view["view"]["result"] is not None:
            break
        assert view["view"]["to_move"] == "JP"
        action = view["view"]["legal_actions"][-1]
        r = client.post(f"{url}/actions", headers=jp, json={"ply": view["ply"], "action": action})
        assert r.status_code == 200, r.text
        view = r.json()
    assert view["view"]["result"] is not None and view["view"]["result"]["clause"]
    entries = client.get(f"{url}/log", headers=jp).json()["entries"]
    bys = {e["by"] for e in entries}
    assert {"JP", "SU", CHANCE} <= bys
    assert all(e["probability"] for e in entries if e["by"] == CHANCE)
    assert Store(db).replay(created["id"])
    r = client.post(
        f"{url}/actions",
        headers=_auth(created["tokens"]["referee"]),
        json={"ply": view["ply"], "action": {"type": "end_phase"}},
    )
    assert r.status_code in (409, 422)  # the game is over


def test_a_sides_log_shows_the_others_moves_only_where_nothing_is_hidden(
    client: TestClient[Any],
) -> None:
    """Rattenkrieg hides hands and steps: a side's log shows its own actions and only who
    made the others; the referee's shows every action, each with its description."""
    created = _create(client, "rattenkrieg", agents={"SU": "random"})
    url = f"/api/games/rattenkrieg/matches/{created['id']}"
    ge = _auth(created["tokens"]["GE"])
    view = client.get(f"{url}/view", headers=ge).json()
    for _ in range(30):
        if view["view"]["result"] is not None:
            break
        action = view["view"]["legal_actions"][0]
        view = client.post(
            f"{url}/actions", headers=ge, json={"ply": view["ply"], "action": action}
        ).json()
    mine = client.get(f"{url}/log", headers=ge).json()["entries"]
    full = client.get(f"{url}/log", headers=_auth(created["tokens"]["referee"])).json()["entries"]
    assert len(mine) == len(full) and {e["by"] for e in full} >= {"GE", "SU", CHANCE}
    for m, f in zip(mine, full, strict=True):
        assert f["action"] is not None
        if m["by"] == "GE":
            assert m == f
        else:
            assert m["action"] is None and m["events"] == [] and m["probability"] is None


def test_pictures_are_svg_for_every_reader(client: TestClient[Any]) -> None:
    for game in ("nomonhan", "rattenkrieg", "shumshu", "snc1937"):
        created = _create(client, game)
        for role, token in created["tokens"].items():
            r = client.get(
                f"/api/games/{game}/matches/{created['id']}/picture.svg", headers=_auth(token)
            )
            assert r.status_code == 200, (game, role, r.text[:200])
            assert r.headers["content-type"].startswith("image/svg+xml")
            assert r.text.lstrip().startswith("<svg")


def test_a_restarted_service_serves_every_match_as_it_was(db: Path) -> None:
    with TestClient(create_app(db, run_jobs=False)) as c:
        created = _create(c, variant="ja", agents={"SU": "random"})
        url = f"{NOM}/matches/{created['id']}"
        jp = _auth(created["tokens"]["JP"])
        view = c.get(f"{url}/view", headers=jp).json()
        for _ in range(10):
            view = c.post(
                f"{url}/actions",
                headers=jp,
                json={"ply": view["ply"], "action": view["view"]["legal_actions"][0]},
            ).json()
        before = c.get(f"{url}/state", headers=_auth(created["tokens"]["referee"])).text
    with TestClient(create_app(db, run_jobs=False)) as c:
        after = c.get(f"{url}/state", headers=_auth(created["tokens"]["referee"])).text
        assert after == before
        assert c.get(f"{url}/view", headers=jp).json() == view


def test_jobs_are_refused_when_malformed_and_kept_across_a_restart(
    client: TestClient[Any], db: Path
) -> None:
    r = client.post("/api/jobs", json={"kind": "verify", "game": "nomonhan", "property": ["X"]})
    assert (r.status_code, r.json()["field"]) == (400, "property")
    r = client.post("/api/jobs", json={"kind": "explore", "game": "nomonhan", "budget": 0})
    assert (r.status_code, r.json()["field"]) == (400, "budget")
    r = client.post(
        "/api/jobs",
        json={
            "kind": "verify",
            "game": "nomonhan",
            "preset": "ja",
            "property": [_first_property()],
        },
    )
    assert r.status_code == 202 and r.json()["status"] == "queued"
    job_id = r.json()["id"]
    with Store(db) as store:  # a server stopped while the job ran
        store.update_job(job_id, status="running")
    runner = JobRunner(str(db))
    runner.start()  # marks what a stopped server left running
    runner.stop()
    assert client.get(f"/api/jobs/{job_id}").json()["status"] == "interrupted"


def test_a_verify_job_runs_in_a_worker_and_stores_its_progress_and_result(db: Path) -> None:
    with Store(db) as store:
        prop = _first_property()
        job = store.add_job("verify", "nomonhan", {"preset": "ja", "property": [prop]})
    run_job(str(db), job.id)  # the worker process's body, here in process
    with Store(db) as store:
        done = store.job(job.id)
    assert done.status == "done", done.error
    assert done.progress["done"] == done.progress["total"] == 1
    assert [r["property"] for r in done.result["results"]] == [prop]
    assert done.result["results"][0]["verdict"] in ("proved", "refuted", "tested")


def _first_property() -> str:
    from tools.verify import spec_verification

    spec = spec_verification(get_game("nomonhan"))
    assert spec is not None
    return spec.properties()[0].id


def test_a_job_started_over_http_is_run_by_the_worker_process(tmp_path: Path) -> None:
    """The runner spawns a worker process for a queued job; the client polls its status.
    Bounded by polls, not time: a verify of one property takes seconds."""
    db = tmp_path / "jobs.db"
    with TestClient(create_app(db)) as c:
        body = {
            "kind": "verify",
            "game": "nomonhan",
            "preset": "ja",
            "property": [_first_property()],
        }
        job = c.post("/api/jobs", json=body).json()
        for _ in range(600):
            status = c.get(f"/api/jobs/{job['id']}").json()
            if status["status"] in ("done", "failed"):
                break
            time.sleep(0.5)
        assert status["status"] == "done", status
        assert status["result"]["results"][0]["preset"] == "ja"


def test_serve_refuses_a_bad_port_with_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--port", "70000", "--db", "x.db"]) == 2
    assert '"field": "--port"' in capsys.readouterr().err


@pytest.mark.parametrize("body", [b'{"\\ud800": 1}', b'{"ply": 0, "action": {"type": "x\\udc00"}}'])
def test_a_lone_surrogate_escape_is_400_with_the_json_error_body(
    client: TestClient[Any], body: bytes
) -> None:
    """A `\\ud800`..`\\udfff` escape without its pair stands for no character: refused as bad
    input (400, the JSON error body), never a 500."""
    created = _create(client)
    url = f"{NOM}/matches/{created['id']}/actions"
    r = client.post(url, headers={**_auth(created["tokens"]["JP"]), **JSON}, content=body)
    assert r.status_code == 400 and r.json()["error"] == "invalid_input"
