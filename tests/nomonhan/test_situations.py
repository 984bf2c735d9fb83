"""Nomonhan's situations (`specs.nomonhan.formal.situations`): each distance is 0 where its
option's readings part, play steered by it reaches 0 from a corpus, and there the explorer,
on counts alone (`budget=None`, no corpus comparison, no call-graph steering, no guided game),
finds the pair `differ` with a witness that replays from the set-up; built positions check a
distance against the rules."""

from __future__ import annotations

from typing import Any

import pytest

from kernel.hexes import hex_distance, parse_hex
from solvers.checking.corpus import build_corpus
from solvers.checking.situations import reading_situations, toward
from specs.nomonhan.rules.actions import Demolish
from specs.nomonhan.rules.state import NomonhanState
from tests.nomonhan.helpers_seq import BOARD
from tests.nomonhan.positions import GAME, JP_3TK, JP_4TK, JP_KOB, SU_ART, legal, position
from tools.testing.witnesses import assert_witness_holds, situation_only

CAT = GAME.catalogue
PRESET = "ja"
CORPUS = build_corpus(GAME, seeds=8, max_steps=3_000)
NODES = 1_000
"""Positions steered play may evaluate in these tests (the explorer's own share is less)."""

REACHED = ("hill_defenders", "demolition")
"""Options whose situation play steered by the distance reaches within `NODES`."""


def _readings(option: str) -> tuple[str, str]:
    """The preset's reading of `option` and the first other one."""
    mine = CAT.preset(PRESET).reading(option)
    other = next(r.name for r in CAT.option(option).readings if r.name != mine)
    return mine, other


def test_every_situation_is_an_option_of_the_catalogue() -> None:
    """The hook offers distances for options of the game only, and none for an option the
    game proves moot (`formal.moot_readings`)."""
    offered = set(reading_situations(GAME))
    assert offered <= {o.name for o in CAT.options}
    assert not offered & {"artillery_self_support", "demolition_effect", "disturbed_combats"}
    assert set(REACHED) <= offered


@pytest.mark.parametrize("option", REACHED)
def test_steered_play_reaches_the_situation(option: str) -> None:
    """The distance reaches 0 from the corpus positions within `NODES` positions, and the
    actions the search gives lead there from the set-up."""
    s = toward(GAME, CORPUS, PRESET, reading_situations(GAME)[option], nodes=NODES)
    assert s.reached and s.best == 0
    here = s.reached[0]
    state = GAME.initial_state(CAT.preset(PRESET))
    for action in here.actions:
        state = GAME.apply(state, action)
    assert state == here.state


@pytest.mark.parametrize("option", REACHED)
def test_the_explorer_finds_the_pair_differ_at_the_situation(option: str) -> None:
    """With counts only and every other search off, the pair differs thanks to the
    situation, and its witness replays from the set-up under both readings."""
    ra, rb = _readings(option)
    f = situation_only(GAME, option, CORPUS, NODES, (ra, rb))
    assert f.verdict == "differ", f.detail
    assert f.witness is not None
    assert_witness_holds(GAME, f)


def _at_bridge(steps: dict[str, int], **kw: Any) -> NomonhanState:
    """Kobayashi at the east end of the pontoon (0308) at the start of the Japanese Movement
    Phase, under the ja preset (demolition=off)."""
    units = {JP_KOB: "0308", JP_3TK: "0807", JP_4TK: "0809", SU_ART: "0103"}
    return position(units, steps=steps, **kw)


def test_nom_opt_2_demolition_is_0_with_a_reduced_unit_at_the_bridge() -> None:
    """NOM-OPT.2 to NOM-OPT.4: with a Japanese unit reduced and one on the pontoon at the
    start of their Movement Phase the distance is 0, and the demolition is legal under
    optional_ja only; with every unit at full strength it is 1 and legal under neither."""
    d = reading_situations(GAME)["demolition"]
    reduced = _at_bridge({JP_KOB: 1})
    assert d(reduced) == 0
    assert Demolish() not in legal(reduced)
    assert Demolish() in legal(_at_bridge({JP_KOB: 1}, options={"demolition": "optional_ja"}))
    full = _at_bridge({})
    assert d(full) == 1
    assert Demolish() not in legal(_at_bridge({}, options={"demolition": "optional_ja"}))


def test_nom_opt_4_demolition_counts_the_hexes_to_the_bridge() -> None:
    """NOM-OPT.4: a reduced Kobayashi two hexes from the pontoon is 2 away from it."""
    d = reading_situations(GAME)["demolition"]
    away = position(
        {JP_KOB: "0508", JP_3TK: "0807", JP_4TK: "0809", SU_ART: "0103"}, steps={JP_KOB: 1}
    )
    pontoon = BOARD.map.pontoon
    assert pontoon is not None
    far = min(hex_distance(parse_hex("0508"), e) for e in (pontoon.a, pontoon.b))
    assert d(away) == far > 0
