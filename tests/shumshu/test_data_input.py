"""`wargame data check shumshu --file F` on malformed files: every one is refused with exit 2 and
one JSON error naming the path of the bad value (`unit[11]`, `naval.capabilities`), never an
internal error and never an error without a `field`. The loader decodes the file strictly
(`specs.shumshu.data.loader.DataFileRecord`, through `kernel.data.decode_records`) before using
it."""

from __future__ import annotations

import copy
import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from kernel.data import MAX_DATA_BYTES
from specs.shumshu.data.loader import DATA_FILE, MAX_HEXES, MAX_UNITS, load_data
from tools.cli import commands as cli
from tools.testing.fuzz_inputs import toml_text

ORIGINAL = DATA_FILE.read_text(encoding="utf-8")


def check(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: str | bytes
) -> tuple[int, dict[str, Any] | None]:
    """Run the check on a file with `content`: the exit code and the JSON error (if any)."""
    path = tmp_path / "shumshu.toml"
    if isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    else:
        path.write_bytes(content)
    code = cli.main(["data", "check", "shumshu", "--file", str(path), "--json"])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    assert code in (0, 1, 2), (code, err)
    if code == 2:
        obj = json.loads(err)
        assert obj["error"] == "data_error" and obj["message"] and obj["field"], obj
        assert "KeyError" not in obj["message"] and "TypeError" not in obj["message"], obj
        return code, obj
    json.loads(out)
    return code, None


def refused(capsys: pytest.CaptureFixture[str], tmp_path: Path, content: str | bytes) -> str:
    """The `field` of the refusal of a file with `content`."""
    code, err = check(capsys, tmp_path, content)
    assert code == 2 and err is not None, code
    return str(err["field"])


def replaced(old: str, new: str) -> str:
    assert old in ORIGINAL
    return ORIGINAL.replace(old, new, 1)


def document() -> dict[str, Any]:
    return copy.deepcopy(tomllib.loads(ORIGINAL))


def test_the_shipped_file_passes_every_fact(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert check(capsys, tmp_path, ORIGINAL) == (0, None)
    assert check(capsys, tmp_path, toml_text(document())) == (0, None)
    data = load_data()
    assert len(data.units) == 20 and len(data.island) == 25 and data.capabilities == 3


@pytest.mark.parametrize("size", [0, 20, 60, 120, 833, 1500, 2000, 4000, 6000, 8000, 10_000])
def test_a_truncated_file_is_refused_with_a_field_or_fails_a_fact(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, size: int
) -> None:
    """Cut anywhere, the file is refused naming a field (or, cut between counters, loads and
    fails the facts about the missing ones): never an internal error."""
    code, _ = check(capsys, tmp_path, ORIGINAL.encode()[:size])
    assert code in (1, 2)


def test_a_file_truncated_to_833_bytes_names_the_missing_record(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert refused(capsys, tmp_path, ORIGINAL.encode()[:833]) == "island"


@pytest.mark.parametrize("value", [1.5, 3, "RU-1-138", True, [1, 2]])
@pytest.mark.parametrize(("key", "index"), [("unit", 11), ("unit", 0), ("terrain", 1)])
def test_a_record_replaced_by_a_value_is_refused_with_its_path(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, key: str, index: int, value: Any
) -> None:
    doc = document()
    doc[key][index] = value
    assert refused(capsys, tmp_path, toml_text(doc)) == f"{key}[{index}]"


@pytest.mark.parametrize(
    "key", ["island", "coast", "hex33", "victory", "ranges", "naval", "airpower", "crt"]
)
def test_a_table_replaced_by_a_number_is_refused_with_its_name(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, key: str
) -> None:
    doc = document()
    doc[key] = 1.5
    assert refused(capsys, tmp_path, toml_text(doc)) == key


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        ("capabilities = 3", "capabilities = 3\ncapability = 2", "naval.capability"),
        ('name = "Shumshu"', 'name = "Shumshu"\nisland = 1', "island.island"),
        ('setup = "shumshu"', 'setup = "shumshu"\nma = 4', "unit[0].ma"),
        ('source = "SHU-CRT.2"', 'source = "SHU-CRT.2"\nsourse = "x"', "crt.sourse"),
        ("format = ", "extra = 1\nformat = ", "extra"),
    ],
)
def test_an_unknown_field_is_refused_with_its_path(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, old: str, new: str, field: str
) -> None:
    assert refused(capsys, tmp_path, replaced(old, new)) == field


@pytest.mark.parametrize(
    ("path", "field"),
    [
        (("unit", 11, "attack"), "unit[11].attack"),
        (("unit", 0, "id"), "unit[0].id"),
        (("unit", 3, "side"), "unit[3].side"),
        (("naval", "capabilities"), "naval.capabilities"),
        (("victory", "two_star"), "victory.two_star"),
        (("crt", "rows"), "crt.rows"),
        (("airpower", "start"), "airpower.start"),
        (("unit", 5, "source"), "unit[5].source"),
        (("island",), "island"),
        (("format",), "format"),
    ],
)
def test_a_missing_field_is_refused_with_its_path(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, path: tuple[Any, ...], field: str
) -> None:
    doc = document()
    parent = doc
    for step in path[:-1]:
        parent = parent[step]
    del parent[path[-1]]
    assert refused(capsys, tmp_path, toml_text(doc)) == field


@pytest.mark.parametrize("value", ["inf", "-inf", "nan", "+nan", "1.5", "true", '"3"', "99"])
def test_non_finite_fractional_and_wrong_typed_numbers_are_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, value: str
) -> None:
    text = replaced("capabilities = 3", f"capabilities = {value}")
    assert refused(capsys, tmp_path, text) == "naval.capabilities"


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        ("attack = 2\n", "attack = inf\n", "unit[0].attack"),
        ("defence = 3\n", "defence = nan\n", "unit[0].defence"),
        ("attack = 2\n", "attack = 100\n", "unit[0].attack"),
        ("attack = 2\n", "attack = -1\n", "unit[0].attack"),
        ("attack = 2\n", f"attack = {10**30}\n", "unit[0].attack"),
        ("left = [6, 5,", "left = [nan, 5,", "crt.left[0]"),
        ("left = [6, 5,", "left = [7, 5,", "crt.left[0]"),
        ("from_turn = 3", "from_turn = 0", "unit[17].from_turn"),
    ],
)
def test_numbers_out_of_bounds_are_refused_with_their_path(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, old: str, new: str, field: str
) -> None:
    assert refused(capsys, tmp_path, replaced(old, new)) == field


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        ('hex = "0303"', 'hex = "٠٣٠٣"', "hex33.hex"),
        ('hex = "0303"', 'hex = "０３０３"', "hex33.hex"),
        ('hex = "0303"', 'hex = "0303\\n"', "hex33.hex"),
        ('hex = "0303"', "hex = 303", "hex33.hex"),
        ('hex = "0303"', 'hex = "0101"', "hex33.hex"),
        ('one_star = "0603"', 'one_star = "06 3"', "victory.one_star"),
        ('"0204", "0205",\n', '"0204", "٠٢٠٥",\n', "island.hexes[1]"),
        ('"0503/0603"', '"٠٥٠٣/0603"', "river[0].hexsides[0]"),
        ('"0503/0603"', '"0503/0703"', "river[0].hexsides[0]"),
        ('"0503/0603"', '"0503/0603/0604"', "river[0].hexsides[0]"),
        ('hexes = ["0303", "0304", "0403"', 'hexes = ["0303", "0305", "0403"', "road[0].hexes[1]"),
        ('id = "JP-IB1"', 'id = "JP-ІB1"', "unit[0].id"),  # a Cyrillic I
        ('id = "JP-IB1"', 'id = ""', "unit[0].id"),
        ('id = "JP-IB2"', 'id = "JP-IB1"', "unit[1].id"),
        ('regiment = "RU-138"', 'regiment = "RU-999"', "unit[9].regiment"),
        ('side = "JP"', 'side = "US"', "unit[0].side"),
        ('type = "decoy"', 'type = "cavalry"', "unit[4].type"),
        ('setup = "shumshu"', 'setup = "kamchatka"', "unit[0].setup"),
        ('kind = "swamp"', 'kind = "forest"', "terrain[1].kind"),
        ('["D", "DR", "DR", "DR", "DR", "DE", "DE"]', '["D", "DR"]', "crt.rows[0]"),
        ('["D", "DR", "DR", "DR", "DR", "DE", "DE"]', "[1, 2]", "crt.rows[0][0]"),
        (
            '"AE", "AE", "AE", "AD", "AD", "D", "DW"]',
            '"X", "AE", "AE", "AD", "AD", "D", "DW"]',
            None,
        ),
        ('source = "SHU-CRT.2"', 'source = ""', "crt.source"),
        ('source = "SHU-LAND.3"', 'source = "provisional"', "naval.note"),
    ],
)
def test_bad_values_are_refused_with_their_path(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, old: str, new: str, field: str | None
) -> None:
    got = refused(capsys, tmp_path, replaced(old, new))
    assert got == field or (field is None and got.startswith("crt.rows[5][0]")), got


def test_a_huge_map_is_refused_at_load(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """An island listing more hexes than there are four-digit hex numbers is refused at once."""
    hexes = ", ".join(f'"{i % 10_000:04d}"' for i in range(MAX_HEXES + 1))
    text = replaced('hexes = [\n  "0204", "0205",', f'hexes = [{hexes},\n  "0204", "0205",')
    assert refused(capsys, tmp_path, text) == "island.hexes"


def test_a_full_four_digit_map_loads_in_bounded_time(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Every four-digit hex on the island, coast and ranges is within bounds: the facts are
    checked (and some fail) rather than the file refused."""
    doc = document()
    every = [f"{c:02d}{r:02d}" for c in range(100) for r in range(100)]
    doc["island"]["hexes"] = every
    doc["coast"]["hexes"] = every
    doc["ranges"]["red"] = every
    code, _ = check(capsys, tmp_path, toml_text(doc))
    assert code == 1


def test_too_many_units_are_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    doc = document()
    unit = doc["unit"][0]
    doc["unit"] = [{**unit, "id": f"JP-X{i}"} for i in range(MAX_UNITS + 1)]
    assert refused(capsys, tmp_path, toml_text(doc)) == "unit"


def test_a_file_over_the_size_bound_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert refused(capsys, tmp_path, ORIGINAL + "#" + "x" * MAX_DATA_BYTES + "\n") == (
        "shumshu.toml"
    )


def test_invalid_utf8_and_deep_nesting_are_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert refused(capsys, tmp_path, ORIGINAL.encode() + b"\n# \xff\n") == "shumshu.toml"
    field = refused(capsys, tmp_path, "deep = " + "[" * 300 + "]" * 300 + "\n" + ORIGINAL)
    assert field == "shumshu.toml" or field.startswith("deep")
