"""The `wargame` command: list games, start, query and advance positions, play, check data.

Kept thin on purpose: each subcommand parses its arguments, calls the Game contract,
`kernel.views` or `tools.playlog`, and prints JSON or a readable log. Exit codes: 0 done; 1 a
check that failed (a data fact, a replay that is not the logged game); 2 input that is refused
(an argument, a file, a position, an action); 70 a bug of ours, which no input may cause. Every
failure, argument errors included, is one JSON object on stderr, never a traceback, so scripts
and people can both act on it.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Callable
from typing import Any, NoReturn

from kernel.codec import dump_json
from kernel.errors import WargameError
from tools import playlog, verify_command
from tools.cli import data_verb, play_verbs, position_verbs, serve_verb
from tools.cli.inputs import Subcommands
from tools.study import command as study_command

EXIT_CHECK_FAILED = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 70
EXIT_BROKEN_PIPE = 141  # as a shell reports a process ended by SIGPIPE


class UsageError(WargameError):
    """Arguments argparse refuses: an unknown subcommand or option, a missing argument, a
    value of the wrong type. Reported like every other error, with the usage line."""

    kind = "usage"

    def __init__(self, message: str, *, field: str, usage: str) -> None:
        super().__init__(message, field=field)
        self.usage = usage

    def to_json(self) -> dict[str, Any]:
        return {**super().to_json(), "usage": self.usage}


_ARGUMENT = re.compile(r"^argument (?P<name>[^:]+): ")
_REQUIRED = re.compile(r"^the following arguments are required: (?P<names>.+)$")
_UNRECOGNIZED = re.compile(r"^unrecognized arguments: (?P<args>.+)$")


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are raised (as UsageError) instead of printed; `--help`
    still prints help and exits 0. Subcommand parsers are of this class too (argparse makes
    them with the parent's class)."""

    def error(self, message: str) -> NoReturn:
        usage = " ".join(self.format_usage().split())
        raise UsageError(message, field=_argument_named(message), usage=usage)


def _argument_named(message: str) -> str:
    """The argument an argparse message is about (`--seed`, `STATE`, `COMMAND`, `--bogus`)."""
    if match := _ARGUMENT.match(message):
        return _longest(match.group("name"))
    if match := _REQUIRED.match(message):
        return _longest(match.group("names").split(", ")[0])
    if match := _UNRECOGNIZED.match(message):
        return match.group("args").split(" ")[0]
    return "arguments"


def _longest(names: str) -> str:
    """`--output` of argparse's `-o/--output`."""
    return max(names.split("/"), key=len)


def main(argv: list[str] | None = None) -> int:
    """Run one subcommand; returns the exit code (the console script exits with it)."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except UsageError as err:
        _error(err.to_json())
        return EXIT_USAGE
    except SystemExit as exc:  # --help (or --version): printed, and done
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else EXIT_USAGE)
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        return run(args)
    except playlog.ReplayMismatch as err:
        _error(err.to_json())
        return EXIT_CHECK_FAILED
    except WargameError as err:
        _error(err.to_json())
        return EXIT_USAGE
    except BrokenPipeError:  # the reader went away (`wargame play ... | head`): not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    except Exception as exc:  # a bug of ours: report it without a traceback
        _error({"error": "internal_error", "message": f"{type(exc).__name__}: {exc}"})
        return EXIT_INTERNAL


def _error(obj: dict[str, Any]) -> None:
    sys.stderr.write(dump_json(obj) + "\n")


# --- arguments ---------------------------------------------------------------------------------


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="wargame", description="Rules kernel for historical board wargames.")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in (
        position_verbs.add_games,
        position_verbs.add_new,
        position_verbs.add_legal,
        position_verbs.add_apply,
        position_verbs.add_view,
        position_verbs.add_schema,
        play_verbs.add_play,
        play_verbs.add_explore,
        position_verbs.add_render,
        _add_verify,
        study_command.add_parser,
        serve_verb.add_serve,
        data_verb.add_data,
    ):
        add(sub)
    return p


def _add_verify(sub: Subcommands) -> None:
    verify = sub.add_parser("verify", help="prove or refute each game's declared properties")
    verify_command.add_arguments(verify)
    verify.set_defaults(run=verify_command.run_cli)


if __name__ == "__main__":
    sys.exit(main())
