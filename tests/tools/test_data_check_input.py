"""`wargame data check GAME --file F` on hostile files: every one is refused with exit 2 and one
JSON error naming the file or the record's path (or exit 1 for facts that fail), never exit 70
and never an unbounded computation (issue 11: invalid UTF-8, a record that is not a table,
non-finite numbers, deep arrays, a 3000x3000 grid, huge integers, a huge file)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kernel.data import MAX_DATA_BYTES, MAX_DATA_DEPTH
from specs.nomonhan.data.loader import DATA_FILE as NOMONHAN_DATA
from specs.rattenkrieg.data.loader import DATA_FILE as RATTENKRIEG_DATA
from specs.rattenkrieg.data.loader import MAX_AREAS
from tools.cli import commands as cli

FILES = {"nomonhan": NOMONHAN_DATA, "rattenkrieg": RATTENKRIEG_DATA}
NOMONHAN_GRID = "columns = [1, 8]"
RK_STEPS = "panzer = 4"
UNIT_AND_STRING = (
    '[{ id = "JP-X", name = "X", side = "JP", type = "tank", printed = [1, 1], ma = 4, gt = 2, '
    'source = "NOM-3.1" }, "JP-Y"]'
)


def original(game: str) -> str:
    return FILES[game].read_text(encoding="utf-8")


def check(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, game: str, content: str | bytes
) -> tuple[int, dict[str, Any] | None]:
    """Run the check on a file with `content`: the exit code and the JSON error (if any)."""
    path = tmp_path / f"{game}.toml"
    if isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    else:
        path.write_bytes(content)
    code = cli.main(["data", "check", game, "--file", str(path), "--json"])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    if code == 2:
        obj = json.loads(err)
        assert obj["error"] == "data_error" and obj["message"] and obj["field"], obj
        return code, obj
    json.loads(out)
    return code, None


def refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, game: str, content: str | bytes
) -> dict[str, Any]:
    code, err = check(capsys, tmp_path, game, content)
    assert code == 2 and err is not None, code
    return err


def replaced(game: str, old: str, new: str) -> str:
    text = original(game)
    assert old in text
    return text.replace(old, new, 1)


@pytest.mark.parametrize("game", FILES)
def test_the_games_own_data_passes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, game: str
) -> None:
    assert check(capsys, tmp_path, game, original(game)) == (0, None)


@pytest.mark.parametrize("game", FILES)
def test_invalid_utf8_is_refused_naming_the_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, game: str
) -> None:
    err = refused(capsys, tmp_path, game, original(game).encode() + b"\n# \xff\xfe\n")
    assert err["field"] == f"{game}.toml" and "UTF-8" in err["message"]


@pytest.mark.parametrize("game", FILES)
def test_a_file_over_the_size_bound_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, game: str
) -> None:
    err = refused(capsys, tmp_path, game, original(game) + "#" + "x" * MAX_DATA_BYTES + "\n")
    assert err["field"] == f"{game}.toml" and str(MAX_DATA_BYTES) in err["message"]


@pytest.mark.parametrize(
    ("game", "key", "value", "field"),
    [
        ("nomonhan", "grid", "5", "grid"),
        ("nomonhan", "marker", "[1, 2]", "marker[0]"),
        ("nomonhan", "turn_track", '"8 boxes"', "turn_track"),
        ("nomonhan", "unit", UNIT_AND_STRING, "unit[1]"),
        ("rattenkrieg", "steps", "[4, 3]", "steps"),
        ("rattenkrieg", "area", '["orlovka"]', "area[0]"),
        ("rattenkrieg", "unit", "{}", "unit"),
    ],
)
def test_a_record_that_is_not_a_table_is_refused_with_its_path(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, game: str, key: str, value: str, field: str
) -> None:
    """The record is given as a top-level value; the file's own tables of that name are renamed
    out of the way, so the bad value is what the loader meets first."""
    text = original(game)
    for header in (f"[{key}]\n", f"[[{key}]]\n"):
        text = text.replace(header, header.replace(key, f"{key}_old"))
    format_line = text.index("format = ")
    text = text[:format_line] + f"{key} = {value}\n" + text[format_line:]
    err = refused(capsys, tmp_path, game, text)
    assert err["field"] == field, err


@pytest.mark.parametrize("value", ["-inf", "inf", "nan", "+nan", "1.5"])
@pytest.mark.parametrize("game", FILES)
def test_non_finite_and_fractional_numbers_are_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, game: str, value: str
) -> None:
    if game == "nomonhan":
        text, field = replaced(game, NOMONHAN_GRID, f"columns = [1, {value}]"), "grid.columns[1]"
    else:
        text, field = replaced(game, RK_STEPS, f"panzer = {value}"), "steps.panzer"
    assert refused(capsys, tmp_path, game, text)["field"] == field


@pytest.mark.parametrize("depth", [MAX_DATA_DEPTH, 300, 100_000])
@pytest.mark.parametrize("game", FILES)
def test_deeply_nested_inline_arrays_are_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, game: str, depth: int
) -> None:
    nested = "[" * depth + "]" * depth
    err = refused(capsys, tmp_path, game, f"deep = {nested}\n" + original(game))
    assert err["field"] in (f"{game}.toml", "deep") or err["field"].startswith("deep[")


@pytest.mark.parametrize("game", FILES)
def test_huge_integers_are_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, game: str
) -> None:
    for digits in (20, 4000, 5000):
        big = "9" * digits
        if game == "nomonhan":
            text = replaced(game, NOMONHAN_GRID, f"columns = [1, {big}]")
        else:
            text = replaced(game, RK_STEPS, f"panzer = {big}")
        refused(capsys, tmp_path, game, text)


def test_nom_2_4_a_3000_by_3000_grid_is_refused_at_load(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A map has at most one hex per four-digit number (NOM-2.4): a bigger grid is refused at
    once instead of being built hex by hex."""
    text = replaced("nomonhan", NOMONHAN_GRID, "columns = [1, 3000]")
    text = text.replace("rows = [1, 9]", "rows = [1, 3000]", 1)
    err = refused(capsys, tmp_path, "nomonhan", text)
    assert err["field"] == "grid" and "NOM-2.4" in err["message"]


def test_nom_2_4_a_grid_past_column_99_is_a_failed_fact(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Within the bound, hexes without a four-digit number are the fact's to report (exit 1)."""
    text = replaced("nomonhan", NOMONHAN_GRID, "columns = [1, 120]")
    code, _ = check(capsys, tmp_path, "nomonhan", text)
    assert code == 1


def test_rattenkrieg_more_areas_than_the_bound_are_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    extra = "".join(
        f'\n[[area]]\nid = "a{i}"\nname = "A{i}"\nkind = "normal"\nsource = "RKS-2.1.1"\n'
        for i in range(MAX_AREAS + 1)
    )
    assert refused(capsys, tmp_path, "rattenkrieg", original("rattenkrieg") + extra)["field"] == (
        "area"
    )


@pytest.mark.parametrize(
    ("game", "old", "new", "field"),
    [
        ("nomonhan", NOMONHAN_GRID, "columns = [true, 8]", "grid.columns[0]"),
        ("nomonhan", NOMONHAN_GRID, 'columns = ["1", 8]', "grid.columns[0]"),
        ("nomonhan", NOMONHAN_GRID, "columns = [1, 8, 9]", "grid.columns"),
        ("nomonhan", NOMONHAN_GRID, "columns = [1, 8]\ncolumn = 2", "grid.column"),
        (
            "nomonhan",
            'source = "NOM-8.3"',
            'source = "NOM-8.3"\nsourse = "x"',
            "terrain.hex[0].sourse",
        ),
        ("nomonhan", 'terrain = "hill"', 'terrain = "swamp"', "terrain.hex[0].terrain"),
        ("nomonhan", 'hex = "0805"', 'hex = "٠٨٠٥"', "flag[0].hex"),
        ("nomonhan", 'hex = "0805"', "hex = 805", "flag[0].hex"),
        ("nomonhan", "boxes = 8", "boxes = 8.0", "turn_track.boxes"),
        ("nomonhan", "end_roll = { 6 = [1, 2]", "end_roll = { x = [1, 2]", "turn_track.end_roll"),
        (
            "nomonhan",
            "end_roll = { 6 = [1, 2]",
            "end_roll = { 6 = [1, nan]",
            "turn_track.end_roll.6[1]",
        ),
        ("rattenkrieg", 'kind = "rear"', 'kind = "swamp"', "area[0].kind"),
        ("rattenkrieg", 'kind = "rear"', "kind = 1979-05-27", "area[0].kind"),
        ("rattenkrieg", "strength = 7", "strength = -inf", "unit[0].strength"),
        ("rattenkrieg", "strength = 7", "strength = false", "unit[0].strength"),
        ("rattenkrieg", 'setup = "german-rear"', 'setup = "nowhere"', "unit[0].setup"),
        ("rattenkrieg", 'source = "RKS-2.1.1"', "source = 3", "area[0].source"),
        ("rattenkrieg", 'source = "RKS-2.1.1"', 'source = ""', "area[0].source"),
        (
            "rattenkrieg",
            "pairs = [",
            'pairs = [["orlovka", "orlovka", "gumrak"],',
            "borders[0].pairs[0]",
        ),
        ("rattenkrieg", "pairs = [", 'pairs = [["orlovka", "nowhere"],', "borders[0].pairs[0]"),
        ("rattenkrieg", "pairs = [", 'pairs = [["orlovka", "orlovka"],', "borders[0].pairs[0]"),
    ],
)
def test_wrong_types_unknown_fields_and_bad_references_name_their_path(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, game: str, old: str, new: str, field: str
) -> None:
    err = refused(capsys, tmp_path, game, replaced(game, old, new))
    assert err["field"] == field, err
