"""The report in a real headless browser: Chromium renders a generated report page (its
summary, a witness's account, picture and play log) to a PNG of the window's size that is not
blank. Skipped where Debian's chromium is not installed (`apt-get install chromium`)."""

from __future__ import annotations

import struct
import subprocess
import zlib
from pathlib import Path

import pytest

from solvers.checking.differences import Finding
from solvers.checking.explore import reading_variant
from solvers.checking.side_by_side import along
from tools.explore_report import write_report
from tools.registry import get_game

CHROMIUM = Path("/usr/bin/chromium")
WIDTH, HEIGHT = 1280, 2000

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason="no headless browser: /usr/bin/chromium is missing (apt-get install -y chromium)",
)


def _png(path: Path) -> tuple[int, int, list[bytes]]:
    """A PNG's width, height and filtered scanlines (8-bit RGB or RGBA, not interlaced)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, header = 8, b"", b""
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert depth == 8 and colour in (2, 6) and interlace == 0, header
    row = 1 + width * (3 if colour == 2 else 4)
    raw = zlib.decompress(idat)
    assert len(raw) == row * height
    return width, height, [raw[i : i + row] for i in range(0, len(raw), row)]


def _screenshot(page: Path, out: Path, profile: Path) -> None:
    subprocess.run(
        [
            str(CHROMIUM),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={profile}",
            f"--screenshot={out}",
            f"--window-size={WIDTH},{HEIGHT}",
            page.as_uri(),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )


def test_a_report_page_renders_in_a_headless_browser(tmp_path: Path) -> None:
    game = get_game("nomonhan")
    cat = game.catalogue
    va = reading_variant(cat, "ja", "combat_grouping", "many_to_many")
    vb = reading_variant(cat, "ja", "combat_grouping", "one_defender")
    log = [{"to": "0305", "type": "move", "unit": "JP-KOB"}, {"type": "end_phase"}]
    w = along(game, va, vb, [game.action_from_json(a) for a in log], "guided play")
    assert w is not None
    f = Finding(
        "combat_grouping",
        ("NOM-9.7",),
        None,
        "many_to_many",
        "one_defender",
        "ja",
        "differ",
        w,
        "",
        0,
    )
    index = write_report(game, tmp_path / "report", [f], [], [])
    out = tmp_path / "page.png"
    _screenshot(index, out, tmp_path / "profile")
    width, height, rows = _png(out)
    assert (width, height) == (WIDTH, HEIGHT)
    # A blank page filters to a handful of identical scanlines; text, tables and a map give
    # hundreds of different ones.
    assert len(set(rows)) > 300
