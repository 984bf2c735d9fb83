"""What every `wargame` verb shares: reading file and stdin arguments, variant options, printing.

Kept apart from the verbs so that each verb module imports it and none imports another.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any

from kernel.errors import InvalidInput
from kernel.roles import AssembledGame
from kernel.variants import Variant
from kernel.wire import MAX_INPUT_BYTES, parse_json


def out(text: str) -> None:
    try:
        sys.stdout.write(text + "\n")
    except UnicodeEncodeError:  # a file name given as bytes that are not UTF-8
        sys.stdout.write(text.encode("utf-8", "backslashreplace").decode("utf-8") + "\n")


Subcommands = Any
"""What `add_subparsers` returns (argparse's private `_SubParsersAction`), to add a verb to."""


def variant_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--variant", metavar="PRESET", help="preset name (default: the game's)")
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=READING",
        help="read one option another way (repeatable)",
    )


def variant(game: AssembledGame[Any, Any], preset: str | None, options: Sequence[str]) -> Variant:
    overrides: dict[str, str] = {}
    for item in options:
        name, sep, reading = item.partition("=")
        if not sep or not name or not reading:
            raise InvalidInput(f"--option takes NAME=READING, not {item!r}", field="--option")
        overrides[name] = reading
    return game.catalogue.variant(preset, overrides)


def read(arg: str, name: str) -> bytes:
    """The bytes of a file argument, or of stdin for '-': at most one byte more than
    `kernel.wire.MAX_INPUT_BYTES`, so that `parse_json` refuses a larger input without it
    ever being held in memory. A missing or unreadable file names the argument."""
    limit = MAX_INPUT_BYTES + 1
    if arg == "-":
        stream = getattr(sys.stdin, "buffer", None)
        if stream is not None:
            data: bytes = stream.read(limit)
            return data
        return os.fsencode(sys.stdin.read(limit))  # a text stream (tests): bytes as given
    try:
        with open(arg, "rb") as fh:
            data = fh.read(limit)
            return data
    except FileNotFoundError:
        raise InvalidInput(f"{name}: no such file: {arg}", field=name) from None
    except (OSError, ValueError) as exc:
        raise InvalidInput(f"{name}: cannot read {arg}: {exc}", field=name) from None


def read_json(arg: str, name: str) -> Any:
    """A JSON argument: a file, '-' for stdin, parsed strictly (`kernel.wire.parse_json`)."""
    return parse_json(read(arg, name), what=name)


def read_state(game: AssembledGame[Any, Any], arg: str) -> Any:
    return game.state_from_json(read_json(arg, "STATE"))
