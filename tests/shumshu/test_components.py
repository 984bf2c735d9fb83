"""The components against the text: the CRT cell by cell and its two die readings, the set-up
counters, hex 33, the star hexes, the ranges (SHU-CRT.2, SHU-CRT.9, SHU-CRT.1, SHU-COMBAT.7,
SHU-SETUP.1 to SHU-SETUP.3, SHU-LAND.3, SHU-REINF.2, SHU-WIN.1, SHU-LAND.5, SHU-LAND.6)."""

from __future__ import annotations

from pathlib import Path

import pytest

from specs.shumshu.data.loader import DATA_FILE, load_data
from specs.shumshu.formal.facts import TEXT_CRT, TEXT_LEFT, TEXT_RIGHT
from tests.shumshu.positions import GAME, B
from tools.cli import commands as cli


def test_shu_crt_2_the_data_table_is_the_printed_table() -> None:
    """SHU-CRT.2, SHU-CRT.9: the shipped table equals the text's, cell by cell, with the left
    die numbers 6 to 1 and the right ones 1 to 6."""
    assert B.data.crt.rows == TEXT_CRT
    assert (B.data.crt.left, B.data.crt.right) == (TEXT_LEFT, TEXT_RIGHT)
    assert all(f.ok for f in GAME.data_facts()), [f for f in GAME.data_facts() if not f.ok]


def _variant_file(tmp_path: Path, old: str, new: str) -> Path:
    text = DATA_FILE.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "shumshu.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def _failed(path: Path) -> set[str]:
    return {f.clause for f in GAME.data_facts(path) if not f.ok}


def test_shu_crt_2_one_changed_cell_is_caught(tmp_path: Path) -> None:
    """SHU-CRT.2: a single cell changed (4:1 on the top row, DE to DR) fails the check."""
    path = _variant_file(
        tmp_path,
        '["D", "DR", "DR", "DR", "DR", "DE", "DE"]',
        '["D", "DR", "DR", "DR", "DR", "DE", "DR"]',
    )
    assert "SHU-CRT.2" in _failed(path)


def test_shu_crt_9_swapped_die_readings_are_caught(tmp_path: Path) -> None:
    """SHU-CRT.9: the row labels must read 6-1 on the left and 1-6 on the right."""
    path = _variant_file(tmp_path, "left = [6, 5, 4, 3, 2, 1]", "left = [1, 2, 3, 4, 5, 6]")
    assert "SHU-CRT.9" in _failed(path)


def test_shu_setup_1_the_set_up_counters_are_checked(tmp_path: Path) -> None:
    """SHU-SETUP.1: 3 infantry battalions, 1 tank battalion and 2 decoys set up on Shumshu."""
    assert {f.clause for f in GAME.data_facts() if f.ok} >= {
        "SHU-SETUP.1",
        "SHU-SETUP.2",
        "SHU-SETUP.3",
    }
    path = _variant_file(tmp_path, 'type = "decoy"', 'type = "infantry"')
    assert "SHU-SETUP.1" in _failed(path)


def test_shu_land_3_three_capabilities_and_the_map_facts(tmp_path: Path) -> None:
    """SHU-LAND.3, SHU-REINF.2, SHU-WIN.1, SHU-LAND.5: three capabilities, hex 33 on the map,
    two star hexes, a landing possible outside the red range."""
    assert load_data().capabilities == 3
    assert "SHU-LAND.3" in _failed(_variant_file(tmp_path, "capabilities = 3", "capabilities = 2"))


def test_shu_crt_1_data_check_command(capsys: pytest.CaptureFixture[str]) -> None:
    """SHU-CRT.1: `wargame data check shumshu` proves every fact and lists the provisional
    records."""
    assert cli.main(["data", "check", "shumshu"]) == 0
    out = capsys.readouterr().out
    assert "23 of 23 facts hold" in out and "provisional records" in out
