"""The corpus extended by steered play: for the options no corpus game of a preset met (the
rules never asked for their readings there), one best-first search per preset
(`solvers.checking.steer_many`) toward every place in the rules' code that asks for any of
them (and the calls of the functions holding them, `approach.with_callers`); each position it
finds becomes a corpus game of its own (the actions from the set-up to it, and the position
with the option asked).

Built once per run, before the pairs, and shared by them all: each pair whose option the
seeded games never met then starts where the rules ask for it (`solvers.checking.from_corpus`),
instead of each pair steering from scratch within its own small budget.

Limits are counts (positions evaluated per option sought and preset); a wall-clock `deadline`
may stop it as well.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from kernel.roles import AssembledGame
from solvers.checking.approach import option_places, with_callers
from solvers.checking.corpus import Corpus, CorpusGame, Position
from solvers.checking.steer_many import steer_many
from solvers.checking.unreached import game_sources

STEERED = "steered"  # how a steered corpus game ended: at the position it was steered to
STEER_CORPUS_SECONDS = 20.0
"""Wall-clock time a run gives the steered extension of its corpus (the CLI only)."""
DEFAULT_SHARE = 0.75
"""The default preset's share of that time: every pair is explored under it, and under another
preset only when its rule is off there (a moot pair)."""


def extend_corpus(
    game: AssembledGame[Any, Any],
    corpus: Corpus,
    options: Iterable[str],
    *,
    nodes: int = 200,
    deadline: float | None = None,
) -> Corpus:
    """`corpus` with a steered game for each of `options` no corpus position of a preset
    asked for and steered play reached there; at most `nodes` positions evaluated per option
    sought and preset; the default preset first, with `DEFAULT_SHARE` of the time to
    `deadline`, the others an even share of the rest."""
    files = game_sources(game)
    places = {o: with_callers(option_places(files, o), files) for o in options}
    added: list[CorpusGame] = []
    first = game.catalogue.default_preset
    presets = sorted(game.presets(), key=lambda name: name != first)  # the default first
    for i, preset in enumerate(presets):
        targets = {o: p for o, p in places.items() if p and not corpus.asked(o, preset)}
        now = time.perf_counter()
        if not targets or (deadline is not None and now > deadline):
            continue
        part = DEFAULT_SHARE if preset == first else 1 / (len(presets) - i)
        share = None if deadline is None else now + (deadline - now) * part
        many = steer_many(
            game,
            corpus,
            preset,
            targets,
            files,
            nodes=nodes * len(targets),
            deadline=share,
            options=True,
        )
        for option, r in sorted(many.reached.items()):
            at = Position(len(r.actions), r.state, frozenset({option}))
            added.append(CorpusGame(preset, -1 - len(added), r.actions, (at,), STEERED))
    if not added:
        return corpus
    return Corpus((*corpus.games, *added), corpus.limit)
