"""The fuzz campaign's inputs beyond the conformance kit's edits of a document's JSON
(`tools.testing.mutation`): byte-level alterations of a document's text, a data document's
number made infinite or NaN, near misses of a name, and how a mutated document is written out
and read back as the command would read it."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from typing import Any, Final

from kernel.codec import dump_json, parse_json
from kernel.errors import WargameError
from tools.testing.mutation import Chooser, Mutation, pick
from tools.testing.mutation_json import json_nodes, json_path, json_replaced

_NUMBER: Final = re.compile(rb"(?<![\w.\"])-?\d+(?![\w\"])")


def _bytes_ops(kind: str) -> list[Callable[[bytes, Chooser], bytes]]:
    def truncate(b: bytes, c: Chooser) -> bytes:
        return b[: c.below(max(len(b), 1))]

    def invalid_utf8(b: bytes, c: Chooser) -> bytes:
        at = c.below(len(b) + 1)
        return b[:at] + pick(c, [b"\xff", b"\xc3", b"\xc0\xaf", b"\xed\xa0\x80", b"\x80"]) + b[at:]

    def flip(b: bytes, c: Chooser) -> bytes:
        if not b:
            return b"\x00"
        at = c.below(len(b))
        return b[:at] + bytes([b[at] ^ (1 << c.below(8))]) + b[at + 1 :]

    def deep(b: bytes, c: Chooser) -> bytes:
        depth = pick(c, [33, 1000, 100_000])
        if kind == "toml":
            return b + b"\ndeep = " + b"[" * depth + b"]" * depth + b"\n"
        return b"[" * depth + b + b"]" * depth

    def long_number(b: bytes, c: Chooser) -> bytes:
        numbers = list(_NUMBER.finditer(b))
        literal = pick(c, [b"9" * 13, b"9" * 4301, b"-" + b"9" * 5000, b"1e999", b"-1e999"])
        if not numbers:
            return b + literal
        m = pick(c, numbers)
        return b[: m.start()] + literal + b[m.end() :]

    def non_finite(b: bytes, c: Chooser) -> bytes:
        numbers = list(_NUMBER.finditer(b))
        words = [b"inf", b"-inf", b"nan", b"+inf"] if kind == "toml" else [b"NaN", b"Infinity"]
        word = pick(c, [*words, b"-Infinity"])
        if not numbers:
            return b + word
        m = pick(c, numbers)
        return b[: m.start()] + word + b[m.end() :]

    def wrap(b: bytes, c: Chooser) -> bytes:
        return pick(
            c,
            [
                b"\xef\xbb\xbf" + b,
                b + b + b"\n",
                b + b"garbage",
                b"",
                b" \n\t ",
                b"null",
                b.decode("utf-8", "replace").encode("utf-16"),
                b + b" " * (5 * 1024 * 1024),
            ],
        )

    def duplicate_key(b: bytes, c: Chooser) -> bytes:
        if kind == "toml":
            lines = b.split(b"\n")
            at = c.below(len(lines))
            return b"\n".join([*lines[: at + 1], lines[at], *lines[at + 1 :]])
        at = b.find(b"{")
        if at < 0:
            return b
        key = pick(c, [b'"format": "x", ', b'"version": 1, ', b'"game": "x", ', b'"turn": 1, '])
        return b[: at + 1] + key + b[at + 1 :] if b[at + 1 : at + 2] != b"}" else b

    def lines(b: bytes, c: Chooser) -> bytes:
        parts = b.split(b"\n")
        at = c.below(len(parts))
        return b"\n".join(parts[:at] + parts[at + 1 :])

    ops: list[Callable[[bytes, Chooser], bytes]] = [
        truncate,
        invalid_utf8,
        flip,
        deep,
        long_number,
        non_finite,
        wrap,
        duplicate_key,
    ]
    return [*ops, lines] if kind == "toml" else ops


def mutate_bytes(text: bytes, chooser: Chooser, kind: str = "json") -> tuple[bytes, Mutation]:
    """One byte-level alteration of a document's text (`kind`: json or toml)."""
    op = pick(chooser, _bytes_ops(kind))
    out = op(text, chooser)
    return out, Mutation(f"bytes.{op.__name__}", "", f"{len(text)} bytes -> {len(out)} bytes")


UNPARSED: Final = object()
"""What `parsed` gives for a text the command would not read as JSON."""


def parsed(text: bytes) -> Any:
    """The document the command would read from this text, or UNPARSED."""
    try:
        return parse_json(text, what="input")
    except WargameError:
        return UNPARSED


def encoded(doc: Any) -> bytes:
    """A mutated document as the text of an input file."""
    try:
        return dump_json(doc).encode("utf-8", "surrogatepass")
    except ValueError:  # a float that JSON cannot say: write it as Python would
        return json.dumps(doc, sort_keys=True, ensure_ascii=False).encode()


def near_names(name: str) -> list[str]:
    """Names a user might type instead of `name`."""
    return [name.upper(), name + "x", name[:-1], " " + name, name.replace("_", "-"), name + "\n"]


def non_finite_number(doc: Any, chooser: Chooser) -> tuple[Any, Mutation]:
    """The data document with one number made infinite or NaN (TOML has inf and nan)."""
    numbers = [
        (p, v) for p, v in json_nodes(doc) if isinstance(v, int | float) and not isinstance(v, bool)
    ]
    if not numbers:
        return doc, Mutation("non_finite", "", "no number to change")
    path, old = pick(chooser, numbers)
    new = pick(chooser, [math.inf, -math.inf, math.nan])
    return json_replaced(doc, path, new), Mutation("non_finite", json_path(path), f"{old} -> {new}")
