"""RKS-8.6.1: the play log's judgement line names every card the raises replaced, the one the
last raise replaced included (`wargame play rattenkrieg --seed 1`), for the referee; a side's
log names only those it may see."""

from __future__ import annotations

import functools
import random
import re
from typing import Any

import pytest

from tools.cli import commands as cli
from tools.registry import get_game
from tools.service import logview
from tools.testing.histories import play_history, states

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


def _lost_list(line: str) -> set[str]:
    """The entries after "lost with the raises: " in a judgement line."""
    if "lost with the raises: " not in line:
        return set()
    return set(line.split("lost with the raises: ")[1].split(":")[0].split(", "))


def _decoded(states: dict[int, Any], ply: int, _doc: dict[str, Any]) -> Any:
    """The state after `ply` plies (a log's decode, from states already at hand)."""
    return states[ply]


GAME = get_game("rattenkrieg")


def _side_lines(seed: int, faces: str) -> list[tuple[str, str, list[str], list[str], Any, Any]]:
    """Each judgement that lost cards to raises in a seeded standard game under
    `discard_faces=faces`: who acted, the referee's events and that side's events, the combat
    before and the state after."""
    game = GAME
    v = game.catalogue.variant("standard", {"discard_faces": faces})
    h = play_history(game, v, random.Random(seed), 400)
    seq = states(game, h)
    out = []
    for k, a in enumerate(h.actions):
        before, after = seq[k], seq[k + 1]
        referee = game.events(before, a, after)
        if not any("lost with the raises" in e for e in referee):
            continue
        side = str(game.to_move(before))
        steps: list[tuple[dict[str, Any], dict[str, Any]]] = [
            ({}, {}),
            (game.action_to_json(a), {}),
        ]
        pick = {0: before, 1: after}
        (entry,) = logview.entries(game, steps, side, functools.partial(_decoded, pick))
        out.append((side, a, referee, entry["events"], before.combat, after))
    return out


@pytest.mark.parametrize("faces", ["revealed_only", "face_down"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_rks_8_6_1_a_side_reads_no_face_down_card_the_raises_replaced(
    seed: int, faces: str
) -> None:
    """RKS-8.6.1, RKS-8.7.1, `discard_faces=revealed_only` (the presets) or `face_down`: the
    referee's line names every card the raises replaced; the line of the side whose step ended
    the raising names its own, and counts the opponent's, which went face down unseen
    (RKS-8.4.1, RKS-8.5.2: played face down; only the two judged cards are revealed)."""
    found = 0
    for side, _a, referee, told, combat, after in _side_lines(seed, faces):
        (line,) = [e for e in referee if "lost with the raises" in e]
        (mine,) = [e for e in told if e.startswith("judgement")]
        lost = _lost_list(line)
        shown = _lost_list(mine)
        theirs = {
            p.card
            for p in (*combat.spent, combat.attack, combat.defence)
            if p is not None and p.side != side and not p.open and p.card in lost
        }
        assert not theirs & after.face_up  # the replaced cards lie face down
        for card in lost:
            assert (card in shown) == (card not in theirs), (line, mine)
        if theirs:
            assert f"{len(theirs)} face down" in shown
            found += 1
    assert found >= 1  # some judgement lost an opponent's card to the raises


@pytest.mark.parametrize("seed", [1, 2])
def test_rks_8_6_1_under_face_up_a_side_reads_the_whole_judgement_line(seed: int) -> None:
    """RKS-8.6.1, `discard_faces=face_up`: every card the raises replaced lies face up once
    discarded, so the side's judgement line is the referee's, every card named."""
    lines = _side_lines(seed, "face_up")
    assert lines
    for _side, _a, referee, told, _combat, _after in lines:
        (line,) = [e for e in referee if "lost with the raises" in e]
        assert line in told and "face down" not in line
