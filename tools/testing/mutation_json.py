"""JSON documents as trees for the mutation engine (`tools.testing.mutation`): paths, nodes,
copies and comparisons, and the `Pool` of values met at each place across a game's corpus.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from typing import Any, Final

from kernel.codec import dump_json

JsonPath = tuple[str | int, ...]
"""A place in a JSON document: object keys and array indices from the root."""


_ELEMENT: Final = "[]"


def json_path(path: JsonPath) -> str:
    """`("units", 3, "hex")` as `units[3].hex`, the form errors name fields in."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def json_place(path: JsonPath) -> tuple[str, ...]:
    """The place without array indices: every unit's hex is at `units[].hex`."""
    return tuple(_ELEMENT if isinstance(p, int) else p for p in path)


def as_json(data: Any) -> Any:
    """Data as a JSON parser gives it back (lists, not tuples): what a user's input looks like."""
    return json.loads(dump_json(data))


def json_copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: json_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [json_copy(v) for v in value]
    return value


def json_nodes(doc: Any) -> list[tuple[JsonPath, Any]]:
    """Every value in a JSON document with its path, the root first (preorder)."""
    out: list[tuple[JsonPath, Any]] = []
    stack: list[tuple[JsonPath, Any]] = [((), doc)]
    while stack:
        path, value = stack.pop()
        out.append((path, value))
        if isinstance(value, dict):
            stack.extend(((*path, k), v) for k, v in reversed(list(value.items())))
        elif isinstance(value, list):
            stack.extend(((*path, i), v) for i, v in reversed(list(enumerate(value))))
    return out


def json_parent(doc: Any, path: JsonPath) -> Any:
    node = doc
    for part in path[:-1]:
        node = node[part]
    return node


def json_replaced(doc: Any, path: JsonPath, value: Any) -> Any:
    """A copy of the document with the value at `path` replaced (the original is kept)."""
    if not path:
        return value
    out = json_copy(doc)
    json_parent(out, path)[path[-1]] = value
    return out


def json_equal(a: Any, b: Any) -> bool:
    """Equal as JSON (True is not 1, 1.0 is not 1)."""
    return dump_json(a) == dump_json(b)


def json_short(value: Any, limit: int = 80) -> str:
    """The value as JSON for a message (as Python writes it when it is not JSON), cut at
    `limit` characters."""
    try:
        text = dump_json(value)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class Pool:
    """The values met at each place of one kind of document across a game's corpus: where a
    mutation finds other valid ids, stage names and whole records (another position's combat)
    to put in a document's place. At most `cap` distinct values are kept per place."""

    def __init__(self, docs: Iterable[Any], *, cap: int = 48, seed: int = 0) -> None:
        rng = random.Random(seed)
        seen: dict[tuple[str, ...], dict[str, Any]] = {}
        counts: dict[tuple[str, ...], int] = {}
        keys: dict[tuple[str, ...], set[str]] = {}
        strings: set[str] = set()
        for doc in docs:
            for path, value in json_nodes(doc):
                norm = json_place(path)
                if isinstance(value, dict):
                    keys.setdefault(norm, set()).update(value)
                if isinstance(value, str):
                    strings.add(value)
                if not path:
                    continue
                bucket = seen.setdefault(norm, {})
                text = dump_json(value)
                if text in bucket:
                    continue
                counts[norm] = counts.get(norm, 0) + 1
                if len(bucket) < cap:
                    bucket[text] = value
                elif rng.randrange(counts[norm]) < cap:  # reservoir sampling of distinct values
                    del bucket[next(iter(bucket))]
                    bucket[text] = value
        self._values = {norm: [b[t] for t in sorted(b)] for norm, b in seen.items()}
        self._keys = {norm: sorted(k) for norm, k in keys.items()}
        self.strings = sorted(strings)

    def values(self, path: JsonPath) -> list[Any]:
        """The distinct values met at this place (any index of every array)."""
        return self._values.get(json_place(path), [])

    def keys(self, path: JsonPath) -> list[str]:
        """The keys met in objects at this place."""
        return self._keys.get(json_place(path), [])
