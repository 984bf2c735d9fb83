"""Pictures a rules editor can read: a hex's number is drawn over any stack on it, the
legend explains the marks the picture uses, and the font stack asks for a Japanese face."""

from __future__ import annotations

from xml.etree import ElementTree

from kernel.scene import Cell, Edge, Piece, Scene
from tools.render import render_svg

SVG = "{http://www.w3.org/2000/svg}"


def _scene() -> Scene:
    return Scene(
        title="test",
        cells=(Cell("0101", 1, 1), Cell("0102", 1, 2, "hill", provisional=True)),
        edges=(Edge("0101", "0102", "river"),),
        pieces=(
            Piece("A", "0101", "JP", "歩兵", "4-3", "2"),
            Piece("B", "0101", "JP", "Tank", "6-4", "1", provisional=True),
        ),
        sides=(("JP", "#d9a441"),),
    )


def test_a_stack_never_hides_its_hex_number() -> None:
    root = ElementTree.fromstring(render_svg(_scene()))
    elements = list(root.iter())
    counter = max(i for i, e in enumerate(elements) if e.get("data-piece") in ("A", "B"))
    number = next(i for i, e in enumerate(elements) if e.tag == SVG + "text" and e.text == "0101")
    assert number > counter  # drawn later: on top


def test_the_legend_names_every_mark_the_picture_uses() -> None:
    svg = render_svg(_scene())
    texts = [e.text or "" for e in ElementTree.fromstring(svg).iter(SVG + "text")]
    assert "Legend" in texts
    for words in (
        "JP's counters",
        "counter: name, values, steps (lines 1-3)",
        "a dark badge: the number of counters in the stack",
        "hill hex",
        "river",
        "values given by the rules text",
        "values not in the rules text (provisional)",
        "hatched: terrain not in the rules text",
    ):
        assert words in texts, words
    assert "outlined: where the readings differ" not in texts  # no highlight in this scene


def test_the_font_stack_asks_for_a_japanese_face() -> None:
    root = ElementTree.fromstring(render_svg(_scene()))
    fonts = root.get("font-family") or ""
    assert "Noto Sans CJK JP" in fonts and fonts.endswith("sans-serif")
