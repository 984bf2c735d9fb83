"""The toy's data check: it has no data files, so no fact to check and nothing provisional."""

from __future__ import annotations

from pathlib import Path

from kernel.data import FactResult, Provenance


class ToyDataCheck:
    def __init__(self, rules: object) -> None:
        self.rules = rules

    def data_facts(self, data_file: Path | None = None) -> list[FactResult]:
        return []

    def provisional(self, data_file: Path | None = None) -> list[tuple[str, Provenance]]:
        return []
