"""Benchmark of every game's rules, and a perft regression check.

`python -m bench.games [--quick] [--game NAME ...] [--json FILE]` prints, per game and preset,
how fast random playouts, legal-action queries and state JSON round trips run, and perft counts
with their times where the game has a stored perft table (tests/data/perft-GAME.json, today
Nomonhan's only). The speeds are numbers to compare between runs on one machine, never
pass/fail. A perft count that differs from the stored table means the set of legal actions
changed, and the command exits 1. So does a state that does not survive a JSON round trip
unchanged.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import platform
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from kernel.game import CHANCE
from kernel.playout import play
from kernel.roles import AssembledGame
from tools.perft import CONVENTION, perft
from tools.registry import game_names, get_game

GAME = "nomonhan"  # the game `--write-perft-data` writes when no --game is named
DATA_DIR = Path(__file__).resolve().parent.parent / "tests" / "data"
PERFT_DATA = DATA_DIR / "perft-nomonhan.json"
FULL = {"games": 50, "positions": 2000, "depth": 4}
QUICK = {"games": 10, "positions": 500, "depth": 3}


def machine() -> dict[str, Any]:
    """What the numbers were measured on, since they mean little without it."""
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "machine": platform.machine(),
        "cpu_count": os.cpu_count(),
    }


def perft_data(game: str) -> Path:
    """Where a game's stored perft table lives (it may not exist)."""
    return DATA_DIR / f"perft-{game}.json"


def load_expected(path: Path = PERFT_DATA) -> dict[str, dict[int, int]]:
    """Stored perft counts: preset -> depth -> count; empty when the game has no table."""
    if not path.exists():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return {
        preset: {int(depth): int(count) for depth, count in counts.items()}
        for preset, counts in data["perft"].items()
    }


def perft_table(game: AssembledGame[Any, Any], depths: range) -> dict[str, Any]:
    """The stored-data document: perft counts for every preset (used to regenerate the file)."""
    presets = game.presets()
    return {
        "game": game.name,
        "convention": CONVENTION,
        "regenerate": f"python -m bench.games --game {game.name} --write-perft-data",
        "perft": {
            name: {str(d): perft(game, game.initial_state(presets[name]), d) for d in depths}
            for name in presets
        },
    }


def _timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    """The result and the process's CPU time it took: a loaded machine's other work is not
    counted, and the rates are compared with python-chess's measured the same way."""
    start = time.process_time()
    result = fn()
    return result, time.process_time() - start


CHESS_DEPTH = 3
CHESS_ROUNDS = 3


def chess_rate(rounds: int = CHESS_ROUNDS) -> float | None:
    """python-chess's perft rate (nodes made per CPU second, every move generated and made,
    `bench.perft_chess`) at depth 3 from the start, best of `rounds`: the yardstick the
    games' steps/s are divided by, so that the ratio holds on any machine. None without
    python-chess."""
    try:
        import chess
    except ImportError:
        return None
    from bench.perft_chess import chess_perft

    best = float("inf")
    nodes = 0
    for _ in range(max(1, rounds)):
        (_, nodes), seconds = _timed(functools.partial(chess_perft, chess.Board(), CHESS_DEPTH))
        best = min(best, seconds)
    return _rate(nodes, best)


def _rate(count: int, seconds: float) -> float:
    return count / seconds if seconds > 0 else float("inf")


def bench_preset(
    game: AssembledGame[Any, Any],
    preset: str,
    *,
    games: int,
    positions: int,
    depth: int,
    seed: int,
    expected: dict[int, int] | None,
) -> dict[str, Any]:
    """All measurements for one preset; perft entries carry the stored count and a verdict.
    Perft runs only for a preset with stored counts (`expected`)."""
    initial = game.initial_state(game.presets()[preset])

    def playouts() -> list[Any]:
        return [play(game, initial, random.Random(seed + i)) for i in range(games)]

    # one untimed playout first: what a process pays once (imports, solvers started, tables
    # built) is not a cost per step
    play(game, initial, random.Random(seed + games))
    runs, seconds = _timed(playouts)
    steps = sum(len(p.actions) for p in runs)
    stops: dict[str, int] = {}
    for p in runs:
        stops[p.stop] = stops.get(p.stop, 0) + 1

    # Positions where a side is to move, collected untimed by replaying the same playouts.
    pool = []
    for p in runs:
        state = initial
        for action in p.actions:
            if game.to_move(state) not in (None, CHANCE):
                pool.append(state)
            state = game.apply(state, action)
    rng = random.Random(seed)
    sample = rng.sample(pool, positions) if len(pool) > positions else pool

    def queries() -> int:
        return sum(len(game.legal_actions(s)) for s in sample)

    actions_seen, q_seconds = _timed(queries)

    def round_trips() -> int:
        bad = 0
        for s in sample:
            back = game.state_from_json(json.loads(json.dumps(game.state_to_json(s))))
            bad += back != s
        return bad

    codec_bad, c_seconds = _timed(round_trips)

    perfts = []
    for d in range(1, depth + 1 if expected else 1):
        count, p_seconds = _timed(functools.partial(perft, game, initial, d))
        want = (expected or {}).get(d)
        perfts.append(
            {
                "depth": d,
                "count": count,
                "expected": want,
                "seconds": p_seconds,
                "ok": want is None or want == count,
            }
        )

    return {
        "game": game.name,
        "preset": preset,
        "playouts": games,
        "playout_steps": steps,
        "playout_seconds": seconds,
        "playout_stops": stops,
        "steps_per_s": _rate(steps, seconds),
        "playouts_per_s": _rate(games, seconds),
        "mean_steps": steps / games if games else 0.0,
        "positions": len(sample),
        "legal_actions_per_s": _rate(len(sample), q_seconds),
        "mean_legal_actions": actions_seen / len(sample) if sample else 0.0,
        "json_round_trips_per_s": _rate(len(sample), c_seconds),
        "json_round_trip_failures": codec_bad,
        "perft": perfts,
    }


def _fmt(x: float) -> str:
    return f"{x:,.0f}" if x >= 100 else f"{x:,.2f}"


def render(
    info: dict[str, Any],
    results: list[dict[str, Any]],
    cfg: dict[str, Any],
    chess: float | None = None,
) -> str:
    """The printed report: machine, then the steps/s of every game beside python-chess's
    perft rate measured in the same run (`chess`), then per game its configuration, a
    metrics table and, where it has stored counts, a perft table."""
    lines = [
        f"machine: {info['implementation']} {info['python']} on {info['platform']} "
        f"({info['machine']}, {info['cpu_count']} CPUs); rates in CPU time",
        *_render_yardstick(results, chess),
    ]
    games = list(dict.fromkeys(r["game"] for r in results))
    for game in games:
        lines += ["", *_render_game(game, [r for r in results if r["game"] == game], cfg)]
    return "\n".join(lines)


def _render_yardstick(results: list[dict[str, Any]], chess: float | None) -> list[str]:
    """Random-playout steps/s per game and preset, and each as a multiple of python-chess's
    perft nodes/s in the same run (a ratio that holds on a faster or slower machine)."""
    if chess is None:
        return ["python-chess perft: not installed (pip install -e '.[bench]'), no ratio"]
    lines = [f"python-chess perft, depth {CHESS_DEPTH}: {chess:,.0f} nodes/s"]
    for r in results:
        lines.append(
            f"  {r['game'] + '/' + r['preset']:<30} {r['steps_per_s']:>10,.0f} steps/s  "
            f"= {r['steps_per_s'] / chess:.3f} x python-chess perft"
        )
    return lines


def _render_game(game: str, results: list[dict[str, Any]], cfg: dict[str, Any]) -> list[str]:
    perft_note = (
        f"perft to depth {cfg['depth']}"
        if any(r["perft"] for r in results)
        else "no stored perft table"
    )
    lines = [
        f"{game}: seed {cfg['seed']}, {cfg['games']} random playouts, "
        f"{cfg['positions']} sampled positions, {perft_note}",
        "",
    ]
    names = [r["preset"] for r in results]
    rows: list[tuple[str, str]] = [
        ("steps_per_s", "playout steps/s (incl. chance)"),
        ("playouts_per_s", "full playouts/s"),
        ("mean_steps", "mean steps per playout"),
        ("legal_actions_per_s", "legal_actions queries/s"),
        ("mean_legal_actions", "mean legal actions per query"),
        ("json_round_trips_per_s", "state JSON round trips/s"),
    ]
    width = max(len(label) for _, label in rows)
    col = max(14, *(len(n) + 2 for n in names))
    lines.append(f"{'':<{width}}" + "".join(f"{n:>{col}}" for n in names))
    for key, label in rows:
        lines.append(f"{label:<{width}}" + "".join(f"{_fmt(r[key]):>{col}}" for r in results))
    stops = ", ".join(
        f"{r['preset']}: " + " ".join(f"{k}={v}" for k, v in sorted(r["playout_stops"].items()))
        for r in results
    )
    lines.append(f"playout stops: {stops}")
    failures = [r["preset"] for r in results if r["json_round_trip_failures"]]
    if failures:
        lines.append(f"JSON ROUND TRIP CHANGED STATES under: {', '.join(failures)}")
    if not any(r["perft"] for r in results):
        return lines
    lines += ["", f"{'preset':<8}{'depth':>6}{'count':>14}{'expected':>14}{'seconds':>10}  status"]
    for r in results:
        for p in r["perft"]:
            want = "-" if p["expected"] is None else f"{p['expected']:,}"
            status = "ok" if p["expected"] is not None and p["ok"] else "no data"
            if not p["ok"]:
                status = "REGRESSION"
            lines.append(
                f"{r['preset']:<8}{p['depth']:>6}{p['count']:>14,}{want:>14}"
                f"{p['seconds']:>10.3f}  {status}"
            )
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; 1 if a perft count differs from the stored table or a state does not
    survive a JSON round trip, else 0."""
    parser = argparse.ArgumentParser(prog="python -m bench.games", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer games, perft to depth 3")
    parser.add_argument(
        "--game",
        action="append",
        choices=game_names(),
        help="only these games (repeatable; default: every game)",
    )
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the numbers")
    parser.add_argument("--games", type=int, help="random playouts per preset")
    parser.add_argument("--positions", type=int, help="positions for legal_actions and JSON")
    parser.add_argument("--depth", type=int, help="deepest perft")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--preset", action="append", help="only these presets, in the games having them"
    )
    parser.add_argument("--perft-data", type=Path, help=argparse.SUPPRESS)
    parser.add_argument(
        "--write-perft-data",
        action="store_true",
        help="regenerate the stored perft table to --depth (default 4) and exit",
    )
    args = parser.parse_args(argv)
    base = QUICK if args.quick else FULL
    cfg = {
        "games": base["games"] if args.games is None else args.games,
        "positions": base["positions"] if args.positions is None else args.positions,
        "depth": base["depth"] if args.depth is None else args.depth,
        "seed": args.seed,
    }
    if args.write_perft_data:
        for name in args.game or [GAME]:
            game = get_game(name)
            path = args.perft_data or perft_data(name)
            doc = perft_table(game, range(1, cfg["depth"] + 1))
            path.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
            print(f"wrote {path.name}: {json.dumps(doc['perft'])}")
        return 0

    info = machine()
    chess = chess_rate()
    results = []
    for name in args.game or game_names():
        game = get_game(name)
        expected = load_expected(args.perft_data or perft_data(name))
        presets = [p for p in game.presets() if not args.preset or p in args.preset]
        results += [
            bench_preset(
                game,
                preset,
                games=cfg["games"],
                positions=cfg["positions"],
                depth=cfg["depth"],
                seed=cfg["seed"],
                expected=expected.get(preset),
            )
            for preset in presets
        ]
    if not results:
        print("no game has the presets asked for", file=sys.stderr)
        return 2
    # measured again after the games and the better kept: a load that came and went during
    # the run then slows the yardstick no more than it slowed the games
    again = chess_rate()
    if chess is not None and again is not None:
        chess = max(chess, again)
    print(render(info, results, cfg, chess))
    ok = all(p["ok"] for r in results for p in r["perft"]) and not any(
        r["json_round_trip_failures"] for r in results
    )
    if args.json is not None:
        doc = {
            "machine": info,
            "config": cfg,
            "ok": ok,
            "chess_perft_nodes_per_s": chess,
            "results": results,
        }
        args.json.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    if not ok:
        print("FAILED: perft or JSON round trip differs from the stored data", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
