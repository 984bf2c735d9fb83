"""Nomonhan's perft beside python-chess's, like for like, in one process.

Like for like: at every node of both trees the legal actions are generated and every child is
made (Nomonhan: `legal_actions`, or `chance_outcomes` at a chance node, then `apply` on each;
chess: `legal_moves`, then `push`, recurse, `pop`); no transposition memo and no bulk count of
the last ply on either side. Chance outcomes count as one branch each, as in tools.perft. The two
are timed in the same process (CPU time of the process), interleaved and repeated, and the best
time of each is kept, so a loaded machine slows both alike. The chess depth is chosen so that
its node count is closest to Nomonhan's at the asked depth.

`python -m bench.perft_chess [--depth 3] [--repeat N]`. A benchmark, not a test: it exits 0.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable, Sequence
from typing import Any

from kernel.game import CHANCE
from specs.nomonhan.game import Nomonhan

PRESETS = ("ja", "en")
CHESS_PERFT = (1, 20, 400, 8902, 197281, 4865609)
"""Leaves of the chess start position at depths 0 to 5 (the published perft counts)."""


def _nodes_below(depth: int) -> int:
    """Nodes a chess perft to `depth` makes: every level's leaves, the root included."""
    return sum(CHESS_PERFT[: depth + 1])


def nomonhan_perft(game: Nomonhan, state: Any, depth: int) -> tuple[int, int]:
    """(leaves at exactly `depth` plies, nodes made) by plain recursion, every child applied."""
    if depth == 0:
        return 1, 1
    side = game.to_move(state)
    if side is None:
        return 0, 1
    if side == CHANCE:
        actions: Sequence[Any] = [a for a, _ in game.chance_outcomes(state)]
    else:
        actions = game.legal_actions(state)
    leaves, nodes = 0, 1
    apply = game.apply
    for action in actions:
        lv, nd = nomonhan_perft(game, apply(state, action), depth - 1)
        leaves += lv
        nodes += nd
    return leaves, nodes


def chess_perft(board: Any, depth: int) -> tuple[int, int]:
    """(leaves, nodes made) of python-chess's push/pop perft: every move generated and made."""
    if depth == 0:
        return 1, 1
    leaves, nodes = 0, 1
    for move in board.legal_moves:
        board.push(move)
        lv, nd = chess_perft(board, depth - 1)
        board.pop()
        leaves += lv
        nodes += nd
    return leaves, nodes


def _timed(fn: Callable[..., tuple[int, int]], *args: Any) -> tuple[float, int]:
    """(seconds, nodes) of one run of `fn(*args)`."""
    t0 = time.process_time()
    _, nodes = fn(*args)
    return time.process_time() - t0, nodes


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.perft_chess", description=__doc__)
    parser.add_argument("--depth", type=int, default=3, help="Nomonhan plies (default 3)")
    parser.add_argument("--repeat", type=int, default=5, help="timed rounds, best kept")
    parser.add_argument("--preset", action="append", help="default: ja and en")
    args = parser.parse_args(argv)
    try:
        import chess
    except ImportError:
        print("perft vs python-chess: python-chess is not installed (pip install -e '.[bench]')")
        return 0

    game = Nomonhan()
    presets = game.presets()
    ratios: dict[str, float] = {}
    for name in args.preset or PRESETS:
        start = game.initial_state(presets[name])
        _, nom_nodes = nomonhan_perft(game, start, args.depth)
        # the chess depth whose node count is closest to Nomonhan's (log scale), from the
        # published perft counts of the start position, so no deep tree is searched to pick it
        chess_depth = min(
            range(1, len(CHESS_PERFT)),
            key=lambda d: abs(math.log(_nodes_below(d) / nom_nodes)),
        )
        nom_best = chess_best = float("inf")
        chess_nodes = 0
        for _ in range(max(1, args.repeat)):
            t, _ = _timed(nomonhan_perft, game, start, args.depth)
            nom_best = min(nom_best, t)
            t, chess_nodes = _timed(chess_perft, chess.Board(), chess_depth)
            chess_best = min(chess_best, t)
        nom_rate = nom_nodes / nom_best
        chess_rate = chess_nodes / chess_best
        ratios[name] = nom_rate / chess_rate
        print(
            f"perft like for like, {name}: nomonhan depth {args.depth} {nom_nodes} nodes "
            f"{nom_rate:,.0f} nodes/s; python-chess depth {chess_depth} {chess_nodes} nodes "
            f"{chess_rate:,.0f} nodes/s; ratio {ratios[name]:.2f}x"
        )
    print(
        "perft ratio nomonhan/python-chess: "
        + ", ".join(f"{name} {r:.2f}x" for name, r in ratios.items())
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
