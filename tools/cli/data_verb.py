"""The `wargame data check` verb: the rules text's facts checked against a game's data files."""

from __future__ import annotations

import argparse
from pathlib import Path

from kernel.codec import dump_json
from kernel.errors import InvalidInput
from tools.cli import inputs
from tools.cli.inputs import Subcommands
from tools.registry import get_game


def add_data(sub: Subcommands) -> None:
    data = sub.add_parser("data", help="data file tools")
    data_sub = data.add_subparsers(dest="data_command", required=True, metavar="SUBCOMMAND")
    check = data_sub.add_parser("check", help="check the rules text's facts against the data")
    check.add_argument("game", metavar="GAME")
    check.add_argument("--file", metavar="PATH", help="a data file to check instead of the game's")
    check.add_argument("--json", action="store_true", help="machine-readable output")
    check.set_defaults(run=_data_check)


def _data_check(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    path = None if args.file is None else Path(args.file)
    if path is not None and not path.is_file():
        raise InvalidInput(f"--file: no such file: {args.file}", field="--file")
    facts = game.data_facts(path)
    provisional = game.provisional(path)
    ok = all(f.ok for f in facts)
    if args.json:
        inputs.out(
            dump_json(
                {
                    "game": game.name,
                    "file": args.file,
                    "ok": ok,
                    "facts": [f.to_json() for f in facts],
                    "provisional": [
                        {
                            "name": name,
                            "source": p.source,
                            "fields": list(p.provisional),
                            "note": p.note,
                        }
                        for name, p in provisional
                    ],
                }
            )
        )
        return 0 if ok else 1
    width = max((len(f.clause) for f in facts), default=0)
    stmt = max((len(f.statement) for f in facts), default=0)
    inputs.out(f"{'clause':<{width}}  {'statement':<{stmt}}  {'check':<5}  detail")
    for f in facts:
        status = "ok" if f.ok else "FAIL"
        inputs.out(f"{f.clause:<{width}}  {f.statement:<{stmt}}  {status:<5}  {f.detail}".rstrip())
    failed = sum(not f.ok for f in facts)
    inputs.out(
        f"{len(facts) - failed} of {len(facts)} facts hold" + ("" if ok else f", {failed} FAIL")
    )
    inputs.out(f"\nprovisional records: {len(provisional)}")
    for name, p in provisional:
        fields = ", ".join(p.provisional) or "all"
        inputs.out(f"  {name} [{fields}]: {_first_sentence(p.note)}")
    return 0 if ok else 1


def _first_sentence(note: str) -> str:
    """A note's opening sentence, unwrapped: enough to say why a value was chosen."""
    text = " ".join(note.split())
    end = text.find(". ")
    return text if end < 0 else text[: end + 1]
