"""The read-only history of a match, and its expiry: the log of actions, the log with the
state after each one (what a readable log is written from), and the replay that checks the
stored states against the actions. A mixin of `store.Store`."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

from kernel.codec import dump_json
from tools.registry import get_game


def _json(text: str) -> Any:
    return json.loads(text)


class MatchHistory:
    """What `store.Store` provides to these methods: its connection, transactions and rows."""

    _con: sqlite3.Connection
    _transaction: Callable[[], AbstractContextManager[sqlite3.Connection]]
    _row: Callable[[str], tuple[str, str, str, int, str, int, str, str]]

    def log(self, game_id: str) -> list[dict[str, Any]]:
        """The actions applied so far, in order (as JSON)."""
        self._row(game_id)
        rows = self._con.execute(
            "SELECT action FROM actions WHERE game_id = ? ORDER BY ply", (game_id,)
        )
        return [_json(str(r[0])) for r in rows]

    def replay(self, game_id: str) -> bool:
        """Rebuild the state from the initial state and the stored log; True when it equals
        the stored state (canonical JSON) and every stored intermediate state."""
        name, _variant, _created, ply, state_text, *_ = self._row(game_id)
        (initial,) = self._con.execute(
            "SELECT initial_state FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        game = get_game(name)
        state = game.state_from_json(_json(str(initial)))
        rows = list(
            self._con.execute(
                "SELECT ply, action, state FROM actions WHERE game_id = ? ORDER BY ply",
                (game_id,),
            )
        )
        if [int(r[0]) for r in rows] != list(range(ply)):
            return False
        for _ply, action_text, after in rows:
            state = game.apply(state, game.action_from_json(_json(str(action_text))))
            if dump_json(game.state_to_json(state)) != str(after):
                return False
        return dump_json(game.state_to_json(state)) == state_text

    def log_entries(self, game_id: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
        """(action, state after it) per ply, in order, with the initial state first as
        ({}, initial): what a readable log is written from."""
        self._row(game_id)
        (initial,) = self._con.execute(
            "SELECT initial_state FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        rows = self._con.execute(
            "SELECT action, state FROM actions WHERE game_id = ? ORDER BY ply", (game_id,)
        )
        return [({}, _json(str(initial)))] + [(_json(str(a)), _json(str(b))) for a, b in rows]

    def expire_matches(self, finished_before: str, idle_before: str) -> int:
        """Delete the matches that are over and had their last action before
        `finished_before`, and those with no action since `idle_before` (ISO times); their
        actions and tokens go with them."""
        with self._transaction() as con:
            cur = con.execute(
                "DELETE FROM games WHERE (over = 1 AND coalesce(updated, created) < ?) "
                "OR coalesce(updated, created) < ?",
                (finished_before, idle_before),
            )
            return int(cur.rowcount)
