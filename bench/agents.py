"""Benchmark of the agents (`python -m bench.agents`): decisions per second of each search agent
at its default simulations in each game (OpenSpiel's MCTS where the game hides nothing, the
information-set MCTS in every game), the CPU time of one seeded Shanghai-Nanking game of the
mcts agent against the random agent (issue 34, item 5: at least 10 decisions/s, an SNC game
within 2 minutes), and the MCTS agent's win rate against the random agent over seeded Nomonhan
games under each preset (issue 16, item 3: a majority of 100 games). The bot plays each side in
turn (the first side on even seeds). The decisions are timed at positions met along a seeded
random playout where the side to move has a choice, in CPU time of the process (a loaded
machine's other work is not counted), after one untimed decision (what a process pays once,
reading the data and building its tables, is not a decision's cost), the best of `--repeat`
rounds over the same positions from the same seed (the machine may be shared: another process
slows a round, it never speeds one); the games take minutes.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any

from kernel.errors import InvalidInput
from kernel.game import Game
from kernel.playout import decision_positions
from tools.agents import make_agent
from tools.agents.base import Agent
from tools.agents.ismcts import DEFAULT_ROLLOUT_DEPTH, DEFAULT_SIMULATIONS, ISMCTSAgent
from tools.agents.match import play_match, seat
from tools.registry import game_names, get_game

GAMES = 100
DECISIONS = 8
PLAYOUT_STEPS = 400


AGENTS = ("mcts", "ismcts")
"""`mcts`: OpenSpiel's MCTS (games with perfect information only); `ismcts`: the
information-set MCTS (every game; the `mcts` agent of a game with hidden information)."""
SNC_SEED = 0


def search_agent(
    kind: str,
    game: Game[Any, Any],
    side: str,
    simulations: int | None,
    rollout_depth: int | None = DEFAULT_ROLLOUT_DEPTH,
) -> Agent:
    """The search agent `kind` (`AGENTS`) for `side` at `simulations` (None: its default);
    `rollout_depth` is the information-set MCTS's (`ISMCTSAgent.rollout_depth`)."""
    if kind == "ismcts":
        return ISMCTSAgent(simulations or DEFAULT_SIMULATIONS, rollout_depth=rollout_depth)
    if not game.perfect_information:
        raise InvalidInput(f"{game.name} hides information: OpenSpiel's MCTS does not apply")
    return make_agent("mcts", game, side, simulations=simulations)


def decisions_per_second(
    name: str,
    decisions: int,
    simulations: int | None,
    kind: str = "mcts",
    rollout_depth: int | None = DEFAULT_ROLLOUT_DEPTH,
    repeat: int = 1,
) -> tuple[float, int] | str:
    """Decisions per second of the search agent `kind` in game `name` over `decisions`
    positions with a choice (the best of `repeat` rounds), and the count timed; or why it
    cannot be measured."""
    game = get_game(name)
    variant = game.catalogue.variant(None, {})
    try:
        agents = {s: search_agent(kind, game, s, simulations, rollout_depth) for s in game.sides}
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
    warm = chosen[-1]  # what a process pays once (data read, tables built) is not timed
    warm_side = game.to_move(warm)
    assert warm_side is not None
    agents[warm_side].choose(
        seat(game, warm, warm_side, game.legal_actions(warm)), random.Random(1)
    )
    best = float("inf")
    for _ in range(max(1, repeat)):
        rng = random.Random(1)
        start = time.process_time()
        for state in chosen:
            side = game.to_move(state)
            assert side is not None
            agents[side].choose(seat(game, state, side, game.legal_actions(state)), rng)
        best = min(best, time.process_time() - start)
    return len(chosen) / best, len(chosen)


def snc_game(seed: int, simulations: int | None) -> dict[str, Any]:
    """One seeded SNC game of the mcts agent (the first side on even seeds) against random:
    its result and the process's CPU time."""
    game = get_game("snc1937")
    variant = game.catalogue.variant(None, {})
    side = game.sides[seed % 2]
    agents = {
        s: make_agent("mcts" if s == side else "random", game, s, simulations=simulations)
        for s in game.sides
    }
    start = time.process_time()
    result = play_match(game, variant, agents, seed)
    return {
        "side": side,
        "stop": result.stop,
        "winner": result.winner,
        "decisions": result.decisions,
        "steps": result.steps,
        "seconds": time.process_time() - start,
    }


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
    parser.add_argument("--repeat", type=int, default=1, help="decisions/s: best of rounds")
    parser.add_argument("--skip-games", action="store_true", help="no Nomonhan win rates")
    parser.add_argument("--skip-snc", action="store_true", help="no SNC game timed")
    parser.add_argument(
        "--rollout-depth",
        type=int,
        default=DEFAULT_ROLLOUT_DEPTH,
        help="the information-set MCTS's rollout steps (decisions/s only)",
    )
    args = parser.parse_args(argv)
    for kind in AGENTS:
        print(f"{kind} decisions/s per game (CPU time)")
        for name in game_names():
            got = decisions_per_second(
                name, args.decisions, args.simulations, kind, args.rollout_depth, args.repeat
            )
            if isinstance(got, str):
                print(f"  {name:<12} {got}")
            else:
                rate, count = got
                print(f"  {name:<12} {rate:8.2f} decisions/s ({count} decisions)")
            sys.stdout.flush()
    if not args.skip_snc:
        r = snc_game(SNC_SEED, args.simulations)
        print(
            f"SNC, mcts ({r['side']}) against random, seed {SNC_SEED}: {r['seconds']:.1f} s CPU, "
            f"{r['decisions']} decisions, {r['steps']} steps, {r['stop']}, winner {r['winner']}"
        )
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
