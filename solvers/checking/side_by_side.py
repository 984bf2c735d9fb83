"""Two readings played side by side: one action log followed under both (`along`), a random
walk of guided play (`walk`), and the breadth-first search over every reachable position of a
small game (`exhaustive`), each stopping at the first difference."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any

from kernel.game import CHANCE
from kernel.playout import Agent
from kernel.roles import AssembledGame
from kernel.variants import Variant, consultations
from solvers.checking.bounded_search import BUDGET
from solvers.checking.differences import (
    Difference,
    Json,
    Witness,
    after_action,
    compare,
    field_diff,
    position_key,
    same_position,
    units_on_map,
)

POSITIONS = "positions"  # the exhaustive search reached its cap of positions


def witness_at(
    game: AssembledGame[Any, Any],
    log: tuple[Json, ...],
    state: Any,
    diff: Difference,
    found_by: str,
) -> Witness:
    """The witness of `diff` at `state` (reading A's position), reached by `log`."""
    data = game.state_to_json(state)
    return Witness(log, data, diff, units_on_map(data), found_by)


class SideBySide:
    """One game under reading A, each position also read under B, and its log so far."""

    def __init__(
        self, game: AssembledGame[Any, Any], va: Variant, vb: Variant, found_by: str
    ) -> None:
        self.game, self.found_by = game, found_by
        self.a, self.b = game.initial_state(va), game.initial_state(vb)
        self.log: list[Json] = []

    def witness(self, diff: Difference) -> Witness:
        return witness_at(self.game, tuple(self.log), self.a, diff, self.found_by)

    def here(self) -> Witness | None:
        """A difference at the current position (the set-up's state itself, at the start)."""
        game = self.game
        if not self.log and not same_position(game, self.a, self.b):
            detail = "the set-up differs: " + field_diff(game, self.a, self.b)
            return self.witness(Difference("setup", (), (), detail))
        diff = compare(game, self.a, self.b)
        return None if diff is None else self.witness(diff)

    def tries(self, action: Any) -> Witness | None:
        """A difference in where `action` leads from here."""
        game = self.game
        diff = after_action(game, action, game.apply(self.a, action), game.apply(self.b, action))
        return None if diff is None else self.witness(diff)

    def take(self, action: Any, na: Any = None, nb: Any = None) -> Witness | None:
        """Take `action` under both readings (`na`, `nb`: where it leads, if known): a
        difference in where it leads, or None and play goes on from there."""
        game = self.game
        if na is None or nb is None:
            na, nb = game.apply(self.a, action), game.apply(self.b, action)
        diff = after_action(game, action, na, nb)
        if diff is not None:
            return self.witness(diff)
        self.log.append(game.action_to_json(action))
        self.a, self.b = na, nb
        return None


def walk(
    game: AssembledGame[Any, Any],
    va: Variant,
    vb: Variant,
    rng: random.Random,
    max_steps: int,
    agent: Agent[Any, Any],
    option: str | None = None,
    probe: int = 64,
    deadline: float | None = None,
    start: tuple[Any, Any, Sequence[Json]] | None = None,
) -> Witness | None:
    """One game under reading A, each position also read under B; the first difference.
    Where the rules ask for `option`'s reading (so the situation it governs has arisen), up
    to `probe` other legal actions are tried under both readings too. The game stops after
    `max_steps` steps, or at the wall-clock `deadline` (a `time.perf_counter` value) if any.
    `start`: the positions under A and B to play from and the log that reached them (a
    corpus position: the caller checks that the log is legal under both), else the set-up."""
    pair = SideBySide(game, va, vb, "guided play")
    if start is not None:
        pair.a, pair.b, log = start
        pair.log = list(log)
    for _ in range(max_steps):
        if deadline is not None and time.perf_counter() > deadline:
            return None
        found = pair.here()
        if found is not None:
            return found
        a = pair.a
        side = game.to_move(a)
        if side is None:
            return None
        if side == CHANCE:
            outcomes = game.chance_outcomes(a)
            action = rng.choices([x for x, _ in outcomes], [float(p) for _, p in outcomes])[0]
            found = pair.take(action)
        else:
            with consultations() as asked:
                legal = list(game.legal_actions(a))
                if not legal:
                    return None
                action = agent(game, a, legal, rng)
                na, nb = game.apply(a, action), game.apply(pair.b, action)
            if option is not None and asked[option]:
                others = [x for x in legal if x != action]
                for other in rng.sample(others, min(probe, len(others))):
                    found = pair.tries(other)
                    if found is not None:
                        return found
            found = pair.take(action, na, nb)
        if found is not None:
            return found
    return None


def exhaustive(
    game: AssembledGame[Any, Any], va: Variant, vb: Variant, cap: int, deadline: float | None = None
) -> tuple[str, Witness | None, int, str]:
    """Breadth-first over every reachable position of A (up to `cap`): 'equivalent' when all
    were compared, 'differ' with the shortest witness, or 'unknown' at the cap or at the
    wall-clock `deadline`; with the positions seen and the limit hit ("positions", "budget")."""
    a0, b0 = game.initial_state(va), game.initial_state(vb)
    if not same_position(game, a0, b0):
        w = Witness(
            (),
            game.state_to_json(a0),
            Difference("setup", (), (), "set-up differs"),
            0,
            "exhaustive search",
        )
        return "differ", w, 1, ""
    frontier: list[tuple[Any, Any, tuple[Json, ...]]] = [(a0, b0, ())]
    seen = {position_key(game, a0)}
    while frontier:
        nxt: list[tuple[Any, Any, tuple[Json, ...]]] = []
        for a, b, log in frontier:
            if deadline is not None and time.perf_counter() > deadline:
                return "unknown", None, len(seen), BUDGET
            diff = compare(game, a, b)
            if diff is not None:
                return "differ", witness_at(game, log, a, diff, "exhaustive search"), len(seen), ""
            side = game.to_move(a)
            if side is None:
                continue
            moves = (
                [x for x, _ in game.chance_outcomes(a)]
                if side == CHANCE
                else list(game.legal_actions(a))
            )
            for action in moves:
                na, nb = game.apply(a, action), game.apply(b, action)
                step = (*log, game.action_to_json(action))
                diff = after_action(game, action, na, nb)
                if diff is not None:
                    w = witness_at(game, log, a, diff, "exhaustive search")
                    return "differ", w, len(seen), ""
                k = position_key(game, na)
                if k not in seen:
                    if len(seen) >= cap:
                        return "unknown", None, len(seen), POSITIONS
                    seen.add(k)
                    nxt.append((na, nb, step))
        frontier = nxt
    return "equivalent", None, len(seen), ""


def along(
    game: AssembledGame[Any, Any], va: Variant, vb: Variant, actions: Sequence[Any], found_by: str
) -> Witness | None:
    """Follow `actions` from the set-up under both readings, comparing every position and the
    result of each action; at the end, the result of every action allowed there too. The first
    difference, as a witness, or None."""
    pair = SideBySide(game, va, vb, found_by)
    for i in range(len(actions) + 1):
        found = pair.here()
        if found is not None:
            return found
        side = game.to_move(pair.a)
        if side is None:
            return None
        if i < len(actions):
            tried: Sequence[Any] = actions[i : i + 1]
        elif side == CHANCE:
            tried = [x for x, _ in game.chance_outcomes(pair.a)]
        else:
            tried = list(game.legal_actions(pair.a))
        for action in tried:
            found = pair.tries(action)
            if found is not None:
                return found
        if i < len(actions):
            pair.take(actions[i])
    return None
