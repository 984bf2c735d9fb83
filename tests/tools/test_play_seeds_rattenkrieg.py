"""`wargame play rattenkrieg` over many seeds: every game ends with a result naming its clause,
or with an explicit report that play cannot end or has no legal action; never with a crash."""

from __future__ import annotations

import re

import pytest

from tests.sizes import size
from tools.cli import commands as cli

SEEDS = range(size(100, 200))  # tests.sizes: 200 in make bench
REPORT = re.compile(
    r"^(result: (GE|SU) wins \((RKS-[\d.]+)\): .+"
    r"|play did not end within \d+ steps \((RKS-[\d.]+(, )?)+\).*"
    r"|gap: the side to move has no legal action although the game is not over \(.+\))$"
)


def test_seeded_games_end_with_a_clause(capsys: pytest.CaptureFixture[str]) -> None:
    """Every game ends at the end of Turn 6 (RKS-4.1.1); the logs show judgements (RKS-8.7.x),
    control changes (RKS-3.6.2), eliminations (RKS-8.9.2), isolation (RKS-8.10.1), events
    (RKS-9.x), the end of the Player Turn loop (RKS-5.1.2) and reinforcements (RKS-6.1.1)."""
    clauses: set[str] = set()
    seen: set[str] = set()
    winners: set[str] = set()
    for seed in SEEDS:
        code = cli.main(["play", "rattenkrieg", "--seed", str(seed)])
        out, err = capsys.readouterr()
        assert code == 0 and not err, (seed, err)
        lines = out.splitlines()
        assert lines[0].endswith(f"· variant standard · seed {seed}")
        match = REPORT.match(lines[-1])
        assert match, (seed, lines[-1])
        clauses.add(match.group(3) or "report")
        winners.add(match.group(2) or "")
        seen.update(re.findall(r"RKS-[\d.]+\d", out))
    assert clauses == {"RKS-4.1.1"}
    assert winners == {"GE", "SU"}
    wanted = {
        "RKS-8.7.1",
        "RKS-8.7.2",
        "RKS-8.7.3",
        "RKS-8.7.4",
        "RKS-8.7.5",
        "RKS-3.6.2",
        "RKS-8.9.2",
        "RKS-8.10.1",
        "RKS-5.1.2",
        "RKS-6.1.1",
        "RKS-9.2.1",
        "RKS-9.6.1",
        "RKS-9.8.1",
        "RKS-10.1.1",
        "RKS-10.3.1",
    }
    assert wanted <= seen, wanted - seen
