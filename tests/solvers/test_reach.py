"""Clause reach by the branch that applies a rule (`solvers.checking.reach`): a clause cited on an
`if` is reached only when its condition holds, a refusal's clause only when it is refused, a
docstring's never by running its function, a class docstring's not at all."""

from __future__ import annotations

import contextlib
import importlib
import sys
from pathlib import Path

import pytest

from solvers.checking import reach

SOURCE = '''
class Move:
    """A move (NOM-1.1): data, cites nothing that runs."""


def apply(x: int) -> int:
    """Applies a move (NOM-2.1, only here)."""
    if x > 100:  # NOM-3.1: never fires
        x = 100
    # NOM-3.2: the comment before a test speaks of its branch
    if x < 0:
        x = 0
    elif x == 5:  # NOM-3.3: fires
        x = 6
    else:  # NOM-3.4: fires
        x += 1
    if x == 50:
        raise ValueError("NOM-3.5: refused")
    # NOM-3.6: the statement after
    x += helper(x)
    return x


def helper(x: int) -> int:
    total = 0
    for _ in range(x):  # NOM-4.1 when the loop body runs
        total += 1
    return total


def dead() -> int:
    return 1  # NOM-5.1
'''


@pytest.fixture()
def rules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, object]:
    package = tmp_path / "reachgame"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "rules.py").write_text(SOURCE)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "reachgame", raising=False)
    monkeypatch.delitem(sys.modules, "reachgame.rules", raising=False)
    return package / "rules.py", importlib.import_module("reachgame.rules")


def test_a_clause_is_reached_by_its_branch_not_its_function(rules: tuple[Path, object]) -> None:
    path, module = rules
    sites = reach.sites_of([str(path)], ("NOM",))
    assert "NOM-1.1" not in sites.cited  # a class docstring describes data
    assert sites.docstring_only == {"NOM-2.1"}  # cited by no branch: listed, never reached
    ran = reach.lines_run([str(path)], lambda: [module.apply(x) for x in (5, 7)])  # type: ignore[attr-defined]
    got = reach.reached(sites, ran)
    assert got == {"NOM-3.3", "NOM-3.4", "NOM-3.6", "NOM-4.1"}
    # NOM-3.1's `if` and NOM-3.5's `raise` test ran; their branches did not fire
    assert not {"NOM-3.1", "NOM-3.2", "NOM-3.5", "NOM-5.1"} & got


def test_a_refusal_and_a_negative_branch_are_reached_when_they_fire(
    rules: tuple[Path, object],
) -> None:
    path, module = rules
    sites = reach.sites_of([str(path)], ("NOM",))

    def run() -> None:
        module.apply(-3)  # type: ignore[attr-defined]
        with contextlib.suppress(ValueError):
            module.apply(49)  # type: ignore[attr-defined]

    got = reach.reached(sites, reach.lines_run([str(path)], run))
    assert {"NOM-3.2", "NOM-3.5"} <= got
    assert "NOM-3.1" not in got
    assert "NOM-3.3" not in got


def test_a_table_at_module_level_is_no_site(tmp_path: Path) -> None:
    """A constant or table that cites a clause runs once, at import: it describes the rule
    and reaches nothing; the function that uses it is where the rule takes effect."""
    path = tmp_path / "table.py"
    path.write_text(
        "RANGE = 3  # NOM-9.21\n\n\ndef in_range(d: int) -> bool:\n"
        "    return d <= RANGE  # NOM-9.17\n"
    )
    sites = reach.sites_of([str(path)], ("NOM",))
    assert sites.cited == {"NOM-9.17"}


def test_a_warm_cache_is_emptied_before_a_measured_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A site inside a cached function: play before the measured run filled the cache, so the
    run reads it and the site would look unreached; `clear_caches` empties it first."""
    path = tmp_path / "cachedgame.py"
    path.write_text(
        "import functools\n\n\n@functools.cache\ndef zoc(x: int) -> int:\n"
        "    return x + 1  # NOM-7.1\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "cachedgame", raising=False)
    module = importlib.import_module("cachedgame")
    sites = reach.sites_of([str(path)], ("NOM",))
    module.zoc(1)  # earlier play
    assert reach.reached(sites, reach.lines_run([str(path)], lambda: module.zoc(1))) == set()
    assert reach.clear_caches([module]) == 1
    assert reach.reached(sites, reach.lines_run([str(path)], lambda: module.zoc(1))) == {"NOM-7.1"}
