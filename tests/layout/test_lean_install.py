"""The core install (`pip install .`: z3-solver, attrs, msgspec, tqdm) runs the kernel, the
rules, the solvers and the command's game verbs; the HTTP framework, coverage.py, numpy and
the studies' packages are extras, imported only by the commands that need them."""

from __future__ import annotations

import subprocess
import sys
import tomllib

from tests.layout.imports import ROOT

EXTRAS_ONLY = ("litestar", "uvicorn", "coverage", "numpy", "pyspiel", "ray", "matplotlib")

_PLAY = """
import random, sys
from kernel.playout import play
from tools.cli import commands
from tools.registry import game_names, get_game
for name in game_names():
    game = get_game(name)
    for variant in game.presets().values():
        state = game.initial_state(variant)
        game.state_from_json(game.state_to_json(state))
        play(game, state, random.Random(0), max_steps=60)
    game.data_facts()
assert commands.main(["games"]) == 0
print("EXTRAS:" + " ".join(sorted(m for m in sys.modules if m.split(".")[0] in {extras})))
"""


def test_the_core_dependencies_are_the_kernel_s_only() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    names = {d.split(">")[0].split("=")[0].split("[")[0] for d in project["dependencies"]}
    assert names == {"z3-solver", "attrs", "msgspec", "tqdm"}
    extras = project["optional-dependencies"]
    assert {"serve", "explore", "openspiel", "study"} <= set(extras)


def test_playing_every_game_imports_no_extra() -> None:
    """Set-up, codec, random play and the data check of every game, and `wargame games`, in a
    fresh interpreter: none of it imports a package only an extra brings."""
    code = _PLAY.replace("{extras}", repr(set(EXTRAS_ONLY)))
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stderr
    imported = run.stdout.rpartition("EXTRAS:")[2].split()
    assert imported == []
