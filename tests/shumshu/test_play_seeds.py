"""`wargame play shumshu` over many seeds: every game ends with a result naming its clause,
never with a crash, a gap or a step limit (SHU-SEQ.2, SHU-WIN.1 to SHU-WIN.3)."""

from __future__ import annotations

import re

import pytest

from tests.sizes import size
from tools.cli import commands as cli

SEEDS = range(size(100, 200))  # tests.sizes: 200 in make bench
REPORT = re.compile(r"^result: (RU|JP) wins \((SHU-WIN\.[123])\): .+$")


def test_shu_seq_2_seeded_games_end_with_a_clause(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """SHU-SEQ.2: the game has a fixed length, so every game ends; SHU-WIN.1 to SHU-WIN.3:
    each result names its clause, and both sides win some."""
    clauses: set[str] = set()
    winners: set[str] = set()
    for seed in SEEDS:
        code = cli.main(["play", "shumshu", "--seed", str(seed), "--quiet"])
        out, err = capsys.readouterr()
        assert code == 0 and not err, (seed, err)
        match = REPORT.match(out.splitlines()[-1])
        assert match, (seed, out.splitlines()[-1])
        winners.add(match.group(1))
        clauses.add(match.group(2))
    assert winners == {"RU", "JP"}
    assert {"SHU-WIN.1", "SHU-WIN.3"} <= clauses
