"""The project's import graph, drawn from the code (every `import` and `from ... import` of each
module under the four floors and `bench/`, including those inside functions)."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FLOORS = ("kernel", "solvers", "specs", "tools", "bench")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imported(tree: ast.AST, module: str, is_package: bool) -> set[str]:
    found: set[str] = set()
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


@functools.cache
def graph() -> dict[str, frozenset[str]]:
    """Each module of ours, by dotted name, and the modules it imports (ours and others')."""
    out: dict[str, frozenset[str]] = {}
    for floor in FLOORS:
        for path in sorted((ROOT / floor).rglob("*.py")):
            name = module_name(path)
            tree = ast.parse(path.read_text(encoding="utf-8"))
            out[name] = frozenset(_imported(tree, name, path.name == "__init__.py"))
    return out


def ours(imported: str) -> bool:
    return imported.split(".")[0] in FLOORS


def modules_of(prefix: str) -> dict[str, frozenset[str]]:
    return {m: deps for m, deps in graph().items() if m == prefix or m.startswith(prefix + ".")}
