"""The searches near where an option takes effect, in order, for one reading pair: the corpus
positions where the rules asked for its reading (`solvers.checking.from_corpus`); where the
game states the situation in which the readings' inputs differ (its own measure of how far a
position is from it: `solvers.checking.situations`), play steered toward it and the readings
compared at and around the positions reached (`solvers.checking.situated`); then the choices
around the corpus positions made otherwise (`solvers.checking.around`), or, where no corpus
position asked for the option, play steered toward the places in the rules' code that ask for
it (`solvers.checking.from_corpus.steered`); last, where the positions compared the same,
what each side is shown at the corpus positions where building its view asks for the option
(`solvers.checking.observed`: readings that change only what a side sees). Each has a share
of the pair's time and its own count limits; what each did is said in words.
"""

from __future__ import annotations

import time
from typing import Any

import attrs

from kernel.roles import AssembledGame
from kernel.variants import Variant
from solvers.checking.around import around, said_around
from solvers.checking.bounded_search import BUDGET
from solvers.checking.corpus import Corpus
from solvers.checking.differences import Witness
from solvers.checking.from_corpus import (
    AROUND_PER,
    POSITIONS,
    FromCorpus,
    Steered,
    from_corpus,
    steered,
)
from solvers.checking.observed import UNSHOWN, observed
from solvers.checking.situated import said_situated, situated
from solvers.checking.situations import Situation
from solvers.checking.steer import NODES


@attrs.frozen
class Near:
    """The corpus search and the steered search for a pair: a witness (or None), the limits
    they hit, and what they did, in words."""

    witness: Witness | None
    limits: tuple[str, ...]
    said: str


def near(
    game: AssembledGame[Any, Any],
    corpus: Corpus,
    va: Variant,
    vb: Variant,
    option: str,
    preset: str,
    *,
    positions: int,
    nodes: int,
    until: float | None,
    situation: Situation | None = None,
    situation_nodes: int = 0,
) -> Near:
    """The readings compared where the rules ask for `option`: at the corpus positions (at
    most `positions`, with a third of the time to `until`, a sixth where the game states the
    option's situation); then, where it does (`situation`: `solvers.checking.situations`), at
    and around the positions play steered toward it reaches (`solvers.checking.situated`: at
    most `situation_nodes` positions evaluated, three quarters of what is then left); then
    every action tried a few steps around the corpus positions (`solvers.checking.around`: at most
    `AROUND_PER` x `nodes` positions, a quarter of what is then left: guided play from those
    positions, which has the rest, finds more per second where the situation is common), or,
    where no corpus position asked for it, on play steered toward where the rules do (at
    most `nodes` positions, half of what is then left); last, each side's observation at
    the corpus positions where building it asks for the option (`solvers.checking.observed`:
    at most `positions` observed, half of what is then left)."""
    # where the game states the situation, its search has most of the time: it measures the
    # corpus positions too, and a position of a long game may take a while to compare
    share = 1 / 3 if situation is None else 1 / 6
    c = from_corpus(
        game, corpus, va, vb, option, preset, positions=positions, deadline=_part(until, share)
    )
    if c.witness is not None:
        return Near(c.witness, (), _said_corpus(c, positions))
    first = _said_corpus(c, positions)
    limits: tuple[str, ...] = (c.limit,)
    if situation is not None:
        t = situated(
            game,
            corpus,
            va,
            vb,
            option,
            preset,
            situation,
            nodes=situation_nodes,
            deadline=_part(until, 3 / 4),
        )
        first += "; " + said_situated(t, situation_nodes)
        if t.witness is not None:
            return Near(t.witness, (), first)
        limits += (t.limit,)
    if c.asked:  # the situation arose in the corpus: the choices around it made otherwise
        r = around(
            game,
            corpus,
            va,
            vb,
            option,
            preset,
            nodes=AROUND_PER * nodes,
            positions=c.looked,
            deadline=_part(until, 1 / 4),
        )
        said = f"{first}; {said_around(r)}"
        if r.witness is not None:
            return Near(r.witness, (), said)
        limits += (r.limit,)
    else:
        s = steered(game, corpus, va, vb, option, preset, nodes=nodes, deadline=_part(until, 1 / 2))
        said = f"{first}; {_said_steered(s, nodes)}"
        if s.witness is not None:
            return Near(s.witness, (), said)
        limits += (s.limit,)
    # the positions compared the same: what each side is shown there (half of what is left)
    o = observed(
        game, corpus, va, vb, option, preset, positions=positions, deadline=_part(until, 1 / 2)
    )
    said += "; " + o.said(positions)
    if o.limit != UNSHOWN:
        limits += (o.limit,)
    return Near(o.witness, () if o.witness else limits, said)  # guided play has the rest


def _part(until: float | None, part: float) -> float | None:
    """The end of `part` of the time from now to `until`."""
    if until is None:
        return None
    now = time.perf_counter()
    return now + max(0.0, until - now) * part


def _said_corpus(c: FromCorpus, cap: int) -> str:
    """What the corpus search did, in words."""
    if c.witness is not None:
        return (
            "corpus play: the readings part at a corpus position where the rules asked for "
            f"the option ({c.looked} of {c.asked} such positions looked at)"
        )
    if not c.asked:
        return "no corpus position asked for this option's reading"
    why = {
        "": "every one of them",
        BUDGET: "until its share of the budget ran out",
        POSITIONS: f"up to the cap of {cap}",
    }.get(c.limit, c.limit)
    return (
        f"no difference at the {c.looked} corpus positions looked at of {c.asked} where the "
        f"rules asked for its reading ({why})"
    )


def _said_steered(s: Steered, cap: int) -> str:
    """What the steered search did, in words."""
    if s.witness is not None:
        return (
            f"steered play: the readings part at a position where the rules ask for the "
            f"option, found after {s.evaluated} positions evaluated"
        )
    if not s.places:
        return "no place in the rules' code names this option, so play could not be steered"
    why = {
        "": "its frontier ran dry",
        BUDGET: "its share of the budget ran out",
        NODES: f"it reached its cap of {cap} positions",
    }.get(s.limit, s.limit)
    closest = "" if s.best >= 1_000 else f", the closest {s.best} blocks short of them"
    return (
        f"play steered toward the {s.places} places in the rules' code that ask for it "
        f"evaluated {s.evaluated} positions, {s.asked} where they asked, with no difference "
        f"({why}{closest if not s.asked else ''})"
    )
