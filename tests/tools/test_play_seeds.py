"""`wargame play` over many seeds: every game ends with a result naming its clause, or with an
explicit report that play cannot end or has no legal action; never with a crash."""

from __future__ import annotations

import re

import pytest

from tests.sizes import size
from tools.cli import commands as cli

SEEDS = range(size(100, 200))  # tests.sizes: 200 in make bench
REPORT = re.compile(
    r"^(result: (JP|SU|nobody) wins \((NOM-[\d.]+)\): .+"
    r"|play did not end within \d+ steps \((NOM-[\d.]+(, )?)+\).*"
    r"|gap: the side to move has no legal action although the game is not over \(.+\))$"
)


@pytest.mark.parametrize("preset", ["ja", "en"])
def test_seeded_games_end_with_a_clause(preset: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The game ends by sudden death (NOM-4.1, NOM-4.2), the end-of-turn die (NOM-5.4) or after
    Turn 8 (NOM-5.5, `ja` only); the log shows initiative changes (NOM-6.2), cancelled combats
    (NOM-6.3) and eliminations (NOM-9.24) as they happen."""
    clauses: set[str] = set()
    events: set[str] = set()
    for seed in SEEDS:
        code = cli.main(["play", "nomonhan", "--variant", preset, "--seed", str(seed)])
        out, err = capsys.readouterr()
        assert code == 0 and not err, (seed, err)
        lines = out.splitlines()
        assert lines[0].endswith(f"· variant {preset} · seed {seed}")
        match = REPORT.match(lines[-1])
        assert match, (seed, lines[-1])
        clauses.add(match.group(3) or "report")
        for line in lines:
            if line.startswith("  > "):
                events.update(re.findall(r"NOM-[\d.]+|eliminated|flipped|given its support", line))
    assert clauses <= {"NOM-4.1", "NOM-4.2", "NOM-5.4", "NOM-5.5", "report"}
    assert {"NOM-6.2", "NOM-6.3", "NOM-6.4", "NOM-5.2", "eliminated"} <= events
    assert "flipped" in events if preset == "ja" else "given its support" in events
