"""The conformance suite every game must pass, in the manner of OpenSpiel's and pgx's shared
API tests. Each check raises AssertionError with a message naming the game and the step.

The mutation suite (issue 11) holds every game to its strict input contract: `build_corpus`
gathers real positions, actions and logs from seeded playouts of every preset, `mutate` edits
them generically over the JSON (a field deleted, added or renamed, a value of another type,
integers at and beyond bounds, non-ASCII strings, another valid id or stage from elsewhere, a
record from another position, lists duplicated, truncated or reordered), and
`check_state_mutant`, `check_action_mutant` and `check_log_mutant` require each mutant to be
refused naming a field or clauses, or to mean exactly what it says (re-encoded, it is the
mutant) and, for a position, to pass the position check with every successor
(`check_closure`). A failure is a `MutantFailure` whose `kind` says which promise broke.

tests/conformance runs these over every registered game and preset; tools/testing/fuzz.py runs the
same mutations through the `wargame` command at scale.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import Any, Final, Generic, Protocol, TypeVar

import attrs

from kernel.chance import sample
from kernel.codec import dump_json
from kernel.errors import IllegalAction, ImpossiblePosition, InvalidInput, WargameError
from kernel.game import CHANCE, Game
from kernel.playout import DEFAULT_MAX_STEPS, play, replay
from kernel.variants import Variant

S = TypeVar("S")
A = TypeVar("A")
T = TypeVar("T")


def check_step(game: Game[S, A], state: S) -> None:
    """At one position: probabilities, legal actions, codec round trips, hashing."""
    side = game.to_move(state)
    if side == CHANCE:
        outcomes = game.chance_outcomes(state)
        total = sum((p for _, p in outcomes), Fraction(0))
        assert total == 1, f"{game.name}: chance probabilities sum to {total}"
        assert all(p > 0 for _, p in outcomes), f"{game.name}: a chance outcome has p <= 0"
        assert not game.legal_actions(state), f"{game.name}: CHANCE to move but player actions"
        actions = [a for a, _ in outcomes]
    elif side is None:
        assert game.outcome(state) is not None, f"{game.name}: game over without an outcome"
        actions = []
    else:
        actions = list(game.legal_actions(state))
        assert len(set(actions)) == len(actions), f"{game.name}: duplicate legal actions"
    encoded = game.state_to_json(state)
    again = game.state_from_json(encoded)
    assert again == state, f"{game.name}: state JSON round trip changed the state"
    assert hash(again) == hash(state), f"{game.name}: equal states hash differently"
    assert dump_json(game.state_to_json(again)) == dump_json(encoded)
    for action in actions:
        a_json = game.action_to_json(action)
        assert game.action_from_json(a_json) == action, f"{game.name}: action round trip {a_json}"
        game.apply(state, action)  # every legal action applies


def check_illegal(game: Game[S, A], state: S, rng: random.Random, tries: int = 20) -> None:
    """Actions altered to unknown units or hexes are refused with clause IDs or a field."""
    side = game.to_move(state)
    if side is None or side == CHANCE:
        return
    legal = set(game.legal_actions(state))
    for action in list(legal)[:tries]:
        for mutated in _mutations(game.action_to_json(action), rng):
            try:
                candidate = game.action_from_json(mutated)
            except InvalidInput as exc:
                assert exc.field, f"{game.name}: InvalidInput without a field for {mutated}"
                continue
            if candidate in legal:
                continue
            try:
                game.apply(state, candidate)
            except IllegalAction as exc:
                assert exc.clauses, f"{game.name}: IllegalAction without clauses for {mutated}"
            except WargameError as exc:
                assert exc.clauses or exc.field, f"{game.name}: error names nothing: {mutated}"
            else:
                raise AssertionError(f"{game.name}: unlisted action applied: {mutated}")


def _mutations(action: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    out = []
    for key, value in action.items():
        if key == "type":
            continue
        if isinstance(value, str):
            for replacement in ("XX-UNKNOWN", "9999", "0000", f"{rng.randrange(10000):04d}"):
                out.append({**action, key: replacement})
        elif isinstance(value, bool):
            out.append({**action, key: not value})
        elif isinstance(value, int):
            out.append({**action, key: value + 1})
            out.append({**action, key: -1})
    return out


def check_playout(
    game: Game[S, A], variant: Variant, seed: int, max_steps: int = 5000, every: int = 1
) -> None:
    """A seeded random playout where every `every`-th position (from step `seed % every`, so
    seeds cover different steps) passes `check_step` and `check_illegal`, and replaying the
    whole action log reproduces the final state exactly. `every=1` checks each position;
    a game of a thousand steps with fifty actions a step is sampled in tests and checked
    whole by `python -m bench.conformance`."""
    if every < 1:
        raise ValueError(f"every must be at least 1, not {every}")
    rng = random.Random(seed)
    start = game.initial_state(variant)
    check_rng = random.Random(seed + 1)
    step = 0

    def on_step(before: S, action: A, after: S) -> None:
        nonlocal step
        step += 1
        if (step - 1) % every != seed % every:
            return
        check_step(game, before)
        check_illegal(game, before, check_rng, tries=3)

    result = play(game, start, rng, max_steps=max_steps, on_step=on_step)
    check_step(game, result.final)
    assert replay(game, start, list(result.actions)) == result.final, "replay differs"
    assert result.stop in ("ended", "no_action", "step_limit")


def sample_state(game: Game[S, A], variant: Variant, seed: int, steps: int) -> S:
    """A position reached by `steps` random steps (or the end) from the set-up."""
    rng = random.Random(seed)
    state = game.initial_state(variant)
    for _ in range(steps):
        side = game.to_move(state)
        if side is None:
            break
        if side == CHANCE:
            action = sample(game.chance_outcomes(state), rng)
        else:
            legal = list(game.legal_actions(state))
            if not legal:
                break
            action = rng.choice(legal)
        state = game.apply(state, action)
    return state


# --- mutation of real documents ----------------------------------------------------------------
#
# The checks below take real positions, actions and logs (from seeded playouts of every preset),
# change them one field at a time, generically over the JSON, and hold the game to its strict
# input contract: a mutant is either refused (InvalidInput / ImpossiblePosition naming a field
# or clauses) or it means exactly what it says (its re-encoding is the mutant itself) and is a
# position the rules can go on from (`check_position`, and so does every successor). The same
# mutation engine feeds the fuzz campaign (`tools/testing/fuzz.py`), with a seeded random chooser
# instead of hypothesis.

JsonPath = tuple[str | int, ...]
"""A place in a JSON document: object keys and array indices from the root."""

_ELEMENT: Final = "[]"


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


def json_path(path: JsonPath) -> str:
    """`("units", 3, "hex")` as `units[3].hex`, the form errors name fields in."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _norm(path: JsonPath) -> tuple[str, ...]:
    """The place without array indices: every unit's hex is at `units[].hex`."""
    return tuple(_ELEMENT if isinstance(p, int) else p for p in path)


def as_json(data: Any) -> Any:
    """Data as a JSON parser gives it back (lists, not tuples): what a user's input looks like."""
    return json.loads(dump_json(data))


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
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


def _parent(doc: Any, path: JsonPath) -> Any:
    node = doc
    for part in path[:-1]:
        node = node[part]
    return node


def json_replaced(doc: Any, path: JsonPath, value: Any) -> Any:
    """A copy of the document with the value at `path` replaced (the original is kept)."""
    if not path:
        return value
    out = _copy(doc)
    _parent(out, path)[path[-1]] = value
    return out


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON (True is not 1, 1.0 is not 1)."""
    return dump_json(a) == dump_json(b)


def _short(value: Any, limit: int = 80) -> str:
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
                norm = _norm(path)
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
        return self._values.get(_norm(path), [])

    def keys(self, path: JsonPath) -> list[str]:
        """The keys met in objects at this place."""
        return self._keys.get(_norm(path), [])


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
            op, json_path(path), f"{_short(old)} -> {_short(new)}"
        )

    def where(self, test: Callable[[JsonPath, Any], bool]) -> list[Node]:
        return [(p, v) for p, v in self.nodes if test(p, v)]

    # each op returns None when it applies nowhere in this document
    def delete(self) -> _Edit | None:
        nodes = self.where(lambda p, v: bool(p))
        if not nodes:
            return None
        path, old = self.choose(nodes)
        out = _copy(self.doc)
        parent = _parent(out, path)
        del parent[path[-1]]
        return out, Mutation("delete", json_path(path), f"removed {_short(old)}")

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
        out = _copy(self.doc)
        _parent(out, (*path, key))[key] = value
        return out, Mutation("unknown_field", json_path((*path, key)), f"added {_short(value)}")

    def rename_key(self) -> _Edit | None:
        nodes = self.where(lambda p, v: bool(p) and isinstance(p[-1], str))
        if not nodes:
            return None
        path = self.choose(nodes)[0]
        old = str(path[-1])
        new = self.choose([old + "s", old.upper(), old[:-1], old.replace("_", "-"), " " + old])
        if new == old:
            return None
        out = _copy(self.doc)
        parent = _parent(out, path)
        if new in parent:
            return None
        parent[new] = parent.pop(old)
        return out, Mutation("rename_key", json_path(path), f"key {old!r} -> {new!r}")

    def retype(self) -> _Edit | None:
        node = self.choose(self.nodes)
        options = [v for v in _retypes(node[1]) if not _same(v, node[1])]
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
            if p and test(v) and any(not _same(o, v) for o in self.pool.values(p))
        ]
        if not nodes:
            return None
        node = self.choose(nodes)
        others = [o for o in self.pool.values(node[0]) if not _same(o, node[1])]
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
            and not _same(v, value)
            and len(p) == len(path)
            and (_norm(p) == _norm(path) or (p[:-1] == path[:-1] and type(v) is type(value)))
        ]
        if not partners:
            return None
        other_path, other = self.choose(partners)
        out = json_replaced(json_replaced(self.doc, path, other), other_path, value)
        return out, Mutation(
            "exchange", json_path(path), f"swapped with {json_path(other_path)} ({_short(other)})"
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
        shapes = [x for x in (swapped, items[::-1], items[1:] + items[:1]) if not _same(x, items)]
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
        return new, Mutation("root", "", f"document replaced by {_short(new)}")


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
        if not _same(current, doc):
            break
    return Mutant(current, tuple(edits))


# --- the corpus of real documents --------------------------------------------------------------


@attrs.frozen
class LogCodec:
    """How logs are played, read and replayed. The log format belongs to a tool
    (`tools.playlog`), which the kernel does not import, so the tool supplies these."""

    play: Callable[[Variant, int, int], dict[str, Any]]
    """The log of a game played by the seeded agent: (variant, seed, max_steps) -> log JSON."""
    replay: Callable[[Any], Any]
    """Read a log, replay and check it (raising a WargameError when refused); return the log
    re-encoded from what was read."""
    reproduce: Callable[[Any], list[Any] | None]
    """The actions (JSON) the log's seeded agent plays from its variant and seed, as many as the
    log has; None when the log names no seeded agent (it is checked for legality only)."""
    external: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    """The same game logged as played by an external agent (a person, a client), if the
    format tells them apart."""


@attrs.frozen
class Corpus(Generic[S, A]):
    """Real documents of one game: the positions of seeded playouts of every preset, actions
    (legal ones and chance outcomes) of those positions, and logs of seeded games; with the
    pools of values met at each place, the material of every mutation."""

    game: Game[S, A]
    states: tuple[S, ...]
    state_docs: tuple[dict[str, Any], ...]
    moves: tuple[tuple[int, dict[str, Any]], ...]
    """(index in `states`, the JSON of an action or chance outcome of that position)."""
    logs: tuple[dict[str, Any], ...]
    state_pool: Pool
    action_pool: Pool
    log_pool: Pool


def build_corpus(
    game: Game[S, A],
    *,
    seeds: Sequence[int] = (0, 1),
    max_steps: int = 600,
    actions_per_state: int = 6,
    logs: LogCodec | None = None,
    log_lengths: Sequence[int] = (0, 7, 30, 120),
) -> Corpus[S, A]:
    """Every position met by seeded playouts of every preset (at most `max_steps` steps each),
    up to `actions_per_state` actions of each, and, given a LogCodec, the logs of seeded games
    cut at each of `log_lengths` steps and played to the end (some also as an external
    agent's)."""
    rng = random.Random(0)
    states: dict[S, None] = {}
    for preset in sorted(game.presets()):
        variant = game.presets()[preset]
        for seed in seeds:
            start = game.initial_state(variant)
            states[start] = None

            def keep(before: S, action: A, after: S) -> None:
                states[after] = None

            play(game, start, random.Random(seed), max_steps=max_steps, on_step=keep)
    ordered = tuple(states)
    moves: list[tuple[int, dict[str, Any]]] = []
    for i, state in enumerate(ordered):
        if game.to_move(state) == CHANCE:
            choices = [a for a, _ in game.chance_outcomes(state)]
        elif game.to_move(state) is None:
            choices = []
        else:
            choices = list(game.legal_actions(state))
        for action in rng.sample(choices, min(actions_per_state, len(choices))):
            moves.append((i, as_json(game.action_to_json(action))))
    log_docs: list[dict[str, Any]] = []
    if logs is not None:
        for preset in sorted(game.presets()):
            for seed in seeds:
                for n, length in enumerate((*log_lengths, DEFAULT_MAX_STEPS)):
                    log = as_json(logs.play(game.presets()[preset], seed, length))
                    log_docs.append(log)
                    if logs.external is not None and n % 2:
                        log_docs.append(as_json(logs.external(log)))
    docs = tuple(as_json(game.state_to_json(s)) for s in ordered)
    return Corpus(
        game=game,
        states=ordered,
        state_docs=docs,
        moves=tuple(moves),
        logs=tuple(log_docs),
        state_pool=Pool(docs),
        action_pool=Pool(m for _, m in moves),
        log_pool=Pool(log_docs),
    )


# --- what a mutant must be: refused with a reason, or exactly what it says ---------------------

REFUSED: Final = "refused"
ACCEPTED: Final = "accepted"
APPLIED: Final = "applied"
ILLEGAL: Final = "illegal"

FAILURE_KINDS: Final = (
    "crash",
    "unnamed_refusal",
    "wrong_refusal",
    "inexact",
    "impossible",
    "closure",
    "unlisted_applied",
    "seeded_log_edited",
)
"""How a game can break the input contract, for `MutantFailure.kind`: an exception that is not
a WargameError; a refusal naming neither field nor clause, or of the wrong kind; an accepted
input read back as something else; an accepted position that fails the position check or
cannot be played from; a legal action leading to a position the codec refuses; an action
applied that is not listed; a seeded agent's log accepted with actions that agent would not
play."""


class MutantFailure(AssertionError):
    """A mutant handled against the contract; `kind` (one of FAILURE_KINDS) groups them."""

    def __init__(self, message: str, kind: str) -> None:
        super().__init__(message)
        self.kind = kind


def _fail(
    game: Game[Any, Any], what: str, mutant: Mutant | None, problem: str, kind: str
) -> MutantFailure:
    edit = f" ({mutant.describe()})" if mutant is not None and mutant.edits else ""
    return MutantFailure(f"{game.name}: {what}{edit}: {problem}", kind)


def _refused(
    game: Game[Any, Any], what: str, mutant: Mutant, exc: WargameError, kinds: tuple[type, ...]
) -> str:
    if not isinstance(exc, kinds):
        names = "/".join(k.__name__ for k in kinds)
        raise _fail(
            game, what, mutant, f"refused as {exc.kind}, not {names}: {exc}", "wrong_refusal"
        )
    if not (exc.field or exc.clauses):
        raise _fail(
            game, what, mutant, f"refused naming no field or clause: {exc}", "unnamed_refusal"
        )
    return REFUSED


def _crash(game: Game[Any, Any], what: str, mutant: Mutant | None, exc: Exception) -> MutantFailure:
    problem = f"raised {type(exc).__name__}: {exc} (not a WargameError)"
    return _fail(game, what, mutant, problem, "crash")


def position_problem(game: Game[S, A], state: S) -> str | None:
    """Why the codec would refuse a position, or None: `check_position` (when the game has
    it) and the state's own JSON read back to the same state."""
    try:
        check = getattr(game, "check_position", None)
        if check is not None:
            check(state)
        again = game.state_from_json(game.state_to_json(state))
    except WargameError as exc:
        return f"{exc.kind} at {exc.field or '-'} {list(exc.clauses)}: {exc.message}"
    if again != state:
        return "its JSON reads back as another state"
    return None


def check_closure(
    game: Game[S, A],
    state: S,
    *,
    max_successors: int | None = None,
    mutant: Mutant | None = None,
    what: str = "accepted position",
) -> None:
    """An accepted position is one play can go on from: it passes the position check, its
    legal actions or chance outcomes can be listed, each applies, and each successor passes
    the position check too (the rules never lead from an accepted position to one the codec
    refuses). `max_successors` bounds the successors tried (evenly spread) when given."""
    try:
        problem = position_problem(game, state)
        if problem is not None:
            raise _fail(game, what, mutant, f"fails the position check: {problem}", "impossible")
        side = game.to_move(state)
        if side is None:
            if game.outcome(state) is None:
                raise _fail(game, what, mutant, "play is over without an outcome", "impossible")
            return
        if side == CHANCE:
            outcomes = list(game.chance_outcomes(state))
            total = sum((p for _, p in outcomes), Fraction(0))
            if total != 1 or any(p <= 0 for _, p in outcomes):
                problem = f"chance probabilities sum to {total}"
                raise _fail(game, what, mutant, problem, "impossible")
            actions = [a for a, _ in outcomes]
        else:
            actions = list(game.legal_actions(state))
    except WargameError as exc:
        problem = f"play cannot go on from it: {exc.kind}: {exc}"
        raise _fail(game, what, mutant, problem, "impossible") from exc
    except AssertionError:
        raise
    except Exception as exc:
        raise _crash(game, what, mutant, exc) from exc
    if max_successors is not None and len(actions) > max_successors:
        step = len(actions) / max_successors
        actions = [actions[int(i * step)] for i in range(max_successors)]
    for action in actions:
        try:
            after = game.apply(state, action)
            problem = position_problem(game, after)
        except WargameError as exc:
            problem = f"the listed action {game.action_to_json(action)} is refused: {exc}"
            raise _fail(game, what, mutant, problem, "impossible") from exc
        except Exception as exc:
            raise _crash(game, what, mutant, exc) from exc
        if problem is not None:
            problem = (
                f"the rules lead by {_short(game.action_to_json(action))} to a position the "
                f"codec refuses: {problem}"
            )
            raise _fail(game, what, mutant, problem, "closure")


def check_state_mutant(
    game: Game[S, A], mutant: Mutant, *, max_successors: int | None = None
) -> str:
    """A mutated state is refused (InvalidInput / ImpossiblePosition naming a field or
    clauses), or it reads as a state whose JSON is the mutant exactly and from which play goes
    on (`check_closure`). Returns REFUSED or ACCEPTED; raises MutantFailure."""
    what = "state mutant"
    try:
        state = game.state_from_json(mutant.doc)
    except WargameError as exc:
        return _refused(game, what, mutant, exc, (InvalidInput, ImpossiblePosition))
    except Exception as exc:
        raise _crash(game, what, mutant, exc) from exc
    try:
        again = game.state_to_json(state)
    except Exception as exc:
        raise _crash(game, what, mutant, exc) from exc
    if not _same(again, mutant.doc):
        raise _fail(game, f"accepted {what}", mutant, _difference(mutant.doc, again), "inexact")
    check_closure(
        game, state, max_successors=max_successors, mutant=mutant, what=f"accepted {what}"
    )
    return ACCEPTED


def check_action_mutant(game: Game[S, A], state: S, mutant: Mutant) -> str:
    """A mutated action is refused (InvalidInput naming a field), or it reads as an action
    whose JSON is the mutant exactly, which `apply` then either refuses (IllegalAction with
    clauses, or InvalidInput naming a field) or applies, only if it is listed, to a position
    that passes the position check. Returns REFUSED, ILLEGAL or APPLIED; raises
    MutantFailure."""
    what = "action mutant"
    try:
        action = game.action_from_json(mutant.doc)
    except WargameError as exc:
        return _refused(game, what, mutant, exc, (InvalidInput, ImpossiblePosition))
    except Exception as exc:
        raise _crash(game, what, mutant, exc) from exc
    try:
        again = game.action_to_json(action)
        side = game.to_move(state)
        listed = (
            [a for a, _ in game.chance_outcomes(state)]
            if side == CHANCE
            else list(game.legal_actions(state))
        )
    except Exception as exc:
        raise _crash(game, what, mutant, exc) from exc
    if not _same(again, mutant.doc):
        raise _fail(game, f"accepted {what}", mutant, _difference(mutant.doc, again), "inexact")
    try:
        after = game.apply(state, action)
    except IllegalAction as exc:
        if not exc.clauses:
            problem = f"refused naming no clause: {exc}"
            raise _fail(game, what, mutant, problem, "unnamed_refusal") from exc
        return ILLEGAL
    except InvalidInput as exc:
        if not exc.field:
            problem = f"refused naming no field: {exc}"
            raise _fail(game, what, mutant, problem, "unnamed_refusal") from exc
        return ILLEGAL
    except WargameError as exc:
        problem = f"refused as {exc.kind}: {exc}"
        raise _fail(game, what, mutant, problem, "wrong_refusal") from exc
    except Exception as exc:
        raise _crash(game, what, mutant, exc) from exc
    if action not in listed:
        raise _fail(game, what, mutant, "applied, though not a listed action", "unlisted_applied")
    refusal = position_problem(game, after)
    if refusal is not None:
        problem = f"applied, to a position the codec refuses: {refusal}"
        raise _fail(game, what, mutant, problem, "closure")
    return APPLIED


def check_log_mutant(game: Game[Any, Any], mutant: Mutant, logs: LogCodec) -> str:
    """A mutated log is refused (a WargameError naming a field or clauses), or it replays, its
    re-encoding is the mutant exactly, and, when it names a seeded agent, its actions are the
    ones that agent plays. Returns REFUSED or ACCEPTED; raises MutantFailure."""
    what = "log mutant"
    try:
        again = logs.replay(mutant.doc)
    except WargameError as exc:
        return _refused(game, what, mutant, exc, (WargameError,))
    except Exception as exc:
        raise _crash(game, what, mutant, exc) from exc
    if not _same(again, mutant.doc):
        raise _fail(game, f"accepted {what}", mutant, _difference(mutant.doc, again), "inexact")
    try:
        seeded = logs.reproduce(mutant.doc)
    except Exception as exc:
        raise _crash(game, what, mutant, exc) from exc
    if seeded is not None and not _same(seeded, mutant.doc.get("actions")):
        problem = "it names a seeded agent, which would not have played these actions"
        raise _fail(game, f"accepted {what}", mutant, problem, "seeded_log_edited")
    return ACCEPTED


def _difference(sent: Any, read: Any) -> str:
    """Where a document read back differs from what was sent (the first few places)."""
    sent_nodes = {json_path(p): v for p, v in json_nodes(as_json(sent))}
    read_nodes = {json_path(p): v for p, v in json_nodes(as_json(read))}
    places = []
    for place in sorted(set(sent_nodes) | set(read_nodes)):
        a, b = sent_nodes.get(place, _ABSENT), read_nodes.get(place, _ABSENT)
        if a is _ABSENT or b is _ABSENT:
            if _parent_path(place) in sent_nodes and _parent_path(place) in read_nodes:
                places.append((place, a, b))
        elif not (isinstance(a, dict | list) and isinstance(b, dict | list)) and not _same(a, b):
            places.append((place, a, b))
    shown = ", ".join(f"{p or '$'}: sent {_shown(a)}, read {_shown(b)}" for p, a, b in places[:4])
    more = f" and {len(places) - 4} more" if len(places) > 4 else ""
    return f"accepted but read back differently ({shown or 'the shapes differ'}{more})"


_ABSENT: Final = object()


def _shown(value: Any) -> str:
    return "nothing" if value is _ABSENT else _short(value, 40)


def _parent_path(place: str) -> str:
    """`units[3].hex` -> `units[3]`, `units[3]` -> `units`, `turn` -> ``."""
    cut = max(place.rfind("."), place.rfind("["))
    return place[: max(cut, 0)]
