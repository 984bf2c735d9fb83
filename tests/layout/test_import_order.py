"""Every rules module imports on its own, whichever a user imports first.

Two modules that import names from each other work or fail depending on which one Python meets
first; a test run meets them in one order only. `specs.snc1937.rules.reinforcement_steps`,
imported first, failed this way (through `combat_choices` and `sequence`)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from tests.layout.imports import ROOT

_EACH_FIRST = textwrap.dedent(
    """
    import importlib, pathlib, sys
    root, pattern = pathlib.Path(sys.argv[1]), sys.argv[2]
    sys.path.insert(0, str(root))
    before = set(sys.modules)
    for path in sorted(root.glob(pattern)):
        name = ".".join(path.relative_to(root).with_suffix("").parts)
        for loaded in set(sys.modules) - before:  # a fresh start for each module
            del sys.modules[loaded]
        try:
            importlib.import_module(name)
        except ImportError as error:
            print(f"{name}: {error}")
    """
)


def _fail_first(root: Path, pattern: str) -> list[str]:
    """The modules under `root` matching `pattern` that fail when imported first."""
    done = subprocess.run(
        [sys.executable, "-c", _EACH_FIRST, str(root), pattern],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return [line.split(":")[0] for line in done.stdout.splitlines()]


def test_each_rules_module_imports_first() -> None:
    assert _fail_first(ROOT, "specs/*/rules/*.py") == []


def test_the_check_catches_a_pair_importing_names_from_each_other(tmp_path: Path) -> None:
    (tmp_path / "pair").mkdir()
    (tmp_path / "pair" / "__init__.py").write_text("")
    (tmp_path / "pair" / "a.py").write_text("from pair.b import g\n\n\ndef f(): return 1\n")
    (tmp_path / "pair" / "b.py").write_text("from pair.a import f\n\n\ndef g(): return 2\n")
    (tmp_path / "pair" / "c.py").write_text("import pair.a as a\n")
    assert _fail_first(tmp_path, "pair/*.py") == ["pair.a", "pair.b", "pair.c"]
