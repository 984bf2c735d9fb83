"""The pictures of the report (issue 14, item 5): the turn track and the points, Rattenkrieg's
hands as counts with the deck's size (never a card's face), its witnesses' units counted,
provisional marking that tells what the text gives from what it does not, and arrows for the
moves of an endless loop."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import attrs

from kernel.playout import play
from kernel.roles import AssembledGame
from kernel.scene import Piece, Region, Scene
from solvers.checking.differences import units_on_map
from solvers.checking.gaps import Gap
from tests.toy import PACKAGE as TOY_PACKAGE
from tests.toy.doubles import WholeToy, assembled
from tests.toy.rules.state import ToyState
from tools.explore_report import write_report
from tools.registry import get_game
from tools.render import render_svg
from tools.render_marks import HIGHLIGHT

SVG = "{http://www.w3.org/2000/svg}"
NOMONHAN = get_game("nomonhan")
RATTENKRIEG = get_game("rattenkrieg")


def _scene(game: AssembledGame[Any, Any]) -> Callable[..., Scene]:
    """The game's picture (every registered game has one)."""
    assert game.scene is not None
    return game.scene


def _texts(svg: str) -> list[str]:
    return [e.text or "" for e in ElementTree.fromstring(svg).iter(SVG + "text")]


def _rattenkrieg_in_play() -> Any:
    """Rattenkrieg 45 steps into a seeded game: set up, cards in both hands."""
    start = RATTENKRIEG.initial_state(RATTENKRIEG.presets()["standard"])
    state = play(RATTENKRIEG, start, random.Random(1), max_steps=45).final
    assert state.hand_ge and state.hand_su
    return state


def test_the_turn_track_marks_the_turn_now_and_the_points_are_shown() -> None:
    state = NOMONHAN.initial_state(NOMONHAN.presets()["ja"])
    scene = _scene(NOMONHAN)(state)
    assert (scene.turn, scene.turns) == (1, 8)
    assert dict(scene.track_notes) == {6: "1-2?", 7: "1-3?"}  # the die faces are provisional
    root = ElementTree.fromstring(render_svg(scene))
    boxes = {e.get("data-turn"): e.get("fill") for e in root.iter() if e.get("data-turn")}
    assert set(boxes) == {str(t) for t in range(1, 9)}
    assert boxes["1"] == HIGHLIGHT and {boxes[str(t)] for t in range(2, 9)} == {"#fff"}
    points = NOMONHAN.state_to_json(state)["points"]
    assert f"Points: JP {points['JP']} · SU {points['SU']}" in scene.scores[0]
    assert any(t.startswith("Points: JP") for t in _texts(render_svg(scene)))


def test_rattenkrieg_hands_are_counts_with_the_deck_size_and_no_card_is_shown() -> None:
    state = _rattenkrieg_in_play()
    svg = render_svg(_scene(RATTENKRIEG)(state))
    texts = _texts(svg)
    hands = f"Hands: GE {len(state.hand_ge)} cards, SU {len(state.hand_su)} cards (faces hidden)"
    assert any(t.startswith(hands) and f"deck {len(state.deck)} cards" in t for t in texts)
    assert any(t.startswith("Victory (RKS-4.1.1): GE holds") for t in texts)
    words = set(re.findall(r"[\w-]+", " ".join(texts)))
    assert not words & (state.hand_ge | state.hand_su)  # no card in a hand is named
    scene = _scene(RATTENKRIEG)(state)
    assert (scene.turn, scene.turns) == (state.turn, 6)


def test_a_rattenkrieg_witness_counts_the_units_in_its_areas() -> None:
    """Units on an area map stand in an Area, not a hex: they count as on the map."""
    state = _rattenkrieg_in_play()
    data = RATTENKRIEG.state_to_json(state)
    placed = sum(1 for u in state.units if u.area is not None)
    assert placed > 0 and units_on_map(data) == placed
    nomonhan = NOMONHAN.state_to_json(NOMONHAN.initial_state(NOMONHAN.presets()["ja"]))
    assert units_on_map(nomonhan) == sum(1 for u in nomonhan["units"] if u["hex"])


def test_provisional_marks_what_the_text_does_not_give_not_everything() -> None:
    scene = _scene(NOMONHAN)(NOMONHAN.initial_state(NOMONHAN.presets()["ja"]))
    # the grid's extent and the default terrain are provisional map-wide: said once, in the
    # note, not drawn on every hex; the hills the text names are given
    assert not any(c.provisional for c in scene.cells)
    assert "grid (columns, rows)" in scene.provisional_note
    assert "terrain (default)" in scene.provisional_note
    edges = {(e.a, e.b): e.provisional for e in scene.edges if e.kind == "river"}
    assert edges[("0202", "0302")] is False  # NOM-7.5 gives this river hexside
    assert edges[("0203", "0303")] is True  # the rest of the course is drawn provisionally
    assert all(p.provisional for p in scene.pieces if p.label != "flag")  # printed values
    rks = _scene(RATTENKRIEG)(RATTENKRIEG.initial_state(RATTENKRIEG.presets()["standard"]))
    areas = {r.name: r.provisional for r in rks.regions}
    assert areas["Tractor Works"] is False and areas["German Rear"] is False  # named in the text
    assert areas["Orlovka"] is True
    texts = _texts(render_svg(rks))
    assert "dashed Area: its name is not in the rules text" in texts
    assert any(t.startswith("Provisional (not in the rules text): the area layout") for t in texts)


class _Shuttle(WholeToy):
    """The toy game with a picture: one piece stands west when A is to move and east when B
    is, so two passes are an endless loop of two moves."""

    def scene(self, state: ToyState) -> Scene:
        where = "west" if state.side == "A" else "east"
        return Scene(
            "shuttle",
            regions=(Region("west", "area", 0.0, 0.5), Region("east", "area", 1.0, 0.5)),
            links=(("west", "east"),),
            pieces=(Piece("p", where, "A", "p"),),
            sides=(("A", "#333"), ("B", "#c00")),
        )


def test_an_endless_loop_is_drawn_with_numbered_arrows_for_its_moves(tmp_path: Path) -> None:
    game = assembled(_Shuttle())
    passes = ({"type": "pass"}, {"type": "pass"})
    final = game.state_to_json(game.initial_state(game.presets()["plain"]))
    gap = Gap("endless", "plain", ("TOY-PASS",), "play can go on for ever", passes, final)
    write_report(game, tmp_path, [], [gap], [])
    root = ElementTree.parse(tmp_path / "gap-endless-plain-0.svg").getroot()
    arrows = {e.get("data-arrow"): e for e in root.iter() if e.get("data-arrow")}
    assert set(arrows) == {"1", "2"}
    titles = [e.findtext(SVG + "title") for e in arrows.values()]
    assert titles == ["1. p: Pass()", "2. p: Pass()"]
    texts = [e.text or "" for e in root.iter(SVG + "text")]
    assert "The loop: actions 1 to 2 repeat for ever" in texts
    assert "1. Pass() (1)" in texts and "2. Pass() (2)" in texts
    assert "numbered arrows: the moves of the loop, in order" in texts
    page = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert "<pre class='playlog'>total 0\nPass()\nPass()</pre>" in page


def test_a_picture_without_a_loop_has_no_arrows() -> None:
    scene = _Shuttle().scene(
        TOY_PACKAGE.assemble().initial_state(TOY_PACKAGE.assemble().presets()["plain"])
    )
    assert "data-arrow" not in render_svg(scene)
    moved = attrs.evolve(scene, arrows=(("west", "east", "p"),))
    assert 'data-arrow="1"' in render_svg(moved)


def test_a_witness_on_the_area_map_marks_the_areas_and_units_its_actions_name() -> None:
    """The actions cite Areas by their id ("german-rear"); the picture marks that Area."""
    state = RATTENKRIEG.initial_state(RATTENKRIEG.presets()["standard"])
    scene = _scene(RATTENKRIEG)(state).with_witness(frozenset({"german-rear", "14Pz"}), ())
    root = ElementTree.fromstring(render_svg(scene))
    areas = {e.get("data-area"): e.get("stroke") for e in root.iter() if e.get("data-area")}
    assert areas["German Rear"] == HIGHLIGHT and areas["Gumrak"] != HIGHLIGHT
    unit = next(e for e in root.iter() if e.get("data-piece") == "14Pz")
    assert unit.get("fill") == HIGHLIGHT and unit.get("font-weight") == "bold"
