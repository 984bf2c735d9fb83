"""The mutation engine of the conformance kit: real documents (positions, actions, logs, data
files) edited generically over their JSON, one field at a time.

`mutate` makes one to three edits of a document (a field deleted, added or renamed, a value of
another type, integers at and beyond bounds, non-ASCII strings, another valid id or stage from
elsewhere, a record from another position, lists duplicated, truncated or reordered), each
drawn from a `Chooser`; a `Pool` holds the values met at each place across a game's corpus,
where a mutation finds other valid values to put in a document's place. The conformance checks
(`tools.testing.conformance`) hold each mutant to the game's strict input contract; the fuzz
campaign (`tools/testing/fuzz.py`) runs the same engine through the command, with a seeded
random chooser instead of hypothesis. The JSON tree helpers and the `Pool` are in
`tools.testing.mutation_json`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Final, Protocol, TypeVar

import attrs

from kernel.codec import dump_json
from tools.testing.mutation_json import (
    JsonPath,
    Pool,
    json_copy,
    json_equal,
    json_nodes,
    json_parent,
    json_path,
    json_place,
    json_replaced,
    json_short,
)

T = TypeVar("T")


class Chooser(Protocol):
    """Where a mutation's choices come from: hypothesis draws in tests (so failures shrink to
    the simplest mutation), a seeded `random.Random` in the fuzz campaign."""

    def below(self, n: int) -> int:
        """An integer in [0, n), n >= 1."""
        ...


class RandomChooser:
    """A Chooser over a seeded random.Random."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def below(self, n: int) -> int:
        return self.rng.randrange(n)


class ListChooser:
    """A Chooser that takes its choices from a list of integers (each modulo the number of
    options; 0 once the list runs out). Hypothesis draws the list, so a failure shrinks
    towards the first position, the first kind of edit and the first place."""

    def __init__(self, choices: Sequence[int]) -> None:
        self.choices = choices
        self.used = 0

    def below(self, n: int) -> int:
        if self.used >= len(self.choices):
            return 0
        value = self.choices[self.used] % n
        self.used += 1
        return value


def pick(chooser: Chooser, options: Sequence[T]) -> T:
    """One of `options` (not empty)."""
    return options[chooser.below(len(options))]


@attrs.frozen
class Mutation:
    """One edit of a document: what was done where."""

    op: str
    path: str
    detail: str

    def __str__(self) -> str:
        return f"{self.op} at {self.path or '$'}: {self.detail}"


@attrs.frozen
class Mutant:
    """A mutated document and the edits that made it."""

    doc: Any
    edits: tuple[Mutation, ...]

    def describe(self) -> str:
        return "; ".join(str(e) for e in self.edits)

    @property
    def ops(self) -> tuple[str, ...]:
        return tuple(e.op for e in self.edits)


Node = tuple[JsonPath, Any]
_Edit = tuple[Any, Mutation]

_UNKNOWN_KEYS: Final = ("unknown", "x", "")
_ODD_VALUES: Final[tuple[Any, ...]] = (0, None, "x", True, [], {})
_BOUNDS: Final = (-1, 0, 1, 2**31 - 1, 2**31, 2**53 + 1, 10**12, 2**63 - 1, 2**63, -(2**63) - 1)
_HOMOGLYPHS: Final = str.maketrans("AaEeOoPpCcXx", "АаЕеОоРрСсХх")  # Latin -> Cyrillic


def _retypes(value: Any) -> list[Any]:
    """Values of other JSON types (bool for int, string for int, null, list, object)."""
    out: list[Any] = [True, False, 0, 1, -1, 1.5, "", "x", None, [], {}, [value], {"value": value}]
    if isinstance(value, int) and not isinstance(value, bool):
        out += [str(value), float(value)]
    if isinstance(value, str) and value.lstrip("-").isdigit():
        out.append(int(value))
    return out


def _strings(value: str) -> list[str]:
    """Near misses of a string: non-ASCII digits and letters, whitespace, case, truncation."""
    out = [
        value.translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")),  # Arabic-Indic digits
        value.translate(str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")),  # Extended Arabic-Indic
        value.translate(str.maketrans("0123456789", "０１２３４５６７８９")),  # fullwidth
        value.translate(_HOMOGLYPHS),
        value + "\n",
        f" {value}",
        value + " ",
        "\u200b" + value,
        value + "\u0000",
        value.upper(),
        value.lower(),
        value[:-1],
        value + value[-1:],
        "",
        "x" * 5000,
    ]
    return [s for s in out if s != value]


def _bounds(value: int) -> list[int]:
    return [b for b in (*_BOUNDS, value - 1, value + 1, -value) if b != value]


class _Mutator:
    """One edit of one document, every choice taken from the chooser."""

    def __init__(self, doc: Any, pool: Pool, chooser: Chooser) -> None:
        self.doc = doc
        self.pool = pool
        self.chooser = chooser
        self.nodes = json_nodes(doc)

    def choose(self, options: Sequence[T]) -> T:
        return pick(self.chooser, options)

    def replace(self, op: str, node: Node, new: Any) -> _Edit:
        path, old = node
        return json_replaced(self.doc, path, new), Mutation(
            op, json_path(path), f"{json_short(old)} -> {json_short(new)}"
        )

    def where(self, test: Callable[[JsonPath, Any], bool]) -> list[Node]:
        return [(p, v) for p, v in self.nodes if test(p, v)]

    # each op returns None when it applies nowhere in this document
    def delete(self) -> _Edit | None:
        nodes = self.where(lambda p, v: bool(p))
        if not nodes:
            return None
        path, old = self.choose(nodes)
        out = json_copy(self.doc)
        parent = json_parent(out, path)
        del parent[path[-1]]
        return out, Mutation("delete", json_path(path), f"removed {json_short(old)}")

    def unknown_field(self) -> _Edit | None:
        objects = self.where(lambda p, v: isinstance(v, dict))
        if not objects:
            return None
        path, obj = self.choose(objects)
        elsewhere = [k for k in self.pool.keys(path) if k not in obj]
        near = [f"{k}_" for k in obj] + [k.upper() for k in obj if k.upper() != k]
        key = self.choose([*elsewhere, *elsewhere, *_UNKNOWN_KEYS, *near])
        if key in obj:
            return None
        value = self.choose(_ODD_VALUES)
        out = json_copy(self.doc)
        json_parent(out, (*path, key))[key] = value
        return out, Mutation("unknown_field", json_path((*path, key)), f"added {json_short(value)}")

    def rename_key(self) -> _Edit | None:
        nodes = self.where(lambda p, v: bool(p) and isinstance(p[-1], str))
        if not nodes:
            return None
        path = self.choose(nodes)[0]
        old = str(path[-1])
        new = self.choose([old + "s", old.upper(), old[:-1], old.replace("_", "-"), " " + old])
        if new == old:
            return None
        out = json_copy(self.doc)
        parent = json_parent(out, path)
        if new in parent:
            return None
        parent[new] = parent.pop(old)
        return out, Mutation("rename_key", json_path(path), f"key {old!r} -> {new!r}")

    def retype(self) -> _Edit | None:
        node = self.choose(self.nodes)
        options = [v for v in _retypes(node[1]) if not json_equal(v, node[1])]
        return self.replace("retype", node, self.choose(options))

    def int_bound(self) -> _Edit | None:
        ints = self.where(lambda p, v: isinstance(v, int) and not isinstance(v, bool))
        if not ints:
            return None
        node = self.choose(ints)
        return self.replace("int_bound", node, self.choose(_bounds(node[1])))

    def string(self) -> _Edit | None:
        strings = self.where(lambda p, v: isinstance(v, str) and bool(v))
        if not strings:
            return None
        node = self.choose(strings)
        return self.replace("string", node, self.choose(_strings(node[1])))

    def boolean(self) -> _Edit | None:
        bools = self.where(lambda p, v: isinstance(v, bool))
        if not bools:
            return None
        node = self.choose(bools)
        return self.replace("boolean", node, self.choose([not node[1], int(node[1]), "true", None]))

    def _from_pool(self, op: str, test: Callable[[Any], bool]) -> _Edit | None:
        nodes = [
            (p, v)
            for p, v in self.nodes
            if p and test(v) and any(not json_equal(o, v) for o in self.pool.values(p))
        ]
        if not nodes:
            return None
        node = self.choose(nodes)
        others = [o for o in self.pool.values(node[0]) if not json_equal(o, node[1])]
        return self.replace(op, node, self.choose(others))

    def other_value(self) -> _Edit | None:
        """Another value met at this place: another unit's id, another stage or phase."""
        return self._from_pool("other_value", lambda v: not isinstance(v, dict | list))

    def transplant(self) -> _Edit | None:
        """A record or list from another document of the same kind (a combat, a pending list,
        the current step of another position), or one where this document has null."""
        return self._from_pool("transplant", lambda v: v is None or isinstance(v, dict | list))

    def doc_string(self) -> _Edit | None:
        """Another string of this very document (an enemy's id, another hex in play)."""
        strings = self.where(lambda p, v: bool(p) and isinstance(v, str))
        distinct = sorted({v for _, v in strings})
        if len(distinct) < 2:
            return None
        node = self.choose(strings)
        return self.replace("doc_string", node, self.choose([s for s in distinct if s != node[1]]))

    def exchange(self) -> _Edit | None:
        """Swap two values of the same place or of the same object (two units' hexes, two
        units' ids, the two sides' hands)."""
        nodes = [(p, v) for p, v in self.nodes if p]
        if not nodes:
            return None
        first = self.choose(nodes)
        path, value = first
        partners = [
            (p, v)
            for p, v in nodes
            if p != path
            and not json_equal(v, value)
            and len(p) == len(path)
            and (
                json_place(p) == json_place(path)
                or (p[:-1] == path[:-1] and type(v) is type(value))
            )
        ]
        if not partners:
            return None
        other_path, other = self.choose(partners)
        out = json_replaced(json_replaced(self.doc, path, other), other_path, value)
        return out, Mutation(
            "exchange",
            json_path(path),
            f"swapped with {json_path(other_path)} ({json_short(other)})",
        )

    def _list_node(self, nonempty: int) -> Node | None:
        lists = self.where(lambda p, v: isinstance(v, list) and len(v) >= nonempty)
        return self.choose(lists) if lists else None

    def list_duplicate(self) -> _Edit | None:
        node = self._list_node(1)
        if node is None:
            return None
        items = node[1]
        i = self.chooser.below(len(items))
        return self.replace("list_duplicate", node, [*items[: i + 1], items[i], *items[i + 1 :]])

    def list_truncate(self) -> _Edit | None:
        node = self._list_node(1)
        if node is None:
            return None
        items = node[1]
        i = self.chooser.below(len(items))
        shapes = [items[:i] + items[i + 1 :], items[: len(items) // 2], [], items[1:]]
        return self.replace("list_truncate", node, self.choose(shapes))

    def list_reorder(self) -> _Edit | None:
        lists = self.where(lambda p, v: isinstance(v, list) and len({dump_json(x) for x in v}) > 1)
        if not lists:
            return None
        node = self.choose(lists)
        items = list(node[1])
        i, j = self.chooser.below(len(items)), self.chooser.below(len(items))
        swapped = list(items)
        swapped[i], swapped[j] = swapped[j], swapped[i]
        shapes = [
            x for x in (swapped, items[::-1], items[1:] + items[:1]) if not json_equal(x, items)
        ]
        return self.replace("list_reorder", node, self.choose(shapes)) if shapes else None

    def list_append(self) -> _Edit | None:
        """An element from another list of this place (another unit in `moved`, another card)."""
        lists = [(p, v) for p, v in self.nodes if isinstance(v, list) and self.pool.values((*p, 0))]
        if not lists:
            return None
        node = self.choose(lists)
        extra = self.choose(self.pool.values((*node[0], 0)))
        at = self.chooser.below(len(node[1]) + 1)
        return self.replace("list_append", node, [*node[1][:at], extra, *node[1][at:]])

    def root(self) -> _Edit | None:
        new = self.choose([None, [], "", 0, [self.doc], {"format": self.doc}])
        return new, Mutation("root", "", f"document replaced by {json_short(new)}")


MUTATION_OPS: Final = (
    "delete",
    "unknown_field",
    "rename_key",
    "retype",
    "int_bound",
    "string",
    "boolean",
    "other_value",
    "transplant",
    "doc_string",
    "exchange",
    "list_duplicate",
    "list_truncate",
    "list_reorder",
    "list_append",
    "root",
)
"""The kinds of edit `mutate` makes; "root" (the whole document replaced) is drawn rarely."""


def mutate(doc: Any, pool: Pool, chooser: Chooser, *, ops: Sequence[str] = MUTATION_OPS) -> Mutant:
    """The document with one to three edits (mostly one), each of a kind drawn from `ops` and
    applied at a place drawn among those where it applies."""
    common = [op for op in ops if op != "root"] or list(ops)
    for _retry in range(5):  # edits that undo each other leave the document as it was
        rounds = (1, 1, 1, 1, 2, 3)[chooser.below(6)]
        edits: list[Mutation] = []
        current = doc
        for _ in range(rounds):
            for _attempt in range(20):
                op = "root" if "root" in ops and chooser.below(64) == 0 else pick(chooser, common)
                edit: _Edit | None = getattr(_Mutator(current, pool, chooser), op)()
                if edit is not None:
                    current = edit[0]
                    edits.append(edit[1])
                    break
            if not isinstance(current, dict | list):
                break
        if not json_equal(current, doc):
            break
    return Mutant(current, tuple(edits))
