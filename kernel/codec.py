"""Versioned JSON for states, actions and game logs, and strict field readers.

Every document names its format and version, so a state saved today is read (or refused with a
clear message) tomorrow. The field readers raise InvalidInput naming the JSON path of the bad
field; specs use them so that bad input never becomes a traceback.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

from kernel.errors import InvalidInput

STATE_FORMAT = "wargame-kernel/state"
LOG_FORMAT = "wargame-kernel/log"
VERSION = 1

T = TypeVar("T")


def parse_json(text: str, *, what: str) -> Any:
    """Parse JSON text; a syntax error becomes InvalidInput with the line and column."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidInput(
            f"{what} is not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})",
            field=what,
        ) from None


def dump_json(data: Any) -> str:
    """Canonical JSON text: sorted keys, so equal data gives equal text."""
    return json.dumps(data, sort_keys=True, ensure_ascii=False)


def envelope(fmt: str, game: str, body: dict[str, Any]) -> dict[str, Any]:
    """Wrap a body with its format, version and game."""
    return {"format": fmt, "version": VERSION, "game": game, **body}


def open_envelope(data: Any, fmt: str, game: str) -> dict[str, Any]:
    """Check format, version and game of a document and return it (as a dict)."""
    obj = require_dict(data, fmt)
    if obj.get("format") != fmt:
        raise InvalidInput(f"expected format {fmt!r}, got {obj.get('format')!r}", field="format")
    if obj.get("version") != VERSION:
        raise InvalidInput(
            f"unsupported {fmt} version {obj.get('version')!r} (this kernel reads {VERSION})",
            field="version",
        )
    if obj.get("game") != game:
        raise InvalidInput(f"document is for game {obj.get('game')!r}, not {game!r}", field="game")
    return obj


def require_dict(data: Any, field: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise InvalidInput(f"{field} must be a JSON object", field=field)
    return data


def get_field(obj: dict[str, Any], key: str, kind: type[T], path: str = "") -> T:
    """obj[key] checked to be of `kind` (bool is not accepted as int)."""
    where = f"{path}.{key}" if path else key
    if key not in obj:
        raise InvalidInput(f"missing field {where!r}", field=where)
    value = obj[key]
    if (kind is int and isinstance(value, bool)) or not isinstance(value, kind):
        raise InvalidInput(f"field {where!r} must be {kind.__name__}", field=where)
    return value


def get_list(
    obj: dict[str, Any], key: str, item: Callable[[Any, str], T], path: str = ""
) -> list[T]:
    """obj[key] as a list, each element read by `item(value, its_path)`."""
    where = f"{path}.{key}" if path else key
    values = get_field(obj, key, list, path)
    return [item(v, f"{where}[{i}]") for i, v in enumerate(values)]


def as_str(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise InvalidInput(f"field {where!r} must be a string", field=where)
    return value


def as_int(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"field {where!r} must be an integer", field=where)
    return value
