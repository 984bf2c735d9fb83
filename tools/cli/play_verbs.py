"""The `wargame` verbs that play games: play (seeded agents, logs, replays) and explore.

Each `add_*` declares a verb's arguments next to the function that runs it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import attrs

from kernel.codec import dump_json
from kernel.errors import InvalidInput
from kernel.playout import DEFAULT_MAX_STEPS, CycleWatch, Playout
from kernel.roles import AssembledGame
from kernel.variants import Variant
from tools import explore_report, explore_winrates, explore_winrates_text, game_logs, playlog
from tools.agents import AGENT_NAMES, make_agent
from tools.agents.base import Agent
from tools.agents.match import play_match
from tools.cli import inputs
from tools.cli.inputs import Subcommands
from tools.progress import terminal_progress
from tools.registry import get_game
from tools.study.engine import Engine, LocalEngine

MAX_SEED = 2**63 - 1
"""The largest seed a log records (`kernel.codec.Seed`)."""


def add_play(sub: Subcommands) -> None:
    play = sub.add_parser("play", help="play with seeded agents and print a readable log")
    play.add_argument("game", metavar="GAME")
    inputs.variant_args(play)
    play.add_argument("--seed", type=int, help="random seed (default 0)")
    play.add_argument(
        "--agent",
        choices=AGENT_NAMES,
        help="who plays the game's first side (default random)",
    )
    play.add_argument(
        "--against",
        choices=AGENT_NAMES,
        help="who plays the other side (default random)",
    )
    play.add_argument(
        "--simulations", type=int, metavar="N", help="an mcts agent's searches per decision"
    )
    play.add_argument("--log", metavar="FILE", help="write a JSON game log")
    play.add_argument("--replay", metavar="FILE", help="replay a JSON game log and check it")
    play.add_argument("--max-steps", type=int, default=DEFAULT_MAX_STEPS, metavar="N")
    play.add_argument("--quiet", action="store_true", help="print only the header and the result")
    play.set_defaults(run=_play)


def add_explore(sub: Subcommands) -> None:
    explore = sub.add_parser(
        "explore", help="find where readings of the rules differ, and gaps in the text"
    )
    explore.add_argument("game", metavar="GAME")
    explore.add_argument("option", nargs="?", metavar="OPTION", help="one option (default: all)")
    explore.add_argument("--preset", metavar="PRESET", help="the reading to compare against")
    explore.add_argument("--budget", type=float, default=3.0, metavar="SECONDS", help="per pair")
    explore.add_argument("--report", metavar="DIR", help="write DIR/index.html and results.json")
    explore.add_argument(
        "--json", action="store_true", help="print results.json (the same document)"
    )
    explore.add_argument(
        "--win-rates",
        type=int,
        default=0,
        metavar="GAMES",
        help="play, for each differing pair, greedy vs greedy over GAMES seeds per reading "
        "(not counted in the budget; cached in --db); without it the report shows the games "
        "--db already holds and plays none",
    )
    explore.add_argument(
        "--win-rate-agent",
        choices=explore_winrates.AGENTS,
        default=explore_winrates.AGENT,
        help="who plays both sides of --win-rates games (the report shows both when stored)",
    )
    explore.add_argument(
        "--only-win-rates",
        action="store_true",
        help="with --win-rates: no pair search; play every reading pair of the options asked "
        "under --preset and print their win rates",
    )
    explore.add_argument(
        "--from",
        dest="pairs_from",
        metavar="DIR",
        help="with --only-win-rates: only the differing pairs of the report in DIR",
    )
    explore.add_argument(
        "--db", default=explore_winrates.DB, metavar="PATH", help="the study database"
    )
    explore.add_argument("--workers", type=int, default=1, metavar="W", help="for --win-rates")
    explore.set_defaults(run=_explore)


def _explore(args: argparse.Namespace) -> int:
    """Differential witnesses per option and the gap search (tools/explore_report.py), with
    the win rates of the differing pairs (tools/explore_winrates.py)."""
    game = get_game(args.game)
    if args.budget <= 0:
        raise InvalidInput("--budget must be positive", field="--budget")
    if args.win_rates < 0:
        raise InvalidInput("--win-rates must be at least 0", field="--win-rates")
    engine = LocalEngine(args.workers)
    if args.only_win_rates:
        return _only_win_rates(game, args, engine)
    if args.pairs_from is not None:
        raise InvalidInput("--from is for --only-win-rates", field="--from")

    with terminal_progress(f"explore {game.name}, {args.budget:g} s a pair") as progress:
        findings, gaps, unreached = explore_report.explore(
            game, args.option, args.preset, args.budget, progress
        )
    if args.win_rates:
        with terminal_progress(f"win rates of {game.name}") as progress:
            findings = explore_winrates.with_win_rates(
                game,
                findings,
                args.win_rates,
                args.db,
                engine=engine,
                progress=progress,
                agent=args.win_rate_agent,
            )
    else:
        findings = explore_winrates.cached_win_rates(game, findings, args.db)
    out = None if args.report is None else Path(args.report)
    results = explore_report.report(game, out, findings, gaps, unreached)
    if out is not None:
        sys.stderr.write(f"report: {out / 'index.html'}\n")
    if args.json:
        inputs.out(dump_json(results))  # exactly results.json
    else:
        inputs.out(explore_report.table(findings, gaps, unreached))
    return 0


def _only_win_rates(game: AssembledGame[Any, Any], args: argparse.Namespace, engine: Engine) -> int:
    """`--only-win-rates`: the studies of every reading pair asked, without the pair search
    (a later plain `explore --report` reads them from --db)."""
    if not args.win_rates:
        raise InvalidInput(
            "--only-win-rates plays games: give their number with --win-rates GAMES",
            field="--only-win-rates",
        )
    if args.report is not None:
        raise InvalidInput(
            "--only-win-rates runs no pair search, so there is no report: run explore "
            "without it afterwards (it reads the games from --db)",
            field="--report",
        )
    cat = game.catalogue
    if args.option is not None and args.option not in {o.name for o in cat.options}:
        known = ", ".join(o.name for o in cat.options)
        raise InvalidInput(f"unknown option {args.option!r} (options: {known})", field="OPTION")
    if args.preset is not None and args.preset not in cat.presets:
        raise InvalidInput(f"unknown preset {args.preset!r}", field="--preset")
    if args.pairs_from is None:
        pairs = explore_winrates.every_pair(game, args.option, args.preset)
    else:
        found = inputs.read_json(str(Path(args.pairs_from) / "results.json"), "--from")
        pairs = explore_winrates.differing_pairs(game, found, args.option, args.preset)
    with terminal_progress(f"win rates of {game.name}") as progress:
        rates = explore_winrates.play_and_read(
            game, pairs, args.win_rates, args.db, engine, progress, args.win_rate_agent
        )
    if args.json:
        rows = [{**attrs.asdict(p), "win_rate": r} for p, r in zip(pairs, rates, strict=True)]
        inputs.out(dump_json({"game": game.name, "db": str(args.db), "pairs": rows}))
    else:
        inputs.out(explore_winrates_text.table(pairs, rates))
    return 0


def _play(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    if args.max_steps < 0:
        raise InvalidInput("--max-steps must be 0 or more", field="--max-steps")
    if args.seed is not None and not 0 <= args.seed <= MAX_SEED:
        raise InvalidInput(f"--seed must be from 0 to {MAX_SEED}", field="--seed")
    if args.simulations is not None and args.simulations < 1:
        raise InvalidInput("--simulations must be 1 or more", field="--simulations")
    emit = None if args.quiet else inputs.out
    if args.replay is not None:
        chosen = (args.agent, args.against, args.simulations)
        if args.variant is not None or args.option or args.seed is not None:
            raise InvalidInput(
                "--replay takes the variant and seed from the log; do not give them",
                field="--replay",
            )
        if any(x is not None for x in chosen):
            raise InvalidInput(
                "--replay replays the logged actions; --agent, --against and --simulations "
                "do not apply",
                field="--replay",
            )
        log = game_logs.read_log(game, inputs.read_json(args.replay, "--replay"))
        variant, agent = log.variant, log.agent
        inputs.out(playlog.header(game, variant, agent))
        if not agent.is_seeded:
            inputs.out(playlog.LEGALITY_ONLY)
        result = playlog.replay_log(game, log, emit)
    else:
        variant = inputs.variant(game, args.variant, args.option)
        seed = 0 if args.seed is None else args.seed
        names = (args.agent or "random", args.against or "random")
        agent = game_logs.LogAgent.seeded(seed)
        if names == ("random", "random"):  # one random stream, as a seeded log replays it
            inputs.out(playlog.header(game, variant, agent))
            if args.agent is not None or args.against is not None:
                inputs.out(_seats(game, names))
            result = playlog.play_narrated(game, variant, seed, emit, max_steps=args.max_steps)
        else:
            agents = {
                side: make_agent(name, game, side, simulations=args.simulations)
                for side, name in zip(game.sides, names, strict=True)
            }
            inputs.out(playlog.header(game, variant, agent))
            inputs.out(_seats(game, names))
            agent = game_logs.LogAgent.external()  # a replay can check legality only
            result = _play_agents(game, variant, agents, seed, emit, args.max_steps)
    if emit is None:
        inputs.out(result.report())
    if args.log is not None:
        game_logs.write_log(Path(args.log), game_logs.make_log(game, variant, agent, result))
    return 0


def _seats(game: AssembledGame[Any, Any], names: Sequence[str]) -> str:
    """Which agent plays which side."""
    return "agents: " + ", ".join(f"{s} {n}" for s, n in zip(game.sides, names, strict=True))


def _play_agents(
    game: AssembledGame[Any, Any],
    variant: Variant,
    agents: dict[str, Agent],
    seed: int,
    emit: Callable[[str], object] | None,
    max_steps: int,
) -> Playout[Any, Any]:
    """A seeded game between agents that each see only their own seat
    (`tools.agents.match.play_match`), narrated like a random game and reported as a playout
    (for the result line and the log)."""
    actions: list[Any] = []
    states: list[Any] = [game.initial_state(variant)]
    watch = CycleWatch(states[0])
    narrator = playlog.Narrator(game, emit) if emit is not None else None

    def step(before: Any, action: Any, after: Any) -> None:
        if narrator is not None:
            narrator.step(before, action, after)
        actions.append(action)
        states[0] = after
        watch.see(after)

    match = play_match(game, variant, agents, seed, max_steps=max_steps, on_step=step)
    final = states[0]
    if match.stop == "ended":
        result = Playout(tuple(actions), final, game.outcome(final), "ended", lasso=watch.lasso)
    elif match.stop == "no_action":
        clauses = game.no_action_clauses(final)
        result = Playout(tuple(actions), final, None, "no_action", clauses, watch.lasso)
    else:
        clauses = game.nontermination_clauses
        result = Playout(tuple(actions), final, None, "step_limit", clauses, watch.lasso)
    if emit is not None:
        emit(result.report())
    return result
