"""The conformance suite at full size: every position of seeded playouts, every game and preset.

`python -m bench.conformance [--game NAME ...] [--seeds N] [--every K]` runs
`tools.testing.conformance.check_playout` (legal actions apply, illegal ones are refused with
clauses,
chance sums to one, JSON and hashing round-trip, the log replays) and prints one line per game,
preset and seed with its time. `make test` samples the long games (tests/conformance); this is
the whole check, run by `make bench`. Exits 1 on the first failure, naming the case.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from tools.registry import game_names, get_game
from tools.testing.conformance import check_playout


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.conformance", description=__doc__)
    parser.add_argument("--game", action="append", choices=game_names(), help="default: all")
    parser.add_argument("--seeds", type=int, default=2, help="seeds 0..N-1 (default 2)")
    parser.add_argument("--every", type=int, default=1, help="check every K-th position")
    args = parser.parse_args(argv)
    if args.seeds < 1 or args.every < 1:
        parser.error("--seeds and --every must be at least 1")
    for name in args.game or game_names():
        game = get_game(name)
        for preset, variant in sorted(game.presets().items()):
            for seed in range(args.seeds):
                start = time.perf_counter()
                try:
                    check_playout(game, variant, seed, every=args.every)
                except AssertionError as exc:
                    print(f"{name} {preset} seed {seed}: FAILED: {exc}", file=sys.stderr)
                    return 1
                print(
                    f"{name:12} {preset:10} seed {seed}: ok in {time.perf_counter() - start:.1f} s"
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
