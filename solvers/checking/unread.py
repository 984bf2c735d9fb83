"""Options the rules never read: a proof that two readings give the same game, by a static
check over the game's own source.

Rules code asks for a reading only through the variant, by the option's name
(`kernel.variants.Variant.reading` and `is_`), and a variant differs from another only in its
readings. So when no module of the game's package names the option (no string, name,
attribute or keyword equal to it) outside the catalogue that defines it, no call of the rules
asks for its reading by name; and when the rules' modules never ask for a reading by a name
computed at run time nor read the variant's readings wholesale (`choices`, `to_json`, the
lookup table), no call of them asks for it at all. The data the rules read are built by the
same modules, so they are the same under both readings too. Then every position has the same
side to move, legal actions, chance outcomes and result under both readings, and each action
leads to positions that again differ only in the variant's name of the option: the games are
the same (equivalent, by proof). Such options choose presentation or record a source's
disagreement that no rule turns on.

Where any of those checks fails the module proves nothing (`None`): the option is read, or may
be, and the other searches settle it.
"""

from __future__ import annotations

import ast
import functools
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs

from kernel.game import Game
from kernel.variants import Option
from solvers.checking.differences import Finding
from solvers.checking.readings import reading_pairs
from solvers.checking.unplayed import unplayed_findings
from solvers.checking.unreached import game_sources, play_modules

WHOLESALE = frozenset({"choices", "_lookup", "to_json"})
"""Attributes of a variant that give all its readings at once (a rule reading one of them could
turn on any option)."""
ASKS = frozenset({"reading", "is_"})
"""The variant's methods that ask for one reading by name."""


@attrs.frozen
class Unread:
    """The proof that the rules never read an option: the modules searched, the catalogue
    modules left out (where the option is defined and the presets name it), and the rules'
    modules checked for readings asked by a computed name or wholesale."""

    option: str
    searched: int
    catalogue: tuple[str, ...]
    rules: int

    def said(self) -> str:
        """The proof, in words (a finding's detail)."""
        cat = ", ".join(self.catalogue)
        return (
            f"proved by a static check: no module of the game's package but its catalogue "
            f"({cat}) names {self.option!r} ({self.searched} modules searched), and none of "
            f"its {self.rules} rules modules asks for a reading by a computed name or reads "
            "the variant's readings wholesale, so no rule reads this option and every "
            "position plays the same under both readings"
        )


def unread_option(game: Game[Any, Any], option: str) -> Unread | None:
    """The proof that no rule of `game` reads `option` (see the module docstring), or None."""
    root = game_root(game)
    catalogue: list[str] = []
    searched = 0
    for path in sorted(root.rglob("*.py")):
        defined, named = _index(str(path))
        searched += 1
        if option in defined:
            catalogue.append(path.relative_to(root).as_posix())
            continue
        if option in named:
            return None
    if not catalogue:
        return None  # not this game's option, or defined where the check cannot see
    rules = game_sources(game)
    for source in rules:
        if _asks_openly(_tree(source)):
            return None
    return Unread(option, searched, tuple(catalogue), len(rules))


def game_root(game: Game[Any, Any]) -> Path:
    """The game's package folder (the one holding `rules/`, `io/`, `data/`)."""
    package = Path(sorted(play_modules(game))[0]).parent
    return package.parent if package.name == "rules" else package


def names_in(path: str) -> frozenset[str]:
    """Every string, name, attribute and keyword the module at `path` holds."""
    return _index(path)[1]


@functools.lru_cache(maxsize=256)
def _tree(path: str) -> ast.Module:
    return ast.parse(Path(path).read_text(encoding="utf-8"))


@functools.lru_cache(maxsize=1024)
def _index(path: str) -> tuple[frozenset[str], frozenset[str]]:
    """The options a module defines and every name it holds (`_defines`, `_names`), read once
    per module rather than once per module and option."""
    tree = _tree(path)
    defined = frozenset(_defined(tree))
    named = frozenset(_named(tree))
    return defined, named


def _defined(tree: ast.Module) -> Iterator[str]:
    """The names of the options the module defines (`_defines`)."""
    helpers = {"option", "Option"}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "kernel.variants":
            helpers |= {a.asname or a.name for a in node.names if a.name in ("option", "Option")}
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
            and _called(node.func) in helpers
        ):
            yield node.args[0].value


def _named(tree: ast.Module) -> Iterator[str]:
    """Every string, name, attribute and keyword the module holds (`_names`)."""
    return (name for name, _ in _naming(tree))


def _defines(tree: ast.Module, option: str) -> bool:
    """Whether the module defines the option: a call whose first argument is its name and
    whose function is `kernel.variants`' `option` or `Option` (as imported, alias and all)."""
    return option in set(_defined(tree))


def _called(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _names(tree: ast.Module, option: str) -> Iterator[ast.AST]:
    """Every node of the module that names `option`: a string equal to it (or holding it as a
    part of an f-string), a name, an attribute or a keyword."""
    return (node for name, node in _naming(tree) if name == option)


def _naming(tree: ast.Module) -> Iterator[tuple[str, ast.AST]]:
    """Each string, name, attribute and keyword of the module, with its node."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.value, node
        elif isinstance(node, ast.Name):
            yield node.id, node
        elif isinstance(node, ast.Attribute):
            yield node.attr, node
        elif isinstance(node, ast.keyword):
            yield node.arg or "", node


def _asks_openly(tree: ast.Module) -> bool:
    """Whether a rules module may ask for a reading other than by a written name: a `reading`
    or `is_` call whose first argument is not a string constant, or a wholesale read of the
    variant's readings."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in WHOLESALE:
            return True
        if (
            isinstance(node, ast.Call)
            and _called(node.func) in ASKS
            and isinstance(node.func, ast.Attribute)
            and not (
                node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            )
        ):
            return True
    return False


def unread_findings(
    game: Game[Any, Any], option: Option, preset: str | None = None
) -> list[Finding] | None:
    """A finding per reading pair of `option` under `preset` (the catalogue's default when
    None), each equivalent by the proof that no rule reads it, and one `unplayed` finding per
    reading the rules do not implement (no proof makes that the game played:
    `solvers.checking.unplayed`); None without the proof (the explorer's searches settle it
    then)."""
    start = time.perf_counter()
    proof = unread_option(game, option.name)
    if proof is None:
        return None
    cat = game.catalogue
    name = preset or cat.default_preset
    out = []
    for ra, rb in reading_pairs(option, cat.preset(name).reading(option.name)):
        seconds = time.perf_counter() - start
        out.append(
            Finding(
                option.name,
                option.clauses,
                option.ambiguity,
                ra,
                rb,
                name,
                "equivalent",
                None,
                proof.said(),
                seconds,
            )
        )
    return out + unplayed_findings(cat, option, name)
