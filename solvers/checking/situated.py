"""Two readings compared where the game's own measure says they may part
(`solvers.checking.situations`).

The corpus search compares the readings where the rules asked for an option; the rules often
ask with inputs under which both readings answer the same. Where the game states the
situation in which the readings' inputs differ (a distance, 0 there), play is steered toward
it from the corpus positions (`situations.toward`), and at each distinct position it finds at
distance 0 the readings are compared, with every action tried a few steps on
(`around.around_position`: the position itself, what may be done there, and where each
action leads). A difference is confirmed by replaying the path from the set-up (the corpus
game's log, then the steered steps, then the steps around) under both readings, so the
witness is a log legal under both from the set-up.

Limits are counts: positions the steered search evaluates (`nodes`), positions expanded
around the distance-0 positions (`AROUND_PER` x `nodes` in all, at most `PER_ZERO` from
each); a wall-clock `deadline` may stop both as well.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import attrs

from kernel.errors import WargameError
from kernel.roles import AssembledGame
from kernel.variants import Variant
from solvers.checking.around import DEPTH, UNCONFIRMED, around_position
from solvers.checking.around import NODES as AROUND_NODES
from solvers.checking.bounded_search import BUDGET
from solvers.checking.corpus import Corpus
from solvers.checking.differences import Witness, after_action, compare
from solvers.checking.situations import NODES, Situation, toward
from solvers.checking.steer import Reached
from solvers.checking.witness_replay import replay

FOUND_BY = "play steered toward the situation"
AROUND_PER = 4
"""Positions the search around the distance-0 positions may expand in all, per position the
steered search may evaluate."""
PER_ZERO = 60
"""Positions expanded around any one distance-0 position at most (so several are searched)."""


@attrs.frozen
class Situated:
    """What the situation search found: a witness (or None), the positions evaluated, the
    distinct positions met at distance 0 (compared there and around), the positions expanded
    around them, the closest distance seen, and the limit that ended it ("" when the frontier
    ran dry or a witness was found)."""

    witness: Witness | None
    evaluated: int
    zeros: int
    expanded: int
    best: int
    limit: str


def situated(
    game: AssembledGame[Any, Any],
    corpus: Corpus,
    va: Variant,
    vb: Variant,
    option: str,
    preset: str,
    distance: Situation,
    *,
    nodes: int,
    deadline: float | None = None,
) -> Situated:
    """The first difference between readings `va` and `vb` of `option` at or around a position
    that play steered by `distance` from the corpus positions of `preset` reaches at distance
    0; at most `nodes` positions evaluated and `AROUND_PER` x `nodes` expanded around."""
    cap = AROUND_PER * nodes
    witness: list[Witness] = []
    zeros: list[int] = [0, 0]  # distance-0 positions searched around, positions expanded

    def differs(here: Reached) -> bool:
        left = cap - zeros[1]
        if left <= 0:
            return True
        r = around_position(
            game,
            va,
            vb,
            option,
            here.actions,
            here.state,
            nodes=min(PER_ZERO, left),
            deadline=deadline,
            order=distance,
        )
        zeros[0] += 1
        zeros[1] += r.expanded
        found = r.witness
        if found is None and r.limit == UNCONFIRMED:
            found = on_the_way(game, va, vb, here.actions, deadline)
        if found is not None:
            witness.append(attrs.evolve(found, found_by=FOUND_BY))
        return bool(witness) or zeros[1] >= cap

    s = toward(
        game, corpus, preset, distance, nodes=nodes, enough=nodes, deadline=deadline, stop=differs
    )
    w = witness[0] if witness else None
    limit = s.limit
    if w is not None:
        limit = ""
    elif deadline is not None and time.perf_counter() > deadline:
        limit = BUDGET
    elif zeros[1] >= cap and s.reached:
        limit = AROUND_NODES
    return Situated(w, s.evaluated, zeros[0], zeros[1], s.best, limit)


def on_the_way(
    game: AssembledGame[Any, Any],
    va: Variant,
    vb: Variant,
    actions: Sequence[Any],
    deadline: float | None = None,
) -> Witness | None:
    """The first place the readings part along `actions` from the set-up (a log of reading A
    to a position where they differ, along which they parted before): the position where
    reading B refuses an action of the log, or where an action leads the two apart; replayed
    from the set-up under both (`witness_replay.replay`). None: they do not part on the way
    (or the wall-clock `deadline` passed first)."""
    a, b = game.initial_state(va), game.initial_state(vb)
    log = [game.action_to_json(x) for x in actions]
    for i, action in enumerate(actions):
        if deadline is not None and time.perf_counter() > deadline:
            return None
        try:
            na = game.apply(a, action)
        except WargameError:
            return None  # no log of reading A
        try:
            nb = game.apply(b, action)
        except WargameError:
            diff = compare(game, a, b)
            return None if diff is None else replay(game, va, vb, log[:i], diff)
        if not _alike(na, nb, vb):
            diff = after_action(game, action, na, nb)
            if diff is not None:
                return replay(game, va, vb, log[:i], diff)
        a, b = na, nb
    return None


def _alike(a: Any, b: Any, vb: Variant) -> bool:
    """Whether two states are the same but for their variant: their fields compared (a quick
    test; where it fails the positions are compared as the codec writes them)."""
    cls = type(a)
    if attrs.has(cls) and "variant" in attrs.fields_dict(cls):
        return bool(attrs.evolve(a, variant=vb) == b)
    return False


def said_situated(s: Situated, cap: int) -> str:
    """What the situation search did, in words (`cap`: its cap of positions evaluated)."""
    if s.witness is not None:
        return (
            "play steered toward the situation where the readings' inputs differ (the game's "
            f"own measure): the readings part at or within {DEPTH} steps of a position it "
            f"reached, found after {s.evaluated} positions evaluated and {s.expanded} expanded "
            "around"
        )
    why = {
        "": "its frontier ran dry",
        BUDGET: "its share of the budget ran out",
        NODES: f"it reached its cap of {cap} positions",
        AROUND_NODES: f"the search around them reached its cap of {AROUND_PER * cap} positions",
    }.get(s.limit, s.limit)
    if not s.zeros:
        closest = "no position read" if s.best >= 1_000 else f"the closest at distance {s.best}"
        return (
            "play steered toward the situation where the readings' inputs differ (the game's "
            f"own measure) evaluated {s.evaluated} positions, none at distance 0 ({closest}; "
            f"{why})"
        )
    return (
        "play steered toward the situation where the readings' inputs differ (the game's own "
        f"measure) evaluated {s.evaluated} positions, {s.zeros} at distance 0, and found no "
        f"difference there nor within {DEPTH} steps of them ({s.expanded} positions expanded; "
        f"{why})"
    )
