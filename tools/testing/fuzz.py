"""Fuzz campaign: mutated states, actions, logs, data files and arguments through every verb.

`python -m tools.testing.fuzz [--game G] [--per-game N] [--seed S] [--json]` runs N mutated
inputs per game through the `wargame` command in-process (`tools.cli.commands.main(argv)`,
with temporary files; `tools.testing.fuzz_calls`): `legal`, `legal --side`, `apply`,
`apply --side`, `view --side`, `render`, `new` with bad options, `play --replay` with mutated
logs, `data check --file` with mutated data files, `schema`, and argument lists altered at
random. The inputs are real documents from seeded playouts, mutated by the conformance kit's
engine (`tools.testing.mutation.mutate`), or altered byte by byte (invalid UTF-8, deep nesting,
huge integer literals, NaN, truncation; `tools.testing.fuzz_mutations`).

Per call it measures the wall time (`time.perf_counter`) and the growth of the process's peak
resident memory (`getrusage`); a call that grows it by more than 32 MB or runs over a second is
run again under `tracemalloc` to measure its own peak. It counts exit codes and failures:

- `internal_error`: exit 70; `traceback`: a traceback on stderr or an exception escaping main;
- `impossible_accepted`: an accepted mutated state that fails the position check, cannot be
  played from, or from which a legal action leads to a position the codec refuses; or one put
  out of its domain on purpose (`tools.testing.mutation_positions`: a static unit moved, a
  reinforcement early, a step of another phase) and accepted;
- `reachable_refused`: a position made so that the rules do reach it, refused for that field;
- `inexact_accepted`: an accepted input read back as something else than what was sent;
- `illegal_applied`: an action applied that is not listed, or sent by a side not to move;
- `edited_log_accepted`: a log naming a seeded agent replayed although that agent would not
  have played its actions;
- `over_limit`: a call over the time limit (10 s) or memory limit (1 GB), or killed at the
  hard timeout.

It exits 1 if any of these occur, printing one reproducer (argv and input file contents) per
group of alike failures (`tools.testing.fuzz_report`). Warnings are counted and printed but do
not fail the campaign: an error on stderr that is not one JSON object, a refusal naming neither
field nor clause, a state the codec accepts that the published schema refuses, and verbs the
command lacks.
These are measurements of a tool; the unit tests assert nothing about time or memory.
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Final

from kernel.codec import dump_json
from tools.registry import game_names, get_game
from tools.testing.conformance_corpus import build_corpus
from tools.testing.fuzz_campaign import VERBS, Campaign, Limits
from tools.testing.fuzz_inputs import playlog_codec
from tools.testing.fuzz_report import Report, save_reproducers

# --- the whole campaign ------------------------------------------------------------------------


_DEFAULT_LIMITS: Final = Limits()


def run_campaign(
    games: Sequence[str],
    per_game: int,
    seed: int,
    *,
    limits: Limits = _DEFAULT_LIMITS,
    verbs: Sequence[str] | None = None,
    progress: Callable[[str], object] | None = None,
) -> Report:
    """Run `per_game` mutated inputs per game and gather the counts and findings."""
    stats, findings = [], []
    with tempfile.TemporaryDirectory(prefix="wargame-fuzz-") as tmp:
        for i, name in enumerate(games):
            game = get_game(name)
            logs = playlog_codec(game)
            if progress:
                progress(f"{name}: building the corpus")
            corpus = build_corpus(game, seeds=(seed, seed + 1), logs=logs)
            workdir = Path(tmp) / name
            workdir.mkdir()
            campaign = Campaign(game, corpus, logs, workdir, seed * 1000 + i, limits, verbs)
            if progress:
                progress(f"{name}: {per_game} inputs")
            stats.append(campaign.run(per_game))
            findings += campaign.findings
    return Report(per_game, seed, tuple(stats), tuple(findings))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m tools.testing.fuzz", description=__doc__.split("\n")[0]
    )
    p.add_argument("--game", action="append", help="a game (repeatable; default: every game)")
    p.add_argument("--per-game", type=int, default=2000, metavar="N", help="inputs per game")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--verb", action="append", choices=[v for v, _ in VERBS], help="only these")
    p.add_argument("--time-limit", type=float, default=10.0, metavar="SECONDS")
    p.add_argument("--memory-limit", type=int, default=1024, metavar="MB")
    p.add_argument("--hard-timeout", type=float, default=60.0, metavar="SECONDS")
    p.add_argument("--trace-memory", action="store_true", help="tracemalloc every call (slow)")
    p.add_argument("--save", metavar="DIR", help="write one reproducer folder per group")
    p.add_argument("--reproducers", type=int, default=1, metavar="K", help="shown per group")
    p.add_argument("--all", action="store_true", help="every finding's reproducer")
    p.add_argument(
        "--address-space", type=int, default=6, metavar="GB", help="cap this process (0: none)"
    )
    args = p.parse_args(argv)
    if args.address_space > 0:  # a runaway call fails with MemoryError instead of the machine
        cap = args.address_space * 2**30
        resource.setrlimit(resource.RLIMIT_AS, (cap, resource.getrlimit(resource.RLIMIT_AS)[1]))
    games = args.game or game_names()
    for name in games:
        get_game(name)
    limits = Limits(
        args.time_limit, args.memory_limit * 2**20, args.hard_timeout, args.trace_memory
    )

    def progress(line: str) -> None:
        sys.stderr.write(line + "\n")

    report = run_campaign(
        games, args.per_game, args.seed, limits=limits, verbs=args.verb, progress=progress
    )
    if args.save:
        save_reproducers(report, Path(args.save))
    if args.json:
        sys.stdout.write(dump_json(report.to_json(every=args.all)) + "\n")
    else:
        shown = len(report.findings) if args.all else args.reproducers
        sys.stdout.write(report.text(reproducers=shown) + "\n")
    return 1 if report.failed else 0


__all__ = ["main", "run_campaign"]

if __name__ == "__main__":
    sys.exit(main())
