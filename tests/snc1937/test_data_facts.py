"""The data check as a whole: every fact holds on the shipped data, each names a real clause,
and every clause the data files and modules cite is one a fact checks."""

from __future__ import annotations

import re
from pathlib import Path

from kernel.hexes import parse_hex
from tests.snc1937.datafiles import BOARD, DATA, results

ROOT = Path(__file__).resolve().parents[2]
INDEX = ROOT.parent / "shared" / "rules" / "snc1937.md"
ID = r"(?<![\w.-])(SNC-[A-Z0-9]+(?:\.[0-9]+)*)(?![\w-]|\.\d)"


def test_snc_every_fact_holds_on_the_shipped_data() -> None:
    """SNC-2.0.1, SNC-3.1.5, SNC-4.3.1, SNC-10.3.1.1 and every other fact: the shipped data,
    provisional values included, satisfies every fact the text states (181 facts); section 12's
    narrated facts hold too."""
    found = results()
    assert len(found) == 181
    assert [r for r in found if not r.ok] == []
    clauses = {r.clause for r in found}
    assert len([c for c in clauses if c.startswith("SNC-")]) == 102
    assert {c for c in clauses if not c.startswith("SNC-")} == {"§12 GT 1", "§12 GT 2", "§12 GT 3"}


def test_fact_clauses_are_clauses_of_the_index() -> None:
    """Every fact names a clause of the SNC clause index (or the section 12 example it comes
    from); where the shared index is present, each ID is one of its rows."""
    clauses = {r.clause for r in results() if not r.clause.startswith("§12 GT ")}
    assert all(re.fullmatch(r"SNC-\d+(\.\d+)+", c) for c in clauses), clauses
    if INDEX.exists():
        rows = set(re.findall(r"^\| (SNC-[\d.]+) \|", INDEX.read_text("utf-8"), flags=re.M))
        assert clauses <= rows, sorted(clauses - rows)


def test_every_clause_the_data_cites_is_checked() -> None:
    """The data layer of specs/snc1937 (its data files, DATA.md, and the modules that read and
    check them) cites only clauses that a fact checks, besides SNC-6.2.3, the division-equivalent
    table the set-up stacking fact (SNC-3.0.3) uses. The rules modules cite rules, not facts."""
    package = ROOT / "specs" / "snc1937"
    readers = ("loader.py", "records.py", "map_data.py", "counters.py", "setup_data.py")
    data_layer = [package / "data" / n for n in (*readers, "charts.py", "DATA.md")]
    data_layer += [package / "formal" / "facts.py"]
    data_layer += [package / "rules" / "board.py", *sorted((package / "data").glob("*.toml"))]
    cited: set[str] = set()
    for path in data_layer:
        cited |= set(re.findall(ID, path.read_text("utf-8")))
    checked = {r.clause for r in results()} | {"SNC-6.2.3"}
    assert cited - checked == set()


def test_snc_8_1_4_9_2_2_9_3_1_land_under_places() -> None:
    """SNC-8.1.4: elite units return in or next to Nanking 0202, so it and its neighbours are
    land; SNC-9.2.2: a city or town stands on one natural land terrain; SNC-9.3.1: the map uses
    clear, woods, marsh and rice paddy hexes and creek and river hexsides."""
    nanking = parse_hex("0202")
    assert BOARD.enterable(nanking) and BOARD.is_city(nanking)
    assert sum(BOARD.enterable(n) for n in BOARD.neighbors(nanking)) >= 3
    for h in list(DATA.map.cities) + list(DATA.map.towns):
        assert BOARD.terrain(h) in ("clear", "woods", "marsh", "paddy"), h
    assert {"clear", "woods", "marsh", "paddy"} <= set(DATA.map.terrain.values())
    assert {f.kind for f in DATA.map.sides.values()} >= {"creek", "river", "all_lake"}
    for clause in ("SNC-8.1.4", "SNC-9.2.2", "SNC-9.3.1"):
        assert all(r.ok for r in results() if r.clause == clause)
