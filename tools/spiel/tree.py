"""The legal id sequences of one state, built from the kernel's own (lazy) list of legal actions
as far as a walk reads them, never further.

The adapter asks, at every sub-step, for the ids that extend the pending prefix, and once a
prefix is whole, for the action it builds. A table of every action's token sequence answers
that too, but it builds every action of a lazy list (`kernel.choices.Mapped`, the SNC's
`MoveList`) and tokenises each, where the kernel itself builds only the one chosen: thousands
at an SNC reinforcement or Move phase. Here a codec may describe a part of the list by
*groups* instead (`part_groups`): a group's actions share a token prefix and differ in their
last id, which the codec computes from the part's cheap items (hexes, places) without building
an action; a group's ids are computed only when the walk reaches its prefix, and an action only
when its sequence is chosen. Any other part is tokenised action by action (`codec.tokens`).

A codec opts in with `part_groups(part) -> (groups, rest) | None`: `groups` a list of
`Group`s (or plain 4-tuples: a codec does not import this module), or `HeadedGroups` (many
groups, each under a first id of its own: a Move phase's units), and `rest` the index from
which the part's remaining actions are encoded one by one; and with `atomic_ids`, the id of
each atomic action as one function per action class (read directly, since every action of a
plain list is encoded). A built part (a list or tuple) is never offered to `part_groups`.

`HeadedGroups` are read in two steps: the root lists their first ids only, and a first id's
groups are looked up when the walk enters it. A Move phase offers every movable unit, a walk
enters one: the groups it does not enter cost one id each, no node and no tuple.

A leaf is the action's index in the whole listing (an int, not a pair with its part): the
action is read from the listing only once its sequence is chosen.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NamedTuple, Protocol

from kernel.choices import Chain
from kernel.spiel_codec import ActionCodec


class Group(NamedTuple):
    """Actions `part[start + i]` encoded as `(*prefix, ids_of(items)[i])`: their last ids
    are computed from the cheap `items` (hexes, places) only when a walk reaches `prefix`."""

    prefix: tuple[int, ...]
    items: Sequence[Any]
    ids_of: Callable[[Sequence[Any]], Sequence[int]]
    start: int


class HeadedGroups(Protocol):
    """Groups whose prefixes are not empty, read as far as a walk goes: the root asks for
    their first ids, and the groups under one first id when the walk enters it."""

    def first_ids(self) -> Iterable[int]:
        """Each group's first id (repeats allowed)."""
        ...

    def starting_with(self, token: int) -> Iterable[Group]:
        """The groups whose prefix begins with `token`."""
        ...


PartGroups = Callable[[Sequence[Any]], "tuple[list[Group] | HeadedGroups, int] | None"]

_Pending = tuple[Sequence[Any], Callable[[Sequence[Any]], Sequence[int]], int]
"""A group not yet entered: its items, how their ids are made, and its first leaf."""


class _Node:
    """A trie node: children by id, each a node or a leaf (an index in the listing), and the
    groups not yet entered: `pending` ones, and (at the root) `headed` ones with the index of
    their part, whose first ids show as `_DEFERRED` children until the walk enters them
    (`deferred`: those ids, once shown)."""

    __slots__ = ("deferred", "headed", "ids", "kids", "pending")

    def __init__(self) -> None:
        self.kids: dict[int, Any] = {}
        self.pending: list[_Pending] | None = None  # lists made only where needed
        self.ids: list[int] | None = None
        self.headed: list[tuple[HeadedGroups, int]] | None = None
        self.deferred: set[int] | None = None

    def wait(self, group: _Pending) -> None:
        """`group` is entered when this node is first expanded."""
        if self.pending is None:
            self.pending = [group]
        else:
            self.pending.append(group)

    def expand(self) -> dict[int, Any]:
        """The children, every pending group entered and every headed group's first id
        shown first."""
        if self.ids is not None:  # expanded and listed already
            return self.kids
        if self.pending:
            for items, ids_of, first in self.pending:
                _put(self.kids, ids_of(items), first)
            self.pending = None
        if self.headed and self.deferred is None:
            kids, deferred = self.kids, set()
            for headed, _ in self.headed:
                firsts = set(headed.first_ids())
                for token in firsts.intersection(kids):  # another part's prefix: shared
                    if type(kids[token]) is not _Node and kids[token] is not _DEFERRED:
                        raise AssertionError(f"a legal sequence is a prefix of another: {token}")
                kids.update(dict.fromkeys(firsts - kids.keys(), _DEFERRED))
                deferred |= firsts
            self.deferred = deferred
        return self.kids

    def enter(self, token: int) -> Any:
        """The child under `token` (`_MISSING` where there is none), the headed groups under
        it entered when it is first reached."""
        child = self.expand().get(token, _MISSING)
        if child is _MISSING or (type(child) is not _Node and child is not _DEFERRED):
            return child  # none, or a leaf
        deferred = self.deferred
        if deferred and token in deferred and self.headed:
            deferred.discard(token)
            if child is _DEFERRED:
                child = self.kids[token] = _Node()
            for headed, offset in self.headed:
                for prefix, items, ids_of, start in headed.starting_with(token):
                    node = child.node(prefix[1:]) if len(prefix) > 1 else child
                    node.wait((items, ids_of, offset + start))
        return child

    def node(self, prefix: tuple[int, ...]) -> _Node:
        """The node at `prefix` below this one, made where missing."""
        node = self
        for token in prefix:
            child = node.kids.get(token)
            if child is None:
                child = node.kids[token] = _Node()
            elif type(child) is not _Node:
                raise AssertionError(f"a legal sequence is a prefix of another at {prefix}")
            node = child
        return node


def _put(kids: dict[int, Any], ids: Sequence[int], first: int) -> None:
    """`kids` gains the leaves `first + i` under `ids[i]`."""
    _put_leaves(kids, ids, range(first, first + len(ids)))


def _put_leaves(kids: dict[int, Any], ids: Sequence[int], leaves: Iterable[int]) -> None:
    """`kids` gains `leaves` under `ids`, one each; two sequences alike, or one the prefix of
    another, are a codec bug (its sequences must be prefix-free)."""
    before = len(kids)
    kids.update(zip(ids, leaves))  # noqa: B905 - as many leaves as ids
    if len(kids) != before + len(ids):
        raise AssertionError(f"two legal actions encode alike (or one is a prefix): ids {ids}")


class ChoiceTree:
    """A `LegalTree` (`kernel.spiel_codec`) over the kernel's legal actions of one state."""

    __slots__ = ("legal", "root")

    def __init__(self, codec: ActionCodec, legal: Sequence[Any]) -> None:
        self.legal = legal
        self.root = _Node()
        find: PartGroups | None = getattr(codec, "part_groups", None)
        if type(legal) is not Chain:  # one part: no copy
            found = find(legal) if find is not None else None
            rest = 0 if found is None else self._groups(found[0], found[1], 0)
            if rest < len(legal):
                self._encode(codec, legal[rest:] if rest else legal, range(rest, len(legal)))
            return
        actions: list[Any] = []  # every part's built actions, encoded together at the end
        leaves: list[int] = []
        for part, offset in zip(legal.parts, legal.starts, strict=True):
            if type(part) in _BUILT:  # built already: nothing to group
                actions.extend(part)
                leaves.extend(range(offset, offset + len(part)))
                continue
            found = find(part) if find is not None else None
            rest = 0 if found is None else self._groups(found[0], found[1], offset)
            if rest < len(part):
                actions.extend(part[rest:] if rest else part)
                leaves.extend(range(offset + rest, offset + len(part)))
        if actions:
            self._encode(codec, actions, leaves)

    def _groups(self, groups: list[Group] | HeadedGroups, rest: int, offset: int) -> int:
        """A part's groups (the part begins at `offset` in the listing) put where the walk
        will find them; `rest`: where its remaining actions begin."""
        root = self.root
        if isinstance(groups, list):
            for prefix, items, ids_of, start in groups:
                node = root.node(prefix) if prefix else root
                node.wait((items, ids_of, offset + start))
        elif root.headed is None:
            root.headed = [(groups, offset)]
        else:
            root.headed.append((groups, offset))
        return rest

    def _encode(self, codec: ActionCodec, actions: Sequence[Any], leaves: Sequence[int]) -> None:
        """Actions already built (`leaves`: their indexes in the listing): when all are atomic,
        straight under the root in one update through the codec's `atomic_ids` (one call per
        action, no tuple); otherwise each along its prefix (`tokens` for the compound ones)."""
        kids = self.root.kids
        atomic: Mapping[type, Callable[[Any], int]] = getattr(codec, "atomic_ids", None) or {}
        try:
            ids = [atomic[type(a)](a) for a in actions]
        except KeyError:
            pass  # a compound action among them (or none of the codec's: `tokens` says)
        else:
            _put_leaves(kids, ids, leaves)
            return
        node = self.root.node
        for leaf, action in zip(leaves, actions, strict=True):
            one = atomic.get(type(action))
            seq = (one(action),) if one is not None else codec.tokens(action)
            at = kids if len(seq) == 1 else node(seq[:-1]).kids
            if seq[-1] in at:
                raise AssertionError(f"two legal actions encode as {seq} (or one is a prefix)")
            at[seq[-1]] = leaf

    def _at(self, prefix: tuple[int, ...]) -> Any:
        """The node or leaf at `prefix`; `_MISSING` where there is none."""
        node: Any = self.root
        for token in prefix:
            if type(node) is not _Node:
                return _MISSING
            node = node.enter(token)
        return node

    def next_ids(self, prefix: tuple[int, ...]) -> list[int]:
        """Ascending (a copy: the list is kept on its node)."""
        return list(self.sorted_ids(prefix))

    def sorted_ids(self, prefix: tuple[int, ...]) -> list[int]:
        """`next_ids` without the copy, kept per node: the adapter asks again at every query
        of the same state, and never changes what it is given."""
        node = self._at(prefix) if prefix else self.root
        if type(node) is not _Node:
            return []
        ids = node.ids
        if ids is None:
            ids = node.ids = sorted(node.expand())
        return ids

    def action_at(self, prefix: tuple[int, ...]) -> Any | None:
        leaf = self._at(prefix)
        if type(leaf) is not int:
            return None  # none, or a node
        return self.legal[leaf]


_BUILT = (list, tuple)
"""The classes of a part whose actions are built already: encoded one by one, never grouped."""
_MISSING: Any = object()
_DEFERRED: Any = object()
"""A headed group's first id, shown at the root but not entered yet."""
