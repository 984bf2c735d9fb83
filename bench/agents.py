"""Benchmark of the agents (`python -m bench.agents`): MCTS decisions per second in each
game, and the MCTS agent's win rate against the random agent over seeded Nomonhan games under
each preset (issue 16, item 3: a majority of 100 games). The bot plays each side in turn (JP on
even seeds, SU on odd ones). The decisions are timed at positions met along a seeded random
playout where the side to move has a choice, in CPU time of the process (a loaded machine's
other work is not counted); the games take minutes.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any

from kernel.errors import InvalidInput
from kernel.playout import decision_positions
from tools.agents import make_agent
from tools.agents.match import play_match, seat
from tools.registry import game_names, get_game

GAMES = 100
DECISIONS = 8
PLAYOUT_STEPS = 400


def decisions_per_second(
    name: str, decisions: int, simulations: int | None
) -> tuple[float, int] | str:
    """MCTS decisions per second in game `name` over `decisions` positions with a choice, and
    the count timed; or why it cannot be measured."""
    game = get_game(name)
    variant = game.catalogue.variant(None, {})
    try:
        agents = {s: make_agent("mcts", game, s, simulations=simulations) for s in game.sides}
    except InvalidInput as exc:
        return f"skipped: {exc.message}"
    positions = [
        p
        for p in decision_positions(game, game.initial_state(variant), random.Random(0), 2000)
        if len(game.legal_actions(p)) > 1
    ]
    if not positions:
        return "skipped: no decision with a choice met"
    step = max(1, len(positions) // decisions)
    chosen = positions[::step][:decisions]
    rng = random.Random(1)
    start = time.process_time()
    for state in chosen:
        side = game.to_move(state)
        assert side is not None
        agents[side].choose(seat(game, state, side, game.legal_actions(state)), rng)
    elapsed = time.process_time() - start
    return len(chosen) / elapsed, len(chosen)


def win_rate(preset: str, games: int, simulations: int | None) -> dict[str, Any]:
    """MCTS against random in `games` seeded Nomonhan games under `preset`."""
    game = get_game("nomonhan")
    variant = game.presets()[preset]
    won = drawn = lost = other = decisions = 0
    start = time.process_time()
    for seed in range(games):
        side = game.sides[seed % 2]
        agents = {
            s: make_agent("mcts" if s == side else "random", game, s, simulations=simulations)
            for s in game.sides
        }
        result = play_match(game, variant, agents, seed)
        decisions += result.decisions
        if result.stop != "ended":
            other += 1
        elif result.winner == side:
            won += 1
        elif result.winner is None:
            drawn += 1
        else:
            lost += 1
    return {
        "preset": preset,
        "games": games,
        "won": won,
        "drawn": drawn,
        "lost": lost,
        "unfinished": other,
        "rate": won / games if games else 0.0,
        "seconds": time.process_time() - start,
        "decisions": decisions,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.agents", description=__doc__)
    parser.add_argument("--games", type=int, default=GAMES, help="Nomonhan games per preset")
    parser.add_argument("--decisions", type=int, default=DECISIONS, help="timed per game")
    parser.add_argument("--simulations", type=int, help="MCTS searches per decision")
    parser.add_argument("--skip-games", action="store_true", help="time decisions only")
    args = parser.parse_args(argv)
    print("MCTS decisions/s per game")
    for name in game_names():
        got = decisions_per_second(name, args.decisions, args.simulations)
        if isinstance(got, str):
            print(f"  {name:<12} {got}")
        else:
            rate, count = got
            print(f"  {name:<12} {rate:8.2f} decisions/s ({count} decisions)")
        sys.stdout.flush()
    if args.skip_games:
        return 0
    print(f"MCTS against random, Nomonhan, {args.games} games per preset (bot JP on even seeds)")
    for preset in sorted(get_game("nomonhan").presets()):
        r = win_rate(preset, args.games, args.simulations)
        print(
            f"  {preset}: won {r['won']}/{r['games']} ({100 * r['rate']:.0f}%), drawn "
            f"{r['drawn']}, lost {r['lost']}, unfinished {r['unfinished']}; "
            f"{r['seconds']:.0f} s, {r['decisions']} decisions"
        )
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
