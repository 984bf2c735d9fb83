"""Why play may not show a clause take effect, read from the code that cites it.

- Only docstrings cite it: the clause is named only in the docstrings of the functions that
  apply it (a docstring describes a whole function, so it is no site:
  `solvers.checking.reach`). The reason names those functions, so that whoever places the
  citations can put one on the statement that applies the rule (or see that the clause is an
  example or a test vector the function's result bears out, which no single statement
  applies).
- Every statement citing it is a refusal (a `raise`, or a `return` of a message): it runs
  only when an action that breaks the rule is checked, and play offers only legal actions, so
  it runs only where the rules check a candidate they then leave out.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from pathlib import Path

from kernel.clauses import clause_ids
from solvers.checking import reach


def documenting(files: tuple[str, ...], clause: str) -> Iterator[tuple[str, str]]:
    """The functions (file name, function name) of `files` whose docstrings cite `clause`."""
    own = (clause.split("-")[0],)
    for path in sorted(set(files)):
        for node in ast.walk(_tree(path, Path(path).stat().st_mtime_ns)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                doc = ast.get_docstring(node, clean=False)
                if doc and clause in clause_ids(doc, own):
                    yield Path(path).name, node.name


def docstring_reason(sites: reach.Sites, clause: str) -> str:
    """The reason clause reach cannot show `clause` take effect when only docstrings cite it
    ("" when a statement cites it)."""
    if clause not in sites.docstring_only:
        return ""
    files = tuple(sorted({s.path for s in sites.sites}))
    where = [f"{name} ({file})" for file, name in documenting(files, clause)]
    named = ", ".join(where[:4]) + (f" and {len(where) - 4} more" if len(where) > 4 else "")
    return (
        "no statement cites it, only the docstring of "
        + (named or "a function")
        + ": clause reach measures statements, so no run can show where it takes effect "
        "(an example or test vector the function bears out, or a citation to place on the "
        "statement that applies it)"
    )


def refusal_reason(sites: reach.Sites, clause: str) -> str:
    """The reason when every statement citing `clause` is a refusal ("" otherwise)."""
    mine = [x for x in sites.sites if clause in x.clauses]
    if not mine or not all(_refuses(x) for x in mine):
        return ""
    return (
        f"each of the {len(mine)} statement(s) citing it refuses an action that breaks the "
        "rule (a raise or a returned message): play offers only legal actions, so it runs only "
        "where the rules check a candidate they then leave out, and none did"
    )


def _refuses(site: reach.Site) -> bool:
    """Whether the site's statement is a `raise` or a `return` of a string (a message)."""
    tree = _tree(site.path, Path(site.path).stat().st_mtime_ns)
    first = min(site.lines)
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt) and node.lineno == first:
            if isinstance(node, ast.Raise):
                return True
            if isinstance(node, ast.Return) and isinstance(
                node.value, ast.Constant | ast.JoinedStr
            ):
                return not isinstance(node.value, ast.Constant) or isinstance(node.value.value, str)
    return False


@functools.lru_cache(maxsize=512)
def _tree(path: str, mtime: int) -> ast.Module:
    """A module's syntax tree, parsed once per version of the file (`mtime`): every clause
    left unreached asks of the same modules, and parsing them again was most of the time."""
    return ast.parse(Path(path).read_text(encoding="utf-8"))
