"""Issue 16, item 4: a study's results depend on (plan, reading, seed) alone. `--compare tie`
on Nomonhan gives the same stored rows and the same numbers on the local engine with one and
two workers and on a real local Ray with two workers, and those rows are the games
`play_match` plays on its own."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.sizes import size
from tools.agents import make_agent
from tools.agents.match import play_match
from tools.registry import get_game
from tools.study.command import main
from tools.study.plan import make_plan
from tools.study.store import Store

SEED_START = 4
GAMES = size(6, 40)  # seeds 4.. include seed 9, a points tie (NOM-4.3 / NOM-4.4)
ARGS = ["nomonhan", "--compare", "tie", "--games", str(GAMES), "--seed-start", str(SEED_START)]


def _study(tmp: Path, name: str, extra: list[str], capsys: pytest.CaptureFixture[str]) -> Any:
    db = tmp / f"{name}.sqlite"
    assert main([*ARGS, *extra, "--db", str(db), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    plan = make_plan("nomonhan", compare="tie", games=GAMES, seed_start=SEED_START)
    with Store(db) as store:
        rows = store.dump(plan.key)
    return out, rows


def test_same_numbers_on_every_engine_and_worker_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import ray

    runs = {
        "local1": _study(tmp_path, "local1", ["--engine", "local", "--workers", "1"], capsys),
        "local2": _study(tmp_path, "local2", ["--engine", "local", "--workers", "2"], capsys),
        "ray2": _study(tmp_path, "ray2", ["--engine", "ray", "--workers", "2"], capsys),
    }
    assert not ray.is_initialized()  # the study started its own Ray, and stopped it
    (out, rows) = runs["local1"]
    for name, (other_out, other_rows) in runs.items():
        assert other_out["run"]["played"] == 2 * GAMES, name
        assert other_out["run"]["engine"] == name[:-1]
        assert other_rows == rows, name
        assert other_out["study"] == out["study"], name

    # The stored rows are the games themselves, played here one by one.
    game = get_game("nomonhan")
    for reading in ("soviet", "draw"):
        variant = game.catalogue.variant("ja", {"tie": reading})
        expected = [
            play_match(game, variant, {s: make_agent("random", game, s) for s in game.sides}, seed)
            for seed in range(SEED_START, SEED_START + GAMES)
        ]
        stored = [r for r in rows if r[0] == reading]
        assert [(r.seed, r.stop, r.winner, r.clause, r.steps, r.decisions) for r in expected] == [
            r[1:] for r in stored
        ]

    # The comparison: `draw` turns exactly the tied Soviet wins into draws (NOM-4.3, NOM-4.4).
    study = out["study"]
    assert [r["reading"] for r in study["readings"]] == ["soviet", "draw"]
    (cmp,) = study["comparisons"]
    assert cmp["changed_games"] >= 1  # seed 9
    su, draw, jp = (cmp["outcomes"][k] for k in ("SU", "draw", "JP"))
    assert su["base_only"] == draw["other_only"] == cmp["changed_games"]
    assert su["other_only"] == draw["base_only"] == jp["base_only"] == jp["other_only"] == 0
    assert su["difference"] == -cmp["changed_games"] / GAMES
