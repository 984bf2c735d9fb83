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
`Group`s (or plain 4-tuples: a codec does not import this module), and `rest` the index from
which the part's remaining actions are encoded one by one; and with `atomic_ids`, the id of
each atomic action as one function per action class (read directly, since every action of a
plain list is encoded).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple

from kernel.choices import Chain
from kernel.spiel_codec import ActionCodec


class Group(NamedTuple):
    """Actions `seq[start + i]` encoded as `(*prefix, ids_of(items)[i])`: their last ids
    are computed from the cheap `items` (hexes, places) only when a walk reaches `prefix`."""

    prefix: tuple[int, ...]
    items: Sequence[Any]
    ids_of: Callable[[Sequence[Any]], Sequence[int]]
    seq: Sequence[Any]
    start: int


PartGroups = Callable[[Sequence[Any]], "tuple[list[Group], int] | None"]

_Pending = tuple[
    tuple[int, ...], Sequence[Any], Callable[[Sequence[Any]], Sequence[int]], Sequence[Any], int
]


class _Node:
    """A trie node: children by id, each a node or a leaf `(seq, index)` (the action is
    `seq[index]`, built only when it is chosen), and the groups not yet entered."""

    __slots__ = ("ids", "kids", "pending")

    def __init__(self) -> None:
        self.kids: dict[int, Any] = {}
        self.pending: list[_Pending] = []
        self.ids: list[int] | None = None

    def expand(self) -> dict[int, Any]:
        """The children, every pending group entered first."""
        if self.pending:
            for _, items, ids_of, seq, start in self.pending:
                _put(self.kids, ids_of(items), seq, start)
            self.pending = []
        return self.kids


def _put(kids: dict[int, Any], ids: Sequence[int], seq: Sequence[Any], start: int) -> None:
    """`kids` gains the leaves `(seq, start + i)` under `ids[i]`; two sequences alike, or one
    the prefix of another, are a codec bug (its sequences must be prefix-free)."""
    before = len(kids)
    leaves = zip(itertools.repeat(seq), range(start, start + len(ids)))
    kids.update(zip(ids, leaves))  # noqa: B905 - as many leaves as ids
    if len(kids) != before + len(ids):
        raise AssertionError(f"two legal actions encode alike (or one is a prefix): ids {ids}")


class ChoiceTree:
    """A `LegalTree` (`kernel.spiel_codec`) over the kernel's legal actions of one state."""

    __slots__ = ("root",)

    def __init__(self, codec: ActionCodec, legal: Sequence[Any]) -> None:
        self.root = root = _Node()
        groups: PartGroups | None = getattr(codec, "part_groups", None)
        atomic: Mapping[type, Callable[[Any], int]] | None = getattr(codec, "atomic_ids", None)
        parts = legal.parts if type(legal) is Chain else (legal,)
        found_all = [groups(p) if groups is not None else None for p in parts]
        if type(legal) is not Chain and found_all[0] is None:
            # a plain list: no copy, the leaves made as they are entered
            self._encode(codec, atomic, legal, zip(itertools.repeat(legal), range(len(legal))))
            return
        actions: list[Any] = []  # every part's built actions, encoded together at the end
        leaves: list[tuple[Sequence[Any], int]] = []
        for part, found in zip(parts, found_all, strict=True):
            if found is None:
                actions.extend(part)
                leaves.extend(zip(itertools.repeat(part), range(len(part))))
                continue
            found_groups, rest = found
            for group in found_groups:
                prefix = group[0]
                (self._node(prefix) if prefix else root).pending.append(group)
            if rest < len(part):
                actions.extend(part[rest:])
                leaves.extend(zip(itertools.repeat(part), range(rest, len(part))))
        if actions:
            self._encode(codec, atomic, actions, iter(leaves))

    def _encode(
        self,
        codec: ActionCodec,
        atomic: Mapping[type, Callable[[Any], int]] | None,
        actions: Sequence[Any],
        leaves: Iterator[tuple[Sequence[Any], int]],
    ) -> None:
        """Actions already built: atomic ones straight under the root in one update, through
        the codec's `atomic_ids` where it has them (one call per action, no tuple), compound
        ones along their prefixes."""
        kids = self.root.kids
        if atomic is not None:
            try:
                ids = [atomic[type(a)](a) for a in actions]
            except KeyError:
                pass  # a compound action among them (or none of the codec's: `tokens` says)
            else:
                before = len(kids)
                kids.update(zip(ids, leaves))  # noqa: B905 - one leaf per action
                if len(kids) != before + len(ids):
                    raise AssertionError(f"two legal actions encode alike: ids {ids}")
                return
        for action, leaf in zip(actions, leaves, strict=True):
            one = atomic.get(type(action)) if atomic is not None else None
            seq = (one(action),) if one is not None else codec.tokens(action)
            node = kids if len(seq) == 1 else self._node(seq[:-1]).kids
            if seq[-1] in node:
                raise AssertionError(f"two legal actions encode as {seq} (or one is a prefix)")
            node[seq[-1]] = leaf

    def _node(self, prefix: tuple[int, ...]) -> _Node:
        """The node at `prefix`, made where missing."""
        node = self.root
        if len(prefix) == 1:
            child = node.kids.get(prefix[0])
            if child is None:
                child = node.kids[prefix[0]] = _Node()
            elif not isinstance(child, _Node):
                raise AssertionError(f"a legal sequence is a prefix of another at {prefix}")
            return child
        for token in prefix:
            child = node.kids.get(token)
            if child is None:
                child = node.kids[token] = _Node()
            elif not isinstance(child, _Node):
                raise AssertionError(f"a legal sequence is a prefix of another at {prefix}")
            node = child
        return node

    def _at(self, prefix: tuple[int, ...]) -> Any:
        """The node or leaf at `prefix`; `_MISSING` where there is none."""
        node: Any = self.root
        for token in prefix:
            if not isinstance(node, _Node):
                return _MISSING
            node = node.expand().get(token, _MISSING)
            if node is _MISSING:
                return _MISSING
        return node

    def next_ids(self, prefix: tuple[int, ...]) -> list[int]:
        """Ascending (a copy: the list is kept on its node)."""
        return list(self.sorted_ids(prefix))

    def sorted_ids(self, prefix: tuple[int, ...]) -> list[int]:
        """`next_ids` without the copy, kept per node: the adapter asks again at every query
        of the same state, and never changes what it is given."""
        node = self._at(prefix)
        if not isinstance(node, _Node):
            return []
        if node.ids is None:
            node.ids = sorted(node.expand())
        return node.ids

    def action_at(self, prefix: tuple[int, ...]) -> Any | None:
        node = self._at(prefix)
        if node is _MISSING or isinstance(node, _Node):
            return None
        seq, index = node
        return seq[index]


_MISSING: Any = object()
