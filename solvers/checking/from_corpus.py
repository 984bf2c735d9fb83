"""Two readings compared where an option takes effect: at each position of the run's corpus
(`solvers.checking.corpus`) where the rules asked for the option's reading, the position read
under both readings, what each allows there and where each allowed action leads. A difference
is then confirmed by following the corpus game's log from the set-up under both readings
(`side_by_side.along`), so the witness is a log legal under both, from the set-up, to a
position where they part.

Where no corpus position asked for the option (a situation random play rarely makes), play is
steered toward the places in the rules' code that ask for it (`steered`).

Limits are counts (positions looked at, actions tried at each, positions the steered search
evaluates); a wall-clock `deadline` may stop each as well.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from kernel.errors import WargameError
from kernel.game import CHANCE
from kernel.roles import AssembledGame
from kernel.variants import Variant
from solvers.checking.approach import option_places
from solvers.checking.around import around, said_around
from solvers.checking.bounded_search import BUDGET
from solvers.checking.corpus import Corpus
from solvers.checking.differences import (
    Difference,
    Json,
    Witness,
    after_action,
    compare,
    rebind,
)
from solvers.checking.side_by_side import along
from solvers.checking.steer import NODES, Reached, steer
from solvers.checking.unreached import game_sources
from solvers.checking.witness_replay import replay

FOUND_BY = "corpus play"
STEERED = "steered play"
FROM_POSITION = "guided play from a corpus position"
POSITIONS = "corpus positions"  # the cap of positions looked at was reached
TRIED = 6
"""Actions tried under both readings at each corpus position besides the corpus game's own (a
seeded sample when more are legal): each costs two applications and a comparison, and a long
game has many positions, so the search goes wide over positions rather than deep at one."""
AROUND_PER = 5
"""Positions the search around corpus positions may expand per position the steered search
may evaluate (one count, `nodes`, scales both: each expands children the other does not)."""
ALONG = 200
"""The longest corpus log followed position by position when the plain replay of it does not
show the difference (the readings part another way before it)."""


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
) -> Near:
    """The readings compared where the rules ask for `option`: at the corpus positions (at
    most `positions`, with a third of the time to `until`), then every action tried a few
    steps around them (`solvers.checking.around`: at most `AROUND_PER` x `nodes` positions, a
    quarter of what is then left: guided play from those positions, which has the rest, finds
    more per second where the situation is common), or, where no
    corpus position asked for it, on play steered toward where the rules do (at most `nodes`
    positions, half of what is then left)."""
    c = from_corpus(
        game, corpus, va, vb, option, preset, positions=positions, deadline=_part(until, 1 / 3)
    )
    if c.witness is not None:
        return Near(c.witness, (), _said_corpus(c, positions))
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
        said = f"{_said_corpus(c, positions)}; {said_around(r)}"
        if r.witness is not None:
            return Near(r.witness, (), said)
        return Near(None, (c.limit, r.limit), said)  # guided play has the rest
    s = steered(game, corpus, va, vb, option, preset, nodes=nodes, deadline=_part(until, 1 / 2))
    said = f"{_said_corpus(c, positions)}; {_said_steered(s, nodes)}"
    return Near(s.witness, () if s.witness else (c.limit, s.limit), said)


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


@attrs.frozen
class FromCorpus:
    """What the corpus search found: a witness (or None), the positions where the option was
    asked and how many of them were looked at, and the limit that ended it ("" when it looked
    at every one or found a witness; "corpus positions"; "budget")."""

    witness: Witness | None
    asked: int
    looked: int
    limit: str


def from_corpus(
    game: AssembledGame[Any, Any],
    corpus: Corpus,
    va: Variant,
    vb: Variant,
    option: str,
    preset: str,
    *,
    positions: int = 400,
    tried: int = TRIED,
    deadline: float | None = None,
) -> FromCorpus:
    """The earliest difference between readings `va` and `vb` at a corpus position of
    `preset` where the rules asked for `option`, at most `positions` positions looked at
    (each once: a position met again in another game is skipped), `tried` actions at each."""
    where = list(corpus.where(option, preset))
    seen: set[int] = set()
    looked = 0
    for g, p in where:
        if looked >= positions:
            return FromCorpus(None, len(where), looked, POSITIONS)
        if deadline is not None and time.perf_counter() > deadline:
            return FromCorpus(None, len(where), looked, BUDGET)
        key = _key(p.state)
        if key is not None and key in seen:
            continue
        if key is not None:
            seen.add(key)
        looked += 1
        taken = g.actions[p.step] if p.step < len(g.actions) else None
        diff = _differs_here(game, p.state, va, vb, taken, random.Random(p.step), tried)
        if diff is None:
            continue
        found = _confirmed(game, va, vb, g.actions[: p.step], diff)
        if found is not None:
            return FromCorpus(found, len(where), looked, "")
    return FromCorpus(None, len(where), looked, "")


@attrs.frozen
class Steered:
    """What the steered search found for a pair: a witness (or None), the positions it
    evaluated, those where the rules asked for the option, the best approach level seen, and
    the limit that ended it."""

    witness: Witness | None
    evaluated: int
    asked: int
    best: int
    limit: str
    places: int  # the places in the rules' code that ask for the option


def steered(
    game: AssembledGame[Any, Any],
    corpus: Corpus,
    va: Variant,
    vb: Variant,
    option: str,
    preset: str,
    *,
    nodes: int = 120,
    deadline: float | None = None,
) -> Steered:
    """Play steered from the corpus positions toward the places where the rules ask for
    `option`'s reading (`solvers.checking.steer`), the readings compared at each position
    where they do; at most `nodes` positions evaluated."""
    files = game_sources(game)
    places = option_places(files, option)
    if not places:
        return Steered(None, 0, 0, 1_000, "", 0)
    witness: list[Witness] = []

    def differs(here: Reached) -> bool:
        diff = _differs_here(
            game, here.state, va, vb, None, random.Random(len(here.actions)), TRIED
        )
        if diff is not None:
            found = _confirmed(game, va, vb, here.actions, diff)
            if found is not None:
                witness.append(attrs.evolve(found, found_by=STEERED))
        return bool(witness)

    s = steer(
        game,
        corpus,
        preset,
        places,
        files,
        nodes=nodes,
        enough=nodes,
        deadline=deadline,
        stop=differs,
    )
    w = witness[0] if witness else None
    return Steered(w, s.evaluated, len(s.reached), s.best, "" if w else s.limit, len(places))


Start = tuple[Any, Any, list[Json]]
"""Where guided play may start: the positions under A and B and the log from the set-up."""


def corpus_starts(
    game: AssembledGame[Any, Any],
    corpus: Corpus,
    va: Variant,
    vb: Variant,
    option: str,
    preset: str,
) -> Callable[[int], Start | None]:
    """The i-th start for guided play among the corpus positions of `preset` where the rules
    asked for `option` (spread over them by a fixed stride; None when there is none, or one
    reading's position check refuses it)."""
    where = list(corpus.where(option, preset))

    def start(i: int) -> Start | None:
        if not where:
            return None
        g, p = where[(i * 97) % len(where)]
        try:
            a = p.state if getattr(p.state, "variant", None) == va else rebind(game, p.state, va)
            b = rebind(game, p.state, vb)
        except WargameError:
            return None
        return a, b, [game.action_to_json(x) for x in g.actions[: p.step]]

    return start


def confirmed(
    game: AssembledGame[Any, Any], va: Variant, vb: Variant, w: Witness
) -> Witness | None:
    """A witness of guided play from a corpus position, replayed from the set-up under both
    readings (the corpus log to the position need not be legal under B)."""
    found = replay(game, va, vb, w.log, w.difference)
    return None if found is None else attrs.evolve(found, found_by=FROM_POSITION)


def _confirmed(
    game: AssembledGame[Any, Any],
    va: Variant,
    vb: Variant,
    actions: Sequence[Any],
    diff: Difference,
) -> Witness | None:
    """The corpus game's log to the position, followed from the set-up under both readings:
    the witness of `diff` there (or of the same kind of difference earlier on the way), or,
    when the readings part another way before it, the first difference on the way (a short
    log only: following a long one position by position costs more than a pair's share)."""
    log = [game.action_to_json(x) for x in actions]
    found = replay(game, va, vb, log, diff)
    if found is not None:
        return attrs.evolve(found, found_by=FOUND_BY)
    if len(actions) <= ALONG:
        return along(game, va, vb, actions, FOUND_BY)
    return None


def _key(state: Any) -> int | None:
    """A hash of the position, to skip one met again (None: the state is not hashable)."""
    try:
        return hash(state)
    except TypeError:
        return None


def _differs_here(
    game: AssembledGame[Any, Any],
    state: Any,
    va: Variant,
    vb: Variant,
    taken: Any,
    rng: random.Random,
    tried: int,
) -> Difference | None:
    """Whether the position, read under each reading, differs: in what may be done there, or
    in where an action allowed leads: `taken` (the corpus game's own action there, under which
    the rules asked for the option; None: none) and a seeded sample of `tried` others. A
    position that one reading's position check refuses is passed over (it is no position of
    that reading)."""
    try:
        a = state if getattr(state, "variant", None) == va else rebind(game, state, va)
        b = rebind(game, state, vb)
    except WargameError:
        return None
    diff = compare(game, a, b)
    if diff is not None:
        return diff
    side = game.to_move(a)
    moves: list[Any] = []
    if side == CHANCE:
        moves = [x for x, _ in game.chance_outcomes(a)]
    elif side is not None:
        moves = list(game.legal_actions(a))
    others = [x for x in moves if x != taken]
    chosen = rng.sample(others, min(tried, len(others)))
    if taken is not None and len(others) < len(moves):
        chosen.insert(0, taken)
    for action in chosen:
        try:
            diff = after_action(game, action, game.apply(a, action), game.apply(b, action))
        except WargameError:
            return Difference("actions", (), (), "an action allowed by both is refused by one")
        if diff is not None:
            return diff
    return None
