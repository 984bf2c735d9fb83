"""Copies of the SNC data files with edits, for tests that a wrong transcription is caught."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from kernel.data import FactResult, check_facts
from specs.snc1937.data.loader import DATA_DIR, SNCData, load_data
from specs.snc1937.formal.facts import facts
from specs.snc1937.rules.board import Board

DATA = load_data()
BOARD = Board(DATA)


def results(data: SNCData = DATA) -> list[FactResult]:
    return check_facts(facts(data))


def copy_data(tmp: Path) -> Path:
    for path in DATA_DIR.glob("*.toml"):
        shutil.copy(path, tmp / path.name)
    return tmp


def edited(tmp: Path, file: str, *edits: tuple[str, str]) -> Path:
    """A copy of the data directory with, in `file`, the first `old` of each edit replaced."""
    copy_data(tmp)
    path = tmp / file
    text = path.read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text, f"{old!r} is not in {file}"
        text = text.replace(old, new, 1)
    path.write_text(text, encoding="utf-8")
    return tmp


def without_record(tmp: Path, file: str, header: str, source: str) -> Path:
    """A copy of the data directory with the `[[header]]` record of `source` deleted."""
    copy_data(tmp)
    path = tmp / file
    text = path.read_text(encoding="utf-8")
    start = text.index(f'[[{header}]]\nsource = "{source}"')
    match = re.compile(r"\n(\[\[|# ---)").search(text, start + 1)
    end = match.start() + 1 if match else len(text)
    path.write_text(text[:start] + text[end:], encoding="utf-8")
    return tmp


def failed(directory: Path) -> set[str]:
    """The clauses of the facts that fail for the data in `directory`."""
    return {r.clause for r in results(load_data(directory)) if not r.ok}
