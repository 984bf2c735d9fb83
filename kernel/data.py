"""Data files with provenance, and the check that the rules text's facts hold against them.

Maps, counters and tables live in TOML under `specs/<game>/data/`. Every record says where its
values come from: `source` is a clause ID when the text gives them, and `provisional` lists
the fields the text does not give, with a `note` saying how they were chosen. A transcription
of the printed components is dropped in by replacing the file; `wargame data check GAME` then
proves that every fact the text states still holds.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import attrs

from kernel.errors import DataError


@attrs.frozen
class Provenance:
    """Where a record's values come from."""

    source: str
    provisional: tuple[str, ...] = ()
    note: str = ""

    @property
    def is_provisional(self) -> bool:
        return self.source == "provisional" or bool(self.provisional)


def read_provenance(record: dict[str, Any], where: str) -> Provenance:
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
    if (source == "provisional" or provisional) and not note:
        raise DataError(
            f"{where}: provisional values need a 'note' saying how they were chosen",
            field=f"{where}.note",
        )
    return Provenance(source, tuple(provisional), str(note))


def load_toml(path: Path) -> dict[str, Any]:
    """Read a TOML data file; syntax errors become DataError naming the file."""
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise DataError(f"data file not found: {path.name}", field=str(path.name)) from None
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{path.name}: {exc}", field=str(path.name)) from None


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
