"""The layout DESIGN.md fixes, checked on the import graph drawn from the code: four floors
with no arrow up, no game importing another, z3 behind one door, tools reaching games only
through the registry, and every game package in one shape."""

from __future__ import annotations

import itertools

import pytest

from tests.layout.imports import ROOT, graph, modules_of, ours

GAMES = ("nomonhan", "rattenkrieg", "shumshu", "snc1937")
PARTS = ("rules", "io", "data", "formal", "bots")


def _floor(module: str) -> str:
    return module.split(".")[0]


def _edges(prefix: str) -> list[tuple[str, str]]:
    return [(m, d) for m, deps in modules_of(prefix).items() for d in sorted(deps) if ours(d)]


def test_kernel_imports_nothing_of_ours_but_kernel() -> None:
    bad = [(m, d) for m, d in _edges("kernel") if _floor(d) != "kernel"]
    assert bad == []


def test_solvers_import_only_kernel_and_solvers() -> None:
    bad = [(m, d) for m, d in _edges("solvers") if _floor(d) not in {"kernel", "solvers"}]
    assert bad == []


def test_specs_import_no_tool_and_no_other_game() -> None:
    def other_game(module: str, imported: str) -> bool:
        own = ".".join(module.split(".")[:2])
        return imported != "specs" and not (imported == own or imported.startswith(own + "."))

    bad = [
        (m, d)
        for m, d in _edges("specs")
        if _floor(d) in {"tools", "bench"} or (_floor(d) == "specs" and other_game(m, d))
    ]
    assert bad == []


def test_tools_reach_games_only_through_the_registry() -> None:
    """DESIGN: tools import specs only through `tools.registry` (and find each part through the
    game's `GamePackage`), never a spec module directly."""
    bad = [(m, d) for m, d in _edges("tools") if _floor(d) == "specs" and m != "tools.registry"]
    assert bad == []


def test_the_layout_check_catches_a_tool_importing_a_spec() -> None:
    """The check above reads real import statements, including ones inside functions."""
    import ast

    from tests.layout.imports import _imported

    tree = ast.parse("def f():\n    from specs.nomonhan.rules import movement\n")
    assert "specs.nomonhan.rules.movement" in _imported(tree, "tools.x", False)


def test_z3_is_imported_only_by_solvers_smt() -> None:
    users = sorted(
        m
        for m, deps in graph().items()
        if any(d == "z3" or d.startswith("z3.") for d in deps)
        and not (m == "solvers.smt" or m.startswith("solvers.smt."))
    )
    assert users == []


def test_the_two_solver_systems_do_not_import_each_other() -> None:
    """solvers/queries (what the rules call) and solvers/checking (the proof and exploration
    toolchain) share only `solvers.smt` and `solvers.reasons`."""
    bad = [
        (m, d)
        for a, b in itertools.permutations(("solvers.queries", "solvers.checking"))
        for m, d in _edges(a)
        if d == b or d.startswith(b + ".")
    ]
    assert bad == []


@pytest.mark.parametrize("game", GAMES)
def test_every_game_package_has_the_one_shape(game: str) -> None:
    """The parts, and at the top the `Game` dispatcher (`game.py`), the OpenSpiel codec
    (`spiel.py`) and the declaration of the parts (`__init__.py`): nothing else."""
    folder = ROOT / "specs" / game
    for part in PARTS:
        assert (folder / part / "__init__.py").is_file(), f"specs/{game}/{part}/ is missing"
    loose = sorted(p.name for p in folder.glob("*.py"))
    assert loose == ["__init__.py", "game.py", "spiel.py"]


def _part_graph(game: str) -> dict[str, set[str]]:
    prefix = f"specs.{game}."
    out: dict[str, set[str]] = {}
    for m, d in _edges(f"specs.{game}"):
        if m.startswith(prefix) and d.startswith(prefix):
            src, dst = m[len(prefix) :].split(".")[0], d[len(prefix) :].split(".")[0]
            if src != dst:
                out.setdefault(src, set()).add(dst)
    return out


def _cycle(edges: dict[str, set[str]]) -> list[str] | None:
    def visit(node: str, path: list[str]) -> list[str] | None:
        if node in path:
            return [*path[path.index(node) :], node]
        for nxt in sorted(edges.get(node, ())):
            found = visit(nxt, [*path, node])
            if found:
                return found
        return None

    for start in sorted(edges):
        found = visit(start, [])
        if found:
            return found
    return None


def test_cycle_finder_finds_a_cycle() -> None:
    assert _cycle({"rules": {"io"}, "io": {"rules"}}) == ["io", "rules", "io"]
    assert _cycle({"rules": {"data"}, "io": {"rules"}}) is None


LAYERS = {"data": 0, "rules": 1, "formal": 2, "io": 3, "bots": 4}
"""Which part may import which: only parts below it. The data (loader, variants) is read by
the rules; the checks (`formal/`: properties, position check, facts, symbolic model) read the
rules; the codec, narration and picture (`io/`) read the rules and run the position check; the
bots read any of them. The dispatcher (`game.py`) and the OpenSpiel codec sit above them all."""


@pytest.mark.parametrize("game", GAMES)
def test_a_games_parts_import_only_the_parts_below_them(game: str) -> None:
    upward = [
        f"{src} -> {dst}"
        for src, targets in sorted(_part_graph(game).items())
        for dst in sorted(targets)
        if src in LAYERS and (dst not in LAYERS or LAYERS[dst] > LAYERS[src])
    ]
    assert upward == []


@pytest.mark.parametrize("game", GAMES)
def test_no_cycle_between_a_games_parts(game: str) -> None:
    parts = {k: {d for d in v if d in LAYERS} for k, v in _part_graph(game).items() if k in LAYERS}
    assert _cycle(parts) is None
