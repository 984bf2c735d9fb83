"""What a game's OpenSpiel codec is made of, free of OpenSpiel itself, so that a game package can
declare its codec (`specs/<game>/spiel.py`) without importing the adapter (`tools.spiel`).

A codec gives a game a FIXED range of integer action ids: an atomic action is one id, a
compound choice a sequence of sub-decision ids ending with a commit id (`tools.spiel.adapter`
says how the adapter walks them). `IdRanges` lays the ids out in named blocks, `table_tree`
serves the legal sequences of one state, `preset_specs` names one OpenSpiel game per preset.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from kernel.roles import AssembledGame
from kernel.variants import Variant

if TYPE_CHECKING:
    import numpy as np


class ActionCodec(Protocol):
    """A game's fixed action-id range and the decomposition of its actions into ids."""

    num_distinct_actions: int
    """Player ids are in [0, num_distinct_actions)."""
    max_chance_outcomes: int
    """Chance ids are in [0, max_chance_outcomes)."""
    observation_size: int

    def tokens(self, action: Any) -> tuple[int, ...]:
        """The ids that build a player action: one for an atomic action, or sub-decisions
        ending with a commit id for a compound one."""
        ...

    def chance_id(self, action: Any) -> int: ...

    def token_string(self, token: int) -> str:
        """A readable name for a player id (unique per id)."""
        ...

    def chance_string(self, token: int) -> str: ...

    def observation_tensor(
        self, observation: Mapping[str, Any], prefix: tuple[int, ...], out: np.ndarray[Any, Any]
    ) -> None:
        """Write the observation (`game.observe` of one side) and the visible pending prefix
        into `out` (zeroed, `observation_size` floats)."""
        ...


class IdRanges:
    """A codec's player ids as consecutive named blocks: `base[name]` is a block's first id,
    `total` the size of the whole range (`num_distinct_actions`)."""

    def __init__(self, sizes: Iterable[tuple[str, int]]) -> None:
        self.base: dict[str, int] = {}
        self.ranges: list[tuple[str, int, int]] = []
        at = 0
        for name, size in sizes:
            self.base[name] = at
            self.ranges.append((name, at, size))
            at += size
        self.total = at

    def find(self, token: int) -> tuple[str, int]:
        """The block `token` is in and its offset there."""
        for name, start, size in self.ranges:
            if start <= token < start + size:
                return name, token - start
        raise ValueError(f"no action id {token} (ids are 0..{self.total - 1})")


class LegalTree(Protocol):
    """The legal token sequences of one state, walked prefix by prefix."""

    def next_ids(self, prefix: tuple[int, ...]) -> list[int]:
        """The ids that extend `prefix` towards some legal sequence, ascending."""
        ...

    def action_at(self, prefix: tuple[int, ...]) -> Any | None:
        """The kernel action `prefix` builds when it is a whole legal sequence, else None."""
        ...


class TableTree:
    """A `LegalTree` over every legal action's token sequence (`ActionCodec.tokens`)."""

    def __init__(self, table: Mapping[tuple[int, ...], Any]) -> None:
        self.table = table
        self._next: dict[tuple[int, ...], list[int]] = {}

    def next_ids(self, prefix: tuple[int, ...]) -> list[int]:
        """Found once per prefix: the adapter asks again for every query of the same state."""
        ids = self._next.get(prefix)
        if ids is None:
            ids = self._next[prefix] = next_tokens(list(self.table), prefix)
        return list(ids)

    def action_at(self, prefix: tuple[int, ...]) -> Any | None:
        return self.table.get(prefix)


TOKEN_MEMO = 20_000
"""Actions whose token sequences a codec's memo keeps (`_tokens_of`): the actions of a game
recur from state to state (a unit to a hex), and a bound keeps the memo from growing without
end (its entries live as long as the process)."""

_MEMOS: dict[int, tuple[ActionCodec, dict[Any, tuple[int, ...]]]] = {}


def _tokens_of(codec: ActionCodec) -> dict[Any, tuple[int, ...]]:
    """The codec's memo of `tokens`, a pure function of the action (`ActionCodec.tokens`);
    the codec is held with it, so its id is never reused while the memo lives."""
    found = _MEMOS.get(id(codec))
    if found is None:
        found = _MEMOS[id(codec)] = (codec, {})
    return found[1]


def table_tree(codec: ActionCodec, actions: Sequence[Any]) -> TableTree:
    """The tree of `actions`' token sequences; two actions with one sequence are a codec bug.
    Each action's tokens are found once per codec (`TOKEN_MEMO`): building the tree of every
    state otherwise costs as much as listing its actions."""
    table: dict[tuple[int, ...], Any] = {}
    memo = _tokens_of(codec)
    for action in actions:
        try:
            seq = memo.get(action)
        except TypeError:  # an action that cannot be hashed is tokenised every time
            seq = codec.tokens(action)
        if seq is None:
            seq = codec.tokens(action)
            if len(memo) < TOKEN_MEMO:
                memo[action] = seq
        if seq in table:
            raise AssertionError(f"two legal actions encode as {seq}")
        table[seq] = action
    return TableTree(table)


@dataclass(frozen=True)
class Spec:
    """One registered game: the kernel game, the ruleset, the codec."""

    short_name: str
    long_name: str
    game: AssembledGame[Any, Any]
    variant: Variant
    codec: ActionCodec
    max_game_length: int
    """The declared cap on player decisions (sub-decisions included), reported as a truncation
    when reached; each game's module says why its value is enough."""


def next_tokens(sequences: Sequence[tuple[int, ...]], prefix: tuple[int, ...]) -> list[int]:
    """The ids that extend `prefix` towards some sequence, ascending."""
    n = len(prefix)
    return sorted({s[n] for s in sequences if len(s) > n and s[:n] == prefix})


def preset_specs(
    game: AssembledGame[Any, Any], codec: ActionCodec, max_game_length: Callable[[Variant], int]
) -> list[Spec]:
    """One registered game per preset of `game`, named `python_wargame_<game>_<preset>`: each
    name is one fixed ruleset with its own GameType, so `pyspiel.load_game(name)` needs no
    parameter to mean one thing."""
    return [
        Spec(
            f"python_wargame_{game.name}_{preset}",
            f"Python wargame kernel: {game.title} ({preset} preset)",
            game,
            variant,
            codec,
            max_game_length(variant),
        )
        for preset, variant in sorted(game.presets().items())
    ]
