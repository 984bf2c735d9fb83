"""RKS-8.6.1: the play log's judgement line names every card the raises replaced, the one the
last raise replaced included (`wargame play rattenkrieg --seed 1`)."""

from __future__ import annotations

import re

import pytest

from tools.cli import commands as cli

CARD = r"(?:10|[2-9JQKA])[SHDC]"
JUDGEMENT = re.compile(
    rf"judgement: .* shows ({CARD}) .* shows ({CARD}) .*?(?:; lost with the raises: ([^:]+))?:"
)


def test_rks_8_6_1_the_judgement_names_every_card_the_raises_replaced(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli.main(["play", "rattenkrieg", "--seed", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    checked = 0
    played: list[str] = []
    for line in lines:
        m = re.match(rf"^(GE|SU): (attack|defence|raise): ({CARD}) ", line)
        if m:
            if m.group(2) == "attack":
                played = []
            played.append(m.group(3))
            continue
        j = JUDGEMENT.search(line)
        if j and len(played) > 2:
            shown = {j.group(1), j.group(2)}
            lost = set((j.group(3) or "").split(", ")) - {""}
            assert lost == set(played) - shown, line
            checked += 1
    assert checked >= 2
