"""Fuzz inputs drawn from the game itself: logs through `tools.playlog` and data files as TOML.

The fuzz campaign (`tools.testing.fuzz_campaign`) mutates these documents; the conformance
kit's log checks use `playlog_codec` too, so they live apart from the campaign.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any, Final

import attrs

from kernel.roles import AssembledGame
from kernel.variants import Variant
from tools import game_logs, playlog
from tools.registry import package_of
from tools.testing.conformance_corpus import LogCodec


def playlog_codec(game: AssembledGame[Any, Any]) -> LogCodec:
    """The conformance kit's view of `tools.playlog`: play a seeded game to a log, the same
    game logged as an external agent's, read and replay a log (re-encoding it from the
    replay), and the actions a log's seeded agent plays."""

    def play_log(variant: Variant, seed: int, max_steps: int) -> dict[str, Any]:
        result = playlog.play_narrated(game, variant, seed, None, max_steps=max_steps)
        return game_logs.make_log(game, variant, seed, result).to_json()

    def external(data: dict[str, Any]) -> dict[str, Any]:
        log = game_logs.read_log(game, data)
        return attrs.evolve(log, agent=game_logs.LogAgent.external()).to_json()

    def replay(data: Any) -> Any:
        log = game_logs.read_log(game, data)
        result = playlog.replay_log(game, log, None)
        return game_logs.make_log(game, log.variant, log.agent, result).to_json()

    def reproduce(data: Any) -> list[Any] | None:
        log = game_logs.read_log(game, data)
        if log.seed is None:
            return None
        steps = len(log.actions)
        result = playlog.play_narrated(game, log.variant, log.seed, None, max_steps=steps)
        return [game.action_to_json(a) for a in result.actions]

    return LogCodec(play=play_log, replay=replay, reproduce=reproduce, external=external)


_BARE_KEY: Final = re.compile(r"^[A-Za-z0-9_-]+$")


def _toml_key(key: str) -> str:
    return key if _BARE_KEY.match(key) else json.dumps(key, ensure_ascii=False)


def _toml_value(value: Any) -> str:
    """A value as inline TOML (null has no TOML form: it is left out of tables and arrays)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value if v is not None) + "]"
    if isinstance(value, dict):
        items = (f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items() if v is not None)
        return "{" + ", ".join(items) + "}"
    return json.dumps(str(value))


def toml_text(doc: Any) -> str:
    """A data document as TOML: top-level tables as `[name]`, arrays of tables as `[[name]]`,
    everything below inline. A document that is not a table becomes `value = ...`."""
    if not isinstance(doc, dict):
        return f"value = {_toml_value(doc)}\n"
    head: list[str] = []
    body: list[str] = []
    for key, value in doc.items():
        if value is None:
            continue
        if isinstance(value, dict):
            body += ["", f"[{_toml_key(key)}]"]
            body += [
                f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items() if v is not None
            ]
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            for record in value:
                body += ["", f"[[{_toml_key(key)}]]"]
                body += [
                    f"{_toml_key(k)} = {_toml_value(v)}" for k, v in record.items() if v is not None
                ]
        else:
            head.append(f"{_toml_key(key)} = {_toml_value(value)}")
    return "\n".join(head + body) + "\n"


def data_files(game: AssembledGame[Any, Any]) -> list[Path]:
    """The game's shipped data files (`*.toml` in the folder its package names)."""
    package = package_of(game)
    return [] if package is None else sorted(package.data_dir.glob("*.toml"))
