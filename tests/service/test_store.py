"""The game store (issue 15, item 3): transactions, stale plies, races, restarts, migrations."""

from __future__ import annotations

import random
import sqlite3
import threading
from pathlib import Path
from typing import Any

import attrs
import pytest

from kernel.codec import dump_json
from kernel.errors import IllegalAction, InvalidInput
from kernel.game import CHANCE
from kernel.playout import choose
from tools.registry import get_game
from tools.service.store import MIGRATIONS, SCHEMA_VERSION, Store
from tools.service.store_errors import StaleSubmission, StoreError, UnknownGame


def _snapshot(store: Store, game_id: str) -> tuple[Any, ...]:
    record = store.get(game_id)
    return (dump_json(record.state), record.ply, dump_json(store.log(game_id)))


def _next_action(store: Store, game_id: str, rng: random.Random) -> dict[str, Any] | None:
    record = store.get(game_id)
    game = get_game(record.game)
    state = game.state_from_json(record.state)
    side = game.to_move(state)
    if side is None:
        return None
    action = choose(game, state, side, rng, None)
    return None if action is None else game.action_to_json(action)


def _play(store: Store, game_id: str, steps: int, seed: int) -> tuple[int, int]:
    """Random play through the store: (actions submitted, of which chance outcomes)."""
    rng = random.Random(seed)
    played = chance = 0
    for _ in range(steps):
        record = store.get(game_id)
        game = get_game(record.game)
        chance += game.to_move(game.state_from_json(record.state)) == CHANCE
        action = _next_action(store, game_id, rng)
        if action is None:
            break
        store.submit(game_id, record.ply, action)
        played += 1
    return played, chance


def test_create_get_log_round_trip(tmp_path: Path) -> None:
    with Store(tmp_path / "g.db") as store:
        record = store.create("nomonhan", "ja")
        game = get_game("nomonhan")
        initial = game.state_to_json(game.initial_state(game.catalogue.preset("ja")))
        assert record.ply == 0 and record.game == "nomonhan"
        assert record.variant == {
            "preset": "ja",
            "options": dict(game.catalogue.preset("ja").choices),
        }
        assert dump_json(record.state) == dump_json(initial)
        assert set(record.tokens) == {*game.sides, "referee"}
        assert store.get(record.id) == attrs.evolve(record, tokens={})
        assert all(store.role(record.id, t) == r for r, t in record.tokens.items())
        assert store.role(record.id, "not-a-token") is None
        assert store.log(record.id) == []
        actions = []
        rng = random.Random(1)
        for ply in range(5):
            action = _next_action(store, record.id, rng)
            assert action is not None
            actions.append(action)
            assert store.submit(record.id, ply, action).ply == ply + 1
        assert store.log(record.id) == actions
        assert store.get(record.id).ply == 5
        assert len(record.id) >= 20 and store.create("nomonhan", "ja").id != record.id


def test_create_refuses_unknown_game_and_variant_naming_the_field(tmp_path: Path) -> None:
    with Store(tmp_path / "g.db") as store:
        with pytest.raises(InvalidInput) as bad_game:
            store.create("chess", "ja")
        assert bad_game.value.field == "game"
        with pytest.raises(InvalidInput) as bad_preset:
            store.create("nomonhan", "nope")
        assert bad_preset.value.field == "variant"
        assert store.game_ids() == []


def test_unknown_game_id_is_named(tmp_path: Path) -> None:
    with Store(tmp_path / "g.db") as store:
        for call in (store.get, store.log, store.replay):
            with pytest.raises(UnknownGame, match="no-such-id"):
                call("no-such-id")
        with pytest.raises(UnknownGame, match="no-such-id"):
            store.submit("no-such-id", 0, {})


def test_stale_submission_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    with Store(tmp_path / "g.db") as store:
        game_id = store.create("nomonhan", "ja").id
        _play(store, game_id, 3, seed=2)
        before = _snapshot(store, game_id)
        action = _next_action(store, game_id, random.Random(3))
        for stale in (0, 2, 4):
            with pytest.raises(StaleSubmission, match="at ply 3") as err:
                store.submit(game_id, stale, action)
            assert err.value.expected == 3 and err.value.field == "ply"
        assert _snapshot(store, game_id) == before
        assert store.submit(game_id, 3, action).ply == 4


def _illegal_action(game_name: str, state: Any) -> tuple[dict[str, Any], IllegalAction]:
    """A well-formed action the rules refuse in `state`, with the rules' refusal."""
    game = get_game(game_name)
    rng = random.Random(0)
    later = state
    for _ in range(200):  # an action legal somewhere else but not here
        side = game.to_move(later)
        if side is None:
            break
        action = choose(game, later, side, rng, None)
        assert action is not None
        try:
            game.apply(state, action)
        except IllegalAction as err:
            return game.action_to_json(action), err
        later = game.apply(later, action)
    raise AssertionError("no illegal action found")


def test_illegal_action_is_refused_with_clauses_and_changes_nothing(tmp_path: Path) -> None:
    with Store(tmp_path / "g.db") as store:
        game_id = store.create("nomonhan", "ja").id
        _play(store, game_id, 4, seed=4)
        game = get_game("nomonhan")
        action, expected = _illegal_action(
            "nomonhan", game.state_from_json(store.get(game_id).state)
        )
        before = _snapshot(store, game_id)
        with pytest.raises(IllegalAction) as err:
            store.submit(game_id, 4, action)
        assert err.value.clauses and err.value.clauses == expected.clauses
        with pytest.raises(InvalidInput) as bad:
            store.submit(game_id, 4, {"type": "no_such_action"})
        assert bad.value.field
        assert _snapshot(store, game_id) == before
        assert store.replay(game_id)


def test_racing_submissions_at_one_ply_exactly_one_succeeds(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    with Store(path) as store:
        game_id = store.create("nomonhan", "ja").id
        _play(store, game_id, 2, seed=5)
        action = _next_action(store, game_id, random.Random(6))
    barrier = threading.Barrier(8)
    results: list[str] = []
    lock = threading.Lock()

    def racer() -> None:
        with Store(path) as mine:
            barrier.wait()
            try:
                mine.submit(game_id, 2, action)
                outcome = "ok"
            except StaleSubmission:
                outcome = "stale"
            with lock:
                results.append(outcome)

    threads = [threading.Thread(target=racer) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["ok"] + ["stale"] * 7
    with Store(path) as store:
        assert store.get(game_id).ply == 3 and len(store.log(game_id)) == 3
        assert store.replay(game_id)


def test_restart_serves_every_game_as_it_was_and_replays_bit_exactly(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    before: dict[str, tuple[Any, ...]] = {}
    with Store(path) as store:
        for name, preset in (("nomonhan", "ja"), ("rattenkrieg", "standard")):
            total = chances = 0
            seed = 10
            while total < 300:  # a few hundred actions per game, over games played to the end
                game_id = store.create(name, preset).id
                played, chance = _play(store, game_id, 300 - total, seed=seed)
                total, chances, seed = total + played, chances + chance, seed + 1
                before[game_id] = _snapshot(store, game_id)
            assert chances > 0, name
    with Store(path) as reopened:
        assert sorted(reopened.game_ids()) == sorted(before)
        for game_id, snap in before.items():
            assert _snapshot(reopened, game_id) == snap
            assert reopened.replay(game_id)


def test_a_finished_game_refuses_further_actions(tmp_path: Path) -> None:
    with Store(tmp_path / "g.db") as store:
        game_id = store.create("rattenkrieg", "standard").id
        played, _chance = _play(store, game_id, 1000, seed=10)
        game = get_game("rattenkrieg")
        final = game.state_from_json(store.get(game_id).state)
        assert game.to_move(final) is None
        before = _snapshot(store, game_id)
        action = store.log(game_id)[-1]
        with pytest.raises(IllegalAction, match="over"):
            store.submit(game_id, played, action)
        assert _snapshot(store, game_id) == before


def test_replay_detects_a_tampered_state(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    with Store(path) as store:
        game_id = store.create("nomonhan", "ja").id
        _play(store, game_id, 3, seed=7)
        assert store.replay(game_id)
    con = sqlite3.connect(path)
    with con:
        con.execute(
            "UPDATE games SET state = (SELECT state FROM actions WHERE game_id = ? AND ply = 0) "
            "WHERE id = ?",
            (game_id, game_id),
        )
    con.close()
    with Store(path) as store:
        assert not store.replay(game_id)


def test_newer_schema_version_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    Store(path).close()
    con = sqlite3.connect(path)
    with con:
        con.execute("INSERT INTO schema_version (version) VALUES (?)", (SCHEMA_VERSION + 1,))
    con.close()
    with pytest.raises(StoreError, match=f"schema version {SCHEMA_VERSION + 1}") as err:
        Store(path)
    assert err.value.field == "schema_version"


def test_migrations_run_in_order_once_and_record_their_version(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    with Store(path, migrations=MIGRATIONS[:1]) as store:
        assert store.version == 1
    game = get_game("nomonhan")
    variant = game.catalogue.preset("ja")
    state = dump_json(game.state_to_json(game.initial_state(variant)))
    con = sqlite3.connect(path)  # a game as a version-1 program wrote it
    with con:
        con.execute(
            "INSERT INTO games (id, game, variant, created, ply, initial_state, state) "
            "VALUES ('old', 'nomonhan', ?, '2026-01-01', 0, ?, ?)",
            (dump_json(variant.to_json()), state, state),
        )
    con.close()
    game_id = "old"

    def add_note(con: sqlite3.Connection) -> None:
        con.execute("ALTER TABLE games ADD COLUMN note TEXT NOT NULL DEFAULT 'migrated'")

    with Store(path, migrations=(*MIGRATIONS, add_note)) as store:
        assert store.version == SCHEMA_VERSION + 1
        old = store.get(game_id)
        assert old.ply == 0 and old.chance == "client" and old.agents == {}
        assert store.replay(game_id)
    con = sqlite3.connect(path)
    versions = [r[0] for r in con.execute("SELECT version FROM schema_version ORDER BY version")]
    notes = [r[0] for r in con.execute("SELECT note FROM games")]
    mode = con.execute("PRAGMA journal_mode").fetchone()[0]
    con.close()
    assert versions == [*range(1, SCHEMA_VERSION + 2)] and notes == ["migrated"]
    assert mode == "wal"
    with Store(path, migrations=(*MIGRATIONS, add_note)) as store:  # not applied twice
        assert store.version == SCHEMA_VERSION + 1


def test_a_failing_migration_leaves_the_database_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    Store(path).close()

    def broken(con: sqlite3.Connection) -> None:
        con.execute("CREATE TABLE half_done (x INTEGER)")
        raise RuntimeError("migration failed")

    with pytest.raises(RuntimeError):
        Store(path, migrations=(*MIGRATIONS, broken))
    con = sqlite3.connect(path)
    tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    versions = [r[0] for r in con.execute("SELECT version FROM schema_version")]
    con.close()
    assert "half_done" not in tables and versions == [*range(1, SCHEMA_VERSION + 1)]


def test_a_failure_while_writing_records_neither_the_action_nor_the_state(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    with Store(path) as store:
        game_id = store.create("nomonhan", "ja").id
        _play(store, game_id, 2, seed=8)
        before = _snapshot(store, game_id)
        action = _next_action(store, game_id, random.Random(9))
    con = sqlite3.connect(path)
    with con:  # the games row refuses the update, after the action row was inserted
        con.execute(
            "CREATE TRIGGER refuse BEFORE UPDATE ON games BEGIN SELECT RAISE(ABORT, 'disk'); END"
        )
    con.close()
    with Store(path) as store:
        with pytest.raises(sqlite3.IntegrityError, match="disk"):
            store.submit(game_id, 2, action)
        assert _snapshot(store, game_id) == before
        assert store.replay(game_id)


def test_server_steps_depend_only_on_the_seed_and_the_ply(tmp_path: Path) -> None:
    """Two games with one seed, the same variant and the same client actions are the same
    game: the server's dice and the agent's moves are drawn from (seed, ply) alone, and are
    stored as rows like any other action, so the log replays."""
    logs = []
    with Store(tmp_path / "g.db") as store:
        for _ in range(2):
            record = store.create(
                "nomonhan", "en", chance="server", agents={"SU": "random"}, seed=5
            )
            game = get_game("nomonhan")
            for _ in range(40):
                state = game.state_from_json(store.get(record.id).state)
                if game.to_move(state) is None:
                    break
                assert game.to_move(state) == "JP"  # never chance, never the agent's side
                action = game.action_to_json(game.legal_actions(state)[0])
                record = store.submit(record.id, store.get(record.id).ply, action, side="JP")
            assert store.replay(record.id)
            logs.append(store.log(record.id))
        assert logs[0] == logs[1] and len(logs[0]) > 40
        other = store.create("nomonhan", "en", chance="server", agents={"SU": "random"}, seed=6)
        assert other.tokens and store.get(other.id).ply == 0  # JP moves first: nothing drawn


def test_agents_need_server_chance_and_a_side_left_to_a_client(tmp_path: Path) -> None:
    with Store(tmp_path / "g.db") as store:
        with pytest.raises(InvalidInput) as exc:
            store.create("nomonhan", "ja", chance="client", agents={"SU": "random"})
        assert exc.value.field == "chance"
        with pytest.raises(InvalidInput) as exc:
            store.create("nomonhan", "ja", chance="server", agents={"SU": "random", "JP": "random"})
        assert exc.value.field == "agents"
        with pytest.raises(InvalidInput) as exc:
            store.create("nomonhan", "ja", chance="server", agents={"XX": "random"})
        assert exc.value.field == "agents.XX"
        with pytest.raises(InvalidInput) as exc:
            store.create("nomonhan", "ja", chance="server", agents={"SU": "clever"})
        assert exc.value.field == "agents.SU"
