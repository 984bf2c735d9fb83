"""How close a run of the rules came to a place in their code: the approach level of
search-based testing. A place (a statement that applies a clause, or one that asks for an
option's reading) sits inside nested blocks (the function's body, then each `if`, `for`,
`while`, `with`, `try` or `except` block holding it); each block is entered only when its
condition holds. The approach level of a run is the number of those blocks it did not enter on
the way to the place: 0 when the place itself ran, so the clause took effect, or the rules
asked for the reading.

The conditions are the rules' own (the clause's predicate, as the code states it), so a search
that lowers this distance steers play toward the situation the clause governs without a
scenario written by hand (`solvers.checking.steer`).
"""

from __future__ import annotations

import ast
import functools
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from types import FrameType
from typing import Any

import attrs

from solvers.checking import reach


@attrs.frozen
class Place:
    """A statement of a rules file and the blocks holding it, outermost first, each as the
    range of lines of its statements (any of them run: the block was entered)."""

    path: str
    lines: frozenset[int]
    blocks: tuple[range, ...]
    # the calls of the function holding it (`with_callers`): where its function did not run,
    # how close the run came to one of them counts too (a call-graph approach level)
    callers: tuple[Place, ...] = ()

    def distance(self, ran: dict[str, set[int]]) -> int:
        """The blocks not entered on the way here (0: the statement itself ran), plus, when
        its function did not run, the least distance of a call of that function."""
        lines = ran.get(self.path, set())
        if self.lines & lines:
            return 0
        entered = 0
        for block in self.blocks:
            if not any(n in lines for n in block):
                break
            entered += 1
        own = len(self.blocks) + 1 - entered
        if entered or not self.callers:
            return own
        return own + min(c.distance(ran) for c in self.callers)


@functools.lru_cache(maxsize=64)
def _tree(path: str) -> ast.Module:
    return ast.parse(Path(path).read_text(encoding="utf-8"))


def _holding(tree: ast.Module, line: int) -> tuple[range, ...]:
    """The blocks of statements that hold `line`, outermost first (within a function)."""
    out: list[range] = []
    node: ast.AST = tree
    while True:
        inner = None
        for block in _blocks_of(node):
            first, last = block[0].lineno, block[-1].end_lineno or block[-1].lineno
            if first <= line <= last:
                for stmt in block:
                    if stmt.lineno <= line <= (stmt.end_lineno or stmt.lineno):
                        inner = stmt
                if node is not tree:
                    out.append(range(first, last + 1))
                break
        if inner is None or inner.lineno == line:
            return tuple(out)
        node = inner


def _blocks_of(node: ast.AST) -> list[list[ast.stmt]]:
    if isinstance(node, ast.Module | ast.ClassDef):
        return [node.body]
    return list(reach._blocks(node)) if isinstance(node, ast.stmt) else []


def clause_places(sites: reach.Sites, clauses: Iterable[str]) -> list[Place]:
    """The places where any of `clauses` takes effect (`solvers.checking.reach`'s sites)."""
    wanted = set(clauses)
    return [
        Place(s.path, s.lines, _holding(_tree(s.path), min(s.lines)))
        for s in sites.sites
        if wanted & set(s.clauses)
    ]


def option_places(files: Iterable[str], option: str) -> list[Place]:
    """The statements of the rules' files that name `option` in a string (where the rules ask
    for its reading), inside a function."""
    out: list[Place] = []
    for path in sorted(set(files)):
        tree = _tree(path)
        for line in _strings(path).get(option, ()):
            blocks = _holding(tree, line)
            if blocks:  # not a constant of the module
                out.append(Place(path, frozenset({line}), blocks))
    return out


@functools.lru_cache(maxsize=256)
def _strings(path: str) -> dict[str, list[int]]:
    """The lines of each string constant of a file, in the order of a walk of its tree."""
    out: dict[str, list[int]] = {}
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            out.setdefault(node.value, []).append(node.lineno)
    return out


CALL_DEPTH = 2
"""Levels of callers a place looks back through (each a static search of the files)."""
CALLS = 12
"""Calls kept per function (the first in file order): a bound on the work per distance."""


def with_callers(places: list[Place], files: Iterable[str], depth: int = CALL_DEPTH) -> list[Place]:
    """`places`, each with the calls of the function holding it (by the function's name, in
    `files`), and theirs, `depth` levels up: a call-graph approach level for the steered
    search, so that play that comes closer to calling the function scores better."""
    found = tuple(sorted({_resolved(f) for f in files}))
    out = []
    for p in places:
        fn = _function_at(p.path, min(p.lines))
        callers = () if fn is None else _calls_of(found, fn, depth)
        out.append(attrs.evolve(p, callers=callers))
    return out


def _function_at(path: str, line: int) -> str | None:
    """The name of the innermost function of the file holding `line`."""
    holding = [f for f in _functions(path) if f[0] <= line <= f[1]]
    return max(holding)[2] if holding else None


@functools.lru_cache(maxsize=256)
def _functions(path: str) -> list[tuple[int, int, str]]:
    """The functions of a file: first and last line, name."""
    return [
        (node.lineno, node.end_lineno or node.lineno, node.name)
        for node in ast.walk(_tree(path))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    ]


@functools.lru_cache(maxsize=1024)
def _calls_of(files: tuple[str, ...], name: str, depth: int) -> tuple[Place, ...]:
    """The places that call a function named `name` in `files`, each with its own callers to
    `depth` - 1 levels (at most `CALLS`)."""
    if depth <= 0:
        return ()
    out: list[Place] = []
    for path, node in _call_index(files).get(name, ())[:CALLS]:
        tree = _tree(path)
        blocks = _holding(tree, node.lineno)
        if not blocks:
            continue
        outer = _function_at(path, node.lineno)
        up = () if outer is None or outer == name else _calls_of(files, outer, depth - 1)
        lines = frozenset(range(node.lineno, (node.end_lineno or node.lineno) + 1))
        out.append(Place(path, lines, blocks, up))
    return tuple(out)


@functools.lru_cache(maxsize=16)
def _call_index(files: tuple[str, ...]) -> dict[str, list[tuple[str, ast.Call]]]:
    """Every call in `files`, by the name of the function called, in file order."""
    out: dict[str, list[tuple[str, ast.Call]]] = {}
    for path in files:
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.Call):
                out.setdefault(_callee(node.func), []).append((path, node))
    return out


def _callee(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def nearest(places: list[Place], ran: dict[str, set[int]]) -> int:
    """The smallest distance of any place (a large number when there is none)."""
    return min((p.distance(ran) for p in places), default=1_000)


def lines_of(files: Iterable[str], run: Callable[[], Any]) -> dict[str, set[int]]:
    """The lines of `files` (resolved paths) that `run` executes, by a light tracer that
    follows only frames of those files; a tracer already set (coverage's, say) is put back
    after."""
    wanted = {_resolved(f) for f in files}
    ran: dict[str, set[int]] = {f: set() for f in wanted}

    def local(frame: FrameType, event: str, arg: Any) -> Any:
        if event == "line":
            ran[frame.f_code.co_filename].add(frame.f_lineno)
        return local

    def calls(frame: FrameType, event: str, arg: Any) -> Any:
        if event == "call" and frame.f_code.co_filename in wanted:
            ran[frame.f_code.co_filename].add(frame.f_lineno)
            return local
        return None

    before = sys.gettrace()
    sys.settrace(calls)
    try:
        run()
    finally:
        sys.settrace(before)
    return ran


@functools.lru_cache(maxsize=4096)
def _resolved(path: str) -> str:
    """The file's resolved path, found once: a steered search asks it of every rules file at
    every position it evaluates."""
    return str(Path(path).resolve())
