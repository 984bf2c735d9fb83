"""The kernel's answers as one JSON document, to show that a change of layout changed none.

`python -m tools.answers > before.json`, change the code, `python -m tools.answers > after.json`,
then `python -m tools.answers --compare before.json after.json` (exit 1 on any difference).

The document holds, for every game and preset: perft counts from the set-up, and seeded random
games played through the `wargame` command (a digest of the narrated output and of the log, its
length and result). With `--verify FILE` (the output of `wargame verify --json`) it adds every
property's verdict. The games are played through the command rather than through imports, so
the document is the same whatever modules the code is split into.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tools.perft import perft
from tools.registry import game_names, get_game

SEEDS = (0, 1, 2)
PERFT_DEPTH = {"nomonhan": 4, "rattenkrieg": 3, "shumshu": 3, "snc1937": 2}
"""Depths that each take seconds, not minutes."""


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def _played(game: str, preset: str, seed: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        log_path = Path(folder) / "log.json"
        run = subprocess.run(
            [
                sys.executable,
                "-m",
                "tools.cli.commands",
                "play",
                game,
                "--variant",
                preset,
                "--seed",
                str(seed),
                "--log",
                str(log_path),
            ],
            capture_output=True,
            check=False,
        )
        log = log_path.read_bytes() if log_path.exists() else b""
    record = json.loads(log) if log else {}
    return {
        "exit": run.returncode,
        "output": _digest(run.stdout),
        "log": _digest(log),
        "actions": len(record.get("actions", ())),
    }


def _verdicts(path: Path) -> dict[str, Any]:
    doc = json.loads(path.read_text(encoding="utf-8"))
    out = {f"{r['game']}/{r['preset']}/{r['property']}": r["verdict"] for r in doc["results"]}
    out.update({f"{r['game']}/{r['preset']}/refinement": r["ok"] for r in doc["refinement"]})
    return out


def answers(verify: Path | None) -> dict[str, Any]:
    """Every game's perft counts and seeded games (and the verdicts, when given)."""
    doc: dict[str, Any] = {}
    for name in game_names():
        game = get_game(name)
        for preset, variant in sorted(game.presets().items()):
            start = game.initial_state(variant)
            depth = PERFT_DEPTH.get(name, 2)
            doc[f"{name}/{preset}"] = {
                "perft": [perft(game, start, d) for d in range(1, depth + 1)],
                "games": {str(seed): _played(name, preset, seed) for seed in SEEDS},
            }
    if verify is not None:
        doc["verify"] = _verdicts(verify)
    return doc


def compare(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """The keys whose answers differ (flattened paths)."""

    def flat(doc: Any, prefix: str = "") -> dict[str, Any]:
        if isinstance(doc, dict):
            out: dict[str, Any] = {}
            for key, value in doc.items():
                out.update(flat(value, f"{prefix}/{key}" if prefix else str(key)))
            return out
        return {prefix: doc}

    a, b = flat(before), flat(after)
    return [
        f"{k}: {a.get(k)!r} -> {b.get(k)!r}"
        for k in sorted(a.keys() | b.keys())
        if a.get(k) != b.get(k)
    ]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.answers", description=__doc__)
    parser.add_argument("--verify", type=Path, help="the output of `wargame verify --json`")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    args = parser.parse_args(argv)
    if args.compare:
        before, after = (json.loads(p.read_text(encoding="utf-8")) for p in args.compare)
        differences = compare(before, after)
        for line in differences:
            print(line)
        print(f"{len(differences)} differences")
        return 1 if differences else 0
    json.dump(answers(args.verify), sys.stdout, indent=1, sort_keys=True)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
