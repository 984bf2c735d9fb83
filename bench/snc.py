"""The SNC at full size: legal actions with every unit on the map, and whole random games.

`python -m bench.snc [--quick]` prints numbers to compare between runs on one machine
(CPU time of the process, best of a few runs; never pass/fail):
- the crowded position: the set-up with every reinforcement on the map (each at its listed hex,
  a landing line at its first landing hex), in the Chinese First Operations Phase as a Move and
  as a Fight phase, and the Japanese ones; for each, the median time of `legal_actions` cold
  (the position-keyed caches emptied first) and warm, and the time to list every action
  (a Move phase's list is lazy: its length is known at once, the moves are built on demand);
- random games under `standard`: steps per second and seconds per game (12 GTs or a sudden
  death), and legal-action queries per second over the positions they reach.
The goals the project set (issue 13): a full Chinese Operations Phase's legal actions in under
10 ms median, a 12-turn random game in under 10 s; (issue 34) the crowded Japanese Move phase
listed in under 10 ms, printed on a line of its own.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from kernel.game import CHANCE
from kernel.hexes import Hex
from specs.snc1937.game import SNC
from specs.snc1937.rules import movement_hexes, reinforcement_steps, top_unit, zoc
from specs.snc1937.rules import tables as flow
from specs.snc1937.rules.actions import Declare
from specs.snc1937.rules.state import CH, JP, Order, SNCState

# the caches keyed by position (by identity, `memo.py`, and by value underneath); the tables
# built once per data set stay
CACHED: tuple[Any, ...] = (
    flow.stacks,
    flow._stacks,
    flow.locations,
    flow._locations,
    flow._hexes_by_side,
    flow._movers,
    flow.zoc_of_where,
    flow._move_ezoc,
    movement_hexes._position,
    top_unit._piles,
    zoc._projected,
    reinforcement_steps._due,
)


def _clear_caches() -> None:
    for fn in CACHED:
        fn.cache_clear()


def crowded(game: SNC, side: str, order: Order) -> SNCState:
    """Every unit of the game on the map: at-start units where they start, each reinforcement
    at its first listed (or landing) hex; `side`'s First Operations Phase under `order`."""
    s = game.initial_state(game.presets()["standard"])
    where: dict[str, Hex] = dict(s.where)
    for line in game.data.setup.reinforcements:
        hexes = line.hexes or tuple(sorted(game.data.map.landings))
        for u in line.units:
            where[u] = hexes[0]
    s = attrs.evolve(s, where=tuple(sorted(where.items())), trt=(), side=side)
    return game.apply(s, Declare(order))


def _median_ms(fn: Callable[[], Any], runs: int, cold: bool) -> float:
    times = []
    for _ in range(runs):
        if cold:
            _clear_caches()
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return 1000 * statistics.median(times)


def position_rows(game: SNC, runs: int) -> list[dict[str, Any]]:
    rows = []
    for side in (CH, JP):
        for order in (Order.MOVE_FIGHT, Order.FIGHT_MOVE):
            s = crowded(game, side, order)

            def query(s: SNCState = s) -> int:
                return len(game.legal_actions(s))

            def listing(s: SNCState = s) -> int:
                return len(list(game.legal_actions(s)))

            rows.append(
                {
                    "position": f"{side} {order.ops(False)} phase, {len(s.where)} units",
                    "actions": query(),
                    "cold_ms": _median_ms(query, runs, cold=True),
                    "warm_ms": _median_ms(query, runs, cold=False),
                    "list_all_ms": _median_ms(listing, max(1, runs // 3), cold=True),
                }
            )
    return rows


def game_rows(game: SNC, games: int, seed: int) -> dict[str, Any]:
    steps = queries = 0
    per_game = []
    query_time = 0.0
    start = time.process_time()
    for g in range(games):
        rng = random.Random(seed + g)
        s = game.initial_state(game.presets()["standard"])
        t0 = time.process_time()
        while (side := game.to_move(s)) is not None:
            if side == CHANCE:
                action = rng.choice([a for a, _ in game.chance_outcomes(s)])
            else:
                q0 = time.process_time()
                legal = game.legal_actions(s)
                query_time += time.process_time() - q0
                queries += 1
                action = legal[rng.randrange(len(legal))]
            s = game.apply(s, action)
            steps += 1
        per_game.append(time.process_time() - t0)
    total = time.process_time() - start
    return {
        "games": games,
        "steps_per_s": steps / total,
        "s_per_game_median": statistics.median(per_game),
        "s_per_game_max": max(per_game),
        "queries_per_s": queries / query_time if query_time else 0.0,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.snc", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer runs and games")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    game = SNC()
    runs, games = (5, 3) if args.quick else (21, 10)
    print("SNC at full size (every unit on the map): legal actions, median of", runs, "runs")
    print(f"{'position':<36}{'actions':>8}{'cold ms':>10}{'warm ms':>10}{'list all ms':>13}")
    rows = position_rows(game, runs)
    for r in rows:
        print(
            f"{r['position']:<36}{r['actions']:>8}{r['cold_ms']:>10.2f}{r['warm_ms']:>10.3f}"
            f"{r['list_all_ms']:>13.1f}"
        )
    jp_move = next(r for r in rows if r["position"].startswith(f"{JP} move"))
    print(
        f"crowded Japanese Move phase: {jp_move['cold_ms']:.2f} ms cold, every action listed in "
        f"{jp_move['list_all_ms']:.2f} ms (issue 34 goal: under 10 ms)"
    )
    g = game_rows(game, games, args.seed)
    print(
        f"random games (standard, {g['games']}): {g['steps_per_s']:.0f} steps/s, "
        f"{g['s_per_game_median']:.2f} s per game (max {g['s_per_game_max']:.2f}), "
        f"{g['queries_per_s']:.0f} legal-action queries/s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
