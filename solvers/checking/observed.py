"""Readings that change only what a side is shown: the same position observed under both.

The explorer's other searches compare what each reading lets happen (the side to move, the
actions, chance, the result, the position an action leads to); an option read only where a
side's view is built (which enemy units a side sees, when a stack is revealed) leaves all of
those the same, and no such search can tell its readings apart. Here each side's observation
(the kernel contract's `observe(state, side)`) is compared under both readings at the corpus
positions where building it asks for the option, earliest first, within a count of positions
(and a wall-clock deadline if any): the first difference is a witness, the corpus game's log
to the position, replayed from the set-up under both readings to the same position (the log
must be legal under both and the positions equal, as every witness's).

A difference here never makes a pair equivalent by its absence: only a proof does.

Works on any game through the kernel contract (solvers never import specs).
"""

from __future__ import annotations

import time
from typing import Any

import attrs

from kernel.roles import AssembledGame
from kernel.variants import Variant, consultations
from solvers.checking.bounded_search import BUDGET
from solvers.checking.corpus import Corpus, CorpusGame
from solvers.checking.differences import Difference, Witness, rebind, seen_differently
from solvers.checking.unread import game_root, names_in
from solvers.checking.witness_replay import replay

FOUND_BY = "observations of corpus play"
POSITIONS = "observed positions"  # the cap of positions observed was reached
UNSHOWN = "unshown"  # no module building a side's view names the option: nothing observed

OBSERVED = 400
"""Corpus positions whose observations are built, unless told."""


@attrs.frozen
class Observed:
    """What the comparison of observations found: the witness (None: no difference), the
    positions observed, those where building a side's view asked for the option, and the
    limit hit ("observed positions", "budget", or empty when every position was seen)."""

    witness: Witness | None
    observed: int
    asked: int
    limit: str

    def said(self, cap: int) -> str:
        """Where the search stopped, in words (a finding's detail)."""
        if self.limit == UNSHOWN:
            return "no module building a side's view names the option, so none was compared"
        stop = {
            POSITIONS: f"the cap of {cap} observed positions was reached",
            BUDGET: "its share of the wall-clock budget ran out",
        }.get(self.limit, "every corpus position of the preset was observed")
        return (
            f"each side's observation compared under both readings at {self.observed} corpus "
            f"positions, {self.asked} of which asked for the option's reading ({stop})"
        )


def shown_by_io(game: AssembledGame[Any, Any], option: str) -> bool:
    """Whether a module of the game's `io` package (where a side's view is built: the
    observation, the picture) names `option`; True when the game has no such package (no
    static answer: compare). An option no view names cannot change what a side is shown,
    so its pairs spend none of their time observing."""
    io = game_root(game.rules) / "io"
    if not io.is_dir():
        return True
    return any(option in names_in(str(path)) for path in sorted(io.rglob("*.py")))


def _positions(corpus: Corpus, preset: str) -> list[tuple[CorpusGame, int, Any]]:
    """Every kept position of the preset's corpus games (each with the positions before
    it), earliest step first, then by seed: (game, step, state). Worked out once per corpus
    and preset: every pair of a run asks for the same list."""
    held = _ORDERED.get(preset)
    if held is not None and held[0] is corpus:
        return held[1]
    found: dict[tuple[int, int], tuple[CorpusGame, int, Any]] = {}
    for g in corpus.games:
        if g.preset != preset:
            continue
        for p in g.positions:
            steps = range(p.step - len(p.before), p.step + 1)
            for step, state in zip(steps, (*p.before, p.state), strict=True):
                found.setdefault((step, g.seed), (g, step, state))
    order = [found[k] for k in sorted(found)]
    _ORDERED[preset] = (corpus, order)
    return order


_ORDERED: dict[str, tuple[Corpus, list[tuple[CorpusGame, int, Any]]]] = {}
"""The last corpus's positions in order, by preset (`_positions`)."""


def observed(
    game: AssembledGame[Any, Any],
    corpus: Corpus,
    va: Variant,
    vb: Variant,
    option: str,
    preset: str,
    *,
    positions: int = OBSERVED,
    deadline: float | None = None,
) -> Observed:
    """Each side's observation under `va` and `vb` at the preset's corpus positions where
    building it (under `va`, the corpus's own reading) asks for `option`, at most `positions`
    positions observed; the first difference, replayed from the set-up, is the witness.
    Nothing is observed where no view of the game names the option (`shown_by_io`)."""
    count = asked = 0
    if not shown_by_io(game, option):
        return Observed(None, 0, 0, UNSHOWN)
    for g, step, state in _positions(corpus, preset):
        if count >= positions:
            return Observed(None, count, asked, POSITIONS)
        if deadline is not None and time.perf_counter() > deadline:
            return Observed(None, count, asked, BUDGET)
        count += 1
        a = state if getattr(state, "variant", None) == va else rebind(game, state, va)
        sides = []
        for side in game.sides:
            with consultations() as ask:
                game.observe(a, side)
            if ask[option]:
                sides.append(side)
        if not sides:
            continue
        asked += 1
        diff = seen_differently(game, a, rebind(game, a, vb), tuple(sides))
        if diff is None:
            continue
        w = confirm(game, va, vb, [game.action_to_json(x) for x in g.actions[:step]], diff)
        if w is not None:
            return Observed(w, count, asked, "")
    return Observed(None, count, asked, "")


def confirm(
    game: AssembledGame[Any, Any], va: Variant, vb: Variant, log: list[Any], diff: Difference
) -> Witness | None:
    """The witness of `diff` when `log` replays from the set-up under both readings to the
    same position, shown as `diff` says there; None otherwise (an action refused, or the
    readings part on the way: a difference the other searches see)."""
    w = replay(game, va, vb, log, diff)
    return None if w is None else attrs.evolve(w, found_by=FOUND_BY)
