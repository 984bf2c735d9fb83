"""`wargame study GAME`: the arguments, the run (with a progress bar on a terminal) and the
output: a readable table, or `--json` with the same numbers; `--out DIR` adds plots and an HTML
page. Exit codes as the `wargame` command's: 0 done, 2 refused arguments (one JSON object on
stderr naming the field), 130 interrupted (what was stored stays stored: rerun to resume)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, NoReturn

from tqdm import tqdm

from kernel.errors import InvalidInput, WargameError
from tools.agents.match import DEFAULT_MAX_STEPS
from tools.study.engine import ENGINES, make_engine
from tools.study.plan import make_plan
from tools.study.runner import execute, summary
from tools.study.store import Store

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
DEFAULT_DB = "wargame-study.sqlite"


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add `study` to the `wargame` subcommands (the parser runs `run`)."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "study", help="many seeded games between agents, in parallel, with a statistical summary"
    )
    _arguments(p)
    p.set_defaults(run=run)
    return p


def _arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", metavar="GAME")
    p.add_argument("--preset", metavar="PRESET", help="the variant (default: the game's)")
    p.add_argument("--agent", default="random", metavar="A", help="the first side's agent")
    p.add_argument("--against", default="random", metavar="B", help="the other sides' agent")
    p.add_argument("--simulations", type=int, metavar="N", help="search agents' budget")
    p.add_argument("--games", type=int, default=100, metavar="N", help="games per reading")
    p.add_argument("--seed-start", type=int, default=0, metavar="S", help="the first seed")
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=READING",
        help="read one option another way (repeatable)",
    )
    p.add_argument(
        "--compare", metavar="OPTION", help="play every reading of OPTION on the same seeds"
    )
    p.add_argument("--max-steps", type=int, default=DEFAULT_MAX_STEPS, metavar="N")
    p.add_argument("--engine", choices=ENGINES, default="local")
    p.add_argument("--workers", type=int, default=2, metavar="W", help="processes or Ray CPUs")
    p.add_argument("--address", metavar="ADDR", help="join the Ray cluster at ADDR")
    p.add_argument(
        "--db", default=DEFAULT_DB, metavar="PATH", help=f"results store (default {DEFAULT_DB})"
    )
    p.add_argument("--out", metavar="DIR", help="write DIR/index.html, summary.json and plots")
    p.add_argument("--json", action="store_true", help="the summary as JSON")


def run(args: argparse.Namespace) -> int:
    """Plan, play what the store lacks, summarise, report."""
    try:
        return _run(args)
    except WargameError as err:
        sys.stderr.write(json.dumps(err.to_json()) + "\n")
        return EXIT_USAGE


def _run(args: argparse.Namespace) -> int:
    plan = make_plan(
        args.game,
        preset=args.preset,
        agent=args.agent,
        against=args.against,
        games=args.games,
        seed_start=args.seed_start,
        options=args.option,
        compare=args.compare,
        simulations=args.simulations,
        max_steps=args.max_steps,
    )
    engine = make_engine(args.engine, args.workers, args.address)
    with Store(Path(args.db)) as store:
        bar = tqdm(
            desc=f"study {plan.game}",
            unit="game",
            file=sys.stderr,
            disable=not sys.stderr.isatty(),
            leave=False,
            dynamic_ncols=True,
        )

        def tell(done: int, total: int) -> None:
            bar.total = total
            bar.n = done
            bar.refresh()

        try:
            played = execute(plan, store, engine, progress=tell)
        except KeyboardInterrupt:
            bar.close()
            stored = store.count(plan.key)
            sys.stderr.write(f"interrupted: {stored} games stored; rerun to resume\n")
            return EXIT_INTERRUPTED
        bar.close()
        numbers = summary(plan, store)
        lengths = {
            r: [x.steps for x in store.results(plan.key, r, plan.seeds)] for r in plan.readings
        }
    if args.out is not None:
        from tools.study.plots import write_plots  # matplotlib only when pictures are asked
        from tools.study.report import write_report

        out = Path(args.out)
        index = write_report(numbers, write_plots(numbers, lengths, out), out)
        sys.stderr.write(f"report: {index}\n")
    run_info = {
        "engine": engine.name,
        "workers": engine.workers,
        "played": played,
        "db": str(args.db),
    }
    if args.json:
        sys.stdout.write(json.dumps({"study": numbers, "run": run_info}, sort_keys=True) + "\n")
    else:
        from tools.study.report import table

        sys.stdout.write(table(numbers) + "\n")
        sys.stdout.write(f"({played} games played now on {engine.name}, the rest from {args.db})\n")
    return 0


class _Parser(argparse.ArgumentParser):
    """Refusals raised, not printed and exited, so `main` reports them like every other."""

    def error(self, message: str) -> NoReturn:
        raise InvalidInput(message, field="arguments")


def main(argv: list[str] | None = None) -> int:
    """`wargame study` on its own (`python -m tools.study.command GAME ...`)."""
    parser = _Parser(prog="wargame study")
    _arguments(parser)
    try:
        args = parser.parse_args(argv)
    except InvalidInput as err:
        sys.stderr.write(json.dumps(err.to_json()) + "\n")
        return EXIT_USAGE
    except SystemExit as exc:  # --help
        return exc.code if isinstance(exc.code, int) else 0
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
