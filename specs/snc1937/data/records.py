"""Strict reading of the SNC data files' TOML records, shared by the readers of each part.

A `Record` refuses unknown fields and names the file, the record and the field in every error,
so a malformed file is a DataError, never a traceback; each record's provenance is read and its
clause ID checked.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, NoReturn

from kernel.data import Provenance, read_provenance
from kernel.errors import DataError, InvalidInput
from kernel.hexes import Hex, Hexside, parse_hex, parse_hexside

VERSION = 1
SIDES = ("CH", "JP")
_PROVENANCE = ("source", "provisional", "note")
_CLAUSE = re.compile(r"SNC-\d+(\.\d+)+")


class Record:
    """One TOML table being read: refuses unknown fields and names file, record and field in
    every error, so a malformed file is a DataError, never a traceback."""

    def __init__(
        self, file: str, raw: object, where: str, fields: Iterable[str], virtual: Iterable[str] = ()
    ) -> None:
        self.file, self.where = file, where
        if not isinstance(raw, dict):
            raise DataError(f"{file}: {where} must be a table", field=where)
        self.raw: dict[str, Any] = raw
        self.fields = set(fields)
        for key in raw:
            if key not in self.fields and key not in _PROVENANCE:
                self.fail(key, "unknown field")
        self.virtual = set(virtual)

    def fail(self, key: str, problem: str) -> NoReturn:
        raise DataError(f"{self.file}: {self.where}.{key}: {problem}", field=f"{self.where}.{key}")

    def has(self, key: str) -> bool:
        return key in self.raw

    def get(self, key: str) -> Any:
        if key not in self.raw:
            self.fail(key, "missing")
        return self.raw[key]

    def str_(self, key: str, choices: tuple[str, ...] | None = None) -> str:
        value = self.get(key)
        if not isinstance(value, str) or not value:
            self.fail(key, f"expected a non-empty string, got {value!r}")
        if choices is not None and value not in choices:
            self.fail(key, f"{value!r} is not one of {', '.join(choices)}")
        return value

    def opt_str(self, key: str) -> str | None:
        return self.str_(key) if self.has(key) else None

    def int_(self, key: str, low: int = 0, high: int = 10**6) -> int:
        value = self.get(key)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            self.fail(key, f"expected an integer from {low} to {high}, got {value!r}")
        return value

    def opt_int(self, key: str, low: int = 0, high: int = 10**6) -> int | None:
        return self.int_(key, low, high) if self.has(key) else None

    def bool_(self, key: str) -> bool:
        value = self.raw.get(key, False)
        if not isinstance(value, bool):
            self.fail(key, f"expected true or false, got {value!r}")
        return value

    def list_(self, key: str) -> list[Any]:
        value = self.get(key)
        if not isinstance(value, list):
            self.fail(key, f"expected a list, got {value!r}")
        return value

    def strs(self, key: str, choices: tuple[str, ...] | None = None) -> tuple[str, ...]:
        out = []
        for i, value in enumerate(self.list_(key)):
            if not isinstance(value, str) or not value:
                self.fail(f"{key}[{i}]", f"expected a non-empty string, got {value!r}")
            if choices is not None and value not in choices:
                self.fail(f"{key}[{i}]", f"{value!r} is not one of {', '.join(choices)}")
            out.append(value)
        return tuple(out)

    def hex_(self, key: str, grid: frozenset[Hex], text: object = None) -> Hex:
        value = self.get(key) if text is None else text
        try:
            h = parse_hex(value if isinstance(value, str) else "", field=key)
        except InvalidInput:
            self.fail(key, f"not a four-digit hex number: {value!r}")
        if h not in grid:
            self.fail(key, f"hex {value} is not on the map grid")
        return h

    def hexes(self, key: str, grid: frozenset[Hex]) -> tuple[Hex, ...]:
        return tuple(self.hex_(f"{key}[{i}]", grid, text) for i, text in enumerate(self.list_(key)))

    def hexside(self, key: str, grid: frozenset[Hex], text: object) -> Hexside:
        try:
            side = parse_hexside(text, field=key)  # type: ignore[arg-type]
        except InvalidInput as exc:
            self.fail(key, f"{exc.message} ({text!r})")
        if side.a not in grid or side.b not in grid:
            self.fail(key, f"hexside {text} is not on the map grid")
        return side

    def provenance(self) -> Provenance:
        try:
            prov = read_provenance(self.raw, self.where)
        except DataError as exc:
            raise DataError(f"{self.file}: {exc.message}", field=exc.field) from None
        if prov.source != "provisional" and not _CLAUSE.fullmatch(prov.source):
            self.fail(
                "source", f"expected a clause ID like 'SNC-13.1' or 'provisional': {prov.source!r}"
            )
        for name in prov.provisional:
            if name not in self.fields and name not in self.virtual:
                self.fail("provisional", f"names {name!r}, which is not a field of this record")
        return prov


def tables_of(file: str, raw: dict[str, Any], key: str) -> list[Any]:
    """The array of tables `[[key]]` (none when absent)."""
    value = raw.get(key, [])
    if not isinstance(value, list):
        raise DataError(f"{file}: {key} must be an array of tables ([[{key}]])", field=key)
    return value


def table_of(file: str, raw: dict[str, Any], key: str) -> Any:
    """The table `[key]`, which must be there."""
    if key not in raw:
        raise DataError(f"{file}: the [{key}] table is missing", field=key)
    return raw[key]


def check_format(file: str, raw: dict[str, Any], part: str, keys: Iterable[str]) -> None:
    """The file is the `part` file of this version, with no top-level key but `keys`."""
    if raw.get("format") != f"wargame-kernel/snc1937-{part}" or raw.get("version") != VERSION:
        raise DataError(
            f'{file}: expected format = "wargame-kernel/snc1937-{part}" and version = {VERSION}',
            field="format",
        )
    allowed = {"format", "version", *keys}
    for key in raw:
        if key not in allowed:
            raise DataError(f"{file}: unknown top-level key {key!r}", field=key)
