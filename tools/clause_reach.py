"""Clause reach of a game's seeded play (`solvers.checking.reach`): which clauses its code cites
where
a rule takes effect, which of those no play ran, and which are cited only in docstrings.

    python -m tools.clause_reach GAME [--seeds N]

Exit status 0; the lists are for the rules editor and for whoever places the citations.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from solvers.checking import reach
from solvers.checking.unreached import measured_play, seeded_play
from tools.registry import get_game


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tools.clause_reach", description=__doc__)
    p.add_argument("game")
    p.add_argument("--seeds", type=int, default=20)
    p.add_argument("--sites", action="store_true", help="list every site and whether it ran")
    args = p.parse_args(argv)
    game = get_game(args.game)
    sites, ran = measured_play(game, seeded_play(game, args.seeds))
    unreached = sorted(sites.cited - reach.reached(sites, ran))
    print(f"{len(sites.cited)} clauses cited where they take effect or in docstrings")
    print(f"unreached by play ({len(unreached)}): {' '.join(unreached)}")
    print(f"cited only in docstrings ({len(sites.docstring_only)}):", *sorted(sites.docstring_only))
    if args.sites:
        for s in sites.sites:
            hit = bool(s.lines & ran.get(s.path, set()))
            print(f"{'ran ' if hit else 'NOT '} {Path(s.path).name}:{s.line} {' '.join(s.clauses)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
