"""Data files with provenance, and the check that the rules text's facts hold against them.

Maps, counters and tables live in TOML under `specs/<game>/data/`. Every record says where its
values come from: `source` is a clause ID when the text gives them, and `provisional` lists
the fields the text does not give, with a `note` saying how they were chosen. A transcription
of the printed components is dropped in by replacing the file; `wargame data check GAME` then
proves that every fact the text states still holds.

A data file is input like any other (`wargame data check GAME --file F`): it is read with a
size bound, must be UTF-8 TOML of bounded nesting with finite numbers, and each game's loader
decodes its records strictly (`decode_records`: msgspec records that refuse unknown fields and
values of the wrong type or out of bounds) before using them. Every refusal is a DataError
naming the file and the record's path, never a crash or an unbounded computation.
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Annotated, Any, Final, TypeVar

import attrs

from kernel.errors import DataError, InvalidInput
from kernel.wire import Meta, Record, convert

T = TypeVar("T")

MAX_DATA_BYTES: Final = 1024 * 1024
"""The largest data file read (the games' own are about 10 kB)."""
MAX_DATA_DEPTH: Final = 16
"""The deepest nesting of tables and arrays a data file may have (the games' own: 4)."""
MAX_DATA_INT: Final = 10**9
"""Integers beyond this are refused wherever they appear (no component number comes near)."""

Name = Annotated[str, Meta(min_length=1, max_length=200)]
"""A record's short text: an id, a clause ID, a field name, a hex or area reference."""
Note = Annotated[str, Meta(max_length=20_000)]
"""A record's free text (a note, a counter's printed name)."""


@attrs.frozen
class Provenance:
    """Where a record's values come from."""

    source: str
    provisional: tuple[str, ...] = ()
    note: str = ""

    @property
    def is_provisional(self) -> bool:
        return self.source == "provisional" or bool(self.provisional)


class Sourced(Record, frozen=True):
    """The provenance fields every data record carries: the clause ID that gives its values or
    "provisional", the fields the text does not give, and how they were chosen. Each game's
    record types extend it."""

    source: Name
    provisional: tuple[Name, ...] = ()
    note: Note = ""

    def provenance(self, where: str) -> Provenance:
        """The record's Provenance; provisional values without a note are refused."""
        if (self.source == "provisional" or self.provisional) and not self.note:
            raise DataError(
                f"{where}: provisional values need a 'note' saying how they were chosen",
                field=f"{where}.note",
            )
        return Provenance(self.source, self.provisional, self.note)


def decode_records(raw: dict[str, Any], type_: type[T], file: str) -> T:
    """A parsed data file decoded strictly into its record type (`kernel.wire.convert`):
    a missing or unknown field, a value of the wrong type or out of its bounds is a DataError
    naming the file and the record's path (`unit[3].ma`)."""
    try:
        return convert(raw, type_)
    except InvalidInput as exc:
        field, message = exc.field or "$", exc.message
        key = _AT_KEY.search(message)
        if key:  # a bad key of a table: msgspec says "- at `key` in `$.a.b`"
            problem = message[len(field) + 2 : key.start()]
            field = key.group("path").lstrip(".") or "$"
            message = f"{field}: a key of this table: {problem}"
        message = message.replace("`object`", "a table").replace("Object ", "Table ")
        raise DataError(f"{file}: {message}", field=field) from None


_AT_KEY = re.compile(r" - at `key` in `\$(?P<path>[^`]*)`$")


def read_provenance(record: dict[str, Any], where: str) -> Provenance:
    if not isinstance(record, dict):
        raise DataError(f"{where}: must be a table", field=where)
    source = record.get("source")
    if not isinstance(source, str) or not source:
        raise DataError(
            f"{where}: every record needs a 'source' (a clause ID or 'provisional')",
            field=f"{where}.source",
        )
    provisional = record.get("provisional", [])
    if not isinstance(provisional, list) or not all(isinstance(p, str) for p in provisional):
        raise DataError(
            f"{where}: 'provisional' must list field names", field=f"{where}.provisional"
        )
    note = record.get("note", "")
    if not isinstance(note, str):
        raise DataError(f"{where}: 'note' must be text", field=f"{where}.note")
    if (source == "provisional" or provisional) and not note:
        raise DataError(
            f"{where}: provisional values need a 'note' saying how they were chosen",
            field=f"{where}.note",
        )
    return Provenance(source, tuple(provisional), note)


def load_toml(path: Path) -> dict[str, Any]:
    """Read a TOML data file: at most MAX_DATA_BYTES of UTF-8, nesting at most MAX_DATA_DEPTH
    deep, numbers finite and within MAX_DATA_INT. Anything else is a DataError naming the file
    (and the value's path where there is one)."""
    name = path.name
    try:
        with path.open("rb") as fh:
            data = fh.read(MAX_DATA_BYTES + 1)
    except FileNotFoundError:
        raise DataError(f"data file not found: {name}", field=name) from None
    except OSError as exc:
        raise DataError(f"{name}: cannot read: {exc.strerror or exc}", field=name) from None
    if len(data) > MAX_DATA_BYTES:
        raise DataError(f"{name}: larger than {MAX_DATA_BYTES} bytes", field=name)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataError(f"{name}: not UTF-8 text (byte {exc.start})", field=name) from None
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{name}: {exc}", field=name) from None
    except RecursionError:
        raise DataError(f"{name}: nests deeper than {MAX_DATA_DEPTH} levels", field=name) from None
    except ValueError as exc:  # an integer literal too long for Python to convert
        raise DataError(f"{name}: a value is out of range ({exc})", field=name) from None
    _check_values(raw, "", 0, name)
    return raw


def _check_values(value: Any, path: str, depth: int, name: str) -> None:
    """Refuse nesting beyond MAX_DATA_DEPTH, NaN and infinities, and integers beyond
    MAX_DATA_INT, naming the value's path."""
    if depth > MAX_DATA_DEPTH:
        where = path or name
        raise DataError(f"{name}: {where} nests deeper than {MAX_DATA_DEPTH} levels", field=where)
    if isinstance(value, dict):
        for key, item in value.items():
            _check_values(item, f"{path}.{key}" if path else key, depth + 1, name)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _check_values(item, f"{path}[{i}]", depth + 1, name)
    elif isinstance(value, float) and not math.isfinite(value):
        raise DataError(f"{name}: {path}: {value} is not a finite number", field=path)
    elif isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_DATA_INT:
        raise DataError(f"{name}: {path}: integer out of range", field=path)


@attrs.frozen
class Fact:
    """One fact the rules text states about the components, checkable against the data."""

    clause: str
    statement: str
    check: Callable[[], str | None]  # returns None when the fact holds, else what is wrong


@attrs.frozen
class FactResult:
    clause: str
    statement: str
    ok: bool
    detail: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "clause": self.clause,
            "statement": self.statement,
            "ok": self.ok,
            "detail": self.detail,
        }


def check_facts(facts: Iterable[Fact]) -> list[FactResult]:
    """Run every fact check; a check that raises counts as failed with the error as detail."""
    results = []
    for fact in facts:
        try:
            problem = fact.check()
        except Exception as exc:  # a broken data file must be reported, not crash the check
            problem = f"{type(exc).__name__}: {exc}"
        results.append(FactResult(fact.clause, fact.statement, problem is None, problem or ""))
    return results
