"""Loading is strict: a malformed data file is refused with a DataError naming the file, the
record and the field, never a traceback; a transcription replaces one file without code."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kernel.errors import DataError
from specs.snc1937.data.loader import DATA_DIR, PARTS, load_data
from specs.snc1937.formal.facts import data_facts
from tests.snc1937.datafiles import DATA, copy_data, edited


def _refused(directory: Path) -> DataError:
    with pytest.raises(DataError) as exc:
        load_data(directory)
    return exc.value


@pytest.mark.parametrize(
    ("file", "old", "new", "field", "words"),
    [
        # counters
        ("counters.toml", 'cf = 3\nreduced = 1', 'cf = "3"\nreduced = 1',
         "unit[0] (CH-G-WUSONG).cf", "expected an integer"),
        ("counters.toml", 'id = "CH-G-WUSONG"\n', 'id = "CH-G-WUSONG"\ncolour = "green"\n',
         "unit[0].colour", "unknown field"),
        ("counters.toml", 'side = "CH"', 'side = "CN"', "unit[0] (CH-G-WUSONG).side", "not one of"),
        ("counters.toml", 'size = "X"', 'size = "XXX"', "unit[0] (CH-G-WUSONG).size", "not one of"),
        ("counters.toml", 'id = "CH-G-BAOSHAN"', 'id = "CH-G-WUSONG"',
         "unit[1] (CH-G-WUSONG).id", "duplicate unit id"),
        ("counters.toml", 'side = "JP"\narm = "japanese"', 'side = "JP"\narm = "elite"',
         "unit[100] (JP-SNLF1).arm", "Japanese units"),
        ("counters.toml", 'source = "SNC-13.1"\n', 'source = "section 13"\n',
         "unit[0] (CH-G-WUSONG).source", "clause ID"),
        ("counters.toml", 'source = "SNC-13.1"\n', "",
         "unit[0] (CH-G-WUSONG).source", "needs a 'source'"),
        ("counters.toml", 'provisional = ["cf", "size", "reduced"]',
         'provisional = ["cf", "colour"]', "unit[0] (CH-G-WUSONG).provisional", "'colour'"),
        # setup
        ("setup.toml", 'hexes = ["3510"]', 'hexes = ["35100"]',
         "at_start[0] (SNC-13.1).hexes[0]", "four-digit"),
        ("setup.toml", 'hexes = ["3510"]', 'hexes = ["4410"]',
         "at_start[0] (SNC-13.1).hexes[0]", "not on the map grid"),
        ("setup.toml", 'units = ["CH-G-WUSONG"]', 'units = ["CH-G-WUSUNG"]',
         "at_start[0] (SNC-13.1).units[0]", "unknown unit"),
        ("setup.toml", 'units = ["CH-G-BAOSHAN"]', 'units = ["CH-G-WUSONG"]',
         "at_start[1] (SNC-13.2).units[0]", "already placed"),
        ("setup.toml", 'units = ["CH-45B"]', 'units = ["JP-SNLF1"]',
         "at_start[6] (SNC-13.7).units[0]", "not a CH unit"),
        ("setup.toml", 'CH-G-J = "3511"', 'CH-G-J = "3512"',
         "at_start[4] (SNC-13.5).place.CH-G-J", "not one of the line's hexes"),
        ("setup.toml", "gt = 2\n", 'gt = "2"\n', "reinforcement[0] (SNC-13.15).gt", "integer"),
        ("setup.toml", "gt = 2\n", "gt = 0\n", "reinforcement[0] (SNC-13.15).gt", "integer"),
        ("setup.toml", 'any_landing = true\nhistorical = "3417"', 'historical = "3417"',
         "reinforcement[15] (SNC-13.32).hexes", "either"),
        ("setup.toml", 'kind = "artillery"', 'kind = "rocket"', "marker[0].kind", "not one of"),
        # map
        ("map.toml", "rows = [1, 25]", "rows = [25, 1]", "grid.rows", "is after"),
        ("map.toml", '"YYYYYYYYYYYYYYYYYYYYYYYEEEEEEEEEEEEEEEEEEE",  # 01',
         '"YYYYYYYYYYYYYYYYYYYYYYYEEEEEEEEEEEEEEEEEEX",  # 01', "terrain.rows[0]", "legend"),
        ("map.toml", '"YYYYYYYYYYYYYYYYYYYYYYYEEEEEEEEEEEEEEEEEEE",  # 01',
         '"YYYYYYYYYYYYYYYYYYYYYYYEEEEEEEEEEEEEEEEEE",  # 01', "terrain.rows[0]", "42 characters"),
        ("map.toml", 'hexes = ["3512", "3511", "3510", "3509"]',
         'hexes = ["3512", "3510", "3509"]', "road[9].hexes[1]", "does not touch"),
        ("map.toml", 'arrow = "3003/3004"', 'arrow = "3003/3205"',
         "landing[0].arrow", "not adjacent"),
        ("map.toml", 'arrow = "3003/3004"', 'arrow = "3307/3308"',
         "landing[0].arrow", "not a side"),
        ("map.toml", 'kind = "creek"', 'kind = "canal"', "hexsides[3].kind", "not one of"),
        ("map.toml", 'sides = ["3609/3610", "3610/3710", "3610/3711"]',
         'sides = ["3609/3610", "3610/3710", "3610/3711", "3509/3609"]',
         "hexsides[1].sides[0]", "already has a feature"),
        ("map.toml", 'name = "Shanghai"\nsource', 'name = "Shanghai"\nneutral = "yes"\nsource',
         "city[4].neutral", "true or false"),
        # crt
        ("crt.toml", 'result = "0/4"', 'result = "0-4"', "errata[0].result", "attacker/defender"),
        ("crt.toml", 'face = 6', 'face = 7', "errata[0].face", "7"),
        ("crt.toml", 'odds = "6:1"', 'odds = "7:1"', "column[7] (7:1).odds", "not a column"),
        ("crt.toml", 'lowest = "1:3"', 'lowest = "1:4"', "table.lowest", "not one of the columns"),
        # tec
        ("tec.toml", 'mp = "1/2"', 'mp = "half"', "manmade[2].mp", "MP like"),
        ("tec.toml", 'feature = "woods"', 'feature = "jungle"', "defence[1].feature", "not one of"),
    ],
)  # fmt: skip
def test_snc_13_malformed_files_are_refused_naming_record_and_field(
    tmp_path: Path, file: str, old: str, new: str, field: str, words: str
) -> None:
    """SNC-13.1, SNC-13.2, SNC-13.5, SNC-13.7, SNC-13.15, SNC-13.32 and the map, CRT and TEC
    files: a value of the wrong type, an unknown field or id, a hex off the grid, a route
    that jumps, a unit placed twice, a provisional field that does not exist: each is a
    DataError naming the file, the record and the field."""
    error = _refused(edited(tmp_path, file, (old, new)))
    assert error.field == field, error.message
    assert words in error.message and error.message.startswith(file), error.message


@pytest.mark.parametrize(
    ("file", "text", "field"),
    [
        ("setup.toml", "format = 'x'", "format"),
        ("map.toml", 'format = "wargame-kernel/snc1937-map"\nversion = 2\n', "format"),
        ("crt.toml", "this is not toml", "crt.toml"),
        (
            "tec.toml",
            'format = "wargame-kernel/snc1937-tec"\nversion = 1\nextra = 1\n',
            "extra",
        ),
        (
            "counters.toml",
            'format = "wargame-kernel/snc1937-counters"\nversion = 1\n',
            "components",
        ),
        ("setup.toml", 'format = "wargame-kernel/snc1937-setup"\nversion = 1\nunit = 3\n', "unit"),
    ],
)
def test_snc_13_broken_files_are_refused(tmp_path: Path, file: str, text: str, field: str) -> None:
    """SNC-3.1.5: a file with the wrong format line, invalid TOML, an unknown top-level key or a
    missing table is a DataError naming the file or the key, never a traceback."""
    copy_data(tmp_path)
    (tmp_path / file).write_text(text, encoding="utf-8")
    error = _refused(tmp_path)
    assert error.field == field, error.message


def test_snc_13_a_missing_file_is_refused(tmp_path: Path) -> None:
    """SNC-3.1.5: the set-up file is required; without it loading is a DataError."""
    copy_data(tmp_path)
    (tmp_path / "setup.toml").unlink()
    assert _refused(tmp_path).field == "setup.toml"


def test_snc_13_no_deleted_line_gives_a_traceback(tmp_path: Path) -> None:
    """SNC-13.1 to SNC-13.33: deleting any one of a spread of lines from the set-up, CRT or TEC
    file either still loads or is refused with a DataError naming a field: never another
    exception."""
    for file in ("setup.toml", "crt.toml", "tec.toml"):
        lines = (DATA_DIR / file).read_text(encoding="utf-8").splitlines(keepends=True)
        for i in range(12, len(lines), max(1, len(lines) // 8)):
            copy_data(tmp_path)
            (tmp_path / file).write_text("".join(lines[:i] + lines[i + 1 :]), encoding="utf-8")
            try:
                load_data(tmp_path)
            except DataError as exc:
                assert exc.field, (file, i, exc.message)


def test_snc_3_1_5_a_transcription_replaces_one_file(tmp_path: Path) -> None:
    """SNC-3.1.5, SNC-10.3.1.1: a transcribed file is dropped in by its path, whatever its name;
    its `format` line says which part it replaces, the other parts stay, and the facts are
    checked against it. A second file for the same part, or a file of no part, is refused."""
    real_crt = tmp_path / "printed-crt.toml"
    text = (DATA_DIR / "crt.toml").read_text(encoding="utf-8")
    real_crt.write_text(text.replace('d1 = "3/0"', 'd1 = "2/0"', 1), encoding="utf-8")
    data = load_data(replace=[real_crt])
    assert data.crt.result("1:3", 1) == (2, 0) and data.units == DATA.units
    assert all(r.ok for r in data_facts(replace=[real_crt]))
    with pytest.raises(DataError) as exc:
        load_data(replace=[real_crt, real_crt])
    assert exc.value.field == "crt"
    stray = tmp_path / "notes.toml"
    stray.write_text('format = "something-else"\n', encoding="utf-8")
    with pytest.raises(DataError) as exc:
        load_data(replace=[stray])
    assert exc.value.field == "format"


def test_snc_3_1_5_every_part_is_a_separate_file() -> None:
    """SNC-3.1.5: the data is five files, map, counters, setup (section 13), crt and tec, each
    with its own format line, so the printed map and counters can be dropped in one at a
    time."""
    assert PARTS == ("map", "counters", "setup", "crt", "tec")
    for part in PARTS:
        head = (DATA_DIR / f"{part}.toml").read_text(encoding="utf-8")
        assert f'format = "wargame-kernel/snc1937-{part}"' in head


def test_every_provisional_record_has_a_note() -> None:
    """SNC-13.5, SNC-13.6: provisional values (the lettered garrisons' hexes, the map, the CRT
    body, the counters' CF) are listed with a note saying how each was chosen; the section 13
    lines themselves are not provisional except for those pairings."""
    provisional = DATA.provisional()
    assert provisional and all(p.note for _, p in provisional)
    setup = [name for name, _ in provisional if name.startswith("setup:")]
    assert setup == ["setup: at_start SNC-13.5", "setup: at_start SNC-13.6"]


def test_copy_data_is_a_full_copy(tmp_path: Path) -> None:
    """SNC-3.1.5: loading a verbatim copy of the data directory gives the same data."""
    copy_data(tmp_path)
    again = load_data(tmp_path)
    assert again.units == DATA.units and again.setup == DATA.setup
    shutil.rmtree(tmp_path)


def test_snc_2_0_1_a_single_data_file_replaces_its_part_through_the_game(tmp_path: Path) -> None:
    """`wargame data check snc1937 --file F`: one transcribed file replaces the part its format
    line names and the others stay; a changed CRT cell the text gives (SNC-0.0.4) is caught."""
    from specs.snc1937 import PACKAGE

    game = PACKAGE.assemble()
    crt = DATA_DIR / "crt.toml"
    assert all(r.ok for r in game.data_facts(crt))
    assert all(r.ok for r in game.data_facts(DATA_DIR))
    text = crt.read_text(encoding="utf-8")
    # the 5:1 / 6 cell as the errata box corrects it, to 0/4
    changed = text.replace('result = "0/4"', 'result = "1/4"', 1)
    assert changed != text
    path = tmp_path / "mine.toml"
    path.write_text(changed, encoding="utf-8")
    failed = {r.clause for r in game.data_facts(path) if not r.ok}
    assert "SNC-0.0.4" in failed
