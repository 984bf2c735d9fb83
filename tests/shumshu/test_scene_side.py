"""A side's picture (`scene(state, side=...)`, `wargame render --side`) shows only what that
side may see (SHU-COMBAT.5, SHU-COMBAT.6, SHU-SETUP.1, SHU-SETUP.2): the Russians' picture is
byte for byte the same whichever face-down Japanese piece is which; the Japanese, who see
everything, have theirs named. The picture without a side is the Russians'."""

from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path

import pytest

from kernel.playout import decision_positions
from specs.shumshu.rules.state import JP, RU, ShumshuState, Stage
from tests.shumshu.hidden import japanese_hidden, resample
from tests.shumshu.positions import CATALOGUE, GAME, OPTIONS, position
from tools.cli import commands as cli
from tools.render import render_svg

PRESETS = sorted(CATALOGUE.presets)


@cache
def _positions(preset: str, seed: int) -> tuple[ShumshuState, ...]:
    """Decision positions after the set-up, met at every other step of a seeded random
    playout of a preset (either side to move); from seed 2 on, with every option read at
    random (how decoys are found, whether the eliminated stay face down, ...)."""
    rng = random.Random(seed)
    choices = (
        {name: rng.choice(readings) for name, readings in OPTIONS.items()} if seed >= 2 else {}
    )
    start = GAME.initial_state(CATALOGUE.variant(preset, choices))

    def keep(i: int, s: ShumshuState) -> bool:
        return i % 2 == 0 and s.stage is not Stage.SETUP

    return tuple(decision_positions(GAME, start, rng, 700, keep))


def _picture(s: ShumshuState, side: str | None) -> str:
    assert GAME.scene is not None
    return render_svg(GAME.scene(s, side=side))


@pytest.mark.parametrize("preset", PRESETS)
def test_shu_combat_5_russian_picture_is_the_same_whichever_piece_is_face_down(
    preset: str,
) -> None:
    """SHU-COMBAT.5, SHU-COMBAT.6, SHU-SETUP.2, AMB-SHU-30: shuffling which face-down Japanese
    piece (decoys included) is which, on the map, on Paramushir and eliminated face down,
    leaves the Russians' picture byte for byte the same."""
    changed = 0
    for seed in range(4):
        rng = random.Random(f"{preset}/{seed}")
        for s in _positions(preset, seed):
            picture = _picture(s, RU)
            for _ in range(2):
                t = resample(s, rng)
                assert GAME.observe(t, RU) == GAME.observe(s, RU)  # what it cannot see only
                changed += t != s
                assert _picture(t, RU) == picture, (preset, seed, s.stage)
    assert changed  # the resampling did move hidden pieces


@pytest.mark.parametrize("preset", PRESETS)
def test_shu_combat_5_japanese_picture_names_their_face_down_pieces(preset: str) -> None:
    """SHU-COMBAT.5, SHU-SETUP.1, SHU-SETUP.2: the Japanese see everything: their picture names
    each face-down piece (marked face down), which the Russians' picture never names."""
    named = 0
    for s in _positions(preset, 0)[::4]:
        ru, jp = _picture(s, RU), _picture(s, JP)
        for unit in japanese_hidden(s):
            assert unit in jp, unit
            assert unit not in ru, unit
            named += 1
    assert named


def test_shu_combat_5_the_referee_picture_is_the_russian_view() -> None:
    """SHU-COMBAT.5: the picture without a side is drawn as the Russians see it: the same
    pieces as the Russians' picture (which only adds the line saying whose view it is)."""
    assert GAME.scene is not None
    for s in _positions(PRESETS[0], 1)[::5]:
        assert GAME.scene(s).pieces == GAME.scene(s, side=RU).pieces
        assert set(GAME.scene(s).panel) <= set(GAME.scene(s, side=RU).panel)


def test_shu_setup_1_a_set_up_piece_is_face_down_for_the_russians_only() -> None:
    """SHU-SETUP.1, SHU-COMBAT.5, AMB-SHU-30: the set-up battalion and decoy sharing a hex are
    one "?" counter of two for the Russians, two named counters marked face down for the
    Japanese."""
    s = position({"JP-IB1": "0602", "JP-DC1": "0602", "RU-1-138": "0801"})
    assert GAME.scene is not None
    ru = {p.label: p for p in GAME.scene(s, side=RU).pieces if p.where == "0602"}
    jp = {p.id: p for p in GAME.scene(s, side=JP).pieces if p.where == "0602"}
    assert set(ru) == {"?"} and ru["?"].values == "x2"
    assert set(jp) == {"JP-IB1", "JP-DC1"}
    assert all(p.note.startswith("face down") for p in jp.values())
    for uid in ("JP-IB4", "JP-IB5", "JP-TK2"):  # SHU-SETUP.2: on Paramushir, named for JP
        assert uid in _picture(s, JP) and uid not in _picture(s, RU)


@pytest.mark.parametrize("side", [RU, JP])
def test_shu_combat_5_cli_render_side_draws_the_side_picture(tmp_path: Path, side: str) -> None:
    """SHU-COMBAT.5: `wargame render shumshu STATE -o OUT --side S` writes S's picture."""
    s = next(s for s in _positions(PRESETS[0], 0) if japanese_hidden(s))
    path = tmp_path / "state.json"
    path.write_text(json.dumps(GAME.state_to_json(s)), encoding="utf-8")
    out = tmp_path / "out.svg"
    assert cli.main(["render", "shumshu", str(path), "-o", str(out), "--side", side]) == 0
    assert out.read_text(encoding="utf-8") == _picture(s, side)
