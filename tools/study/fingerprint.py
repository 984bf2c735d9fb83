"""What a study's games were played by: a hash of the code and data a game's result depends on,
so that stored games are never read as the games of other rules (`Plan.code`).

It covers the kernel, the solvers the rules may ask, the game's whole package (rules, data,
bots, model) and the agents with their match loop; a change to any of them gives new keys, and
the games already stored under the old ones are played again. Read once per process."""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
"""The project's root: the folder that holds `kernel/`, `specs/` and `tools/`."""
SHARED = ("kernel", "solvers", "tools/agents")
"""The folders every game's play runs through."""
SUFFIXES = frozenset({".py", ".toml", ".json"})


@functools.cache
def code_fingerprint(game: str) -> str:
    """A stable hash of the files under `SHARED` and `specs/<game>/` (their paths relative
    to the root, and their bytes), the same on every machine for the same files."""
    digest = hashlib.sha256()
    for folder in (*SHARED, f"specs/{game}"):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix in SUFFIXES and path.is_file() and "__pycache__" not in path.parts:
                digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0")
                digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]
