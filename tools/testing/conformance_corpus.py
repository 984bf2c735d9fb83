"""The corpus the mutation suite edits: real positions, actions and logs from seeded playouts.

`build_corpus` plays every preset of a game; `LogCodec` is how the corpus (and the checks in
`tools.testing.conformance_mutants`) reach a game's logs without importing the log tool.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

import attrs

from kernel.game import CHANCE
from kernel.playout import DEFAULT_MAX_STEPS, play
from kernel.roles import AssembledGame
from kernel.variants import Variant
from tools.testing.mutation_json import Pool, as_json

S = TypeVar("S")
A = TypeVar("A")


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

    game: AssembledGame[S, A]
    states: tuple[S, ...]
    state_docs: tuple[dict[str, Any], ...]
    moves: tuple[tuple[int, dict[str, Any]], ...]
    """(index in `states`, the JSON of an action or chance outcome of that position)."""
    logs: tuple[dict[str, Any], ...]
    state_pool: Pool
    action_pool: Pool
    log_pool: Pool


def build_corpus(
    game: AssembledGame[S, A],
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
