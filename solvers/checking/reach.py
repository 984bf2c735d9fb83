"""Where each clause takes effect in a game's code, and which of those places a run of play
executes: clause reach by the branch that applies a rule, not by the function that mentions it.

A clause is cited at a site when a comment or a string on a code line names it (docstrings
describe a whole function and are not sites). The site is the statement that runs when the
rule takes effect:
- a comment on its own line cites the statement that follows it;
- a comment or string on a statement's line cites that statement (a refusal that names the
  clause: the `raise` runs only when it is refused);
- a statement outside any function (a table, a constant) runs once, at import, and is no
  site;
- on the header of an `if`, `elif`, `else`, `for`, `while`, `with`, `try`, `except` or `def`
  (the comment before one included), it cites the first statement of the block, so the clause
  is reached only when the condition holds, not when it is tested.

Lines run are measured by coverage.py's tracer (the C one where it can), only over the game's
own package: no cost to play outside a measured run.
"""

from __future__ import annotations

import ast
import functools
import io
import tokenize
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from types import ModuleType

import attrs

from kernel.clauses import clause_ids
from kernel.errors import MissingExtra

_BLOCKS = (
    ast.If,
    ast.For,
    ast.AsyncFor,
    ast.While,
    ast.With,
    ast.AsyncWith,
    ast.Try,
    ast.FunctionDef,
    ast.AsyncFunctionDef,
)


@attrs.frozen
class Site:
    """A statement that runs when its clauses take effect: its file and lines (any of them
    run counts: a tracer reports a statement spread over lines by any of its lines)."""

    path: str
    lines: frozenset[int]
    clauses: tuple[str, ...]
    line: int  # where the citation is written, to name the site


@attrs.frozen
class Sites:
    """The clause sites of a game's sources, and the clauses they cite only in function
    docstrings (which no run can reach: each should also be cited where it takes effect)."""

    sites: tuple[Site, ...]
    docstring_only: frozenset[str]

    @property
    def cited(self) -> frozenset[str]:
        return frozenset(c for s in self.sites for c in s.clauses) | self.docstring_only


def _docstring_lines(tree: ast.Module) -> tuple[set[int], set[int]]:
    """The lines of function docstrings, and of module and class docstrings (which describe
    data or a whole module and cite nothing that runs)."""
    functions: set[int] = set()
    others: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                lines = range(first.lineno, (first.end_lineno or first.lineno) + 1)
                is_function = isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
                (functions if is_function else others).update(lines)
    return functions, others


def _blocks(node: ast.AST) -> Iterator[list[ast.stmt]]:
    """The statement blocks a compound statement holds, in order."""
    for name in ("body", "orelse", "finalbody"):
        block = getattr(node, name, None)
        if block and isinstance(block[0], ast.stmt):
            yield block
    if isinstance(node, ast.Try):
        for handler in node.handlers:
            yield handler.body


def _header_lines(stmt: ast.stmt) -> frozenset[int]:
    """The lines that run when `stmt` starts: a simple statement's own lines, a compound
    statement's header."""
    end = stmt.end_lineno or stmt.lineno
    blocks = list(_blocks(stmt))
    if blocks:
        end = blocks[0][0].lineno - 1
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            end = stmt.lineno  # a def runs once, at import: its body is what a call runs
    return frozenset(range(stmt.lineno, max(stmt.lineno, end) + 1))


def _effect_of_block(block: list[ast.stmt]) -> ast.stmt:
    """The statement that runs when a block is entered (a docstring is skipped)."""
    first = block[0]
    if (
        len(block) > 1
        and isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    ):
        return block[1]
    return first


class _Index:
    """A module's statements, to find the statement a citation on a line speaks of."""

    def __init__(self, tree: ast.Module) -> None:
        self.statements: list[ast.stmt] = [n for n in ast.walk(tree) if isinstance(n, ast.stmt)]
        self.functions = [
            n for n in self.statements if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
        ]

    def in_function(self, stmt: ast.stmt) -> bool:
        """Whether `stmt` runs when a function is called (not once, at import: a table or a
        constant that cites a clause describes it; a call applies it)."""
        return any(
            f.lineno < stmt.lineno <= (f.end_lineno or f.lineno) and stmt is not f
            for f in self.functions
        )

    def site(self, line: int, own_line: bool) -> ast.stmt | None:
        if own_line:  # a comment alone on its line: the statement after it
            after = [s for s in self.statements if s.lineno > line]
            if not after:
                return None
            nxt = min(after, key=lambda s: (s.lineno, -(s.end_lineno or s.lineno)))
            return self._entered(nxt, nxt.lineno)
        holding = [s for s in self.statements if s.lineno <= line <= (s.end_lineno or s.lineno)]
        if not holding:
            return None
        inner = min(holding, key=lambda s: (s.end_lineno or s.lineno) - s.lineno)
        return self._entered(inner, line)

    @staticmethod
    def _entered(stmt: ast.stmt, line: int) -> ast.stmt:
        """For a citation on a compound statement's header (or `else:`/`except:` line), the
        first statement of the block it opens: the rule applies when the block is entered."""
        if not isinstance(stmt, _BLOCKS):
            return stmt
        later = [block for block in _blocks(stmt) if block[0].lineno > line]
        if not later:
            return stmt
        return _effect_of_block(min(later, key=lambda block: block[0].lineno))


def module_sites(path: Path, prefixes: Iterable[str] | None) -> tuple[list[Site], set[str]]:
    """The clause sites of one source file, and the clauses its function docstrings cite."""
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    docs, other_docs = _docstring_lines(tree)
    index = _Index(tree)
    own = tuple(prefixes) if prefixes is not None else None
    lines = source.splitlines()
    sites: list[Site] = []
    in_docs: set[str] = set()
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type not in (tokenize.COMMENT, tokenize.STRING):
            continue
        ids = clause_ids(tok.string, own)
        if not ids:
            continue
        line = tok.start[0]
        if tok.type == tokenize.STRING and line in other_docs:
            continue
        if tok.type == tokenize.STRING and line in docs:
            in_docs.update(ids)
            continue
        own_line = tok.type == tokenize.COMMENT and not lines[line - 1][: tok.start[1]].strip()
        stmt = index.site(line, own_line)
        if stmt is None or not index.in_function(stmt):
            continue
        sites.append(Site(str(path), _header_lines(stmt), tuple(ids), line))
    return sites, in_docs


@functools.lru_cache(maxsize=256)
def _file_sites(path: str, prefixes: tuple[str, ...] | None) -> tuple[list[Site], set[str]]:
    return module_sites(Path(path), prefixes)


def sites_of(files: Iterable[str], prefixes: tuple[str, ...] | None) -> Sites:
    """The clause sites of the given source files (a game's modules)."""
    sites: list[Site] = []
    docs: set[str] = set()
    for path in sorted({str(Path(f).resolve()) for f in files}):
        found, in_docs = _file_sites(path, prefixes)
        sites.extend(found)
        docs |= in_docs
    cited = {c for s in sites for c in s.clauses}
    return Sites(tuple(sites), frozenset(docs - cited))


def lines_run(patterns: Iterable[str], run: Callable[[], object]) -> dict[str, set[int]]:
    """The lines of the source files matching `patterns` (file globs) that `run` executes,
    by resolved path. Needs coverage.py (the `explore` extra), imported here so that the rest
    of the solvers installs without it."""
    try:
        import coverage
    except ModuleNotFoundError as exc:
        raise MissingExtra("explore", "clause reach (coverage.py)", exc) from exc
    cov = coverage.Coverage(
        data_file=None, config_file=False, include=sorted(patterns), branch=False
    )
    cov.set_option("run:disable_warnings", ["no-data-collected", "module-not-measured"])
    cov.start()
    try:
        run()
    finally:
        cov.stop()
    data = cov.get_data()
    return {str(Path(f).resolve()): set(data.lines(f) or ()) for f in data.measured_files()}


def clear_caches(modules: Iterable[ModuleType]) -> int:
    """Empty the memo caches (`functools.cache`, `lru_cache`) of the modules' functions and
    their classes' methods, so a measured run executes what play asks for instead of reading
    what earlier play left in a cache (a site inside a cached function would otherwise look
    unreached). The number of caches emptied."""
    cleared = 0
    for module in modules:
        for obj in list(vars(module).values()):
            holders = [obj, *vars(obj).values()] if isinstance(obj, type) else [obj]
            for f in holders:
                clear = getattr(f, "cache_clear", None)
                if callable(clear):
                    clear()
                    cleared += 1
    return cleared


def reached(sites: Sites, ran: dict[str, set[int]]) -> set[str]:
    """The clauses of the sites whose statements ran."""
    out: set[str] = set()
    for s in sites.sites:
        if s.lines & ran.get(s.path, set()):
            out.update(s.clauses)
    return out
